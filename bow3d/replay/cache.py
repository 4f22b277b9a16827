"""A memo in front of a Geometry: the same question about the same poses is answered once.

Layer: replay. The rules ask the geometry the same things many times (the AI weighing a shot,
the checker accepting it, the attack resolving it; the next unit's turn with most of the field
unchanged).

More: docs/modules/replay.md#cache.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

DEFAULT_RADIUS_STUDS = 8.0   # for geometries that do not say how big their bodies are
MARGIN_STUDS = 0.5
MAX_ENTRIES = 50_000         # small answers (sight, distances...) kept before the memo is emptied
MAX_CELL_ENTRIES = 2_000     # reachable cells and paths (bigger answers) kept before they are emptied

Pose = tuple[Any, ...]  # (x, y, facing); a seated unit's goes on with its vehicle and seat


@dataclass(frozen=True)
class CachedSight:
    """The fields of a sight report the rules read (C2 SightReport): facts, no verdict."""

    visible: bool
    visible_fraction: float
    distance_studs: float
    in_front_arc: bool
    blockers: tuple = ()
    transparent_fraction: float = 0.0


def _segment_gap(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    """Distance from point p to segment ab, in the plane."""
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def body_radii(geometry: Any, ids: Iterable[str]) -> dict[str, float]:
    """Radius (studs) of a circle around each body's position that holds the body seen from above."""
    radii = {}
    bodies = getattr(geometry, "bodies", None)
    flat_vehicles = getattr(geometry, "vehicles", None)
    for id in ids:
        body = bodies.get(id) if isinstance(bodies, dict) else None
        shape = getattr(getattr(body, "template", None), "shape", None)
        if shape is not None:  # bow3d.world: bounding sphere in the body frame, LDU
            offset = math.hypot(float(shape.centre[0]), float(shape.centre[1]))
            radii[id] = (float(shape.radius) + offset) / 20.0
        elif isinstance(flat_vehicles, set) and hasattr(geometry, "vehicle_size"):  # bow3d.rules.flat
            length, width = geometry.vehicle_size
            radii[id] = math.hypot(length, width) / 2 if id in flat_vehicles else math.sqrt(0.5)
        else:
            radii[id] = DEFAULT_RADIUS_STUDS
    return radii


class CachedGeometry:
    """A Geometry (C2) that remembers answers keyed on the poses that matter (see module doc).

    Every place/remove must go through it (the rules do: they only know this object). Other
    attributes are passed through to the wrapped geometry.
    """

    def __init__(self, inner: Any, ids: Iterable[str]) -> None:
        self.inner = inner
        self.radii = body_radii(inner, ids)
        self.poses: dict[str, Pose] = {}
        self._away: dict[str, list[tuple[str, int]]] = {}   # a removed vehicle -> its occupants (unit, seat)
        self.doors: dict[str, tuple[tuple[int, int], bool]] = {}
        self._door_key: tuple = ()
        self.obstacles: dict[str, tuple] = {}   # obstacle id -> (footprint or cells, height, material)
        self.removed: set[int] = set()          # decor instances taken away
        self._change_key: tuple = ((), ())
        self._memo: dict[tuple, Any] = {}
        self._cells: dict[tuple, Any] = {}
        self.hits = 0
        self.misses = 0

    @classmethod
    def for_scene(cls, inner: Any, scene: Any) -> CachedGeometry:
        """Wrap `inner` and put every unit and vehicle where the scene has it (units aboard off the
        field), so that the memo knows every pose and a reused world starts clean."""
        ids = [u.id for u in scene.units] + [v.id for v in scene.vehicles]
        cached = cls(inner, ids)
        cached.reset(scene)
        return cached

    def reset(self, scene: Any) -> None:
        """Bodies back to the scene's start: on-foot units and vehicles placed, the others removed."""
        for vehicle in scene.vehicles:
            self.place(vehicle.id, tuple(vehicle.position), float(vehicle.facing))
        for unit in scene.units:
            if unit.position is None:
                self.remove(unit.id)
            else:
                self.place(unit.id, tuple(unit.position), float(unit.facing))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    # -- keeping the poses -----------------------------------------------------------------
    def place(self, id: str, position: tuple[float, float], facing_deg: float) -> None:
        self.inner.place(id, position, facing_deg)
        self.poses[id] = pose = (float(position[0]), float(position[1]), float(facing_deg) % 360.0)
        self._forget_away(id)   # a unit placed stands on its own: out of any removed vehicle's seat
        for unit, seat in self._away.pop(id, ()):   # a vehicle put back brings its occupants back (World.place)
            self.poses[unit] = (*pose, id, seat)
        for unit, seated in list(self.poses.items()):  # a vehicle's seated occupants move with it
            if len(seated) > 3 and seated[3] == id:
                self.poses[unit] = (*pose, id, seated[4])

    def remove(self, id: str) -> None:
        self.inner.remove(id)
        self.poses.pop(id, None)
        for unit, pose in list(self.poses.items()):  # a vehicle's seated occupants go with it, still seated
            if len(pose) > 3 and pose[3] == id:
                self.poses.pop(unit)
                self._away.setdefault(id, []).append((unit, pose[4]))
        self._forget_away(id)   # a unit taken off on its own is no longer in its vehicle

    def _forget_away(self, unit: str) -> None:
        for away in self._away.values():
            away[:] = [(u, seat) for u, seat in away if u != unit]

    def seat(self, unit: str, vehicle: str, seat: int) -> None:
        """A unit seated in a vehicle (BOW §3.1): its pose is the vehicle's and its seat."""
        self.inner.seat(unit, vehicle, seat)
        self._forget_away(unit)
        carrier = self.poses.get(vehicle)
        if carrier is None:   # seated in a vehicle off the field: it comes back with it
            self.poses.pop(unit, None)
            self._away.setdefault(vehicle, []).append((unit, int(seat)))
        else:
            self.poses[unit] = (*carrier[:3], vehicle, int(seat))

    def set_door(self, door: str, cell: tuple[int, int], open: bool) -> None:
        """Open or close a door (BOW §2.3.3); every answer is keyed on the doors' states too."""
        self.inner.set_door(door, cell, open)
        self.doors[door] = ((cell[0], cell[1]), bool(open))
        self._door_key = tuple(sorted(self.doors.items()))

    # -- the rules' changes to the battlefield (War of Bros' Bodies, wrecks, trampled cover) -------
    def add_obstacle(self, id: str, footprint: Any = None, height_ldu: float = 24.0, material: str = "stone", *,
                     cells: Any = None) -> None:
        self.inner.add_obstacle(id, footprint, height_ldu, material, cells=cells)
        shape = tuple(map(tuple, cells)) if cells is not None else tuple(tuple(map(float, c)) for c in footprint)
        self.obstacles[id] = (shape, float(height_ldu), str(material))
        self._rekey()

    def remove_obstacle(self, id: str) -> None:
        self.inner.remove_obstacle(id)
        self.obstacles.pop(id, None)
        self._rekey()

    def remove_decor(self, instances: Any = None, region: Any = None, materials: Any = None) -> Any:
        removed = self.inner.remove_decor(instances, region, materials)
        self.removed.update(int(k) for k in removed)
        self._rekey()
        return removed

    def restore_decor(self, instances: Any) -> None:
        self.inner.restore_decor(instances)
        self.removed.difference_update(int(k) for k in instances)
        self._rekey()

    def _rekey(self) -> None:
        self._change_key = (tuple(sorted(self.obstacles.items())), tuple(sorted(self.removed)))

    # -- keys ------------------------------------------------------------------------------
    def _radius(self, id: str) -> float:
        return self.radii.get(id, DEFAULT_RADIUS_STUDS)

    def _near_segment(self, a: str, b: str) -> tuple:
        pa, pb = self.poses.get(a), self.poses.get(b)
        if pa is None or pb is None:
            return (None,)
        reach = self._radius(b) + MARGIN_STUDS
        return tuple((id, pose) for id, pose in self.poses.items()
                     if id != a and id != b
                     and _segment_gap(pose[0], pose[1], pa[0], pa[1], pb[0], pb[1]) <= reach + self._radius(id))

    def _near_point(self, a: str, distance: float) -> tuple:
        pa = self.poses.get(a)
        if pa is None:
            return (None,)
        reach = distance + self._radius(a) + MARGIN_STUDS
        return tuple((id, pose) for id, pose in self.poses.items()
                     if id != a and math.hypot(pose[0] - pa[0], pose[1] - pa[1]) <= reach + self._radius(id))

    def _remember(self, key: tuple, compute: Any, cells: bool = False) -> Any:
        key = (key, self._door_key, self._change_key)
        memo, limit = (self._cells, MAX_CELL_ENTRIES) if cells else (self._memo, MAX_ENTRIES)
        try:
            value = memo[key]
            self.hits += 1
            return value
        except KeyError:
            pass
        self.misses += 1
        value = compute()
        if len(memo) >= limit:
            memo.clear()
        memo[key] = value
        return value

    # -- the protocol ----------------------------------------------------------------------
    def sight(self, firer: str, target: str) -> CachedSight:
        key = ("sight", firer, target, self.poses.get(firer), self.poses.get(target), self._near_segment(firer, target))

        def compute() -> CachedSight:
            r = self.inner.sight(firer, target)
            return CachedSight(bool(r.visible), float(r.visible_fraction), float(r.distance_studs),
                               bool(r.in_front_arc), tuple(getattr(r, "blockers", ()) or ()),
                               float(getattr(r, "transparent_fraction", 0.0)))
        return self._remember(key, compute)

    def bodies_along(self, a: Any, b: Any, kinds: Any = None, decor: bool = False) -> Any:
        """The wrapped answer, remembered when both ends are bodies standing on their own (see _along_key); none
        when no unit or vehicle comes near the segment and only those are asked for (bodies only)."""
        near = self._along_key(a, b)
        if near is None:
            return self.inner.bodies_along(a, b, kinds, decor)
        kinds_key = kinds if kinds is None or isinstance(kinds, str) else tuple(kinds)
        if not near and not decor and kinds_key is not None and set((kinds_key,) if isinstance(kinds_key, str)
                                                                else kinds_key) <= {"unit", "vehicle"}:
            return ()   # every unit and vehicle has a pose here: none is near enough to be crossed
        key = ("along", a, b, kinds_key, bool(decor), self.poses[a], self.poses[b], near)
        return self._remember(key, lambda: self.inner.bodies_along(a, b, kinds, decor))

    def _along_key(self, a: Any, b: Any) -> tuple | None:
        """The poses of the bodies the segment between two bodies' eyes can pass through: every eye lies
        inside its body's circle, so the segment keeps within the larger of the two radii of the one between
        their positions; seated bodies (their circle is not round their pose) are always in. None when an end
        is a point or a seated body (then nothing is remembered)."""
        if not (isinstance(a, str) and isinstance(b, str)):
            return None
        pa, pb = self.poses.get(a), self.poses.get(b)
        if pa is None or pb is None or len(pa) > 3 or len(pb) > 3:
            return None
        reach = max(self._radius(a), self._radius(b)) + MARGIN_STUDS
        return tuple((id, pose) for id, pose in self.poses.items()
                     if id != a and id != b and (len(pose) > 3 or _segment_gap(pose[0], pose[1], pa[0], pa[1], pb[0],
                                                                                 pb[1]) <= reach + self._radius(id)))

    def _pair(self, name: str, a: str, b: str, *args: Any) -> Any:
        key = (name, a, b, self.poses.get(a), self.poses.get(b), args)
        return self._remember(key, lambda: getattr(self.inner, name)(a, b, *args))

    def distance_studs(self, a: str, b: str) -> float:
        return self._pair("distance_studs", a, b)

    def in_front_arc(self, viewer: str, target: str, arc_deg: float = 180.0) -> bool:
        return self._pair("in_front_arc", viewer, target, arc_deg)

    def within_reach(self, attacker: str, target: str, reach_studs: float) -> bool:
        return self._pair("within_reach", attacker, target, reach_studs)

    def is_close(self, a: str, b: str) -> bool:
        return self._pair("is_close", a, b)

    def touch_gap_studs(self, a: str, b: str) -> float:
        return self._pair("touch_gap_studs", a, b)

    def reachable_cells(self, unit: str, move_studs: int) -> dict[tuple[int, int], int]:
        key = ("reachable", unit, move_studs, self.poses.get(unit), self._near_point(unit, move_studs + 1.5))
        return dict(self._remember(key, lambda: self.inner.reachable_cells(unit, move_studs), cells=True))

    def path(self, unit: str, to: tuple[int, int], move_studs: int) -> list[tuple[int, int]] | None:
        key = ("path", unit, tuple(to), move_studs, self.poses.get(unit), self._near_point(unit, move_studs + 1.5))
        found = self._remember(key, lambda: self.inner.path(unit, to, move_studs), cells=True)
        return None if found is None else list(found)

    def sweep(self, vehicle: str, distance_studs: float) -> Any:
        key = ("sweep", vehicle, distance_studs, self.poses.get(vehicle), self._near_point(vehicle, distance_studs))
        return self._remember(key, lambda: self.inner.sweep(vehicle, distance_studs))

    def turn_contacts(self, vehicle: str, delta_deg: float) -> Any:
        key = ("turn", vehicle, delta_deg, self.poses.get(vehicle), self._near_point(vehicle, 0.0))
        return self._remember(key, lambda: self.inner.turn_contacts(vehicle, delta_deg))

    def can_throw(self, unit: str, to: tuple[int, int], max_studs: float) -> bool:
        return self.inner.can_throw(unit, to, max_studs)

    def free_cells_near(self, vehicle: str) -> list[tuple[int, int]]:
        return self.inner.free_cells_near(vehicle)
