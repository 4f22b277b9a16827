"""The camera director: a timeline in, a shot list out; a shot list answers "what does frame t show".

Layer: view, pure Python and numpy (no Panda3D drawing), so it is tested anywhere. World frame
Z up, LDU (1 stud = 20 LDU); times in seconds.

Shots, one per beat (design of issue 6):
- establishing orbit at the start of each round, the round's title;
- over-the-shoulder from firer to target for an attack: the shot (a tracer) then the brick
  rolls, then the result title;
- tracking shot for a move (vehicles too), the mover walks its path;
- close-up when a unit dies, the unit falls;
- a two-shot for a treat, a wide shot for rolls with no action, a short look at anything else.
Idle beats are quick and the film's length is capped (`max_seconds`): durations are scaled down
(never below `MIN_SHOT_S`) so a demo game makes a 30-90 s film. Everything is a pure function
of the timeline: the same replay gives the same shots and the same frames.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

import numpy as np

from bow3d.view.offscreen import CameraPose
from bow3d.view.timeline import (STUD_LDU, Attacked, BrickRollShown, Died, Moved, Narrated, Pose, RollsShown,
                                 RoundStarted, Step, Timeline, Treated, VehicleMoved)

HEAD_LDU = 76.0  # head centre above the ground for a minifig (design.md head point)
VEHICLE_EYE_LDU = 40.0
MIN_SHOT_S = 0.6
HARD_MIN_SHOT_S = 0.2  # a film of a very long game may go past max_seconds rather than flicker
DURATIONS_S = {"round": 3.5, "first_round": 5.0, "attack": 5.0, "death": 2.6, "treat": 4.0, "rolls": 3.0,
               "narrated": 0.9, "vehicle": 3.0}
MOVE_S_PER_STUD, MOVE_MIN_S, MOVE_MAX_S = 0.3, 1.6, 3.5
FALL_S = 0.8  # a dying unit topples over this long
Ground = Callable[[float, float], float]  # world (x, y) LDU -> ground height z LDU


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
    """Brick rolls on screen: each roll, and seconds since the rolls started (the animation's clock)."""

    rolls: tuple[BrickRollShown, ...]
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


def _smooth(u: float) -> float:
    u = min(1.0, max(0.0, u))
    return u * u * (3 - 2 * u)


def shot_kind(step: Step) -> str:
    """The shot a beat gets."""
    beat = step.beat
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
    if isinstance(beat, RollsShown):
        return DURATIONS_S["rolls"]
    return DURATIONS_S["narrated"]


class ShotList:
    """The film: shots over time, and the frame spec at any time. Build it with `direct`."""

    def __init__(self, timeline: Timeline, shots: tuple[Shot, ...], bounds: np.ndarray, ground: Ground,
                 aspect: float):
        self.timeline = timeline
        self.shots = shots
        self.bounds = np.asarray(bounds, dtype=np.float64)
        self.ground = ground
        self.aspect = aspect
        self.duration_s = shots[-1].end_s if shots else 0.0
        self._sides: dict[int, int] = {}  # shot -> the camera side chosen for it (picked once per shot)

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
            return FrameSpec(time_s, -1, self._establishing(0, 0.0), self.timeline.start, {}, ())
        index = self.shot_at(time_s)
        shot = self.shots[index]
        local = min(shot.duration_s, max(0.0, time_s - shot.start_s))
        step = self.timeline.steps[shot.step]
        spec = _FRAMERS[shot.kind](self, index, shot, step, local)
        if not np.isfinite(spec.camera.position + spec.camera.target).all():  # someone off the table
            spec = replace(spec, camera=self._establishing(step.round, 0.5), tracer=None)
        return spec

    # --- geometry helpers ----------------------------------------------------------------------
    def world(self, position: tuple[float, float], lift: float = 0.0) -> np.ndarray:
        x, y = position[0] * STUD_LDU, position[1] * STUD_LDU
        return np.array([x, y, self.ground(x, y) + lift])

    def head(self, id_: str, pose: Pose) -> np.ndarray:
        return self.world(pose.position, VEHICLE_EYE_LDU if id_ in self.timeline.vehicles else HEAD_LDU)

    @staticmethod
    def on_table(id_: str, poses: Mapping[str, Pose]) -> Pose:
        """The pose of a unit, or of the vehicle it rides in (a unit aboard has no position of its own)."""
        pose = poses[id_]
        if (pose.aboard is not None or math.isnan(pose.position[0])) and pose.aboard in poses:
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

    def clear_side(self, shot: int, target: np.ndarray, offsets: list[np.ndarray], poses: Mapping[str, Pose],
                   ignore: tuple[str, ...]) -> int:
        """Which of `offsets` (camera minus target, LDU) sees `target` best: the fewest samples of the
        sight line under the decor's top surface or near another unit. Chosen once per shot."""
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
            foot = self.world(pose.position)
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


def _pose(position: np.ndarray, target: np.ndarray, fov: float) -> CameraPose:
    return CameraPose(tuple(float(v) for v in position), tuple(float(v) for v in target), float(fov))


def _fade(local: float, duration: float, start: float = 0.0, end: float | None = None, ramp: float = 0.25) -> float:
    end = duration if end is None else end
    if local < start or local > end:
        return 0.0
    return float(min(1.0, (local - start) / ramp, (end - local) / ramp if end < duration else 1.0))


def _unit_title(film: ShotList, id_: str, local: float, shot: Shot) -> Title:
    return Title(film.label(id_), "unit", film.rgb(id_), _fade(local, shot.duration_s))


def _frame_establishing(film: ShotList, index: int, shot: Shot, step: Step, local: float) -> FrameSpec:
    beat: RoundStarted = step.beat  # type: ignore[assignment]
    u = local / shot.duration_s
    title = Title(f"Round {beat.round}", "round", (1.0, 0.85, 0.1), _fade(local, shot.duration_s, 0.2,
                                                                             shot.duration_s - 0.3))
    titles = [title]
    if beat.round == 1 and film.timeline.scene_name:
        titles.append(Title(film.timeline.scene_name, "caption", (1.0, 1.0, 1.0), _fade(local, shot.duration_s)))
    return FrameSpec(shot.start_s + local, index, film._establishing(beat.round, u), step.after, {}, tuple(titles))


def _walk(path: tuple[tuple[float, float], ...], u: float) -> tuple[tuple[float, float], float]:
    """Position (studs) a fraction `u` along `path`, and the heading (degrees) of that leg."""
    points = np.asarray(path, dtype=np.float64)
    legs = np.linalg.norm(np.diff(points, axis=0), axis=1)
    total = float(legs.sum())
    if total <= 0:
        return tuple(points[-1]), math.nan
    along = u * total
    ends = np.cumsum(legs)
    leg = min(int(np.searchsorted(ends, along)), len(legs) - 1)
    start = ends[leg] - legs[leg]
    w = (along - start) / legs[leg] if legs[leg] > 0 else 1.0
    position = points[leg] + (points[leg + 1] - points[leg]) * w
    d = points[leg + 1] - points[leg]
    return (float(position[0]), float(position[1])), math.degrees(math.atan2(d[1], d[0])) % 360


def _frame_tracking(film: ShotList, index: int, shot: Shot, step: Step, local: float) -> FrameSpec:
    beat = step.beat
    mover = beat.unit if isinstance(beat, Moved) else beat.vehicle  # type: ignore[union-attr]
    u = _smooth(min(1.0, local / max(0.1, shot.duration_s - 0.4)))
    position, heading = _walk(beat.path, u)  # type: ignore[union-attr]
    end = step.after[mover]
    if isinstance(beat, VehicleMoved):
        facing = beat.facings[0] + ((beat.facings[1] - beat.facings[0] + 180) % 360 - 180) * u
    else:
        facing = end.facing_deg if u >= 1 or math.isnan(heading) else heading
    poses = dict(step.before)
    poses[mover] = replace(end, position=position, facing_deg=facing, alive=step.before[mover].alive)
    first, last = np.asarray(beat.path[0]), np.asarray(beat.path[-1])  # type: ignore[union-attr]
    direction = last - first
    direction = direction / (np.linalg.norm(direction) or 1.0)
    side = np.array([-direction[1], direction[0]])
    lift = VEHICLE_EYE_LDU if isinstance(beat, VehicleMoved) else HEAD_LDU * 0.6
    target = film.world(position, lift)
    distance = 320.0 if isinstance(beat, VehicleMoved) else 250.0
    offsets = []
    for sign in (1.0, -1.0, 0.0):
        back = np.append(side * 0.8 * sign - direction * (0.6 if sign else 1.0), 0.8)
        offsets.append(back / np.linalg.norm(back) * distance)
    middle = film.world(tuple((np.asarray(beat.path[0]) + np.asarray(beat.path[-1])) / 2), lift)  # type: ignore[union-attr]
    choice = film.clear_side(index, middle, offsets, step.before, (mover,))
    camera = target + offsets[choice]
    titles = (_unit_title(film, mover, local, shot),)
    return FrameSpec(shot.start_s + local, index, _pose(camera, target, 38.0), poses, {}, titles, highlight=mover)


def _frame_over_the_shoulder(film: ShotList, index: int, shot: Shot, step: Step, local: float) -> FrameSpec:
    beat: Attacked = step.beat  # type: ignore[assignment]
    before = step.before
    firer_pose, target_pose = film.on_table(beat.firer, before), film.on_table(beat.target, before)
    firer, target = film.head(beat.firer, firer_pose), film.head(beat.target, target_pose)
    d = target - firer
    flat = np.array([d[0], d[1], 0.0])
    reach = float(np.linalg.norm(flat)) or 1.0
    forward = flat / reach
    right = np.cross(forward, [0.0, 0.0, 1.0])
    u = _smooth(local / shot.duration_s)
    riding = before[beat.firer].aboard is not None  # from a vehicle: further back, over its roof
    behind = (105.0 + 0.05 * reach) * (1.7 if riding else 1.0)
    up = np.array([0, 0, (38.0 + 0.05 * reach) * (2.0 if riding else 1.0)])
    shoulders = [-forward * behind + right * 42.0 + up, -forward * behind - right * 42.0 + up,
                 -forward * behind * 1.3 + up * 2.0]
    choice = film.clear_side(index, firer, shoulders, before, (beat.firer, beat.target))
    camera = firer + shoulders[choice] * (1.0 - 0.2 * u)
    look = firer + d * 0.72
    fov = float(np.clip(52.0 - reach / 40.0, 26.0, 48.0))
    aim = math.degrees(math.atan2(d[1], d[0])) % 360
    poses = dict(before)
    if before[beat.firer].aboard is None:
        poses[beat.firer] = replace(firer_pose, facing_deg=aim)
    fire_at, flight = 0.7, 0.35
    tracer = None
    if beat.ranged and fire_at <= local <= fire_at + flight + 0.5:
        tracer = Tracer(tuple(firer.tolist()), tuple(target.tolist()), min(1.0, (local - fire_at) / flight),
                        (1.0, 0.9, 0.4))
    roll = None
    if beat.rolls and local >= fire_at + 0.3:
        roll = RollView(beat.rolls, local - fire_at - 0.3, shot.step,
                        tuple(film.rgb_of_side(r.side) for r in beat.rolls))
    titles = [_unit_title(film, beat.firer, local, shot)]
    result_at = shot.duration_s * 0.62
    if local >= result_at:
        titles.append(Title(_result_text(step, beat), "result", film.rgb(beat.firer), _fade(local, shot.duration_s,
                                                                                               result_at)))
    if beat.damage and local >= result_at:  # the hit unit shows its damage once the rolls are read
        poses[beat.target] = replace(before[beat.target], damage=step.after[beat.target].damage)
    return FrameSpec(shot.start_s + local, index, _pose(camera, look, fov), poses, {}, tuple(titles), tracer,
                     roll, beat.target)


def _result_text(step: Step, beat: Attacked | Treated) -> str:
    if step.text:
        last = step.text.split("; ")[-1]
        return last if len(last) <= 90 else last[:87] + "..."
    if isinstance(beat, Treated):
        return f"{beat.medic} treats {beat.target}: {beat.healed} healed"
    return f"{beat.firer} hits {beat.target}: {beat.damage} damage" if beat.damage else f"{beat.target} dodges"


def _frame_close_up(film: ShotList, index: int, shot: Shot, step: Step, local: float) -> FrameSpec:
    beat: Died = step.beat  # type: ignore[assignment]
    pose = film.on_table(beat.unit, step.before if beat.unit in step.before else step.after)
    centre = film.world(pose.position, HEAD_LDU * 0.45)
    toward = 0.0
    if beat.by and beat.by in step.before:
        other = film.on_table(beat.by, step.before).position
        toward = math.atan2(other[1] - pose.position[1], other[0] - pose.position[0])
    u = local / shot.duration_s
    pitch = math.radians(26.0)

    def offset(yaw: float, distance: float) -> np.ndarray:
        return np.array([math.cos(pitch) * math.cos(yaw), math.cos(pitch) * math.sin(yaw), math.sin(pitch)]) * distance

    starts = [toward + math.radians(a) for a in (35.0, -35.0, 100.0, -100.0, 180.0)]
    choice = film.clear_side(index, centre, [offset(a, 200.0) for a in starts], step.before, (beat.unit,))
    sweep = 25.0 if choice % 2 == 0 else -25.0
    camera = centre + offset(starts[choice] + math.radians(sweep * u), 210.0 - 40.0 * _smooth(u))
    poses = dict(step.before)
    poses[beat.unit] = replace(step.before.get(beat.unit, pose), alive=True, damage=step.after[beat.unit].damage)
    falling = {beat.unit: _smooth(local / FALL_S)}
    titles = (Title(f"{beat.unit} is out", "result", film.rgb(beat.unit), _fade(local, shot.duration_s, 0.3)),)
    return FrameSpec(shot.start_s + local, index, _pose(camera, centre, 34.0), poses, falling, titles,
                     highlight=beat.unit)


def _frame_two_shot(film: ShotList, index: int, shot: Shot, step: Step, local: float) -> FrameSpec:
    beat: Treated = step.beat  # type: ignore[assignment]
    a = film.head(beat.medic, film.on_table(beat.medic, step.before)) if beat.medic in step.before else None
    b = film.head(beat.target, film.on_table(beat.target, step.before))
    a = b if a is None else a
    middle = (a + b) / 2 - np.array([0, 0, HEAD_LDU * 0.3])
    d = b - a
    side = np.array([-d[1], d[0], 0.0])
    side = side / (np.linalg.norm(side) or 1.0) if np.linalg.norm(side) > 1e-6 else np.array([1.0, 0, 0])
    distance = max(140.0, 1.8 * float(np.linalg.norm(d)))
    camera = middle + (side + np.array([0, 0, 0.6])) / math.hypot(1.0, 0.6) * distance
    roll = RollView(beat.rolls, local - 0.4, shot.step, tuple(film.rgb_of_side(r.side) for r in beat.rolls)) \
        if beat.rolls and local >= 0.4 else None
    titles = [_unit_title(film, beat.medic or beat.target, local, shot)]
    if local >= shot.duration_s * 0.6:
        titles.append(Title(_result_text(step, beat), "result", film.rgb(beat.medic),
                            _fade(local, shot.duration_s, shot.duration_s * 0.6)))
    return FrameSpec(shot.start_s + local, index, _pose(camera, middle, 36.0), dict(step.before), {},
                     tuple(titles), None, roll, beat.target)


def _frame_rolls(film: ShotList, index: int, shot: Shot, step: Step, local: float) -> FrameSpec:
    beat: RollsShown = step.beat  # type: ignore[assignment]
    u = local / shot.duration_s
    roll = RollView(beat.rolls, local, shot.step, tuple(film.rgb_of_side(r.side) for r in beat.rolls))
    caption = beat.rolls[0].purpose.replace("_", " ").capitalize() if beat.rolls and beat.rolls[0].purpose else ""
    titles = (Title(caption or "Brick roll", "caption", (1.0, 1.0, 1.0), _fade(local, shot.duration_s)),)
    return FrameSpec(shot.start_s + local, index, film._establishing(step.round, 0.5 + 0.3 * u), dict(step.after),
                     {}, titles, None, roll)


def _frame_glance(film: ShotList, index: int, shot: Shot, step: Step, local: float) -> FrameSpec:
    beat: Narrated = step.beat  # type: ignore[assignment]
    if beat.unit is None or beat.unit not in step.after:
        return FrameSpec(shot.start_s + local, index, film._establishing(step.round, 0.9), dict(step.after), {},
                         (Title(step.text[:90], "result", (1.0, 1.0, 1.0), _fade(local, shot.duration_s)),))
    pose = film.on_table(beat.unit, step.after)
    if math.isnan(pose.position[0]):
        return FrameSpec(shot.start_s + local, index, film._establishing(step.round, 0.9), dict(step.after), {}, ())
    target = film.world(pose.position, HEAD_LDU * 0.5)
    yaw = math.radians(pose.facing_deg + 40.0 + 10.0 * local)
    camera = target + np.array([math.cos(yaw) * 0.75, math.sin(yaw) * 0.75, 0.66]) * 200.0
    titles = (_unit_title(film, beat.unit, local, shot),
              Title((step.text or "")[:90], "result", film.rgb(beat.unit), _fade(local, shot.duration_s)))
    return FrameSpec(shot.start_s + local, index, _pose(camera, target, 38.0), dict(step.after), {}, titles,
                     highlight=beat.unit)


_FRAMERS = {"establishing": _frame_establishing, "tracking": _frame_tracking,
            "over_the_shoulder": _frame_over_the_shoulder, "close_up": _frame_close_up,
            "two_shot": _frame_two_shot, "rolls": _frame_rolls, "glance": _frame_glance}


def direct(timeline: Timeline, bounds: np.ndarray, ground: Ground | None = None, aspect: float = 16 / 9,
           max_seconds: float = 90.0) -> ShotList:
    """The shot list of a timeline, at most `max_seconds` long.

    One shot per beat when it fits. A longer game is edited: shots are first tightened to
    their `BRISK_S` lengths, then the least telling beats are left out (idle ones, rolls with no
    action, then moves, then misses; deaths, hits and round starts stay), spread evenly over the
    game, and only then is everything scaled down. `bounds` ((2, 3), LDU) is the battlefield's
    box (establishing shots frame it); `ground(x, y)` gives the ground height under a point
    (default: z = the bottom of the box).
    """
    bounds = np.asarray(bounds, dtype=np.float64)
    floor = float(bounds[0][2]) if bounds.size else 0.0
    ground = ground or (lambda x, y: floor)
    steps = timeline.steps
    durations = np.array([base_duration(step, isinstance(step.beat, RoundStarted) and i == 0)
                          for i, step in enumerate(steps)], dtype=np.float64)
    durations = _quicken_idle(timeline, durations)
    keep = np.ones(len(steps), dtype=bool)
    if durations.sum() > max_seconds and len(durations):
        durations = np.minimum(durations, [BRISK_S.get(shot_kind(step), 1.0) for step in steps])
        keep = _keep(steps, durations, max_seconds)
        if durations[keep].sum() > max_seconds:
            durations[keep] = _fit(durations[keep], max_seconds)
    chosen = np.flatnonzero(keep)
    lengths = durations[chosen]
    starts = np.concatenate([[0.0], np.cumsum(lengths)[:-1]]) if len(lengths) else np.zeros(0)
    shots = tuple(Shot(shot_kind(steps[i]), float(start), float(length), int(i))
                  for i, start, length in zip(chosen, starts, lengths))
    return ShotList(timeline, shots, bounds, ground, aspect)


BRISK_S = {"establishing": 2.5, "over_the_shoulder": 3.4, "close_up": 2.0, "tracking": 1.4, "two_shot": 2.8,
           "rolls": 1.6, "glance": 0.6}


def beat_priority(step: Step) -> int:
    """How much a beat matters to the story (higher: kept longer when a film must be cut)."""
    beat = step.beat
    if isinstance(beat, (Died, RoundStarted)):
        return 6
    if isinstance(beat, Attacked):
        return 5 if beat.damage else 3
    if isinstance(beat, Treated):
        return 4
    if isinstance(beat, VehicleMoved):
        return 3
    if isinstance(beat, Moved):
        return 2
    return 1 if isinstance(beat, RollsShown) else 0


def _keep(steps: tuple[Step, ...], durations: np.ndarray, max_seconds: float) -> np.ndarray:
    """Which steps get a shot: the least telling left out first, evenly spread, until the film fits."""
    keep = np.ones(len(steps), dtype=bool)
    priority = np.array([beat_priority(step) for step in steps])
    for i in range(len(steps) - 1):  # what kills (an attack, a vehicle's crash) stays with the death
        if not isinstance(steps[i].beat, Died) and isinstance(steps[i + 1].beat, Died):
            priority[i] = max(priority[i], 5)
    for level in range(0, 5):  # hits, deaths and round starts are never left out
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
    return keep


def _quicken_idle(timeline: Timeline, durations: np.ndarray) -> np.ndarray:
    """Runs of more than three idle beats (reload, grab...) share two seconds (each at least HARD_MIN_SHOT_S)."""
    durations = durations.copy()
    idle = np.array([isinstance(s.beat, Narrated) for s in timeline.steps], dtype=bool)
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
