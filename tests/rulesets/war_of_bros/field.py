"""A 2.5D battlefield double for War of Bros' rule tests: boxes instead of LDraw models.

The same questions the 3D world answers (bow3d.world.World), on boxes: units are their bases raised
to a height (a minifig 96 LDU, a Mechanized unit 64), decor and obstacles are boxes with a
material. Sight casts a 5 x 5 fan of segments from the firer's eye (its centre, EYE_LDU up) to
points spread over the target's box; the first box each meets hides that point (its blocker, with
the share of points it hides). Units: studs in plan, LDU in height, like the world.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from bow3d.rulesets.war_of_bros import plan

UNIT_HEIGHT, MECH_HEIGHT, EYE_LDU = 96.0, 64.0, 84.0
STUD = 20.0


@dataclass(frozen=True)
class Box:
    x0: float
    x1: float
    y0: float
    y1: float
    z0: float = 0.0
    z1: float = 48.0
    material: str = "stone"
    part: str = "box.dat"


@dataclass(frozen=True)
class Blocker:
    kind: str
    share: float
    material: str
    id: str | None = None
    part: str | None = None
    colour: str | None = None
    file: str | None = None
    line: int | None = None
    height_ldu: float | None = None


@dataclass(frozen=True)
class Sight:
    firer: str
    target: str
    visible: bool
    visible_fraction: float
    distance_studs: float
    in_front_arc: bool
    blockers: tuple = ()


@dataclass(frozen=True)
class Crossing:
    kind: str
    distance_studs: float
    id: str | None = None


@dataclass
class Body:
    id: str
    kind: str
    base: tuple[float, float]
    height: float
    material: str


@dataclass
class BoxField:
    """Open ground `width` x `depth` studs with decor boxes; bodies added from a scene."""

    width: float = 200.0
    depth: float = 200.0
    decor: list[Box] = field(default_factory=list)
    bodies: dict = field(default_factory=dict)
    poses: dict = field(default_factory=dict)
    obstacles: dict = field(default_factory=dict)

    @classmethod
    def for_scene(cls, scene, decor=(), width=200.0, depth=200.0) -> BoxField:
        geo = cls(width, depth, list(decor))
        mechs = {v.id for v in getattr(scene, "vehicles", None) or []}
        for item in (*scene.units, *(getattr(scene, "vehicles", None) or [])):
            kind = "vehicle" if item.id in mechs else "unit"
            geo.bodies[item.id] = Body(item.id, kind, tuple(item.base), MECH_HEIGHT if kind == "vehicle" else UNIT_HEIGHT,
                                       kind)
            if item.position is not None:
                geo.place(item.id, tuple(item.position), item.facing)
        geo._refresh()
        return geo

    # -- the world's attributes the rules read ---------------------------------------------------
    def _refresh(self) -> None:
        boxes = [Box(0, self.width, 0, self.depth, -4, 0, "ground", "baseplate.dat")] + self.decor
        self.decor_boxes = np.array([[[b.x0 * STUD, b.y0 * STUD, b.z0], [b.x1 * STUD, b.y1 * STUD, b.z1]]
                                     for b in boxes])
        self.decor_materials = np.array([b.material for b in boxes])
        self.removed_decor = np.zeros(len(boxes), bool)
        self._boxes = boxes

    def copy(self) -> BoxField:
        import copy
        return copy.deepcopy(self)

    # -- bodies ----------------------------------------------------------------------------------
    def place(self, id, position, facing) -> None:
        self.poses[id] = ((float(position[0]), float(position[1])), float(facing) % 360.0)

    def remove(self, id) -> None:
        self.poses.pop(id, None)

    def add_obstacle(self, id, footprint=None, height_ldu=24.0, material="stone", *, cells=None) -> None:
        xs = [p[0] for p in footprint]
        ys = [p[1] for p in footprint]
        self.obstacles[id] = Box(min(xs), max(xs), min(ys), max(ys), 0.0, float(height_ldu), material, id)
        self.bodies[id] = Body(id, "obstacle", (0, 0), float(height_ldu), material)

    def remove_obstacle(self, id) -> None:
        self.obstacles.pop(id, None)

    def remove_decor(self, instances=None, region=None, materials=None):
        new = [k for k in instances if not self.removed_decor[k]]
        self.removed_decor[new] = True
        return np.array(new, np.int64)

    def restore_decor(self, instances) -> None:
        self.removed_decor[list(instances)] = False

    # -- geometry ---------------------------------------------------------------------------------
    def _corners(self, id):
        (x, y), facing = self.poses[id]
        w, d = self.bodies[id].base
        return plan.base_corners((x, y), facing, w, d)

    def _solids(self, skip=()):
        """(kind, id, material, part, box) of everything that hides: decor, obstacles, bodies."""
        out = []
        for k, box in enumerate(self._boxes):
            if k and not self.removed_decor[k]:
                out.append(("decor", None, box.material, box.part, box, k))
        for key, box in self.obstacles.items():
            out.append(("obstacle", key, box.material, None, box, -1))
        for id, (_pos, _facing) in self.poses.items():
            if id in skip:
                continue
            body = self.bodies[id]
            xs, ys = zip(*self._corners(id))
            out.append((body.kind, id, body.material, None, Box(min(xs), max(xs), min(ys), max(ys), 0, body.height), -1))
        return out

    def _eye(self, id):
        (x, y), _ = self.poses[id]
        return np.array([x * STUD, y * STUD, min(EYE_LDU, self.bodies[id].height - 12)])

    def sight(self, firer, target) -> Sight:
        eye = self._eye(firer)
        xs, ys = zip(*self._corners(target))
        (tx, ty), _ = self.poses[target]
        height = self.bodies[target].height
        d = np.array([tx * STUD, ty * STUD]) - eye[:2]
        n = d / max(np.linalg.norm(d), 1e-9)
        across = np.array([-n[1], n[0]])
        half = (max(xs) - min(xs)) * STUD / 2 * 0.8
        points = [np.array([tx * STUD + across[0] * u * half, ty * STUD + across[1] * u * half, z * height])
                  for u in np.linspace(-1, 1, 5) for z in np.linspace(0.05, 0.95, 5)]
        solids = self._solids(skip=(firer, target))
        hits = {}
        seen = 0
        for p in points:
            best = None
            for kind, id, material, part, box, _k in solids:
                t = _segment_box(eye, p, box)
                if t is not None and (best is None or t < best[0]):
                    best = (t, kind, id, material, part, box)
            if best is None:
                seen += 1
            else:
                key = (best[1], best[2], best[4])
                entry = hits.setdefault(key, [0, best[0], best[3], best[5]])
                entry[0] += 1
                entry[1] = min(entry[1], best[0])
        blockers = tuple(Blocker(kind, count / len(points), material, id, part, None, None, None, box.z1)
                         for (kind, id, part), (count, t, material, box) in sorted(hits.items(), key=lambda kv: kv[1][1]))
        dist = float(np.linalg.norm(self._eye(target) - eye) / STUD)
        return Sight(firer, target, seen > 0, seen / len(points), dist, True, blockers)

    def bodies_along(self, a, b, kinds=None, decor=False):
        p, q = self._eye(a), self._eye(b)
        out = []
        for kind, id, _material, _part, box, _k in self._solids(skip=(a, b)):
            if kind not in ("unit", "vehicle") or (kinds is not None and kind not in kinds):
                continue
            t = _segment_box(p, q, box)
            if t is not None:
                out.append(Crossing(kind, t * float(np.linalg.norm(q - p)) / STUD, id))
        return tuple(sorted(out, key=lambda c: c.distance_studs))


def _segment_box(p, q, box: Box) -> float | None:
    """Where (0..1) the segment p -> q (LDU) first enters the box, None when it misses it."""
    lo = np.array([box.x0 * STUD, box.y0 * STUD, box.z0])
    hi = np.array([box.x1 * STUD, box.y1 * STUD, box.z1])
    d = q - p
    t0, t1 = 0.0, 1.0
    for k in range(3):
        if abs(d[k]) < 1e-12:
            if p[k] < lo[k] or p[k] > hi[k]:
                return None
            continue
        a, b = (lo[k] - p[k]) / d[k], (hi[k] - p[k]) / d[k]
        t0, t1 = max(t0, min(a, b)), min(t1, max(a, b))
        if t0 > t1:
            return None
    return t0 if t1 > 1e-9 and t0 < 1 - 1e-9 else None
