"""The roll tray (issue 18): smaller, in the corner away from the shot's subject, and never shown empty
before its throw (bricks already in view on the tray's first frame)."""

from __future__ import annotations

from pathlib import Path

import pytest

VILLAGE = Path(__file__).resolve().parents[2] / "replays" / "village-seed1.bowreplay"


def test_first_brick_is_in_view_when_the_tray_shows():
    from bow3d.view.film.timeline import ThrowShown
    from bow3d.view.throws.brick_throw import BRICK_SPACING_LDU, brick_poses, first_in_view_s

    for bricks in (1, 3, 6, 10):
        rolls = (ThrowShown("blue", {"kind": "bricks", "n": bricks, "p": 0.262}, 1, "attack"),)
        lead = first_in_view_s(rolls)
        assert 0.0 < lead < 0.4
        x = brick_poses(rolls, lead + 1e-6, 1).centres[0, 0]
        assert x + 20.0 >= -(max(3, bricks) * BRICK_SPACING_LDU / 2 + 30.0) - 1e-6


@pytest.mark.render
def test_tray_avoids_the_subject_and_waits_for_the_throw(renderer_available):
    from bow3d.view.film.shot_check import TRAY_FRAMES, overlap, subject_box, subjects_of
    from bow3d.view.film.video import FilmRenderer, load_timeline

    scene, timeline, opened = load_timeline(VILLAGE)
    renderer = FilmRenderer(scene, timeline, (64, 36), opened.library(), world=opened.world())
    try:
        film, fps, checked = renderer.film, 5, 0
        for i in range(film.frame_count(fps)):
            spec = film.frame(i / fps)
            if spec.roll is None:
                renderer.frame_bytes(i / fps)
                assert not renderer.stage.tray.region.is_active(), f"a tray at {i / fps} s, before any throw"
                continue
            assert spec.roll.seconds >= 0.0
            frame = renderer.tray_frame(spec.shot)
            assert frame in TRAY_FRAMES
            subjects = subjects_of(film, spec.shot)
            box = subject_box(renderer._judge, spec, subjects) if subjects else None
            if box is not None and any(overlap(f, box) == 0.0 for f in TRAY_FRAMES):
                assert overlap(frame, box) == 0.0, (i / fps, frame, box)
                checked += 1
            renderer.frame_bytes(i / fps)
            assert renderer.stage.tray.region.is_active() and tuple(renderer.stage.tray.frame) == frame
        assert checked > 10
    finally:
        renderer.close()
