"""A replay told as beats a camera director can read: rounds, moves, attacks with their brick rolls, deaths.

Layer: view, but pure Python (no Panda3D), so the director and its tests run anywhere.
Positions in studs ([x, y], the centre of the footprint), facings in degrees (design.md).

A timeline is built from a replay by re-applying every record through the rules
(`Game.start` + `apply`), never by reading the events' words: the beats show exactly what the
rules decided. Records are taken in groups, an action and the brick rolls that follow it (an
attack is the action, then the attacker's and the defender's rolls); the state is read before
and after each group and the beats come from what changed (who moved, who took damage, who
died) and from the action's record type. `synthetic_timeline` makes a short scripted battle
straight from a scene (benchmarks, tests, and scenes that have no replay yet).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Union

from bow3d.errors import Bow3dError, ReplayError

STUD_LDU = 20.0
ATTACK_WORDS = ("attack", "fire", "shoot", "strike", "melee", "throw")
TREAT_WORDS = ("treat", "repair", "heal")
QUIET_RECORDS = ("end_turn",)  # records that need no shot of their own (the next unit's shot follows)


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
class BrickRollShown:
    """One brick roll as recorded: `edges` of `bricks` 2x2 bricks landed on their edge (BOW §2.1)."""

    side: str
    bricks: int
    edges: int
    purpose: str = ""


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
    rolls: tuple[BrickRollShown, ...]
    damage: int
    ranged: bool = True


@dataclass(frozen=True)
class Treated:
    medic: str
    target: str
    rolls: tuple[BrickRollShown, ...]
    healed: int


@dataclass(frozen=True)
class Died:
    unit: str
    by: str | None = None


@dataclass(frozen=True)
class RollsShown:
    """Brick rolls with no action around them (who starts the round, BOW §2.2)."""

    rolls: tuple[BrickRollShown, ...]


@dataclass(frozen=True)
class Narrated:
    """Any other action (pass, reload, grab, board...): a short caption on the unit."""

    unit: str | None


Beat = Union[RoundStarted, Moved, VehicleMoved, Attacked, Treated, Died, RollsShown, Narrated]


@dataclass(frozen=True)
class Step:
    """One beat with the state around it: poses of every unit and vehicle before and after."""

    beat: Beat
    round: int
    side: str | None
    before: Mapping[str, Pose]
    after: Mapping[str, Pose]
    text: str = ""  # the rules' own words (events' describe()), for the result title
    doors: Mapping[str, bool] = field(default_factory=dict)  # door id -> open, once the step is done


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

    def poses_after(self, index: int) -> Mapping[str, Pose]:
        """Poses once step `index` is done (-1: the start)."""
        return self.start if index < 0 else self.steps[index].after


# --- from the rules' state ---------------------------------------------------------------------

def snapshot(state: Any) -> dict[str, Pose]:
    """Poses of every unit and vehicle of a rules GameState (units, vehicles as lists or mappings)."""
    poses: dict[str, Pose] = {}
    seats: dict[str, int] = {}
    for kind in ("vehicles", "units"):
        items = getattr(state, kind, None) or []
        for item in (items.values() if isinstance(items, Mapping) else items):
            for index, occupant in enumerate(getattr(item, "seats", None) or ()):
                if occupant:
                    seats[occupant] = index
            position = getattr(item, "position", None)
            alive = getattr(item, "alive", True) and not getattr(item, "destroyed", False)
            poses[item.id] = Pose(tuple(float(v) for v in position) if position is not None else (math.nan, math.nan),
                                  float(getattr(item, "facing", 0.0) or 0.0), bool(alive),
                                  getattr(item, "aboard", None), int(getattr(item, "damage", 0) or 0),
                                  int(getattr(item, "marking_bricks", 0) or 0), seats.get(item.id, 0))
    return poses


def _record_words(record: Mapping[str, Any]) -> str:
    return str(record.get("type", "")).lower()


def _actor(record: Mapping[str, Any]) -> str | None:
    for key in ("unit", "actor", "vehicle", "firer", "medic", "pilot"):
        if isinstance(record.get(key), str):
            return record[key]
    return None


def _path(record: Mapping[str, Any], start: Pose, end: Pose) -> tuple[tuple[float, float], ...]:
    cells = record.get("path")
    points = [start.position]
    if isinstance(cells, Sequence) and cells and all(isinstance(c, Sequence) and len(c) == 2 for c in cells):
        points += [(float(c[0]) + 0.5, float(c[1]) + 0.5) if all(isinstance(v, int) for v in c)
                   else (float(c[0]), float(c[1])) for c in cells]
    if points[-1] != end.position:
        points.append(end.position)
    return tuple(points)


def beats_for_group(record: Mapping[str, Any] | None, before: Mapping[str, Pose], after: Mapping[str, Pose],
                    rolls: tuple[BrickRollShown, ...], vehicles: frozenset[str]) -> list[Beat]:
    """The beats of one record group (an action and its brick rolls) from the state it changed."""
    if record is None:
        return [RollsShown(rolls)] if rolls else []
    words, actor = _record_words(record), _actor(record)
    target = record.get("target") if isinstance(record.get("target"), str) else None
    beats: list[Beat] = []
    for id_, end in after.items():
        start = before.get(id_)
        if start is None or start.position == end.position or not start.alive:
            continue  # (a vehicle destroyed by its own crash still moved: it is shown moving, then dying)
        if math.isnan(start.position[0]) or math.isnan(end.position[0]):
            continue
        if id_ in vehicles:
            beats.append(VehicleMoved(id_, _path(record, start, end), (start.facing_deg, end.facing_deg)))
        elif start.aboard is None and end.aboard is None:
            beats.append(Moved(id_, _path(record, start, end)))
    if any(word in words for word in TREAT_WORDS) and target:
        healed = before[target].damage - after[target].damage if target in before and target in after else 0
        beats.append(Treated(actor or "", target, rolls, healed))
    elif any(word in words for word in ATTACK_WORDS) and target:
        damage = after[target].damage - before[target].damage if target in before and target in after else 0
        beats.append(Attacked(actor or "", target, rolls, damage, "melee" not in words))
    elif not beats and words not in QUIET_RECORDS:
        beats.append(Narrated(actor))
    for id_, end in after.items():
        if id_ in before and before[id_].alive and not end.alive:
            beats.append(Died(id_, actor))
    return beats


def group_records(records: Iterable[Mapping[str, Any]]) -> list[tuple[Mapping[str, Any] | None, list[Mapping[str, Any]]]]:
    """Split records into (action, [records applied with it]): an action and the rolls after it.

    Rolls before the first action (or right after a round ends) form groups with no action.
    """
    groups: list[tuple[Mapping[str, Any] | None, list[Mapping[str, Any]]]] = []
    for record in records:
        if _record_words(record) == "roll" and groups:
            groups[-1][1].append(record)
        elif _record_words(record) == "roll":
            groups.append((None, [record]))
        else:
            groups.append((record, [record]))
    return groups


def timeline_from_records(scene: Any, game: Any, records: Sequence[Mapping[str, Any]],
                          parse: Any, sides: Mapping[str, SideStyle] | None = None) -> Timeline:
    """Re-apply `records` to `game` (fresh from `Game.start`) and tell what happened as beats.

    `parse` turns a record into an action or a BrickRoll (the rules' `action_from_record`).
    A record the rules refuse raises ReplayError naming its number (from 1, in `records`).
    """
    vehicles = frozenset(v.id for v in getattr(scene, "vehicles", []) or [])
    start = snapshot(game.state)
    start_doors = dict(getattr(game.state, "doors", None) or {})
    steps: list[Step] = []
    shown_round = None
    number = 0
    for action, members in group_records(records):
        before = snapshot(game.state)
        doors_before = dict(getattr(game.state, "doors", None) or {})
        rolls: list[BrickRollShown] = []
        words: list[str] = []
        round_before = int(getattr(game.state, "round", 1) or 1)
        for record in members:
            number += 1
            pending = getattr(game, "pending_roll", None)
            if _record_words(record) == "move" and action is record:
                action = _with_path(game, record)
            try:
                events = game.apply(parse(dict(record)))
            except Bow3dError as error:
                raise ReplayError(f"record {number} ({record.get('type', '?')}): {error}") from None
            if _record_words(record) == "roll":
                rolls.append(BrickRollShown(str(record.get("side", getattr(pending, "side", ""))),
                                            int(record.get("bricks", getattr(pending, "bricks", 0))),
                                            int(record.get("edges", 0)),
                                            str(getattr(pending, "purpose", "")).split(":")[0].strip()))
            words += [str(getattr(e, "text", "") or e.describe()) for e in events or [] if hasattr(e, "describe")]
        after = snapshot(game.state)
        doors_after = dict(getattr(game.state, "doors", None) or {})
        round_now = round_before if action is not None else int(getattr(game.state, "round", 1) or 1)
        side = str(action.get("side")) if action is not None and action.get("side") else None
        actor = _actor(action) if action is not None else None
        if side is None and actor is not None:
            side = _side_of(scene, actor)
        if round_now != shown_round:
            steps.append(Step(RoundStarted(round_now), round_now, None, before, before, f"Round {round_now}",
                              doors_before))
            shown_round = round_now
        for beat in beats_for_group(action, before, after, tuple(rolls), vehicles):
            if isinstance(beat, Attacked) and action is not None:
                beat = replace(beat, ranged=_weapon_kind(scene, beat.firer, action.get("weapon")) != "melee")
            steps.append(Step(beat, round_now, side, before, after, "; ".join(words), doors_after))
    return Timeline(getattr(scene, "name", "") or "", start, merge_moves(steps), dict(sides or side_styles(scene)),
                    unit_sides(scene), vehicles, unit_labels(scene),
                    getattr(game.state, "winner", None), bool(getattr(game, "is_over", False)), start_doors)


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


def _with_path(game: Any, record: Mapping[str, Any]) -> Mapping[str, Any]:
    """The move record with the path the unit walks (the geometry's shortest path), when it can tell."""
    try:
        cells = game.geometry.path(record["unit"], tuple(record["to"]), 10_000)
    except Exception:  # any geometry that cannot answer: the move is shown as a straight line
        return record
    return {**record, "path": [list(c) for c in cells]} if cells else record


def _weapon_kind(scene: Any, unit: str, weapon: Any) -> str:
    """'melee' or 'ranged': the kind of the named weapon on the unit's (or vehicle's) sheet."""
    for item in [*(getattr(scene, "units", []) or []), *(getattr(scene, "vehicles", []) or [])]:
        if item.id == unit:
            for w in getattr(scene.sheet(item.sheet), "weapons", []) or []:
                if w.name == weapon:
                    return w.kind
    return "ranged"


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
        rgb = colour_rgb(side.colour) if colour_rgb else _BASIC_COLOURS.get(side.colour, (200, 200, 200))
        styles[side.id] = SideStyle(side.name or side.id, tuple(c / 255.0 for c in rgb[:3]))
    return styles


_BASIC_COLOURS = {0: (27, 42, 52), 1: (30, 90, 168), 2: (0, 133, 43), 4: (180, 0, 0), 14: (250, 200, 10),
                  15: (244, 244, 244), 25: (214, 121, 35), 71: (160, 165, 169), 72: (108, 110, 104)}


# --- a scripted battle, straight from a scene ----------------------------------------------------

def synthetic_timeline(scene: Any, rounds: int = 2) -> Timeline:
    """A short scripted battle on `scene`: each round every unit steps towards the nearest enemy and
    the first unit of each side fires at the nearest enemy; the third shot kills. Deterministic.

    For benchmarks and tests, and to film a scene that has no replay yet; the brick rolls are
    fixed numbers, not the rules' (nothing here is a rules decision).
    """
    sides = unit_sides(scene)
    poses = {u.id: Pose(tuple(map(float, u.position)), float(u.facing)) for u in scene.units if u.position}
    for v in getattr(scene, "vehicles", []) or []:
        poses[v.id] = Pose(tuple(map(float, v.position)), float(v.facing))
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
