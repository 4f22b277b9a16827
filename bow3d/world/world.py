"""The World: decor, bodies and the geometric questions the rules ask (contract C2).

Layer: world (imports ldraw and scene, never rules). Units: LDU inside, studs at the surface of
the API (positions, distances, reach), degrees for facings and arcs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bow3d.errors import UserInputError
from bow3d.ldraw import Library, Model, PartInstance, load_model
from bow3d.world.bodies import (SAMPLE_STANDOFF_LDU, Template, body_pose, facing_samples, footprint_corners,
                                template_from_mesh, template_from_model)
from bow3d.world.raycast import (SightMesh, TriangleScene, box_exit, box_mesh, cast_bodies, cast_merged,
                                 merged_bodies, near_bodies, sight_mesh)
from bow3d.world.report import COVER_THRESHOLD, RANGE_BAND_STUDS, Blocker, SightReport, range_penalty

STUD = 20.0
CLOSE_STUDS = 1.0   # design.md: "close" = the hands can touch, within 1 stud, body to body
ABOVE_LDU = 1000.0  # vertical rays for ground heights start this far above the decor's top
MERGED_BATCH_RAYS = 4096  # batches this big, whose segments pass near bodies
MERGED_NEAR_SHARE = 0.5   # ... more than this often (body-segment pairs per segment), cast bodies through one
                          # merged scene (rebuilt on first use after a move); others cast each body near them


@dataclass
class Body:
    """A unit or a vehicle in the world: its template, where it stands, and whether it is there."""

    id: str
    kind: str                 # 'unit' | 'vehicle' | 'door' (a closed door filling its cell)
    side: str | None
    template: Template
    index: int                # row in World.poses
    position: tuple[float, float] | None = None  # studs
    facing: float = 270.0
    flying: bool = False


@dataclass(frozen=True)
class BodySpec:
    """A body to put in a world built from raw meshes (tests, benchmarks)."""

    id: str
    template: str             # key into the templates given to World
    position: tuple[float, float] | None
    facing: float = 270.0
    kind: str = "unit"
    side: str | None = None
    flying: bool = False


class World:
    """Decor (static), bodies (movable) and the queries of contract C2 on them."""

    def __init__(self, decor: SightMesh, templates: dict[str, Template], bodies: list[BodySpec],
                 instances: list[PartInstance] | None = None, cover_threshold: float = COVER_THRESHOLD,
                 range_band_studs: float = RANGE_BAND_STUDS, scene=None, decor_model: Model | None = None):
        self.decor = decor
        self.decor_scene = TriangleScene(decor)
        self.instances = instances or []
        self.decor_model = decor_model
        self.cover_threshold = float(cover_threshold)
        self.range_band_studs = float(range_band_studs)
        self.scene = scene
        self.library: Library | None = None
        self.templates = templates
        self.bounds = decor.bounds()
        self.bodies: dict[str, Body] = {}
        self.poses = np.tile(np.eye(4), (len(bodies), 1, 1))
        self.active = np.zeros(len(bodies), bool)
        self._shapes = []
        self._grid = None
        self._version = 0        # bumped by place() and remove()
        self._merged = (-1, None, None)
        self._file_names: dict[str, str] = {}
        for row, spec in enumerate(bodies):
            if spec.id in self.bodies:
                raise UserInputError(f"two bodies share the id {spec.id!r}")
            tpl = templates[spec.template]
            self.bodies[spec.id] = Body(spec.id, spec.kind, spec.side, tpl, row, None, spec.facing, spec.flying)
            self._shapes.append(tpl.shape)
            if spec.position is not None and self.is_on_battlefield(spec.position):
                self.place(spec.id, spec.position, spec.facing)

    # ----- construction -------------------------------------------------------------------------
    @classmethod
    def from_scene(cls, scene, library: Library | None = None, keep_studs: bool = False) -> "World":
        """The world of a loaded scene (C1): the battlefield as decor, one body per unit and vehicle."""
        library = library or Library.from_env()
        decor_model = load_model(scene.battlefield_path, library)
        templates: dict[str, Template] = {}
        specs = []
        for kind, entries in (("unit", scene.units), ("vehicle", scene.vehicles)):
            for entry in entries:
                key = str(entry.model)
                if key not in templates:
                    templates[key] = template_from_model(key, _load_body_model(scene, key, library))
                sheet = scene.sheet(entry.sheet)
                specs.append(BodySpec(entry.id, key, tuple(entry.position) if entry.position is not None else None,
                                      float(entry.facing), kind, entry.side, bool(getattr(sheet, "flying", False))))
        for door in getattr(scene, "doors", None) or []:
            key = f"door:{door.height_ldu:g}"
            if key not in templates:
                templates[key] = door_template(door.height_ldu)
            specs.append(BodySpec(door.id, key, _cell_centre(door.cell), 270.0, "door"))
        ruleset = scene.ruleset
        world = cls(sight_mesh(decor_model, keep_studs), templates, specs, decor_model.instances,
                    ruleset.cover_threshold, ruleset.range_band_studs, scene, decor_model)
        world.library = library
        for door in getattr(scene, "doors", None) or []:
            if door.open:
                world.remove(door.id)
        return world

    def set_door(self, door: str, cell: tuple[int, int], open: bool) -> None:
        """Open (take away) or close (put back) a door: closed, it fills its cell up to its height,
        blocking sight (named as a blocker), moves and vehicle sweeps (BOW §2.3.3)."""
        if open:
            self.remove(door)
        else:
            self.place(door, _cell_centre(cell), 270.0)

    # ----- bodies -------------------------------------------------------------------------------
    def body(self, id: str, *, placed: bool = True) -> Body:
        """The body with this id; a one-line UserInputError listing the valid ids otherwise."""
        body = self.bodies.get(id)
        if body is None:
            raise UserInputError(f"unknown unit or vehicle {id!r} (known: {', '.join(self.bodies) or 'none'})")
        if placed and not self.active[body.index]:
            on = [b for b in self.bodies if self.active[self.bodies[b].index]]
            raise UserInputError(f"{id} is not on the battlefield (aboard a vehicle, removed, or outside it); "
                                 f"on it: {', '.join(on) or 'none'}")
        return body

    def place(self, id: str, position: tuple[float, float], facing_deg: float) -> None:
        """Move (or put back) a unit or vehicle: a new pose, resting on the decor below. No rebuild."""
        body = self.body(id, placed=False)
        ground = self.rest_height(body.template, body_pose(position[0], position[1], facing_deg, 0.0))
        body.position, body.facing = (float(position[0]), float(position[1])), float(facing_deg) % 360.0
        self.poses[body.index] = body_pose(position[0], position[1], facing_deg, ground)
        self.active[body.index] = True
        self._version += 1

    def is_on_battlefield(self, position: tuple[float, float]) -> bool:
        """A position (studs) over the decor's box seen from above; units elsewhere are left out."""
        x, y = position[0] * STUD, position[1] * STUD
        return bool(self.bounds[0, 0] <= x <= self.bounds[1, 0] and self.bounds[0, 1] <= y <= self.bounds[1, 1])

    def remove(self, id: str) -> None:
        """Take a unit or vehicle off the battlefield (dead, or aboard a vehicle)."""
        self.active[self.body(id, placed=False).index] = False
        self._version += 1

    def head(self, id: str) -> np.ndarray:
        """(3,) float64 world head point (the eye) of a placed body, LDU."""
        body = self.body(id)
        pose = self.poses[body.index]
        return pose[:3, :3] @ body.template.head + pose[:3, 3]

    def footprint(self, id: str, grow_ldu: float = 0.0) -> np.ndarray:
        """(4, 2) world XY corners of a placed body's footprint (front-left first, counter-clockwise)."""
        body = self.body(id)
        return footprint_corners(body.template, self.poses[body.index], grow_ldu)

    def enemies_of(self, id: str) -> list[str]:
        side = self.body(id).side
        return [b.id for b in self.bodies.values() if b.kind == "unit" and b.side != side and self.active[b.index]]

    # ----- heights ------------------------------------------------------------------------------
    def ground_heights(self, xy_ldu: np.ndarray) -> np.ndarray:
        """(N,) float64: height of the highest decor surface above each world XY point (N, 2);
        -inf where there is none (off the battlefield)."""
        xy = np.asarray(xy_ldu, np.float64).reshape(-1, 2)
        top = self.bounds[1, 2] + ABOVE_LDU
        origins = np.column_stack([xy, np.full(len(xy), top)]).astype(np.float32)
        dirs = np.broadcast_to(np.array([0, 0, -1], np.float32), origins.shape).copy()
        span = np.full(len(xy), top - self.bounds[0, 2] + 1.0, np.float32)
        t, _ = self.decor_scene.first_hit(origins, dirs, span)
        return np.where(np.isfinite(t), top - t.astype(np.float64), -np.inf)

    def ground_height(self, x_studs: float, y_studs: float) -> float:
        """Height (LDU) of the decor under a point given in studs; -inf off the battlefield."""
        return float(self.ground_heights(np.array([[x_studs * STUD, y_studs * STUD]]))[0])

    def rest_height(self, template: Template, pose: np.ndarray) -> float:
        """The z a body rests at (C1: its lowest point on whatever is below): the smallest lift that
        keeps every column of its underside on or above the decor under it (0 over nothing)."""
        soles = template.soles
        xy = soles[:, :2] @ pose[:2, :2].T + pose[:2, 3]
        ground = self.ground_heights(xy)
        lift = ground - soles[:, 2]
        lift = lift[np.isfinite(lift)]
        return float(lift.max()) if lift.size else 0.0

    # ----- sight --------------------------------------------------------------------------------
    def sight(self, firer: str, target: str) -> SightReport:
        """Rays from the firer's eye to the target's samples facing it (design.md, BOW §2.4.2)."""
        f, t = self.body(firer), self.body(target)
        if f.id == t.id:
            raise UserInputError(f"{firer} cannot be its own target")
        eye = self.head(firer)
        points, facing = facing_samples(t.template, self.poses[t.index], eye)
        points = points[facing]
        seen, hider, blockers = self.cast_sight(eye, points, skip=(f.index, t.index))
        fraction = float(seen.mean()) if len(seen) else 0.0
        visible = bool(seen.any())
        covered = visible and (1.0 - fraction) >= self.cover_threshold - 1e-12
        dist = self.distance_studs(firer, target)
        return SightReport(firer, target, visible, fraction, covered, dist, range_penalty(dist, self.range_band_studs),
                           self.in_front_arc(firer, target), tuple(blockers), self.cover_threshold, eye, points,
                           seen, hider)

    def cast_sight(self, eye: np.ndarray, points: np.ndarray, skip: tuple[int, ...] = (), describe: bool = True
                   ) -> tuple[np.ndarray, np.ndarray, list[Blocker]]:
        """Segments from one eye (3,) to many points (K, 3), the bodies in `skip` (indices) ignored:
        (seen (K,) bool, blocker index (K,) int32, blockers); `describe=False` skips naming the
        blockers (index -1 and an empty list: the batch mode of heatmaps)."""
        delta = points - eye
        dist = np.linalg.norm(delta, axis=1)
        dirs = (delta / np.maximum(dist, 1e-9)[:, None]).astype(np.float32)
        origins = np.broadcast_to(eye.astype(np.float32), dirs.shape).copy()
        tfar = np.maximum(dist - SAMPLE_STANDOFF_LDU, 0.0).astype(np.float32)
        t_decor, prim = self.decor_scene.first_hit(origins, dirs, tfar)
        active = self.active.copy()
        active[list(skip)] = False
        # Bodies only up to the decor's hit: segments already stopped by decor pass near fewer bodies.
        limit = np.minimum(tfar, t_decor)
        near = near_bodies(origins, dirs, limit, self._shapes, self.poses, np.flatnonzero(active), eye)
        if len(points) >= MERGED_BATCH_RAYS and near.sum() > MERGED_NEAR_SHARE * len(points):
            t_body, body = self._cast_merged(eye, origins, dirs, limit, active, skip)
        else:
            t_body, body, _ = cast_bodies(origins, dirs, limit, self._shapes, self.poses, active, eye, near)
        by_body = np.isfinite(t_body) & (t_body < t_decor)
        by_decor = np.isfinite(t_decor) & ~by_body
        # One key per blocker: decor instance index, or -(body index) - 2.
        key = np.full(len(points), np.iinfo(np.int64).min, np.int64)
        key[by_decor] = self.decor.tri_instance[prim[by_decor]]
        key[by_body] = -body[by_body].astype(np.int64) - 2
        seen = ~(by_decor | by_body)
        hider = np.full(len(points), -1, np.int32)
        blockers = []
        if describe and (~seen).any():
            keys, inverse, counts = np.unique(key[~seen], return_inverse=True, return_counts=True)
            order = np.argsort(-counts, kind="stable")
            rank = np.empty_like(order)
            rank[order] = np.arange(len(order))
            hider[~seen] = rank[inverse]
            blockers = [self._blocker(int(keys[i]), counts[i] / len(points)) for i in order]
        return seen, hider, blockers

    def _cast_merged(self, eye, origins, dirs, limit, active, skip) -> tuple[np.ndarray, np.ndarray]:
        """Bodies through the merged scene. An eye inside an ignored body (the firer's own head) would
        make every ray go on past it: the merged scene is entered where the rays leave that body's
        box, and the stretch before is cast on each body near it instead."""
        start = np.zeros(len(origins), np.float32)
        for b in skip:
            box = self._shapes[b].box
            local_eye = (eye - self.poses[b, :3, 3]) @ self.poses[b, :3, :3]
            if (local_eye >= box[0]).all() and (local_eye <= box[1]).all():
                local_dirs = (dirs @ self.poses[b, :3, :3]).astype(np.float32)
                start = np.maximum(start, box_exit(np.broadcast_to(local_eye, dirs.shape).astype(np.float32),
                                                   local_dirs, box))
        start = np.minimum(start, limit)
        scene, owner = self._merged_bodies()
        t_far, b_far = cast_merged(scene, owner, origins, dirs, limit, ~active, start)
        if not start.any():
            return t_far, b_far
        t_near, b_near, _ = cast_bodies(origins, dirs, start, self._shapes, self.poses, active, eye)
        near = np.isfinite(t_near)
        return np.where(near, t_near, t_far), np.where(near, b_near, b_far)

    def _decor_names(self, index: int) -> tuple[str, str, str, int]:
        """(part, colour name, file name, line) of a decor instance, worked out once per file."""
        inst = self.instances[index]
        file = self._file_names.get(inst.file)
        if file is None:
            file = self._file_names[inst.file] = Path(inst.file).name
        return inst.name, inst.colour_name, file, inst.line

    def _merged_bodies(self) -> tuple[TriangleScene, np.ndarray]:
        """One Embree scene of every body where it stands, rebuilt on first use after a move."""
        if self._merged[0] != self._version:
            self._merged = (self._version, *merged_bodies(self._shapes, self.poses, self.active))
        return self._merged[1], self._merged[2]

    def _blocker(self, key: int, share: float) -> Blocker:
        if key >= 0 or key == -1:
            if 0 <= key < len(self.instances):
                part, colour, file, line = self._decor_names(key)
                return Blocker("decor", float(share), part=part, colour=colour, file=file, line=line)
            return Blocker("decor", float(share), part="decor")
        body = next(b for b in self.bodies.values() if b.index == -key - 2)
        return Blocker(body.kind, float(share), id=body.id)

    # ----- distances and arcs -------------------------------------------------------------------
    def distance_studs(self, a: str, b: str) -> float:
        """Head to head, in 3D, in studs (BOW §2.4.2: the ruler from the firer's head)."""
        return float(np.linalg.norm(self.head(a) - self.head(b)) / STUD)

    def in_front_arc(self, viewer: str, target: str, arc_deg: float = 180.0) -> bool:
        """The target's centre lies within arc_deg/2 of the viewer's facing (edges included)."""
        v = self.body(viewer)
        if arc_deg >= 360.0:
            return True
        d = self.poses[self.body(target).index, :2, 3] - self.poses[v.index, :2, 3]
        norm = float(np.hypot(*d))
        if norm < 1e-9:
            return True
        facing = math.radians(v.facing)
        cos_angle = (d[0] * math.cos(facing) + d[1] * math.sin(facing)) / norm
        return cos_angle >= math.cos(math.radians(arc_deg / 2.0)) - 1e-9

    def body_gap_studs(self, a: str, b: str) -> float:
        """Closest distance between two footprints seen from above, in studs (0 when they overlap)."""
        return rectangle_gap(self.footprint(a), self.footprint(b)) / STUD

    def within_reach(self, attacker: str, target: str, reach_studs: float) -> bool:
        """Melee (design.md): body to body within the weapon's reach, target in the front arc."""
        return self.body_gap_studs(attacker, target) <= reach_studs + 1e-9 and self.in_front_arc(attacker, target)

    def is_close(self, a: str, b: str) -> bool:
        """Grab, give, treat, doors: the two bodies within 1 stud of each other."""
        return self.body_gap_studs(a, b) <= CLOSE_STUDS + 1e-9

    # ----- grid and vehicles (bow3d.world.grid, bow3d.world.vehicles) -------------------------
    @property
    def grid(self):
        if self._grid is None:
            from bow3d.world.grid import StudGrid
            self._grid = StudGrid.build(self)
        return self._grid

    def reachable_cells(self, unit: str, move_studs: int) -> dict[tuple[int, int], int]:
        return self.grid.reachable(self, unit, move_studs)

    def path(self, unit: str, to: tuple[int, int], move_studs: int) -> list[tuple[int, int]] | None:
        return self.grid.path(self, unit, tuple(to), move_studs)

    def can_throw(self, unit: str, to: tuple[int, int], max_studs: float) -> bool:
        return self.grid.can_throw(self, unit, tuple(to), max_studs)

    def free_cells_near(self, vehicle: str) -> list[tuple[int, int]]:
        return self.grid.free_cells_near(self, vehicle)

    def sweep(self, vehicle: str, distance_studs: float):
        from bow3d.world.vehicles import sweep
        return sweep(self, vehicle, distance_studs)

    def turn_contacts(self, vehicle: str, delta_deg: float):
        from bow3d.world.vehicles import turn_contacts
        return turn_contacts(self, vehicle, delta_deg)


def _cell_centre(cell) -> tuple[float, float]:
    return (float(cell[0]) + 0.5, float(cell[1]) + 0.5)


def door_template(height_ldu: float) -> Template:
    """A closed door as a body: a block filling one stud cell (20 x 20 LDU) up to `height_ldu`."""
    return template_from_mesh("door", box_mesh((-10.0, -10.0, 0.0), (10.0, 10.0, height_ldu)))


def rectangle_gap(a: np.ndarray, b: np.ndarray) -> float:
    """Distance between two convex quadrilaterals (4, 2); 0 when they overlap."""
    if _overlap(a, b):
        return 0.0
    return float(min(_points_to_edges(a, b).min(), _points_to_edges(b, a).min()))


def _overlap(a: np.ndarray, b: np.ndarray) -> bool:
    """Separating-axis test for two convex quadrilaterals."""
    for poly in (a, b):
        edges = np.roll(poly, -1, axis=0) - poly
        axes = np.column_stack([-edges[:, 1], edges[:, 0]])
        pa, pb = a @ axes.T, b @ axes.T
        if ((pa.max(axis=0) < pb.min(axis=0) - 1e-9) | (pb.max(axis=0) < pa.min(axis=0) - 1e-9)).any():
            return False
    return True


def _points_to_edges(points: np.ndarray, poly: np.ndarray) -> np.ndarray:
    """(P, E) distances from points to the polygon's edges."""
    start, end = poly, np.roll(poly, -1, axis=0)
    seg = end - start
    rel = points[:, None, :] - start[None]
    u = np.clip(np.einsum("pek,ek->pe", rel, seg) / np.maximum((seg ** 2).sum(1), 1e-12), 0, 1)
    return np.linalg.norm(rel - u[..., None] * seg[None], axis=2)


def _load_body_model(scene, name: str, library: Library) -> Model:
    """A unit's or vehicle's model: a file next to the scene, else a library part or model."""
    path = Path(scene.resolve(name))
    if path.is_file():
        return load_model(path, library)
    found = library.find(name)
    if found is None:
        raise UserInputError(f"{scene.path}: model {name!r} is neither a file next to the scene "
                             f"nor a part of the library ({library.describe()})")
    return load_model(found, library)
