"""Minifigs and vehicles found in an LDraw model built in an editor (for `bow3d scene from-ldraw`).

Layer: scene. `find_figures(model, structure)` finds the minifigs and vehicles of a loaded model
in world terms (positions in studs, facings in degrees); bow3d.scene.from_ldraw writes the scene.

More: docs/modules/scene.md#figures.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import numpy as np

from bow3d.i18n import _
from bow3d.ldraw import Model
from bow3d.scene import equipment as eq, kinds
from bow3d.scene.structure import Placement, Slot, Structure, meta_commands, world_transform
from bow3d.units import LDU_PER_STUD as STUD_LDU

ATTACH_LDU = 2 * STUD_LDU  # "within a couple of studs"
MAX_VEHICLE_TORSOS = 8
MAX_VEHICLE_STUDS = 48.0
HIP_LDU = 32.0  # torso origin (neck) to the hips, LDraw +Y
COLOUR_SIDES = {"blue": 1, "red": 4, "green": 2, "yellow": 14, "black": 0, "white": 15, "orange": 25,
                "purple": 22, "grey": 71, "gray": 71, "brown": 70, "tan": 19, "pink": 13, "lime": 27}
UNASSIGNED = "unassigned"


@dataclass
class Figure:
    """A minifig or vehicle found in the model, in world terms (studs, degrees)."""

    kind: str  # 'unit' | 'vehicle'
    instances: list[int]  # indices into model.instances
    position: tuple[float, float]  # studs
    facing: float  # degrees
    origin: str  # where it came from: 'blue-rifleman.ldr placed at village.mpd line 12' or 'loose parts ...'
    meta: dict[str, str] = field(default_factory=dict)  # from `0 !BOW UNIT|VEHICLE`
    meta_lines: list[tuple[str, int]] = field(default_factory=list)  # (source, line) of those meta lines
    name_hint: str = ""  # sub-model name, for the side
    drop_lines: list[tuple[str, int]] = field(default_factory=list)  # type-1 lines to leave out of the decor
    titles: list[str] = field(default_factory=list)  # descriptions of headgear and held equipment
    vehicle_kind: str = ""  # 'horse' | 'car'
    seats: int = 0
    occupants: list[Figure] = field(default_factory=list)
    steering: np.ndarray | None = None  # world point of the steering wheel
    aboard: bool = False
    torso: int = -1
    below_soles_ldu: float = 0.0  # how far held equipment reaches below the feet (the unit would stand on it)
    why: str = ""  # why it was taken for a minifig or a vehicle


def _facing_of(transform: np.ndarray) -> float:
    """Degrees of the world direction of a frame's LDraw -Z axis (0 = +X, CCW from above)."""
    forward = transform[:3, :3] @ np.array([0.0, 0.0, -1.0]) if transform.shape == (4, 4) else transform
    return math.degrees(math.atan2(forward[1], forward[0])) % 360.0


def _world_points(model: Model, indices: list[int]) -> np.ndarray:
    """(N, 3) world vertices of the given instances (for extents and lowest points)."""
    chunks = []
    for i in indices:
        pos = model.parts[model.instance_part[i]].positions.astype(np.float64)
        if pos.shape[0]:
            m = model.instances[i].transform
            chunks.append(pos @ m[:3, :3].T + m[:3, 3])
    return np.concatenate(chunks) if chunks else np.zeros((0, 3))


def _boxes(model: Model, indices: list[int]) -> np.ndarray:
    """(N, 2, 3) world AABB per instance."""
    out = np.zeros((len(indices), 2, 3))
    for k, i in enumerate(indices):
        pts = _world_points(model, [i])
        if pts.shape[0]:
            out[k] = pts.min(axis=0), pts.max(axis=0)
        else:
            out[k] = model.instances[i].transform[:3, 3]
    return out


def _torso_anchor(transform: np.ndarray) -> np.ndarray:
    """World point at the torso's hips (LDraw local (0, 32, 0)): the footprint centre seen from above."""
    return transform[:3, :3] @ np.array([0.0, HIP_LDU, 0.0]) + transform[:3, 3]


def _unit_from_torso(model: Model, torso: int, members: list[int], roles: dict[int, str], titles: dict[int, str],
                     origin: str) -> Figure:
    t = model.instances[torso].transform
    anchor = _torso_anchor(t)
    gear = [titles[i] for i in members if roles[i] in (eq.HEADGEAR, eq.EQUIPMENT)]
    legs = [i for i in members if roles[i] == eq.LEGS]
    lowest = _world_points(model, members)[:, 2].min()
    soles = _world_points(model, legs)[:, 2].min() if legs else lowest
    return Figure("unit", sorted(members), (anchor[0] / STUD_LDU, anchor[1] / STUD_LDU), _facing_of(t), origin,
                  titles=gear, torso=torso, below_soles_ldu=float(soles - lowest))


def _group_loose(model: Model, slots: list[Slot], roles: dict[int, str]) -> tuple[dict[int, list[int]], list[int]]:
    """Loose minifig parts -> {torso index: member indices}; the minifig parts that joined no torso.

    Body parts (legs, arms, head) join the torso whose body centre is nearest (within 2 studs); then
    hands join the arm, headgear the head and held equipment the hand whose centre their box comes
    within a stud of; leftover headgear and equipment join the nearest torso within 2 studs.
    """
    torsos = [s.index for s in slots if roles[s.index] == eq.TORSO]
    if not torsos:
        return {}, []
    indices = [s.index for s in slots]
    boxes = dict(zip(indices, _boxes(model, indices)))
    centre = {i: box.mean(axis=0) for i, box in boxes.items()}
    bodies = np.array([(model.instances[t].transform[:3, 3] + _torso_anchor(model.instances[t].transform)) / 2
                       for t in torsos])  # halfway from the neck to the hips
    owner: dict[int, int] = {t: t for t in torsos}
    stages = [((eq.LEGS, eq.ARM, eq.HEAD), None), ((eq.HAND,), eq.ARM), ((eq.HEADGEAR,), eq.HEAD),
              ((eq.EQUIPMENT,), eq.HAND), ((eq.HEADGEAR, eq.EQUIPMENT), None)]
    for wanted, via in stages:
        for i in indices:
            if i in owner or roles[i] not in wanted:
                continue
            if via is None:
                d = np.linalg.norm(bodies - centre[i], axis=1)
                k = int(np.argmin(d))
                if d[k] <= ATTACH_LDU:
                    owner[i] = torsos[k]
                continue
            anchors = [j for j in owner if roles[j] == via]
            if anchors:
                d = _box_distance_many(np.array([centre[j] for j in anchors]), boxes[i])
                k = int(np.argmin(d))
                if d[k] <= STUD_LDU:
                    owner[i] = owner[anchors[k]]
    members = {t: [t] for t in torsos}
    for i, t in owner.items():
        if i != t:
            members[t].append(i)
    left = [i for i in indices if i not in owner and roles[i] not in (eq.OTHER, "loose")]
    return members, left


def _box_distance_many(points: np.ndarray, box: np.ndarray) -> np.ndarray:
    """(N,) distance from each of (N, 3) points to one (2, 3) box (0 inside)."""
    gap = np.maximum(np.maximum(box[0] - points, points - box[1]), 0.0)
    return np.linalg.norm(gap, axis=1)


def _bow_meta(node: Placement, command: str) -> tuple[dict[str, str], list[tuple[str, int]]]:
    """`!BOW <command>` values in the sub-model itself, overridden by those just before its type-1 line.

    Returns the values and the (file, line) of the lines before the reference (left out of the decor).
    """
    values: dict[str, str] = {}
    for _unused, found in meta_commands(node.own_meta, command):
        values.update(found)
    lines = []
    for line, found in meta_commands(node.meta_before, command):
        values.update(found)
        lines.append((node.source, line))
    return values, lines


class _Finder:
    """One walk of the sub-model tree, outermost placements first (see find_figures)."""

    def __init__(self, model: Model, structure: Structure):
        self.model = model
        self.roles = {s.index: ("loose" if "(loose geometry)" in s.name else eq.part_role(s.name, s.title))
                      for s in structure.slots}
        self.titles = {s.index: s.title or s.name for s in structure.slots}
        self.members = {id(node): [s.index for s in node.all_slots()] for node in structure.placements()}
        self.torsos = {key: sum(self.roles[i] == eq.TORSO for i in members) for key, members in self.members.items()}
        self.boxes = kinds.instance_boxes(model)
        self.units: list[Figure] = []
        self.vehicles: list[Figure] = []
        self.vehicle_nodes: set[int] = set()
        self.taken: set[int] = set()
        self.notes: list[str] = []
        self.decor: list[str] = []  # sub-models that looked like a minifig or a vehicle, and why they are decor

    def visit(self, node: Placement, vehicle: Figure | None) -> None:
        """Find the vehicle, the minifig or the loose minifigs of one placement, then go down."""
        if node.parent is not None and vehicle is None:
            vehicle = self._vehicle(node)
        if node.parent is not None and self.torsos[id(node)] == 1 and id(node) not in self.vehicle_nodes:
            if kinds.is_figure(self.members[id(node)], self.roles):
                self._unit(self._innermost(node), vehicle)
                return
            minifig, total = kinds.minifig_share(self.members[id(node)], self.roles)
            self.decor.append(f"{_describe(node)}: holds a torso, but only {minifig} of its {total} parts are minifig "
                              "parts; the minifig is looked for inside it")
        loose = [s for s in node.slots if s.index not in self.taken or vehicle is not None]
        if vehicle is None:  # a horse that is one part (not a sub-model) is a vehicle by itself
            for s in loose:
                if self.roles[s.index] == eq.HORSE:
                    self.vehicles.append(_loose_vehicle(self.model, s))
                    self.taken.add(s.index)
            loose = [s for s in loose if s.index not in self.taken]
        if any(self.roles[s.index] == eq.TORSO for s in loose):
            self._loose_minifigs(loose, vehicle)
        for child in node.children:
            self.visit(child, vehicle)

    def _innermost(self, node: Placement) -> Placement:
        """Down to the innermost placement around the torso that is still the whole figure."""
        while True:
            holder = next((c for c in node.children if self.torsos[id(c)] == 1), None)
            if holder is None or not kinds.is_figure(self.members[id(holder)], self.roles) or kinds.body_count(
                    self.members[id(holder)], self.roles) < kinds.body_count(self.members[id(node)], self.roles):
                return node
            node = holder

    def _unit(self, node: Placement, vehicle: Figure | None) -> None:
        members = [i for i in self.members[id(node)] if i not in self.taken or vehicle is not None]
        torso = next(i for i in members if self.roles[i] == eq.TORSO)
        unit = _unit_from_torso(self.model, torso, members, self.roles, self.titles, _describe(node))
        minifig, total = kinds.minifig_share(members, self.roles)
        unit.why = _("the sub-model around one torso, {minifig} of its {total} parts minifig parts").format(
            minifig=minifig, total=total)
        unit.meta, unit.meta_lines = _bow_meta(node, "UNIT")
        unit.name_hint = PurePosixPath(node.name).stem
        unit.drop_lines = [(node.source, node.line)] + unit.meta_lines
        self._add(unit, vehicle)

    def _vehicle(self, node: Placement) -> Figure | None:
        """A vehicle when the placement says so (`0 !BOW VEHICLE`) or holds a horse, a steering wheel or
        stands on wheels (bow3d.scene.kinds)."""
        meta, meta_lines = _bow_meta(node, "VEHICLE")
        members = self.members[id(node)]
        marker, why = kinds.vehicle_marker(members, self.roles, self.boxes)
        if not (meta or meta_lines or (marker and self._small(node))):
            if why and not marker:
                self.decor.append(_("{where}: {why}; decor, not a vehicle").format(where=_describe(node), why=why))
            return None
        vehicle = _vehicle_figure(self.model, node, members, self.roles, meta, meta_lines, marker or "car")
        vehicle.why = _("a `0 !BOW VEHICLE` line") if meta or meta_lines else why
        self.vehicles.append(vehicle)
        self.vehicle_nodes.add(id(node))
        self.taken.update(members)
        return vehicle

    def _small(self, node: Placement) -> bool:
        """Few enough minifigs and small enough seen from above to be a vehicle."""
        members = self.members[id(node)]
        if self.torsos[id(node)] > MAX_VEHICLE_TORSOS or not members:
            return False
        boxes = self.boxes[members]
        extent = boxes[:, 1, :2].max(axis=0) - boxes[:, 0, :2].min(axis=0)
        return float(extent.max()) / STUD_LDU <= MAX_VEHICLE_STUDS

    def _loose_minifigs(self, loose: list[Slot], vehicle: Figure | None) -> None:
        groups, left = _group_loose(self.model, loose, self.roles)
        by_index = {s.index: s for s in loose}
        for torso, members in groups.items():
            first = by_index[torso]
            unit = _unit_from_torso(self.model, torso, members, self.roles, self.titles,
                                    _("loose parts at {file} line {line}").format(file=Path(first.source).name,
                                                                                  line=first.line))
            unit.why = _("{n} loose minifig parts around a torso").format(n=len(members))
            for i in sorted(members):  # `0 !BOW UNIT` just before any of its lines (usually the torso's)
                for line, found in meta_commands(by_index[i].meta_before, "UNIT"):
                    unit.meta.update(found)
                    unit.meta_lines.append((by_index[i].source, line))
            unit.drop_lines = [(by_index[i].source, by_index[i].line) for i in members] + unit.meta_lines
            self._add(unit, vehicle)
        if left:
            self.notes.append(f"{len(left)} minifig part(s) near no torso were left in the decor: "
                              + ", ".join(sorted({self.titles[i] for i in left})[:5]))

    def _add(self, unit: Figure, vehicle: Figure | None) -> None:
        (self.units if vehicle is None else vehicle.occupants).append(unit)
        self.taken.update(unit.instances)

    def placement_notes(self) -> None:
        """Say so of every minifig on the ground that sits, or stands under decor: in a scene a unit stands
        on the highest decor surface over its position (C1)."""
        decor = np.ones(len(self.model.instances), bool)
        for figure in self.units + self.vehicles:
            decor[figure.instances] = False
            for occupant in figure.occupants:
                decor[occupant.instances] = False
        for unit in self.units:
            seated = kinds.is_seated(self.model, unit.torso, unit.instances, self.roles)
            feet = float(self.boxes[unit.instances, 0, 2].min())
            over = kinds.decor_over(self.boxes, decor, np.array(unit.position) * STUD_LDU, feet)
            if over >= 0:
                rise = float(self.boxes[over, 1, 2]) - feet
                under = (_("{origin}: sits under {part} ({file} line {line}), whose top is {rise} LDU above its "
                           "feet: in the scene it will stand on it; move it in the model or in the scene") if seated
                         else _("{origin}: stands under {part} ({file} line {line}), whose top is {rise} LDU above "
                                "its feet: in the scene it will stand on it; move it in the model or in the scene"))
                self.notes.append(under.format(origin=unit.origin, part=self.titles[over],
                                               file=self.model.instances[over].file,
                                               line=self.model.instances[over].line, rise=f"{rise:.0f}"))
            elif seated:
                self.notes.append(_("{origin}: is seated (its legs are bent); in the scene it stands at its "
                                    "position (seat it in a vehicle, with `0 !BOW VEHICLE`, to keep it seated)")
                                  .format(origin=unit.origin))


def find_figures(model: Model, structure: Structure) -> tuple[list[Figure], list[Figure], list[str]]:
    """(units on the ground, vehicles with their occupants, notes) found in a loaded model."""
    return _find(model, structure)[:3]


def find_figures_explained(model: Model, structure: Structure) -> tuple[list[Figure], list[Figure], list[str], list[str]]:
    """As find_figures, plus the sub-models that looked like a minifig or a vehicle but stay decor, and why."""
    return _find(model, structure)


def _find(model: Model, structure: Structure) -> tuple[list[Figure], list[Figure], list[str], list[str]]:
    finder = _Finder(model, structure)
    finder.visit(structure.root, None)
    _seat_riders(model, finder.units, finder.vehicles)
    for vehicle in finder.vehicles:
        _order_occupants(vehicle)
        riders = {i for unit in vehicle.occupants for i in unit.instances}
        vehicle.instances = [i for i in vehicle.instances if i not in riders]
        vehicle.titles = [finder.titles[i] for i in vehicle.instances if finder.roles[i] == eq.EQUIPMENT]
    finder.placement_notes()
    return finder.units, finder.vehicles, finder.notes, finder.decor


def _describe(node: Placement) -> str:
    return _("{name} placed at {file} line {line}").format(name=node.name, file=Path(node.source).name, line=node.line)


def _vehicle_figure(model: Model, node: Placement, members: list[int], roles: dict[int, str], meta: dict[str, str],
                    meta_lines: list[tuple[str, int]], kind: str) -> Figure:
    transform = world_transform(node)
    facing = _facing_of(transform)  # vehicles are built facing LDraw -Z, like minifigs
    centre = _footprint_centre(_world_points(model, members), facing)
    steering = [i for i in members if roles[i] == eq.STEERING]
    seats = sum(roles[i] == eq.SEAT for i in members)
    vehicle = Figure("vehicle", members, (centre[0] / STUD_LDU, centre[1] / STUD_LDU), facing, _describe(node),
                     meta=meta, meta_lines=meta_lines, name_hint=PurePosixPath(node.name).stem,
                     drop_lines=[(node.source, node.line)] + meta_lines, vehicle_kind=kind, seats=seats,
                     steering=model.instances[steering[0]].transform[:3, 3] if steering else None)
    return vehicle


def _loose_vehicle(model: Model, slot: Slot) -> Figure:
    """A vehicle made of one part (a horse): `0 !BOW VEHICLE` may stand just before its line."""
    transform = model.instances[slot.index].transform
    facing = _facing_of(transform)
    centre = _footprint_centre(_world_points(model, [slot.index]), facing)
    meta: dict[str, str] = {}
    meta_lines = []
    for line, found in meta_commands(slot.meta_before, "VEHICLE"):
        meta.update(found)
        meta_lines.append((slot.source, line))
    return Figure("vehicle", [slot.index], (centre[0] / STUD_LDU, centre[1] / STUD_LDU), facing,
                  _("{name} at {file} line {line}").format(name=slot.name, file=Path(slot.source).name,
                                                           line=slot.line), meta=meta, meta_lines=meta_lines,
                  drop_lines=[(slot.source, slot.line)] + meta_lines, vehicle_kind=eq.HORSE, seats=1, why=_("a horse"))


def _footprint_centre(points: np.ndarray, facing: float) -> np.ndarray:
    """World XY centre of the points' box in a frame turned by `facing` (the oriented footprint)."""
    if points.shape[0] == 0:
        return np.zeros(2)
    a = math.radians(facing)
    rot = np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]])  # world -> vehicle frame
    local = points[:, :2] @ rot.T
    mid = (local.min(axis=0) + local.max(axis=0)) / 2
    return rot.T @ mid


def _seat_riders(model: Model, units: list[Figure], vehicles: list[Figure]) -> None:
    """Minifigs standing on top of a vehicle's footprint (e.g. a rider on a loose horse) board it."""
    for vehicle in vehicles:
        pts = _world_points(model, vehicle.instances)
        if pts.shape[0] == 0:
            continue
        a = math.radians(vehicle.facing)
        rot = np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]])
        local = pts[:, :2] @ rot.T
        lo, hi, bottom = local.min(axis=0), local.max(axis=0), pts[:, 2].min()
        for unit in list(units):
            p = rot @ (np.array(unit.position) * STUD_LDU)
            feet = _world_points(model, unit.instances)[:, 2].min()
            if np.all(p >= lo) and np.all(p <= hi) and feet > bottom + 12.0:
                units.remove(unit)
                vehicle.occupants.append(unit)
                vehicle.drop_lines += unit.drop_lines


def _order_occupants(vehicle: Figure) -> None:
    """The pilot first: nearest the steering wheel, else the one furthest to the front."""
    for unit in vehicle.occupants:
        unit.aboard = True
    if not vehicle.occupants:
        return
    a = math.radians(vehicle.facing)
    forward = np.array([math.cos(a), math.sin(a)])
    if vehicle.steering is not None:
        key = [float(np.linalg.norm(np.array(u.position) * STUD_LDU - vehicle.steering[:2])) for u in vehicle.occupants]
    else:
        key = [-float(np.dot(np.array(u.position), forward)) for u in vehicle.occupants]
    vehicle.occupants = [u for _key, u in sorted(zip(key, vehicle.occupants), key=lambda p: p[0])]


def side_from_name(name: str, known: set[str]) -> str | None:
    """A side named by a token of a sub-model name: 'blue-rifleman' -> 'blue' (known sides, then colours)."""
    tokens = [t for t in re.split(r"[^a-z0-9]+", name.lower()) if t]
    for pool in (known, set(COLOUR_SIDES)):
        for token in tokens:
            if token in pool:
                return token
    return None
