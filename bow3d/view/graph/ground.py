"""Ground heights under a footprint, from the battlefield mesh (numpy, vectorised).

Layer: view (a stand-in for the world's own height queries, which the viewer may use instead).
World frame, Z up, LDU. The ground is every upward-facing, non-detail triangle of the decor
(studs are detail: a minifig's feet sit on the plate's top, round the studs). The height at a
point is the highest such surface above it; under a footprint, the highest over sample points
spread over the footprint (design.md: a unit rests on whatever is below it).
"""

from __future__ import annotations

import numpy as np

CELL_LDU = 40.0  # binning of triangles (2 studs)
UP_MIN_NZ = 0.3  # faces steeper than this are walls, not ground
_KEY_OFFSET = 2**20


def _key(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return (x + _KEY_OFFSET) * 2**21 + (y + _KEY_OFFSET)


class GroundHeights:
    """Height of the top surface under points of the stud plane.

    `corners` (T, 3, 3) float triangles (world frame); only upward faces are kept. Queries
    are vectorised: candidate triangles come from a grid of `CELL_LDU` cells.
    """

    def __init__(self, corners: np.ndarray, default_z: float = 0.0):
        corners = np.asarray(corners, np.float64).reshape(-1, 3, 3)
        normals = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
        length = np.linalg.norm(normals, axis=1)
        up = (length > 1e-9) & (normals[:, 2] > UP_MIN_NZ * np.maximum(length, 1e-12))
        self.corners = corners[up]
        self.default_z = float(default_z)
        lo = np.floor(self.corners[:, :, :2].min(axis=1) / CELL_LDU).astype(np.int64)
        hi = np.floor(self.corners[:, :, :2].max(axis=1) / CELL_LDU).astype(np.int64)
        width = hi[:, 0] - lo[:, 0] + 1
        counts = width * (hi[:, 1] - lo[:, 1] + 1)
        tri = np.repeat(np.arange(self.corners.shape[0]), counts)
        local = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
        gx = lo[tri, 0] + local % width[tri]
        gy = lo[tri, 1] + local // width[tri]
        keys = _key(gx, gy)
        order = np.argsort(keys, kind="stable")
        self._keys, self._tri = keys[order], tri[order]

    @classmethod
    def from_mesh(cls, positions: np.ndarray, triangles: np.ndarray, detail: np.ndarray | None = None,
                  default_z: float = 0.0) -> GroundHeights:
        """From a Mesh's arrays: positions (V, 3), triangles (T, 3) int, detail (T,) bool (dropped)."""
        triangles = np.asarray(triangles)
        if detail is not None:
            triangles = triangles[~np.asarray(detail, bool)]
        return cls(np.asarray(positions, np.float64)[triangles], default_z)

    def heights(self, points: np.ndarray, below: float = np.inf) -> np.ndarray:
        """(N,) the highest ground z under each of `points` (N, 2), ignoring surfaces above `below`."""
        points = np.asarray(points, np.float64).reshape(-1, 2)
        result = np.full(points.shape[0], -np.inf)
        if points.shape[0] == 0 or self.corners.shape[0] == 0:
            return np.where(np.isfinite(result), result, self.default_z)
        cells = np.floor(points / CELL_LDU).astype(np.int64)
        pkeys = _key(cells[:, 0], cells[:, 1])
        left = np.searchsorted(self._keys, pkeys, "left")
        hits = np.searchsorted(self._keys, pkeys, "right") - left
        pair_point = np.repeat(np.arange(points.shape[0]), hits)
        pair_tri = self._tri[np.repeat(left, hits) + np.arange(hits.sum()) - np.repeat(np.cumsum(hits) - hits, hits)]
        tri = self.corners[pair_tri]
        p = points[pair_point]
        a, b, c = tri[:, 0], tri[:, 1], tri[:, 2]
        v0, v1, v2 = (b - a)[:, :2], (c - a)[:, :2], p - a[:, :2]
        den = v0[:, 0] * v1[:, 1] - v1[:, 0] * v0[:, 1]
        ok = np.abs(den) > 1e-12
        den = np.where(ok, den, 1.0)
        u = (v2[:, 0] * v1[:, 1] - v1[:, 0] * v2[:, 1]) / den
        v = (v0[:, 0] * v2[:, 1] - v2[:, 0] * v0[:, 1]) / den
        eps = 1e-7
        inside = ok & (u >= -eps) & (v >= -eps) & (u + v <= 1 + eps)
        z = a[:, 2] + u * (b - a)[:, 2] + v * (c - a)[:, 2]
        inside &= z <= below
        np.maximum.at(result, pair_point[inside], z[inside])
        return np.where(np.isfinite(result), result, self.default_z)

    def under_footprint(self, centre: tuple[float, float], half_extent: tuple[float, float], heading_deg: float,
                        samples: int = 4, below: float = np.inf) -> float:
        """The highest ground under a rectangle (centre, half sizes, turned by heading_deg), LDU."""
        s = np.linspace(-1.0, 1.0, samples) * 0.9
        gx, gy = np.meshgrid(s * half_extent[0], s * half_extent[1])
        local = np.stack([gx.ravel(), gy.ravel()], axis=1)
        angle = np.radians(heading_deg)
        rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        points = local @ rot.T + np.asarray(centre, np.float64)
        points = np.concatenate([points, np.asarray(centre, np.float64)[None]])
        return float(self.heights(points, below).max())
