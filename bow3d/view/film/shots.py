"""The camera work of each kind of shot: where the camera is, who stands where, which titles, at a time.

Layer: view, pure Python and numpy (see bow3d.view.film.director, which picks the shots). Each
framer is `(film, shot index, shot, step, seconds into the shot) -> FrameSpec`; world frame Z
up, LDU. Camera sides are picked once per shot, clear of decor and units (`ShotList.clear_side`).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from bow3d.view.film.frames import (
    FALL_S,
    HEAD_LDU,
    VEHICLE_EYE_LDU,
    FrameSpec,
    RollView,
    Shot,
    Title,
    Tracer,
    _pose,
    _smooth,
)
from bow3d.view.film.timeline import (
    Attacked,
    Died,
    Moved,
    Narrated,
    RollsShown,
    RoundStarted,
    Step,
    Treated,
    VehicleMoved,
)
from bow3d.view.throws.brick_throw import first_in_view_s, is_bricks_only

if TYPE_CHECKING:
    from bow3d.view.film.director import ShotList


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
    opening = "\n".join(t for t in (film.timeline.scene_name, film.timeline.parts_note) if t)
    if beat.round == 1 and opening:   # a pack's own parts are said where the film starts
        titles.append(Title(opening, "caption", (1.0, 1.0, 1.0), _fade(local, shot.duration_s)))
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
    target = film.at(mover, replace(end, position=position), lift)
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
    behind = (150.0 + 0.05 * reach) * (1.5 if riding else 1.0)
    up = np.array([0, 0, (52.0 + 0.05 * reach) * (1.8 if riding else 1.0)])
    shoulders = [-forward * behind + right * 48.0 + up, -forward * behind - right * 48.0 + up,
                 -forward * behind * 1.3 + up * 2.0]
    choice = film.clear_side(index, firer, shoulders, before, (beat.firer, beat.target))
    camera = firer + shoulders[choice] * (1.0 - 0.2 * u)
    look = firer + d * 0.72
    fov = float(np.clip(52.0 - reach / 40.0, 26.0, 48.0))
    # at a long range (War of Bros fires across 50-60 studs) the narrow lens leaves the firer below the
    # frame: the lens widens, then tilts down, until the firer's feet are in it too
    look, fov = _keep_in_frame(camera, look, fov, film.at(beat.firer, firer_pose, 0.1 * HEAD_LDU),
                               film.head(beat.target, target_pose) + np.array([0.0, 0.0, 0.3 * HEAD_LDU]))
    aim = math.degrees(math.atan2(d[1], d[0])) % 360
    poses = dict(before)
    if before[beat.firer].aboard is None:
        poses[beat.firer] = replace(firer_pose, facing_deg=aim)
    fire_at, flight = 0.7, 0.35
    tracer = None
    if beat.ranged and fire_at <= local <= fire_at + flight + 0.5:
        tracer = Tracer(tuple(firer.tolist()), tuple(target.tolist()), min(1.0, (local - fire_at) / flight),
                        (1.0, 0.9, 0.4))
    roll = _roll_view(film, step, beat.rolls, local - fire_at - 0.3, shot)
    titles = [_unit_title(film, beat.firer, local, shot)]
    result_at = shot.duration_s * 0.62
    action = _action_text(step, beat.firer, beat.target)
    if action and local < result_at:
        titles.append(Title(action, "caption", (1.0, 1.0, 1.0), _fade(local, shot.duration_s, 0.0, result_at)))
    if local >= result_at:
        titles.append(Title(_result_text(step, beat), "result", film.rgb(beat.firer), _fade(local, shot.duration_s,
                                                                                               result_at)))
    if beat.damage and local >= result_at:  # the hit unit shows its damage once the rolls are read
        poses[beat.target] = replace(before[beat.target], damage=step.after[beat.target].damage)
    return FrameSpec(shot.start_s + local, index, _pose(camera, look, fov), poses, {}, tuple(titles), tracer,
                     roll, beat.target)


SHOULDER_MAX_FOV = 56.0  # the widest lens an over-the-shoulder shot opens to keep its firer in the frame
IN_FRAME = 0.88  # the share of the frame's half-height the kept points stay within (a margin at the edges)


def _elevation(vector: np.ndarray) -> float:
    return math.atan2(float(vector[2]), float(np.linalg.norm(vector[:2])))


def _keep_in_frame(camera: np.ndarray, look: np.ndarray, fov: float, low: np.ndarray,
                   high: np.ndarray) -> tuple[np.ndarray, float]:
    """(look, fov) so that `low` (the firer's feet, near the camera) and `high` (above the target's head)
    both lie within IN_FRAME of the frame's half-height: unchanged when they already do, else the lens
    widened (up to SHOULDER_MAX_FOV), then the look point lowered (same bearing, same distance), keeping
    `high` in the frame before `low` when both cannot be."""
    aim = look - camera
    centre = _elevation(aim)
    bottom, top = _elevation(low - camera), _elevation(high - camera)
    half = math.atan(IN_FRAME * math.tan(math.radians(fov) / 2))  # the kept band's half-angle
    if bottom >= centre - half and top <= centre + half:
        return look, fov
    half = min(max(half, (top - bottom) / 2), math.atan(IN_FRAME * math.tan(math.radians(SHOULDER_MAX_FOV) / 2)))
    centre = top - half if top - bottom > 2 * half else min(max(centre, top - half), bottom + half)
    fov = 2 * math.degrees(math.atan(math.tan(half) / IN_FRAME))
    flat = float(np.linalg.norm(aim[:2])) or 1.0
    distance = float(np.linalg.norm(aim))
    direction = np.array([aim[0] / flat * math.cos(centre), aim[1] / flat * math.cos(centre), math.sin(centre)])
    return camera + direction * distance, fov


def _short(text: str, limit: int = 90) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _result_text(step: Step, beat: Attacked | Treated) -> str:
    """The narrator's line weighing the throws ('... 2 attack bricks on edge vs 1 dodge: 1 damage'), read
    from the step's typed events when the timeline was built."""
    return _short(step.result)


def _action_text(step: Step, actor: str, target: str) -> str:
    """The narrator's line announcing the action ('blue-3 fires its rifle at red-2 (22.4 studs, -1 brick, covered)...')."""
    return _short(step.caption, 110)


def _frame_close_up(film: ShotList, index: int, shot: Shot, step: Step, local: float) -> FrameSpec:
    beat: Died = step.beat  # type: ignore[assignment]
    pose = film.on_table(beat.unit, step.before if beat.unit in step.before else step.after)
    aboard = (step.before.get(beat.unit) or pose).aboard is not None
    reach = 2.0 if aboard or beat.unit in film.timeline.vehicles else 1.0  # a vehicle needs a wider shot
    centre = film.at(beat.unit, pose, HEAD_LDU * 0.45 * (1.5 if aboard else 1.0))
    toward = 0.0
    if beat.by and beat.by in step.before:
        other = film.on_table(beat.by, step.before).position
        toward = math.atan2(other[1] - pose.position[1], other[0] - pose.position[0])
    u = local / shot.duration_s
    pitch = math.radians(40.0)  # from above the neighbours: a fallen unit lies low

    def offset(yaw: float, distance: float) -> np.ndarray:
        return np.array([math.cos(pitch) * math.cos(yaw), math.cos(pitch) * math.sin(yaw), math.sin(pitch)]) * distance

    starts = [toward + math.radians(a) for a in (35.0, -35.0, 100.0, -100.0, 180.0)]
    choice = film.clear_side(index, centre, [offset(a, 200.0 * reach) for a in starts], step.before,
                             (beat.unit, pose.aboard or beat.unit))
    sweep = 25.0 if choice % 2 == 0 else -25.0
    camera = centre + offset(starts[choice] + math.radians(sweep * u), (210.0 - 40.0 * _smooth(u)) * reach)
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
    roll = _roll_view(film, step, beat.rolls, local - 0.4, shot)
    titles = [_unit_title(film, beat.medic or beat.target, local, shot)]
    if local >= shot.duration_s * 0.6:
        titles.append(Title(_result_text(step, beat), "result", film.rgb(beat.medic),
                            _fade(local, shot.duration_s, shot.duration_s * 0.6)))
    return FrameSpec(shot.start_s + local, index, _pose(camera, middle, 36.0), dict(step.before), {},
                     tuple(titles), None, roll, beat.target)


def _roll_view(film: ShotList, step: Step, rolls, seconds: float, shot: Shot) -> RollView | None:
    """The tray's view of `rolls`, `seconds` after the first throw (none before, nor without throws)."""
    if not rolls or seconds < 0:
        return None
    if is_bricks_only(rolls):  # the throw starts with its first brick in view: never an empty tray
        seconds += first_in_view_s(rolls)
    return RollView(rolls, seconds, shot.step, tuple(film.rgb_of_side(r.side) for r in rolls))


def _rolls_title(rolls) -> str:
    """The wide shot's caption: what the throws are for (BOW: 'Starting player'), else the first one's words."""
    first = rolls[0] if rolls else None
    if first is None:
        return ""
    if first.purpose:
        return first.purpose.replace("_", " ").capitalize()
    return "Brick roll" if first.kind == "bricks" else first.words


def _frame_rolls(film: ShotList, index: int, shot: Shot, step: Step, local: float) -> FrameSpec:
    beat: RollsShown = step.beat  # type: ignore[assignment]
    u = local / shot.duration_s
    roll = _roll_view(film, step, beat.rolls, local, shot)
    titles = (Title(_short(_rolls_title(beat.rolls)), "caption", (1.0, 1.0, 1.0), _fade(local, shot.duration_s)),)
    return FrameSpec(shot.start_s + local, index, film._establishing(step.round, 0.5 + 0.3 * u), dict(step.after),
                     {}, titles, None, roll)


def _frame_glance(film: ShotList, index: int, shot: Shot, step: Step, local: float) -> FrameSpec:
    """A short look at the actor (the wide view when there is none); the tray shows its throws, if any."""
    beat: Narrated = step.beat  # type: ignore[assignment]
    words = step.result or step.text
    roll = _roll_view(film, step, beat.rolls, local - 0.2, shot)
    if beat.unit is None or beat.unit not in step.after:
        return FrameSpec(shot.start_s + local, index, film._establishing(step.round, 0.9), dict(step.after), {},
                         (Title(words[:90], "result", (1.0, 1.0, 1.0), _fade(local, shot.duration_s)),), None, roll)
    pose = film.on_table(beat.unit, step.after)
    if math.isnan(pose.position[0]):
        return FrameSpec(shot.start_s + local, index, film._establishing(step.round, 0.9), dict(step.after), {}, (),
                         None, roll)
    target = film.at(beat.unit, pose, HEAD_LDU * 0.5)
    yaw = math.radians(pose.facing_deg + 40.0 + 10.0 * local)
    camera = target + np.array([math.cos(yaw) * 0.75, math.sin(yaw) * 0.75, 0.66]) * 200.0
    titles = (_unit_title(film, beat.unit, local, shot),
              Title((words or "")[:90], "result", film.rgb(beat.unit), _fade(local, shot.duration_s)))
    return FrameSpec(shot.start_s + local, index, _pose(camera, target, 38.0), dict(step.after), {}, titles,
                     roll=roll, highlight=beat.unit)


def _frame_finale(film: ShotList, index: int, shot: Shot, step: Step, local: float) -> FrameSpec:
    timeline = film.timeline
    side = timeline.sides.get(timeline.winner or "")
    text = f"{side.name} wins" if side else "Draw"
    rgb = side.rgb if side else (1.0, 1.0, 1.0)
    titles = (Title(text, "round", rgb, _fade(local, shot.duration_s, 0.2)),
              Title(f"after {step.round} round{'s' if step.round != 1 else ''}", "caption", (1.0, 1.0, 1.0),
                    _fade(local, shot.duration_s, 0.5)))
    camera = film._establishing(step.round + 1, local / shot.duration_s)
    return FrameSpec(shot.start_s + local, index, camera, dict(step.after), {}, titles)


FRAMERS = {"establishing": _frame_establishing, "tracking": _frame_tracking,
            "over_the_shoulder": _frame_over_the_shoulder, "close_up": _frame_close_up,
            "two_shot": _frame_two_shot, "rolls": _frame_rolls, "glance": _frame_glance, "throw": _frame_glance,
            "finale": _frame_finale}
