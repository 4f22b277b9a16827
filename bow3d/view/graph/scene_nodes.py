"""A scene in Panda3D: the battlefield batched and static, each unit and vehicle its own node.

Layer: view. World frame, Z up, LDU (1 stud = 20 LDU). Placement follows the scene contract
(C1, design.md): a model is turned about Z by (facing - 270) degrees, its origin goes to the
position (20x, 20y), and its lowest point rests on the highest ground under its footprint
(`bow3d.view.graph.ground`, from the battlefield mesh).

Each unit or vehicle node carries LEGO pieces of its own: a ring (units) or frame (vehicles)
in the side's LDraw colour, white 1x1 marking bricks beside a unit played this round (BOW 1.3
§2.2) and damage marking bricks stacked on the minifig's head or on the vehicle (§2.4.3, red
for life forms, yellow for mechanical units and vehicles).

More: docs/modules/view.md#scene-nodes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from panda3d.core import NodePath, TransparencyAttrib

from bow3d.errors import SceneError
from bow3d.i18n import _
from bow3d.ldraw import Library, Model, load_model
from bow3d.scene.seats import read_seats
from bow3d.units import LDU_PER_STUD as STUD
from bow3d.view.graph import markers
from bow3d.view.graph.batches import Batch, build_batches
from bow3d.view.graph.ground import GroundHeights
from bow3d.view.graph.scene_graph import attach_batches, attach_model
from bow3d.world.bodies import FEET_SLAB_LDU

BASE_PLATE_LDU = 4.6  # a unit's base (rulesets that play on bases) drawn this thick: over the studs
RING_HEIGHT = 6.0  # LDU: a flat ring sitting over the studs round the feet
HIGHLIGHT_WIDTH = 4.0
DOOR_COLOUR = 70  # LDraw Reddish_Brown: a closed door drawn as a wooden block filling its cell
DEAD_ALPHA = 0.45
HEAD_PARTS = ("3626",)
UNIT_NEAR_LDU = 1200.0  # units nearer than 60 studs are drawn in full detail, farther ones simplified  # LDraw minifig heads: 3626b.dat, 3626c.dat, 3626bp01.dat...


@dataclass
class Piece:
    """One unit or vehicle on the table: its node, its model's box and what is drawn on it."""

    id: str
    kind: str  # "unit" | "vehicle"
    side_rgba: tuple[int, int, int, int]
    damage_code: int  # LDraw colour of its damage marking bricks
    root: NodePath  # at the position, on the ground, turned by (facing - 270)
    body: NodePath  # the model; offset so its lowest point is at the root
    lo: np.ndarray  # (3,) model-frame box (LDU)
    hi: np.ndarray
    head: np.ndarray  # (3,) model-frame head centre (LDU)
    base: NodePath | None = None  # side ring / frame
    marks: NodePath | None = None
    selection: dict[str, NodePath] = field(default_factory=dict)
    alive: bool = True
    placed: bool = False
    position: tuple[float, float] = (0.0, 0.0)
    facing_deg: float = 270.0
    ground_z: float = 0.0
    marks_state: tuple[int, int] = (0, 0)  # marking bricks, damage bricks drawn
    model_ref: str = ""  # the scene's `model` field
    seated: bool = False  # aboard a vehicle, drawn in its seat
    damage_seat: tuple[float, float, float] = (0.0, 0.0, 0.0)  # model frame: where damage bricks stack
    feet_radius: float = 10.0  # LDU: how far the legs reach from the origin (the ring goes round them)
    feet_half_extent: tuple[float, float] = (10.0, 10.0)  # LDU: what it stands on (soles, hooves, wheels)

    @property
    def half_extent(self) -> tuple[float, float]:
        """Half sizes of the footprint in the model frame (LDU), about the origin."""
        return (float(max(abs(self.lo[0]), abs(self.hi[0]))), float(max(abs(self.lo[1]), abs(self.hi[1]))))


class SceneNodes:
    """The nodes of one scene under a parent; units and vehicles move, the battlefield does not."""

    def __init__(self, parent: NodePath, scene, library: Library | None = None, *, quality: str = "default"):
        self.scene = scene
        self.library = library or Library.from_env()
        self.quality = quality
        self.root = parent.attach_new_node(f"scene-{scene.name or 'scene'}")
        self.battlefield_model = _load(scene.battlefield_path, self.library, "battlefield")
        self.battlefield, self.triangles, self.draw_calls = attach_model(self.root, self.battlefield_model, quality)
        self.colours = self.battlefield_model.colours
        self.units: dict[str, NodePath] = {}
        self.vehicles: dict[str, NodePath] = {}
        self.pieces: dict[str, Piece] = {}
        self.models: dict[str, Model] = {}
        self._prototypes: dict[str, NodePath] = {}
        self._seats: dict[str, list[np.ndarray]] = {}  # model -> seat points (model frame, LDU)
        self._ground: GroundHeights | None = None
        for vehicle in scene.vehicles:
            self.vehicles[vehicle.id] = self._add(vehicle, "vehicle")
        for unit in scene.units:
            self.units[unit.id] = self._add(unit, "unit")
        for vehicle in scene.vehicles:
            for seat, unit_id in enumerate(vehicle.occupants):
                if unit_id in self.units:
                    self.seat(unit_id, vehicle.id, seat)
        self.doors: dict[str, NodePath] = {door.id: self._add_door(door)
                                           for door in getattr(scene, "doors", None) or []}

    # --- building ---------------------------------------------------------------------------
    def _model(self, ref: str, what: str) -> tuple[Model, NodePath]:
        if ref not in self.models:
            path = self.scene.resolve(ref)
            if not path.is_file():
                found = self.library.find(ref)
                if found is None:
                    where = f"{self.scene.path.name}: " if self.scene.path else ""
                    raise SceneError(_("{where}{what}: model '{ref}' is neither a file beside the "
                                       "scene nor a part of the LDraw library ({value}); fix the path")
                                     .format(where=where, what=what, ref=ref, value=self.library.describe()))
                path = found
            model = _load(path, self.library, what)
            self.models[ref], self._prototypes[ref] = model, _unit_geometry(model, self.quality, Path(ref).name)
            self._seats[ref] = read_seats(path)
        return self.models[ref], self._prototypes[ref]

    def _add(self, item, kind: str) -> NodePath:
        model, proto = self._model(item.model, f"{kind}s[{item.id}].model")
        bounds = model.bounds()
        lo, hi = bounds[0].astype(np.float64), bounds[1].astype(np.float64)
        side = self.scene.side(item.side)
        sheet = self.scene.sheet(item.sheet)
        damage_code = markers.RED if getattr(sheet, "hp_colour", "yellow") == "red" else markers.YELLOW
        root = self.root.attach_new_node(f"{kind}-{item.id}")
        root.set_tag("bow3d-id", item.id)
        root.set_tag("bow3d-kind", kind)
        body = root.attach_new_node("body")
        proto.instance_to(body)
        body.set_z(-lo[2])
        piece = Piece(item.id, kind, markers.ldraw_rgba(side.colour, self.colours), damage_code, root, body, lo, hi,
                      _head_centre(model, lo, hi) if kind == "unit" else np.array([0.0, 0.0, hi[2]]))
        piece.model_ref = item.model
        piece.feet_radius = _feet_radius(model, lo)
        piece.feet_half_extent = _feet_half_extent(model, lo)
        centre = piece.head if kind == "unit" else np.zeros(3)
        piece.damage_seat = (float(centre[0]), float(centre[1]), _top_above(model, centre[:2], hi[2]))
        self.pieces[item.id] = piece
        piece.base = self._base(piece)
        self._base_plate(piece, getattr(item, "base", None))
        if item.position is None:
            root.hide()  # aboard a vehicle: shown when placed
        else:
            self.set_pose(item.id, tuple(item.position), item.facing)
        self.set_marks(item.id)
        return root

    def add_unit(self, unit) -> NodePath:
        """Draw one more unit of the scene (set-up mode places them one by one)."""
        self.units[unit.id] = self._add(unit, "unit")
        return self.units[unit.id]

    def remove_piece(self, id: str) -> None:
        """Take a unit or vehicle's nodes off (set-up mode)."""
        piece = self.pieces.pop(id)
        self.units.pop(id, None)
        self.vehicles.pop(id, None)
        piece.root.remove_node()

    def _base(self, piece: Piece) -> NodePath:
        hx, hy = piece.half_extent
        height = RING_HEIGHT + 0.25 * (len(self.pieces) % 6)  # touching rings never share a top face (z-fighting)
        if piece.kind == "unit":
            outer = piece.feet_radius + 6.0
            corners = markers.ring_corners(outer - 5.0, outer, height, z=0.3)
        else:
            corners = markers.frame_corners(hx + 2.0, hy + 2.0, 5.0, height, z=0.3)
        return markers.solid_node(piece.root, "side-base", [(corners, piece.side_rgba)])

    def _base_plate(self, piece: Piece, base) -> None:
        """A ruleset that plays on bases (War of Bros: 3 x 3 cm, 6 x 12 cm): the base drawn under the model as
        a thin plate in the side's colour, its front edge white (the scene's `base`, width x depth in studs)."""
        if base is None:
            return
        hx, hy = float(base[0]) * STUD / 2.0, float(base[1]) * STUD / 2.0   # the model faces -Y: its front edge
        plate = markers.box_corners((-hx, -hy, 0.1), (hx, hy, BASE_PLATE_LDU))
        front = markers.box_corners((-hx, -hy - 0.2, 0.1), (hx, -hy + 2.0, BASE_PLATE_LDU + 0.3))
        white = markers.ldraw_rgba(markers.WHITE, self.colours)
        markers.solid_node(piece.root, "unit-base", [(plate, piece.side_rgba), (front, white)])

    def rebuild_battlefield(self, quality: str, edges: bool = False) -> None:
        """Draw the battlefield again at another quality, with or without edge lines."""
        self.battlefield.remove_node()
        self.quality = quality
        self.battlefield, self.triangles, self.draw_calls = attach_model(self.root, self.battlefield_model, quality,
                                                                         edges)

    @property
    def ground(self) -> GroundHeights:
        """Ground heights of the battlefield (built on first use)."""
        if self._ground is None:
            mesh = self.battlefield_model.mesh
            self._ground = GroundHeights.from_mesh(mesh.positions, mesh.triangles, mesh.tri_detail)
        return self._ground

    # --- the contract ------------------------------------------------------------------------
    def piece(self, id: str) -> Piece:
        try:
            return self.pieces[id]
        except KeyError:
            raise KeyError(f"no unit or vehicle '{id}' (known: {', '.join(self.pieces) or 'none'})") from None

    def _add_door(self, door) -> NodePath:
        """A closed door (BOW §2.3.3) fills its cell up to its height, as in the world; hidden while open."""
        x, y = (door.cell[0] + 0.5) * STUD, (door.cell[1] + 0.5) * STUD
        z = self.ground.under_footprint((x, y), (8.0, 8.0), 0.0)
        corners = markers.box_corners((x - 9.5, y - 9.5, z), (x + 9.5, y + 9.5, z + door.height_ldu))
        node = markers.solid_node(self.root, f"door-{door.id}",
                                  [(corners, markers.ldraw_rgba(DOOR_COLOUR, self.colours))])
        if door.open:
            node.hide()
        return node

    def set_door(self, id: str, open: bool) -> None:
        """Show a door closed, or take it away when open."""
        (self.doors[id].hide if open else self.doors[id].show)()

    def set_pose(self, id: str, position: tuple[float, float], facing_deg: float, ground_z: float | None = None) -> None:
        """Put a unit or vehicle at `position` (studs) facing `facing_deg`, standing on the ground."""
        piece = self.piece(id)
        x, y = position[0] * STUD, position[1] * STUD
        heading = facing_deg - 270.0
        if ground_z is None:
            ground_z = self.ground.under_footprint((x, y), piece.feet_half_extent, heading)
        piece.position, piece.facing_deg, piece.ground_z, piece.placed = (float(position[0]), float(position[1])), \
            float(facing_deg), float(ground_z), True
        if piece.seated:  # got off its vehicle
            piece.root.reparent_to(self.root)
            piece.body.set_z(-piece.lo[2])
            piece.seated = False
            for node in (piece.base, piece.marks):
                if node is not None and piece.alive:
                    node.show()
        piece.root.set_pos(x, y, ground_z)
        piece.root.set_h(heading)
        if piece.alive:
            piece.root.show()

    def set_marks(self, id: str, *, beside: int = 0, on_top: int = 0) -> None:
        """The markers a piece carries (bow3d.rules.table.Piece): `beside` white bricks in a row on the ground at
        its right hand (BOW's marking bricks, §2.2), `on_top` bricks stacked on its head or roof (damage, §2.4.3)."""
        piece = self.piece(id)
        if piece.marks is not None:
            piece.marks.remove_node()
        count, damage = int(beside), int(on_top)
        hx, hy = piece.half_extent
        pieces = []
        if count:  # on the ground at the unit's right hand (the model faces -Y, so its right is -X)
            start = (-(hx + 14.0), -hy + 10.0, 0.0)
            pieces.append((markers.marking_brick_row(count, start, (0.0, markers.STUD_LDU + 2.0, 0.0)),
                           markers.ldraw_rgba(markers.WHITE, self.colours)))
        if damage > 0:
            x, y, top = piece.damage_seat  # on the head (or hat), or on top of the vehicle's middle
            base = (x, y, top - piece.lo[2])
            pieces.append((markers.brick_stack(int(damage), base), markers.ldraw_rgba(piece.damage_code, self.colours)))
        piece.marks = markers.solid_node(piece.root, "marks", pieces)
        if piece.seated or not piece.alive:  # no bricks floating in a seat or on the fallen
            piece.marks.hide()
        piece.marks_state = (count, int(damage))

    def set_alive(self, id: str, alive: bool) -> None:
        """A dead unit lies on its back, faded, without its ring and marks; a destroyed vehicle fades."""
        piece = self.piece(id)
        piece.alive = bool(alive)
        if alive:
            piece.body.set_p(0)
            piece.body.set_pos(0, 0, -piece.lo[2])
            piece.body.clear_color_scale()
            piece.body.clear_transparency()
            for node in (piece.base, piece.marks):
                if node is not None:
                    node.show()
            return
        if piece.kind == "unit":
            piece.body.set_p(-90)  # the head falls behind (the model faces -Y)
            piece.body.set_pos(0, 0, 0)
            low = piece.body.get_tight_bounds(piece.root)
            if low is not None:
                piece.body.set_z(-low[0][2])
        piece.body.set_transparency(TransparencyAttrib.M_alpha)
        piece.body.set_color_scale(1, 1, 1, DEAD_ALPHA)
        for node in (piece.base, piece.marks, *piece.selection.values()):
            if node is not None:
                node.hide()

    POSTURE_PITCH = {"standing": 0.0, "on_back": -90.0, "face_down": 90.0}

    def set_posture(self, id: str, posture: str) -> None:
        """A figure lying as its ruleset says, still in play (not faded): 'standing', 'on_back' (the head
        falls behind: Blaze of Glory's knocked down), 'face_down' (the head falls forward: wounded,
        unconscious), or 'gone' (taken off the table: a figure whose nerve broke). Out of action is
        set_alive(False)."""
        piece = self.piece(id)
        if posture == "gone":
            piece.root.hide()
            return
        if posture not in self.POSTURE_PITCH:
            raise ValueError(f"unknown posture {posture!r}; use one of {', '.join([*self.POSTURE_PITCH, 'gone'])}")
        if piece.alive and piece.placed:
            piece.root.show()
        pitch = self.POSTURE_PITCH[posture]
        piece.body.set_p(pitch)
        if not pitch:
            piece.body.set_pos(0, 0, -piece.lo[2])
            return
        piece.body.set_pos(0, 0, 0)
        low = piece.body.get_tight_bounds(piece.root)
        if low is not None:
            piece.body.set_z(-low[0][2])

    def highlight(self, id: str | None, colour=(1, 1, 0, 1), *, slot: str = "select") -> None:
        """A glowing ring round one unit (or none); `slot` keeps several at once (select, target)."""
        for piece in self.pieces.values():
            node = piece.selection.pop(slot, None)
            if node is not None:
                node.remove_node()
        if id is not None:
            self.highlight_one(id, colour, slot=slot)

    def highlight_one(self, id: str, colour=(1, 1, 0, 1), *, slot: str = "select") -> None:
        """A glowing ring round one more unit, the rings of the other units in `slot` kept."""
        piece = self.piece(id)
        old = piece.selection.pop(slot, None)
        if old is not None:
            old.remove_node()
        hx, hy = piece.half_extent
        rgba = tuple(int(round(255 * c)) for c in colour)
        if piece.kind == "unit":
            outer = piece.feet_radius + 6.0 + 2.0 + HIGHLIGHT_WIDTH
            corners = markers.ring_corners(outer - HIGHLIGHT_WIDTH, outer, RING_HEIGHT + 1.0, z=0.2)
        else:
            corners = markers.frame_corners(hx + 8.0, hy + 8.0, HIGHLIGHT_WIDTH, RING_HEIGHT + 1.0, z=0.2)
        piece.selection[slot] = markers.solid_node(piece.root, f"highlight-{slot}", [(corners, rgba)], unlit=True)

    def seat(self, unit: str, vehicle: str, seat: int) -> None:
        """Draw a unit aboard a vehicle: in its seat when the vehicle's occupants are exposed and its model
        names seats (`0 // bow3d seat N: X Y Z`, LDraw coordinates); hidden otherwise."""
        piece, carrier = self.piece(unit), self.piece(vehicle)
        seats = self._seats.get(carrier.model_ref, [])
        sheet = self.scene.sheet(self.scene.vehicle(vehicle).sheet)
        piece.placed = False
        if not getattr(sheet, "exposed_occupants", True) or seat >= len(seats) or not piece.alive:
            piece.root.hide()
            return
        point = seats[seat]
        piece.root.reparent_to(carrier.root)
        piece.root.set_pos(point[0], point[1], point[2] - carrier.lo[2])
        piece.root.set_h(0)
        piece.body.set_z(0.0)
        piece.seated = True
        for node in (piece.base, piece.marks):
            if node is not None:
                node.hide()
        piece.root.show()

    def prototype(self, id: str) -> NodePath:
        """The shared geometry of a unit's or vehicle's model (for clones: the sheet's corner)."""
        return self._prototypes[self.piece(id).model_ref]

    def head_point(self, id: str) -> tuple[float, float, float]:
        """The head centre of a unit (the top centre of a vehicle), world frame, LDU (seated units too)."""
        from panda3d.core import LPoint3

        piece = self.piece(id)
        point = self.root.get_parent().get_relative_point(piece.body, LPoint3(*piece.head))
        return (float(point[0]), float(point[1]), float(point[2]))

    def to_world(self, id: str, local: np.ndarray) -> np.ndarray:
        """Model-frame points (..., 3) of a standing unit or vehicle to world LDU."""
        piece = self.piece(id)
        angle = math.radians(piece.facing_deg - 270.0)
        c, s = math.cos(angle), math.sin(angle)
        local = np.asarray(local, np.float64)
        x = c * local[..., 0] - s * local[..., 1] + piece.position[0] * STUD
        y = s * local[..., 0] + c * local[..., 1] + piece.position[1] * STUD
        z = local[..., 2] - piece.lo[2] + piece.ground_z
        return np.stack([x, y, z], axis=-1)

    def bounds(self) -> np.ndarray:
        """(2, 3) box of the battlefield and every placed unit and vehicle, LDU."""
        boxes = [self.battlefield_model.bounds()]
        for piece in self.pieces.values():
            if piece.placed:
                corners = np.array([[x, y, z] for x in (piece.lo[0], piece.hi[0]) for y in (piece.lo[1], piece.hi[1])
                                    for z in (piece.lo[2], piece.hi[2])])
                boxes.append(self.to_world(piece.id, corners))
        stacked = np.concatenate(boxes)
        return np.stack([stacked.min(axis=0), stacked.max(axis=0)])

    def id_of(self, node: NodePath) -> str | None:
        """The unit or vehicle id a node belongs to (for picking), or None."""
        tagged = node.find_net_tag("bow3d-id")
        return None if tagged.is_empty() else tagged.get_tag("bow3d-id")

    def remove(self) -> None:
        self.root.remove_node()


def attach_scene(parent: NodePath, scene, library: Library | None = None, *, quality: str = "default") -> SceneNodes:
    """The whole scene under `parent`: battlefield batched, units and vehicles as movable nodes."""
    return SceneNodes(parent, scene, library, quality=quality)


def _load(path: Path, library: Library, what: str) -> Model:
    try:
        return load_model(path, library)
    except SceneError:
        raise
    except Exception as error:  # noqa: BLE001 (LDrawError already names the file)
        raise SceneError(_("{what}: {error}").format(what=what, error=error)) from None


def _merged(batches: list[Batch]) -> list[Batch]:
    """Opaque batches as one (drawn two-sided), transparent ones as another: two draw calls at most (and
    one per texture decal: each draws its own image)."""
    out = [b for b in batches if b.texture]
    for transparent in (False, True):
        group = [b for b in batches if b.transparent == transparent and not b.texture]
        if group:
            out.append(Batch(np.concatenate([b.positions for b in group]), np.concatenate([b.normals for b in group]),
                             np.concatenate([b.colours for b in group]), transparent,
                             len(group) > 1 or group[0].two_sided, (0, 0)))
    return out


def _unit_geometry(model: Model, quality: str, name: str) -> NodePath:
    """A unit's or vehicle's shared geometry: near and far levels (by distance), few draw calls each."""
    from panda3d.core import LODNode

    batches = build_batches(model, "full" if quality == "full" else "default")
    near = _merged([b for b in batches if b.lod in (0, 1)])
    far = _merged([b for b in batches if b.lod in (0, 2)]) if quality == "default" else []
    proto = NodePath(f"model-{name}")
    if not far:
        attach_batches(proto, near, name=f"model-{name}", textures=model.textures)
        return proto
    lod = LODNode(f"model-{name}-lod")
    lod_path = proto.attach_new_node(lod)
    attach_batches(lod_path.attach_new_node("near"), near, name=f"model-{name}-near", textures=model.textures)
    attach_batches(lod_path.attach_new_node("far"), far, name=f"model-{name}-far", textures=model.textures)
    lod.add_switch(UNIT_NEAR_LDU, 0.0)
    lod.add_switch(1e9, UNIT_NEAR_LDU)
    return proto


def _top_above(model: Model, xy: np.ndarray, default: float, half_ldu: float = 10.0) -> float:
    """Model-frame height of the highest solid (non-stud) point in a column round `xy`: the top of a head
    or hat (a sword held high beside it does not count), the top of a vehicle's middle."""
    mesh = model.mesh
    if mesh.triangles.shape[0] == 0:
        return float(default)
    solid = mesh.triangles[~mesh.tri_detail] if (~mesh.tri_detail).any() else mesh.triangles
    points = mesh.positions[np.unique(solid)].astype(np.float64)
    inside = np.all(np.abs(points[:, :2] - np.asarray(xy)[None]) <= half_ldu, axis=1)
    return float(points[inside, 2].max()) if inside.any() else float(default)


def _feet_radius(model: Model, lo: np.ndarray, slab_ldu: float = 24.0) -> float:
    """Horizontal reach (LDU) of the model's lowest `slab_ldu` (the legs, not a spear held high)."""
    positions = model.mesh.positions
    if positions.shape[0] == 0:
        return 10.0
    low = positions[positions[:, 2] <= lo[2] + slab_ldu]
    return float(max(8.0, np.abs(low[:, :2]).max())) if low.shape[0] else 10.0


def _feet_half_extent(model: Model, lo: np.ndarray, slab_ldu: float = FEET_SLAB_LDU) -> tuple[float, float]:
    """Half sizes (LDU, about the origin) of what the model stands on: its lowest `slab_ldu`, the
    world's own rule (a sword held out under a roof's eave must not lift its minifig onto the roof)."""
    positions = model.mesh.positions
    low = positions[positions[:, 2] <= lo[2] + slab_ldu] if positions.shape[0] else positions
    if low.shape[0] == 0:
        return (10.0, 10.0)
    reach = np.abs(low[:, :2]).max(axis=0)
    return (float(max(reach[0], 4.0)), float(max(reach[1], 4.0)))


def _head_centre(model: Model, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Model-frame centre of the minifig head part; else 12 LDU under the top of the box's centre."""
    points = []
    for key, idx in model.groups().items():
        if not any(model.instances[i].name.lower().startswith(HEAD_PARTS) for i in idx):
            continue
        part = model.parts[key]
        if part.positions.shape[0] == 0:
            continue
        keep = ~part.tri_detail if part.tri_detail.any() and (~part.tri_detail).any() else np.ones_like(part.tri_detail)
        local = part.positions[np.unique(part.triangles[keep])].astype(np.float64)
        mats = model.world_transforms(idx)
        points.append((np.einsum("nij,vj->nvi", mats[:, :3, :3], local) + mats[:, None, :3, 3]).reshape(-1, 3))
    if points:
        allp = np.concatenate(points)
        return (allp.min(axis=0) + allp.max(axis=0)) / 2
    return np.array([(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, hi[2] - 12.0])
