"""Polyhedral dice as numpy meshes: d4, d6, d8, d10, d12, d20, their numbering, and throws that land on a face.

Layer: view, pure numpy (no Panda3D), so it is tested anywhere. A die's own frame is centred on
the die, Z up when it lies as built; lengths in LDU (1 stud = 20); rotations are 3x3 matrices
acting on column vectors (world = R @ body).

The solids: tetrahedron (d4), cube (d6), octahedron (d8), pentagonal trapezohedron (d10),
dodecahedron (d12), icosahedron (d20). Faces are numbered as real dice are: opposite faces add
up to sides + 1 (a d10 reads 1-10); a d4 is read at its top corner, so each face carries the
numbers of its three corners; a d6 has pips. `up[value - 1]` is the direction in the die's frame
that points up when `value` is read (a face's outward normal, a d4's corner).

More: docs/modules/view.md#dice.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import numpy as np

DIE_SIDES = (4, 6, 8, 10, 12, 20)  # the solids drawn; other dice are flat round counters
CIRCUMRADIUS_LDU = {4: 36.0, 6: 32.0, 8: 31.0, 10: 30.0, 12: 30.0, 20: 30.0}  # about a 2x2 brick's size
COUNTER_RADIUS_LDU, COUNTER_HEIGHT_LDU = 24.0, 11.0
PHI = (1.0 + math.sqrt(5.0)) / 2.0
D10_APEX = 1.05  # apex height of the d10 over its ring radius
STEP_S = 1 / 30  # a throw's frames
KEYFRAMED_S = 0.9  # flight of a die thrown without physics
TOLERANCE = 1e-6  # relative, for coplanar vertices and symmetries


@dataclass(frozen=True)
class DieShape:
    """A die's solid and its numbering, in its own frame (LDU).

    vertices (V, 3); faces: per face its vertex indices, counter-clockwise seen from outside;
    normals (F, 3) unit, outward; face_values (F,) the number printed on each face (0 on a d4,
    whose numbers sit at the corners); up (sides, 3) the direction that points up when value
    k + 1 is read; reading (sides, 3) which way value k + 1's number is upright, on its face (zero
    where it has no one way: a d4's corner, a d6's pips); labels: what is printed (`Label`s; a d6
    has pips instead, `pips` (T, 3, 3)).
    """

    sides: int
    vertices: np.ndarray
    faces: tuple[tuple[int, ...], ...]
    normals: np.ndarray
    face_values: np.ndarray
    up: np.ndarray
    reading: np.ndarray
    labels: tuple[Label, ...]
    pips: np.ndarray

    def triangles(self) -> np.ndarray:
        """(T, 3, 3) the solid's triangles (faces fanned from their first corner), outward facing."""
        tris = [(f[0], f[i], f[i + 1]) for f in self.faces for i in range(1, len(f) - 1)]
        return self.vertices[np.array(tris, dtype=np.int64)] if tris else np.zeros((0, 3, 3))

    @property
    def rest_height(self) -> float:
        """Height of the centre above the tray when the die lies on a face."""
        centroids = np.array([self.vertices[list(f)].mean(axis=0) for f in self.faces])
        return float(np.min(np.einsum("ij,ij->i", centroids, self.normals)))


@dataclass(frozen=True)
class Label:
    """One number on a face: its text, centre (3,), outward normal (3,), reading up (3,), and the box
    (height, width) in LDU it must fit in."""

    text: str
    centre: np.ndarray
    normal: np.ndarray
    up: np.ndarray
    height: float
    width: float


@dataclass(frozen=True)
class DieThrow:
    """One die's flight: times (F,) s, centres (F, 3) LDU (the last at x = y = 0), rotations (F, 3, 3);
    settle_s: from then on it lies still."""

    times: np.ndarray
    centres: np.ndarray
    rotations: np.ndarray
    settle_s: float

    def at(self, seconds: float) -> tuple[np.ndarray, np.ndarray]:
        """(centre (3,), rotation (3, 3)) `seconds` after the throw (the first frame before it)."""
        frame = int(np.clip(seconds / STEP_S, 0, len(self.times) - 1))
        return self.centres[frame], self.rotations[frame]


def is_polyhedral(sides: int) -> bool:
    return sides in DIE_SIDES


# --- the solids ------------------------------------------------------------------------------------

def _unit(v: np.ndarray) -> np.ndarray:
    v = np.asarray(v, dtype=np.float64)
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


def _solid(sides: int) -> tuple[np.ndarray, np.ndarray]:
    """(vertices (V, 3) at circumradius 1, outward face normals (F, 3)) of the die with `sides` faces."""
    corners = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], dtype=np.float64)
    axes = np.concatenate([np.eye(3), -np.eye(3)])

    def cyclic(a: float, b: float) -> np.ndarray:  # (0, ±a, ±b) and its two cyclic turns
        return np.array([p for s1 in (-1, 1) for s2 in (-1, 1)
                         for p in ((0, s1 * a, s2 * b), (s1 * a, s2 * b, 0), (s2 * b, 0, s1 * a))], dtype=np.float64)

    icosa, dual_icosa = cyclic(1, PHI), cyclic(PHI, 1)  # the dodecahedron's faces look along dual_icosa
    dodeca = np.concatenate([corners, cyclic(1 / PHI, PHI)])
    dual_dodeca = np.concatenate([corners, cyclic(PHI, 1 / PHI)])  # the icosahedron's faces look along these
    if sides == 4:
        v = np.array([[1, 1, 1], [1, -1, -1], [-1, 1, -1], [-1, -1, 1]], dtype=np.float64)
        return _unit(v), -_unit(v)  # the face opposite each corner
    if sides == 6:
        return _unit(corners), axes
    if sides == 8:
        return axes, _unit(corners)
    if sides == 12:
        return _unit(dodeca), _unit(dual_icosa)
    if sides == 20:
        return _unit(icosa), _unit(dual_dodeca)
    if sides == 10:
        return _trapezohedron()
    raise ValueError(f"no solid for a d{sides}")


def _trapezohedron() -> tuple[np.ndarray, np.ndarray]:
    """The d10: two apexes and two rings of five, kites between them (planar: the ring height follows)."""
    h = D10_APEX
    z0 = h * (1 - math.cos(math.pi / 5)) / (1 + math.cos(math.pi / 5))
    k = np.arange(5)
    upper = np.stack([np.cos(2 * np.pi * k / 5), np.sin(2 * np.pi * k / 5), np.full(5, z0)], axis=1)
    lower = np.stack([np.cos(2 * np.pi * (k + 0.5) / 5), np.sin(2 * np.pi * (k + 0.5) / 5), np.full(5, -z0)], axis=1)
    top, bottom = np.array([[0.0, 0.0, h]]), np.array([[0.0, 0.0, -h]])
    vertices = np.concatenate([top, bottom, upper, lower])
    kites = [(top[0], upper[i], lower[i], upper[(i + 1) % 5]) for i in range(5)]
    kites += [(bottom[0], lower[i], upper[(i + 1) % 5], lower[(i + 1) % 5]) for i in range(5)]
    normals = []
    for a, b, c, d in kites:
        n = np.cross(c - a, d - b)
        n = n if np.dot(n, a + b + c + d) > 0 else -n
        normals.append(n)
    scale = np.linalg.norm(vertices, axis=1).max()
    return vertices / scale, _unit(np.array(normals))


def _faces(vertices: np.ndarray, normals: np.ndarray) -> tuple[tuple[int, ...], ...]:
    """For each normal, the vertices on that face, counter-clockwise seen from outside."""
    faces = []
    for n in normals:
        height = vertices @ n
        members = np.flatnonzero(height > height.max() - TOLERANCE * 10)
        centre = vertices[members].mean(axis=0)
        e1 = _unit(vertices[members[0]] - centre)
        e2 = np.cross(n, e1)
        rel = vertices[members] - centre
        order = np.argsort(np.arctan2(rel @ e2, rel @ e1))
        faces.append(tuple(int(i) for i in members[order]))
    return tuple(faces)


def _numbering(normals: np.ndarray) -> np.ndarray:
    """Face values: opposite faces add up to F + 1, the upper faces (then by angle) taking the low numbers."""
    count = len(normals)
    order = np.lexsort((np.round(np.arctan2(normals[:, 1], normals[:, 0]), 6), -np.round(normals[:, 2], 6)))
    values = np.zeros(count, dtype=np.int64)
    low = 1
    for i in order:
        if values[i]:
            continue
        opposite = int(np.argmin(normals @ normals[i]))
        values[i], values[opposite] = low, count + 1 - low
        low += 1
    return values


@cache
def die_shape(sides: int) -> DieShape:
    """The d`sides` (one of DIE_SIDES), numbered, at its circumradius in LDU."""
    unit_vertices, normals = _solid(sides)
    vertices = unit_vertices * CIRCUMRADIUS_LDU[sides]
    faces = _faces(vertices, normals)
    if sides == 4:
        face_values = np.zeros(4, dtype=np.int64)
        up = _unit(vertices)  # value k + 1 is read at corner k
    else:
        face_values = _numbering(normals)
        up = normals[np.argsort(face_values)]
    labels = () if sides == 6 else _labels(sides, vertices, faces, normals, face_values)
    pips = _pips(vertices, faces, normals, face_values) if sides == 6 else np.zeros((0, 3, 3))
    reading = np.zeros((sides, 3))
    if sides not in (4, 6):
        for label in labels:
            reading[int(label.text.rstrip(".")) - 1] = label.up
    return DieShape(sides, vertices, faces, normals, face_values, up, reading, labels, pips)


def _labels(sides: int, vertices: np.ndarray, faces, normals: np.ndarray, face_values: np.ndarray) -> tuple[Label, ...]:
    labels = []
    for face, n, value in zip(faces, normals, face_values):
        corners = vertices[list(face)]
        centre = corners.mean(axis=0)
        edges = np.roll(corners, -1, axis=0) - corners
        to_edge = corners - centre
        inradius = float(np.min(np.linalg.norm(np.cross(edges, to_edge), axis=1) / np.linalg.norm(edges, axis=1)))
        lift = n * 0.25
        if sides == 4:  # each corner's number near that corner, upright when the corner is on top
            for index, corner in zip(face, corners):
                up = _unit(corner - centre)
                labels.append(Label(str(index + 1), centre + (corner - centre) * 0.52 + lift, n, up,
                                    inradius * 0.75, inradius * 0.75))
            continue
        apex = corners[int(np.argmax(np.linalg.norm(to_edge, axis=1)))]  # a kite reads towards its apex
        up = _unit(apex - centre)
        text = f"{value}." if value in (6, 9) and sides >= 8 else str(value)  # 6. and 9. as real dice mark them
        size = inradius * (1.25 if sides == 10 else 1.1)
        labels.append(Label(text, centre - up * (0.18 * inradius if sides == 10 else 0.0) + lift, n, up,
                            size, size * (1.45 if len(text) > 1 else 0.9)))
    return tuple(labels)


PIP_LAYOUT = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
              4: [(-1, -1), (-1, 1), (1, -1), (1, 1)], 5: [(-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)],
              6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)]}


def _pips(vertices: np.ndarray, faces, normals: np.ndarray, face_values: np.ndarray,
          sides_of_pip: int = 12) -> np.ndarray:
    """(T, 3, 3) the pips of a d6: flat discs just above each face, as many as its value."""
    parts = []
    angle = np.linspace(0.0, 2 * np.pi, sides_of_pip, endpoint=False)
    for face, n, value in zip(faces, normals, face_values):
        corners = vertices[list(face)]
        centre = corners.mean(axis=0)
        half = float(np.abs((corners - centre) @ _unit(corners[1] - corners[0])).max())
        right = _unit(corners[1] - corners[0])
        up = np.cross(n, right)
        radius = half * 0.17
        for px, py in PIP_LAYOUT[int(value)]:
            middle = centre + n * 0.3 + (right * px + up * py) * half * 0.5
            ring = middle + radius * (np.cos(angle)[:, None] * right + np.sin(angle)[:, None] * up)
            parts.append(np.stack([np.repeat(middle[None], sides_of_pip, 0), ring, np.roll(ring, -1, axis=0)], axis=1))
    return np.concatenate(parts)


def counter_triangles(sides: int = 16) -> np.ndarray:
    """(T, 3, 3) a round counter (for dice with no solid: d2, d3, d100...), centred, top at +Z."""
    angle = np.linspace(0.0, 2 * np.pi, sides, endpoint=False)
    ring = np.stack([np.cos(angle), np.sin(angle), np.zeros(sides)], axis=1) * COUNTER_RADIUS_LDU
    bottom, top = ring - [0, 0, COUNTER_HEIGHT_LDU / 2], ring + [0, 0, COUNTER_HEIGHT_LDU / 2]
    i, j = np.arange(sides), np.roll(np.arange(sides), -1)
    walls = np.concatenate([np.stack([bottom[i], bottom[j], top[j]], 1), np.stack([bottom[i], top[j], top[i]], 1)])
    cap = np.stack([np.repeat(top[:1], sides - 2, 0), top[1:-1], top[2:]], axis=1)
    base = np.stack([np.repeat(bottom[:1], sides - 2, 0), bottom[2:], bottom[1:-1]], axis=1)
    return np.concatenate([walls, cap, base])


# --- rotations ---------------------------------------------------------------------------------------

def rotation_between(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The smallest rotation (3, 3) taking unit vector `a` to unit vector `b`."""
    a, b = _unit(a), _unit(b)
    axis = np.cross(a, b)
    s, c = float(np.linalg.norm(axis)), float(np.dot(a, b))
    if s < 1e-12:
        if c > 0:
            return np.eye(3)
        other = np.eye(3)[int(np.argmin(np.abs(a)))]  # half a turn about any axis across a
        axis = _unit(np.cross(a, other))
        return 2 * np.outer(axis, axis) - np.eye(3)
    return axis_angle(axis / s, math.atan2(s, c))


def axis_angle(axis: np.ndarray, angle: float | np.ndarray) -> np.ndarray:
    """Rotation(s) about unit `axis` (3,) by `angle` radians (scalar or (N,)): (3, 3) or (N, 3, 3)."""
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]], dtype=np.float64)
    angle = np.asarray(angle, dtype=np.float64)
    s, c = np.sin(angle)[..., None, None], np.cos(angle)[..., None, None]
    return np.eye(3) + s * k + (1 - c) * (k @ k)


def rest_rotation(shape: DieShape, value: int, yaw_deg: float = 0.0) -> np.ndarray:
    """The die lying on the tray with `value` read on top, its number upright seen from -Y (the tray's
    camera) where it has one way up, then turned `yaw_deg` about the vertical."""
    lie = rotation_between(shape.up[value - 1], np.array([0.0, 0.0, 1.0]))
    reading = lie @ shape.reading[value - 1]
    upright = math.degrees(math.atan2(reading[1], reading[0])) if np.linalg.norm(reading[:2]) > 1e-9 else 90.0
    return axis_angle(np.array([0.0, 0.0, 1.0]), math.radians(90.0 - upright + yaw_deg)) @ lie


def read_value(shape: DieShape, rotation: np.ndarray) -> tuple[int, float]:
    """(the value read on top of a die turned by `rotation`, how upright it is: 1 = lying flat)."""
    heights = (rotation @ shape.up.T)[2]
    best = int(np.argmax(heights))
    return best + 1, float(heights[best])


def symmetry(sides: int, value: int, shown: int, rotation: np.ndarray | None = None) -> np.ndarray:
    """A turn S of the d`sides` onto itself that brings `value`'s reading direction where `shown`'s is:
    a flight that ends (at `rotation`) with `shown` on top, turned by it (rotations @ S), ends with
    `value` on top. Of those turns, the one that leaves `value`'s number most upright seen from -Y."""
    turns = symmetries(sides, value, shown)
    reading = die_shape(sides).reading[value - 1]
    if rotation is None or not reading.any():
        return turns[0]
    return turns[int(np.argmax([(rotation @ turn @ reading)[1] for turn in turns]))]


@cache
def symmetries(sides: int, value: int, shown: int) -> tuple[np.ndarray, ...]:
    """Every turn of the d`sides` onto itself that brings `value`'s reading direction where `shown`'s is."""
    shape = die_shape(sides)
    a, b = shape.up[value - 1], shape.up[shown - 1]
    scale = CIRCUMRADIUS_LDU[sides]

    def frame(axis: np.ndarray, reference: np.ndarray) -> np.ndarray:
        e1 = _unit(reference - axis * np.dot(reference, axis))
        return np.stack([axis, e1, np.cross(axis, e1)], axis=1)

    across = shape.vertices - np.outer(shape.vertices @ a, a)
    reference = shape.vertices[int(np.argmax(np.linalg.norm(across, axis=1)))]
    candidates = shape.vertices[np.linalg.norm(shape.vertices - np.outer(shape.vertices @ b, b), axis=1) > 1e-6 * scale]
    turns: list[np.ndarray] = []
    for other in candidates:
        turn = frame(b, other) @ frame(a, reference).T
        moved = shape.vertices @ turn.T
        gaps = np.linalg.norm(moved[:, None, :] - shape.vertices[None, :, :], axis=2).min(axis=1)
        if gaps.max() < 1e-6 * scale and not any(np.allclose(turn, t) for t in turns):
            turns.append(turn)
    if not turns:
        raise ValueError(f"no turn of the d{sides} takes {value} to {shown}")
    return tuple(turns)


# --- throws without physics ------------------------------------------------------------------------

def keyframed_throw(sides: int, value: int, seed: int) -> DieThrow:
    """A die thrown in from the left, tumbling, bouncing once and lying with `value` on top (seeded)."""
    rng = np.random.default_rng(seed)
    polyhedral = is_polyhedral(sides)
    final = rest_rotation(die_shape(sides), value, rng.uniform(-30, 30)) if polyhedral else \
        axis_angle(np.array([0.0, 0.0, 1.0]), math.radians(rng.uniform(-30, 30)))
    rest = die_shape(sides).rest_height if polyhedral else COUNTER_HEIGHT_LDU / 2
    reach = CIRCUMRADIUS_LDU.get(sides, COUNTER_RADIUS_LDU)
    times = np.arange(int(KEYFRAMED_S / STEP_S) + 1) * STEP_S
    u = times / KEYFRAMED_S
    origin = np.array([-260.0, rng.uniform(-60, -20), 0.0])
    ease = 1 - (1 - u) ** 2
    centres = origin[None] * (1 - ease)[:, None]
    bounce = np.where(u < 0.75, np.sin(np.pi * u / 0.75) * 110.0, np.sin(np.pi * (u - 0.75) / 0.25) * 14.0)
    centres[:, 2] = rest + bounce + (reach - rest) * (1 - u) ** 2 + 90.0 * (1 - u) ** 3  # dropped in from above
    axis = _unit(rng.normal(size=3))
    spin = axis_angle(axis, rng.uniform(3.0, 5.0) * np.pi * (1 - u) ** 2)
    rotations = final[None] @ spin
    return DieThrow(times, centres, rotations, float(KEYFRAMED_S))


def kept(faces: tuple[int, ...], keep: str) -> np.ndarray:
    """(N,) bool: the dice that count under `keep` (chance.Dice): 'highest' or 'lowest' marks one die
    (the first of equals), 'all' and 'sum' count every die."""
    values = np.asarray(faces, dtype=np.int64)
    mask = np.zeros(values.shape[0], dtype=bool)
    if keep == "highest" and values.size:
        mask[int(np.argmax(values))] = True
    elif keep == "lowest" and values.size:
        mask[int(np.argmin(values))] = True
    else:
        mask[:] = True
    return mask


__all__ = ["DIE_SIDES", "DieShape", "DieThrow", "Label", "counter_triangles", "die_shape", "is_polyhedral",
           "keyframed_throw", "kept", "read_value", "rest_rotation", "rotation_between", "symmetries", "symmetry"]
