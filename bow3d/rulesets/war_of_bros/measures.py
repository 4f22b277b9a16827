"""The rules' measures on a game: bases where the units stand, Line of Sight arcs, ranges in cm,
which side of a base faces an attacker, who stands in a splash.

Layer: rulesets (War of Bros). Plan view (bow3d.rulesets.war_of_bros.plan) on the game state's
positions and the scene's bases; the 3D world is asked only for what the models see (combat).

"Check Step": "Measurement for weapon range is performed in the exact same way that movement is
measured. Some part of a target unit's base has to be within the line of sight. If any part of the
line that determines weapon range touches the base of the target unit, the attack is valid": the
range is the distance from the attacker's front edge to the part of the target's base inside the
attacker's Line of Sight arc. Airborne ("Light Airborne"): between a ground unit and an airborne
one the weapon's range is reduced by the airborne unit's height; two airborne units, no reduction.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bow3d.rulesets.war_of_bros import plan

if TYPE_CHECKING:
    from bow3d.rules.game import Game


def corners(g: Game, unit_id: str, position=None, facing=None) -> plan.Polygon:
    unit = g.state.units[unit_id]
    return g.ctx.corners(unit_id, unit.position if position is None else position,
                         unit.facing if facing is None else facing)


def arc(g: Game, unit_id: str, position=None, facing=None) -> plan.Polygon:
    unit = g.state.units[unit_id]
    width, depth = g.ctx.bases[unit_id]
    return plan.los_arc(unit.position if position is None else position, unit.facing if facing is None else facing,
                        width, depth)


def arc_distance_cm(g: Game, unit_id: str, target: plan.Polygon, slack_cm: float = 0.0, position=None,
                    facing=None) -> float | None:
    """From the unit's front edge to the part of `target` (a base) inside its Line of Sight arc, in cm;
    None when no part is inside (with `slack_cm`, a base that far outside the arc still counts: Guided).
    A function of numbers only (the base, where it stands, the target's corners): remembered for the
    process (the checker, the AI and the attack ask it again and again, and games from the same scene
    start alike)."""
    unit = g.state.units[unit_id]
    position = unit.position if position is None else position
    facing = unit.facing if facing is None else facing
    width, depth = g.ctx.bases[unit_id]
    return _remembered_arc_distance_cm(position[0], position[1], facing, width, depth, tuple(map(tuple, target)),
                                       slack_cm)


ARC_MEMO_LIMIT = 20_000


@functools.lru_cache(maxsize=ARC_MEMO_LIMIT)
def _remembered_arc_distance_cm(x: float, y: float, facing: float, width: float, depth: float,
                                target: tuple[tuple[float, float], ...],
                                slack_cm: float) -> float | None:
    return _arc_distance_cm((x, y), facing, width, depth, target, slack_cm)


def _arc_distance_cm(position, facing: float, width: float, depth: float, target: Sequence[tuple[float, float]],
                     slack_cm: float) -> float | None:
    own = plan.base_corners(position, facing, width, depth)
    wedge = plan.los_arc(position, facing, width, depth)
    part = plan.intersection(target, wedge)
    if len(part) < 3:
        if slack_cm <= 0 or plan.cm(plan.gap(target, wedge)) > slack_cm + 1e-9:
            return None
        part = list(target)
    return plan.cm(plan.gap(plan.front_edge(own), part))


def weapon_reach_cm(g: Game, unit_id: str, target_id: str, range_cm: float) -> float:
    """The weapon's range between these two units: less the airborne unit's height between the ground
    and the air ("Light Airborne")."""
    a, b = g.ctx.profile(unit_id), g.ctx.profile(target_id)
    if a.airborne != b.airborne:
        return range_cm - (a.fly_height_cm if a.airborne else b.fly_height_cm)
    return range_cm


def part_hit(g: Game, target_id: str, attacker_id: str) -> str:
    """Which part of the target faces the attacker: 'front', 'side' or 'back' (the edge of its base the
    line from its centre to the attacker's centre crosses)."""
    target, attacker = g.state.units[target_id], g.state.units[attacker_id]
    width, depth = g.ctx.bases[target_id]
    return plan.sector(target.position, target.facing, width, depth, attacker.position)


def splashed(g: Game, attacker_id: str, target_id: str, radius_cm: float) -> list[str]:
    """Units within `radius_cm` of the target's base ("Splash: ... all units within 3cm of the impact
    zone"), the target excluded, nearest first; airborne units only when the target is airborne."""
    target = corners(g, target_id)
    airborne = g.ctx.profile(target_id).airborne
    found = []
    for unit in g.state.units.values():
        if unit.id in (target_id, attacker_id) or not unit.on_field:
            continue
        if g.ctx.profile(unit.id).airborne != airborne:
            continue
        apart = plan.cm(plan.gap(target, corners(g, unit.id)))
        if apart <= radius_cm + 1e-9:
            found.append((apart, unit.id))
    return [uid for _, uid in sorted(found)]


def beyond(g: Game, attacker_id: str, target_id: str) -> list[str]:
    """Units whose base the line from the attacker through the target crosses beyond the target,
    nearest first ("Piercing": the projectile "must continue through its line of fire")."""
    a, t = g.state.units[attacker_id].position, g.state.units[target_id].position
    dx, dy = t[0] - a[0], t[1] - a[1]
    length = (dx * dx + dy * dy) ** 0.5
    if length < 1e-9:
        return []
    far = (t[0] + dx / length * plan.FAR_STUDS, t[1] + dy / length * plan.FAR_STUDS)
    found = []
    for unit in g.state.units.values():
        if unit.id in (attacker_id, target_id) or not unit.on_field:
            continue
        base = corners(g, unit.id)
        if plan.gap([t, far], base) <= 1e-9:
            along = ((unit.position[0] - a[0]) * dx + (unit.position[1] - a[1]) * dy) / length
            found.append((along, unit.id))
    return [uid for _, uid in sorted(found)]
