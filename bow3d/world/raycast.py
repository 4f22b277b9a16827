"""The ray-casting engine: Embree (embreex) over a collision mesh made for sight.

Layer: world. Units: LDU, world frame (Z up). Arrays: origins and directions (N, 3) float32,
directions of unit length, segment lengths `tfar` (N,) float32.

Decor is one static Embree scene (robust mode: a ray through a shared edge or vertex hits
exactly one of the triangles that meet there, so sight lines at exact brick-top heights do not
slip through seams). Bodies (units and vehicles) are software instances: each distinct model has
one small Embree scene in its own frame, and a ray batch is moved into a body's frame (one
matrix product) only for the bodies whose bounding sphere comes near some segment of the batch.
Moving a body changes a 4x4 pose and nothing else: no rebuild.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
from embreex import mesh_construction, rtcore_scene

from bow3d.ldraw import Model

# Triangles of these LDraw primitives do not block sight in any way that matters: studs stand
# 4 LDU proud of a 24 LDU brick and the tubes under a brick are hidden inside it (see world docs).
DECOR = -1  # hit kind of a decor triangle; body hits carry the body index (>= 0); -2 = no hit
MISS = -2


CONTINUE_LDU = 0.01  # a ray that hit something to ignore (a hidden part, an ignored body) goes on from this far past it
MAX_CONTINUATIONS = 8
MAX_HIDDEN_ROUNDS = 512  # a ray goes on past at most this many triangles of hidden decor (then: the hit stands)
HIDDEN_WINDOW_LDU = 0.01  # a ray goes on from this far past a hidden hit; shown faces this close to it still count


@dataclass(frozen=True)
class SightMesh:
    """A collision mesh for sight: positions (V, 3) float32, triangles (T, 3) int32,
    tri_instance (T,) int32 (index into the model's instances, -1 inside a lone part);
    instance_boxes (I, 2, 3) float32 min and max corner of each instance's triangles (inf and -inf
    for an instance with none), when the builder knew them (else `boxes()` works them out)."""

    positions: np.ndarray
    triangles: np.ndarray
    tri_instance: np.ndarray
    instance_boxes: np.ndarray | None = None

    def boxes(self, count: int | None = None) -> np.ndarray:
        """(I, 2, 3) float32 box of each instance's triangles, I = `count` (default: the highest
        instance index + 1); inf / -inf rows for instances without triangles."""
        n = int(self.tri_instance.max()) + 1 if count is None and self.triangle_count else (count or 0)
        if self.instance_boxes is not None and self.instance_boxes.shape[0] >= n:
            return self.instance_boxes
        out = np.stack([np.full((n, 3), np.inf, np.float32), np.full((n, 3), -np.inf, np.float32)], axis=1)
        owner = self.tri_instance
        keep = owner >= 0
        if not keep.any():
            return out
        corners = self.positions[self.triangles[keep]]                      # (T, 3, 3)
        starts = np.flatnonzero(np.r_[True, owner[keep][1:] != owner[keep][:-1]])  # runs of one instance
        runs = owner[keep][starts]
        np.minimum.at(out[:, 0], runs, np.minimum.reduceat(corners.min(axis=1), starts))
        np.maximum.at(out[:, 1], runs, np.maximum.reduceat(corners.max(axis=1), starts))
        return out

    @property
    def triangle_count(self) -> int:
        return int(self.triangles.shape[0])

    def bounds(self) -> np.ndarray:
        """(2, 3) float64 min and max corner (zeros when empty)."""
        if self.triangles.shape[0] == 0:
            return np.zeros((2, 3))
        used = self.positions[self.triangles.reshape(-1)]
        return np.stack([used.min(axis=0), used.max(axis=0)]).astype(np.float64)


def sight_mesh(model: Model, keep_studs: bool = False) -> SightMesh:
    """The model's triangles for sight, built per distinct part (studs and tubes dropped unless
    `keep_studs`), each part's kept triangles placed for all its instances in one matrix product.
    BudgetExceeded first when they would not fit in the model's budget (Model.check_sight)."""
    model.check_sight(keep_studs)
    positions, triangles, owners = [], [], []
    boxes = np.stack([np.full((len(model.instances), 3), np.inf, np.float32),
                      np.full((len(model.instances), 3), -np.inf, np.float32)], axis=1)
    offset = 0
    for key, idx in model.groups().items():
        part = model.parts[key]
        keep = np.ones(part.triangle_count, bool) if keep_studs else ~part.tri_detail
        tris = part.triangles[keep]
        if tris.shape[0] == 0:
            continue
        used, local = np.unique(tris.reshape(-1), return_inverse=True)
        local = local.reshape(-1, 3).astype(np.int32)
        verts = part.positions[used]
        mats = model.world_transforms(idx).astype(np.float32)
        placed = np.matmul(verts[None], mats[:, :3, :3].transpose(0, 2, 1)) + mats[:, None, :3, 3]
        n, v = len(idx), verts.shape[0]
        for k in range(3):  # per coordinate: a reduction over (n, v) is ~20x faster than over (n, v, 3)
            boxes[idx, 0, k], boxes[idx, 1, k] = placed[:, :, k].min(axis=1), placed[:, :, k].max(axis=1)
        positions.append(placed.reshape(-1, 3))
        triangles.append((local[None] + (offset + np.arange(n, dtype=np.int32) * v)[:, None, None]).reshape(-1, 3))
        owners.append(np.repeat(idx.astype(np.int32), local.shape[0]))
        offset += n * v
    if not positions:
        return SightMesh(np.zeros((0, 3), np.float32), np.zeros((0, 3), np.int32), np.zeros(0, np.int32), boxes)
    return SightMesh(np.ascontiguousarray(np.concatenate(positions), np.float32),
                     np.ascontiguousarray(np.concatenate(triangles), np.int32), np.concatenate(owners), boxes)


class TriangleScene:
    """One committed Embree scene over a SightMesh (robust mode), queried in batches.

    Instances can be hidden (`hide`): no rebuild; a ray whose nearest hit belongs to a hidden
    instance goes on past it (rounds over the rays concerned only), so every query of the scene
    (first hit, occlusion) sees the geometry without them. Nothing hidden: no cost. A shown face
    that lies in the plane of a hidden one (the brick beside or under a destroyed one) is not
    skipped: at each hidden hit, a small scene of the shown instances touching the hidden ones
    (rebuilt by `hide`) is asked for a hit within HIDDEN_WINDOW_LDU of it.
    """

    def __init__(self, mesh: SightMesh):
        self.mesh = mesh
        self.empty = mesh.triangle_count == 0
        self.hidden: np.ndarray | None = None  # (I,) bool per instance index, None while nothing is hidden
        self._beside: tuple[TriangleScene, np.ndarray] | None = None  # shown instances touching hidden ones
        if not self.empty:
            self._scene = rtcore_scene.EmbreeScene(robust=True)
            mesh_construction.TriangleMesh(self._scene, mesh.positions, mesh.triangles)
            self._scene.run(np.zeros((1, 3), np.float32), np.array([[0, 0, 1]], np.float32), dists=0.0)  # commit

    def hide(self, instances, hidden: bool = True) -> None:
        """Hide (or show again) the triangles of these instance indices (array-like of int)."""
        instances = np.asarray(instances, np.int64).reshape(-1)
        count = int(self.mesh.tri_instance.max()) + 1 if self.mesh.triangle_count else 0
        if self.hidden is None:
            self.hidden = np.zeros(count, bool)
        instances = instances[(instances >= 0) & (instances < count)]
        self.hidden[instances] = hidden
        if not self.hidden.any():
            self.hidden, self._beside = None, None
        else:
            self._beside = self._beside_hidden(self.hidden)

    def _beside_hidden(self, hidden: np.ndarray) -> tuple[TriangleScene, np.ndarray]:
        """The shown instances whose box touches a hidden one's (`hidden`: (I,) bool), as a scene of their own,
        and the (T',) int64 triangle index in this scene of each of its triangles."""
        boxes = self.mesh.boxes(len(hidden)).astype(np.float64)
        near = boxes[hidden]
        lo, hi = near[:, 0] - HIDDEN_WINDOW_LDU, near[:, 1] + HIDDEN_WINDOW_LDU
        # Boxes against the hidden ones' union first, then pair by pair, one axis at a time (2D arrays).
        rows = np.flatnonzero(((boxes[:, 0] <= hi.max(axis=0)) & (boxes[:, 1] >= lo.min(axis=0))).all(axis=1))
        pairs = np.ones((rows.size, lo.shape[0]), bool)
        for k in range(3):
            pairs &= (boxes[rows, 0, k][:, None] <= hi[None, :, k]) & (boxes[rows, 1, k][:, None] >= lo[None, :, k])
        touch = np.zeros(len(boxes), bool)
        touch[rows] = pairs.any(axis=1)
        owner = self.mesh.tri_instance
        chosen = np.flatnonzero((owner >= 0) & (touch & ~hidden)[np.maximum(owner, 0)])
        used, local = np.unique(self.mesh.triangles[chosen].reshape(-1), return_inverse=True)
        sub = SightMesh(np.ascontiguousarray(self.mesh.positions[used]), local.reshape(-1, 3).astype(np.int32),
                        owner[chosen])
        return TriangleScene(sub), chosen

    def first_hit(self, origins: np.ndarray, dirs: np.ndarray, tfar: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Nearest hit along each segment: (t (N,) float32, inf where none; primID (N,) int32, -1 where none)."""
        n = origins.shape[0]
        if self.empty or n == 0:
            return np.full(n, np.inf, np.float32), np.full(n, -1, np.int32)
        t, prim = self._first_hit(origins, dirs, tfar)
        if self.hidden is not None and self._beside is not None:  # both set while something is hidden
            t, prim = self._past_hidden(origins, dirs, np.asarray(tfar, np.float32), t, prim,
                                        self.hidden, self._beside)
        return t, prim

    def _first_hit(self, origins, dirs, tfar) -> tuple[np.ndarray, np.ndarray]:
        out = self._scene.run(origins, dirs, dists=np.array(tfar, np.float32, copy=True), output=1)
        prim = out["primID"]
        return np.where(prim >= 0, out["tfar"], np.float32(np.inf)).astype(np.float32), prim

    def _is_hidden(self, prim: np.ndarray, hidden: np.ndarray) -> np.ndarray:
        owner = self.mesh.tri_instance[np.maximum(prim, 0)]
        return (prim >= 0) & (owner >= 0) & hidden[np.maximum(owner, 0)]

    def _past_hidden(self, origins, dirs, tfar, t, prim, hidden: np.ndarray,
                     beside_hidden: tuple[TriangleScene, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """Rays whose hit is hidden go on past it, round after round, until a shown hit or the end."""
        t, prim = t.copy(), prim.copy()
        rows = np.flatnonzero(self._is_hidden(prim, hidden))
        beside, beside_prim = beside_hidden
        for _ in range(MAX_HIDDEN_ROUNDS):
            if rows.size == 0:
                break
            # A shown face at the hidden hit (coplanar, or just behind it) is the hit.
            back = np.maximum(t[rows] - HIDDEN_WINDOW_LDU, 0.0)
            o = np.ascontiguousarray(origins[rows] + back[:, None] * dirs[rows], np.float32)
            d = np.ascontiguousarray(dirs[rows], np.float32)
            window = np.minimum(t[rows] + HIDDEN_WINDOW_LDU, tfar[rows]) - back
            t_b, p_b = beside.first_hit(o, d, np.maximum(window, 0.0).astype(np.float32))
            found = np.isfinite(t_b)
            t[rows[found]], prim[rows[found]] = back[found] + t_b[found], beside_prim[p_b[found]]
            rows = rows[~found]
            start = t[rows] + HIDDEN_WINDOW_LDU
            alive = start < tfar[rows]
            t[rows[~alive]], prim[rows[~alive]] = np.inf, -1
            rows, start = rows[alive], start[alive]
            o = np.ascontiguousarray(origins[rows] + start[:, None] * dirs[rows], np.float32)
            t2, p2 = self._first_hit(o, np.ascontiguousarray(dirs[rows], np.float32),
                                     (tfar[rows] - start).astype(np.float32))
            t[rows], prim[rows] = start + t2, p2
            rows = rows[self._is_hidden(p2, hidden)]
        return t, prim

    def occluded(self, origins: np.ndarray, dirs: np.ndarray, tfar: np.ndarray) -> np.ndarray:
        """(N,) bool: something (not hidden) lies on the segment."""
        n = origins.shape[0]
        if self.empty or n == 0:
            return np.zeros(n, bool)
        if self.hidden is not None:
            return np.isfinite(self.first_hit(origins, dirs, tfar)[0])
        return self._scene.run(origins, dirs, dists=np.array(tfar, np.float32, copy=True), query="OCCLUDED") >= 0


@dataclass
class BodyShape:
    """A model's sight geometry in its own frame (origin at the footprint centre, Z up, lowest
    point at z = 0), with its Embree scene, bounding sphere and other per-model facts."""

    name: str
    scene: TriangleScene
    model: Model | None
    centre: np.ndarray  # (3,) bounding-sphere centre, body frame
    radius: float

    @cached_property
    def box(self) -> np.ndarray:
        """(2, 3) float32 the body's box in its own frame."""
        return self.scene.mesh.bounds().astype(np.float32)


def segment_sphere_near(origins: np.ndarray, dirs: np.ndarray, tfar: np.ndarray, centres: np.ndarray,
                        radii: np.ndarray, eye: np.ndarray | None = None) -> np.ndarray:
    """(B, N) bool: segment n passes within radius b of centre b (B bodies, N segments).

    With `eye` (3,), all segments start there: one (B, 3) x (3, N) product instead of (B, N, 3) arrays.
    """
    if eye is not None:
        # The segment from the eye comes within r of c iff the line does (its projection on the
        # direction is at least sqrt(|c - eye|^2 - r^2)) and it is long enough (tfar >= |c - eye| - r).
        rel = (centres - eye).astype(np.float32)
        dist2 = (rel * rel).sum(axis=1)
        inside = dist2 <= radii ** 2
        along = np.where(inside, -np.inf, np.sqrt(np.maximum(dist2 - radii ** 2, 0.0))).astype(np.float32)
        reach = np.where(inside, -np.inf, np.sqrt(dist2) - radii).astype(np.float32)
        return (rel @ dirs.T >= along[:, None]) & (tfar[None, :] >= reach[:, None])
    ends = origins + dirs * tfar[:, None]
    if len(centres) > 1 and np.isfinite(ends).all():
        # Only bodies whose sphere meets the box round every segment can come near one (most do not:
        # a vehicle's sweep is local); the rest are False without the (B, N, 3) arithmetic.
        low = np.minimum(origins.min(axis=0), ends.min(axis=0))
        high = np.maximum(origins.max(axis=0), ends.max(axis=0))
        keep = np.all((centres >= low - radii[:, None]) & (centres <= high + radii[:, None]), axis=1)
        if not keep.all():
            near = np.zeros((len(centres), origins.shape[0]), bool)
            if keep.any():
                near[keep] = segment_sphere_near(origins, dirs, tfar, centres[keep], radii[keep])
            return near
    rel = centres[:, None, :] - origins[None, :, :]
    along = np.clip(np.einsum("bnk,nk->bn", rel, dirs), 0.0, tfar[None, :])
    closest = origins[None] + along[..., None] * dirs[None]
    gap = np.einsum("bnk,bnk->bn", centres[:, None, :] - closest, centres[:, None, :] - closest)
    return gap <= (radii[:, None] ** 2)


def near_bodies(origins: np.ndarray, dirs: np.ndarray, tfar: np.ndarray, shapes: list[BodyShape],
                poses: np.ndarray, bodies: np.ndarray, eye: np.ndarray | None = None,
                spheres: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """(len(bodies), N) bool: which segments pass near which of the given bodies (bounding spheres);
    `spheres`: every body's sphere centre in its own frame (B, 3) and radius (B,), if already gathered."""
    if len(bodies) == 0:
        return np.zeros((0, origins.shape[0]), bool)
    rot = poses[bodies, :3, :3]
    if spheres is None:
        local, radii = np.stack([shapes[b].centre for b in bodies]), np.array([shapes[b].radius for b in bodies])
    else:
        local, radii = spheres[0][bodies], spheres[1][bodies]
    centres = np.einsum("bij,bj->bi", rot, local) + poses[bodies, :3, 3]
    return segment_sphere_near(origins, dirs, tfar, centres, radii, eye)


def cast_bodies(origins: np.ndarray, dirs: np.ndarray, tfar: np.ndarray, shapes: list[BodyShape],
                poses: np.ndarray, active: np.ndarray, eye: np.ndarray | None = None,
                near: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Nearest body hit per segment among the active bodies.

    poses (B, 4, 4) float64 body -> world; active (B,) bool; eye (3,) when every segment starts
    there (a faster cull); `near` the result of `near_bodies` for the active bodies, if already known. Returns (t (N,) float32, inf where
    none; body (N,) int32, -1 where none; primID (N,) int32 in the body's shape).
    """
    n = origins.shape[0]
    best_t = np.full(n, np.inf, np.float32)
    best_b = np.full(n, -1, np.int32)
    best_p = np.full(n, -1, np.int32)
    bodies = np.flatnonzero(active)
    if n == 0 or bodies.size == 0:
        return best_t, best_b, best_p
    rot = poses[bodies, :3, :3]
    if near is None:
        near = near_bodies(origins, dirs, tfar, shapes, poses, bodies, eye)
    for k in np.flatnonzero(near.any(axis=1)):  # a loop over bodies near the rays, not over rays
        b = bodies[k]
        rows = np.flatnonzero(near[k])
        r, tr = rot[k], poses[b, :3, 3]
        local_o = ((origins[rows] - tr) @ r).astype(np.float32)
        local_d = (dirs[rows] @ r).astype(np.float32)
        limit = np.minimum(tfar[rows], best_t[rows])
        enter = _slab_test(local_o, local_d, limit, shapes[b].box)
        rows, local_o, local_d, limit = rows[enter], local_o[enter], local_d[enter], limit[enter]
        if rows.size == 0:
            continue
        t, prim = shapes[b].scene.first_hit(np.ascontiguousarray(local_o), np.ascontiguousarray(local_d), limit)
        better = t < best_t[rows]
        best_t[rows[better]] = t[better]
        best_b[rows[better]] = b
        best_p[rows[better]] = prim[better]
    return best_t, best_b, best_p


def _slab_test(origins: np.ndarray, dirs: np.ndarray, tfar: np.ndarray, box: np.ndarray) -> np.ndarray:
    """(N,) bool: the segment meets the axis-aligned box (2, 3) (slab test, a little slack)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = 1.0 / np.where(dirs == 0, np.float32(1e-30), dirs)
        t0, t1 = (box[0] - 0.01 - origins) * inv, (box[1] + 0.01 - origins) * inv
    near = np.minimum(t0, t1).max(axis=1)
    far = np.maximum(t0, t1).min(axis=1)
    return (near <= far) & (far >= 0) & (near <= tfar)


def merged_bodies(shapes: list[BodyShape], poses: np.ndarray, active: np.ndarray) -> tuple[TriangleScene, np.ndarray]:
    """All active bodies posed into one Embree scene (for big batches): (scene, (T,) int32 body per triangle)."""
    positions, triangles, owners, offset = [], [], [], 0
    for b in np.flatnonzero(active):
        mesh = shapes[b].scene.mesh
        positions.append(mesh.positions.astype(np.float64) @ poses[b, :3, :3].T + poses[b, :3, 3])
        triangles.append(mesh.triangles + offset)
        owners.append(np.full(mesh.triangle_count, b, np.int32))
        offset += mesh.positions.shape[0]
    if not positions:
        empty = SightMesh(np.zeros((0, 3), np.float32), np.zeros((0, 3), np.int32), np.zeros(0, np.int32))
        return TriangleScene(empty), np.zeros(0, np.int32)
    owner = np.concatenate(owners)
    mesh = SightMesh(np.ascontiguousarray(np.concatenate(positions), np.float32),
                     np.ascontiguousarray(np.concatenate(triangles), np.int32), owner)
    return TriangleScene(mesh), owner


def cast_merged(scene: TriangleScene, owner: np.ndarray, origins: np.ndarray, dirs: np.ndarray, tfar: np.ndarray,
                skip: np.ndarray, start: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Nearest hit in the merged bodies scene, ignoring bodies where skip (B,) bool is set: rays that
    hit an ignored body go on past it (a few rounds, vectorised). `start` (N,): where along each
    segment to begin (default 0). Returns (t (N,) from the segment's origin, body (N,) or -1)."""
    n = origins.shape[0]
    best_t = np.full(n, np.inf, np.float32)
    best_b = np.full(n, -1, np.int32)
    start = np.zeros(n, np.float32) if start is None else start.astype(np.float32).copy()
    rows = np.flatnonzero(start < tfar)
    o, limit = origins[rows] + start[rows][:, None] * dirs[rows], tfar[rows] - start[rows]
    for _ in range(MAX_CONTINUATIONS):
        t, prim = scene.first_hit(np.ascontiguousarray(o, np.float32), dirs[rows], limit)
        hit = prim >= 0
        body = np.where(hit, owner[np.maximum(prim, 0)], -1)
        ignored = hit & skip[np.maximum(body, 0)]
        keep = hit & ~ignored
        best_t[rows[keep]] = start[rows[keep]] + t[keep]
        best_b[rows[keep]] = body[keep]
        if not ignored.any():
            break
        rows = rows[ignored]
        start[rows] += t[ignored] + CONTINUE_LDU
        o = origins[rows] + start[rows][:, None] * dirs[rows]
        limit = tfar[rows] - start[rows]
        alive = limit > 0
        rows, o, limit = rows[alive], o[alive], limit[alive]
        if rows.size == 0:
            break
    return best_t, best_b


def box_exit(origins: np.ndarray, dirs: np.ndarray, box: np.ndarray) -> np.ndarray:
    """(N,) how far each ray, starting inside the box (2, 3), travels before leaving it."""
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = 1.0 / np.where(dirs == 0, np.float32(1e-30), dirs)
        t0, t1 = (box[0] - 0.01 - origins) * inv, (box[1] + 0.01 - origins) * inv
    return np.maximum(np.maximum(t0, t1).min(axis=1), 0.0)


def merge_meshes(*meshes: SightMesh) -> SightMesh:
    """Several meshes as one; tri_instance = the index of the mesh each triangle came from."""
    offsets = np.cumsum([0] + [m.positions.shape[0] for m in meshes])
    return SightMesh(np.concatenate([m.positions for m in meshes]),
                     np.concatenate([m.triangles + o for m, o in zip(meshes, offsets)]).astype(np.int32),
                     np.concatenate([np.full(m.triangle_count, k, np.int32) for k, m in enumerate(meshes)]))


def box_mesh(lo, hi) -> SightMesh:
    """A closed axis-aligned box (12 triangles) from corner lo to corner hi (LDU, world frame)."""
    lo, hi = np.asarray(lo, np.float32), np.asarray(hi, np.float32)
    corners = np.array([[x, y, z] for z in (lo[2], hi[2]) for y in (lo[1], hi[1]) for x in (lo[0], hi[0])],
                       np.float32)
    quads = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    tris = np.array([t for a, b, c, d in quads for t in ((a, b, c), (a, c, d))], np.int32)
    return SightMesh(corners, tris, np.full(len(tris), -1, np.int32))
