"""The table as Blaze of Glory walks it: heights along a path, stories, climbs, drops, roof leaps,
figures in the way, contact, and lines of sight to casualties lying on the ground.

Layer: rulesets (Blaze of Glory). Asks the geometry (bow3d.world.World, or a test double with
the same methods) for ground heights (`ground_heights`, LDU, the highest surface under each
point seen from above), segments (`bodies_along`) and templates (`bodies_in_template`). Positions
in studs, heights in LDU, lengths measured exactly (never counted in grid cells) and given in
inches where the book speaks of inches.

More: docs/modules/rulesets-blaze-of-glory.md#terrain.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from bow3d.i18n import _, decimal
from bow3d.rulesets.blaze_of_glory.book import FREE_OBSTACLE_IN, FREE_OBSTACLE_LDU, ROOF_LEAP_IN, inches, story
from bow3d.units import LDU_PER_STUD

if TYPE_CHECKING:
    from bow3d.rules.game import Game

SAMPLE_STUDS = 0.5       # path samples
FOOT_STUDS = 1.0         # the ground under a figure: a square 2 studs across (its feet, whatever its facing)
PASS_STUDS = 1.0         # a path passes no nearer to another figure's centre
SPACING_STUDS = 1.5      # a figure ends no nearer to another figure's centre
CONTACT_STUDS = 2.5      # nearer than this, centre to centre on the same level: in contact (Fisticuffs)
LIE_LDU = 12.0           # a casualty lies about this high: lines of sight to casualties end there
MAX_WAYPOINTS = 4        # legs of one move
_FOOT = np.array([[dx, dy] for dx in (-FOOT_STUDS, 0.0, FOOT_STUDS) for dy in (-FOOT_STUDS, 0.0, FOOT_STUDS)])


def heights(g: Game, xy: Any) -> np.ndarray:
    """(N,) float64 LDU: the ground under each (x, y) point in studs (-inf off the table)."""
    points = np.asarray(xy, np.float64).reshape(-1, 2) * LDU_PER_STUD
    return np.asarray(g.geometry.ground_heights(points), np.float64).reshape(-1)


def footing(g: Game, xy: Sequence[float]) -> tuple[float, float]:
    """(height, unevenness) of the ground under a figure at xy: the highest of the nine probes of
    its 2-stud square, and how far the lowest is below it (-inf height off the table)."""
    h = heights(g, _FOOT + np.asarray(xy, np.float64)[None])
    if not np.all(np.isfinite(h)):
        return -math.inf, math.inf
    return float(h.max()), float(h.max() - h.min())


def same_level(z1: float, z2: float) -> bool:
    return abs(z1 - z2) <= FREE_OBSTACLE_LDU


@dataclass(frozen=True)
class LevelChange:
    """A climb, a jump down or a roof leap along a path, with where a fall lands."""

    kind: str                      # 'climb' | 'drop' | 'leap'
    along_in: float                # inches along the path where it happens
    at: tuple[float, float]        # the edge, studs
    from_z: float
    to_z: float
    tests: int                     # R tests (Climbing/Fall: one per level change)
    foot: tuple[float, float]      # where a fall lands, studs
    foot_z: float
    top_story: int
    foot_story: int

    def fall_stories(self, k: int) -> int:
        """Stories fallen when the k-th test (1-based) fails: from the higher of the two levels
        being scaled (or leapt between) down to the foot."""
        span = self.top_story - self.foot_story
        if self.kind == "climb":
            return max(0, min(k, span))
        if self.kind == "drop":
            return max(0, span - (k - 1))
        return max(0, span)


@dataclass(frozen=True)
class PathPlan:
    """A checked path: its points, length in inches, level changes, where it ends."""

    points: tuple[tuple[float, float], ...]    # start first
    length_in: float
    changes: tuple[LevelChange, ...] = ()
    end_z: float = 0.0
    facing: float = 0.0
    problem: str | None = None

    @property
    def tests(self) -> int:
        return sum(c.tests for c in self.changes)

    @property
    def end(self) -> tuple[float, float]:
        return self.points[-1]


def _samples(points: Sequence[tuple[float, float]]) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """(S, 2) samples along the legs, (S,) studs along, and the sample index where each leg ends."""
    out, along, ends = [np.asarray(points[0], np.float64)], [0.0], [0]
    travelled = 0.0
    for start, end in zip(points[:-1], points[1:]):
        p, q = np.asarray(start, np.float64), np.asarray(end, np.float64)
        length = float(np.hypot(*(q - p)))
        n = max(1, math.ceil(length / SAMPLE_STUDS))
        t = np.arange(1, n + 1) / n
        out.extend(p + t[:, None] * (q - p))
        along.extend(travelled + t * length)
        travelled += length
        ends.append(len(out) - 1)
    return np.asarray(out), np.asarray(along), ends


def _gap(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    """Distance from point p to the segment ab, seen from above."""
    d = b - a
    t = 0.0 if not d.any() else float(np.clip(np.dot(p - a, d) / np.dot(d, d), 0.0, 1.0))
    return float(np.hypot(*(p - a - t * d)))


def plan_path(g: Game, unit: str, waypoints: Sequence[tuple[float, float]], allowance_in: float) -> PathPlan:
    """Check a move of `unit` through `waypoints` (studs) within `allowance_in` inches and find its
    level changes; `problem` says why it cannot be made (see the module docstring)."""
    figure = g.state.figures[unit]
    points = (tuple(figure.position), *(tuple(float(v) for v in w) for w in waypoints))
    if not waypoints or len(waypoints) > MAX_WAYPOINTS:
        return PathPlan(points, 0.0, problem=_("a move goes through 1 to {most} points").format(most=MAX_WAYPOINTS))
    if not all(math.isfinite(v) for p in points for v in p):
        return PathPlan(points, 0.0, problem=_("a point of the path is not a number"))
    samples, along, _ends = _samples(points)
    length_in = inches(float(along[-1]))
    last = np.asarray(points[-1]) - np.asarray(points[-2])
    facing = math.degrees(math.atan2(last[1], last[0])) % 360 if last.any() else figure.facing
    if length_in > allowance_in + 1e-6:
        return PathPlan(points, length_in, facing=facing,
                        problem=_("{length} inches is more than the {allowance} allowed").format(
                            length=decimal(length_in, 2), allowance=decimal(allowance_in, 2)))
    h = heights(g, samples)
    if not np.all(np.isfinite(h)):
        return PathPlan(points, length_in, facing=facing, problem=_("the path leaves the table"))
    end_z, uneven = footing(g, points[-1])
    if not math.isfinite(end_z) or uneven > FREE_OBSTACLE_LDU:
        return PathPlan(points, length_in, facing=facing, problem=_("no room to stand at the end (the ground "
                                                                      "under the figure is uneven by more than an "
                                                                      "inch)"))
    problem = _figures_in_the_way(g, unit, samples, h, points, end_z)
    if problem is not None:
        return PathPlan(points, length_in, facing=facing, problem=problem)
    changes = _level_changes(samples, along, h, figure.z)
    return PathPlan(points, length_in, tuple(changes), end_z, facing)


def _figures_in_the_way(g: Game, unit: str, samples: np.ndarray, h: np.ndarray, points, end_z: float) -> str | None:
    end = np.asarray(points[-1], np.float64)
    for other in g.state.figures.values():
        if other.id == unit or not other.on_table:
            continue
        p = np.asarray(other.position, np.float64)
        if float(np.hypot(*(end - p))) < SPACING_STUDS and same_level(other.z, end_z):
            return _("it would end on {figure}").format(figure=other.id)
        near = np.hypot(*(samples - p).T)
        k = int(np.argmin(near))
        if near[k] >= PASS_STUDS + SAMPLE_STUDS or not same_level(other.z, h[k]):
            continue
        for a, b in zip(points[:-1], points[1:]):
            if _gap(p, np.asarray(a, np.float64), np.asarray(b, np.float64)) < PASS_STUDS:
                return _("it passes through {figure}").format(figure=other.id)
    return None


def _level_changes(samples: np.ndarray, along: np.ndarray, h: np.ndarray, start_z: float) -> list[LevelChange]:
    """Walk the samples: rises and drops over an inch, then pair drops and rises into gaps and leaps."""
    raw: list[tuple[int, float, float]] = []   # (sample index, height before, height after)
    current = start_z
    for i in range(1, len(h)):
        if abs(h[i] - current) > FREE_OBSTACLE_LDU:
            raw.append((i, current, float(h[i])))
        current = float(h[i])
    changes: list[LevelChange] = []
    k = 0
    while k < len(raw):
        i, before, after = raw[k]
        if after < before and k + 1 < len(raw):
            j, low, back = raw[k + 1]
            width_in = inches(float(along[j] - along[i - 1]))
            level = back <= before + FREE_OBSTACLE_LDU and back >= before - FREE_OBSTACLE_LDU
            if low < back and level and width_in <= FREE_OBSTACLE_IN + 1e-9:
                k += 2          # a gap up to an inch wide: stepped over (Activation & Movement)
                continue
            if low < back and back <= before + FREE_OBSTACLE_LDU and story(before) >= 1 and story(back) >= 1 \
                    and width_in <= ROOF_LEAP_IN + 1e-9:
                bottom = i + int(np.argmin(h[i:j]))
                changes.append(LevelChange("leap", inches(float(along[i])), _pt(samples[i - 1]), before, back, 1,
                                           _pt(samples[bottom]), float(h[bottom]), story(before), story(h[bottom])))
                k += 2
                continue
        tests = max(1, abs(story(after) - story(before)))
        if after > before:
            changes.append(LevelChange("climb", inches(float(along[i])), _pt(samples[i]), before, after, tests,
                                       _pt(samples[i - 1]), before, story(after), story(before)))
        else:
            changes.append(LevelChange("drop", inches(float(along[i])), _pt(samples[i - 1]), before, after, tests,
                                       _pt(samples[i]), after, story(before), story(after)))
        k += 1
    return changes


def _pt(p: np.ndarray) -> tuple[float, float]:
    return (round(float(p[0]), 4), round(float(p[1]), 4))


# -- contact, casualties, templates --------------------------------------------------------------
def plan_distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Studs between two positions seen from above."""
    return math.hypot(b[0] - a[0], b[1] - a[1])


def in_contact(g: Game, a: str, b: str) -> bool:
    """Fisticuffs: "whenever they come into contact": centres within 2.5 studs on the same level."""
    fa, fb = g.state.figures[a], g.state.figures[b]
    return fa.on_table and fb.on_table and plan_distance(fa.position, fb.position) <= CONTACT_STUDS + 1e-9 \
        and same_level(fa.z, fb.z)


def sees_spot(g: Game, viewer: str, position: tuple[float, float], z: float) -> bool:
    """Line of sight to a casualty lying at `position` on ground `z`: no decor between the viewer's
    eye and the spot, LIE_LDU above the ground (other figures do not block it)."""
    point = (position[0] * LDU_PER_STUD, position[1] * LDU_PER_STUD, z + LIE_LDU)
    return not g.geometry.bodies_along(viewer, point, ("no bodies",), True)


def in_template(g: Game, shooter: str, heading_deg: float, length_in: float, width_in: float) -> dict[str, float]:
    """Figures under a cone template laid from the shooter (Scatter Guns): id -> inches along."""
    return g.geometry.bodies_in_template(shooter, heading_deg, length_in, width_in, 0.0, "in", ("unit",))


def bearing(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Degrees from a towards b (0 = +X, counter-clockwise)."""
    return math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])) % 360


__all__ = ["CONTACT_STUDS", "LevelChange", "PathPlan", "bearing", "footing", "heights", "in_contact", "in_template",
           "plan_distance", "plan_path", "same_level", "sees_spot"]
