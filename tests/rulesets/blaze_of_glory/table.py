"""A small 2.5D table for Blaze of Glory's rule tests: blocks of scenery with heights, walls with
windows, figures 96 LDU tall with their eyes at 86, and the geometry methods the ruleset asks for.

Not the 3D world (tests of the bundled town use that): a quick double where each test builds the
exact situation its rule needs. Positions in studs, heights in LDU. A block is an upright box
[x0, x1] x [y0, y1] from the ground to `height`; a window leaves it open between `sill` and
`lintel`. Sight: 12 rays from the firer's eye to points up the target's centre line (feet + 4 to
feet + 92 LDU), marched every 0.1 stud through the blocks; each block hiding some of them is a
blocker with its share, material and height above the target's feet.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

STUD = 20.0
EYE = 86.0
HEIGHT = 96.0
SAMPLES = np.linspace(4.0, 92.0, 12)
FOOT = 1.0


@dataclass(frozen=True)
class Block:
    x0: float
    y0: float
    x1: float
    y1: float
    height: float
    material: str = "wood"
    part: str = "3003.dat"
    sill: float | None = None      # a window: open between sill and lintel
    lintel: float | None = None

    def solid_at(self, x: np.ndarray, y: np.ndarray, z: np.ndarray) -> np.ndarray:
        inside = (x >= self.x0) & (x <= self.x1) & (y >= self.y0) & (y <= self.y1) & (z <= self.height)
        if self.sill is not None:
            inside &= ~((z > self.sill) & (z < self.lintel))
        return inside


@dataclass(frozen=True)
class TableBlocker:
    kind: str
    share: float
    material: str
    part: str
    height_ldu: float
    distance_studs: float | None = None
    colour: str = "Reddish_Brown"
    id: str | None = None


@dataclass(frozen=True)
class TableSight:
    visible: bool
    visible_fraction: float
    distance_studs: float
    in_front_arc: bool
    blockers: tuple = ()
    firer: str = ""
    target: str = ""


@dataclass
class Table:
    """The double: `blocks` of scenery on a `width` x `depth` stud table."""

    width: float = 120.0
    depth: float = 120.0
    blocks: list[Block] = field(default_factory=list)
    positions: dict[str, tuple[float, float]] = field(default_factory=dict)
    facings: dict[str, float] = field(default_factory=dict)

    @classmethod
    def from_scene(cls, scene, **kwargs) -> Table:
        table = cls(**kwargs)
        for u in scene.units:
            table.place(u.id, tuple(u.position), float(u.facing))
        return table

    # -- ground -----------------------------------------------------------------------------
    def ground_heights(self, xy_ldu) -> np.ndarray:
        xy = np.asarray(xy_ldu, float).reshape(-1, 2) / STUD
        out = np.zeros(len(xy))
        off = (xy[:, 0] < 0) | (xy[:, 0] > self.width) | (xy[:, 1] < 0) | (xy[:, 1] > self.depth)
        for b in self.blocks:
            inside = (xy[:, 0] >= b.x0) & (xy[:, 0] <= b.x1) & (xy[:, 1] >= b.y0) & (xy[:, 1] <= b.y1)
            out = np.where(inside, np.maximum(out, b.height), out)
        return np.where(off, -np.inf, out)

    def feet(self, id: str) -> float:
        x, y = self.positions[id]
        probes = np.array([[x + dx, y + dy] for dx in (-FOOT, 0, FOOT) for dy in (-FOOT, 0, FOOT)]) * STUD
        return float(np.max(self.ground_heights(probes)))

    # -- bodies -------------------------------------------------------------------------------
    def place(self, id: str, position, facing_deg: float) -> None:
        self.positions[id] = (float(position[0]), float(position[1]))
        self.facings[id] = float(facing_deg) % 360

    def remove(self, id: str) -> None:
        self.positions.pop(id, None)
        self.facings.pop(id, None)

    def eye(self, id: str) -> np.ndarray:
        x, y = self.positions[id]
        return np.array([x, y, (self.feet(id) + EYE) / STUD])

    # -- sight --------------------------------------------------------------------------------
    def _march(self, a: np.ndarray, b: np.ndarray, along: bool = False):
        """Index of the first block a segment (studs, z in studs) passes through, None if clear (with
        `along`: and the distance from a to where it enters it, studs)."""
        n = max(2, int(np.linalg.norm(b - a) / 0.1))
        t = np.linspace(0.0, 1.0, n)[1:-1]
        p = a[None] + t[:, None] * (b - a)[None]
        first, where = None, math.inf
        for k, block in enumerate(self.blocks):
            hit = block.solid_at(p[:, 0], p[:, 1], p[:, 2] * STUD)
            if hit.any():
                i = int(np.argmax(hit))
                if i < where:
                    first, where = k, i
        if along:
            return first, (float(t[where] * np.linalg.norm(b - a)) if first is not None else math.inf)
        return first

    def sight(self, firer: str, target: str) -> TableSight:
        eye = self.eye(firer)
        tx, ty = self.positions[target]
        feet = self.feet(target)
        marched = [self._march(eye, np.array([tx, ty, (feet + h) / STUD]), along=True) for h in SAMPLES]
        hiders = [k for k, _ in marched]
        seen = sum(1 for h in hiders if h is None)
        blockers = []
        for k in sorted({h for h in hiders if h is not None}):
            block = self.blocks[k]
            nearest = min(d for h, d in marched if h == k)
            blockers.append(TableBlocker("decor", hiders.count(k) / len(SAMPLES), block.material, block.part,
                                         block.height - feet, nearest))
        return TableSight(seen > 0, seen / len(SAMPLES), self.distance_studs(firer, target),
                          self.in_front_arc(firer, target), tuple(blockers), firer, target)

    def distance_studs(self, a: str, b: str) -> float:
        return float(np.linalg.norm(self.eye(a) - self.eye(b)))

    def in_front_arc(self, viewer: str, target: str, arc_deg: float = 180.0) -> bool:
        return True

    def bodies_along(self, a, b, kinds=None, decor=False) -> tuple:
        start = self.eye(a) if isinstance(a, str) else np.asarray(a, float) / STUD
        end = self.eye(b) if isinstance(b, str) else np.asarray(b, float) / STUD
        hit = self._march(start, end)
        return () if hit is None or not decor else (self.blocks[hit],)

    def bodies_in_template(self, origin, heading_deg, length, width, near_width=0.0, unit="in", kinds=None,
                           exclude=()) -> dict[str, float]:
        scale = 3.175 if unit == "in" else 1.0
        ox, oy = self.positions[origin]
        a = math.radians(heading_deg)
        ux, uy = math.cos(a), math.sin(a)
        out = {}
        for id, (x, y) in self.positions.items():
            if id == origin:
                continue
            along = ((x - ox) * ux + (y - oy) * uy) / scale
            across = abs(-(x - ox) * uy + (y - oy) * ux) / scale
            half = near_width / 2 + (width - near_width) / 2 * along / length
            if 0 <= along <= length and across <= half + 0.5 / scale:
                out[id] = along
        return dict(sorted(out.items(), key=lambda kv: (kv[1], kv[0])))

    def copy(self) -> Table:
        return Table(self.width, self.depth, list(self.blocks), dict(self.positions), dict(self.facings))
