"""FlatGeometry: the C2 geometry protocol on an open flat field, for tests and fast playouts.

Layer: rules (the engine's test double; pure Python). The field is [0, width) x [0, depth)
studs. Walls are axis-aligned boxes (studs) that block movement, sight, throws and reach; glass
panes are boxes like walls that sight passes through (the target is then seen only through glass:
visible fraction 0, `transparent_fraction` what the glass shows); cover zones are boxes in which a
visible target is half hidden (visible fraction 0.5, by a 'decor' blocker of material
`COVER_MATERIAL`). Units are 1x1-stud squares centred on their position; vehicles are oriented
rectangles (`vehicle_size` = length along the facing x width, studs); a seated occupant stands at its
vehicle's centre, half hidden by it (OCCUPANT_SHOWN). Heads are all at the same height, so distances
are 2D. A straight vehicle move is sampled every `SWEEP_STEP` studs; the collision sector is
bow3d.sectors', read at the moving vehicle's centre when it touches (there is no contact point here:
`contact_sector` is the same).
"""

from __future__ import annotations

import copy
import math
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from bow3d.rules.geometry import Cell
from bow3d.sectors import collision_sector

SWEEP_STEP = 0.25       # studs between samples of a straight vehicle move
TURN_STEP = 5.0         # degrees between samples of a turn on the spot
UNIT_HALF = 0.5         # half side of a unit's footprint, studs
EPS = 1e-9
OCCUPANT_SHOWN = 0.5    # share of a seated occupant its vehicle does not hide


@dataclass(frozen=True)
class Box:
    """An axis-aligned box on the field: [x0, x1] x [y0, y1], studs."""

    x0: float
    y0: float
    x1: float
    y1: float

    def contains(self, x: float, y: float) -> bool:
        return self.x0 <= x <= self.x1 and self.y0 <= y <= self.y1

    def corners(self) -> list[tuple[float, float]]:
        return [(self.x0, self.y0), (self.x1, self.y0), (self.x1, self.y1), (self.x0, self.y1)]


COVER_MATERIAL = "stone"   # what a cover zone is made of


@dataclass(frozen=True)
class FlatBlocker:
    kind: str
    share: float
    material: str
    id: str | None = None


@dataclass(frozen=True)
class FlatSight:
    visible: bool
    visible_fraction: float
    distance_studs: float
    in_front_arc: bool
    blockers: tuple[FlatBlocker, ...] = ()
    transparent_fraction: float = 0.0


@dataclass(frozen=True)
class FlatContact:
    kind: str
    other: str | None
    distance_studs: float
    sector: str | None = None
    contact_sector: str | None = None


@dataclass
class FlatGeometry:
    """An open flat field with optional walls and cover zones (implements bow3d.rules.geometry.Geometry)."""

    width: float = 60.0
    depth: float = 60.0
    walls: list[Box] = field(default_factory=list)
    cover: list[Box] = field(default_factory=list)
    vehicle_size: tuple[float, float] = (6.0, 4.0)
    positions: dict[str, tuple[float, float]] = field(default_factory=dict)
    facings: dict[str, float] = field(default_factory=dict)
    vehicles: set[str] = field(default_factory=set)
    closed_doors: dict[str, Box] = field(default_factory=dict)  # door id -> its cell, a wall while closed
    glass: list[Box] = field(default_factory=list)              # panes: sight passes, the rest does not
    seated: dict[str, tuple[str, int]] = field(default_factory=dict)  # unit -> (vehicle, seat)

    @classmethod
    def from_scene(cls, scene: Any, **kwargs: Any) -> FlatGeometry:
        """Units and vehicles where the scene puts them (aboard units are off the field)."""
        geo = cls(**kwargs)
        aboard = {u for v in getattr(scene, "vehicles", None) or [] for u in (v.occupants or [])}
        for v in getattr(scene, "vehicles", None) or []:
            geo.vehicles.add(v.id)
            geo.place(v.id, tuple(v.position), float(v.facing or 0))
        for u in scene.units:
            if u.id not in aboard and u.position is not None:
                geo.place(u.id, tuple(u.position), float(u.facing or 0))
        return geo

    def copy(self) -> FlatGeometry:
        return copy.deepcopy(self)

    # -- bodies ----------------------------------------------------------------------------
    def _polygon(self, id: str, at: tuple[float, float] | None = None, facing: float | None = None
                 ) -> list[tuple[float, float]]:
        x, y = at if at is not None else self.positions[id]
        if id not in self.vehicles:
            h = UNIT_HALF - EPS * 10
            return [(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)]
        a = math.radians(self.facings[id] if facing is None else facing)
        hl, hw = self.vehicle_size[0] / 2, self.vehicle_size[1] / 2
        c, s = math.cos(a), math.sin(a)
        return [(x + c * u - s * v, y + s * u + c * v) for u, v in ((hl, hw), (-hl, hw), (-hl, -hw), (hl, -hw))]

    def _radius(self, id: str) -> float:
        return min(self.vehicle_size) / 2 if id in self.vehicles else UNIT_HALF

    def _gap(self, a: str, b: str) -> float:
        return self.distance_studs(a, b) - self._radius(a) - self._radius(b)

    def _walls(self) -> list[Box]:
        return self.walls + list(self.closed_doors.values())

    def set_door(self, door: str, cell: Cell, open: bool) -> None:
        """A closed door fills its cell like a wall (sight, moves, sweeps); an open one is not there."""
        if open:
            self.closed_doors.pop(door, None)
        else:
            self.closed_doors[door] = Box(cell[0], cell[1], cell[0] + 1, cell[1] + 1)

    # -- sight -----------------------------------------------------------------------------
    def _blocked(self, p: tuple[float, float], q: tuple[float, float]) -> bool:
        return any(_segment_hits_box(p, q, wall) for wall in self._walls())

    def sight(self, firer: str, target: str) -> FlatSight:
        p, q = self.positions[firer], self.positions[target]
        clear = not self._blocked(p, q)
        behind_glass = clear and any(_segment_hits_box(p, q, pane) for pane in self.glass)
        shown = (0.5 if any(zone.contains(*q) for zone in self.cover) else 1.0) if clear else 0.0
        blockers: list[FlatBlocker] = []
        if shown < 1.0:
            blockers.append(FlatBlocker("decor", 1.0 - shown, COVER_MATERIAL))
        seat = self.seated.get(target)
        if seat is not None and seat[0] != self.seated.get(firer, (None,))[0]:  # hidden in part by its vehicle
            blockers.append(FlatBlocker("vehicle", shown * (1.0 - OCCUPANT_SHOWN), "vehicle", seat[0]))
            shown *= OCCUPANT_SHOWN
        glass = shown if behind_glass else 0.0
        if behind_glass:
            blockers.append(FlatBlocker("decor", glass, "glass"))
        fraction = 0.0 if behind_glass else shown
        return FlatSight(fraction > 0.0, fraction, self.distance_studs(firer, target), self.in_front_arc(firer, target),
                         tuple(blockers), glass)

    def distance_studs(self, a: str, b: str) -> float:
        (ax, ay), (bx, by) = self.positions[a], self.positions[b]
        return math.hypot(bx - ax, by - ay)

    def in_front_arc(self, viewer: str, target: str, arc_deg: float = 180.0) -> bool:
        (ax, ay), (bx, by) = self.positions[viewer], self.positions[target]
        if math.hypot(bx - ax, by - ay) < EPS:
            return True
        diff = (math.degrees(math.atan2(by - ay, bx - ax)) - self.facings[viewer] + 180) % 360 - 180
        return abs(diff) <= arc_deg / 2 + 1e-6

    def within_reach(self, attacker: str, target: str, reach_studs: float) -> bool:
        return self._gap(attacker, target) <= reach_studs + 1e-6

    def is_close(self, a: str, b: str) -> bool:
        return self._gap(a, b) <= 1.0 + 1e-6

    def touch_gap_studs(self, a: str, b: str) -> float:
        """The gap between the two bodies (0 when they overlap), unless a wall or a pane stands between
        their centres (inf): a hand or a weapon goes over nothing here (no heights)."""
        p, q = self.positions[a], self.positions[b]
        if self._blocked(p, q) or any(_segment_hits_box(p, q, pane) for pane in self.glass):
            return math.inf
        return max(0.0, self._gap(a, b))

    # -- movement --------------------------------------------------------------------------
    def _blocked_cells(self, mover: str) -> set[Cell]:
        blocked: set[Cell] = set()
        for other, (x, y) in self.positions.items():
            if other == mover or other in self.seated:
                continue
            if other in self.vehicles:
                blocked |= self._vehicle_cells(other)
            else:
                blocked.add((math.floor(x), math.floor(y)))
        return blocked

    def _vehicle_cells(self, vehicle: str) -> frozenset[Cell]:
        """Cells the vehicle's footprint overlaps, cached per placement."""
        cache = self.__dict__.setdefault("_cells_cache", {})
        key = (vehicle, self.positions[vehicle], self.facings[vehicle])
        if key not in cache:
            if len(cache) > 256:
                cache.clear()
            body = self._polygon(vehicle)
            xs, ys = zip(*body)
            cache[key] = frozenset((i, j) for i in range(math.floor(min(xs)), math.ceil(max(xs)))
                                   for j in range(math.floor(min(ys)), math.ceil(max(ys)))
                                   if _polygons_overlap(body, _cell_square(i, j)))
        return cache[key]

    def _wall_cells(self) -> set[Cell]:
        """Cells a wall (or a pane) overlaps, computed once per wall list (walls never move)."""
        key = tuple(self._walls() + self.glass)
        if getattr(self, "_wall_key", None) != key:
            cells: set[Cell] = set()
            for wall in key:
                for i in range(math.floor(wall.x0), math.ceil(wall.x1) + 1):
                    for j in range(math.floor(wall.y0), math.ceil(wall.y1) + 1):
                        if _polygons_overlap(_cell_square(i, j), wall.corners()):
                            cells.add((i, j))
            self._wall_key, self._wall_set = key, cells
        return self._wall_set

    def _free(self, cell: Cell, blocked: set[Cell]) -> bool:
        i, j = cell
        if not (0 <= i < self.width and 0 <= j < self.depth) or cell in blocked:
            return False
        return cell not in self._wall_cells()

    def _search(self, unit: str, move_studs: int) -> tuple[dict[Cell, int], dict[Cell, Cell]]:
        x, y = self.positions[unit]
        start = (math.floor(x), math.floor(y))
        blocked = self._blocked_cells(unit)
        steps, parent = {start: 0}, {}
        queue = deque([start])
        while queue:
            cell = queue.popleft()
            if steps[cell] >= move_studs:
                continue
            for di in (-1, 0, 1):
                for dj in (-1, 0, 1):
                    nxt = (cell[0] + di, cell[1] + dj)
                    if nxt not in steps and self._free(nxt, blocked):
                        steps[nxt] = steps[cell] + 1
                        parent[nxt] = cell
                        queue.append(nxt)
        return steps, parent

    def reachable_cells(self, unit: str, move_studs: int) -> dict[Cell, int]:
        return self._search(unit, move_studs)[0]

    def path(self, unit: str, to: Cell, move_studs: int) -> list[Cell] | None:
        steps, parent = self._search(unit, move_studs)
        to = (int(to[0]), int(to[1]))
        if to not in steps:
            return None
        cells = []
        while to in parent:
            cells.append(to)
            to = parent[to]
        return cells[::-1]

    def can_throw(self, unit: str, to: Cell, max_studs: float) -> bool:
        p = self.positions[unit]
        q = (to[0] + 0.5, to[1] + 0.5)
        inside = 0 <= to[0] < self.width and 0 <= to[1] < self.depth
        return inside and math.hypot(q[0] - p[0], q[1] - p[1]) <= max_studs + 1e-6 and not self._blocked(p, q)

    def free_cells_near(self, vehicle: str) -> list[Cell]:
        xs, ys = zip(*self._polygon(vehicle))
        blocked = self._blocked_cells(vehicle)
        body = self._polygon(vehicle)
        cells = []
        for i in range(math.floor(min(xs)) - 1, math.ceil(max(xs)) + 1):
            for j in range(math.floor(min(ys)) - 1, math.ceil(max(ys)) + 1):
                square = _cell_square(i, j)
                if _polygons_overlap(square, body) or not self._free((i, j), blocked):
                    continue
                if _polygons_overlap(_grow(square, 1.0), body):
                    cells.append((i, j))
        cx, cy = self.positions[vehicle]
        return sorted(cells, key=lambda c: (round(math.hypot(c[0] + 0.5 - cx, c[1] + 0.5 - cy), 6), c))

    def place(self, id: str, position: tuple[float, float], facing_deg: float) -> None:
        self.seated.pop(id, None)
        self.positions[id] = (float(position[0]), float(position[1]))
        self.facings[id] = float(facing_deg) % 360
        if id in self.vehicles:
            for unit, (vehicle, _seat) in self.seated.items():
                if vehicle == id:
                    self.positions[unit], self.facings[unit] = self.positions[id], self.facings[id]

    def remove(self, id: str) -> None:
        self.positions.pop(id, None)
        self.facings.pop(id, None)
        if id in self.vehicles:   # its occupants go with it (still seated)
            for unit, (vehicle, _seat) in self.seated.items():
                if vehicle == id:
                    self.positions.pop(unit, None)
                    self.facings.pop(unit, None)
        else:
            self.seated.pop(id, None)

    def seat(self, unit: str, vehicle: str, seat: int) -> None:
        """A unit aboard, at its vehicle's centre, moving with it (on the field while the vehicle is)."""
        self.seated[unit] = (vehicle, int(seat))
        if vehicle in self.positions:
            self.positions[unit], self.facings[unit] = self.positions[vehicle], self.facings[vehicle]
        else:
            self.positions.pop(unit, None)
            self.facings.pop(unit, None)

    # -- vehicles --------------------------------------------------------------------------
    def _contact_at(self, vehicle: str, at: tuple[float, float], facing: float, ignore: set[str]
                    ) -> tuple[str, str | None] | None:
        body = self._polygon(vehicle, at, facing)
        if not (0 <= at[0] <= self.width and 0 <= at[1] <= self.depth):
            return ("edge", None)
        for wall in self._walls() + self.glass:
            if _polygons_overlap(body, wall.corners()):
                return ("decor", None)
        for other in sorted(self.positions):
            if other in self.seated:
                continue  # occupants ride inside their vehicle
            if other != vehicle and other not in ignore and _polygons_overlap(body, self._polygon(other)):
                return ("vehicle" if other in self.vehicles else "unit", other)
        return None

    def _touching(self, vehicle: str) -> set[str]:
        body = self._polygon(vehicle)
        return {o for o in self.positions if o != vehicle and _polygons_overlap(body, self._polygon(o))}

    def sweep(self, vehicle: str, distance_studs: float) -> FlatContact | None:
        x, y = self.positions[vehicle]
        facing = self.facings[vehicle]
        ux, uy = math.cos(math.radians(facing)), math.sin(math.radians(facing))
        ignore = self._touching(vehicle)
        steps = int(math.ceil(distance_studs / SWEEP_STEP - 1e-9))
        for k in range(1, steps + 1):
            d = min(k * SWEEP_STEP, distance_studs)
            hit = self._contact_at(vehicle, (x + ux * d, y + uy * d), facing, ignore)
            if hit is not None:
                kind, other = hit
                travelled = (k - 1) * SWEEP_STEP
                sector = self._sector(other, (x + ux * travelled, y + uy * travelled)) if kind == "vehicle" else None
                return FlatContact(kind, other, travelled, sector, sector)
        return None

    def turn_contacts(self, vehicle: str, delta_deg: float) -> FlatContact | None:
        facing = self.facings[vehicle]
        ignore = self._touching(vehicle)
        steps = max(1, int(math.ceil(abs(delta_deg) / TURN_STEP)))
        for k in range(1, steps + 1):
            hit = self._contact_at(vehicle, self.positions[vehicle], facing + delta_deg * k / steps, ignore)
            if hit is not None:
                kind, other = hit
                sector = self._sector(other, self.positions[vehicle]) if kind == "vehicle" else None
                return FlatContact(kind, other, 0.0, sector, sector)
        return None

    def _sector(self, hit: str | None, point: tuple[float, float]) -> str:
        """The collision sector (bow3d.sectors, the world's definition): the hit vehicle's sector
        holding `point` (the moving vehicle's centre when they touch)."""
        assert hit is not None  # a vehicle hit names the vehicle
        return collision_sector(self.positions[hit], self.facings[hit], self.vehicle_size[0], self.vehicle_size[1],
                                point)


# -- small 2D helpers ----------------------------------------------------------------------
def _cell_square(i: int, j: int) -> list[tuple[float, float]]:
    return [(i + 0.01, j + 0.01), (i + 0.99, j + 0.01), (i + 0.99, j + 0.99), (i + 0.01, j + 0.99)]


def _grow(poly: list[tuple[float, float]], by: float) -> list[tuple[float, float]]:
    xs, ys = zip(*poly)
    return [(min(xs) - by, min(ys) - by), (max(xs) + by, min(ys) - by), (max(xs) + by, max(ys) + by),
            (min(xs) - by, max(ys) + by)]


def _axes(poly: Iterable[tuple[float, float]]) -> list[tuple[float, float]]:
    pts = list(poly)
    return [(-(pts[(k + 1) % len(pts)][1] - pts[k][1]), pts[(k + 1) % len(pts)][0] - pts[k][0])
            for k in range(len(pts))]


def _polygons_overlap(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> bool:
    """Separating-axis test for two convex polygons (touching edges do not overlap)."""
    for ax, ay in _axes(a) + _axes(b):
        pa = [ax * x + ay * y for x, y in a]
        pb = [ax * x + ay * y for x, y in b]
        if max(pa) <= min(pb) + 1e-9 or max(pb) <= min(pa) + 1e-9:
            return False
    return True


def _segment_hits_box(p: tuple[float, float], q: tuple[float, float], box: Box) -> bool:
    """Liang-Barsky clipping of the segment p-q against the box."""
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for pk, qk in ((-dx, p[0] - box.x0), (dx, box.x1 - p[0]), (-dy, p[1] - box.y0), (dy, box.y1 - p[1])):
        if abs(pk) < EPS:
            if qk < 0:
                return False
            continue
        t = qk / pk
        if pk < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True
