"""Where a first look at a scene stands: across the battle line, so that both armies are in the picture.

Layer: view, pure numpy (no Panda3D). The named `iso` view looks from the south-east; on the village
(blue west, red east, houses between) that puts the blue army at the far end, behind the houses. The
armies' view looks across the line joining the sides' centres (each army to one side of the picture,
both at about the same distance) from the side nearer the iso view's, from ELEVATION_DEG up, so that
low decor hides less. Positions in studs, directions in the world frame (Z up).
"""

from __future__ import annotations

import math

import numpy as np

from bow3d.view.camera.choices import VIEWS

ELEVATION_DEG = 52.0  # above the iso view's 33: over walls, hedges and roofs onto every head of the bundled scenes


def side_positions(scene) -> dict[str, np.ndarray]:
    """side -> (N, 2) float64 positions in studs of its units and vehicles on the ground (aboard: none)."""
    found: dict[str, list] = {}
    for body in [*getattr(scene, "units", ()), *getattr(scene, "vehicles", ())]:
        if getattr(body, "position", None) is not None:
            found.setdefault(body.side, []).append(body.position)
    return {side: np.asarray(points, np.float64).reshape(-1, 2) for side, points in found.items()}


def armies_direction(positions: dict[str, np.ndarray]) -> tuple[float, float, float]:
    """The camera direction (from the target, not normalised) across the line between the first two sides'
    centres; the iso direction when fewer than two sides stand on the battlefield or they share a centre."""
    iso = np.asarray(VIEWS["iso"], np.float64)
    x, y, z = (float(v) for v in iso)
    centres = [points.mean(axis=0) for points in positions.values() if len(points)]
    if len(centres) < 2:
        return x, y, z
    line = centres[1] - centres[0]
    if np.hypot(*line) < 1e-6:
        return x, y, z
    across = np.array([-line[1], line[0]]) / np.hypot(*line)
    if across @ iso[:2] < 0:  # of the two sides of the line, the one nearer the familiar iso view
        across = -across
    up = math.tan(math.radians(ELEVATION_DEG))
    return float(across[0]), float(across[1]), up
