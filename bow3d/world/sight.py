"""How the world measures sight: named methods, and the rays of the model's-eye view.

Layer: world. Units: LDU, world frame. A replay records the method that refereed it (its header's
`sight`), and the world is built with the method a replay names (verify, the battle log, the film)
or with DEFAULT_SIGHT_METHOD for a new game; a method, once named, never changes what it answers.

More: docs/modules/world.md#sight.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from bow3d.errors import UserInputError
from bow3d.i18n import _

SILHOUETTE_CELLS = 768        # rays over the projected box; a standing minifig meets about half of them
SILHOUETTE_SEED = 20261211    # the jitter pattern (fixed: the same rays for the same geometry)
NEAR_DEPTH_SHARE = 1e-3       # box corners nearer than this share of the distance (or behind the eye) are
                              # projected as if that near: an eye almost touching the target still gets rays
MAX_TANGENT = 20.0            # and no ray leaves more than atan(20) = 87 degrees off the line to the centre


@dataclass(frozen=True)
class SightMethod:
    """A named way of measuring sight: which rays, which geometry, what transparent parts do."""

    name: str
    rays: str                    # 'silhouette' | 'surface-samples'
    studs: str                   # 'stand-in' (decor) and real (bodies) | 'dropped' (studs and tubes left out)
    see_through_transparent: bool
    summary: str

    @property
    def keeps_studs(self) -> bool:
        return self.studs != "dropped"


SILHOUETTE_1 = SightMethod("silhouette-1", "silhouette", "stand-in", True,
                           "the target's silhouette as projected from the firer's eye, studs included")
SURFACE_SAMPLES_1 = SightMethod("surface-samples-1", "surface-samples", "dropped", False,
                                "1,024 points on the target's surface, those facing the eye; studs dropped")
SIGHT_METHODS = {m.name: m for m in (SILHOUETTE_1, SURFACE_SAMPLES_1)}
DEFAULT_SIGHT_METHOD = SILHOUETTE_1.name
LEGACY_SIGHT_METHOD = SURFACE_SAMPLES_1.name  # what a replay that names no method was refereed with


def sight_method(name: str | SightMethod | None) -> SightMethod:
    """The method called `name` (None: the default); a one-line UserInputError naming the known ones."""
    if isinstance(name, SightMethod):
        return name
    found = SIGHT_METHODS.get(DEFAULT_SIGHT_METHOD if name is None else str(name))
    if found is None:
        raise UserInputError(_("unknown sight method {name!r} (this bow3d knows {value})")
                             .format(name=name, value=', '.join(SIGHT_METHODS)))
    return found


@lru_cache(maxsize=256)
def _cells(ny: int, nx: int) -> tuple[np.ndarray, np.ndarray]:
    """The fixed ray pattern of an ny x nx grid: (u, v) (ny * nx,) float64 in [0, 1), one point in each
    cell, multi-jittered (Chiu, Shirley and Wang 1994): the u of the whole pattern also fall one in
    each of nx * ny columns and the v one in each of nx * ny rows, so a wall's top edge or a wall's
    end across the picture is sampled as finely as the whole grid. Seeded: the same rays for the
    same geometry."""
    rng = np.random.default_rng([SILHOUETTE_SEED, ny, nx])
    sub_u = rng.permuted(np.tile(np.arange(ny), (nx, 1)), axis=1).T     # (ny, nx): a permutation per column
    sub_v = rng.permuted(np.tile(np.arange(nx), (ny, 1)), axis=1)       # (ny, nx): a permutation per row
    jitter = rng.random((2, ny, nx))
    u = (np.arange(nx)[None, :] + (sub_u + jitter[0]) / ny) / nx
    v = (np.arange(ny)[:, None] + (sub_v + jitter[1]) / nx) / ny
    u, v = u.reshape(-1), v.reshape(-1)
    u.setflags(write=False)
    v.setflags(write=False)
    return u, v


def view_frame(eye: np.ndarray, centre: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """(forward, right, up, distance): the pin-hole camera at `eye` looking at `centre` (world, LDU);
    `up` is the world's Z tilted into the picture (X when looking straight up or down)."""
    fx, fy, fz = (float(v) for v in centre - eye)
    distance = math.sqrt(fx * fx + fy * fy + fz * fz)
    if distance <= 1e-9:
        fx, fy, fz, distance = 1.0, 0.0, 0.0, 0.0
    else:
        fx, fy, fz = fx / distance, fy / distance, fz / distance
    if abs(fz) < 0.999:   # right = forward x Z
        rx, ry, rz = fy, -fx, 0.0
    else:                 # right = forward x X
        rx, ry, rz = 0.0, fz, -fy
    norm = math.sqrt(rx * rx + ry * ry + rz * rz)
    rx, ry, rz = rx / norm, ry / norm, rz / norm
    up = (ry * fz - rz * fy, rz * fx - rx * fz, rx * fy - ry * fx)
    return np.array([fx, fy, fz]), np.array([rx, ry, rz]), np.array(up), distance


def _corners(template) -> np.ndarray:
    """(8, 3) float64 corners of a body's box in its own frame (kept on the template)."""
    corners = getattr(template, "_box_corners", None)
    if corners is None:
        box = template.shape.box.astype(np.float64)
        corners = np.stack(np.meshgrid(box[:, 0], box[:, 1], box[:, 2], indexing="ij"), -1).reshape(8, 3)
        template._box_corners = corners
    return corners


def silhouette_rays(template, pose: np.ndarray, eye: np.ndarray, cells: int = SILHOUETTE_CELLS
                    ) -> tuple[np.ndarray, np.ndarray]:
    """The rays from `eye` (3,) over the silhouette of a body (its template at `pose` (4, 4)): unit
    directions (K, 3) float32 and the distance (K,) float32 at which each meets the body's own mesh.
    K is 0 when no ray meets it (an empty or degenerate projection)."""
    corners = _corners(template)
    rot, move = pose[:3, :3], pose[:3, 3]
    centre = rot @ ((corners[0] + corners[7]) / 2.0) + move
    forward, right, up, distance = view_frame(eye, centre)
    frame = np.array([right, up, forward])                         # rows: the camera's axes, world
    rel = (corners @ rot.T + (move - eye)) @ frame.T               # (8, 3) in the camera's axes
    depth = np.maximum(rel[:, 2], NEAR_DEPTH_SHARE * max(distance, 1.0))
    ab = rel[:, :2] / depth[:, None]
    np.clip(ab, -MAX_TANGENT, MAX_TANGENT, out=ab)
    (a0, b0), (a1, b1) = ab.min(axis=0).tolist(), ab.max(axis=0).tolist()
    wa, wb = a1 - a0, b1 - b0
    if not (wa > 0 and wb > 0):
        return np.zeros((0, 3), np.float32), np.zeros(0, np.float32)
    nx = min(max(1, int(round(math.sqrt(cells * wa / wb)))), cells)
    ny = max(1, int(round(cells / nx)))
    u, v = _cells(ny, nx)
    coeffs = np.empty((len(u), 3))
    np.multiply(u, wa, out=coeffs[:, 0])
    coeffs[:, 0] += a0
    np.multiply(v, wb, out=coeffs[:, 1])
    coeffs[:, 1] += b0
    coeffs[:, 2] = 1.0
    coeffs /= np.sqrt(np.einsum("ij,ij->i", coeffs, coeffs))[:, None]
    local_dirs = np.ascontiguousarray(coeffs @ (frame @ rot), np.float32)    # in the body's frame
    local_eye = ((eye - move) @ rot).astype(np.float32)
    reach = distance + float(np.linalg.norm(corners[7] - corners[0])) + 1.0
    t, _unused = template.shape.scene.first_hit(np.broadcast_to(local_eye, local_dirs.shape).copy(), local_dirs,
                                          np.full(len(u), reach, np.float32))
    hit = np.isfinite(t)
    return np.ascontiguousarray(coeffs[hit] @ frame, np.float32), t[hit]
