"""Small LEGO pieces drawn over a scene: marking bricks, side rings, plates, 2x2 dice bricks.

Layer: view. The geometry is plain numpy (world frame, Z up, LDU: 1 stud = 20, 1 brick = 24,
1 plate = 8) turned into one Panda3D node per group of pieces through `solid_node`. Pieces are
real LEGO shapes (a box with its studs on top), never debug lines, so what the players see
stays a LEGO battle: BOW 1.3 §2.2 marking bricks are white 1x1 bricks, §2.4.3 damage is marked
with red (life form) or yellow (mechanical) 1x1 bricks, §2.1 brick rolls throw 2x2 bricks.
"""

from __future__ import annotations

import numpy as np

from bow3d.ldraw.colours import BLACK, DARK_GREY, GREEN, RED, WHITE, YELLOW, ColourTable  # noqa: F401 (the view's names for them)
from bow3d.units import (  # the view's names for bow3d.units' lengths (read as markers.PLATE_LDU elsewhere)
    LDU_PER_BRICK as BRICK_LDU,
    LDU_PER_PLATE as PLATE_LDU,  # noqa: F401
    LDU_PER_STUD as STUD_LDU,
)
from bow3d.view.graph.batches import STUD_HEIGHT, STUD_RADIUS, Batch

STUD_SIDES = 16

STANDARD_COLOURS = ColourTable()  # LDConfig's standard colours (bow3d.ldraw.ldconfig_table), for pieces of no model


def ldraw_rgba(code: int, colours=None) -> tuple[int, int, int, int]:
    """RGBA (0-255) of an LDraw colour code: from `colours` (a ColourTable) when it knows it."""
    if colours is not None and code in colours:
        r, g, b, a = (int(v) for v in colours.rgba(np.array([code]))[0])
        return r, g, b, a
    if code in STANDARD_COLOURS:
        r, g, b, a = (int(v) for v in STANDARD_COLOURS.rgba(np.array([code]))[0])
        return r, g, b, a
    return (0x7F, 0x7F, 0x7F, 255)


def box_corners(lo, hi) -> np.ndarray:
    """(12, 3, 3) triangles of the axis-aligned box [lo, hi], counter-clockwise seen from outside."""
    (x0, y0, z0), (x1, y1, z1) = lo, hi
    v = np.array([[x0, y0, z0], [x1, y0, z0], [x1, y1, z0], [x0, y1, z0],
                  [x0, y0, z1], [x1, y0, z1], [x1, y1, z1], [x0, y1, z1]], np.float64)
    quads = [(0, 3, 2, 1), (4, 5, 6, 7), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7)]
    tris = [(q[0], q[1], q[2]) for q in quads] + [(q[0], q[2], q[3]) for q in quads]
    return v[np.array(tris)]


def cylinder_corners(centre, radius: float, height: float, sides: int = STUD_SIDES,
                     bottom: bool = False) -> np.ndarray:
    """(T, 3, 3) closed-top cylinder standing on `centre` (x, y, z) along +Z."""
    angle = np.linspace(0.0, 2 * np.pi, sides, endpoint=False)
    ring = np.stack([radius * np.cos(angle), radius * np.sin(angle), np.zeros(sides)], axis=1) + centre
    top = ring + [0.0, 0.0, height]
    i, j = np.arange(sides), np.roll(np.arange(sides), -1)
    walls = np.concatenate([np.stack([ring[i], ring[j], top[j]], axis=1), np.stack([ring[i], top[j], top[i]], axis=1)])
    cap = np.stack([np.repeat(top[:1], sides - 2, 0), top[1:-1], top[2:]], axis=1)
    parts = [walls, cap]
    if bottom:
        parts.append(np.stack([np.repeat(ring[:1], sides - 2, 0), ring[2:], ring[1:-1]], axis=1))
    return np.concatenate(parts)


def brick_corners(studs_x: int = 1, studs_y: int = 1, height: float = BRICK_LDU, origin=(0.0, 0.0, 0.0),
                  studs: bool = True) -> np.ndarray:
    """A LEGO brick (or plate: height 8) of studs_x x studs_y, its bottom centre at `origin`."""
    ox, oy, oz = origin
    hx, hy = studs_x * STUD_LDU / 2, studs_y * STUD_LDU / 2
    parts = [box_corners((ox - hx, oy - hy, oz), (ox + hx, oy + hy, oz + height))]
    if studs:
        for i in range(studs_x):  # a handful of studs per piece
            for j in range(studs_y):
                centre = (ox - hx + (i + 0.5) * STUD_LDU, oy - hy + (j + 0.5) * STUD_LDU, oz + height)
                parts.append(cylinder_corners(centre, STUD_RADIUS, STUD_HEIGHT))
    return np.concatenate(parts)


def ring_corners(inner: float, outer: float, height: float, sides: int = 40, z: float = 0.0) -> np.ndarray:
    """(T, 3, 3) a flat ring (annulus) of the given radii and height, bottom at `z`."""
    angle = np.linspace(0.0, 2 * np.pi, sides, endpoint=False)
    unit = np.stack([np.cos(angle), np.sin(angle), np.zeros(sides)], axis=1)
    i, j = np.arange(sides), np.roll(np.arange(sides), -1)
    ib, ob = unit * inner + [0, 0, z], unit * outer + [0, 0, z]
    it, ot = ib + [0, 0, height], ob + [0, 0, height]

    def band(a, b, expected):
        tris = np.concatenate([np.stack([a[i], a[j], b[j]], axis=1), np.stack([a[i], b[j], b[i]], axis=1)])
        return orient(tris, expected(tris.mean(axis=1)))

    return np.concatenate([band(ot, it, lambda m: np.tile([0.0, 0.0, 1.0], (m.shape[0], 1))),
                           band(ob, ot, lambda m: m * [1, 1, 0]),
                           band(ib, it, lambda m: -m * [1, 1, 0])])


def frame_corners(half_x: float, half_y: float, width: float, height: float, z: float = 0.0) -> np.ndarray:
    """(T, 3, 3) a rectangular frame (four bars) round the box |x| <= half_x, |y| <= half_y."""
    bars = [((-half_x - width, -half_y - width), (half_x + width, -half_y)),
            ((-half_x - width, half_y), (half_x + width, half_y + width)),
            ((-half_x - width, -half_y), (-half_x, half_y)),
            ((half_x, -half_y), (half_x + width, half_y))]
    return np.concatenate([box_corners((x0, y0, z), (x1, y1, z + height)) for (x0, y0), (x1, y1) in bars])


def orient(tris: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """Triangles (T, 3, 3) rewound so each normal points along `expected` (T, 3)."""
    normals = np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0])
    flip = np.einsum("ij,ij->i", normals, expected) < 0
    tris = tris.copy()
    tris[flip] = tris[flip][:, [0, 2, 1]]
    return tris


def solid_batch(corners: np.ndarray, rgba, transparent: bool | None = None) -> Batch:
    """A `Batch` of triangles (T, 3, 3) with flat normals in one colour (4,) or per triangle (T, 4)."""
    corners = np.asarray(corners, np.float64).reshape(-1, 3, 3)
    normals = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    length = np.linalg.norm(normals, axis=1, keepdims=True)
    normals = np.divide(normals, length, out=np.zeros_like(normals), where=length > 0)
    colours = np.asarray(rgba, np.uint8)
    colours = np.broadcast_to(colours, (corners.shape[0], 4)) if colours.ndim == 1 else colours
    if transparent is None:
        transparent = bool((colours[:, 3] < 255).any())
    return Batch(positions=np.ascontiguousarray(corners.reshape(-1, 3), np.float32),
                 normals=np.ascontiguousarray(np.repeat(normals, 3, axis=0), np.float32),
                 colours=np.ascontiguousarray(np.repeat(colours, 3, axis=0)),
                 transparent=transparent, two_sided=False, chunk=(0, 0))


def solid_node(parent, name: str, pieces: list[tuple[np.ndarray, tuple]], unlit: bool = False):
    """One Panda3D node drawing several (corners, rgba) pieces as a single draw call."""
    from panda3d.core import TransparencyAttrib

    from bow3d.view.graph.scene_graph import batch_node

    if not pieces:
        return parent.attach_new_node(name)
    corners = np.concatenate([c for c, _ in pieces])
    rgba = np.concatenate([np.broadcast_to(np.asarray(col, np.uint8), (c.shape[0], 4)) for c, col in pieces])
    batch = solid_batch(corners, rgba)
    path = parent.attach_new_node(batch_node(batch, name))
    if batch.transparent:
        path.set_transparency(TransparencyAttrib.M_alpha)
        path.set_bin("transparent", 20)
        path.set_depth_write(False)
    if unlit:
        path.set_light_off()
    return path


def marking_brick_row(count: int, start=(0.0, 0.0, 0.0), step=(STUD_LDU + 2.0, 0.0, 0.0)) -> np.ndarray:
    """`count` 1x1 bricks in a row on the ground, the first centred on `start` (BOW §2.2)."""
    if count <= 0:
        return np.zeros((0, 3, 3))
    return np.concatenate([brick_corners(1, 1, BRICK_LDU, tuple(np.add(start, np.multiply(step, k))))
                           for k in range(count)])


def brick_stack(count: int, base=(0.0, 0.0, 0.0), height: float = BRICK_LDU) -> np.ndarray:
    """`count` 1x1 bricks stacked on `base` (BOW §2.4.3: damage stacked on the minifig's head)."""
    if count <= 0:
        return np.zeros((0, 3, 3))
    return np.concatenate([brick_corners(1, 1, height, (base[0], base[1], base[2] + k * height), studs=(k == count - 1))
                           for k in range(count)])
