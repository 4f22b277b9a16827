"""The World: decor, bodies and the geometric questions the rules ask (contract C2).

Layer: world (imports ldraw and scene, never rules). Units: LDU inside, studs at the surface of
the API (positions, distances, reach; other units where a query takes `unit`, see bow3d.units),
degrees for facings and arcs. Queries beyond C2 (measures, bases, radius, cone, template,
segment) live in bow3d.world.queries; rules-driven decor changes in bow3d.world.changes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bow3d.errors import UserInputError
from bow3d.i18n import _
from bow3d.ldraw import Library, Model, PartInstance, load_model
from bow3d.scene.seats import read_seats
from bow3d.units import LDU_PER_BRICK, LDU_PER_STUD as STUD
from bow3d.world import changes, plan, queries
from bow3d.world.bodies import (
    SAMPLE_STANDOFF_LDU,
    BodySpec,
    Template,
    body_pose,
    facing_samples,
    footprint_corners,
    parse_base,
    template_from_mesh,
    template_from_model,
)
from bow3d.world.materials import GLASS, STONE, UNIT, MaterialTable, classify_instances
from bow3d.world.raycast import (
    CONTINUE_LDU,
    BodyShape,
    SightMesh,
    TriangleScene,
    box_exit,
    box_mesh,
    cast_bodies,
    cast_merged,
    merged_bodies,
    near_bodies,
    sight_mesh,
)
from bow3d.world.report import Blocker, Crossing, SightReport
from bow3d.world.sight import SightMethod, sight_method as sight_method_named, silhouette_rays

CLOSE_STUDS = 1.0   # design.md: "close" = the hands can touch, within 1 stud, body to body
MAX_GLASS_LAYERS = 8  # transparent surfaces a sight line goes on past (then the next one stops it)
ABOVE_LDU = 1000.0  # vertical rays for ground heights start this far above the decor's top
MERGED_BATCH_RAYS = 4096  # batches this big, whose segments pass near bodies
MERGED_NEAR_SHARE = 0.5   # ... more than this often (body-segment pairs per segment), cast bodies through one
                          # merged scene (rebuilt on first use after a move); others cast each body near them
CONE_CULL_BODIES = 64     # with more active bodies than this, a sight's rays are first culled as one cone
                          # (fewer would cost more to cull than the per-ray test it saves; same answers)
REST_HEIGHTS_KEPT = 20_000  # poses whose rest height World.place remembers (emptied when full)
FOOTING_SAMPLES = (-0.4, 0.0, 0.4)  # studs across a minifig's base where `footing` looks at the decor


@dataclass
class Body:
    """A unit or a vehicle in the world: its template, where it stands, and whether it is there."""

    id: str
    kind: str                 # 'unit' | 'vehicle' | 'door' (a closed door filling its cell) | 'obstacle'
    side: str | None
    template: Template
    index: int                # row in World.poses
    position: tuple[float, float] | None = None  # studs
    facing: float = 270.0
    flying: bool = False
    material: str = UNIT      # bow3d.world.materials
    base_studs: tuple[float, float] | None = None  # (width across the facing, depth along it); None: the model's
    seat: tuple[str, int] | None = None  # (vehicle id, seat index) while seated in a vehicle (bow3d.world.seats)


class World:
    """Decor (static), bodies (movable) and the queries of contract C2 on them."""

    def __init__(self, decor: SightMesh, templates: dict[str, Template], bodies: list[BodySpec],
                 instances: Sequence[PartInstance] | None = None, scene=None, decor_model: Model | None = None,
                 materials: Mapping[str, str] | MaterialTable | None = None,
                 sight_method: str | SightMethod | None = None, studs: SightMesh | None = None):
        # How sight is measured (bow3d.world.sight: the rays, the sight geometry, what glass does). A
        # replay records it and is re-played on a world built with the same method.
        self.method = sight_method_named(sight_method)
        self.decor = decor
        self.decor_scene = TriangleScene(decor)
        self.instances = instances or []
        self.decor_model = decor_model
        self.scene = scene
        self.library: Library | None = None
        self.templates = templates
        self.bounds = decor.bounds()
        self.material_table = materials if isinstance(materials, MaterialTable) else \
            MaterialTable.from_overrides(materials)
        # Per decor instance, once: (I, 2, 3) box of its sight triangles (LDU) and (I,) material name.
        self.decor_boxes = decor.boxes(max(len(self.instances), int(decor.tri_instance.max(initial=-1)) + 1))
        named = classify_instances(self.material_table, self.instances, decor_model)
        self.decor_materials = np.concatenate([named, np.full(self.decor_boxes.shape[0] - len(named),
                                                               self.material_table.default)])
        self.decor_transparent = self.decor_materials == GLASS  # (I,) bool: glass, seen through (silhouette-1)
        self._studs = studs   # stand-in studs (bow3d.world.studs), built on the first sight when None
        self._studs_scene: TriangleScene | None = None  # the decor with them, for sight (`_sight_scene`)
        self.removed_decor = np.zeros(self.decor_boxes.shape[0], bool)  # hidden by remove_decor
        self.bodies: dict[str, Body] = {}
        self._rows: list[Body] = []  # bodies by row of poses
        self.poses = np.zeros((0, 4, 4))
        self.active = np.zeros(0, bool)
        self._base_local = np.zeros((0, 4))  # per row: the base rectangle x0, x1, y0, y1 in the body frame, LDU
        self._shapes: list[BodyShape] = []
        self._grid = None
        self._version = 0        # bumped by place(), remove() and decor changes
        self._merged: tuple[int, TriangleScene | None, np.ndarray | None] = (-1, None, None)
        self._rest_heights: dict[tuple, tuple[Template, float]] = {}   # see _rest_height_at
        self._file_names: dict[str, str] = {}
        self._add_bodies([(spec, templates[spec.template]) for spec in bodies])
        self.material_table.check_bodies({b.id: b.kind for b in self._rows})
        self.missing_parts = _missing_parts(self.instances, decor_model, templates.values())
        for spec in bodies:
            if spec.position is not None and self.is_on_battlefield(spec.position):
                self.place(spec.id, spec.position, spec.facing)

    @property
    def SIGHT_METHOD(self) -> str:  # noqa: N802 (the name replays and verify have always read)
        """The name of the sight method this world measures with (a replay header's `sight`)."""
        return self.method.name

    def _add_bodies(self, entries: list[tuple[BodySpec, Template]]) -> None:
        """New rows for bodies (not placed yet): grows poses, active, shapes and bases together."""
        start = len(self._rows)
        self.poses = np.concatenate([self.poses, np.tile(np.eye(4), (len(entries), 1, 1))])
        self.active = np.concatenate([self.active, np.zeros(len(entries), bool)])
        bases = np.zeros((len(entries), 4))
        for k, (spec, tpl) in enumerate(entries):
            if spec.id in self.bodies:
                raise UserInputError(_("two bodies share the id {id!r}").format(id=spec.id))
            material = self.material_table.body_material(spec.kind, spec.id, spec.material)
            base = (float(spec.base_studs[0]), float(spec.base_studs[1])) if spec.base_studs is not None else None
            body = Body(spec.id, spec.kind, spec.side, tpl, start + k, None, spec.facing, spec.flying, material, base)
            self.bodies[spec.id] = body
            self._rows.append(body)
            self._shapes.append(tpl.shape)
            bases[k] = tpl.footprint if base is None else \
                np.array([-base[0], base[0], -base[1], base[1]]) * (STUD / 2.0)
        self._base_local = np.concatenate([self._base_local, bases])

    # ----- construction -------------------------------------------------------------------------
    @classmethod
    def from_scene(cls, scene, library: Library | None = None, keep_studs: bool = False,
                   sight_method: str | SightMethod | None = None) -> World:
        """The world of a loaded scene (C1): the battlefield as decor, one body per unit and vehicle,
        occupants seated in their vehicles; sight measured by `sight_method` (bow3d.world.sight; None:
        the default; a replay's world is built with the method its header names). `keep_studs` puts the
        real stud and tube triangles in the decor (the sight method's own choice otherwise)."""
        method = sight_method_named(sight_method)
        library = library or Library.from_env()
        decor_model = load_model(scene.battlefield_path, library)
        decor_model.check_sight(keep_studs)  # before the bodies: a decor too big to measure is refused at once
        materials = MaterialTable.from_overrides(dict(getattr(scene, "materials", None) or {}))
        templates: dict[str, Template] = {}
        specs = []
        for kind, entries in (("unit", scene.units), ("vehicle", scene.vehicles)):
            for entry in entries:
                key = str(entry.model)
                if key not in templates:
                    templates[key] = _body_template(scene, key, library, method, materials, kind)
                sheet = scene.sheet(entry.sheet)
                specs.append(BodySpec(entry.id, key, tuple(entry.position) if entry.position is not None else None,
                                      float(entry.facing), kind, entry.side, bool(getattr(sheet, "flying", False)),
                                      base_studs=parse_base(getattr(entry, "base", None), f"{entry.id}: base")))
        for door in getattr(scene, "doors", None) or []:
            key = f"door:{door.height_ldu:g}"
            if key not in templates:
                templates[key] = door_template(door.height_ldu)
            specs.append(BodySpec(door.id, key, _cell_centre(door.cell), 270.0, "door",
                                  material=getattr(door, "material", None)))
        world = cls(sight_mesh(decor_model, keep_studs), templates, specs, decor_model.instances,
                    scene, decor_model, materials, method,
                    studs=SightMesh(np.zeros((0, 3), np.float32), np.zeros((0, 3), np.int32), np.zeros(0, np.int32))
                    if keep_studs else None)
        world.library = library
        for door in getattr(scene, "doors", None) or []:
            if door.open:
                world.remove(door.id)
        for vehicle in scene.vehicles:  # BOW §3.1: occupants sit in their seats, the first the pilot's
            for seat, unit in enumerate(getattr(vehicle, "occupants", None) or []):
                if unit in world.bodies and vehicle.id in world.bodies:
                    world.seat(unit, vehicle.id, seat)
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
            raise UserInputError(_("unknown unit or vehicle {id!r} (known: {value})")
                                 .format(id=id, value=', '.join(self.bodies) or 'none'))
        if placed and not self.active[body.index]:
            on = [b for b in self.bodies if self.active[self.bodies[b].index]]
            raise UserInputError(_("{id} is not on the battlefield (aboard a vehicle, removed, or "
                                   "outside it); on it: {value}").format(id=id, value=', '.join(on) or 'none'))
        return body

    def place(self, id: str, position: tuple[float, float], facing_deg: float) -> None:
        """Move (or put back) a unit or vehicle: a new pose, resting on the decor below. No rebuild.
        A seated unit gets off its seat; a vehicle's seated occupants move with it."""
        body = self.body(id, placed=False)
        body.seat = None
        ground = self._rest_height_at(body.template, position, facing_deg)
        body.position, body.facing = (float(position[0]), float(position[1])), float(facing_deg) % 360.0
        self.poses[body.index] = body_pose(position[0], position[1], facing_deg, ground)
        self.active[body.index] = True
        if body.kind == "vehicle":
            self.settle_occupants(body.id)
        self._version += 1

    def _rest_height_at(self, template: Template, position: tuple[float, float], facing_deg: float) -> float:
        """rest_height of a body of this template standing at (position, facing), remembered until the decor
        changes (hide_decor): units come back to the same poses (a turn and back, games of the same scene
        starting alike), and each answer costs a batch of rays."""
        key = (id(template), float(position[0]), float(position[1]), float(facing_deg))
        found = self._rest_heights.get(key)
        if found is not None and found[0] is template:   # the template is kept in the entry: its id is not reused
            return found[1]
        if len(self._rest_heights) >= REST_HEIGHTS_KEPT:
            self._rest_heights.clear()
        ground = self.rest_height(template, body_pose(position[0], position[1], facing_deg, 0.0))
        self._rest_heights[key] = (template, ground)
        return ground

    def is_on_battlefield(self, position: tuple[float, float]) -> bool:
        """A position (studs) over the decor's box seen from above; units elsewhere are left out."""
        x, y = position[0] * STUD, position[1] * STUD
        return bool(self.bounds[0, 0] <= x <= self.bounds[1, 0] and self.bounds[0, 1] <= y <= self.bounds[1, 1])

    def remove(self, id: str) -> None:
        """Take a unit or vehicle off the battlefield (dead, gone); a vehicle's seated occupants go with
        it (still seated: they come back with it), a seated unit leaves its seat."""
        body = self.body(id, placed=False)
        body.seat = None if body.kind != "vehicle" else body.seat
        self.active[body.index] = False
        if body.kind == "vehicle":
            for occupant in self.occupants(body.id):
                self.active[self.bodies[occupant].index] = False
        self._version += 1

    # ----- seats (BOW §3.1: occupants are bodies, seen, covered and reached for themselves) -------
    def seat(self, unit: str, vehicle: str, seat: int) -> None:
        """Seat a unit in a vehicle: its body sits at the vehicle's seat `seat` (0 = the pilot's; where
        the model's seat lines say, bow3d.scene.seats; a seat the model does not name: the centre of the
        vehicle's footprint, on its underside, so that the vehicle hides as much of it as it can), faces
        the vehicle's way, moves with it and is on the battlefield while the vehicle is. `place` stands
        it on the ground again; `remove` takes it away."""
        body, carrier = self.body(unit, placed=False), self.body(vehicle, placed=False)
        if body.kind != "unit" or carrier.kind != "vehicle":
            raise UserInputError(_("only a unit sits in a vehicle: {unit} is a {kind}, {vehicle} a "
                                   "{kind2}").format(unit=unit, kind=body.kind, vehicle=vehicle, kind2=carrier.kind))
        if not isinstance(seat, int) or seat < 0:
            raise UserInputError(_("a seat is a number from 0 (the pilot's), got {seat!r}").format(seat=seat))
        body.seat = (carrier.id, int(seat))
        self._pose_occupant(body)
        self._version += 1

    def occupants(self, vehicle: str) -> list[str]:
        """Ids of the units seated in a vehicle, by seat."""
        seated = [(b.seat[1], b.id) for b in self._rows if b.seat is not None and b.seat[0] == vehicle]
        return [uid for _seat, uid in sorted(seated, key=lambda pair: pair[0])]

    def seat_point(self, vehicle: str, seat: int) -> np.ndarray | None:
        """(3,) the point of a vehicle's seat in its body frame (LDU), or None when its model names none."""
        seats = self.body(vehicle, placed=False).template.seats
        return None if seats is None or seat >= len(seats) else seats[seat]

    def settle_occupants(self, vehicle: str | None = None) -> None:
        """Pose the seated units again where their vehicle (any vehicle: None) now stands."""
        for body in self._rows:
            if body.seat is not None and (vehicle is None or body.seat[0] == vehicle):
                self._pose_occupant(body)

    def _pose_occupant(self, body: Body) -> None:
        assert body.seat is not None  # only seated bodies are posed in a vehicle
        carrier = self.bodies[body.seat[0]]
        local = np.eye(4)
        point = self.seat_point(carrier.id, body.seat[1])
        if point is None:
            x0, x1, y0, y1 = carrier.template.footprint
            local[:3, 3] = ((x0 + x1) / 2.0, (y0 + y1) / 2.0, 0.0)
        else:
            local[:3, 3] = point - np.array([0.0, 0.0, body.template.origin_z])
        self.poses[body.index] = self.poses[carrier.index] @ local
        self.active[body.index] = self.active[carrier.index]
        body.position = (float(self.poses[body.index, 0, 3] / STUD), float(self.poses[body.index, 1, 3] / STUD))
        body.facing = carrier.facing

    def head(self, id: str) -> np.ndarray:
        """(3,) float64 world head point (the eye) of a placed body, LDU."""
        body = self.body(id)
        pose = self.poses[body.index]
        return pose[:3, :3] @ body.template.head + pose[:3, 3]

    def footprint(self, id: str, grow_ldu: float = 0.0) -> np.ndarray:
        """(4, 2) world XY corners of a placed body's footprint (front-left first, counter-clockwise)."""
        body = self.body(id)
        return footprint_corners(body.template, self.poses[body.index], grow_ldu)

    def enemies_of(self, id: str, kinds: tuple[str, ...] = ("unit",)) -> list[str]:
        """The active bodies of `kinds` ("unit", "vehicle") on another side than `id`'s, in scene order."""
        side = self.body(id).side
        return [b.id for b in self.bodies.values() if b.kind in kinds and b.side != side
                and self.active[b.index]]

    # ----- heights ------------------------------------------------------------------------------
    def ground_heights(self, xy_ldu: np.ndarray) -> np.ndarray:
        """(N,) float64: height of the highest decor surface above each world XY point (N, 2);
        -inf where there is none (off the battlefield)."""
        xy = np.asarray(xy_ldu, np.float64).reshape(-1, 2)
        top = self.bounds[1, 2] + ABOVE_LDU
        origins = np.column_stack([xy, np.full(len(xy), top)]).astype(np.float32)
        dirs = np.broadcast_to(np.array([0, 0, -1], np.float32), origins.shape).copy()
        span = np.full(len(xy), top - self.bounds[0, 2] + 1.0, np.float32)
        t, _unused = self.decor_scene.first_hit(origins, dirs, span)
        return np.where(np.isfinite(t), top - t.astype(np.float64), -np.inf)

    def ground_height(self, x_studs: float, y_studs: float) -> float:
        """Height (LDU) of the decor under a point given in studs; -inf off the battlefield."""
        return float(self.ground_heights(np.array([[x_studs * STUD, y_studs * STUD]]))[0])

    def footing(self, points_studs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For one-stud bases centred at (N, 2) points (studs): (N,) the decor's height under each centre
        (LDU, -inf over nothing) and (N,) the drop between the highest and the lowest decor under each base
        (0 on even ground): a unit whose base straddles a wall or a roof's edge rests on the highest part (C1)
        and overhangs the rest, which a player who placed it inside the wall did not mean. One batch of rays."""
        centres = np.asarray(points_studs, np.float64).reshape(-1, 1, 2)
        samples = centres + np.array([(dx, dy) for dx in FOOTING_SAMPLES for dy in FOOTING_SAMPLES])
        heights = self.ground_heights(samples.reshape(-1, 2) * STUD).reshape(len(centres), -1)
        found = np.isfinite(heights)
        top = np.where(found, heights, -np.inf).max(axis=1)
        low = np.where(found, heights, np.inf).min(axis=1)
        middle = heights[:, len(FOOTING_SAMPLES) ** 2 // 2]   # (0, 0): the centre
        return middle, np.where(found.any(axis=1), top - low, 0.0)

    def rest_height(self, template: Template, pose: np.ndarray) -> float:
        """The z a body rests at (C1: its lowest point on whatever is below): the smallest lift that
        keeps every column of its underside on or above the decor under it (0 over nothing)."""
        soles = template.soles
        assert soles is not None  # every template built has its soles
        xy = soles[:, :2] @ pose[:2, :2].T + pose[:2, 3]
        ground = self.ground_heights(xy)
        lift = ground - soles[:, 2]
        lift = lift[np.isfinite(lift)]
        return float(lift.max()) if lift.size else 0.0

    # ----- sight --------------------------------------------------------------------------------
    def sight(self, firer: str, target: str) -> SightReport:
        """What the firer's eye sees of the target, measured by the world's sight method
        (bow3d.world.sight): the facts (visible fraction, the share seen only through transparent
        parts, blockers along the line of fire with share, material and height, heights, distance);
        the ruleset judges them (cover, range penalty...). The firer's own body and the vehicle it
        rides never hide; a vehicle's own occupants are part of it when it is the target."""
        f, t = self.body(firer), self.body(target)
        if f.id == t.id:
            raise UserInputError(_("{firer} cannot be its own target").format(firer=firer))
        eye = self.head(firer)
        feet = float(self.poses[t.index, 2, 3])
        if self.method.rays == "silhouette":
            dirs, t_hit = silhouette_rays(t.template, self.poses[t.index], eye)
            points = eye + dirs.astype(np.float64) * t_hit[:, None].astype(np.float64)
            tfar = np.maximum(t_hit - np.float32(SAMPLE_STANDOFF_LDU), 0.0).astype(np.float32)
            seen, hider, blockers, by_share, glass = self._cast_rays(eye, dirs, tfar, self._sight_skip(f, t), True,
                                                                     feet)
        else:
            points, facing = facing_samples(t.template, self.poses[t.index], eye)
            points = points[facing]
            seen, hider, blockers, by_share, glass = self._cast(eye, points, (f.index, t.index), True, feet)
        fraction = float(seen.mean()) if len(seen) else 0.0
        visible = bool(seen.any())
        dist = self.distance_studs(firer, target)
        return SightReport(firer, target, visible, fraction, dist, self.in_front_arc(firer, target), tuple(blockers),
                           eye, points,
                           seen, hider, feet, feet + t.template.height, float(self.poses[f.index, 2, 3]),
                           not self.missing_parts, self.missing_parts, by_share,
                           float(glass.mean()) if len(glass) else 0.0, glass, self.method.name)

    def eye_skip(self, viewer: str) -> tuple[int, ...]:
        """Rows that never hide what `viewer` looks at (indices for `cast_sight`): the viewer, the vehicle
        it rides and the crewmates whose box holds its eye (a gunner looks out of its vehicle)."""
        return self._eye_skip(self.body(viewer))

    def _sight_skip(self, firer: Body, target: Body) -> tuple[int, ...]:
        """Rows that never hide the target: the firer's eye_skip, the target, and the target's own
        occupants when it is a vehicle."""
        skip = [*self._eye_skip(firer), target.index]
        if target.kind == "vehicle":
            skip += [b.index for b in self._rows if b.seat is not None and b.seat[0] == target.id]
        return tuple(skip)

    def _eye_skip(self, firer: Body) -> tuple[int, ...]:
        """eye_skip of a body: itself, the vehicle it rides and the crewmates whose box holds its eye
        (seats the model does not name share one point: an eye inside a body looks out of it)."""
        skip = [firer.index]
        if firer.seat is not None:
            skip.append(self.bodies[firer.seat[0]].index)
            eye = self.head(firer.id)
            for mate in self._rows:
                if mate.index != firer.index and mate.seat is not None and mate.seat[0] == firer.seat[0]:
                    pose, box = self.poses[mate.index], mate.template.shape.box
                    local = (eye - pose[:3, 3]) @ pose[:3, :3]
                    if bool(np.all(local >= box[0]) and np.all(local <= box[1])):
                        skip.append(mate.index)
        return tuple(skip)

    def cast_sight(self, eye: np.ndarray, points: np.ndarray, skip: tuple[int, ...] = (), describe: bool = True
                   ) -> tuple[np.ndarray, np.ndarray, list[Blocker]]:
        """Segments from one eye (3,) to many points (K, 3), the bodies in `skip` (indices) ignored:
        (seen (K,) bool, blocker index (K,) int32, blockers nearest to the eye first); `describe=False`
        skips naming the blockers (index -1 and an empty list: the batch mode of heatmaps). Seen means
        nothing at all in the way (transparent parts included)."""
        seen, hider, blockers, _unused, glass = self._cast(eye, points, skip, describe)
        return seen, hider, blockers

    def _cast(self, eye: np.ndarray, points: np.ndarray, skip: tuple[int, ...], describe: bool,
              feet: float = math.nan) -> tuple[np.ndarray, np.ndarray, list[Blocker], tuple[int, ...], np.ndarray]:
        """Segments from the eye to `points` (K, 3), each stopped SAMPLE_STANDOFF_LDU short: `_cast_rays`."""
        delta = points - eye
        dist = np.linalg.norm(delta, axis=1)
        dirs = (delta / np.maximum(dist, 1e-9)[:, None]).astype(np.float32)
        tfar = np.maximum(dist - SAMPLE_STANDOFF_LDU, 0.0).astype(np.float32)
        return self._cast_rays(eye, dirs, tfar, skip, describe, feet)

    def _cast_rays(self, eye: np.ndarray, dirs: np.ndarray, tfar: np.ndarray, skip: tuple[int, ...], describe: bool,
                   feet: float = math.nan
                   ) -> tuple[np.ndarray, np.ndarray, list[Blocker], tuple[int, ...], np.ndarray]:
        """Rays from the eye (3,), unit `dirs` (K, 3) float32, `tfar` (K,) float32 long; the bodies in
        `skip` (rows) ignored. Returns (seen (K,) bool: nothing in the way; blocker index (K,) int32
        (-1 = seen); blockers nearest to the eye first; their order by share (largest first; ties by
        key, bodies first); through glass (K,) bool: only transparent parts in the way, when the
        method sees through them (then the first of them is the ray's blocker; otherwise the first
        opaque thing is)). `feet`: the z heights of blockers are measured from."""
        origins = np.broadcast_to(eye.astype(np.float32), dirs.shape).copy()
        t_decor, key_decor = self._decor_hits(origins, dirs, tfar)
        glassy = self.method.see_through_transparent
        if glassy:
            t_decor, key_decor, gt_decor, gkey_decor = self._past_glass(origins, dirs, tfar, t_decor, key_decor)
        active = self.active.copy()
        active[list(skip)] = False
        # Bodies only up to the decor's hit: segments already stopped by decor pass near fewer bodies.
        limit = np.minimum(tfar, t_decor)
        if self.method.rays == "silhouette" and len(dirs) and np.count_nonzero(active) > CONE_CULL_BODIES:
            active &= self._in_cone(eye, dirs, limit)
        near = near_bodies(origins, dirs, limit, self._shapes, self.poses, np.flatnonzero(active), eye,
                           self._spheres())
        if len(dirs) >= MERGED_BATCH_RAYS and near.sum() > MERGED_NEAR_SHARE * len(dirs):
            t_body, body = self._cast_merged(eye, origins, dirs, limit, active, skip)
            prim = None
        else:
            t_body, body, prim = cast_bodies(origins, dirs, limit, self._shapes, self.poses, active, eye, near)
        by_body = np.isfinite(t_body) & (t_body < t_decor)
        by_decor = np.isfinite(t_decor) & ~by_body
        opaque = by_decor | by_body
        glass = np.zeros(len(dirs), bool)
        if glassy:
            gt_body, gbody = (self._past_glass_bodies(origins, dirs, limit, active, t_body, body, prim)
                              if prim is not None else (np.full(len(dirs), np.inf, np.float32), body))
            if prim is not None:
                # a body hit may be glass (then t_body is the opaque hit behind it): opaque again
                by_body = np.isfinite(t_body) & (t_body < t_decor)
                by_decor = np.isfinite(t_decor) & ~by_body
                opaque = by_decor | by_body
            first_glass = np.minimum(np.where(gt_decor < tfar, gt_decor, np.inf),
                                     np.where(gt_body < limit, gt_body, np.inf))
            glass = ~opaque & np.isfinite(first_glass)
        seen = ~(opaque | glass)
        hider = np.full(len(dirs), -1, np.int32)
        if not describe or seen.all():
            return seen, hider, [], (), glass
        # One key per blocker: decor instance index, or -(body index) - 2; grouped (one sort), nearest hit first.
        hidden = np.nonzero(~seen)[0]
        if glassy and glass.any():  # rays seen only through glass: the nearest glass is their blocker
            through = glass[hidden]
            on_gbody = gt_body[hidden] < gt_decor[hidden]
            on_body = np.where(through, on_gbody, by_body[hidden])
            body_id = np.where(through, gbody[hidden], body[hidden])
            decor_key = np.where(through, gkey_decor[hidden], key_decor[hidden])
            t_b, t_d = np.where(through, gt_body[hidden], t_body[hidden]), np.where(through, gt_decor[hidden],
                                                                                   t_decor[hidden])
        else:
            on_body, body_id, decor_key = by_body[hidden], body[hidden], key_decor[hidden]
            t_b, t_d = t_body[hidden], t_decor[hidden]
        key = np.where(on_body, -body_id.astype(np.int64) - 2, decor_key)
        t_hit = np.where(on_body, t_b, t_d)
        order = np.lexsort((t_hit, key))
        sorted_keys = key[order]
        first = np.empty(len(order), bool)
        first[0] = True
        np.not_equal(sorted_keys[1:], sorted_keys[:-1], out=first[1:])
        starts = np.nonzero(first)[0]
        keys, nearest = sorted_keys[starts].tolist(), t_hit[order[starts]].tolist()
        bounds = starts.tolist() + [len(order)]
        counts = [b - a for a, b in zip(bounds[:-1], bounds[1:])]
        # The few blockers, in Python: along the line (ties by key), and by share (ties by key, as always).
        along = sorted(range(len(keys)), key=lambda i: (nearest[i], keys[i]))
        rank = np.empty(len(keys), np.int32)
        rank[along] = np.arange(len(keys), dtype=np.int32)
        hider[hidden[order]] = rank[np.cumsum(first) - 1]
        by_share = tuple(int(rank[i]) for i in sorted(range(len(keys)), key=lambda i: -counts[i]))
        blockers = [self._blocker(keys[i], counts[i] / len(dirs), nearest[i], feet) for i in along]
        return seen, hider, blockers, by_share, glass

    def _in_cone(self, eye: np.ndarray, dirs: np.ndarray, limit: np.ndarray) -> np.ndarray:
        """(B,) bool: bodies whose bounding sphere the cone of these rays from the eye can reach (a
        conservative cull before the per-ray test)."""
        axis = dirs.astype(np.float64).sum(axis=0)
        axis /= max(float(np.linalg.norm(axis)), 1e-12)
        half = math.acos(min(1.0, max(-1.0, float((dirs @ axis.astype(np.float32)).min()) - 1e-6)))
        local, radii = self._spheres()
        rel = np.einsum("bij,bj->bi", self.poses[:, :3, :3], local) + self.poses[:, :3, 3] - eye
        dist = np.linalg.norm(rel, axis=1)
        cos_phi = np.clip((rel @ axis) / np.maximum(dist, 1e-12), -1.0, 1.0)
        spread = np.arcsin(np.clip(radii / np.maximum(dist, 1e-12), 0.0, 1.0))
        return (dist <= radii) | ((np.arccos(cos_phi) - spread <= half + 1e-6) &
                                  (dist - radii <= float(limit.max()) + 1e-3))

    def _spheres(self) -> tuple[np.ndarray, np.ndarray]:
        """Every body's bounding sphere in its own frame: centres (B, 3) and radii (B,), kept until a
        body is added or changes shape."""
        key = (len(self._shapes), tuple(id(s) for s in self._shapes))
        if getattr(self, "_sphere_key", None) != key:
            self._sphere_key = key
            self._sphere_arrays = (np.array([s.centre for s in self._shapes], np.float64).reshape(-1, 3),
                                   np.array([s.radius for s in self._shapes], np.float64))
        return self._sphere_arrays

    def _decor_hits(self, origins: np.ndarray, dirs: np.ndarray, tfar: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """First decor hit per ray, stand-in studs included when the method keeps studs: (t (N,) float32,
        inf where none; the decor instance hit (N,) int64, meaningful where t is finite)."""
        scene = self._sight_scene() if self.method.keeps_studs else self.decor_scene
        t, prim = scene.first_hit(origins, dirs, tfar)
        key = scene.mesh.tri_instance[np.maximum(prim, 0)].astype(np.int64) if scene.mesh.triangle_count else \
            np.zeros(len(t), np.int64)
        return t, key

    def _is_glass(self, key: np.ndarray, t: np.ndarray) -> np.ndarray:
        inside = (key >= 0) & (key < len(self.decor_transparent))
        return np.isfinite(t) & inside & self.decor_transparent[np.clip(key, 0, max(len(self.decor_transparent) - 1, 0))]

    def _past_glass(self, origins, dirs, tfar, t, key):
        """Rays whose first decor hit is transparent go on past it (MAX_GLASS_LAYERS at most): (t, key) of
        the first opaque decor hit, and (t, key) of the first transparent one (inf where none)."""
        t, key = t.copy(), key.copy()
        gt, gkey = np.full(len(t), np.inf, np.float32), np.full(len(t), -1, np.int64)
        if not self.decor_transparent.any():
            return t, key, gt, gkey
        rows = np.flatnonzero(self._is_glass(key, t))
        gt[rows], gkey[rows] = t[rows], key[rows]
        for _unused in range(MAX_GLASS_LAYERS):
            if rows.size == 0:
                break
            start = t[rows] + np.float32(CONTINUE_LDU)
            o = np.ascontiguousarray(origins[rows] + start[:, None] * dirs[rows], np.float32)
            t2, k2 = self._decor_hits(o, np.ascontiguousarray(dirs[rows]), np.maximum(tfar[rows] - start, 0.0))
            t[rows], key[rows] = np.where(np.isfinite(t2), start + t2, np.inf), k2
            rows = rows[self._is_glass(k2, t2)]
        return t, key, gt, gkey

    def _past_glass_bodies(self, origins, dirs, limit, active, t_body, body, prim):
        """Body hits on transparent triangles (a windscreen) go on past them, in place on (t_body, body):
        returns (t, body) of the first transparent body hit (inf where none)."""
        gt, gbody = np.full(len(t_body), np.inf, np.float32), np.full(len(t_body), -1, np.int32)
        glassy_rows = self._glassy_rows()
        if not glassy_rows.any():
            return gt, gbody
        for _unused in range(MAX_GLASS_LAYERS):
            hit = np.flatnonzero(np.isfinite(t_body) & (body >= 0))
            hit = hit[glassy_rows[body[hit]]]
            glassy = np.zeros(hit.size, bool)
            for b in np.unique(body[hit]):   # a few glassy bodies, many rays: one lookup per body
                on = body[hit] == b
                glassy[on] = self._rows[b].template.transparent[prim[hit][on]]
            rows = hit[glassy]
            if rows.size == 0:
                break
            first = ~np.isfinite(gt[rows])
            gt[rows[first]], gbody[rows[first]] = t_body[rows[first]], body[rows[first]]
            start = t_body[rows] + np.float32(CONTINUE_LDU)
            o = np.ascontiguousarray(origins[rows] + start[:, None] * dirs[rows], np.float32)
            t2, b2, p2 = cast_bodies(o, np.ascontiguousarray(dirs[rows]), np.maximum(limit[rows] - start, 0.0),
                                     self._shapes, self.poses, active)
            t_body[rows] = np.where(np.isfinite(t2), start + t2, np.inf)
            body[rows], prim[rows] = b2, p2
        return gt, gbody

    def _glassy_rows(self) -> np.ndarray:
        """(B,) bool: bodies whose model has transparent triangles, kept until a body is added or
        changes model."""
        key = tuple(id(r.template) for r in self._rows)
        if getattr(self, "_glassy_key", None) != key:
            self._glassy_key = key
            self._glassy = np.array([r.template.transparent is not None and bool(r.template.transparent.any())
                                     for r in self._rows], bool)
        return self._glassy

    def _sight_scene(self) -> TriangleScene:
        """The decor as sight sees it: its triangles and the stand-in studs (bow3d.world.studs) in one
        scene, built on first use (the decor scene itself when there are no stand-ins); decor hidden is
        hidden there too."""
        if self._studs_scene is None:
            if self._studs is None:
                from bow3d.world.studs import standin_studs

                self._studs = standin_studs(self.decor_model) if self.decor_model is not None else None
            if self._studs is None or self._studs.triangle_count == 0:
                self._studs_scene = self.decor_scene
                return self._studs_scene
            offset = self.decor.positions.shape[0]
            self._studs_scene = TriangleScene(SightMesh(
                np.concatenate([self.decor.positions, self._studs.positions]),
                np.concatenate([self.decor.triangles, self._studs.triangles + offset]).astype(np.int32),
                np.concatenate([self.decor.tri_instance, self._studs.tri_instance]).astype(np.int32)))
            if self.decor_scene.hidden is not None:
                self._studs_scene.hide(np.flatnonzero(self.decor_scene.hidden))
        return self._studs_scene

    def hide_decor(self, instances, hidden: bool = True) -> None:
        """Hide (or show again) decor instances in every decor scene (the stand-in studs' too)."""
        self.decor_scene.hide(instances, hidden)
        self._rest_heights.clear()   # the ground changed
        if self._studs_scene is not None and self._studs_scene is not self.decor_scene:
            self._studs_scene.hide(instances, hidden)

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
        t_near, b_near, _unused = cast_bodies(origins, dirs, start, self._shapes, self.poses, active, eye)
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
        _version, scene, owner = self._merged
        assert scene is not None and owner is not None  # built above
        return scene, owner

    def _blocker(self, key: int, share: float, t_ldu: float, feet: float) -> Blocker:
        """A blocker from its key (decor instance >= 0 or -1, else -(body row) - 2), its share, and the
        distance (LDU) from the eye to its nearest hit."""
        if key < -1:
            body = self._rows[-key - 2]
            top = float(self.poses[body.index, 2, 3]) + body.template.height
            return Blocker(body.kind, float(share), body.id, None, None, None, None, body.material, t_ldu / STUD,
                           top, top - feet)
        if key == -1:
            return Blocker("decor", float(share), None, "decor", None, None, None, self.material_table.default,
                           t_ldu / STUD, math.nan, math.nan)
        top = float(self.decor_boxes[key, 1, 2])
        part, colour, file, line = self._decor_names(key) if key < len(self.instances) else ("decor", None, None, None)
        return Blocker("decor", float(share), None, part, colour, file, line, str(self.decor_materials[key]),
                       t_ldu / STUD, top, top - feet, key)

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
        """Footprints seen from above within the weapon's reach, target in the front arc (the reading of
        BOW rulesets before revision 2; `touch_gap_studs` measures in 3D and not through walls)."""
        return self.body_gap_studs(attacker, target) <= reach_studs + 1e-9 and self.in_front_arc(attacker, target)

    def is_close(self, a: str, b: str) -> bool:
        """The two footprints seen from above within 1 stud of each other (the reading before revision 2;
        see `touch_gap_studs`)."""
        return self.body_gap_studs(a, b) <= CLOSE_STUDS + 1e-9

    def touch_gap_studs(self, a: str, b: str) -> float:
        """How far a hand or a weapon of `a` must reach to touch `b` (bow3d.world.reach): the shortest
        straight segment from a's body (its box as it stands) to b's surface that no decor, closed door
        or obstacle cuts, in 3D, in studs; 0 when they overlap; inf when every segment shorter than
        REACH_SEARCH_STUDS is cut (a wall between them) or none is that short (b up a tower)."""
        from bow3d.world.reach import touch_gap

        return touch_gap(self, a, b) / STUD

    # ----- measures, bases and area queries (bow3d.world.queries) -----------------------------
    def measure(self, a: str, b: str, between: str = "heads", unit: str = "studs") -> float:
        """The distance between two placed bodies by a ruleset's convention, in `unit` (bow3d.units):
        'heads' eye to eye in 3D (BOW); 'bases' the gap between their bases seen from above (0 when
        touching); 'front_edge' from a's base front edge to b's base (War of Bros); 'bodies' the
        closest 3D distance between their boxes; 'centres' between their positions seen from above."""
        return queries.measure(self, a, b, between, unit)

    def seen_at(self, cell: tuple[int, int], viewers) -> dict[str, float]:
        """Viewer id -> visible fraction of a minifig standing on `cell` (bow3d.world.heatmap.seen_at)."""
        from bow3d.world.heatmap import seen_at

        return seen_at(self, cell, viewers)

    def base(self, id: str) -> np.ndarray:
        """(4, 2) float64 world XY corners of a placed body's base, in studs: front-left first,
        counter-clockwise (front edge = corners 0 -> 1). BodySpec.base_studs, else the model's footprint."""
        return queries.bases(self, [self.body(id).index])[0] / STUD

    def bodies_within(self, origin, radius: float, unit: str = "studs", kinds=None, between: str = "centres",
                      exclude=()) -> dict[str, float]:
        """Placed bodies within `radius` of a body (id) or a point ((x, y) studs), nearest first: id ->
        distance in `unit`. between: 'centres' (positions) or 'bases' (any part of the base, plan view)."""
        return queries.bodies_within(self, origin, radius, unit, kinds, between, exclude)

    def bodies_in_cone(self, apex, heading_deg: float | None, half_angle_deg: float, length: float,
                       unit: str = "studs", kinds=None, exclude=()) -> dict[str, float]:
        """Placed bodies whose base touches a circular sector (plan view): apex a body (its position;
        itself excluded; heading None = its facing) or a point (x, y) studs. id -> distance, nearest first."""
        return queries.bodies_in_cone(self, apex, heading_deg, half_angle_deg, length, unit, kinds, exclude)

    def bodies_in_template(self, origin, heading_deg: float | None, length: float, width: float,
                           near_width: float | None = None, unit: str = "studs", kinds=None,
                           exclude=()) -> dict[str, float]:
        """Placed bodies whose base touches a template laid from `origin` along the heading: `length`
        long, `width` wide at the far end and `near_width` (default `width`: a rectangle; 0: a triangle)
        at the origin (Blaze of Glory's 8" x 2.5" shotgun template). id -> distance along, nearest first."""
        return queries.bodies_in_template(self, origin, heading_deg, length, width, near_width, unit, kinds,
                                          exclude)

    def bodies_along(self, a, b, kinds=None, decor: bool = False) -> tuple[Crossing, ...]:
        """Everything the 3D segment from a to b passes through, nearest to a first: bodies (their real
        meshes), and decor parts too with `decor=True`. a, b: body ids (their eyes) or (3,) world LDU points;
        the bodies named as ends are left out."""
        return queries.bodies_along(self, a, b, kinds, decor)

    # ----- rules-driven decor changes (bow3d.world.changes) -----------------------------------
    def add_obstacle(self, id: str, footprint=None, height_ldu: float = LDU_PER_BRICK, material: str = STONE, *,
                     cells=None) -> None:
        """Put an obstacle on the field (or back, the same): a block `height_ldu` high standing on the decor,
        over `footprint` ((4, 2) rectangle corners, studs) or `cells` ([(i, j), ...]). Blocks sight (a
        blocker of kind 'obstacle' with its material), moves and sweeps, like a closed door."""
        changes.add_obstacle(self, id, footprint, height_ldu, material, cells)

    def remove_obstacle(self, id: str) -> None:
        """Take an obstacle away (it can be added back with add_obstacle); nothing if already away."""
        changes.remove_obstacle(self, id)

    def remove_decor(self, instances=None, region=None, materials=None) -> np.ndarray:
        """Take decor parts away (destroyed cover): by instance indices, or all whose box centre lies in
        `region` ((P, 2) convex polygon, studs), optionally only of some materials. Returns the (R,)
        int64 indices newly removed (give them to restore_decor to undo)."""
        return changes.remove_decor(self, instances, region, materials)

    def restore_decor(self, instances) -> None:
        """Put removed decor parts back (the undo of remove_decor)."""
        changes.restore_decor(self, instances)

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

    def sweep_all(self, vehicle: str, distance_studs: float):
        """Every contact of a straight move (one per thing met, nearest first), not only the first."""
        from bow3d.world.vehicles import sweep_all
        return sweep_all(self, vehicle, distance_studs)

    def turn_contacts(self, vehicle: str, delta_deg: float):
        from bow3d.world.vehicles import turn_contacts
        return turn_contacts(self, vehicle, delta_deg)


def _cell_centre(cell) -> tuple[float, float]:
    return (float(cell[0]) + 0.5, float(cell[1]) + 0.5)


def door_template(height_ldu: float) -> Template:
    """A closed door as a body: a block filling one stud cell (20 x 20 LDU) up to `height_ldu`."""
    half = STUD / 2.0
    return template_from_mesh("door", box_mesh((-half, -half, 0.0), (half, half, height_ldu)))


def rectangle_gap(a: np.ndarray, b: np.ndarray) -> float:
    """Distance between two convex quadrilaterals (4, 2); 0 when they overlap."""
    return float(plan.gaps(a, np.asarray(b, np.float64)[None])[0])


def _missing_parts(instances: Sequence[PartInstance], decor_model: Model | None, templates) -> tuple[str, ...]:
    """Names of the LDraw parts missing from the decor or any body model (magenta boxes stood in)."""
    found = decor_model.missing_parts if decor_model is not None else [i for i in instances if i.missing]
    names = {getattr(p, "name", p) for p in found}
    for template in templates:
        model = getattr(template.shape, "model", None)
        names.update(getattr(p, "name", p) for p in (getattr(model, "missing_parts", None) or []))
    return tuple(sorted(str(n) for n in names))


def _load_body_model(scene, name: str, library: Library) -> tuple[Model, Path]:
    """A unit's or vehicle's model and its file: a file next to the scene, else a library part or model."""
    path = Path(scene.resolve(name))
    if path.is_file():
        return load_model(path, library), path
    found = library.find(name)
    if found is None:
        raise UserInputError(_("{path}: model {name!r} is neither a file next to the scene nor a part "
                               "of the library ({value})")
                             .format(path=scene.path, name=name, value=library.describe()))
    return load_model(found, library), Path(found)


def _body_template(scene, name: str, library: Library, method: SightMethod, materials: MaterialTable,
                   kind: str) -> Template:
    """The template of a unit's or vehicle's model as the sight method wants it: studs kept and
    transparent parts marked (silhouette-1), or studs dropped (surface-samples-1); a vehicle's seats
    from its model's seat lines (bow3d.scene.seats)."""
    model, path = _load_body_model(scene, name, library)
    seat_lines = read_seats(path) if kind == "vehicle" else []
    seats = np.array(seat_lines, np.float64).reshape(-1, 3) if seat_lines else None
    if not method.keeps_studs:
        return template_from_model(name, model, seats=seats)
    glass = classify_instances(materials, model.instances, model) == GLASS if method.see_through_transparent else None
    return template_from_model(name, model, True, glass, seats)
