"""What one frame of a film shows (FrameSpec: camera, poses, titles, tracer, throws) and the Shot it is in.

Layer: view, pure Python and numpy. The values the director (bow3d.view.film.director) plans and the framers
(bow3d.view.film.shots) fill, with the film's measures both read. World frame Z up, LDU; times in seconds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from bow3d.view.camera.pose import CameraPose, point3
from bow3d.view.film.timeline import Pose, ThrowShown

HEAD_LDU = 76.0  # head centre above the ground for a minifig (design.md head point)
VEHICLE_EYE_LDU = 40.0
FALL_S = 0.8  # a dying unit topples over this long


@dataclass(frozen=True)
class Title:
    """A text overlay: `role` 'round' (big, centre), 'unit' (lower left), 'result' (lower third), 'caption'."""

    text: str
    role: str
    rgb: tuple[float, float, float]
    alpha: float = 1.0


@dataclass(frozen=True)
class Tracer:
    """The shot, a line from the firer's head towards the target's head; `progress` 0..1 of its flight."""

    start: tuple[float, float, float]
    end: tuple[float, float, float]
    progress: float
    rgb: tuple[float, float, float]


@dataclass(frozen=True)
class RollView:
    """Throws on screen (bricks, dice, cards...): each throw, and seconds since the first (the animation's clock)."""

    rolls: tuple[ThrowShown, ...]
    seconds: float
    seed: int
    side_rgb: tuple[tuple[float, float, float], ...]


@dataclass(frozen=True)
class FrameSpec:
    """Everything one frame shows: camera, poses (studs), who falls (0..1), titles, tracer, brick rolls."""

    time_s: float
    shot: int
    camera: CameraPose
    poses: Mapping[str, Pose]
    falling: Mapping[str, float]
    titles: tuple[Title, ...]
    tracer: Tracer | None = None
    roll: RollView | None = None
    highlight: str | None = None
    doors: Mapping[str, bool] = field(default_factory=dict)  # door id -> open (BOW §2.3.3)


@dataclass(frozen=True)
class Shot:
    """One shot: which kind, when, how long, which step of the timeline."""

    kind: str
    start_s: float
    duration_s: float
    step: int

    @property
    def end_s(self) -> float:
        return self.start_s + self.duration_s


def _pose(position: np.ndarray, target: np.ndarray, fov: float) -> CameraPose:
    return CameraPose(point3(position), point3(target), float(fov))


def _smooth(u: float) -> float:
    u = min(1.0, max(0.0, u))
    return u * u * (3 - 2 * u)
