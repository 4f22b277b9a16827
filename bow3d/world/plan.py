"""Plan-view geometry: convex polygons seen from above (bases, footprints, templates, cones), vectorised.

Layer: world. Units: whatever the caller passes, the same for every argument (the world passes LDU).
A polygon is (P, 2) float64 corners in order (either turn), convex, P >= 2 (two corners make a
segment: a straight edge of zero width); a batch of polygons is (B, P, 2). Distances are gaps:
0 when the shapes touch or overlap. Empty batches give empty results.
"""

from __future__ import annotations

import math

import numpy as np

EPS = 1e-9
ARC_STEP_DEG = 3.0  # a cone's arc is drawn with chords at most this many degrees apart (error < 0.04 % of its radius)


def _edges(polys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(B, P, 2) starts and ends of each polygon's edges (the last corner back to the first)."""
    return polys, np.roll(polys, -1, axis=-2)


def _axes(polys: np.ndarray) -> np.ndarray:
    """(B, P, 2) edge normals (not normalised; zero-length edges give zero axes, which never separate)."""
    start, end = _edges(polys)
    d = end - start
    return np.stack([-d[..., 1], d[..., 0]], axis=-1)


def overlaps(shape: np.ndarray, polys: np.ndarray) -> np.ndarray:
    """(B,) bool: the convex polygon `shape` (P, 2) touches or overlaps each of `polys` (B, Q, 2).

    Separating-axis test on the edge normals of both (exact for convex shapes, segments included).
    """
    polys, shape = np.asarray(polys, np.float64), np.asarray(shape, np.float64)
    if polys.shape[0] == 0:
        return np.zeros(0, bool)
    axes = np.concatenate([np.broadcast_to(_axes(shape[None]), (polys.shape[0], shape.shape[0], 2)),
                           _axes(polys)], axis=1)                                  # (B, A, 2)
    length = np.linalg.norm(axes, axis=2, keepdims=True)
    axes = axes / np.where(length > EPS, length, 1.0)
    pa = np.einsum("pk,bak->bap", shape, axes)                                     # (B, A, P)
    pb = np.einsum("bqk,bak->baq", polys, axes)                                    # (B, A, Q)
    apart = (pa.max(axis=2) < pb.min(axis=2) - EPS) | (pb.max(axis=2) < pa.min(axis=2) - EPS)
    return ~(apart & (length[..., 0] > EPS)).any(axis=1)


def points_to_polygon_edges(points: np.ndarray, polys: np.ndarray) -> np.ndarray:
    """(B, N) distance from each of N points (N, 2) to the nearest edge of each polygon (B, Q, 2)."""
    start, end = _edges(polys)                                        # (B, Q, 2)
    seg = end - start
    rel = points[None, :, None, :] - start[:, None, :, :]             # (B, N, Q, 2)
    u = np.clip(np.einsum("bnqk,bqk->bnq", rel, seg) / np.maximum((seg ** 2).sum(-1), EPS)[:, None, :], 0.0, 1.0)
    return np.linalg.norm(rel - u[..., None] * seg[:, None], axis=-1).min(axis=2)


def gaps(shape: np.ndarray, polys: np.ndarray) -> np.ndarray:
    """(B,) the distance between the convex polygon `shape` (P, 2) and each of `polys` (B, Q, 2); 0 when
    they touch or overlap."""
    polys = np.asarray(polys, np.float64)
    shape = np.asarray(shape, np.float64)
    if polys.shape[0] == 0:
        return np.zeros(0)
    one = points_to_polygon_edges(shape, polys).min(axis=1)                        # shape's corners to polys
    other = _corners_to_shape(polys, shape)                                        # polys' corners to shape
    return np.where(overlaps(shape, polys), 0.0, np.minimum(one, other))


def _corners_to_shape(polys: np.ndarray, shape: np.ndarray) -> np.ndarray:
    """(B,) the least distance from the corners of each polygon to the edges of `shape`."""
    flat = polys.reshape(-1, 2)
    return points_to_polygon_edges(flat, shape[None])[0].reshape(polys.shape[0], -1).min(axis=1)


def point_gaps(point: np.ndarray, polys: np.ndarray) -> np.ndarray:
    """(B,) distance from a point (2,) to each polygon (B, Q, 2): 0 inside or on it."""
    return gaps(np.asarray(point, np.float64)[None].repeat(2, axis=0), polys)


def rectangle(centre, heading_deg: float, length: float, width: float) -> np.ndarray:
    """(4, 2) a rectangle `length` along the heading and `width` across it, centred: back-right first, CCW."""
    return trapezoid(np.asarray(centre, np.float64) - _unit(heading_deg) * length / 2, heading_deg, length,
                     width, width)


def trapezoid(origin, heading_deg: float, length: float, far_width: float, near_width: float) -> np.ndarray:
    """(4, 2) a template from `origin` along the heading: `near_width` wide there, `far_width` wide at
    `length` (near_width 0: a triangle, whose first two corners coincide). Back-right first, CCW."""
    origin = np.asarray(origin, np.float64)
    ahead, left = _unit(heading_deg), _unit(heading_deg + 90.0)
    far = origin + ahead * length
    return np.array([origin - left * near_width / 2, far - left * far_width / 2, far + left * far_width / 2,
                     origin + left * near_width / 2])


def sector(apex, heading_deg: float, half_angle_deg: float, radius: float) -> list[np.ndarray]:
    """A circular sector as convex polygons (one per at most 90 degrees; their union is the sector):
    apex (2,), centred on the heading, `half_angle_deg` each side (0 < half angle <= 180)."""
    apex = np.asarray(apex, np.float64)
    half = float(half_angle_deg)
    pieces = max(1, math.ceil(2 * half / 90.0 - 1e-9))
    edges = np.linspace(heading_deg - half, heading_deg + half, pieces + 1)
    polys = []
    for lo, hi in zip(edges[:-1], edges[1:]):
        steps = max(1, math.ceil((hi - lo) / ARC_STEP_DEG))
        angles = np.radians(np.linspace(lo, hi, steps + 1))
        arc = apex + radius * np.column_stack([np.cos(angles), np.sin(angles)])
        polys.append(np.vstack([apex[None], arc]))
    return polys


def along(origin, heading_deg: float, polys: np.ndarray) -> np.ndarray:
    """(B,) how far along the heading from `origin` each polygon (B, Q, 2) begins (its nearest corner's
    projection; negative behind the origin)."""
    if len(polys) == 0:
        return np.zeros(0)
    return ((polys - np.asarray(origin, np.float64)) @ _unit(heading_deg)).min(axis=1)


def _unit(heading_deg: float) -> np.ndarray:
    a = math.radians(heading_deg)
    return np.array([math.cos(a), math.sin(a)])


def contains(poly: np.ndarray, points: np.ndarray) -> np.ndarray:
    """(N,) bool: each point (N, 2) lies inside or on the convex polygon (P, 2), either turn."""
    poly, points = np.asarray(poly, np.float64), np.asarray(points, np.float64).reshape(-1, 2)
    start, end = _edges(poly[None])
    d = (end - start)[0]
    rel = points[:, None, :] - poly[None]                                        # (N, P, 2)
    cross = d[None, :, 0] * rel[..., 1] - d[None, :, 1] * rel[..., 0]
    return (cross >= -EPS).all(axis=1) | (cross <= EPS).all(axis=1)
