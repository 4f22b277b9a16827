"""Bases seen from above: the rules' measures in plan view (War of Bros measures bases, not models).

Layer: rulesets (War of Bros; pure Python). Units: studs for positions and lengths (the scene's),
degrees for facings (0 = +X, counter-clockwise); `CM_PER_STUD` converts (1 stud = 8 mm). The book:
"All of the game's rules apply only to these bases"; "Movement is measured from any position on
the flat front edge of a unit's base"; "If any part of the line that determines weapon range
touches the base of the target unit, the attack is valid".

More: docs/modules/rulesets-war-of-bros.md#plan.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, overload

from bow3d.sectors import collision_sector
from bow3d.units import LDU_PER_STUD, ldu_per

if TYPE_CHECKING:
    import numpy as np

Point = tuple[float, float]
Polygon = list[Point]

CM_PER_STUD = LDU_PER_STUD / ldu_per("cm")  # 0.8: 1 stud = 8 mm (bow3d.units, the one definition)
LOS_HALF_ANGLE_DEG = 45.0   # the indicator's lines through the front corners of a square base
FAR_STUDS = 2000.0          # how far the indicator's lines are drawn (the arc is cut there)
EPS = 1e-9


@overload
def cm(studs: float) -> float: ...
@overload
def cm(studs: np.ndarray) -> np.ndarray: ...
def cm(studs):
    """Studs (a number or an array) in cm."""
    return studs * CM_PER_STUD


def studs(cm_: float) -> float:
    return cm_ / CM_PER_STUD


def unit_vector(deg: float) -> Point:
    a = math.radians(deg)
    return (math.cos(a), math.sin(a))


def base_corners(centre: Point, facing: float, width: float, depth: float) -> Polygon:
    """Front-left, front-right, back-right, back-left (studs)."""
    fx, fy = unit_vector(facing)
    lx, ly = -fy, fx
    hw, hd = width / 2.0, depth / 2.0
    cx, cy = centre
    return [(cx + fx * hd + lx * hw, cy + fy * hd + ly * hw), (cx + fx * hd - lx * hw, cy + fy * hd - ly * hw),
            (cx - fx * hd - lx * hw, cy - fy * hd - ly * hw), (cx - fx * hd + lx * hw, cy - fy * hd + ly * hw)]


def front_edge(corners: Polygon) -> Polygon:
    return [corners[0], corners[1]]


def los_vertex(centre: Point, facing: float, width: float, depth: float) -> Point:
    """The Line of Sight indicator's vertex: the centre of a square base; on the axis, half a width
    behind the front edge, on a long one."""
    back = depth / 2.0 - width / 2.0
    fx, fy = unit_vector(facing)
    return (centre[0] + fx * back, centre[1] + fy * back)


def los_arc(centre: Point, facing: float, width: float, depth: float, far: float = FAR_STUDS) -> Polygon:
    """The Line of Sight arc as a triangle (vertex, and the two lines through the front corners)."""
    vertex = los_vertex(centre, facing, width, depth)
    left, right = unit_vector(facing + LOS_HALF_ANGLE_DEG), unit_vector(facing - LOS_HALF_ANGLE_DEG)
    return [vertex, (vertex[0] + right[0] * far, vertex[1] + right[1] * far),
            (vertex[0] + left[0] * far, vertex[1] + left[1] * far)]


def rotate_about(point: Point, pivot: Point, delta_deg: float) -> Point:
    a = math.radians(delta_deg)
    c, s = math.cos(a), math.sin(a)
    dx, dy = point[0] - pivot[0], point[1] - pivot[1]
    return (pivot[0] + c * dx - s * dy, pivot[1] + s * dx + c * dy)


# -- convex polygons ------------------------------------------------------------------------------
def edge_normals(poly: Sequence[Point]) -> list[Point]:
    """The unit normals of the polygon's edges, in order (edges of no length left out): the axes `overlaps`
    projects on."""
    out = []
    n = len(poly)
    for k in range(n):
        x0, y0 = poly[k]
        x1, y1 = poly[k + 1 - n]
        dx, dy = x1 - x0, y1 - y0
        length = math.hypot(dx, dy)
        if length > EPS:
            out.append((-dy / length, dx / length))
    return out


def overlaps(a: Sequence[Point], b: Sequence[Point], margin: float = 0.0, axes: list[Point] | None = None) -> bool:
    """The convex polygons overlap by more than `margin` (touching edges: margin 0 counts as
    overlapping only when they share more than a line; use a small negative margin to count touching).
    `axes`: edge_normals(a) + edge_normals(b), when the caller has them already (the same answer)."""
    for ax, ay in (edge_normals(a) + edge_normals(b) if axes is None else axes):
        lo_a = hi_a = ax * a[0][0] + ay * a[0][1]
        for x, y in a:
            v = ax * x + ay * y
            if v < lo_a:
                lo_a = v
            elif v > hi_a:
                hi_a = v
        lo_b = hi_b = ax * b[0][0] + ay * b[0][1]
        for x, y in b:
            v = ax * x + ay * y
            if v < lo_b:
                lo_b = v
            elif v > hi_b:
                hi_b = v
        if hi_a <= lo_b + margin or hi_b <= lo_a + margin:
            return False
    return True


def point_segment_gap(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 < EPS else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def contains(poly: Sequence[Point], p: Point) -> bool:
    """The point lies inside or on the convex polygon (either turn)."""
    sign = 0
    n = len(poly)
    for k in range(n):
        x0, y0 = poly[k]
        x1, y1 = poly[(k + 1) % n]
        cross = (x1 - x0) * (p[1] - y0) - (y1 - y0) * (p[0] - x0)
        if abs(cross) <= EPS:
            continue
        s = 1 if cross > 0 else -1
        if sign and s != sign:
            return False
        sign = s
    return True


def _orient(p: Point, q: Point, r: Point) -> float:
    return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])


def _segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    o1, o2 = _orient(a, b, c), _orient(a, b, d)
    if not (o1 > EPS and o2 < -EPS or o1 < -EPS and o2 > EPS):
        return False
    o3, o4 = _orient(c, d, a), _orient(c, d, b)
    return o3 > EPS and o4 < -EPS or o3 < -EPS and o4 > EPS


def _edges(poly: Sequence[Point]) -> list[tuple[Point, Point]]:
    """A polygon's edges; a segment's one edge (a single point: one edge of no length)."""
    n = len(poly)
    return [(poly[k], poly[(k + 1) % n]) for k in range(n if n > 2 else 1)]


def gap(a: Sequence[Point], b: Sequence[Point]) -> float:
    """The distance between two convex polygons or segments (2 points); 0 when they touch or overlap."""
    if len(a) >= 3 and any(contains(a, p) for p in b) or len(b) >= 3 and any(contains(b, p) for p in a):
        return 0.0
    edges_a, edges_b = _edges(a), _edges(b)
    for p, q in edges_a:
        for r, s in edges_b:
            if _segments_cross(p, q, r, s):
                return 0.0
    # the least of point_segment_gap(every corner of one, every edge of the other): the values the pairs of
    # edges give, each worked out once (the least of the same numbers, in any order, is the same number)
    best = math.inf
    for points, edges in ((a, edges_b), (b, edges_a)):
        for (x0, y0), (x1, y1) in edges:
            dx, dy = x1 - x0, y1 - y0
            length2 = dx * dx + dy * dy
            for px, py in points:
                # point_segment_gap((px, py), (x0, y0), (x1, y1)), inline
                t = 0.0 if length2 < EPS else max(0.0, min(1.0, ((px - x0) * dx + (py - y0) * dy) / length2))
                best = min(best, math.hypot(px - x0 - t * dx, py - y0 - t * dy))
    return best


def clip(poly: Sequence[Point], a: Point, b: Point) -> Polygon:
    """The part of a convex polygon on the left of the directed line a -> b (Sutherland-Hodgman)."""
    ex, ey, ax, ay = b[0] - a[0], b[1] - a[1], a[0], a[1]
    sides = [ex * (p[1] - ay) - ey * (p[0] - ax) for p in poly]   # each corner's side once
    out: Polygon = []
    n = len(poly)
    for k in range(n):
        p, sp, sq = poly[k], sides[k], sides[(k + 1) % n]
        if sp >= -EPS:
            out.append(p)
        if sp > EPS and sq < -EPS or sp < -EPS and sq > EPS:
            q = poly[(k + 1) % n]
            t = sp / (sp - sq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def intersection(poly: Sequence[Point], convex: Sequence[Point]) -> Polygon:
    """The part of `poly` inside the convex polygon `convex` (counter-clockwise or not)."""
    area = sum(convex[k][0] * convex[(k + 1) % len(convex)][1] - convex[(k + 1) % len(convex)][0] * convex[k][1]
               for k in range(len(convex)))
    ring = list(convex) if area > 0 else list(reversed(convex))
    out: Polygon = list(poly)
    for k in range(len(ring)):
        if not out:
            break
        out = clip(out, ring[k], ring[(k + 1) % len(ring)])
    return out


# -- which part of a base faces a point ------------------------------------------------------------
def sector(centre: Point, facing: float, width: float, depth: float, point: Point) -> str:
    """'front' | 'side' | 'back': which edge of the base the line from its centre to `point` crosses
    (the front edge, the rear edge or a side; through a corner: front or back): bow3d.sectors' wedges."""
    return collision_sector(centre, facing, depth, width, point)


def bounds(polys: Sequence[Sequence[Point]]) -> tuple[float, float, float, float]:
    x0 = x1 = polys[0][0][0]
    y0 = y1 = polys[0][0][1]
    for poly in polys:
        for x, y in poly:
            if x < x0:
                x0 = x
            elif x > x1:
                x1 = x
            if y < y0:
                y0 = y
            elif y > y1:
                y1 = y
    return (x0, x1, y0, y1)


def boxes_meet(a: Sequence[Point], b: Sequence[Point]) -> bool:
    """The boxes of two polygons (seen from above) meet: a quick test before an exact one."""
    ax0, ax1, ay0, ay1 = bounds([a])
    bx0, bx1, by0, by1 = bounds([b])
    return ax0 <= bx1 and bx0 <= ax1 and ay0 <= by1 and by0 <= ay1
