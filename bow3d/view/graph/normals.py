"""Smooth vertex normals for a part, the way LDView shades: numpy only, no Panda3D.

Layer: view. Units: LDU (positions), degrees (the crease angle).

Two triangles that share a side are shaded as one smooth surface when that side is not one of
the part's own type 2 edge lines and their faces turn by less than `CREASE_DEG`; every corner
then takes the normalised, angle-weighted sum of the face normals of the triangles it is smoothed with. A side
that carries an edge line (a brick's corner, a stud's rim) stays hard whatever its angle, so
curved surfaces (cylinders, minifig heads, tyres) look round and boxes keep their edges.
"""

from __future__ import annotations

import numpy as np

CREASE_DEG = 50.0  # LDraw's coarsest curves (8 sides, 45 degrees) still smooth; a 60-degree turn stays hard
WELD_LDU = 0.01  # corners closer than this are one vertex (flattening leaves float32 noise)


def face_normals(corners: np.ndarray) -> np.ndarray:
    """(T, 3, 3) corners -> (T, 3) unit normals of the counter-clockwise faces (zeros for degenerate ones)."""
    corners = np.asarray(corners, np.float64)
    normals = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    length = np.linalg.norm(normals, axis=1, keepdims=True)
    return np.divide(normals, length, out=np.zeros_like(normals), where=length > 0)


def smooth_normals(corners: np.ndarray, edge_ends: np.ndarray | None = None, crease_deg: float = CREASE_DEG) -> np.ndarray:
    """Per-corner normals (T, 3, 3) float32 for triangles `corners` (T, 3, 3).

    `edge_ends` (E, 2, 3) are the part's type 2 edge lines in the same frame: sides lying on one
    stay hard. Empty input gives an empty (0, 3, 3) answer.
    """
    corners = np.asarray(corners, np.float64)
    count = corners.shape[0]
    if count == 0:
        return np.zeros((0, 3, 3), np.float32)
    faces = face_normals(corners)
    ids = _weld(corners.reshape(-1, 3), None if edge_ends is None else np.asarray(edge_ends, np.float64).reshape(-1, 3))
    vertex = ids[: count * 3].reshape(count, 3)
    hard = _edge_keys(ids[count * 3:].reshape(-1, 2)) if edge_ends is not None else np.zeros(0, np.int64)
    # each side of each triangle: its two corners (as corner numbers) and the welded key of the side
    first = np.array([0, 1, 2]), np.array([1, 2, 0])
    tri = np.repeat(np.arange(count), 3)
    a_corner, b_corner = tri * 3 + np.tile(first[0], count), tri * 3 + np.tile(first[1], count)
    a, b = vertex.reshape(-1)[np.tile(first[0], count) + tri * 3], vertex.reshape(-1)[np.tile(first[1], count) + tri * 3]
    keys = _edge_keys(np.stack([a, b], axis=1))
    order = np.argsort(keys, kind="stable")
    same = keys[order][1:] == keys[order][:-1]  # neighbouring sides in sorted order sharing a key: adjacent faces
    left, right = order[:-1][same], order[1:][same]
    smooth = np.einsum("ij,ij->i", faces[tri[left]], faces[tri[right]]) > np.cos(np.radians(crease_deg))
    smooth &= ~np.isin(keys[left], hard)
    left, right = left[smooth], right[smooth]
    # the sides run opposite ways on two consistently wound faces; match corners by welded vertex
    straight = a[left] == a[right]
    links = np.concatenate([
        np.stack([a_corner[left], np.where(straight, a_corner[right], b_corner[right])], axis=1),
        np.stack([b_corner[left], np.where(straight, b_corner[right], a_corner[right])], axis=1)])
    group = _components(count * 3, links)
    total = np.zeros((count * 3, 3))
    np.add.at(total, group, np.repeat(faces, 3, axis=0) * _corner_angles(corners).reshape(-1, 1))
    normals = total[group]
    length = np.linalg.norm(normals, axis=1, keepdims=True)
    flat = np.repeat(faces, 3, axis=0)
    normals = np.where(length > 1e-9, normals / np.maximum(length, 1e-12), flat)
    return normals.reshape(count, 3, 3).astype(np.float32)


def _corner_angles(corners: np.ndarray) -> np.ndarray:
    """(T, 3) the angle at each corner (radians): a corner's weight in the average, so how a surface
    is cut into triangles does not tilt its normals."""
    ahead, behind = np.roll(corners, -1, axis=1) - corners, np.roll(corners, 1, axis=1) - corners
    cos = np.einsum("tcj,tcj->tc", ahead, behind)
    sin = np.linalg.norm(np.cross(ahead, behind), axis=-1)
    return np.arctan2(sin, cos)


def _weld(points: np.ndarray, extra: np.ndarray | None) -> np.ndarray:
    """One id per point (and per `extra` point after them): equal ids for points within WELD_LDU."""
    allpoints = points if extra is None or extra.size == 0 else np.concatenate([points, extra])
    grid = np.round(allpoints / WELD_LDU).astype(np.int64)
    _, ids = np.unique(grid, axis=0, return_inverse=True)
    return ids.reshape(-1)


def _edge_keys(pairs: np.ndarray) -> np.ndarray:
    """(N, 2) vertex ids -> (N,) one int64 key per unordered pair."""
    low, high = np.minimum(pairs[:, 0], pairs[:, 1]), np.maximum(pairs[:, 0], pairs[:, 1])
    return low.astype(np.int64) * (1 << 31) + high.astype(np.int64)


def _components(count: int, links: np.ndarray) -> np.ndarray:
    """Connected components of `count` nodes joined by `links` (L, 2): the smallest node number of each."""
    label = np.arange(count)
    if links.size == 0:
        return label
    a, b = links[:, 0], links[:, 1]
    while True:
        low = np.minimum(label[a], label[b])
        before = label.copy()
        np.minimum.at(label, a, low)
        np.minimum.at(label, b, low)
        np.minimum.at(label, before, label)  # a node's old root follows it down
        label = label[label]  # pointer jumping
        if np.array_equal(label, before):
            return label
