"""Where a base may stand or pass: what blocks it (cover above Light, wrecks, other bases, the edge).

Layer: rulesets (War of Bros). Units: studs. The book ("First Movement Step", "Mechanized", "Light
Airborne", "Vitality Step"): bases do not cross cover above Light, wrecks ("Vehicle cover ... units
must navigate around them"), other bases or the battlefield's edge; Mechanized units cross light and
medium cover and infantry (they destroy and trample them: bow3d.rulesets.war_of_bros.movement);
airborne units fly over everything. Read by a move's plan (movement), a unit's placement (turns), a
crew's ejection (death) and a trample's escape (reactions).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from bow3d.i18n import _
from bow3d.rulesets.war_of_bros import measures, plan
from bow3d.rulesets.war_of_bros.cover import rank
from bow3d.rulesets.war_of_bros.terrain import Piece

if TYPE_CHECKING:
    from bow3d.rules.game import Game


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
    return static + within_box(dynamic_pieces(g), box)


def within_box(pieces: list[Piece], box: tuple[float, float, float, float]) -> list[Piece]:
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


def _what(piece: Piece) -> str:
    if piece.kind == "decor":
        return _("{cover} cover ({material}, decor part {instance})").format(
            cover=piece.cover, material=piece.material, instance=piece.instance)
    return (_("a wreck ({id})") if piece.kind == "wreck" else _("a Body ({id})")).format(id=piece.id)


def boxes_of(polys: list) -> list:
    """(polygon, its box, its edge normals: filled in by touching_any when first needed) of each polygon."""
    return [(poly, plan.bounds([poly]), []) for poly in polys]


def touching_any(boxed: list, polygon, box=None, axes=None) -> bool:
    """Any of the boxes_of polygons overlaps `polygon` (whose box is `box` and edge normals `axes`, if known).
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
    return blocked_among(g, unit_id, polys, *near_all(g, polys))


def near_all(g: Game, polys: list) -> tuple[list, list[Piece]]:
    """(boxes_of(polys), the pieces near them all): what blocked_by reads, and a Mechanized move's plan again.
    The union of the polygons' boxes is the box of all their corners (the least and greatest of the same
    numbers)."""
    boxed = boxes_of(polys)
    return boxed, _pieces_near_box(g, union_box(boxed))


def blocked_among(g: Game, unit_id: str, polys: list, boxed: list, near: list[Piece]) -> str | None:
    """blocked_by of the polygons, given their near_all."""
    profile = g.ctx.profile(unit_id)
    for poly in polys:
        if not g.ctx.terrain.inside(poly):
            return _("off the battlefield")
    for piece in near:
        if _stops(profile, piece) and touching_any(boxed, piece.polygon, piece.box, piece.axes):
            return _what(piece)
    if profile.airborne:
        return None
    x0, x1, y0, y1 = union_box(boxed)
    kinds, mechanized = unit_kinds(g), profile.mechanized
    for other in g.state.units.values():
        airborne, infantry, r = kinds[other.id]
        if airborne or other.id == unit_id or not other.on_field:
            continue
        if mechanized and infantry:
            continue  # trampled, not in the way
        px, py = other.position
        if px - r > x1 or px + r < x0 or py - r > y1 or py + r < y0:
            continue  # its base lies inside this circle: no box of the polygons meets it
        if touching_any(boxed, measures.corners(g, other.id)):
            return _("the base of {unit}").format(unit=other.id)
    return None


def union_box(boxed: list) -> tuple[float, float, float, float]:
    return (min(b[0] for _poly, b, _axes in boxed), max(b[1] for _poly, b, _axes in boxed),
            min(b[2] for _poly, b, _axes in boxed), max(b[3] for _poly, b, _axes in boxed))


def _reach(g: Game, unit_id: str) -> float:
    """Half the base's diagonal and a little: every corner of the base lies this near its centre."""
    width, depth = g.ctx.bases[unit_id]
    return math.hypot(width, depth) / 2.0 + 1e-6


def unit_kinds(g: Game) -> dict[str, tuple[bool, bool, float]]:
    """unit id -> (airborne, infantry, _reach): what the unit loops of every checked move read, worked out
    once per context (profiles and bases do not change in a game)."""
    held = g.ctx.__dict__.get("_move_kinds")
    if held is None:
        held = g.ctx.__dict__["_move_kinds"] = {
            uid: (g.ctx.profile(uid).airborne, g.ctx.profile(uid).infantry, _reach(g, uid)) for uid in g.ctx.unit_sheet}
    return held
