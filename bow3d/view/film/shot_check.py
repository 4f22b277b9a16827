"""The film check: for every shot, how much of its subject the camera sees and how big it is on screen.

Layer: view, numpy and the 3D world's ray engine (bow3d.world, embreex); no Panda3D. World frame Z
up, LDU; times in seconds. The subject of a shot is who it is about: the firer and the target of an
attack, the falling unit of a death, the mover (unit or vehicle) of a move, the medic and the
patient of a treat, the actor of a glance (a unit aboard a vehicle is seen as its vehicle). Wide
shots (establishing orbits, rolls, the finale) have none and are not measured.

More: docs/modules/view.md#shot-check.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from bow3d.i18n import _, decimal, percent
from bow3d.view.camera.pose import CameraPose
from bow3d.view.film.director import FrameSpec, ShotList
from bow3d.view.film.timeline import Attacked, Died, Moved, Narrated, Pose, Treated, VehicleMoved

NEAR_LDU = 24.0  # nothing this near the lens (a bit more than a stud: a wall there fills the frame)
MIN_VISIBLE = 0.5  # issue 18: every shot's subject at least half seen ...
MIN_SCREEN = 0.05  # ... and at least 5 % of the frame
SAMPLE_AT = (0.1, 0.5, 0.9)  # moments of a shot that are measured (fractions of its length)
WIDE_KINDS = ("establishing", "rolls", "finale")
GOOD_VISIBLE, GOOD_SCREEN = 0.8, 0.12  # the planner stops looking farther once a camera does this well


@dataclass(frozen=True)
class ShotReport:
    """One shot measured: its worst moment's visible share (0..1), screen share (0..1), clear lens."""

    shot: int
    kind: str
    start_s: float
    duration_s: float
    subjects: tuple[str, ...]
    visible: float
    screen: float
    lens_clear: bool
    worst_s: float  # film time of the worst moment measured
    least: float = 1.0  # the least seen subject's share at its worst moment (a target hidden by the firer's head)

    @property
    def ok(self) -> bool:
        return self.lens_clear and self.visible >= MIN_VISIBLE and self.screen >= MIN_SCREEN

    @property
    def score(self) -> float:
        """Lower is worse: the margin over the thresholds, the lens first."""
        return min(self.visible - MIN_VISIBLE, (self.screen - MIN_SCREEN) * 4) - (0 if self.lens_clear else 1)

    def format(self) -> str:
        """One line of `replay --check-shots`, in the language spoken (columns kept)."""
        lens = "" if self.lens_clear else _(", something at the lens")
        return _("{times} {subjects} visible {visible} (least {least}), {screen} of the frame{lens}{below}").format(
            times=self.times(), subjects=f"{', '.join(self.subjects):40s}", visible=percent(self.visible).rjust(4),
            least=percent(self.least).rjust(4), screen=percent(self.screen, 1).rjust(5), lens=lens,
            below="" if self.ok else _("  <- below"))

    def times(self) -> str:
        """'shot   3 close_up             12.0- 14.5 s': the shot's number, kind and time span."""
        return _("shot {n} {kind} {start}-{end} s").format(
            n=f"{self.shot:3d}", kind=f"{self.kind:17s}", start=decimal(self.start_s).rjust(6),
            end=decimal(self.start_s + self.duration_s).rjust(5))


def subjects_of(film: ShotList, index: int) -> tuple[str, ...]:
    """The ids a shot is about (as drawn: a unit aboard is its vehicle); () for wide shots."""
    shot = film.shots[index]
    if shot.kind in WIDE_KINDS:
        return ()
    step = film.timeline.steps[shot.step]
    beat = step.beat
    ids: tuple[str, ...]
    if isinstance(beat, Attacked):
        ids = (beat.firer, beat.target)
    elif isinstance(beat, (Died, Moved)):
        ids = (beat.unit,)
    elif isinstance(beat, VehicleMoved):
        ids = (beat.vehicle,)
    elif isinstance(beat, Treated):
        ids = tuple(i for i in (beat.medic, beat.target) if i)
    elif isinstance(beat, Narrated) and beat.unit is not None:
        ids = (beat.unit,)
    else:
        ids = ()
    poses = step.before
    out: list[str] = []
    for id_ in ids:
        pose = poses.get(id_) or step.after.get(id_)
        if pose is None:
            continue
        drawn = pose.aboard if pose.aboard is not None else id_
        if drawn not in out:
            out.append(drawn)
    return tuple(out)


class ShotJudge:
    """Measures frames on a world (bodies moved to each frame's poses; the world's answers unchanged)."""

    def __init__(self, world, aspect: float):
        self.world = world
        self.aspect = float(aspect)
        self._placed: tuple | None = None
        self.least = 1.0
        # The remains the rules left on the field (War of Bros: a fallen unit's Body "<unit>~body", a destroyed
        # vehicle's wreck "<vehicle>~wreck"): the world holds them as at the game's end, for every frame. They
        # lie there only while their owner is dead; before, the owner stands (or drives) in their place.
        self.remains: dict[str, str] = {}  # obstacle id -> the unit or vehicle it is the remains of
        for id_, body in (world.bodies.items() if world is not None else ()):
            owner = id_.split("~", 1)[0]
            if body.kind == "obstacle" and "~" in id_ and owner in world.bodies and world.active[body.index] \
                    and world.bodies[owner].kind in ("unit", "vehicle"):
                self.remains[id_] = owner

    def place(self, poses: Mapping[str, Pose]) -> None:
        """Put the world's units and vehicles where `poses` (studs) has them: standing, seated, or off; the
        remains of a unit or vehicle (its Body, its wreck) on the field only while `poses` has it dead."""
        key = tuple(sorted(poses.items()))
        if key == self._placed:
            return
        self._placed = key
        world = self.world
        seated = []
        for id_, pose in poses.items():
            body = world.bodies.get(id_)
            if body is None or body.kind not in ("unit", "vehicle"):
                continue
            if pose.aboard is not None and pose.alive and pose.aboard in world.bodies:
                seated.append((id_, pose))
            elif pose.alive and pose.aboard is None and np.isfinite(pose.position).all() \
                    and world.is_on_battlefield(pose.position):
                world.place(id_, pose.position, pose.facing_deg)
            else:
                world.remove(id_)
        for id_, pose in seated:
            world.seat(id_, pose.aboard, pose.seat)
        for id_, owner in self.remains.items():
            owner_pose = poses.get(owner)
            body = world.bodies[id_]
            fallen = owner_pose is not None and not owner_pose.alive
            if fallen and not world.active[body.index]:
                world.place(id_, body.position, body.facing)  # where the rules left it (as add_obstacle did)
            elif not fallen and world.active[body.index]:
                world.remove(id_)

    def samples(self, id_: str, eye: np.ndarray) -> np.ndarray:
        """(S, 3) the sample points of a placed body that face `eye` (all of them when none does)."""
        from bow3d.world.bodies import facing_samples

        body = self.world.bodies[id_]
        points, facing = facing_samples(body.template, self.world.poses[body.index], eye)
        return points[facing] if facing.any() else points

    def skip_rows(self, id_: str) -> tuple[int, ...]:
        """The rows that never hide `id_` from the camera: itself and, for a vehicle, its occupants."""
        world = self.world
        rows = [world.bodies[id_].index]
        rows += [world.bodies[o].index for o in world.occupants(id_)] if world.bodies[id_].kind == "vehicle" else []
        return tuple(rows)

    def project(self, camera: CameraPose, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(N, 2) normalised screen coordinates (-1..1 inside the frame) and (N,) in front of the camera."""
        eye, target = np.asarray(camera.position, np.float64), np.asarray(camera.target, np.float64)
        forward = target - eye
        forward /= max(float(np.linalg.norm(forward)), 1e-9)
        right = np.cross(forward, [0.0, 0.0, 1.0])
        right /= max(float(np.linalg.norm(right)), 1e-9)
        up = np.cross(right, forward)
        rel = np.asarray(points, np.float64) - eye
        depth = rel @ forward
        tan_v = math.tan(math.radians(camera.fov_deg) / 2)
        safe = np.where(depth > 1e-6, depth, 1e-6)
        xy = np.stack([(rel @ right) / (safe * tan_v * self.aspect), (rel @ up) / (safe * tan_v)], axis=1)
        return xy, depth > 1e-6

    def measure(self, spec: FrameSpec, subjects: tuple[str, ...]) -> tuple[float, float, bool]:
        """(visible share, screen share, lens clear) of `subjects` in the frame `spec`."""
        self.place(spec.poses)
        eye = np.asarray(spec.camera.position, np.float64)
        lens = self.lens_clear(eye)
        shares, points_all = [], []
        for id_ in subjects:
            body = self.world.bodies.get(id_)
            if body is None or not self.world.active[body.index]:
                shares.append(0.0)
                continue
            points = self.samples(id_, eye)
            seen, _blockers, _hits = self.world.cast_sight(eye, points, self.skip_rows(id_), describe=False)
            xy, front = self.project(spec.camera, points)
            inside = front & (np.abs(xy) <= 1.0).all(axis=1)
            shares.append(float((seen & inside).mean()) if len(points) else 0.0)
            points_all.append(xy[front])
        visible = float(np.mean(shares)) if shares else 1.0
        screen = screen_share(np.concatenate(points_all)) if points_all else 0.0
        self.least = float(min(shares)) if shares else 1.0  # the least seen subject (the planner weighs it too)
        return visible, screen, lens

    def lens_clear(self, eye: np.ndarray) -> bool:
        """Nothing within NEAR_LDU of the camera, and the camera above the ground."""
        ground = float(self.world.ground_heights(eye[None, :2])[0])
        if np.isfinite(ground) and eye[2] < ground + NEAR_LDU:
            return False
        seen, _blockers, _hits = self.world.cast_sight(eye, eye + _SPHERE * NEAR_LDU, (), describe=False)
        return bool(seen.all())

    def path_clear(self, cameras: list[np.ndarray]) -> bool:
        """The camera's path through these positions (in order) crosses no decor and no body."""
        for a, b in zip(cameras[:-1], cameras[1:]):
            if float(np.linalg.norm(b - a)) > 1.0:
                seen, _blockers, _hits = self.world.cast_sight(a, b[None], (), describe=False)
                if not seen.all():
                    return False
        return True


def _sphere_dirs(count: int = 26) -> np.ndarray:
    """(count, 3) unit directions spread over the sphere (a Fibonacci lattice), for the lens check."""
    k = np.arange(count) + 0.5
    z = 1 - 2 * k / count
    angle = math.pi * (1 + 5 ** 0.5) * k
    r = np.sqrt(1 - z * z)
    return np.stack([r * np.cos(angle), r * np.sin(angle), z], axis=1)


_SPHERE = _sphere_dirs()


def screen_share(xy: np.ndarray) -> float:
    """The share of the frame (normalised coordinates, -1..1) covered by the box of points `xy` (N, 2)."""
    if len(xy) == 0:
        return 0.0
    lo = np.clip(xy.min(axis=0), -1.0, 1.0)
    hi = np.clip(xy.max(axis=0), -1.0, 1.0)
    return float(np.prod(hi - lo) / 4.0)


def check_shot(film: ShotList, judge: ShotJudge, index: int) -> ShotReport:
    """The shot measured at SAMPLE_AT moments: its worst moment (lowest visible, then screen share)."""
    shot = film.shots[index]
    subjects = subjects_of(film, index)
    if not subjects:
        return ShotReport(index, shot.kind, shot.start_s, shot.duration_s, (), 1.0, 1.0, True, shot.start_s)
    worst, least = None, 1.0
    lens = True
    cameras = []
    for at in SAMPLE_AT:
        time_s = shot.start_s + at * shot.duration_s
        spec = film.frame(time_s)
        visible, screen, clear = judge.measure(spec, subjects)
        lens &= clear
        least = min(least, judge.least)
        cameras.append(np.asarray(spec.camera.position, np.float64))
        if worst is None or (visible, screen) < worst[:2]:
            worst = (visible, screen, time_s)
    lens &= judge.path_clear(cameras)
    assert worst is not None  # SAMPLE_AT is not empty
    return ShotReport(index, shot.kind, shot.start_s, shot.duration_s, subjects, worst[0], worst[1], lens, worst[2],
                      least)


class ShotPlanner:
    """The director's planner (`direct(..., planner=)`): of every camera variant a shot may take
    (`ShotList.variants`: the framer's sides, each moved closer, higher, turned), the one whose worst
    moment best shows the subject. Ranked by: passing the check (a clear lens and camera path, at least
    MIN_VISIBLE seen and MIN_SCREEN of the frame), then the seen share (up to 0.9) plus half the least seen
    subject's share (up to 0.9) and half the screen share (up to 0.3), less 0.02 per step away from the framer's own composition (rule of thirds, the
    firer's shoulder) so that it is kept when it is as good. Moves are tried in order (the framer's own camera
    first), every side of each; once the best so far is GOOD_VISIBLE seen and GOOD_SCREEN of the frame,
    the farther moves are not tried. Ties go to the first: the same replay, the same plan."""

    def __init__(self, world, aspect: float):
        self.judge = ShotJudge(world, aspect)
        self.reports: dict[int, ShotReport] = {}  # shot -> the kept variant's report

    def __call__(self, film: ShotList, index: int):
        best, best_key, best_report = (-1, 0), None, None
        variants = film.variants(index)
        for rank, variant in enumerate(variants):
            film.forced[index] = variant
            try:
                report = check_shot(film, self.judge, index)
            finally:
                del film.forced[index]
            key = (report.ok, min(report.visible, 0.9) + 0.5 * min(report.least, 0.9)
                   + 0.5 * min(report.screen, 0.3) - 0.02 * (variant[1] > 0)
                   - 0.01 * (variant[0] >= 0) + (0.0 if report.lens_clear else -1.0))
            if best_key is None or key > best_key:
                best, best_key, best_report = variant, key, report
            last_of_move = rank + 1 == len(variants) or variants[rank + 1][1] != variant[1]
            if last_of_move and best_report is not None and best_report.ok and best_report.visible >= GOOD_VISIBLE \
                    and best_report.screen >= GOOD_SCREEN:
                break  # a camera this good: the farther moves are not tried
        assert best_report is not None  # the framer's own camera is always a variant
        self.reports[index] = best_report
        return best


# The roll tray's corners ((left, right, bottom, top), 0-1 of the window), the first preferred: the bottom
# left holds the unit and result titles, the top edge the shot's title; the throw captions sit above the tray.
TRAY_FRAMES = ((0.70, 0.985, 0.04, 0.34), (0.70, 0.985, 0.52, 0.82), (0.015, 0.30, 0.52, 0.82))


def subject_box(judge: ShotJudge, spec: FrameSpec, subjects: tuple[str, ...]):
    """(left, right, bottom, top), 0-1 of the window, of the subjects' sample points projected in the frame
    `spec` (clipped to the frame); None when none is in front of the camera."""
    judge.place(spec.poses)
    eye = np.asarray(spec.camera.position, np.float64)
    boxes = []
    for id_ in subjects:
        body = judge.world.bodies.get(id_)
        if body is None or not judge.world.active[body.index]:
            continue
        xy, front = judge.project(spec.camera, judge.samples(id_, eye))
        if front.any():
            boxes.append(np.clip((xy[front] + 1.0) / 2.0, 0.0, 1.0))
    if not boxes:
        return None
    points = np.concatenate(boxes)
    (left, bottom), (right, top) = points.min(axis=0), points.max(axis=0)
    return float(left), float(right), float(bottom), float(top)


def overlap(a, b) -> float:
    """The area shared by two (left, right, bottom, top) rectangles."""
    return max(0.0, min(a[1], b[1]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[2], b[2]))


def tray_frame(film: ShotList, judge: ShotJudge | None, index: int) -> tuple[float, float, float, float]:
    """Where shot `index` shows its roll tray: the corner of TRAY_FRAMES that covers least of its subject's
    box while the tray is up (the box over the roll's frames), then the farthest from it; the first corner
    when the shot has no subject or no world to measure it with."""
    shot = film.shots[index]
    subjects = subjects_of(film, index)
    if judge is None or not subjects:
        return TRAY_FRAMES[0]
    box = None
    for k in range(9):
        spec = film.frame(shot.start_s + shot.duration_s * k / 8 * 0.999)
        if spec.roll is None:
            continue
        seen = subject_box(judge, spec, subjects)
        if seen is not None:
            box = seen if box is None else (min(box[0], seen[0]), max(box[1], seen[1]),
                                            min(box[2], seen[2]), max(box[3], seen[3]))
    if box is None:
        return TRAY_FRAMES[0]
    centre = np.array([(box[0] + box[1]) / 2, (box[2] + box[3]) / 2])

    def key(item):
        rank, frame = item
        middle = np.array([(frame[0] + frame[1]) / 2, (frame[2] + frame[3]) / 2])
        return round(overlap(frame, box), 6), -round(float(np.linalg.norm(middle - centre)), 6), rank

    return min(enumerate(TRAY_FRAMES), key=key)[1]


def check_film(film: ShotList, world) -> list[ShotReport]:
    """Every shot of `film` measured on `world` (its bodies are moved; the film's aspect ratio)."""
    judge = ShotJudge(world, film.aspect)
    return [check_shot(film, judge, index) for index in range(len(film.shots))]


def worst_shot(reports: list[ShotReport]) -> ShotReport | None:
    """The measured shot with the least margin (None when no shot has a subject)."""
    measured = [r for r in reports if r.subjects]
    return min(measured, key=lambda r: (r.score, r.shot)) if measured else None
