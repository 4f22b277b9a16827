"""Closed solids for the starter library: boxes, unions of boxes, prisms, lathes.

Layer: ldraw (generator side; numpy only). Coordinates are LDraw's own (LDU, -Y up).
Every builder returns a `Shell`: one closed surface whose faces are listed counter-clockwise
seen from outside (BFC CERTIFY CCW). `Shell.oriented()` flips a consistently wound shell
whose signed volume came out negative, so builders only need consistency, not a convention.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

MAIN = 16  # LDraw main colour: the placing reference's colour
EDGE = 24  # LDraw edge colour
DEFAULT_CREASE_DEG = 40.0  # an edge between faces turning more than this gets a type-2 line
KEY_QUANTUM = 1e-3  # LDU: corners closer than this are the same corner (output has 3 decimals)


@dataclass(frozen=True)
class Face:
    """A planar triangle or quad, corners (k, 3) counter-clockwise seen from outside."""

    corners: np.ndarray
    colour: int = MAIN


@dataclass
class Shell:
    """One closed surface. `crease_deg` decides where outline (type 2) edges are drawn."""

    faces: list[Face] = field(default_factory=list)
    crease_deg: float = DEFAULT_CREASE_DEG
    hide_edges_below: float | None = None  # no outline where both ends have y >= this (hidden bases)

    def moved(self, rotation: np.ndarray | None = None, offset=(0.0, 0.0, 0.0)) -> "Shell":
        """This shell transformed by x -> R x + offset (a mirroring R keeps it outward-facing)."""
        r = np.eye(3) if rotation is None else np.asarray(rotation, float)
        t = np.asarray(offset, float)
        flip = np.linalg.det(r) < 0
        faces = []
        for f in self.faces:
            c = f.corners @ r.T + t
            faces.append(Face(c[::-1].copy() if flip else c, f.colour))
        return Shell(faces, self.crease_deg, self.hide_edges_below)

    def coloured(self, colour: int) -> "Shell":
        return Shell([Face(f.corners, colour) for f in self.faces], self.crease_deg, self.hide_edges_below)

    def triangles(self) -> np.ndarray:
        """(T, 3, 3) float64: quads split along their first diagonal."""
        tris = []
        for f in self.faces:
            c = f.corners
            tris.append(c[[0, 1, 2]])
            if len(c) == 4:
                tris.append(c[[0, 2, 3]])
        return np.asarray(tris, float).reshape(-1, 3, 3)

    def signed_volume(self) -> float:
        t = self.triangles()
        return float(np.einsum("ij,ij->i", t[:, 0], np.cross(t[:, 1], t[:, 2])).sum() / 6.0)

    def oriented(self) -> "Shell":
        """The same shell, flipped if needed so that its faces point outward."""
        if self.signed_volume() >= 0:
            return self
        return Shell([Face(f.corners[::-1].copy(), f.colour) for f in self.faces], self.crease_deg,
                     self.hide_edges_below)

    def outline(self) -> np.ndarray:
        """(E, 2, 3) type-2 edge segments: polygon edges where the surface turns more than crease_deg."""
        segs, normals = [], []
        for f in self.faces:
            c = f.corners
            n = np.cross(c[1] - c[0], c[2] - c[0])
            if len(c) == 4:
                n = n + np.cross(c[2] - c[0], c[3] - c[0])
            n = n / max(np.linalg.norm(n), 1e-12)
            for i in range(len(c)):
                segs.append((c[i], c[(i + 1) % len(c)]))
                normals.append(n)
        if not segs:
            return np.zeros((0, 2, 3))
        seg = np.asarray(segs)
        nor = np.asarray(normals)
        a, b = _keys(seg[:, 0]), _keys(seg[:, 1])
        lo = np.where((_lex_less(b, a))[:, None], b, a)
        hi = np.where((_lex_less(b, a))[:, None], a, b)
        key = np.concatenate([lo, hi], axis=1)
        _, inverse, counts = np.unique(key, axis=0, return_inverse=True, return_counts=True)
        inverse = inverse.reshape(-1)
        order = np.argsort(inverse, kind="stable")
        keep = []
        grouped = inverse[order]
        starts = np.flatnonzero(np.r_[True, grouped[1:] != grouped[:-1]])
        cos_limit = np.cos(np.radians(self.crease_deg))
        for s in starts:
            idx = order[s: s + counts[grouped[s]]]
            if len(idx) != 2 or float(nor[idx[0]] @ nor[idx[1]]) < cos_limit:
                keep.append(idx[0])
        if not keep:
            return np.zeros((0, 2, 3))
        out = seg[np.sort(np.asarray(keep, int))]
        if self.hide_edges_below is not None:
            out = out[~np.all(out[:, :, 1] >= self.hide_edges_below - KEY_QUANTUM, axis=1)]
        return out


def _keys(points: np.ndarray) -> np.ndarray:
    return np.round(points / KEY_QUANTUM).astype(np.int64)


def _lex_less(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise lexicographic a < b for (n, 3) int arrays."""
    less = np.zeros(len(a), bool)
    decided = np.zeros(len(a), bool)
    for k in range(a.shape[1]):
        less |= ~decided & (a[:, k] < b[:, k])
        decided |= a[:, k] != b[:, k]
    return less


# --- builders --------------------------------------------------------------------------------

_CYCLIC = ((0, 1, 2), (1, 2, 0), (2, 0, 1))  # (normal axis, u axis, v axis), right-handed


def box(lo, hi) -> Shell:
    """An axis-aligned box from corner `lo` to corner `hi` (LDU)."""
    return union([(lo, hi)])


def union(boxes, holes=(), crease_deg: float = DEFAULT_CREASE_DEG) -> Shell:
    """The closed surface of a union of axis-aligned boxes [(lo, hi), ...] minus `holes` (boxes).

    The boxes cut space into a grid; a cell is solid when its centre lies in a box and in no
    hole; faces are written between solid and empty cells, so the result is one watertight
    surface (solids that touch only along an edge would be non-manifold: avoid that).
    """
    every = list(boxes) + list(holes)
    lo = np.asarray([b[0] for b in every], float)
    hi = np.asarray([b[1] for b in every], float)
    axes = [np.unique(np.round(np.concatenate([lo[:, k], hi[:, k]]), 4)) for k in range(3)]
    centres = [(a[:-1] + a[1:]) / 2 for a in axes]
    cx, cy, cz = np.meshgrid(*centres, indexing="ij")
    c = np.stack([cx, cy, cz], -1)[..., None, :]
    inside = np.all((c > lo) & (c < hi), axis=-1)
    n = len(boxes)
    solid = np.any(inside[..., :n], axis=-1) & ~np.any(inside[..., n:], axis=-1)
    return cells(axes, solid, crease_deg)


def cells(axes, solid: np.ndarray, crease_deg: float = DEFAULT_CREASE_DEG) -> Shell:
    """Boundary of the solid cells of a rectilinear grid (axes: three sorted coordinate lists)."""
    padded = np.pad(solid, 1)
    faces: list[Face] = []
    for n, u, v in _CYCLIC:
        a = np.moveaxis(padded, (n, u, v), (0, 1, 2))
        before, after = a[:-1, 1:-1, 1:-1], a[1:, 1:-1, 1:-1]
        for sign, mask in ((1, before & ~after), (-1, after & ~before)):
            for i, j, k in zip(*np.nonzero(mask)):
                w = axes[n][i]
                u0, u1 = axes[u][j], axes[u][j + 1]
                v0, v1 = axes[v][k], axes[v][k + 1]
                quad = [(u0, v0), (u1, v0), (u1, v1), (u0, v1)]
                if sign < 0:
                    quad = quad[::-1]
                corners = np.zeros((4, 3))
                corners[:, n] = w
                corners[:, u] = [q[0] for q in quad]
                corners[:, v] = [q[1] for q in quad]
                faces.append(Face(corners))
    return Shell(faces, crease_deg).oriented()


def prism(polygon, axis: int, w0: float, w1: float, crease_deg: float = DEFAULT_CREASE_DEG) -> Shell:
    """A convex polygon [(u, v), ...] (in the plane of the two axes after `axis`, cyclically)
    extruded along `axis` from w0 to w1."""
    n, u, v = _CYCLIC[axis]
    p = np.asarray(polygon, float)
    k = len(p)

    def lift(uv: np.ndarray, w: float) -> np.ndarray:
        out = np.zeros((len(uv), 3))
        out[:, n], out[:, u], out[:, v] = w, uv[:, 0], uv[:, 1]
        return out

    area = 0.5 * np.sum(p[:, 0] * np.roll(p[:, 1], -1) - np.roll(p[:, 0], -1) * p[:, 1])
    if area < 0:
        p = p[::-1]
    faces = _fan(lift(p, w1)) + _fan(lift(p[::-1], w0))
    for i in range(k):
        a, b = p[i], p[(i + 1) % k]
        faces.append(Face(np.array([lift(a[None], w0)[0], lift(b[None], w0)[0], lift(b[None], w1)[0],
                                    lift(a[None], w1)[0]])))
    return Shell(faces, crease_deg).oriented()


def _fan(ring: np.ndarray) -> list[Face]:
    """A convex polygon as quads and at most one triangle (fewer lines than a triangle fan)."""
    faces = []
    i = 1
    while i + 1 < len(ring):
        if i + 2 < len(ring):
            faces.append(Face(ring[[0, i, i + 1, i + 2]]))
            i += 2
        else:
            faces.append(Face(ring[[0, i, i + 1]]))
            i += 1
    return faces


def cylinder(radius: float, y0: float, y1: float, sides: int = 12, centre=(0.0, 0.0),
             axis: int = 1, flat_on_axes: bool = False) -> Shell:
    """An n-gon prism along `axis` (default LDraw Y) from y0 to y1, centred at `centre` (the two
    other coordinates in cyclic order). Corners lie on the axes unless `flat_on_axes`."""
    phase = np.pi / sides if flat_on_axes else 0.0
    r = radius / np.cos(np.pi / sides) if flat_on_axes else radius
    t = phase + 2 * np.pi * np.arange(sides) / sides
    poly = np.stack([centre[0] + r * np.cos(t), centre[1] + r * np.sin(t)], 1)
    return prism(poly, axis, y0, y1, crease_deg=max(DEFAULT_CREASE_DEG, 360.0 / sides + 5))


def lathe(profile, sides: int = 12, centre=(0.0, 0.0), flat_on_axes: bool = False,
          crease_deg: float | None = None) -> Shell:
    """A solid of revolution about the vertical (LDraw Y) axis through (x, z) = centre.

    `profile` lists (radius, y) from one end to the other; an end with radius 0 is an apex,
    any other end is closed by a flat cap. Radii are to the flats when `flat_on_axes`.
    """
    prof = np.asarray(profile, float)
    phase = np.pi / sides if flat_on_axes else 0.0
    scale = 1 / np.cos(np.pi / sides) if flat_on_axes else 1.0
    t = phase + 2 * np.pi * np.arange(sides) / sides
    ring = lambda r, y: np.stack([centre[0] + scale * r * np.cos(t), np.full(sides, y),  # noqa: E731
                                  centre[1] + scale * r * np.sin(t)], 1)
    faces: list[Face] = []
    for (r0, y0), (r1, y1) in zip(prof[:-1], prof[1:]):
        a, b = ring(r0, y0), ring(r1, y1)
        for i in range(sides):
            j = (i + 1) % sides
            if r0 == 0:
                faces.append(Face(np.array([a[i], b[j], b[i]])))
            elif r1 == 0:
                faces.append(Face(np.array([a[i], a[j], b[i]])))
            else:
                faces.append(Face(np.array([a[i], a[j], b[j], b[i]])))
    for r, y in (prof[0], prof[-1]):
        if r > 0:
            faces += _fan(ring(r, y))
    crease = crease_deg if crease_deg is not None else max(DEFAULT_CREASE_DEG, 360.0 / sides + 5)
    shell = Shell(faces, crease)
    # caps share orientation only if written consistently: fix each cap against its neighbours
    return _consistent(shell).oriented()


def _consistent(shell: Shell) -> Shell:
    """Flip the faces whose winding disagrees with their neighbours' (flood fill over edges)."""
    faces = shell.faces
    edge_owner: dict[tuple, list[tuple[int, int]]] = {}
    for fi, f in enumerate(faces):
        k = _keys(f.corners)
        for i in range(len(k)):
            a, b = tuple(k[i]), tuple(k[(i + 1) % len(k)])
            edge_owner.setdefault((min(a, b), max(a, b)), []).append((fi, 1 if a < b else -1))
    flip = [None] * len(faces)
    flip[0] = False
    stack = [0]
    neighbours: dict[int, list[tuple[int, bool]]] = {i: [] for i in range(len(faces))}
    for owners in edge_owner.values():
        if len(owners) == 2:
            (f0, d0), (f1, d1) = owners
            same = d0 == d1  # same direction on a shared edge: one of them must flip
            neighbours[f0].append((f1, same))
            neighbours[f1].append((f0, same))
    while stack:
        f = stack.pop()
        for g, same in neighbours[f]:
            want = flip[f] ^ same
            if flip[g] is None:
                flip[g] = want
                stack.append(g)
    out = [Face(f.corners[::-1].copy(), f.colour) if flip[i] else f for i, f in enumerate(faces)]
    return Shell(out, shell.crease_deg)


def ngon(radius: float, sides: int, phase: float = 0.0, centre=(0.0, 0.0)) -> np.ndarray:
    """(sides, 2) corners of a regular polygon, counter-clockwise."""
    t = phase + 2 * np.pi * np.arange(sides) / sides
    return np.stack([centre[0] + radius * np.cos(t), centre[1] + radius * np.sin(t)], 1)


def hull_prism(points, axis: int, w0: float, w1: float) -> Shell:
    """`prism` of the convex hull of 2D points (gift wrapping; a handful of points)."""
    p = sorted({(round(float(a), 4), round(float(b), 4)) for a, b in points})

    def half(seq):
        out: list[tuple[float, float]] = []
        for q in seq:
            while len(out) >= 2 and ((out[-1][0] - out[-2][0]) * (q[1] - out[-2][1])
                                     - (out[-1][1] - out[-2][1]) * (q[0] - out[-2][0])) <= 0:
                out.pop()
            out.append(q)
        return out
    lower, upper = half(p), half(p[::-1])
    return prism(lower[:-1] + upper[:-1], axis, w0, w1)
