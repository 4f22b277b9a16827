"""The stud grid: ground heights per cell, walkable steps, moves (BOW §2.3.1) and throws (§2.3.2).

Layer: world. Cell (i, j) is the 1 x 1 stud square [i, i+1) x [j, j+1) (C1). Heights in LDU.

Walkability rule (documented choice): a cell's height is the highest decor surface under five
points of it (its centre and four points 6 LDU off it, so a 1-stud wall on the cell is seen); a
step between two 8-neighbour cells is open when both have ground and their heights differ by at
most one plate (8 LDU): decor higher than a plate blocks, plates and tiles do not. A diagonal
step also needs both orthogonal cells beside it to be open from the start cell (no cutting a
wall's corner). Cells where another unit stands, or under a vehicle's footprint, are blocked;
corners of units may be passed diagonally. Roofs count as ground seen from above (a cell under
a roof reads the roof's height), a known simplification.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from bow3d.i18n import _
from bow3d.units import LDU_PER_PLATE as PLATE_LDU, LDU_PER_STUD as STUD

STEP_TOLERANCE_LDU = 0.5
PROBE_OFFSET_LDU = 6.0
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def _shift(src: np.ndarray, di: int, dj: int, fill=False) -> np.ndarray:
    """out[i + di, j + dj] = src[i, j] (cells shifted off the edge are dropped)."""
    out = np.full_like(src, fill)
    nx, ny = src.shape
    out[max(di, 0): nx + min(di, 0), max(dj, 0): ny + min(dj, 0)] = \
        src[max(-di, 0): nx + min(-di, 0), max(-dj, 0): ny + min(-dj, 0)]
    return out


def _cell_heights(world, cells_i: np.ndarray, cells_j: np.ndarray) -> np.ndarray:
    """(len(cells_i), len(cells_j)) float64: each cell's height, the highest of its five probes."""
    ci, cj = np.meshgrid(cells_i + 0.5, cells_j + 0.5, indexing="ij")
    offsets = np.array([[0, 0], [1, 1], [1, -1], [-1, 1], [-1, -1]]) * PROBE_OFFSET_LDU
    probes = np.stack([ci * STUD, cj * STUD], axis=-1)[:, :, None, :] + offsets
    return world.ground_heights(probes.reshape(-1, 2)).reshape(*ci.shape, 5).max(axis=2)


def _steps(heights: np.ndarray) -> dict[tuple[int, int], np.ndarray]:
    """Direction -> (nx, ny) bool: the step from each cell that way is open (module docstring)."""
    ground = np.isfinite(heights)
    steps = {}
    for di, dj in DIRECTIONS:
        there = _shift(heights, -di, -dj, -np.inf)  # there[i, j] = heights[i + di, j + dj]
        steps[(di, dj)] = ground & np.isfinite(there) & (np.abs(np.where(ground, heights, 0) -
                                                               np.where(np.isfinite(there), there, 0))
                                                        <= PLATE_LDU + STEP_TOLERANCE_LDU)
    for di, dj in DIRECTIONS[4:]:  # a diagonal also needs both orthogonal steps beside it
        steps[(di, dj)] &= steps[(di, 0)] & steps[(0, dj)]
    return steps


@dataclass
class StudGrid:
    """Heights (nx, ny) float64 (-inf = no ground) of cells i0.. and j0.., and open steps."""

    i0: int
    j0: int
    heights: np.ndarray
    steps: dict[tuple[int, int], np.ndarray]  # direction -> (nx, ny) bool: the step from the cell is open

    @classmethod
    def build(cls, world) -> StudGrid:
        lo, hi = world.bounds
        i0, j0 = math.floor(lo[0] / STUD), math.floor(lo[1] / STUD)
        nx, ny = max(math.ceil(hi[0] / STUD) - i0, 1), max(math.ceil(hi[1] / STUD) - j0, 1)
        heights = _cell_heights(world, np.arange(nx) + i0, np.arange(ny) + j0)
        return cls(i0, j0, heights, _steps(heights))

    def refresh(self, world, lo_xy: np.ndarray, hi_xy: np.ndarray) -> None:
        """Heights again under a changed region (world XY corners, LDU; one cell of margin), and the
        steps (decor taken away or put back: bow3d.world.changes)."""
        i = np.clip([math.floor(lo_xy[0] / STUD) - 1 - self.i0, math.ceil(hi_xy[0] / STUD) + 1 - self.i0],
                    0, self.shape[0])
        j = np.clip([math.floor(lo_xy[1] / STUD) - 1 - self.j0, math.ceil(hi_xy[1] / STUD) + 1 - self.j0],
                    0, self.shape[1])
        if i[1] <= i[0] or j[1] <= j[0]:
            return
        self.heights[i[0]:i[1], j[0]:j[1]] = _cell_heights(world, np.arange(i[0], i[1]) + self.i0,
                                                           np.arange(j[0], j[1]) + self.j0)
        self.steps = _steps(self.heights)

    @property
    def shape(self) -> tuple[int, int]:
        return self.heights.shape

    def index(self, cell: tuple[int, int]) -> tuple[int, int] | None:
        i, j = cell[0] - self.i0, cell[1] - self.j0
        return (i, j) if 0 <= i < self.shape[0] and 0 <= j < self.shape[1] else None

    def cell_height(self, cell: tuple[int, int]) -> float:
        k = self.index(cell)
        return float(self.heights[k]) if k else -math.inf

    def occupied(self, world, except_ids: tuple[str, ...] = ()) -> np.ndarray:
        """(nx, ny) bool: cells where a unit stands or under the footprint of a vehicle, a closed door or
        an obstacle higher than a plate (others than except_ids)."""
        taken = np.zeros(self.shape, bool)
        for body in world.bodies.values():
            if body.id in except_ids or not world.active[body.index] or body.seat is not None:
                continue  # a seated unit is inside its vehicle's footprint
            if body.kind == "obstacle" and body.template.height <= PLATE_LDU + STEP_TOLERANCE_LDU:
                continue  # as low as a plate: walked over, like plates and tiles of the decor
            if body.kind == "unit":
                k = self.index((math.floor(body.position[0]), math.floor(body.position[1])))
                if k:
                    taken[k] = True
            else:
                taken |= self.under_footprint(world.footprint(body.id))
        return taken

    def under_footprint(self, corners: np.ndarray) -> np.ndarray:
        """(nx, ny) bool: cells whose centre lies inside the footprint (4, 2 world XY corners)."""
        ci, cj = np.meshgrid(np.arange(self.shape[0]) + self.i0 + 0.5, np.arange(self.shape[1]) + self.j0 + 0.5,
                             indexing="ij")
        pts = np.stack([ci * STUD, cj * STUD], axis=-1)
        inside = np.ones(self.shape, bool)
        for k in range(4):
            a, b = corners[k], corners[(k + 1) % 4]
            cross = (b[0] - a[0]) * (pts[..., 1] - a[1]) - (b[1] - a[1]) * (pts[..., 0] - a[0])
            inside &= cross >= -1e-9
        return inside

    def distances(self, start: tuple[int, int], blocked: np.ndarray, limit: int) -> np.ndarray:
        """(nx, ny) int32 steps from the start cell (8-connected, diagonal = 1), -1 beyond `limit`."""
        dist = np.full(self.shape, -1, np.int32)
        dist[start] = 0
        frontier = np.zeros(self.shape, bool)
        frontier[start] = True
        for step in range(1, max(int(limit), 0) + 1):
            reached = np.zeros(self.shape, bool)
            for d in DIRECTIONS:
                reached |= _shift(frontier & self.steps[d], d[0], d[1])
            frontier = reached & (dist < 0) & ~blocked
            if not frontier.any():
                break
            dist[frontier] = step
        return dist

    def _start(self, world, unit: str) -> tuple[tuple[int, int], np.ndarray]:
        from bow3d.errors import UserInputError
        body = world.body(unit)
        cell = (math.floor(body.position[0]), math.floor(body.position[1]))
        k = self.index(cell)
        if k is None:
            raise UserInputError(_("{unit} stands at {position}, outside the battlefield's stud grid")
                                 .format(unit=unit, position=body.position))
        return k, self.occupied(world, (unit,))

    def reachable(self, world, unit: str, move_studs: int) -> dict[tuple[int, int], int]:
        """BOW §2.3.1: cells the unit can reach with a Move of `move_studs` -> steps; its own cell -> 0."""
        start, blocked = self._start(world, unit)
        dist = self.distances(start, blocked, move_studs)
        ii, jj = np.nonzero(dist >= 0)
        return {(int(i) + self.i0, int(j) + self.j0): int(dist[i, j]) for i, j in zip(ii, jj)}

    def path(self, world, unit: str, to: tuple[int, int], move_studs: int) -> list[tuple[int, int]] | None:
        """A shortest 8-connected path to `to` (start excluded), or None if out of reach of the Move."""
        start, blocked = self._start(world, unit)
        goal = self.index(to)
        if goal is None:
            return None
        dist = self.distances(start, blocked, move_studs)
        if dist[goal] < 0:
            return None
        cells, here = [], goal
        while dist[here] > 0:
            cells.append((here[0] + self.i0, here[1] + self.j0))
            for di, dj in DIRECTIONS:
                prev = (here[0] - di, here[1] - dj)
                if self.index((prev[0] + self.i0, prev[1] + self.j0)) and dist[prev] == dist[here] - 1 \
                        and self.steps[(di, dj)][prev]:
                    here = prev
                    break
        return cells[::-1]

    def can_throw(self, world, unit: str, to: tuple[int, int], max_studs: float) -> bool:
        """BOW §2.3.2: within `max_studs` (2 x Move) of the unit, and no decor between its head and a
        point at the same height above the target cell's ground."""
        body = world.body(unit)
        k = self.index(to)
        if k is None or not np.isfinite(self.heights[k]):
            return False
        centre = np.array([to[0] + 0.5, to[1] + 0.5])
        if np.hypot(*(centre - np.asarray(body.position))) > max_studs + 1e-9:
            return False
        head = world.head(unit)
        above = head[2] - world.poses[body.index, 2, 3]
        aim = np.array([centre[0] * STUD, centre[1] * STUD, self.heights[k] + above])
        delta = aim - head
        length = float(np.linalg.norm(delta))
        if length < 1e-6:
            return True
        blocked = world.decor_scene.occluded(head[None].astype(np.float32), (delta / length)[None].astype(np.float32),
                                             np.array([length], np.float32))
        return not bool(blocked[0])

    def free_cells_near(self, world, vehicle: str) -> list[tuple[int, int]]:
        """Free cells around a vehicle's footprint (8-neighbours of the cells under it), nearest first,
        with ground within a plate of the vehicle's own."""
        body = world.body(vehicle)
        under = self.under_footprint(world.footprint(vehicle, grow_ldu=0.5))
        if not under.any():
            k = self.index((math.floor(body.position[0]), math.floor(body.position[1])))
            if k:
                under[k] = True
        ring = np.zeros(self.shape, bool)
        for d in DIRECTIONS:
            ring |= _shift(under, d[0], d[1])
        ground = world.poses[body.index, 2, 3]
        free = ring & ~under & ~self.occupied(world, (vehicle,)) & np.isfinite(self.heights) & \
            (np.abs(np.where(np.isfinite(self.heights), self.heights, 0) - ground) <= PLATE_LDU + STEP_TOLERANCE_LDU)
        ii, jj = np.nonzero(free)
        cells = [(int(i) + self.i0, int(j) + self.j0) for i, j in zip(ii, jj)]
        x, y = body.position
        return sorted(cells, key=lambda c: (round(math.hypot(c[0] + 0.5 - x, c[1] + 0.5 - y), 9), c))
