"""Closed solids for the starter library: boxes, unions of boxes, prisms, lathes.

Layer: ldraw (generator side; numpy only). Coordinates are LDraw's own (LDU, -Y up).
Every builder returns a `Shell`: one closed surface whose faces are listed counter-clockwise
seen from outside (BFC CERTIFY CCW). `Shell.oriented()` flips a consistently wound shell
whose signed volume came out negative, so builders only need consistency, not a convention.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

Point = Sequence[float]  # (x, y, z) in LDU
Box = tuple[Point, Point]  # (lo, hi) corners of an axis-aligned box

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

    def moved(self, rotation: np.ndarray | None = None, offset=(0.0, 0.0, 0.0)) -> Shell:
        """This shell transformed by x -> R x + offset (a mirroring R keeps it outward-facing)."""
        r = np.eye(3) if rotation is None else np.asarray(rotation, float)
        t = np.asarray(offset, float)
        flip = np.linalg.det(r) < 0
        faces = []
        for f in self.faces:
            c = f.corners @ r.T + t
            faces.append(Face(c[::-1].copy() if flip else c, f.colour))
        return Shell(faces, self.crease_deg, self.hide_edges_below)

    def coloured(self, colour: int) -> Shell:
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

    def oriented(self) -> Shell:
        """The same shell, flipped if needed so that its faces point outward."""
        if self.signed_volume() >= 0:
            return self
        return Shell([Face(f.corners[::-1].copy(), f.colour) for f in self.faces], self.crease_deg,
                     self.hide_edges_below)

    def outline(self) -> np.ndarray:
        """(E, 2, 3) type-2 edge segments: polygon edges where the surface turns more than crease_deg.

        Each edge of a closed shell is shared by two faces; it is drawn (once, from its first
        face) when their normals differ by more than the crease angle.
        """
        if not self.faces:
            return np.zeros((0, 2, 3))
        seg = np.concatenate([np.stack([f.corners, np.roll(f.corners, -1, axis=0)], axis=1) for f in self.faces])
        normal = np.concatenate([np.repeat(_unit_normal(f.corners)[None], len(f.corners), axis=0)
                                 for f in self.faces])
        a, b = _keys(seg[:, 0]), _keys(seg[:, 1])
        swap = _lex_less(b, a)[:, None]
        key = np.concatenate([np.where(swap, b, a), np.where(swap, a, b)], axis=1)
        _, inverse, counts = np.unique(key, axis=0, return_inverse=True, return_counts=True)
        inverse = inverse.reshape(-1)
        order = np.argsort(inverse, kind="stable")
        starts = np.flatnonzero(np.r_[True, np.diff(inverse[order]) != 0])
        first = order[starts]
        pair = counts[inverse[first]] == 2
        second = order[np.minimum(starts + 1, len(order) - 1)]
        smooth = pair & (np.einsum("ij,ij->i", normal[first], normal[second]) >= np.cos(np.radians(self.crease_deg)))
        out = seg[np.sort(first[~smooth])]
        if self.hide_edges_below is not None:
            out = out[~np.all(out[:, :, 1] >= self.hide_edges_below - KEY_QUANTUM, axis=1)]
        return out


def _unit_normal(corners: np.ndarray) -> np.ndarray:
    """The unit normal of a planar polygon (Newell's method)."""
    n = np.cross(corners, np.roll(corners, -1, axis=0)).sum(axis=0)
    return n / max(float(np.linalg.norm(n)), 1e-12)


def _keys(points: np.ndarray) -> np.ndarray:
    """Integer keys of points (KEY_QUANTUM grid): equal keys, same corner."""
    return np.round(points / KEY_QUANTUM).astype(np.int64)


def _lex_less(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise lexicographic a < b for (n, 3) int arrays."""
    differ = a != b
    first = np.argmax(differ, axis=1)
    rows = np.arange(len(a))
    return differ.any(axis=1) & (a[rows, first] < b[rows, first])


# --- builders --------------------------------------------------------------------------------

_CYCLIC = ((0, 1, 2), (1, 2, 0), (2, 0, 1))  # (normal axis, u axis, v axis), right-handed


def box(lo: Point, hi: Point) -> Shell:
    """An axis-aligned box from corner `lo` to corner `hi` (LDU)."""
    return union([(lo, hi)])


def union(boxes: Sequence[Box], holes: Sequence[Box] = (), crease_deg: float = DEFAULT_CREASE_DEG) -> Shell:
    """The closed surface of a union of axis-aligned boxes [(lo, hi), ...] minus `holes` (boxes).

    The boxes cut space into a grid; a cell is solid when its centre lies in a box and in no
    hole; faces are written between solid and empty cells, so the result is one watertight
    surface (solids that touch only along an edge would be non-manifold: avoid that).
    """
    every = list(boxes) + list(holes)
    lo = np.asarray([b[0] for b in every], float)
    hi = np.asarray([b[1] for b in every], float)
    axes = [np.unique(np.round(np.concatenate([lo[:, d], hi[:, d]]), 4)) for d in range(3)]
    centres = [(a[:-1] + a[1:]) / 2 for a in axes]
    cx, cy, cz = np.meshgrid(*centres, indexing="ij")
    c = np.stack([cx, cy, cz], -1)[..., None, :]
    inside = np.all((c > lo) & (c < hi), axis=-1)
    n = len(boxes)
    solid = np.any(inside[..., :n], axis=-1) & ~np.any(inside[..., n:], axis=-1)
    return cells(axes, solid, crease_deg)


def cells(axes, solid: np.ndarray, crease_deg: float = DEFAULT_CREASE_DEG) -> Shell:
    """Boundary of the solid cells of a rectilinear grid (axes: three sorted coordinate lists).

    Raises ValueError where two solid cells meet only along an edge: that edge would belong to
    four faces, and the surface would not be a closed 2-manifold.
    """
    padded = np.pad(solid, 1)
    for first, second in ((0, 1), (1, 2), (0, 2)):
        p = np.moveaxis(padded, (first, second), (0, 1))
        p00, p10, p01, p11 = p[:-1, :-1], p[1:, :-1], p[:-1, 1:], p[1:, 1:]
        if np.any((p00 & p11 & ~p10 & ~p01) | (p10 & p01 & ~p00 & ~p11)):
            raise ValueError("solid cells touch only along an edge: not a closed manifold surface")
    faces: list[Face] = []
    for n, u, v in _CYCLIC:
        a = np.moveaxis(padded, (n, u, v), (0, 1, 2))
        before, after = a[:-1, 1:-1, 1:-1], a[1:, 1:-1, 1:-1]
        for mask, order in ((before & ~after, [0, 1, 2, 3]), (after & ~before, [3, 2, 1, 0])):
            i, j, k = np.nonzero(mask)
            au, av = np.asarray(axes[u]), np.asarray(axes[v])
            quad = np.zeros((len(i), 4, 3))
            quad[:, :, n] = np.asarray(axes[n])[i][:, None]
            quad[:, :, u] = np.stack([au[j], au[j + 1], au[j + 1], au[j]], axis=1)
            quad[:, :, v] = np.stack([av[k], av[k], av[k + 1], av[k + 1]], axis=1)
            faces += [Face(q) for q in quad[:, order]]
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
    poly = _circle(radius, sides, flat_on_axes) + np.asarray(centre, float)
    return prism(poly, axis, y0, y1, crease_deg=max(DEFAULT_CREASE_DEG, 360.0 / sides + 5))


def _circle(radius: float, sides: int, flat_on_axes: bool) -> np.ndarray:
    """(sides, 2) corners of a regular polygon, counter-clockwise, corners on the axes or (with
    `flat_on_axes`) flats on the axes at distance `radius`."""
    phase = np.pi / sides if flat_on_axes else 0.0
    r = radius / np.cos(np.pi / sides) if flat_on_axes else radius
    t = phase + 2 * np.pi * np.arange(sides) / sides
    return np.stack([r * np.cos(t), r * np.sin(t)], axis=1)


def lathe(profile, sides: int = 12, centre=(0.0, 0.0), flat_on_axes: bool = False,
          crease_deg: float | None = None) -> Shell:
    """A solid of revolution about the vertical (LDraw Y) axis through (x, z) = centre.

    `profile` lists (radius, y) from one end to the other; an end with radius 0 is an apex,
    any other end is closed by a flat cap. Radii are to the flats when `flat_on_axes`.
    """
    prof = np.asarray(profile, float)
    unit = _circle(1.0, sides, flat_on_axes)

    def ring(r: float, y: float) -> np.ndarray:
        return np.stack([centre[0] + r * unit[:, 0], np.full(sides, y), centre[1] + r * unit[:, 1]], axis=1)

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
    if prof[0][0] > 0:  # caps run against the neighbouring band's edges
        faces += _fan(ring(*prof[0])[::-1])
    if prof[-1][0] > 0:
        faces += _fan(ring(*prof[-1]))
    crease = crease_deg if crease_deg is not None else max(DEFAULT_CREASE_DEG, 360.0 / sides + 5)
    return Shell(faces, crease).oriented()


def hull_prism(points, axis: int, w0: float, w1: float) -> Shell:
    """`prism` of the convex hull of 2D points (monotone chain; a handful of points)."""
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
