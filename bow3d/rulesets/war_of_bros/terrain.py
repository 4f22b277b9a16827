"""The battlefield under the bases: what a move may cross, at what difficulty, and what it tramples.

Layer: rulesets (War of Bros; numpy, no world import). Units: studs (plan view), LDU for heights.
The terrain is read once per game from the geometry's decor (a geometry with `decor_boxes` (I, 2, 3)
LDU, `decor_materials` (I,) and `instances`, as bow3d.world.World has them; none: an open field)
and the scene's marked zones; bodies and wrecks are added by the rules (the game state).

More: docs/modules/rulesets-war-of-bros.md#terrain.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from bow3d.rulesets.war_of_bros import plan
from bow3d.rulesets.war_of_bros.cover import cover_class, rank
from bow3d.units import LDU_PER_STUD as STUD_LDU

STEP_LDU = 9.0          # a plate (8 LDU) and a little: walked over
CLEARANCE_LDU = 40.0    # a minifig's hips: what starts higher is passed under
GRID_STUDS = 8.0        # Terrain.near's cells
GRID_MAX_CELLS = 16     # a query meeting more cells than this reads every box
GRID_BIG_BOX_CELLS = 4096   # a piece's box over more cells than this is asked by every query (not filed by cells)
CULL_STUDS = 1e-3      # entry_interval: a piece's box this far from the strip's meets nothing of it ...
CULL_EDGE_STUDS = 1e-5  # ... when the strip's edges are at least this long (see _apart)


@dataclass(frozen=True)
class Piece:
    """A thing on the battlefield a base may meet: decor (its instance), a zone, a body or a wreck."""

    kind: str                  # 'decor' | 'zone' | 'body' | 'wreck'
    polygon: tuple             # plan view, studs
    cover: str                 # the class it gives ('none' for a zone)
    difficulty: int            # 1, 2, 3; 0 = cannot be crossed
    instance: int = -1         # decor instance
    id: str | None = None      # the body's or wreck's id (the unit's)
    material: str = ""

    @property
    def box(self) -> tuple[float, float, float, float]:
        """xmin, xmax, ymin, ymax (studs), worked out once."""
        found = self.__dict__.get("_box")
        if found is None:
            found = plan.bounds([self.polygon])
            object.__setattr__(self, "_box", found)
        return found

    @property
    def axes(self) -> list[tuple[float, float]]:
        """plan.edge_normals of the polygon, worked out once (read only)."""
        found = self.__dict__.get("_axes")
        if found is None:
            found = plan.edge_normals(self.polygon)
            object.__setattr__(self, "_axes", found)
        return found


class Terrain:
    """The static terrain of one game (decor and zones); dynamic pieces are passed in per query."""

    def __init__(self, pieces: list[Piece], bounds: tuple[float, float, float, float] | None) -> None:
        self.pieces = pieces
        self.bounds = bounds   # xmin, xmax, ymin, ymax (studs) of the battlefield; None: unbounded
        boxes = [plan.bounds([p.polygon]) for p in pieces] or [(0.0, 0.0, 0.0, 0.0)]
        self.boxes = np.array(boxes, np.float64).reshape(-1, 4)[:len(pieces)]
        self._grid = _Grid(self.boxes.tolist())

    @classmethod
    def of(cls, geometry, zones: Iterable = (), overrides: dict[str, str] | None = None) -> Terrain:
        """The decor of the geometry (if it has any) and the scene's marked zones."""
        pieces: list[Piece] = []
        boxes = getattr(geometry, "decor_boxes", None)
        materials = getattr(geometry, "decor_materials", None)
        bounds = None
        if boxes is not None and materials is not None and len(boxes):
            boxes = np.asarray(boxes, np.float64)
            finite = np.isfinite(boxes).all(axis=(1, 2))
            ground = finite & (np.asarray(materials).astype(str) == "ground")
            floor = float(boxes[ground, 1, 2].max()) if ground.any() else float(boxes[finite, 0, 2].min())
            every = boxes[finite]
            bounds = (float(every[:, 0, 0].min()) / STUD_LDU, float(every[:, 1, 0].max()) / STUD_LDU,
                      float(every[:, 0, 1].min()) / STUD_LDU, float(every[:, 1, 1].max()) / STUD_LDU)
            tall = (boxes[:, 1, 2] - np.maximum(boxes[:, 0, 2], floor)) > STEP_LDU
            low = (boxes[:, 0, 2] - floor) < CLEARANCE_LDU
            keep = np.flatnonzero(finite & ~ground & tall & low)
            for k in keep.tolist():
                (x0, y0, _), (x1, y1, _) = boxes[k] / STUD_LDU
                material = str(materials[k])
                cover = cover_class(material, overrides)
                polygon = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
                pieces.append(Piece("decor", polygon, cover, 2 if rank(cover) <= 1 else 0, k, None, material))
        elif hasattr(geometry, "width") and hasattr(geometry, "depth"):
            bounds = (0.0, float(geometry.width), 0.0, float(geometry.depth))
        for zone in zones:
            pieces.append(Piece("zone", tuple(tuple(p) for p in zone.area), "none", int(zone.difficulty)))
        return cls(pieces, bounds)

    # -- queries ---------------------------------------------------------------------------------
    def near(self, polygon: Sequence, removed: frozenset[int] = frozenset()) -> list[Piece]:
        """Static pieces whose box meets the polygon's box (decor removed by the rules left out)."""
        return self.near_box(plan.bounds([polygon]), removed)

    def near_box(self, box: tuple[float, float, float, float], removed: frozenset[int] = frozenset()) -> list[Piece]:
        """`near` of a polygon whose box (xmin, xmax, ymin, ymax) is known."""
        if not self.pieces:
            return []
        x0, x1, y0, y1 = box
        found = self._grid.meeting(x0, x1, y0, y1)
        if found is not None:
            return [self.pieces[k] for k in found if self.pieces[k].instance not in removed]
        b = self.boxes
        hit = np.flatnonzero((b[:, 0] <= x1) & (b[:, 1] >= x0) & (b[:, 2] <= y1) & (b[:, 3] >= y0))
        return [self.pieces[k] for k in hit.tolist() if self.pieces[k].instance not in removed]

    def inside(self, polygon: Sequence) -> bool:
        """The polygon lies on the battlefield."""
        if self.bounds is None:
            return True
        x0, x1, y0, y1 = self.bounds
        x0, x1, y0, y1 = x0 - 1e-6, x1 + 1e-6, y0 - 1e-6, y1 + 1e-6
        for x, y in polygon:   # noqa: SIM110 (a loop, not all() over a generator: asked for every polygon of every checked move)
            if not (x0 <= x <= x1 and y0 <= y <= y1):
                return False
        return True


class _Grid:
    """The pieces' boxes by square cells of GRID_STUDS (a box in every cell it meets): Terrain.near asks a
    few cells instead of every box (a box that meets the query box shares a cell with it: floor(x / cell)
    never decreases with x), then the same comparisons on the same numbers, in the pieces' order."""

    def __init__(self, boxes: list) -> None:
        self.boxes = boxes
        self.cells: dict[tuple[int, int], list[int]] | None = {}
        self.big: list[int] = []   # boxes over more than GRID_BIG_BOX_CELLS cells (a scene's huge zone): asked always
        for k, (x0, x1, y0, y1) in enumerate(boxes):
            if not all(math.isfinite(v) for v in (x0, x1, y0, y1)):
                self.cells = None   # an unbounded piece: every query goes to the arrays
                return
            i0, i1 = math.floor(x0 / GRID_STUDS), math.floor(x1 / GRID_STUDS)
            j0, j1 = math.floor(y0 / GRID_STUDS), math.floor(y1 / GRID_STUDS)
            if (i1 - i0 + 1) * (j1 - j0 + 1) > GRID_BIG_BOX_CELLS:   # filing it by cells could take minutes and GBs
                self.big.append(k)
                continue
            for i in range(i0, i1 + 1):
                for j in range(j0, j1 + 1):
                    self.cells.setdefault((i, j), []).append(k)

    def meeting(self, x0: float, x1: float, y0: float, y1: float) -> list[int] | None:
        """Indices (in order) of the boxes meeting [x0, x1] x [y0, y1]; None: ask the arrays instead (a big,
        unbounded or odd query)."""
        if self.cells is None or not (math.isfinite(x0) and math.isfinite(x1) and math.isfinite(y0)
                                      and math.isfinite(y1)):
            return None
        i0, i1 = math.floor(x0 / GRID_STUDS), math.floor(x1 / GRID_STUDS)
        j0, j1 = math.floor(y0 / GRID_STUDS), math.floor(y1 / GRID_STUDS)
        if (i1 - i0 + 1) * (j1 - j0 + 1) > GRID_MAX_CELLS:
            return None
        near: set[int] = set(self.big)
        for i in range(i0, i1 + 1):
            for j in range(j0, j1 + 1):
                near.update(self.cells.get((i, j), ()))
        boxes = self.boxes
        return [k for k in sorted(near) if boxes[k][0] <= x1 and boxes[k][1] >= x0 and boxes[k][2] <= y1
                and boxes[k][3] >= y0]


def touching(pieces: Iterable[Piece], polygon: Sequence) -> list[Piece]:
    """The pieces a polygon overlaps (touching edges do not count)."""
    return [p for p in pieces if plan.overlaps(polygon, p.polygon, 1e-6)]


def swept(corners: Sequence, heading: float, distance: float) -> list:
    """The area a base covers moving straight ahead `distance` studs along its own facing: the base
    lengthened forwards (front corners moved)."""
    fx, fy = plan.unit_vector(heading)
    fl, fr, br, bl = corners
    return [(fl[0] + fx * distance, fl[1] + fy * distance), (fr[0] + fx * distance, fr[1] + fy * distance), br, bl]


def entry_interval(edge: Sequence, heading: float, distance: float, piece: Piece) -> tuple[float, float] | None:
    """The stretch [t0, t1] (studs travelled, 0..distance) during which the front edge, moving straight
    ahead, is over the piece; None when it never is."""
    fx, fy = plan.unit_vector(heading)
    a, b = edge
    strip = [a, b, (b[0] + fx * distance, b[1] + fy * distance), (a[0] + fx * distance, a[1] + fy * distance)]
    if _apart(strip, piece.box, distance, math.dist(a, b)):
        return None
    part = plan.intersection(piece.polygon, strip)
    if len(part) < 3:
        return None
    along = [(p[0] - a[0]) * fx + (p[1] - a[1]) * fy for p in part]
    t0, t1 = max(0.0, min(along)), min(distance, max(along))
    return (t0, t1) if t1 > t0 + 1e-9 else None


def _apart(strip: list, box: tuple[float, float, float, float], length: float, width: float) -> bool:
    """The piece's box lies farther than CULL_STUDS from the strip's: their intersection is empty (a quick
    answer for a quarter of the pieces near a move). plan.clip keeps points up to EPS / (edge length) outside
    each edge, far less than CULL_STUDS for edges of CULL_EDGE_STUDS or more (shorter ones are not culled)."""
    if length < CULL_EDGE_STUDS or width < CULL_EDGE_STUDS:
        return False
    x0, x1, y0, y1 = plan.bounds([strip])
    a0, a1, b0, b1 = box
    return a0 > x1 + CULL_STUDS or a1 < x0 - CULL_STUDS or b0 > y1 + CULL_STUDS or b1 < y0 - CULL_STUDS


def path_cost(edge: Sequence, heading: float, distance: float, pieces: Iterable[Piece]) -> float:
    """Movement used (studs) by the front edge travelling `distance` studs straight ahead over pieces of
    difficulty 2 or 3: each stretch counts at the highest difficulty under the edge there."""
    stretches = []
    for piece in pieces:
        if piece.difficulty >= 2:
            span = entry_interval(edge, heading, distance, piece)
            if span is not None:
                stretches.append((span[0], span[1], piece.difficulty))
    if not stretches:
        return distance
    cuts = sorted({0.0, distance, *(s[0] for s in stretches), *(s[1] for s in stretches)})
    cost = 0.0
    for lo, hi in zip(cuts[:-1], cuts[1:]):
        mid = (lo + hi) / 2.0
        level = max((d for s0, s1, d in stretches if s0 <= mid <= s1), default=1)
        cost += (hi - lo) * level
    return cost


def max_distance(edge: Sequence, heading: float, budget: float, pieces: Sequence[Piece], limit: float) -> float:
    """The longest straight move (studs, at most `limit`) whose cost fits the budget (studs)."""
    if path_cost(edge, heading, limit, pieces) <= budget + 1e-9:
        return limit
    lo, hi = 0.0, limit
    for _ in range(30):
        mid = (lo + hi) / 2.0
        if path_cost(edge, heading, mid, pieces) <= budget + 1e-9:
            lo = mid
        else:
            hi = mid
    return lo


def rotation_sweep(centre: tuple[float, float], facing: float, width: float, depth: float, pivot, delta: float,
                   step_deg: float = 10.0) -> list[list]:
    """The bases a rotation about `pivot` passes through (every `step_deg`, the end included)."""
    steps = max(1, math.ceil(abs(delta) / step_deg))
    out = []
    for k in range(1, steps + 1):
        turn = delta * k / steps
        c = plan.rotate_about(centre, pivot, turn)
        out.append(plan.base_corners(c, facing + turn, width, depth))
    return out
