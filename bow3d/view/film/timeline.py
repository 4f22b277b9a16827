"""A replay told as beats a camera director can read: rounds, moves, attacks with their throws, deaths.

Layer: view, but pure Python (no Panda3D), so the director and its tests run anywhere.
Positions in studs ([x, y], the centre of the footprint), facings in degrees (design.md).

More: docs/modules/view.md#timeline.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bow3d.i18n import _, current, semicolon, speaking
from bow3d.ldraw.colours import ColourTable

QUIET_RECORDS = ("end_turn", "roll", "decide")  # records that need no shot of their own
QUIET_EVENTS = ("roll_requested", "rolled", "turn_started", "turn_ended", "round_started", "round_ended",
                "decision_requested", "decided")  # events a glance's caption does not repeat


@dataclass(frozen=True)
class Pose:
    """Where a unit or vehicle stands: position in studs, facing in degrees, alive, aboard which vehicle."""

    position: tuple[float, float]
    facing_deg: float
    alive: bool = True
    aboard: str | None = None
    damage: int = 0
    marks: int = 0  # marking bricks beside the unit (BOW §2.2)
    seat: int = 0  # aboard a vehicle: which seat (0 is the pilot's)


@dataclass(frozen=True)
class ThrowShown:
    """One chance throw as recorded (a `rolled` event), whatever was thrown; the film's tray and the play
    UI show it as what it is: 2x2 bricks, dice, a card drawn, a deck shuffled, any other kind in words.

    side: the side that threw; spec: the spec's record ({"kind": "dice", "count": 2, "sides": 8,
    "keep": "highest"}, {"kind": "draw", "cards": (...)}, {"kind": "bricks", "n": 3, "p": 0.262}; lists
    as tuples); outcome: as recorded, lists as tuples (a Dice throw's faces in the order thrown, a
    Shuffle's cards in order, the card a CardDraw drew, the edges of BOW's Bricks); purpose: the
    ruleset's word for why (a machine word); words: the ruleset's narrator's line for the `rolled`
    event ('' when there is none), which the tray's caption shows.
    """

    side: str
    spec: Mapping[str, Any]
    outcome: Any
    purpose: str = ""
    words: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "spec", {str(k): _frozen(v) for k, v in dict(self.spec).items()})
        object.__setattr__(self, "outcome", _frozen(self.outcome))

    def __hash__(self) -> int:
        return hash((self.side, repr(sorted(self.spec.items())), repr(self.outcome), self.purpose, self.words))

    @property
    def kind(self) -> str:
        """The spec's kind: 'bricks', 'dice', 'shuffle', 'draw', or a ruleset's own."""
        return str(self.spec.get("kind", ""))

    @property
    def bricks(self) -> int:
        """BOW §2.1: how many 2x2 bricks were thrown (0 for other kinds)."""
        return int(self.spec.get("n", 0)) if self.kind == "bricks" else 0

    @property
    def edges(self) -> int:
        """BOW §2.1: how many landed on their edge (0 for other kinds)."""
        return int(self.outcome) if self.kind == "bricks" and isinstance(self.outcome, int) else 0


def BrickRollShown(side: str, bricks: int, edges: int, purpose: str = "", words: str = "") -> ThrowShown:  # noqa: N802
    """One throw of 2x2 bricks as recorded: `edges` of `bricks` landed on their edge (BOW §2.1)."""
    return ThrowShown(side, {"kind": "bricks", "n": int(bricks)}, int(edges), purpose, words)


def _frozen(value: Any) -> Any:
    """Lists (from a record) as tuples, so a throw compares the same however it was read."""
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    return value


@dataclass(frozen=True)
class RoundStarted:
    round: int


@dataclass(frozen=True)
class Moved:
    unit: str
    path: tuple[tuple[float, float], ...]  # studs, the start position first


@dataclass(frozen=True)
class VehicleMoved:
    vehicle: str
    path: tuple[tuple[float, float], ...]  # studs, the start position first
    facings: tuple[float, float]  # degrees, before and after


@dataclass(frozen=True)
class Attacked:
    firer: str
    target: str
    rolls: tuple[ThrowShown, ...]
    damage: int
    ranged: bool = True


@dataclass(frozen=True)
class Treated:
    medic: str
    target: str
    rolls: tuple[ThrowShown, ...]
    healed: int


@dataclass(frozen=True)
class Died:
    unit: str
    by: str | None = None


@dataclass(frozen=True)
class RollsShown:
    """Throws with no action around them (who starts the round, BOW §2.2; a deck shuffled, a card drawn)."""

    rolls: tuple[ThrowShown, ...]


@dataclass(frozen=True)
class Narrated:
    """Any other action (pass, reload, grab, board...): a short caption on the unit, and the throws it
    needed, if any (a morale test, a card drawn to activate)."""

    unit: str | None
    rolls: tuple[ThrowShown, ...] = ()


Beat = RoundStarted | Moved | VehicleMoved | Attacked | Treated | Died | RollsShown | Narrated


@dataclass(frozen=True)
class Step:
    """One beat with the state around it: poses of every unit and vehicle before and after."""

    beat: Beat
    round: int
    side: str | None
    before: Mapping[str, Pose]
    after: Mapping[str, Pose]
    text: str = ""  # the narrator's lines of the step's events, for a glance's caption
    doors: Mapping[str, bool] = field(default_factory=dict)  # door id -> open, once the step is done
    caption: str = ""  # the narrator's line announcing the action ('blue-3 fires its rifle at red-2 ...')
    result: str = ""   # the narrator's line weighing its throws ('... 2 attack bricks on edge vs 1 dodge: 1 damage')


@dataclass(frozen=True)
class SideStyle:
    """How a side is shown: its name and its colour (RGB 0-1, from its LDraw colour code)."""

    name: str
    rgb: tuple[float, float, float]


@dataclass(frozen=True)
class Timeline:
    """The whole story: the starting poses, the steps, the sides, who is a vehicle."""

    scene_name: str
    start: Mapping[str, Pose]
    steps: tuple[Step, ...]
    sides: Mapping[str, SideStyle] = field(default_factory=dict)
    unit_sides: Mapping[str, str] = field(default_factory=dict)
    vehicles: frozenset[str] = frozenset()
    labels: Mapping[str, str] = field(default_factory=dict)  # id -> "blue-3 (rifleman)"
    winner: str | None = None
    finished: bool = False  # the game ended (a cut-short replay has no final title)
    start_doors: Mapping[str, bool] = field(default_factory=dict)  # door id -> open, at the start
    parts_note: str = ""  # a pack's own LDraw parts, in a few words (bow3d.replay.opened.PartsCheck.short)

    def poses_after(self, index: int) -> Mapping[str, Pose]:
        """Poses once step `index` is done (-1: the start)."""
        return self.start if index < 0 else self.steps[index].after


# --- from the rules' state ---------------------------------------------------------------------

def snapshot(game: Any) -> dict[str, Pose]:
    """Poses of every unit and vehicle of a game in progress, as its table shows them (bow3d.rules.table)."""
    poses: dict[str, Pose] = {}
    for piece in game.ruleset.presentation().pieces(game.state):
        position = piece.position if piece.position is not None else (math.nan, math.nan)
        poses[piece.id] = Pose(position, piece.facing, piece.alive, piece.aboard, piece.on_top, piece.beside,
                               piece.seat)
    return poses


def _actor(record: Mapping[str, Any]) -> str | None:
    """Who acts in a record (the unit, else the vehicle)."""
    for key in ("unit", "vehicle"):
        if isinstance(record.get(key), str):
            return record[key]
    return None


def _centre(cell: Sequence[Any]) -> tuple[float, float]:
    return (float(cell[0]) + 0.5, float(cell[1]) + 0.5)


def rolls_shown(events: Sequence[Any], narrator: Any = None) -> tuple[ThrowShown, ...]:
    """The throws among a group's events (`rolled`, any spec kind), in order, each with its narrator's line."""
    throws = []
    for i, e in enumerate(events):
        if e.kind != "rolled":
            continue
        spec = e.get("spec")
        words = narrator.line(e, events[i + 1:]) if narrator is not None else None
        throws.append(ThrowShown(str(e.get("side")), spec if isinstance(spec, Mapping) else {"kind": str(spec)},
                                 e.get("outcome"), str(e.get("purpose", "")), words or ""))
    return tuple(throws)


def beats_for_events(record: Mapping[str, Any] | None, events: Sequence[Any], before: Mapping[str, Pose],
                     after: Mapping[str, Pose], narrator: Any) -> list[tuple[Beat, str, str]]:
    """The beats of one record group (an action and its throws) from its typed events, each with
    its caption and result words (the narrator's lines for the events it shows)."""
    rolls = rolls_shown(events, narrator)
    if record is None:
        return [(RollsShown(rolls), "", "")] if rolls else []
    actor = _actor(record)
    beats: list[tuple[Beat, str, str]] = []
    acts: list[tuple[Beat, str, str]] = []
    deaths: list[tuple[Beat, str, str]] = []
    attack = treat = None
    for i, event in enumerate(events):
        kind, data = event.kind, event.data
        if kind == "moved" and data.get("path"):
            unit = data["unit"]
            start = before[unit].position if unit in before else _centre(data["from"])
            points = (start, *(_centre(c) for c in data["path"]))
            end = after[unit].position if unit in after else points[-1]
            beats.append((Moved(unit, points if points[-1] == end else (*points, end)), "", ""))
        elif kind == "vehicle_moved" and float(data.get("distance", 0.0)) > 0:
            vehicle = data["vehicle"]
            facings = (before[vehicle].facing_deg if vehicle in before else 0.0,
                       after[vehicle].facing_deg if vehicle in after else 0.0)
            beats.append((VehicleMoved(vehicle, (tuple(data["from"]), tuple(data["to"])), facings), "", ""))
        elif kind == "placed" and data.get("unit") in before and not math.isnan(before[data["unit"]].position[0]):
            unit = data["unit"]
            beats.append((Moved(unit, (before[unit].position, tuple(data["position"]))), "", ""))
        elif kind == "attack":
            attack = event
        elif kind == "attack_result" and attack is not None:
            ranged = not attack.get("melee", False)
            acts.append((Attacked(data["unit"], data["target"], rolls, int(data["damage"]), ranged),
                         narrator.line(attack) or "", narrator.line(event, events[i + 1:]) or ""))
            attack = None
        elif kind == "treat":
            treat = event
        elif kind == "treat_result" and treat is not None:
            acts.append((Treated(data["unit"], data["target"], rolls, int(data["healed"])),
                         narrator.line(treat) or "", narrator.line(event, events[i + 1:]) or ""))
            treat = None
        elif kind in ("died", "destroyed"):
            gone = data.get("unit") or data.get("vehicle")
            if gone in before and before[gone].alive:
                deaths.append((Died(gone, actor), "", narrator.line(event) or ""))
    if attack is not None:  # an attack whose throws are still to come (a cut-short replay)
        acts.append((Attacked(attack.get("unit"), attack.get("target"), rolls, 0, not attack.get("melee", False)),
                     narrator.line(attack) or "", ""))
    beats += acts
    if not beats and record.get("type") not in QUIET_RECORDS:
        said = [narrator.line(e) for e in events if e.kind not in QUIET_EVENTS]
        beats.append((Narrated(actor, rolls), "", next((line for line in said if line), "")))
    return beats + deaths


@dataclass
class _Group:
    """One action and the throws and decisions applied with it, as the re-play goes."""

    action: Mapping[str, Any] | None
    before: Mapping[str, Pose]
    doors_before: Mapping[str, bool]
    round_before: int
    events: list[Any] = field(default_factory=list)


def _state_of(game: Any) -> tuple[dict[str, Pose], dict[str, bool], int]:
    return (snapshot(game), dict(getattr(game.state, "doors", None) or {}),
            int(getattr(game.state, "round", 1) or 1))


def _round_title(language: str | None):
    """n -> 'Round n' in `language` (the narrator's)."""
    def title(n: int) -> str:
        with speaking(language or current()):
            return _("Round {n}").format(n=n)
    return title


def timeline_from_replay(opened: Any, geometry: Any = None, sides: Mapping[str, SideStyle] | None = None,
                         language: str | None = None) -> Timeline:
    """Re-play a replay (an OpenReplay: bow3d.replay.open_replay) through its one re-simulation loop
    and tell what happened as beats, read from the typed events; captions from its ruleset's
    narrator in `language`. Records are taken in groups: an action and the throws and decisions
    after it (throws before the first action form groups of their own).

    A record the rules refuse raises ReplayError naming its entry."""
    scene = opened.scene()
    parts = getattr(opened, "parts", None)
    narrator = opened.narrator(language)
    round_title = _round_title(narrator.language)
    game = opened.start(geometry)
    vehicles = frozenset(v.id for v in getattr(scene, "vehicles", []) or [])
    start, start_doors, _doors = _state_of(game)
    steps: list[Step] = []
    shown: list[int | None] = [None]
    groups: list[_Group] = []

    def close(group: _Group) -> None:
        after, doors_after, round_after = _state_of(game)
        action = group.action
        round_now = group.round_before if action is not None else round_after
        side = _side_of(scene, actor) if action is not None and (actor := _actor(action)) else None
        if round_now != shown[0]:
            steps.append(Step(RoundStarted(round_now), round_now, None, group.before, group.before,
                              round_title(round_now), group.doors_before))
            shown[0] = round_now
        events = group.events
        with speaking(narrator.language):   # the narrator's language, which may not be the one spoken
            between = semicolon()
        text = between.join(line for line in narrator.lines([e for e in events if e.kind not in QUIET_EVENTS]) if line)
        for beat, caption, result in beats_for_events(action, events, group.before, after, narrator):
            steps.append(Step(beat, round_now, side, group.before, after, text, doors_after, caption, result))

    def look(entry: Any, game: Any, action: Any) -> None:
        """Before each record: a throw or a decision joins the open group, an action opens one."""
        if entry.record.get("type") in ("roll", "decide") and groups:
            return
        if groups:
            close(groups[-1])
        action_record = None if entry.record.get("type") in ("roll", "decide") else entry.record
        groups.append(_Group(action_record, *_state_of(game)))

    for _entry, _action, events in opened.replay_entries(game, look):
        groups[-1].events.extend(events)
    if groups:
        close(groups[-1])
    return Timeline(getattr(scene, "name", "") or "", start, merge_moves(steps), dict(sides or side_styles(scene)),
                    unit_sides(scene), vehicles, unit_labels(scene), game.winner if game.is_over else None,
                    bool(game.is_over), start_doors, parts.short() if parts is not None else "")


def merge_moves(steps: Sequence[Step]) -> tuple[Step, ...]:
    """Consecutive moves of the same unit (two move actions in one turn) told as one walk."""
    merged: list[Step] = []
    for step in steps:
        last = merged[-1] if merged else None
        if last is not None and isinstance(step.beat, Moved) and isinstance(last.beat, Moved) \
                and step.beat.unit == last.beat.unit and step.beat.path[0] == last.beat.path[-1]:
            beat = Moved(step.beat.unit, last.beat.path + step.beat.path[1:])
            merged[-1] = replace(last, beat=beat, after=step.after, text=f"{last.text}; {step.text}",
                                 doors=step.doors)
        else:
            merged.append(step)
    return tuple(merged)


def _xy(position: Any) -> tuple[float, float]:
    """A position in studs as two floats."""
    return float(position[0]), float(position[1])


def _side_of(scene: Any, id_: str) -> str | None:
    return unit_sides(scene).get(id_)


def unit_sides(scene: Any) -> dict[str, str]:
    """id -> side id, for units and vehicles."""
    return {item.id: item.side for kind in ("units", "vehicles") for item in getattr(scene, kind, []) or []}


def unit_labels(scene: Any) -> dict[str, str]:
    """id -> 'blue-3 (rifleman)': the unit and its description sheet."""
    return {item.id: f"{item.id} ({item.sheet})" for kind in ("units", "vehicles")
            for item in getattr(scene, kind, []) or []}


def side_styles(scene: Any, colour_rgb: Any = None) -> dict[str, SideStyle]:
    """Side id -> name and colour; `colour_rgb(code) -> (r, g, b)` 0-255 (default: a few LDraw colours)."""
    styles = {}
    for side in getattr(scene, "sides", []) or []:
        standard = _STANDARD.get(side.colour) if side.colour in _STANDARD else None
        rgb = colour_rgb(side.colour) if colour_rgb else standard.rgba[:3] if standard else (200, 200, 200)
        styles[side.id] = SideStyle(side.name or side.id, (rgb[0] / 255.0, rgb[1] / 255.0, rgb[2] / 255.0))
    return styles


_STANDARD = ColourTable()  # LDConfig's standard colours (bow3d.ldraw.ldconfig_table): a side's colour without a library


# --- a scripted battle, straight from a scene ----------------------------------------------------

def synthetic_timeline(scene: Any, rounds: int = 2) -> Timeline:
    """A short scripted battle on `scene`: each round every unit steps towards the nearest enemy and
    the first unit of each side fires at the nearest enemy; the third shot kills. Deterministic.

    For benchmarks and tests, and to film a scene that has no replay yet; the brick rolls are
    fixed numbers, not the rules' (nothing here is a rules decision).
    """
    sides = unit_sides(scene)
    poses = {u.id: Pose(_xy(u.position), float(u.facing)) for u in scene.units if u.position}
    for v in getattr(scene, "vehicles", []) or []:
        poses[v.id] = Pose(_xy(v.position), float(v.facing))
    steps: list[Step] = []
    shots = 0
    for round_ in range(1, rounds + 1):
        steps.append(Step(RoundStarted(round_), round_, None, dict(poses), dict(poses), f"Round {round_}"))
        for unit in [u for u in scene.units if u.id in poses and poses[u.id].alive]:
            if not poses[unit.id].alive:
                continue
            enemy = _nearest_enemy(unit.id, poses, sides)
            if enemy is None:
                continue
            me, them = poses[unit.id], poses[enemy]
            dx, dy = them.position[0] - me.position[0], them.position[1] - me.position[1]
            distance = math.hypot(dx, dy)
            facing = math.degrees(math.atan2(dy, dx)) % 360
            if unit.id in (scene.units_of(sides[unit.id])[0].id,) and shots < 3:
                shots += 1
                rolls = (BrickRollShown(sides[unit.id], 3, 2 if shots != 2 else 0, "attack"),
                         BrickRollShown(sides[enemy], 1, 0 if shots != 2 else 1, "dodge"))
                before = dict(poses)
                poses[unit.id] = Pose(me.position, facing)
                dies = shots == 3
                poses[enemy] = Pose(them.position, them.facing_deg, not dies, None, them.damage + (shots != 2))
                text = (f"{unit.id} fires at {enemy}: {rolls[0].edges} on edge vs {rolls[1].edges}: "
                        f"{'1 damage' if shots != 2 else 'dodged'}" + (f", {enemy} dies" if dies else ""))
                steps.append(Step(Attacked(unit.id, enemy, rolls, int(shots != 2)), round_, sides[unit.id],
                                  before, dict(poses), text))
                if dies:
                    steps.append(Step(Died(enemy, unit.id), round_, sides[unit.id], before, dict(poses), text))
                continue
            step = min(4.0, max(0.0, distance - 6.0))
            if step < 1:
                continue
            end = (math.floor(me.position[0] + dx / distance * step) + 0.5,
                   math.floor(me.position[1] + dy / distance * step) + 0.5)
            before = dict(poses)
            poses[unit.id] = Pose(end, facing)
            steps.append(Step(Moved(unit.id, (me.position, end)), round_, sides[unit.id], before, dict(poses),
                              f"{unit.id} moves {step:.0f} studs"))
    return Timeline(getattr(scene, "name", "") or "", steps[0].before, tuple(steps), side_styles(scene), sides,
                    frozenset(v.id for v in getattr(scene, "vehicles", []) or []), unit_labels(scene))


def _nearest_enemy(unit: str, poses: Mapping[str, Pose], sides: Mapping[str, str]) -> str | None:
    me = poses[unit].position
    enemies = [(math.hypot(p.position[0] - me[0], p.position[1] - me[1]), id_) for id_, p in poses.items()
               if sides.get(id_) != sides.get(unit) and p.alive and p.aboard is None]
    return min(enemies)[1] if enemies else None
