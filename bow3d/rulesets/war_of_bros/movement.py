"""First and Final Movement Steps: straight segments, free rotation, terrain, trampling, reactions.

Layer: rulesets (War of Bros). The book ("First Movement Step"): "This unit is permitted to move a
number of centimeters, in straight lines, less than or equal to the amount listed as that unit's
movement score ... The remainder of this unit's movement may be saved for use during the Final
Movement Step ... Units may only move to a place within their Line of Sight ... A unit is
permitted to rotate to any angle during the any movement phase. Rotation is made around the
center point of the Light of Sight indicator."

More: docs/modules/rulesets-war-of-bros.md#movement.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bow3d.i18n import _, decimal
from bow3d.rules.events import Event
from bow3d.rules.refusal import Reason, Refusal
from bow3d.rulesets.war_of_bros import blocking, field as bodies, measures, plan, terrain
from bow3d.rulesets.war_of_bros.actions import Move, Turn
from bow3d.rulesets.war_of_bros.cover import rank
from bow3d.rulesets.war_of_bros.reactions import opportunities
from bow3d.rulesets.war_of_bros.state import WobReason, replace
from bow3d.rulesets.war_of_bros.terrain import Piece
from bow3d.rulesets.war_of_bros.turns import activate, check_actor

if TYPE_CHECKING:
    from bow3d.rules.game import Game

EPS_CM = 1e-6


@dataclass(frozen=True)
class MovePlan:
    """What a legal move does: where the unit ends, what it costs (cm), what it tramples and destroys."""

    centre: tuple[float, float]
    facing: float
    cost_cm: float
    start: tuple[float, float]
    turned_to: tuple[float, float]           # the centre after the rotation (moves for Mechanized bases)
    start_facing: float = 0.0
    trampled: tuple[str, ...] = ()
    destroyed: tuple[int, ...] = ()          # decor instances
    bodies_destroyed: tuple[str, ...] = ()   # obstacle ids


def _crushes(profile, piece: Piece) -> bool:
    return profile.mechanized and not profile.airborne and piece.kind in ("decor", "body") and \
        rank(piece.cover) <= rank("medium")


def plan_move(g: Game, unit_id: str, heading: float, distance_cm: float) -> tuple[MovePlan | None, Refusal | None]:
    """Check a rotation to `heading` and a straight move of `distance_cm` (0: a Turn). The answer is kept
    until the next record (the AI, the checker and the applier ask the same)."""
    stamp = len(g.records)
    held = g.state.__dict__.get("_plans")
    if held is None or held[0] != stamp:
        held = g.state.__dict__["_plans"] = (stamp, {})
    key = (unit_id, heading, distance_cm)
    if key not in held[1]:
        held[1][key] = _plan_move(g, unit_id, heading, distance_cm)
    return held[1][key]


def _plan_move(g: Game, unit_id: str, heading: float, distance_cm: float) -> tuple[MovePlan | None, Refusal | None]:
    state = g.state
    refusal = check_actor(g, unit_id)
    if refusal is not None:
        return None, refusal
    if state.active == unit_id and state.step not in ("first", "final"):
        return None, Refusal(WobReason.WRONG_STEP, _("{unit} is not in a movement step").format(unit=unit_id))
    if not (math.isfinite(heading) and math.isfinite(distance_cm)) or distance_cm < 0:
        return None, Refusal(Reason.NOT_ALLOWED, _("a move needs a heading and a distance of 0 cm or more"))
    unit, profile = state.units[unit_id], g.ctx.profile(unit_id)
    width, depth = g.ctx.bases[unit_id]
    heading = heading % 360.0
    delta = (heading - unit.facing + 180.0) % 360.0 - 180.0
    pivot = plan.los_vertex(unit.position, unit.facing, width, depth)
    turned = plan.rotate_about(unit.position, pivot, delta)
    polys = terrain.rotation_sweep(unit.position, unit.facing, width, depth, pivot, delta) \
        if abs(delta) > 1e-9 and math.dist(pivot, unit.position) > 1e-9 else []
    start = plan.base_corners(turned, heading, width, depth)
    dist = plan.studs(distance_cm)
    swept = terrain.swept(start, heading, dist) if dist > 0 else start
    polys.append(swept)
    left = profile.movement_cm - unit.moved_cm
    if distance_cm > 0 and left < EPS_CM:
        return None, Refusal(WobReason.NO_MOVEMENT_LEFT, _("{unit} has used its {movement} cm").format(
            unit=unit_id, movement=f"{profile.movement_cm:g}"))
    boxed, near_all = blocking.near_all(g, polys)
    why = blocking.blocked_among(g, unit_id, polys, boxed, near_all)
    if why:
        return None, Refusal(WobReason.BLOCKED, _("{unit} cannot go that way: {why}").format(unit=unit_id, why=why))
    near = blocking.within_box(near_all, boxed[-1][1])   # the swept base's own (the last polygon)
    cost = dist
    if dist > 0 and not profile.airborne:
        slowing = [p for p in near if p.difficulty >= 2 and not _crushes(profile, p)]
        cost = terrain.path_cost(plan.front_edge(start), heading, dist, slowing)
    cost_cm = plan.cm(cost)
    if cost_cm > left + EPS_CM:
        return None, Refusal(WobReason.NO_MOVEMENT_LEFT, _("{unit} would use {cost} cm of movement; {left} cm are left "
                                                              "(difficult terrain counts double or triple)").format(
            unit=unit_id, cost=decimal(cost_cm, 2), left=decimal(max(left, 0), 2)))
    fx, fy = plan.unit_vector(heading)
    centre = (turned[0] + fx * dist, turned[1] + fy * dist)
    trampled: tuple[str, ...] = ()
    destroyed: tuple[int, ...] = ()
    crushed: tuple[str, ...] = ()
    if profile.mechanized and not profile.airborne:
        trampled = _trampled(g, unit_id, polys, heading, start)
        pieces = [p for p in near_all
                  if _crushes(profile, p) and blocking.touching_any(boxed, p.polygon, p.box, p.axes)]
        destroyed = tuple(sorted({p.instance for p in pieces if p.kind == "decor"}))
        crushed = tuple(sorted({p.id for p in pieces if p.kind == "body" and p.id is not None}))  # a body has its id
    return MovePlan(centre, heading, cost_cm, unit.position, turned, unit.facing, trampled, destroyed, crushed), None


def _trampled(g: Game, unit_id: str, polys, heading: float, start) -> tuple[str, ...]:
    """Infantry under any of the polygons, in the order the move meets them."""
    fx, fy = plan.unit_vector(heading)
    edge = plan.front_edge(start)
    met = []
    boxed = blocking.boxes_of(polys)
    x0, x1, y0, y1 = blocking.union_box(boxed)
    kinds = blocking.unit_kinds(g)
    for other in g.state.units.values():
        _airborne, infantry, r = kinds[other.id]
        if not infantry or other.id == unit_id or not other.on_field:
            continue
        px, py = other.position
        if px - r > x1 or px + r < x0 or py - r > y1 or py + r < y0:
            continue  # no polygon's box meets its base
        base = measures.corners(g, other.id)
        bx0, bx1, by0, by1 = plan.bounds([base])
        for k, (poly, (ax0, ax1, ay0, ay1), _axes) in enumerate(boxed):
            if ax0 <= bx1 and bx0 <= ax1 and ay0 <= by1 and by0 <= ay1 and plan.overlaps(poly, base, 1e-6):
                along = min((p[0] - edge[0][0]) * fx + (p[1] - edge[0][1]) * fy for p in base)
                met.append((k, along, other.id))
                break
    return tuple(uid for _distance, _order, uid in sorted(met))


def check_move(g: Game, action: Move) -> Refusal | None:
    if action.distance <= 0:
        return Refusal(Reason.NOT_ALLOWED, _("a move needs a distance above 0 cm (use a turn to rotate)"))
    return plan_move(g, action.unit, action.heading, action.distance)[1]


def check_turn(g: Game, action: Turn) -> Refusal | None:
    return plan_move(g, action.unit, action.facing, 0.0)[1]


def apply_move(g: Game, action: Move) -> list[Event]:
    return _apply(g, action.unit, action.heading, action.distance)


def apply_turn(g: Game, action: Turn) -> list[Event]:
    return _apply(g, action.unit, action.facing, 0.0)


def _apply(g: Game, unit_id: str, heading: float, distance_cm: float) -> list[Event]:
    move, _refusal = plan_move(g, unit_id, heading, distance_cm)
    assert move is not None  # the move was checked before it is applied
    events = activate(g, unit_id)
    state = g.state
    unit = state.units[unit_id]
    state.units[unit_id] = replace(unit, position=move.centre, facing=move.facing, moved_cm=unit.moved_cm + move.cost_cm)
    g.geometry.place(unit_id, move.centre, move.facing)
    path = [list(move.turned_to)] if move.turned_to != move.start and move.turned_to != move.centre else []
    events.append(g.event("moved", unit=unit_id, **{"from": list(move.start)}, to=list(move.centre),
                          path=path + [list(move.centre)], facing=move.facing, distance_cm=round(distance_cm, 4),
                          cost_cm=round(move.cost_cm, 4), left_cm=round(g.ctx.profile(unit_id).movement_cm
                                                                      - state.units[unit_id].moved_cm, 4)))
    if move.destroyed:
        bodies.remove_decor(g, list(move.destroyed))
    for key in move.bodies_destroyed:
        bodies.remove_obstacle(g, key)
    if move.destroyed or move.bodies_destroyed:
        events.append(g.event("cover_destroyed", unit=unit_id, decor=list(move.destroyed),
                              bodies=list(move.bodies_destroyed)))
    tasks: tuple[tuple, ...] = tuple(("trample", unit_id, other, 0) for other in move.trampled)
    if distance_cm > 0:
        tasks += tuple(("opportunity", reactor, unit_id) for reactor in opportunities(g, unit_id, move))
    state.tasks = state.tasks + tasks
    return events
