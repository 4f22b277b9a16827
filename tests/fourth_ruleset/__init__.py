"""A fourth ruleset that lives only in the tests: "d6 skirmish", move and shoot with one d6.

It proves the seam of issue 30: registered at test time (`register()`), it plays in `bow3d play` with aiming
and odds, simulates, verifies, films and reports, and nothing outside this package names it. Each side in
turn plays one of its units: a move of up to its sheet's `move` studs (straight, to a cell), then a shot at an
enemy within `range` studs that it sees (the world's line of sight), hit on a d6 of `hit_on` or more (a
cover-free throw: the one die is recorded), a hit takes 1 of the target's `hp`; then its turn ends. A side
with no unit left loses; after the round limit, the side with more units standing wins.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from bow3d.rules import (
    RULESETS,
    Action,
    ChanceRequest,
    Dice,
    EventKind,
    EventSchema,
    FieldSpec,
    Game,
    Narrator,
    Reason,
    Refusal,
    Ruleset,
    pending as answers,
)
from bow3d.rules.pending import Pending
from bow3d.rules.table import Odds, Presentation, Preview
from bow3d.scene import Scene

NAME = "d6-skirmish"


class D6Params(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Literal["d6-skirmish"] = NAME
    hit_on: int = Field(4, ge=2, le=6)


class D6Sheet(BaseModel):
    model_config = ConfigDict(extra="forbid")
    move: int = Field(4, ge=0, le=50)
    range: int = Field(12, ge=1, le=200)
    hp: int = Field(1, ge=1, le=9)


class D6Scene(Scene):
    ruleset: D6Params = Field(default_factory=D6Params)  # type: ignore[assignment]
    sheets: dict[str, D6Sheet] = Field(default_factory=dict)  # type: ignore[assignment]


@dataclass(frozen=True)
class Move(Action):
    TYPE: ClassVar[str] = "move"
    unit: str
    to: tuple[int, int]


@dataclass(frozen=True)
class Shoot(Action):
    TYPE: ClassVar[str] = "shoot"
    unit: str
    target: str


@dataclass(frozen=True)
class EndTurn(Action):
    TYPE: ClassVar[str] = "end_turn"
    unit: str


@dataclass(frozen=True)
class UnitState:
    id: str
    side: str
    sheet: str
    position: tuple[float, float] | None
    facing: float
    damage: int = 0
    alive: bool = True


@dataclass
class State:
    round: int = 1
    side_to_play: str | None = None
    active: str | None = None
    moved: bool = False
    shot: bool = False
    played: dict[str, frozenset[str]] = field(default_factory=dict)
    units: dict[str, UnitState] = field(default_factory=dict)
    pending: Pending | None = None
    winner: str | None = None
    result: str | None = None
    over: bool = False

    def copy(self) -> State:
        return dataclasses.replace(self, units=dict(self.units), played=dict(self.played))


@dataclass
class Context:
    scene: Any
    geometry: Any
    max_rounds: int | None

    @property
    def sides(self) -> list[str]:
        return [s.id for s in self.scene.sides]

    def sheet(self, unit: UnitState) -> D6Sheet:
        return self.scene.sheets[unit.sheet]


def _centre(cell: tuple[int, int]) -> tuple[float, float]:
    return (cell[0] + 0.5, cell[1] + 0.5)


def _may_act(g: Game, unit_id: str) -> Refusal | None:
    state = g.state
    unit = state.units.get(unit_id)
    if unit is None or not unit.alive:
        return Refusal(Reason.UNKNOWN, f"no unit {unit_id!r} standing")
    if unit.side != state.side_to_play:
        return Refusal(Reason.NOT_YOUR_TURN, f"it is {state.side_to_play}'s turn")
    if state.active not in (None, unit_id):
        return Refusal(Reason.NOT_ALLOWED, f"{state.active} is playing this turn")
    if state.active is None and unit_id in state.played.get(unit.side, frozenset()):
        return Refusal(Reason.NOT_ALLOWED, f"{unit_id} has played this round")
    return None


def check_move(g: Game, action: Move) -> Refusal | None:
    refusal = _may_act(g, action.unit)
    if refusal is not None:
        return refusal
    unit = g.state.units[action.unit]
    if g.state.moved or g.state.shot:
        return Refusal(Reason.NOT_ALLOWED, f"{action.unit} has moved already")
    if math.dist(unit.position, _centre(action.to)) > g.ctx.sheet(unit).move + 1e-9:
        return Refusal(Reason.TOO_FAR, f"{action.to} is beyond {action.unit}'s move")
    if any(u.alive and u.id != unit.id and u.position is not None and math.dist(u.position, _centre(action.to)) < 1.0
           for u in g.state.units.values()):
        return Refusal(Reason.NOT_ALLOWED, f"{action.to} is taken")
    return None


def apply_move(g: Game, action: Move) -> list:
    unit = g.state.units[action.unit]
    to = _centre(action.to)
    facing = math.degrees(math.atan2(to[1] - unit.position[1], to[0] - unit.position[0])) % 360.0
    g.state.units[action.unit] = dataclasses.replace(unit, position=to, facing=round(facing, 1))
    g.state.active, g.state.moved = action.unit, True
    g.geometry.place(action.unit, to, round(facing, 1))
    return [g.event("moved", unit=action.unit, **{"from": [math.floor(v) for v in unit.position]},
                    to=list(action.to), path=[list(action.to)])]


def check_shoot(g: Game, action: Shoot) -> Refusal | None:
    refusal = _may_act(g, action.unit)
    if refusal is not None:
        return refusal
    unit, target = g.state.units[action.unit], g.state.units.get(action.target)
    if g.state.shot:
        return Refusal(Reason.NOT_ALLOWED, f"{action.unit} has shot already")
    if target is None or not target.alive or target.side == unit.side:
        return Refusal(Reason.BAD_TARGET, f"{action.target} is no enemy standing")
    if math.dist(unit.position, target.position) > g.ctx.sheet(unit).range:
        return Refusal(Reason.TOO_FAR, f"{action.target} is out of range")
    if not g.ask("sight", action.unit, action.target).visible:
        return Refusal(Reason.NOT_VISIBLE, f"{action.unit} cannot see {action.target}")
    return None


def apply_shoot(g: Game, action: Shoot) -> list:
    g.state.active, g.state.shot = action.unit, True
    side = g.state.units[action.unit].side
    return [g.event("attack", unit=action.unit, target=action.target, melee=False)] + answers.request(
        g, "shoot", [ChanceRequest(side, Dice(1, 6), "shoot", {"unit": action.unit})],
        unit=action.unit, target=action.target)


def resolve_shoot(g: Game, pending: Pending) -> list:
    (faces,) = pending.answers
    unit, target = pending.data["unit"], pending.data["target"]
    hit = faces[0] >= g.ctx.scene.ruleset.hit_on
    victim = g.state.units[target]
    damage = victim.damage + (1 if hit else 0)
    dead = damage >= g.ctx.sheet(victim).hp
    g.state.units[target] = dataclasses.replace(victim, damage=damage, alive=not dead)
    events = [g.event("attack_result", unit=unit, target=target, damage=1 if hit else 0, die=faces[0])]
    if dead:
        g.geometry.remove(target)
        events.append(g.event("died", unit=target))
    return events


def check_end(g: Game, action: EndTurn) -> Refusal | None:
    return _may_act(g, action.unit)


def apply_end(g: Game, action: EndTurn) -> list:
    state = g.state
    side = state.units[action.unit].side
    state.played[side] = state.played.get(side, frozenset()) | {action.unit}
    state.active, state.moved, state.shot = None, False, False
    events = [g.event("turn_ended", unit=action.unit)]
    standing = {s: [u.id for u in state.units.values() if u.side == s and u.alive] for s in g.ctx.sides}
    losers = [s for s, ids in standing.items() if not ids]
    if losers:
        return events + _over(g, next((s for s in g.ctx.sides if s not in losers), None), "win")
    others = [s for s in g.ctx.sides if s != side] + [side]
    for nxt in others:  # the next side with a unit still to play this round
        if any(u not in state.played.get(nxt, frozenset()) for u in standing[nxt]):
            state.side_to_play = nxt
            return events
    if g.ctx.max_rounds is not None and state.round >= g.ctx.max_rounds:
        counts = {s: len(ids) for s, ids in standing.items()}
        best = max(counts.values())
        leaders = [s for s, n in counts.items() if n == best]
        return events + _over(g, leaders[0] if len(leaders) == 1 else None, "points")
    state.round += 1
    state.played = {}
    state.side_to_play = g.ctx.sides[0]
    return events + [g.event("round_started")]


def _over(g: Game, winner: str | None, result: str) -> list:
    g.state.over, g.state.winner, g.state.result = True, winner, result if winner else "draw"
    g.state.side_to_play = None
    return [g.event("game_over", winner=winner, result=g.state.result)]


class D6Narrator(Narrator):
    WORDS: ClassVar[dict[str, str]] = {
        "moved": "{unit} moves to {to}", "attack": "{unit} shoots at {target}",
        "attack_result": "{unit} rolls {die} at {target}: {outcome}", "died": "{unit} is out",
        "turn_ended": "{unit} ends its turn", "round_started": "a new round",
        "game_over": "game over: {winner} ({result})", "rolled": "{side} rolls {outcome}",
    }

    def line(self, event, following=()):
        words = self.WORDS.get(event.kind)
        if words is None:
            return None
        data = dict(event.data)
        data.setdefault("outcome", "")
        if event.kind == "attack_result":
            data["outcome"] = "a hit" if data["damage"] else "a miss"
        return words.format(**data)


class D6Presentation(Presentation):
    """Its own words and the odds of a shot: P(d6 >= hit_on)."""

    def words(self, action, game=None):
        if isinstance(action, Shoot):
            return f"shoot at {action.target}"
        if isinstance(action, Move):
            return f"move to {action.to}"
        return super().words(action, game)

    def preview(self, game, action):
        if isinstance(action, Shoot) and game.check(action) is None:
            p = (7 - game.ctx.scene.ruleset.hit_on) / 6
            return Preview(self.words(action, game), odds=Odds(p, p, f"{p:.0%} to hit (a d6 of "
                                                                   f"{game.ctx.scene.ruleset.hit_on} or more)"),
                           sight=True)
        return super().preview(game, action)


class Closer:
    """The AI: a shot when it has one, else a move towards the nearest enemy (once), else the turn's end."""

    name = "ai"

    def __init__(self, side: str) -> None:
        self.side = side

    def choose(self, game: Game):
        legal = game.legal_actions()
        shots = [a for a in legal if isinstance(a, Shoot)]
        if shots:
            return shots[0]
        moves = [a for a in legal if isinstance(a, Move)]
        enemies = [u.position for u in game.state.units.values() if u.alive and u.side != self.side]
        if moves and enemies:
            return min(moves, key=lambda a: (min(math.dist(_centre(a.to), e) for e in enemies), a.unit, a.to))
        return next(a for a in legal if isinstance(a, EndTurn))


class D6Ruleset(Ruleset):
    name = NAME
    title = "d6 skirmish (a test ruleset)"
    edition = "test"
    scene_model = D6Scene
    params_model = D6Params
    sheet_model = D6Sheet
    ai_version = "d6-closer-1"
    action_classes = (Move, Shoot, EndTurn)
    presentation_class = D6Presentation
    event_schema = EventSchema([
        EventKind("moved", "a unit moves", {"unit": FieldSpec("id", "who"), "from": FieldSpec("cell", "from"),
                                            "to": FieldSpec("cell", "to"), "path": FieldSpec("list", "cells")}),
        EventKind("attack", "a shot", {"unit": FieldSpec("id", "who"), "target": FieldSpec("id", "at"),
                                       "melee": FieldSpec("bool", "never")}),
        EventKind("attack_result", "its die", {"unit": FieldSpec("id", "who"), "target": FieldSpec("id", "at"),
                                               "damage": FieldSpec("int", "0 or 1"), "die": FieldSpec("int", "d6")}),
        EventKind("died", "a unit is out", {"unit": FieldSpec("id", "who")}),
        EventKind("turn_ended", "a turn ends", {"unit": FieldSpec("id", "who")}),
        EventKind("round_started", "a round begins (the event's round)", {}),
        EventKind("game_over", "the end", {"winner": FieldSpec("id?", "who"), "result": FieldSpec("str", "how")}),
    ])

    def __init__(self) -> None:
        super().__init__()
        self.add_rule(Move, check_move, apply_move)
        self.add_rule(Shoot, check_shoot, apply_shoot)
        self.add_rule(EndTurn, check_end, apply_end)
        self.add_resolver("shoot", resolve_shoot)

    def context(self, scene, geometry, *, max_rounds=None, **options):
        return Context(scene, geometry, max_rounds)

    def initial_state(self, ctx):
        units = {u.id: UnitState(u.id, u.side, u.sheet, tuple(u.position), float(u.facing)) for u in ctx.scene.units}
        return State(side_to_play=ctx.sides[0], units=units)

    def begin(self, game):
        return []

    def candidates(self, game):
        state = game.state
        ids = [state.active] if state.active else [u.id for u in state.units.values()
                                                   if u.alive and u.side == state.side_to_play]
        for uid in ids:
            unit = state.units[uid]
            reach = game.ctx.sheet(unit).move
            x, y = math.floor(unit.position[0]), math.floor(unit.position[1])
            for dx in range(-reach, reach + 1):
                for dy in range(-reach, reach + 1):
                    if (dx or dy) and dx * dx + dy * dy <= reach * reach:
                        yield Move(uid, (x + dx, y + dy))
            for enemy in state.units.values():
                yield Shoot(uid, enemy.id)
            yield EndTurn(uid)

    def side_to_play(self, state):
        return state.side_to_play

    def is_over(self, state):
        return state.over

    def place_bodies(self, game):
        for unit in game.state.units.values():
            game.geometry.place(unit.id, unit.position, unit.facing)

    def restore(self, game, before):
        for id_, then in before.units.items():
            now = game.state.units[id_]
            if then.alive and (not now.alive or (now.position, now.facing) != (then.position, then.facing)):
                game.geometry.place(id_, then.position, then.facing)

    def narrator(self, language=None):
        return D6Narrator()

    def player(self, side, rng):
        return Closer(side)

    def judge_sight(self, report, params=None):
        return {"visible": bool(report.visible)}

    def sight_sentence(self, report, verdict, language=None):
        return "seen" if verdict["visible"] else "hidden"


D6 = D6Ruleset()


def register() -> D6Ruleset:
    """Put the d6 skirmish in the registry (undo with `RULESETS.unregister(NAME)`)."""
    return RULESETS.register(D6)
