"""Bodies: the real mesh of a unit or vehicle model, its head, footprint and sight samples.

Layer: world. Units: LDU. A body's own frame: the model's LDraw origin at (0, 0) (the centre of
its footprint, C1), Z up, its lowest point at z = 0, and facing 270 (world -Y) as built. A body
is placed by rotating its frame about Z by (facing - 270) degrees and moving it to the position
and the ground height (`body_pose`). Each distinct model becomes one `Template`, built once.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from bow3d.errors import UserInputError
from bow3d.i18n import _
from bow3d.ldraw import Model
from bow3d.units import LDU_PER_STUD as STUD, convert
from bow3d.world.raycast import BodyShape, SightMesh, TriangleScene, sight_mesh

SAMPLES_PER_BODY = 1024    # points spread over a body's surface; a minifig shows about a fifth to any eye (>= 64)
SAMPLE_STANDOFF_LDU = 0.05  # a sight line stops this short of its sample (a segment ending on a surface hits it)
HEAD_PARTS = ("3626",)     # minifig heads: the head point is the centre of their box
HEAD_FALLBACK_BELOW_TOP_LDU = 12.0  # no head part: half a brick below the top of the body, centred


@dataclass(frozen=True)
class BodySpec:
    """A body to put in a world (from a scene, or from raw meshes in tests and benchmarks).

    material: None = its kind's default ('unit', 'vehicle', 'wood' for doors, 'stone' for obstacles).
    base_studs: the base it stands on, (width across its facing, depth along it) in studs, centred
    on its position (War of Bros: 3 x 3 cm = 3.75 x 3.75 studs); None = the model's own footprint.
    """

    id: str
    template: str             # key into the templates given to World
    position: tuple[float, float] | None
    facing: float = 270.0
    kind: str = "unit"
    side: str | None = None
    flying: bool = False
    material: str | None = None
    base_studs: tuple[float, float] | None = None


def parse_base(value, where: str) -> tuple[float, float] | None:
    """A scene entry's base, (width, depth) in studs: None; [w, d] (studs); or a mapping or object
    with width, depth and unit ('studs', 'cm', 'mm', 'in'; default studs): {width: 3, depth: 3, unit: cm}."""
    if value is None:
        return None
    get = value.get if isinstance(value, Mapping) else (lambda k, d=None: getattr(value, k, d))
    try:
        if isinstance(value, (list, tuple)):
            width, depth, unit = value[0], value[1], "studs"
        else:
            width, depth, unit = get("width"), get("depth"), get("unit", "studs") or "studs"
        size = (float(convert(float(width), unit, "studs")), float(convert(float(depth), unit, "studs")))
    except (TypeError, ValueError, IndexError, KeyError):
        raise UserInputError(_("{where}: a base is [width, depth] in studs or {{width, depth, unit}}, "
                               "got {value!r}").format(where=where, value=value)) from None
    if not all(v > 0 for v in size):
        raise UserInputError(_("{where}: a base needs a positive width and depth, got {value!r}")
                             .format(where=where, value=value))
    return size


@dataclass
class Template:
    """One distinct model as a body: sight geometry in the body frame and what is derived from it.

    head (3,) float64 the head point (eye); footprint (4,) float64 xmin, xmax, ymin, ymax of the
    body seen from above (front = ymin side, the model faces -Y); height float64; samples (S, 3)
    float32 surface points, fixed per model (area-weighted, stratified, seeded by the name).
    """

    name: str
    shape: BodyShape
    head: np.ndarray
    footprint: np.ndarray
    height: float
    samples: np.ndarray
    describe_parts: list[str]
    soles: np.ndarray | None = None  # (C, 3) float64 columns under the body: x, y, and the body's lowest z there
    origin_z: float = 0.0     # height of the model's own origin in the body frame (its lowest point is at 0)
    transparent: np.ndarray | None = None  # (T,) bool per triangle of the shape: a transparent part's
    seats: np.ndarray | None = None        # (S, 3) float64 seat points (vehicles), body frame; None: none named

    def __post_init__(self) -> None:
        if self.soles is None:
            self.soles = sole_columns(self.shape.scene, self.footprint)


def template_from_mesh(name: str, mesh: SightMesh, head_mask: np.ndarray | None = None,
                       model: Model | None = None, part_names: list[str] | None = None, *,
                       head: np.ndarray | None = None, transparent: np.ndarray | None = None,
                       seats: np.ndarray | None = None) -> Template:
    """A template from a mesh in the model's frame (Z up); `head_mask` (T,) bool marks head triangles
    (or `head` (3,) gives the head point, model frame); `transparent` (T,) bool marks triangles of
    transparent parts; `seats` (S, 3) seat points in the model frame (vehicles)."""
    if mesh.triangle_count == 0:
        raise UserInputError(_("{name}: the model has no triangles to see, hit or stand on; draw the "
                               "unit in it or give the unit another model").format(name=name))
    lo, hi = mesh.bounds()
    origin_z = -float(lo[2])
    positions = (mesh.positions - np.array([0, 0, lo[2]], np.float32)).astype(np.float32)
    local = SightMesh(positions, mesh.triangles, mesh.tri_instance)
    lo, hi = local.bounds()
    if seats is not None:
        seats = np.asarray(seats, np.float64).reshape(-1, 3) + [0.0, 0.0, origin_z]
    if head is not None:
        head = np.asarray(head, np.float64) + np.array([0.0, 0.0, origin_z])
    elif head_mask is not None and head_mask.any():
        corners = positions[mesh.triangles[head_mask].reshape(-1)]
        head = (corners.min(axis=0) + corners.max(axis=0)) / 2.0
    else:
        head = np.array([(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, hi[2] - HEAD_FALLBACK_BELOW_TOP_LDU])
    centre = (lo + hi) / 2
    shape = BodyShape(name, TriangleScene(local), model, centre, float(np.linalg.norm(hi - lo) / 2 + 1e-3))
    return Template(name, shape, head.astype(np.float64), np.array([lo[0], hi[0], lo[1], hi[1]]),
                    float(hi[2]), surface_samples(local, SAMPLES_PER_BODY, zlib.crc32(name.encode())),
                    part_names or [], origin_z=origin_z,
                    transparent=None if transparent is None else np.asarray(transparent, bool), seats=seats)


def template_from_model(name: str, model: Model, keep_studs: bool = False, transparent_parts=None,
                        seats: np.ndarray | None = None) -> Template:
    """A template from a loaded unit or vehicle model: studs and tubes dropped as for decor, or kept
    (`keep_studs`: sight method silhouette-1). The head point is always the centre of the head part's
    box without its stud. `transparent_parts` (I,) bool per model instance marks transparent parts;
    `seats` (S, 3) seat points in the model frame (world axes, LDU)."""
    mesh = sight_mesh(model, keep_studs)
    names = [inst.name for inst in model.instances]
    is_head = np.array([n.lower().startswith(HEAD_PARTS) for n in names] + [False], bool)
    glass = None
    if transparent_parts is not None and mesh.triangle_count:
        glass = np.append(np.asarray(transparent_parts, bool), False)[mesh.tri_instance]
    if not keep_studs:
        head_mask = is_head[mesh.tri_instance] if len(names) else None
        return template_from_mesh(name, mesh, head_mask, model, names, transparent=glass, seats=seats)
    plain, head = sight_mesh(model), None
    head_mask = is_head[plain.tri_instance] if len(names) and plain.triangle_count else None
    if head_mask is not None and head_mask.any():
        corners = plain.positions[plain.triangles[head_mask].reshape(-1)].astype(np.float64)
        head = (corners.min(axis=0) + corners.max(axis=0)) / 2.0
    return template_from_mesh(name, mesh, None, model, names, head=head, transparent=glass, seats=seats)


SOLE_GRID = 7  # columns per side of the footprint where the body's underside is measured
# A body stands on what is under its feet (soles, hooves, wheels): the columns whose underside
# is within this height of its lowest point. An arm or a weapon held over a wall or under a
# roof's eave does not lift it.
FEET_SLAB_LDU = 12.0


def sole_columns(scene: TriangleScene, footprint: np.ndarray) -> np.ndarray:
    """(C, 3): for a SOLE_GRID x SOLE_GRID grid over the footprint, the columns the body occupies,
    with the height of its underside there (a vertical ray from below, body frame)."""
    x0, x1, y0, y1 = footprint
    u = np.linspace(0.02, 0.98, SOLE_GRID)
    gx, gy = np.meshgrid(x0 + u * (x1 - x0), y0 + u * (y1 - y0), indexing="ij")
    origins = np.column_stack([gx.ravel(), gy.ravel(), np.full(gx.size, -1.0)]).astype(np.float32)
    dirs = np.broadcast_to(np.array([0, 0, 1], np.float32), origins.shape).copy()
    t, _unused = scene.first_hit(origins, dirs, np.full(len(origins), 1e6, np.float32))
    hit = np.isfinite(t)
    columns = np.column_stack([origins[hit, :2], t[hit] - 1.0]).astype(np.float64)
    if columns.shape[0] == 0:
        return columns
    return columns[columns[:, 2] <= columns[:, 2].min() + FEET_SLAB_LDU]


def surface_samples(mesh: SightMesh, count: int, seed: int) -> np.ndarray:
    """(count, 3) float32 points on the mesh: stratified by cumulative area, fixed by `seed`."""
    corners = mesh.positions[mesh.triangles].astype(np.float64)  # (T, 3, 3)
    area = np.linalg.norm(np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0]), axis=1) / 2
    cumulative = np.cumsum(area)
    rng = np.random.default_rng(seed)
    strata = (np.arange(count) + rng.random(count)) / count * cumulative[-1]
    tri = np.minimum(np.searchsorted(cumulative, strata, side="right"), len(area) - 1)
    r1, r2 = rng.random(count), rng.random(count)
    s1 = np.sqrt(r1)
    a, b, c = 1 - s1, s1 * (1 - r2), s1 * r2
    picked = corners[tri]
    return (a[:, None] * picked[:, 0] + b[:, None] * picked[:, 1] + c[:, None] * picked[:, 2]).astype(np.float32)


def body_pose(x_studs: float, y_studs: float, facing_deg: float, ground_ldu: float) -> np.ndarray:
    """(4, 4) float64 body -> world: turn by (facing - 270) degrees about Z, then move."""
    angle = math.radians(facing_deg - 270.0)
    c, s = math.cos(angle), math.sin(angle)
    pose = np.eye(4)
    pose[:2, :2] = [[c, -s], [s, c]]
    pose[:3, 3] = (STUD * x_studs, STUD * y_studs, ground_ldu)
    return pose


def footprint_corners(template: Template, pose: np.ndarray, grow_ldu: float = 0.0) -> np.ndarray:
    """(4, 2) float64 world XY corners of the footprint, counter-clockwise from front-left."""
    x0, x1, y0, y1 = template.footprint
    local = np.array([[x0 - grow_ldu, y0 - grow_ldu], [x1 + grow_ldu, y0 - grow_ldu],
                      [x1 + grow_ldu, y1 + grow_ldu], [x0 - grow_ldu, y1 + grow_ldu]])
    return local @ pose[:2, :2].T + pose[:2, 3]


def facing_samples(template: Template, pose: np.ndarray, eye: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The samples a viewer at `eye` (world) would see if nothing else stood in the way.

    A sample faces the eye when the segment from the eye to it meets none of the body's own
    triangles (this needs no trust in LDraw windings, which are not always certified). Returns
    (world points (S, 3) float64 of all samples, (S,) bool facing).
    """
    points, facing = facing_samples_many(template, pose[None], eye)
    return points[0], facing[0]


def facing_samples_many(template: Template, poses: np.ndarray, eye: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`facing_samples` for one body template at P poses (P, 4, 4) at once, in one ray batch:
    (world points (P, S, 3) float64, (P, S) bool facing)."""
    rot, move = poses[:, :3, :3], poses[:, :3, 3]
    local_eye = np.einsum("pij,pi->pj", rot, eye[None] - move)  # R^T (eye - t)
    samples = template.samples.astype(np.float64)
    delta = samples[None] - local_eye[:, None, :]
    dist = np.linalg.norm(delta, axis=2)
    ok = dist > 2 * SAMPLE_STANDOFF_LDU
    dirs = (delta / np.where(ok, dist, 1.0)[..., None]).astype(np.float32).reshape(-1, 3)
    origins = np.repeat(local_eye.astype(np.float32), samples.shape[0], axis=0)
    tfar = np.maximum(dist - SAMPLE_STANDOFF_LDU, 0.0).astype(np.float32).reshape(-1)
    blocked = template.shape.scene.occluded(origins, dirs, tfar).reshape(dist.shape)
    world = np.einsum("pij,sj->psi", rot, samples) + move[:, None, :]
    return world, ok & ~blocked
