"""Every course a pilot can still set before the compulsory move, and where each one ends (BOW §3.3).

Layer: rulesets (BOW; asks the geometry protocol, never imports world). A pilot with k actions left
may turn (at most 45 degrees an action, §3.3) and change speed (one action, any allowed speed,
§3.2) before the vehicle's compulsory move of speed x 5 studs in a straight line. A course is one
such plan: its turns, its speed, the actions it costs, and the contacts of the straight move *after*
the turns (the vehicle stood at its new facing and swept), so that a pilot never sets a course into
a wall or over a friend (§3.6) because it looked only along the old one. A unit run over does not
stop the vehicle (§3.6.1: it goes on with the rest of its move), so the sweep goes on past each unit
(taken off the field for the question) to what it meets next. Every turn of a plan is checked where
the vehicle would be (a turn that would hit something is not allowed, §3.3). The geometry is put
back as it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bow3d.rulesets.bow.context import MAX_TURN_DEG, STUDS_PER_SPEED
from bow3d.rulesets.bow.vehicles import allowed_speeds

TURN_STEPS = (MAX_TURN_DEG, -MAX_TURN_DEG, MAX_TURN_DEG / 2, -MAX_TURN_DEG / 2)   # per action, largest first


@dataclass(frozen=True)
class Course:
    """One plan of a pilot: `turns` (degrees, in order), then `speed`; `contacts` are what the compulsory
    move at that speed meets, in order (units run over, then at most one that stops it); it ends
    after `travelled` studs."""

    turns: tuple[float, ...]
    speed: int
    actions: int
    contacts: tuple[Any, ...]
    travelled: float
    facing: float

    @property
    def first(self) -> tuple[str, float] | None:
        """The plan's first action: ('turn', degrees), ('speed', speed), or None (nothing to change)."""
        if self.turns:
            return ("turn", self.turns[0])
        return None if self.actions == 0 else ("speed", float(self.speed))


def _turn_plans(actions: int) -> list[tuple[float, ...]]:
    """Turn sequences of up to `actions` (at most 2) actions, one per total turn, largest steps first."""
    plans: dict[float, list[tuple[float, ...]]] = {0.0: [()]}
    if actions >= 1:
        for step in TURN_STEPS:
            plans.setdefault(step, []).append((step,))
    if actions >= 2:
        for a in TURN_STEPS:
            for b in TURN_STEPS:
                if (a > 0) == (b > 0):
                    plans.setdefault(a + b, []).append((a, b))
    return [p for total in sorted(plans, key=abs) for p in plans[total]]


def courses(game: Any, vehicle: Any, actions_left: int) -> list[Course]:
    """Every course within `actions_left` actions (turns first, then the speed), one per total turn
    and speed: the first turn sequence of that total whose every turn is allowed."""
    geometry = game.geometry
    speeds = allowed_speeds(game, vehicle)
    top = max(speeds) * float(STUDS_PER_SPEED)
    found: list[Course] = []
    done: set[float] = set()
    try:
        for plan in _turn_plans(min(actions_left, 2)):
            total = sum(plan)
            if total in done:
                continue
            facing = _turned(geometry, vehicle, plan)
            if facing is None:
                continue
            done.add(total)
            met = _contacts(game, vehicle.id, top) if top > 0 else []
            for speed in speeds:
                actions = len(plan) + (speed != vehicle.speed)
                if actions > actions_left:
                    continue
                reach = speed * float(STUDS_PER_SPEED)
                hits = tuple(c for c in met if c.distance_studs <= reach) if speed > 0 else ()
                stops = [c for c in hits if c.kind != "unit"]
                found.append(Course(plan, speed, actions, hits, float(stops[0].distance_studs) if stops else reach,
                                    facing))
    finally:
        geometry.place(vehicle.id, tuple(vehicle.position), float(vehicle.facing))
    return found


def _contacts(game: Any, vehicle_id: str, distance: float, most: int = 4) -> list[Any]:
    """The contacts of a straight move: each unit met, then the first thing that stops the vehicle."""
    geometry, units = game.geometry, game.state.units
    met: list[Any] = []
    removed: list[Any] = []
    try:
        while len(met) < most:
            contact = geometry.sweep(vehicle_id, distance)
            if contact is None:
                break
            met.append(contact)
            unit = units.get(contact.other) if contact.kind == "unit" else None
            if unit is None or unit.position is None:
                break
            geometry.remove(unit.id)
            removed.append(unit)
    finally:
        for unit in removed:
            geometry.place(unit.id, tuple(unit.position), float(unit.facing))
    return met


def _turned(geometry: Any, vehicle: Any, plan: tuple[float, ...]) -> float | None:
    """Stand the vehicle at the end of the turns of `plan` (None when one of them would hit something)."""
    facing = float(vehicle.facing)
    geometry.place(vehicle.id, tuple(vehicle.position), facing)
    for step in plan:
        if geometry.turn_contacts(vehicle.id, step) is not None:
            return None
        facing = (facing + step) % 360
        geometry.place(vehicle.id, tuple(vehicle.position), facing)
    return facing
