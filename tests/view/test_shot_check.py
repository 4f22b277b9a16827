"""The film check (bow3d.view.film.shot_check): the subject's share seen from the camera, measured with the
world's rays, and its share of the frame; the bundled replays' films pass it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from bow3d.view.camera.pose import CameraPose
from bow3d.view.film.shot_check import MIN_SCREEN, MIN_VISIBLE, ShotJudge, screen_share

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = sorted((ROOT / "replays").glob("*.bowreplay"))


def test_screen_share_is_the_clipped_box():
    assert screen_share(np.zeros((0, 2))) == 0.0
    assert screen_share(np.array([[-1.0, -1.0], [1.0, 1.0]])) == pytest.approx(1.0)
    assert screen_share(np.array([[0.0, 0.0], [1.0, 1.0]])) == pytest.approx(0.25)
    assert screen_share(np.array([[0.5, 0.5], [3.0, 3.0]])) == pytest.approx(0.0625)  # off-frame part cut


def test_projection_puts_the_target_in_the_middle_and_the_fov_at_the_edge():
    judge = ShotJudge(world=None, aspect=2.0)
    camera = CameraPose((0.0, -100.0, 0.0), (0.0, 0.0, 0.0), 90.0)
    xy, front = judge.project(camera, np.array([[0.0, 0.0, 0.0], [0.0, 0.0, 100.0], [200.0, 0.0, 0.0],
                                                [0.0, -200.0, 0.0]]))
    assert xy[0] == pytest.approx([0.0, 0.0], abs=1e-9)
    assert xy[1] == pytest.approx([0.0, 1.0])   # tan(45 deg) * 100 up: the top edge
    assert xy[2] == pytest.approx([1.0, 0.0])   # the horizontal half-width is aspect times wider
    assert front.tolist() == [True, True, True, False]


@pytest.fixture(scope="module")
def village_film():
    from bow3d.view.film.video import FilmRenderer, load_timeline

    replay = ROOT / "replays" / "village-seed1.bowreplay"
    scene, timeline, opened = load_timeline(replay)
    renderer = FilmRenderer(scene, timeline, (64, 36), opened.library(), world=opened.world())
    yield renderer.film, opened.world()
    renderer.close()


@pytest.mark.render
def test_the_check_notices_a_camera_in_the_ground_or_looking_away(village_film, renderer_available):
    film, world = village_film
    judge = ShotJudge(world, film.aspect)
    index = next(i for i, s in enumerate(film.shots) if s.kind == "over_the_shoulder")
    from bow3d.view.film.shot_check import subjects_of

    shot = film.shots[index]
    spec = film.frame(shot.start_s + shot.duration_s / 2)
    subjects = subjects_of(film, index)
    visible, screen, clear = judge.measure(spec, subjects)
    assert clear and visible >= MIN_VISIBLE and screen >= MIN_SCREEN
    eye, target = np.asarray(spec.camera.position), np.asarray(spec.camera.target)
    away = replace(spec, camera=CameraPose(tuple(eye), tuple(2 * eye - target), spec.camera.fov_deg))
    assert judge.measure(away, subjects)[:2] == (0.0, 0.0)  # behind the camera: nothing seen, nothing on screen
    buried = replace(spec, camera=CameraPose((eye[0], eye[1], -40.0), tuple(target), spec.camera.fov_deg))
    assert judge.measure(buried, subjects)[2] is False  # under the ground


@pytest.mark.render
@pytest.mark.parametrize("replay", BUNDLED, ids=lambda p: p.stem)
def test_every_shot_of_the_bundled_films_shows_its_subject(replay, renderer_available):
    from bow3d.view.film.shot_check import worst_shot
    from bow3d.view.film.video import check_replay_shots

    reports = check_replay_shots(replay, (64, 36))  # the film at 16:9: the same shots as at 720p
    measured = [r for r in reports if r.subjects]
    assert measured, "no shot with a subject"
    below = [r.format() for r in measured if not r.ok]
    assert not below, "\n".join(below)
    assert worst_shot(reports).visible >= MIN_VISIBLE


def test_a_long_range_shoulder_shot_keeps_the_firer_in_the_frame():
    """War of Bros fires across 50-60 studs: the framer's narrow lens left the firer below the frame."""
    from bow3d.view.film.shots import SHOULDER_MAX_FOV, _keep_in_frame

    judge = ShotJudge(world=None, aspect=16 / 9)
    firer, target = np.array([0.0, 0.0, 76.0]), np.array([0.0, 1200.0, 76.0])
    camera = firer + np.array([48.0, -210.0, 110.0])
    look, fov = firer + (target - firer) * 0.72, 26.0
    feet, above = firer - np.array([0.0, 0.0, 68.0]), target + np.array([0.0, 0.0, 23.0])
    xy, _ = judge.project(CameraPose(tuple(camera), tuple(look), fov), np.array([feet, above]))
    assert xy[0, 1] < -1.0  # the firer's feet: out of the narrow frame
    look2, fov2 = _keep_in_frame(camera, look, fov, feet, above)
    assert fov < fov2 <= SHOULDER_MAX_FOV
    xy, front = judge.project(CameraPose(tuple(camera), tuple(look2), fov2), np.array([feet, above]))
    assert front.all() and (np.abs(xy) <= 1.0).all()
    near = firer + np.array([0.0, 300.0, 0.0])  # a short shot already in the frame: left as it was
    assert _keep_in_frame(camera, firer + (near - firer) * 0.72, 44.0, feet, near)[1] == 44.0


@pytest.mark.render
def test_remains_lie_on_the_field_only_once_their_owner_is_dead(renderer_available):
    """The world is left as at the game's end: a War of Bros Body or wreck is not there before its owner
    falls (it hid the living unit, the tank its own wreck, from every camera)."""
    from bow3d.view.film.video import FilmRenderer, load_timeline

    scene, timeline, opened = load_timeline(ROOT / "replays" / "war-of-bros-seed1.bowreplay")
    world = opened.world()
    renderer = FilmRenderer(scene, timeline, (64, 36), opened.library(), world=world, plan=False)
    try:
        film = renderer.film
        judge = ShotJudge(world, film.aspect)
        assert {"~wreck", "~body"} <= {id_[id_.index("~"):] for id_ in judge.remains}   # a tank's wreck, Bodies
        lying = []
        for time_s in (0.5, film.duration_s - 0.1):
            spec = film.frame(time_s)
            judge.place(spec.poses)
            for id_, owner in judge.remains.items():
                dead = owner in spec.poses and not spec.poses[owner].alive
                assert bool(world.active[world.bodies[id_].index]) == dead, (time_s, id_)
            lying.append(sum(bool(world.active[world.bodies[i].index]) for i in judge.remains))
        assert lying[0] < lying[1] == len(judge.remains)  # none yet at the start; at the end, all of them
    finally:
        renderer.close()


def test_a_shot_line_reads_as_before_in_english_and_in_french_words():
    """`replay --check-shots` lines: English byte for byte the old f-string's columns; French words and commas."""
    from bow3d import i18n
    from bow3d.view.film.shot_check import ShotReport

    report = ShotReport(3, "close_up", 12.0, 2.5, ("blue-rifle-2", "red-pistol"), 0.6612, 0.0475, False, 13.0,
                        least=0.5)
    old = (f"shot {3:3d} {'close_up':17s} {12.0:6.1f}-{14.5:5.1f} s {'blue-rifle-2, red-pistol':40s} "
           f"visible {0.6612:4.0%} (least {0.5:4.0%}), {0.0475:5.1%} of the frame, something at the lens  <- below")
    with i18n.speaking("en"):
        assert report.format() == old
    with i18n.speaking("fr"):
        french = report.format()
    assert "  12,0- 14,5 s" in french and "66 %" in french and "4,8 %" in french and "visible" not in french.split()[0]
    assert "image" in french and "frame" not in french
