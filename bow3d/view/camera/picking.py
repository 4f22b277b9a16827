"""Mouse picking on a scene: which unit is under a pixel, which stud cell a pixel points at.

Layer: view. Pure numpy on the camera's matrices (no collision traversal over a 5,000-part
battlefield): units are picked by projecting their body and head points to the screen, cells
by marching the pixel's ray down to the ground heights (`bow3d.view.graph.ground`). Pixels are
window pixels, (0, 0) top left; world frame Z up, LDU; cells per the scene contract (C1).
"""

from __future__ import annotations

import math

import numpy as np

from bow3d.units import LDU_PER_STUD as STUD

PICK_PIXELS = 28.0  # a unit is picked when the click falls this close to its projected body


def _matrices(base) -> tuple[np.ndarray, np.ndarray]:
    """(world -> camera, camera -> clip) as 4x4 arrays in Panda3D's row-vector convention."""
    view = np.array(base.cam.get_mat(base.render), np.float64).reshape(4, 4)
    lens = base.camLens if hasattr(base, "camLens") else base.cam.node().get_lens()
    proj = np.array(lens.get_projection_mat(), np.float64).reshape(4, 4)
    return np.linalg.inv(view), proj


def project(base, points: np.ndarray) -> np.ndarray:
    """(N, 3) world points -> (N, 2) window pixels; points behind the camera get NaN."""
    inv_view, proj = _matrices(base)
    points = np.asarray(points, np.float64).reshape(-1, 3)
    clip = np.concatenate([points, np.ones((points.shape[0], 1))], axis=1) @ inv_view @ proj
    w = clip[:, 3:4]
    ndc = np.where(w > 1e-9, clip[:, :2] / np.where(w > 1e-9, w, 1.0), np.nan)
    width, height = base.win.get_x_size(), base.win.get_y_size()
    return np.stack([(ndc[:, 0] + 1) / 2 * width, (1 - ndc[:, 1]) / 2 * height], axis=1)


def pick_unit(base, nodes, pixel: tuple[float, float], radius: float = PICK_PIXELS) -> str | None:
    """The living, shown unit or vehicle whose body or head projects nearest to `pixel`, or None."""
    ids, points = [], []
    for id, piece in nodes.pieces.items():
        if not piece.placed or not piece.alive or piece.root.is_hidden():
            continue
        middle = np.array([(piece.lo[0] + piece.hi[0]) / 2, (piece.lo[1] + piece.hi[1]) / 2, (piece.lo[2] + piece.hi[2]) / 2])
        for local in (piece.head, middle, np.array([middle[0], middle[1], piece.lo[2]])):
            ids.append(id)
            points.append(nodes.to_world(id, local))
    if not ids:
        return None
    screen = project(base, np.array(points))
    distance = np.linalg.norm(screen - np.asarray(pixel, np.float64), axis=1)
    distance = np.where(np.isnan(distance), np.inf, distance)
    best = int(np.argmin(distance))
    return ids[best] if distance[best] <= radius else None


def pixel_ray(base, pixel: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
    """World origin and unit direction of the ray through a window pixel."""
    from panda3d.core import LPoint2, LPoint3

    width, height = base.win.get_x_size(), base.win.get_y_size()
    film = LPoint2(2 * pixel[0] / width - 1, 1 - 2 * pixel[1] / height)
    near, far = LPoint3(), LPoint3()
    lens = base.camLens if hasattr(base, "camLens") else base.cam.node().get_lens()
    lens.extrude(film, near, far)
    a = np.array(base.render.get_relative_point(base.cam, near), np.float64)
    b = np.array(base.render.get_relative_point(base.cam, far), np.float64)
    direction = b - a
    return a, direction / np.linalg.norm(direction)


def pick_cell(base, nodes, pixel: tuple[float, float], steps: int = 2048) -> tuple[int, int] | None:
    """The stud cell where the pixel's ray first meets the ground, or None (sky)."""
    hit = pick_point(base, nodes, pixel, steps)
    return None if hit is None else (math.floor(hit[0] / STUD), math.floor(hit[1] / STUD))


def pick_point(base, nodes, pixel: tuple[float, float], steps: int = 2048) -> np.ndarray | None:
    """The world point (3,) LDU where the pixel's ray first meets the ground heights, or None (sky)."""
    origin, direction = pixel_ray(base, pixel)
    box = nodes.bounds()
    reach = float(np.linalg.norm(box[1] - box[0])) + float(np.linalg.norm(origin - box.mean(axis=0)))
    t = np.linspace(0.0, reach, steps)
    points = origin + t[:, None] * direction
    ground = nodes.ground.heights(points[:, :2])
    below = np.flatnonzero(points[:, 2] <= ground)
    if below.size == 0:
        return None
    hit = points[below[0]].copy()
    hit[2] = ground[below[0]]
    return hit


def cell_pixel(base, nodes, cell: tuple[int, int]) -> tuple[float, float]:
    """The window pixel of a cell's centre on the ground (tests click there)."""
    x, y = (cell[0] + 0.5) * STUD, (cell[1] + 0.5) * STUD
    z = float(nodes.ground.heights(np.array([[x, y]]))[0])
    px, py = project(base, np.array([[x, y, z]]))[0]
    return float(px), float(py)
