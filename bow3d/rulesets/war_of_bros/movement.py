"""First and Final Movement Steps: straight segments, free rotation, terrain, trampling, reactions.

Layer: rulesets (War of Bros). The book ("First Movement Step"): "This unit is permitted to move a
number of centimeters, in straight lines, less than or equal to the amount listed as that unit's
movement score ... The remainder of this unit's movement may be saved for use during the Final
Movement Step ... Units may only move to a place within their Line of Sight ... A unit is
permitted to rotate to any angle during the any movement phase. Rotation is made around the
center point of the Light of Sight indicator."

Read as: a Move turns the unit freely (about its Line of Sight indicator's vertex) to a heading
and takes it straight ahead (so always into its Line of Sight); a Turn only rotates. The cost is
the distance, more over difficult terrain (bow3d.rulesets.war_of_bros.terrain); bases do not
cross what they cannot (cover above Light, wrecks, other bases, the battlefield's edge).
Mechanized units trample the infantry they drive (or turn) over and destroy the light and medium
cover they touch ("Mechanized"); airborne units fly over everything. A move that brings a unit
into an enemy's threat range, inside its Line of Sight arc, lets that enemy call an Attack Of
Opportunity (bow3d.rulesets.war_of_bros.reactions).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bow3d.i18n import _, decimal
from bow3d.rules.events import Event
from bow3d.rules.refusal import Reason, Refusal
from bow3d.rulesets.war_of_bros import field as bodies
from bow3d.rulesets.war_of_bros import measures, plan, terrain
from bow3d.rulesets.war_of_bros.actions import Move, Turn
from bow3d.rulesets.war_of_bros.cover import rank
from bow3d.rulesets.war_of_bros.state import WobReason, replace
from bow3d.rulesets.war_of_bros.terrain import Piece
from bow3d.rulesets.war_of_bros.turns import activate, check_actor

if TYPE_CHECKING:
    from bow3d.rules.game import Game

EPS_CM = 1e-6
REACTION_SAMPLE_CM = 1.0   # a move is looked at every cm for units entering a threat range


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


def dynamic_pieces(g: Game) -> list[Piece]:
    """Bodies (light cover, difficulty 2) and wrecks (Vehicle cover, impassable) on the battlefield
    (the same list while the same obstacles lie there: kept on the context with them)."""
    obstacles = tuple(g.state.obstacles.values())
    held = g.ctx.__dict__.get("_dynamic_pieces")
    if held is not None and len(held[0]) == len(obstacles) and all(a is b for a, b in zip(held[0], obstacles)):
        return held[1]
    out = _dynamic_pieces(g)
    g.ctx.__dict__["_dynamic_pieces"] = (obstacles, out)
    return out


def _dynamic_pieces(g: Game) -> list[Piece]:
    out = []
    for obstacle in g.state.obstacles.values():
        if obstacle.kind == "body":
            out.append(Piece("body", obstacle.corners, "light", 2, id=obstacle.id, material=obstacle.material))
        else:
            out.append(Piece("wreck", obstacle.corners, "medium", 0, id=obstacle.id, material=obstacle.material))
    return out


def _pieces_near_box(g: Game, box: tuple[float, float, float, float]) -> list[Piece]:
    """The static and dynamic pieces whose box meets `box` (xmin, xmax, ymin, ymax)."""
    static = g.ctx.terrain.near_box(box, g.state.removed)
    if not g.state.obstacles:
        return static
    return static + _within(dynamic_pieces(g), box)


def _within(pieces: list[Piece], box: tuple[float, float, float, float]) -> list[Piece]:
    """The pieces whose box meets `box` (xmin, xmax, ymin, ymax), in order (the closed-box test): the dynamic
    pieces near a move, and the swept base's share of the pieces near all its polygons."""
    x0, x1, y0, y1 = box
    found = []
    for piece in pieces:
        a0, a1, b0, b1 = piece.box   # the property read once, not four times
        if a0 <= x1 and x0 <= a1 and b0 <= y1 and y0 <= b1:
            found.append(piece)
    return found


def _stops(profile, piece: Piece) -> bool:
    """What this unit cannot cross: nothing when airborne; heavy and total cover and wrecks for
    Mechanized units (they destroy the rest); cover above Light and wrecks for the others."""
    if profile.airborne or piece.kind == "zone":
        return False
    if piece.kind == "wreck":
        return True
    if profile.mechanized:
        return rank(piece.cover) >= rank("heavy")
    return piece.difficulty == 0


def _crushes(profile, piece: Piece) -> bool:
    return profile.mechanized and not profile.airborne and piece.kind in ("decor", "body") and \
        rank(piece.cover) <= rank("medium")


def _what(piece: Piece) -> str:
    if piece.kind == "decor":
        return _("{cover} cover ({material}, decor part {instance})").format(
            cover=piece.cover, material=piece.material, instance=piece.instance)
    return (_("a wreck ({id})") if piece.kind == "wreck" else _("a Body ({id})")).format(id=piece.id)


def _boxed(polys: list) -> list:
    """(polygon, its box, its edge normals: filled in by _touching_any when first needed) of each polygon."""
    return [(poly, plan.bounds([poly]), []) for poly in polys]


def _touching_any(boxed: list, polygon, box=None, axes=None) -> bool:
    """Any of the _boxed polygons overlaps `polygon` (whose box is `box` and edge normals `axes`, if known).
    The edge normals of each are worked out once, not once per pair (the same answers)."""
    x0, x1, y0, y1 = box if box is not None else plan.bounds([polygon])
    for poly, (a0, a1, b0, b1), own in boxed:
        if a0 <= x1 and x0 <= a1 and b0 <= y1 and y0 <= b1:
            if not own:
                own.extend(plan.edge_normals(poly))
            if axes is None:
                axes = plan.edge_normals(polygon)
            if plan.overlaps(poly, polygon, 1e-6, own + axes):
                return True
    return False


def blocked_by(g: Game, unit_id: str, polygons) -> str | None:
    """Why the unit cannot stand on (or pass through) these base polygons, or None. `polygons`: one
    base (its corners) or a list of them."""
    polys = polygons if polygons and isinstance(polygons[0], list) else [polygons]
    return _blocked_by(g, unit_id, polys, *_near_all(g, polys))


def _near_all(g: Game, polys: list) -> tuple[list, list[Piece]]:
    """(_boxed(polys), the pieces near them all): what blocked_by reads, and a Mechanized move's plan again.
    The union of the polygons' boxes is the box of all their corners (the least and greatest of the same
    numbers)."""
    boxed = _boxed(polys)
    return boxed, _pieces_near_box(g, _union(boxed))


def _blocked_by(g: Game, unit_id: str, polys: list, boxed: list, near: list[Piece]) -> str | None:
    """blocked_by of the polygons, given their _near_all."""
    profile = g.ctx.profile(unit_id)
    for poly in polys:
        if not g.ctx.terrain.inside(poly):
            return _("off the battlefield")
    for piece in near:
        if _stops(profile, piece) and _touching_any(boxed, piece.polygon, piece.box, piece.axes):
            return _what(piece)
    if profile.airborne:
        return None
    x0, x1, y0, y1 = _union(boxed)
    kinds, mechanized = _kinds(g), profile.mechanized
    for other in g.state.units.values():
        airborne, infantry, r = kinds[other.id]
        if airborne or other.id == unit_id or not other.on_field:
            continue
        if mechanized and infantry:
            continue  # trampled, not in the way
        px, py = other.position
        if px - r > x1 or px + r < x0 or py - r > y1 or py + r < y0:
            continue  # its base lies inside this circle: no box of the polygons meets it
        if _touching_any(boxed, measures.corners(g, other.id)):
            return _("the base of {unit}").format(unit=other.id)
    return None


def _union(boxed: list) -> tuple[float, float, float, float]:
    return (min(b[0] for _poly, b, _axes in boxed), max(b[1] for _poly, b, _axes in boxed),
            min(b[2] for _poly, b, _axes in boxed), max(b[3] for _poly, b, _axes in boxed))


def _reach(g: Game, unit_id: str) -> float:
    """Half the base's diagonal and a little: every corner of the base lies this near its centre."""
    width, depth = g.ctx.bases[unit_id]
    return math.hypot(width, depth) / 2.0 + 1e-6


def _kinds(g: Game) -> dict[str, tuple[bool, bool, float]]:
    """unit id -> (airborne, infantry, _reach): what the unit loops of every checked move read, worked out
    once per context (profiles and bases do not change in a game)."""
    held = g.ctx.__dict__.get("_move_kinds")
    if held is None:
        held = g.ctx.__dict__["_move_kinds"] = {
            uid: (g.ctx.profile(uid).airborne, g.ctx.profile(uid).infantry, _reach(g, uid)) for uid in g.ctx.unit_sheet}
    return held


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
    boxed, near_all = _near_all(g, polys)
    why = _blocked_by(g, unit_id, polys, boxed, near_all)
    if why:
        return None, Refusal(WobReason.BLOCKED, _("{unit} cannot go that way: {why}").format(unit=unit_id, why=why))
    near = _within(near_all, boxed[-1][1])   # the swept base's own (the last polygon)
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
    trampled, destroyed, crushed = (), (), ()
    if profile.mechanized and not profile.airborne:
        trampled = _trampled(g, unit_id, polys, heading, start)
        pieces = [p for p in near_all if _crushes(profile, p) and _touching_any(boxed, p.polygon, p.box, p.axes)]
        destroyed = tuple(sorted({p.instance for p in pieces if p.kind == "decor"}))
        crushed = tuple(sorted({p.id for p in pieces if p.kind == "body"}))
    return MovePlan(centre, heading, cost_cm, unit.position, turned, unit.facing, trampled, destroyed, crushed), None


def _trampled(g: Game, unit_id: str, polys, heading: float, start) -> tuple[str, ...]:
    """Infantry under any of the polygons, in the order the move meets them."""
    fx, fy = plan.unit_vector(heading)
    edge = plan.front_edge(start)
    met = []
    boxed = _boxed(polys)
    x0, x1, y0, y1 = _union(boxed)
    kinds = _kinds(g)
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
    from bow3d.rulesets.war_of_bros.reactions import opportunities

    move, _refusal = plan_move(g, unit_id, heading, distance_cm)
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
    tasks = tuple(("trample", unit_id, other, 0) for other in move.trampled)
    if distance_cm > 0:
        tasks += tuple(("opportunity", reactor, unit_id) for reactor in opportunities(g, unit_id, move))
    state.tasks = state.tasks + tasks
    return events


def path_points(move: MovePlan, every_cm: float = REACTION_SAMPLE_CM) -> list[tuple[float, float]]:
    """Centres along the straight part of a move, every `every_cm` and the end."""
    a, b = move.turned_to, move.centre
    length = plan.cm(math.dist(a, b))
    n = max(1, math.ceil(length / every_cm))
    return [(a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n) for k in range(1, n + 1)]
