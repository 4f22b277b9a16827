"""The table: what a game in progress shows any front end, and how a ruleset presents itself.

Layer: rules (pure Python). A front end (the Panda3D play UI and viewer, the film's captions, a
browser, a forum post) reads a game only through a `Table`: the pieces on the battlefield, what the
game awaits now, the legal choices with their words, what each aims at and its preview (path,
odds), and a unit's sheet as rows. Every value here is plain data (`to_dict()` is JSON-ready).
Each ruleset brings its `Presentation` (`Ruleset.presentation()`); the base class reads the common
shapes (a state's `units` and `vehicles`, an action's `unit`, `target`, `to`), so a small ruleset
needs none of its own. Units: studs, degrees (0 = +X, counter-clockwise). docs/table.md has more.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bow3d.i18n import _, term
from bow3d.rules.pending import Decide, DecisionRequest
from bow3d.rules.records import Action, plain
from bow3d.scene.sheet_words import field_words

if TYPE_CHECKING:
    from bow3d.rules.game import Game
    from bow3d.rules.ruleset import Ruleset

AIM_KINDS = ("none", "unit", "cell", "point")  # what a choice aims at; 'cell': a stud cell (i, j), 'point': (x, y)
HUMAN = "human"


@dataclass(frozen=True)
class Aim:
    """What a choice aims at: nothing, a unit or vehicle (`target`), a stud cell or a point (`at`, studs)."""

    kind: str = "none"
    target: str | None = None
    at: tuple[float, float] | None = None  # a cell's (i, j) or a point's (x, y)

    @property
    def point(self) -> tuple[float, float] | None:
        """Where it aims on the battlefield (studs): a cell's centre, a point; None for a unit or nothing."""
        if self.at is None:
            return None
        return (self.at[0] + 0.5, self.at[1] + 0.5) if self.kind == "cell" else (float(self.at[0]), float(self.at[1]))


@dataclass(frozen=True)
class Odds:
    """The chance a choice succeeds and what it does on average, with the book's words for it."""

    success: float
    expected: float = 0.0        # damage dealt, points removed, wounds...: the ruleset says in `words`
    words: str = ""


@dataclass(frozen=True)
class Preview:
    """What a choice would do, shown before it is committed: its path (studs), odds, cost, words, and whether
    the line of sight to its target is drawn (`sight`: a shot or an attack)."""

    words: str = ""
    path: tuple[tuple[float, float], ...] = ()
    odds: Odds | None = None
    cost: str = ""
    sight: bool = False


@dataclass(frozen=True)
class Reach:
    """A chosen unit's reach now: the cells it may move to, the enemies it strikes in melee now, and the
    cells from which a charge would strike (cell -> enemies)."""

    cells: tuple[tuple[int, int], ...] = ()
    melee: tuple[str, ...] = ()
    charges: Mapping[tuple[int, int], tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class Choice:
    """One legal choice: `index` in the table's list, who acts (`actor`, a unit or None), its words, aim."""

    index: int
    kind: str                    # the record's type ('move', 'attack', 'decide', ...)
    actor: str | None
    words: str
    aim: Aim
    record: Mapping[str, Any]    # the record it stands for (JSON-ready)

    @property
    def waits(self) -> bool:
        """Does it wait to be confirmed (it aims at something: its preview is shown first)?"""
        return self.aim.kind != "none"


@dataclass(frozen=True)
class Piece:
    """A unit or vehicle as the table shows it: where (studs; None off the battlefield or aboard), facing,
    alive, aboard what in which seat, the markers it carries (beside it, on it) and its state in words."""

    id: str
    side: str
    kind: str = "unit"           # 'unit' | 'vehicle'
    sheet: str = ""
    position: tuple[float, float] | None = None
    facing: float = 0.0
    alive: bool = True
    aboard: str | None = None
    seat: int = 0
    beside: int = 0              # markers on the ground beside it (e.g. the actions it has spent)
    on_top: int = 0              # markers on it (damage)
    words: str = ""              # its state in words ('knocked down', 'burning 2')
    held: str | None = None      # the weapon in hand, where the sheet shows one
    posture: str = "standing"    # 'standing', 'on_back', 'face_down' (lying, still in play) or 'gone' (off the table)


@dataclass(frozen=True)
class SheetRow:
    """One row of a unit's sheet: its label, its value in words, and (for a sheet drawn as studs on a plate)
    one LDraw colour code per stud and how many of them are marked (damage)."""

    label: str
    value: str
    studs: tuple[int, ...] = ()
    marked: int = 0


@dataclass(frozen=True)
class Key:
    """A key a ruleset adds to the table (e.g. ']' speeds a piloted vehicle up) and its words."""

    key: str
    words: str


@dataclass(frozen=True)
class Awaiting:
    """What the game awaits now: over or not, the round, the side to play and who plays it, the decision
    asked (if any) and every legal choice."""

    over: bool
    round: int
    side: str | None
    player: str | None
    decision: str | None
    choices: tuple[Choice, ...]
    result: str | None = None
    winner: str | None = None

    @property
    def units(self) -> tuple[str, ...]:
        """The units with a choice now, in order."""
        return tuple(dict.fromkeys(c.actor for c in self.choices if c.actor))


def to_dict(value: Any) -> Any:
    """A table value as JSON-ready data (dataclasses as mappings, tuples as lists, cell keys as 'i,j')."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_dict(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {",".join(map(str, k)) if isinstance(k, tuple) else str(k): to_dict(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_dict(v) for v in value]
    return plain(value)


class Presentation:
    """How a ruleset shows itself at the table. The base reads the common shapes; a ruleset overrides what
    its book words or draws otherwise (bow3d.rulesets.*.present)."""

    sheet_plate: int | None = None  # LDraw colour of the plate a sheet is drawn on as studs (None: words only)
    move_kinds: tuple[str, ...] = ("move",)  # the record types a click on the battlefield chooses (by where they end)
    decisions: Mapping[str, str] = {}  # decision -> its name in the book (N_-marked), for the answers' words
    end_kinds: tuple[str, ...] = ("end_turn",)  # the record types Space chooses, first the first (the unit's, else the side's)

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset

    # -- pieces ------------------------------------------------------------------------------
    def pieces(self, state: Any) -> tuple[Piece, ...]:
        """Every unit and vehicle of `state` (its `units` and `vehicles` mappings)."""
        seats = {occupant: k for vehicle in _items(state, "vehicles")
                 for k, occupant in enumerate(getattr(vehicle, "seats", ()) or ()) if occupant}
        found = [self.piece(item, "vehicle", 0) for item in _items(state, "vehicles")]
        found += [self.piece(item, "unit", seats.get(item.id, 0)) for item in _items(state, "units")]
        return tuple(found)

    def piece(self, item: Any, kind: str, seat: int) -> Piece:
        position = getattr(item, "position", None)
        return Piece(item.id, str(getattr(item, "side", "")), kind, str(getattr(item, "sheet", "")),
                     None if position is None else (float(position[0]), float(position[1])),
                     float(getattr(item, "facing", 0.0) or 0.0),
                     bool(getattr(item, "alive", True)) and not getattr(item, "destroyed", False),
                     getattr(item, "aboard", None), seat, on_top=int(getattr(item, "damage", 0) or 0),
                     held=weapon if isinstance(weapon := getattr(item, "weapon", None), str) else None)

    # -- choices -----------------------------------------------------------------------------
    def actor(self, action: Action) -> str | None:
        """The unit (or vehicle) that acts, or None (an answer, the side's end of turn)."""
        for name in ("unit", "vehicle"):
            value = getattr(action, name, None)
            if isinstance(value, str):
                return value
        return None

    def words(self, action: Action, game: Game | None = None) -> str:
        """The choice in words ('attack red-2 with rifle'); the base: its kind and fields."""
        if isinstance(action, Decide):
            request = game.pending if game is not None else None
            choice = _("yes") if action.choice is True else _("no") if action.choice is False else _plain_words(
                action.choice)
            if not isinstance(request, DecisionRequest):
                return _("answer: {choice}").format(choice=choice)
            return _("{decision}: {choice}").format(decision=term(self.decisions, request.decision, plain=True),
                                                    choice=choice)
        fields = [f"{_plain_words(getattr(action, f.name))}" for f in dataclasses.fields(action)
                  if f.name not in ("unit", "side")]
        return " ".join([action.TYPE.replace("_", " "), *fields])

    def aim(self, action: Action, game: Game | None = None) -> Aim:
        """What the choice aims at: a unit (`target`, the first of `targets`), a cell (`to`), a point (`x`, `y`;
        the last point of a `path`). `game`: for a ruleset whose moves are relative to where the unit stands."""
        target = getattr(action, "target", None)
        targets = getattr(action, "targets", None)
        if isinstance(target, str):
            return Aim("unit", target)
        if isinstance(targets, tuple) and targets and isinstance(targets[0], str):
            return Aim("unit", targets[0])
        to = getattr(action, "to", None)
        if isinstance(to, (tuple, list)) and len(to) == 2:
            return Aim("cell", at=(int(to[0]), int(to[1])))
        path = getattr(action, "path", None)
        if isinstance(path, tuple) and path and isinstance(path[-1], (tuple, list)):
            return Aim("point", at=(float(path[-1][0]), float(path[-1][1])))
        x, y = getattr(action, "x", None), getattr(action, "y", None)
        if isinstance(x, (int, float)) and isinstance(y, (int, float)):
            return Aim("point", at=(float(x), float(y)))
        return Aim()

    def preview(self, game: Game, action: Action) -> Preview:
        """What the choice would do (the base: nothing more than its words)."""
        return Preview(self.words(action, game))

    def reach(self, game: Game, unit: str, legal: Sequence[Action]) -> Reach:
        """The cells the unit's legal moves end on (its own left out)."""
        own = next((p.position for p in self.pieces(game.state) if p.id == unit), None)
        here = None if own is None else (math.floor(own[0]), math.floor(own[1]))
        cells = {_cell_of(self.aim(a, game)) for a in legal if a.TYPE in self.move_kinds and self.actor(a) == unit}
        return Reach(tuple(sorted(c for c in cells if c is not None and c != here)))

    def at_cell(self, game: Game, unit: str, cell: tuple[int, int], legal: Sequence[Action]) -> Action | None:
        """The choice that takes `unit` to `cell` (a legal move ending there), or None."""
        options = [a for a in legal if a.TYPE in self.move_kinds and self.actor(a) == unit
                   and _cell_of(self.aim(a, game)) == cell]
        return options[0] if options else None

    def prefer(self, game: Game, unit: str, options: Sequence[Action]) -> list[Action]:
        """Several choices of `unit` on one target, the likeliest first (the base: as listed)."""
        return list(options)

    def end_turn(self, game: Game, unit: str | None, legal: Sequence[Action]) -> Action | None:
        """The choice that ends the chosen unit's turn (or step) now, else one that ends the side's turn, or None."""
        ends = [a for a in legal if a.TYPE in self.end_kinds]
        ends.sort(key=lambda a: self.end_kinds.index(a.TYPE))
        return next((a for a in ends if unit is not None and self.actor(a) == unit),
                    next((a for a in ends if self.actor(a) is None), None))

    # -- keys ---------------------------------------------------------------------------------
    def ruleset_keys(self) -> tuple[Key, ...]:
        """The keys this ruleset adds to the table (`key_choice` answers them)."""
        return ()

    def key_choice(self, game: Game, unit: str | None, key: str, legal: Sequence[Action]) -> Action | None:
        return None

    # -- sheets ------------------------------------------------------------------------------
    def sheet_plate_of(self, scene: Any, unit: str) -> int | None:
        """The LDraw colour of the plate the unit's sheet is built on (None: rows of words only)."""
        return self.sheet_plate

    def sheet_rows(self, scene: Any, unit: str, piece: Piece | None = None) -> tuple[SheetRow, ...]:
        """A unit's sheet as rows: its fields as written (empty ones left out), then its state in words."""
        rows = [SheetRow(label, value) for label, value in sheet_table(scene.sheet(scene.body(unit).sheet))]
        if piece is not None and piece.words:
            rows.append(SheetRow(_("state"), piece.words))
        return tuple(rows)


def sheet_table(sheet: Any) -> list[tuple[str, str]]:
    """(field, value) rows of a sheet as written, empty fields left out; the fields' names in the language
    spoken (bow3d.scene.sheet_words), the values (the book's ids) as written."""
    data = sheet.model_dump() if hasattr(sheet, "model_dump") else dict(vars(sheet))
    rows = []
    for key, value in data.items():
        if value in (None, {}, [], ""):
            continue
        if isinstance(value, list):
            value = ", ".join(str(v.get("name", v)) if isinstance(v, dict) else str(v) for v in value)
        rows.append((field_words(key), str(value)))
    return rows


class Table:
    """A game in progress as every front end sees it. `players` maps each side to 'human' or an opponent's
    name. The legal choices are worked out once per record (`choices()`)."""

    def __init__(self, game: Game, players: Mapping[str, str] | None = None) -> None:
        self.game = game
        self.players = dict(players or {})
        self.present = game.ruleset.presentation()
        self._seen: tuple[int, Any] | None = None  # (records, the state object) the answers below are for
        self._legal: list[Action] | None = None
        self._pieces: dict[str, Piece] | None = None

    def _fresh(self) -> None:
        """Forget the legal choices and pieces once a record was applied or taken back. The state object itself
        is kept (not its id): taking back puts another object in its place, and a freed id may come back."""
        records, state = len(self.game.records), self.game.state
        if self._seen is None or self._seen[0] != records or self._seen[1] is not state:
            self._seen, self._legal, self._pieces = (records, state), None, None

    def legal(self) -> list[Action]:
        """The legal choices now: the ruleset's legal actions, or the answers to the decision awaited."""
        self._fresh()
        if self._legal is None:
            request = self.game.pending
            self._legal = ([request.answer(o) for o in request.options] if isinstance(request, DecisionRequest)
                           else self.game.legal_actions())
        return self._legal

    def _by_id(self) -> dict[str, Piece]:
        self._fresh()
        if self._pieces is None:
            self._pieces = {p.id: p for p in self.present.pieces(self.game.state)}
        return self._pieces

    def pieces(self) -> tuple[Piece, ...]:
        return tuple(self._by_id().values())

    def piece(self, id: str) -> Piece | None:
        return self._by_id().get(id)

    def choice(self, index: int, action: Action) -> Choice:
        return Choice(index, action.TYPE, self.present.actor(action), self.present.words(action, self.game),
                      self.present.aim(action, self.game), action.to_record())

    def choices(self, unit: str | None = None) -> tuple[Choice, ...]:
        """Every legal choice (of `unit` only, when given)."""
        return tuple(self.choice(k, a) for k, a in enumerate(self.legal())
                     if unit is None or self.present.actor(a) == unit)

    def action(self, choice: Choice | int) -> Action:
        """The action a choice (or its index) stands for."""
        return self.legal()[choice if isinstance(choice, int) else choice.index]

    def awaiting(self, choices: bool = True) -> Awaiting:
        """What the game awaits now; `choices` False leaves the choices out (a status line needs none, and
        wording every legal move costs)."""
        game = self.game
        side = game.side_to_play
        request = game.pending
        decision = request.decision if isinstance(request, DecisionRequest) else None
        return Awaiting(game.is_over, int(getattr(game.state, "round", 0) or 0), side,
                        self.players.get(side, HUMAN) if side else None, decision,
                        self.choices() if choices and not game.is_over else (), game.result, game.winner)

    def preview(self, action: Action) -> Preview:
        return self.present.preview(self.game, action)

    def to_dict(self) -> dict[str, Any]:
        """The table now as JSON-ready data: what is awaited, the pieces."""
        return {"awaiting": to_dict(self.awaiting()), "pieces": to_dict(self.pieces())}


def _items(state: Any, name: str) -> Iterable[Any]:
    items = getattr(state, name, None) or {}
    return items.values() if isinstance(items, Mapping) else items


def _cell_of(aim: Aim) -> tuple[int, int] | None:
    point = aim.point
    return None if point is None else (math.floor(point[0]), math.floor(point[1]))


def _plain_words(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (tuple, list)):
        return "(" + ", ".join(_plain_words(v) for v in value) + ")"
    return str(value)
