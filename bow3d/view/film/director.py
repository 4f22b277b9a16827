"""The camera director: a timeline in, a shot list out; a shot list answers "what does frame t show".

Layer: view, pure Python and numpy (no Panda3D drawing), so it is tested anywhere. World frame
Z up, LDU (1 stud = 20 LDU); times in seconds.

More: docs/modules/view.md#director.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import replace

import numpy as np

from bow3d.units import LDU_PER_STUD as STUD_LDU
from bow3d.view.camera.pose import CameraPose
from bow3d.view.film.frames import HEAD_LDU, VEHICLE_EYE_LDU, FrameSpec, Shot, _pose
from bow3d.view.film.shots import FRAMERS  # the camera work of each kind of shot
from bow3d.view.film.timeline import (
    Attacked,
    Died,
    Moved,
    Narrated,
    Pose,
    RollsShown,
    RoundStarted,
    Step,
    Timeline,
    Treated,
    VehicleMoved,
)

MIN_SHOT_S = 0.6
HARD_MIN_SHOT_S = 0.2  # a film of a very long game may go past max_seconds rather than flicker
DURATIONS_S = {"round": 3.5, "first_round": 5.0, "attack": 5.0, "death": 2.6, "treat": 4.0, "rolls": 3.0,
               "narrated": 0.9, "vehicle": 3.0}
MOVE_S_PER_STUD, MOVE_MIN_S, MOVE_MAX_S = 0.3, 1.6, 3.5
FINALE_S = 3.5  # the winner's title over a last look at the battlefield
Ground = Callable[[float, float], float]  # world (x, y) LDU -> ground height z LDU
Stand = Callable[[str, Pose], float]  # unit or vehicle id, pose -> the height it stands at (LDU), as drawn
# The camera variants a planner may pick per shot: a move of the framer's camera about the point it looks
# at, (distance scale, degrees raised, degrees turned); the first is the framer's own camera.
CAMERA_MOVES = ((1.0, 0.0, 0.0), (1.0, 15.0, 0.0), (0.8, 0.0, 0.0), (1.0, 0.0, 25.0), (1.0, 0.0, -25.0),
                (0.8, 15.0, 25.0), (0.8, 15.0, -25.0), (1.0, 30.0, 0.0), (0.65, 25.0, 0.0), (1.25, 10.0, 0.0),
                (0.7, 50.0, 0.0), (0.6, 45.0, 40.0), (0.6, 45.0, -40.0), (1.5, 45.0, 90.0), (1.5, 45.0, -90.0))
SIDES = {"over_the_shoulder": 3, "tracking": 3, "close_up": 5}  # camera sides a framer offers (clear_side)
Variant = tuple[int, int]  # (side, index into CAMERA_MOVES)
Planner = Callable[["ShotList", int], Variant]  # film, shot -> the variant kept (bow3d.view.film.shot_check.plan_shot)


def shot_kind(step: Step) -> str:
    """The shot a beat gets."""
    beat = step.beat
    if isinstance(beat, Narrated) and beat.rolls:
        return "throw"  # a glance that waits for its throws to land
    return {RoundStarted: "establishing", Attacked: "over_the_shoulder", Moved: "tracking",
            VehicleMoved: "tracking", Died: "close_up", Treated: "two_shot", RollsShown: "rolls",
            Narrated: "glance"}[type(beat)]


def _path_studs(path: tuple[tuple[float, float], ...]) -> float:
    points = np.asarray(path, dtype=np.float64)
    return float(np.linalg.norm(np.diff(points, axis=0), axis=1).sum()) if len(points) > 1 else 0.0


def base_duration(step: Step, first_round: bool) -> float:
    """Seconds a beat's shot lasts before the film's length cap."""
    beat = step.beat
    if isinstance(beat, RoundStarted):
        return DURATIONS_S["first_round" if first_round else "round"]
    if isinstance(beat, Moved):
        return min(MOVE_MAX_S, max(MOVE_MIN_S, MOVE_S_PER_STUD * _path_studs(beat.path)))
    if isinstance(beat, VehicleMoved):
        return DURATIONS_S["vehicle"]
    if isinstance(beat, Attacked):
        return DURATIONS_S["attack"] if beat.rolls else 3.0
    if isinstance(beat, Died):
        return DURATIONS_S["death"]
    if isinstance(beat, Treated):
        return DURATIONS_S["treat"]
    if isinstance(beat, RollsShown) or isinstance(beat, Narrated) and beat.rolls:
        return DURATIONS_S["rolls"]
    return DURATIONS_S["narrated"]


class ShotList:
    """The film: shots over time, and the frame spec at any time. Build it with `direct`."""

    def __init__(self, timeline: Timeline, shots: tuple[Shot, ...], bounds: np.ndarray, ground: Ground,
                 aspect: float, stand: Stand | None = None, planner: Planner | None = None):
        self.timeline = timeline
        self.shots = shots
        self.bounds = np.asarray(bounds, dtype=np.float64)
        self.ground = ground
        self.stand = stand
        self.aspect = aspect
        self.duration_s = shots[-1].end_s if shots else 0.0
        self._sides: dict[int, int] = {}  # shot -> the camera side chosen for it (picked once per shot)
        self.planner = planner
        self.plans: dict[int, Variant] = {}  # shot -> the variant the planner kept (planned on first use)
        self.forced: dict[int, Variant] = {}  # shot -> a variant being tried (by the planner)
        self._side = -1  # the side the frame being framed takes (-1: clear_side's own choice)

    def frame_count(self, fps: int) -> int:
        """Frames of the film at `fps` (the duration rounded to whole frames, at least one)."""
        return max(1, int(round(self.duration_s * fps)))

    def shot_at(self, time_s: float) -> int:
        """Index of the shot on screen at `time_s` (clamped to the film)."""
        starts = [s.start_s for s in self.shots]
        return max(0, min(len(self.shots) - 1, int(np.searchsorted(starts, time_s, side="right")) - 1))

    def frame(self, time_s: float) -> FrameSpec:
        """What the frame at `time_s` shows."""
        if not self.shots:
            return FrameSpec(time_s, -1, self._establishing(0, 0.0), self.timeline.start, {}, (),
                             doors=self.timeline.start_doors)
        index = self.shot_at(time_s)
        shot = self.shots[index]
        local = min(shot.duration_s, max(0.0, time_s - shot.start_s))
        step = self.timeline.steps[shot.step]
        variant = self.variant(index)
        self._side = variant[0]
        spec = FRAMERS[shot.kind](self, index, shot, step, local)
        if variant[1]:
            spec = replace(spec, camera=moved_camera(spec.camera, CAMERA_MOVES[variant[1]]))
        if not np.isfinite(spec.camera.position + spec.camera.target).all():  # someone off the table
            spec = replace(spec, camera=self._establishing(step.round, 0.5), tracer=None)
        return replace(spec, doors=step.doors)

    # --- geometry helpers ----------------------------------------------------------------------
    def world(self, position: tuple[float, float], lift: float = 0.0) -> np.ndarray:
        x, y = position[0] * STUD_LDU, position[1] * STUD_LDU
        return np.array([x, y, self.ground(x, y) + lift])

    def head(self, id_: str, pose: Pose) -> np.ndarray:
        return self.at(id_, pose, VEHICLE_EYE_LDU if id_ in self.timeline.vehicles else HEAD_LDU)

    def at(self, id_: str, pose: Pose, lift: float = 0.0) -> np.ndarray:
        """World point `lift` LDU above where unit or vehicle `id_` stands in `pose` (its own ground)."""
        if self.stand is None:
            return self.world(pose.position, lift)
        x, y = pose.position[0] * STUD_LDU, pose.position[1] * STUD_LDU
        return np.array([x, y, self.stand(id_, pose) + lift])

    @staticmethod
    def on_table(id_: str, poses: Mapping[str, Pose]) -> Pose:
        """The pose of a unit, or of the vehicle it rides in (a unit aboard has no position of its own)."""
        pose = poses[id_]
        if pose.aboard is not None and pose.aboard in poses:
            return replace(pose, position=poses[pose.aboard].position)
        return pose

    def rgb(self, id_: str | None) -> tuple[float, float, float]:
        side = self.timeline.unit_sides.get(id_ or "", "")
        style = self.timeline.sides.get(side)
        return style.rgb if style else (1.0, 1.0, 1.0)

    def rgb_of_side(self, side: str) -> tuple[float, float, float]:
        style = self.timeline.sides.get(side)
        return style.rgb if style else (1.0, 1.0, 1.0)

    def label(self, id_: str) -> str:
        side = self.timeline.sides.get(self.timeline.unit_sides.get(id_, ""))
        name = self.timeline.labels.get(id_, id_)
        return f"{side.name}: {name}" if side else name

    def variant(self, index: int) -> Variant:
        """The camera variant of shot `index`: the one being tried, else the planner's (planned once per
        shot), else (-1, 0): the framer's own side (`clear_side`) and camera."""
        if index in self.forced:
            return self.forced[index]
        if self.planner is None or self.shots[index].kind not in PLANNED_KINDS:
            return (-1, 0)
        if index not in self.plans:
            self.plans[index] = self.planner(self, index)
        return self.plans[index]

    def variants(self, index: int) -> list[Variant]:
        """Every camera variant shot `index` may take, the framer's own first."""
        sides = SIDES.get(self.shots[index].kind, 1)
        return [(-1, 0)] + [(side, move) for move in range(len(CAMERA_MOVES)) for side in range(sides)
                            if (side, move) != (-1, 0)]

    def clear_side(self, shot: int, target: np.ndarray, offsets: list[np.ndarray], poses: Mapping[str, Pose],
                   ignore: tuple[str, ...]) -> int:
        """Which of `offsets` (camera minus target, LDU) sees `target` best: the planned side, else the
        fewest samples of the sight line under the decor's top surface or near another unit. Chosen once
        per shot."""
        if 0 <= self._side < len(offsets):
            return self._side
        if shot not in self._sides:
            self._sides[shot] = int(np.argmax([self._clearance(target, target + o, poses, ignore)
                                               for o in offsets]))
        return self._sides[shot]

    def _clearance(self, target: np.ndarray, camera: np.ndarray, poses: Mapping[str, Pose],
                   ignore: tuple[str, ...]) -> float:
        w = np.linspace(0.12, 1.0, 12)
        samples = target + (camera - target) * w[:, None]
        tops = np.array([self.ground(float(x), float(y)) for x, y in samples[:, :2]])
        hidden = float(np.count_nonzero(tops > samples[:, 2] - 4.0))
        near = 0.0
        for id_, pose in poses.items():
            if id_ in ignore or not pose.alive or pose.aboard is not None or math.isnan(pose.position[0]):
                continue
            foot = self.at(id_, pose)
            span = camera - target
            w_closest = float(np.clip(np.dot(foot[:2] - target[:2], span[:2]) / max(1e-9, np.dot(span[:2], span[:2])),
                                      0.0, 1.0))
            closest = target + span * w_closest
            if np.linalg.norm(closest[:2] - foot[:2]) < 46.0 and closest[2] < foot[2] + HEAD_LDU * 1.4 \
                    and w_closest > 0.05:
                near += 3.0
        return -(hidden + near)

    def _establishing(self, round_: int, u: float) -> CameraPose:
        lo, hi = self.bounds
        centre = (lo + hi) / 2
        size = hi - lo
        radius = 0.5 * math.hypot(size[0], size[1])
        fov = 40.0
        distance = max(400.0, radius / math.tan(math.radians(fov) / 2) * 0.78)
        yaw = math.radians(225.0 + 70.0 * round_ + 40.0 * u)
        pitch = math.radians(34.0 - 4.0 * u)
        offset = np.array([math.cos(pitch) * math.cos(yaw), math.cos(pitch) * math.sin(yaw), math.sin(pitch)])
        target = np.array([centre[0], centre[1], lo[2] + 0.2 * size[2]])
        return _pose(target + offset * distance, target, fov)


PLANNED_KINDS = ("over_the_shoulder", "tracking", "close_up", "two_shot", "glance", "throw")


def moved_camera(camera: CameraPose, move: tuple[float, float, float]) -> CameraPose:
    """`camera` moved about the point it looks at: its distance scaled, raised and turned (degrees)."""
    scale, raise_deg, turn_deg = move
    target = np.asarray(camera.target, np.float64)
    offset = np.asarray(camera.position, np.float64) - target
    distance = float(np.linalg.norm(offset)) * scale
    yaw = math.atan2(offset[1], offset[0]) + math.radians(turn_deg)
    pitch = math.asin(max(-1.0, min(1.0, offset[2] / max(float(np.linalg.norm(offset)), 1e-9))))
    pitch = min(math.radians(80.0), pitch + math.radians(raise_deg))
    new = np.array([math.cos(pitch) * math.cos(yaw), math.cos(pitch) * math.sin(yaw), math.sin(pitch)]) * distance
    return _pose(target + new, target, camera.fov_deg)


def direct(timeline: Timeline, bounds: np.ndarray, ground: Ground | None = None, aspect: float = 16 / 9,
           max_seconds: float = 90.0, stand: Stand | None = None, planner: Planner | None = None) -> ShotList:
    """The shot list of a timeline, at most `max_seconds` long.

    One shot per beat when it fits. A longer game is edited: shots are first tightened to
    their `BRISK_S` lengths, then the least telling beats are left out (idle ones, rolls with no
    action, then moves, then misses; deaths, hits and round starts stay), spread evenly over the
    game, and only then is everything scaled down. `bounds` ((2, 3), LDU) is the battlefield's
    box (establishing shots frame it); `ground(x, y)` gives the ground height under a point
    (default: z = the bottom of the box); `stand(id, pose)` the height a unit or vehicle stands
    at, as the scene nodes place it (default: the ground under its position); `planner(film, shot)`
    picks each shot's camera variant (bow3d.view.film.shot_check.ShotPlanner: scored with the world's rays).
    """
    bounds = np.asarray(bounds, dtype=np.float64)
    floor = float(bounds[0][2]) if bounds.size else 0.0
    ground = ground or (lambda x, y: floor)
    steps = timeline.steps
    durations = np.array([base_duration(step, isinstance(step.beat, RoundStarted) and i == 0)
                          for i, step in enumerate(steps)], dtype=np.float64)
    durations = _quicken_idle(timeline, durations)
    keep = np.ones(len(steps), dtype=bool)
    if timeline.finished and len(steps):
        max_seconds = max(max_seconds - FINALE_S, MIN_SHOT_S)  # the winner's title is part of the film
    if durations.sum() > max_seconds and len(durations):
        durations = np.minimum(durations, [BRISK_S.get(shot_kind(step), 1.0) for step in steps])
        keep = _keep(steps, durations, max_seconds)
        if durations[keep].sum() > max_seconds:
            durations[keep] = _fit(durations[keep], max_seconds)
    chosen = np.flatnonzero(keep)
    lengths = durations[chosen]
    if timeline.finished and len(steps):  # the last word: who won
        chosen, lengths = np.append(chosen, len(steps) - 1), np.append(lengths, FINALE_S)
    starts = np.concatenate([[0.0], np.cumsum(lengths)[:-1]]) if len(lengths) else np.zeros(0)
    shots = tuple(Shot(shot_kind(steps[i]) if n < len(lengths) - 1 or not timeline.finished else "finale",
                       float(start), float(length), int(i))
                  for n, (i, start, length) in enumerate(zip(chosen, starts, lengths)))
    return ShotList(timeline, shots, bounds, ground, aspect, stand, planner)


BRISK_S = {"establishing": 2.5, "over_the_shoulder": 3.4, "close_up": 2.0, "tracking": 1.4, "two_shot": 2.8,
           "rolls": 1.6, "glance": 0.6, "throw": 1.6}


def beat_priority(step: Step) -> int:
    """How much a beat matters to the story (higher: kept longer when a film must be cut)."""
    beat = step.beat
    if isinstance(beat, (Died, RoundStarted)):
        return 6
    if isinstance(beat, Attacked):
        return 5 if beat.damage else 3
    if isinstance(beat, (Treated, VehicleMoved)):  # a vehicle on the move is worth its tracking shot
        return 4
    if isinstance(beat, Moved):
        return 2
    return 1 if isinstance(beat, RollsShown) or isinstance(beat, Narrated) and beat.rolls else 0


def _keep(steps: tuple[Step, ...], durations: np.ndarray, max_seconds: float) -> np.ndarray:
    """Which steps get a shot: the least telling left out first, evenly spread, until the film fits."""
    keep = np.ones(len(steps), dtype=bool)
    priority = np.array([beat_priority(step) for step in steps])
    for i in range(len(steps) - 1):  # what kills (an attack, a vehicle's crash) stays with the death
        if not isinstance(steps[i].beat, Died) and isinstance(steps[i + 1].beat, Died):
            priority[i] = max(priority[i], 5)
    for level in range(5):  # hits, deaths and round starts are never left out
        excess = float(durations[keep].sum()) - max_seconds
        if excess <= 0:
            break
        members = np.flatnonzero(keep & (priority == level))
        if not len(members):
            continue
        order = np.cumsum(durations[members])
        count = min(len(members), int(np.searchsorted(order, excess)) + 1)
        drop = members[np.round(np.linspace(0, len(members) - 1, count)).astype(int)] if count < len(members) \
            else members
        keep[drop] = False
    kept = np.flatnonzero(keep)
    for a, b in zip(kept, kept[1:]):  # a round whose every beat was left out: no title of its own
        if isinstance(steps[a].beat, RoundStarted) and isinstance(steps[b].beat, RoundStarted):
            keep[a] = False
    return keep


def _quicken_idle(timeline: Timeline, durations: np.ndarray) -> np.ndarray:
    """Runs of more than three idle beats (reload, grab...) share two seconds (each at least HARD_MIN_SHOT_S)."""
    durations = durations.copy()
    idle = np.array([isinstance(s.beat, Narrated) and not s.beat.rolls for s in timeline.steps], dtype=bool)
    start = 0
    while start < len(idle):
        if not idle[start]:
            start += 1
            continue
        end = start
        while end < len(idle) and idle[end]:
            end += 1
        if end - start > 3:
            durations[start:end] = max(HARD_MIN_SHOT_S, 2.0 / (end - start))
        start = end
    return durations


def _fit(durations: np.ndarray, max_seconds: float) -> np.ndarray:
    """Scale durations down to `max_seconds` in all: the long shots first, none below MIN_SHOT_S; when even
    that is too long (a very long game), every shot shrinks alike, to no less than HARD_MIN_SHOT_S."""
    floor = np.minimum(durations, MIN_SHOT_S)
    if floor.sum() >= max_seconds:
        hard = np.minimum(floor, HARD_MIN_SHOT_S)
        spare = floor - hard
        scale = max(0.0, max_seconds - float(hard.sum())) / float(spare.sum()) if spare.sum() > 0 else 0.0
        return hard + spare * min(1.0, scale)
    spare = durations - floor
    budget = max(0.0, max_seconds - float(floor.sum()))
    scale = min(1.0, budget / float(spare.sum())) if spare.sum() > 0 else 0.0
    return floor + spare * scale
