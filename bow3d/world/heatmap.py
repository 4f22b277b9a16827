"""Heatmaps over the stud grid: could a minifig standing on each cell be seen, and how covered.

Layer: world. For every cell with ground, a stand-in minifig (a body template; by default the
model of the first enemy unit) is placed at the cell centre, facing the viewer, resting on the
cell's ground height; its samples facing the viewer's eye are cast through decor and the other
bodies exactly as in `World.sight` (the stand-in's own triangles never block; real bodies other
than the viewer do). Cells are done in chunks, so a progress callback can follow.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from bow3d.units import LDU_PER_STUD as STUD
from bow3d.world.bodies import facing_samples_many

CELLS_PER_CHUNK = 64


@dataclass(frozen=True, eq=False)
class Heatmap:
    """visible_fraction (nx, ny) float32 (NaN = no ground) of cells i0.., j0..; viewer ids."""

    i0: int
    j0: int
    visible_fraction: np.ndarray
    viewers: tuple[str, ...]


def stand_in(world, viewer: str):
    """The template a cell's stand-in minifig uses: the first enemy unit's model, else the viewer's."""
    enemies = world.enemies_of(viewer)
    return world.body(enemies[0] if enemies else viewer).template


def visibility_map(world, viewer: str, progress: Callable[[int], None] | None = None, template=None) -> Heatmap:
    """The visible fraction of a stand-in minifig on every cell, seen from `viewer`'s eye."""
    grid = world.grid
    template = template or stand_in(world, viewer)
    eye = world.head(viewer)
    out = np.full(grid.shape, np.nan, np.float32)
    ii, jj = np.nonzero(np.isfinite(grid.heights))
    skip = world.eye_skip(viewer)  # as World.sight: a gunner looks out of the vehicle it rides
    for start in range(0, len(ii), CELLS_PER_CHUNK):
        ci, cj = ii[start:start + CELLS_PER_CHUNK], jj[start:start + CELLS_PER_CHUNK]
        x, y = ci + grid.i0 + 0.5, cj + grid.j0 + 0.5
        poses = np.tile(np.eye(4), (len(ci), 1, 1))
        angle = np.arctan2(eye[1] - y * STUD, eye[0] - x * STUD) - math.radians(270.0)  # each faces the eye
        poses[:, 0, 0], poses[:, 0, 1], poses[:, 1, 0], poses[:, 1, 1] = \
            np.cos(angle), -np.sin(angle), np.sin(angle), np.cos(angle)
        poses[:, :3, 3] = np.column_stack([x * STUD, y * STUD, grid.heights[ci, cj]])
        world_pts, faces = facing_samples_many(template, poses, eye)
        pts = world_pts[faces]
        own = np.nonzero(faces)[0]
        seen, _, _ = world.cast_sight(eye, pts, skip=skip, describe=False)
        facing_count = np.bincount(own, minlength=len(ci))
        seen_count = np.bincount(own, weights=seen, minlength=len(ci))
        out[ci, cj] = np.where(facing_count > 0, seen_count / np.maximum(facing_count, 1), 0.0)
        if progress:
            progress(len(ci))
    return Heatmap(grid.i0, grid.j0, out, (viewer,))


def seen_at(world, cell: tuple[int, int], viewers, template=None) -> dict[str, float]:
    """Who would see a minifig standing on `cell` (i, j): viewer id -> visible fraction of the stand-in
    (as `visibility_map`, one cell and many eyes: its samples facing each eye, cast through decor and
    bodies, the viewer's own ones skipped); {} off the ground. The play UI's "who sees this cell"."""
    grid = world.grid
    i, j = int(cell[0]) - grid.i0, int(cell[1]) - grid.j0
    if not (0 <= i < grid.shape[0] and 0 <= j < grid.shape[1]) or not np.isfinite(grid.heights[i, j]):
        return {}
    x, y = (cell[0] + 0.5) * STUD, (cell[1] + 0.5) * STUD
    out: dict[str, float] = {}
    for viewer in viewers:
        eye = world.head(viewer)
        angle = math.atan2(eye[1] - y, eye[0] - x) - math.radians(270.0)  # facing the eye
        pose = np.eye(4)
        pose[:2, :2] = [[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]]
        pose[:3, 3] = (x, y, grid.heights[i, j])
        points, faces = facing_samples_many(template or stand_in(world, viewer), pose[None], eye)
        seen, _, _ = world.cast_sight(eye, points[faces], skip=world.eye_skip(viewer), describe=False)
        out[viewer] = float(seen.mean()) if len(seen) else 0.0
    return out


def cover_map(world, side: str, in_cover: Callable[[np.ndarray], np.ndarray],
              progress: Callable[[int], None] | None = None) -> tuple[Heatmap, np.ndarray]:
    """From how many enemy positions a minifig of `side` on each cell would be in cover.

    `in_cover(visible_fraction)` is the ruleset's judgement, vectorised: (nx, ny) float32 visible
    fractions (NaN off the battlefield) -> (nx, ny) bool (the world measures, the ruleset judges).
    Returns (the mean visible fraction over the enemies, (nx, ny) int32 counts).
    """
    enemies = [b.id for b in world.bodies.values()
               if b.kind == "unit" and b.side != side and world.active[b.index]]
    friends = [b.id for b in world.bodies.values() if b.kind == "unit" and b.side == side]
    template = world.body(friends[0], placed=False).template if friends else None
    grid = world.grid
    counts = np.zeros(grid.shape, np.int32)
    total = np.zeros(grid.shape, np.float64)
    for enemy in enemies:
        one = visibility_map(world, enemy, progress, template or stand_in(world, enemy))
        fraction = one.visible_fraction
        counts += np.isfinite(fraction) & np.asarray(in_cover(np.nan_to_num(fraction, nan=1.0)), bool)
        total += np.nan_to_num(one.visible_fraction, nan=0.0)
    mean = np.where(np.isfinite(grid.heights), total / max(len(enemies), 1), np.nan).astype(np.float32)
    return Heatmap(grid.i0, grid.j0, mean, tuple(enemies)), counts
