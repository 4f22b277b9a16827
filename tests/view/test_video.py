"""Replay videos rendered offscreen: a valid MP4 whose frame count matches its duration, the same frames
every time, refusal to overwrite; skipped where no graphics pipe exists."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from tests.conftest import write

pytestmark = pytest.mark.render

BATTLEFIELD = """0 Test battlefield
1 2 200 8 120 20 0 0 0 0.3333333 0 0 0 12 box.dat
1 71 200 -24 120 2 0 0 0 3 0 0 0 2 box.dat
"""
FIGURE = """0 Test figure
1 16 0 -24 0 0.8 0 0 0 2 0 0 0 0.8 box.dat
1 14 0 -56 0 0.5 0 0 0 0.4 0 0 0 0.5 box.dat
"""
SCENE = """format: bow3d-scene/1
name: Test field
battlefield: field.ldr
sides:
  - {id: blue, name: Blue army, colour: 1}
  - {id: red, name: Red army, colour: 4}
sheets:
  trooper: {kind: minifig, hp: 2, weapons: [{name: rifle, kind: ranged, damage: 1}]}
units:
  - {id: blue-1, side: blue, sheet: trooper, model: figure.ldr, position: [2.5, 2.5], facing: 0}
  - {id: blue-2, side: blue, sheet: trooper, model: figure.ldr, position: [2.5, 9.5], facing: 0}
  - {id: red-2, side: red, sheet: trooper, model: figure.ldr, position: [3.5, 2.5], facing: 180}
  - {id: red-1, side: red, sheet: trooper, model: figure.ldr, position: [17.5, 4.5], facing: 180}
"""


@pytest.fixture
def scene(tmp_path, library):
    from bow3d.rulesets import load_scene

    write(tmp_path / "field.ldr", BATTLEFIELD)
    write(tmp_path / "figure.ldr", FIGURE)
    return load_scene(write(tmp_path / "scene.yaml", SCENE))


@pytest.fixture
def timeline(scene):
    from bow3d.view.film.timeline import synthetic_timeline

    return synthetic_timeline(scene, rounds=2)


def _hash(frame) -> str:
    return hashlib.sha256(bytes(frame)).hexdigest()


def test_short_video_is_a_valid_mp4_with_one_frame_per_tick(tmp_path, scene, timeline, library, renderer_available):
    import imageio_ffmpeg

    from bow3d.view.film.video import render_timeline_video

    out = tmp_path / "film.mp4"
    stats = render_timeline_video(scene, timeline, out, size=(320, 180), fps=10, progress=False, library=library,
                                  max_seconds=4.0)
    assert out.read_bytes()[4:8] == b"ftyp"
    frames, seconds = imageio_ffmpeg.count_frames_and_secs(str(out))
    assert frames == stats.frames == round(stats.seconds * 10)
    assert abs(seconds - stats.seconds) < 0.15
    assert 3.0 <= stats.seconds <= 4.0 + 1e-6 and stats.encode_fps > 0
    meta = next(imageio_ffmpeg.read_frames(str(out)))
    assert tuple(meta["size"]) == (320, 180) and "h264" in meta["codec"]
    with pytest.raises(Exception, match="already exists"):
        render_timeline_video(scene, timeline, out, size=(320, 180), fps=10, progress=False, library=library)


def test_same_replay_same_frames_in_any_order(scene, timeline, library, renderer_available):
    from bow3d.view.film.video import FilmRenderer

    first = FilmRenderer(scene, timeline, (160, 90), library)
    try:
        times = [0.5, first.film.shots[1].start_s + 1.2, first.film.duration_s - 0.3]
        times += [first.film.shots[1].start_s + k * 0.3 for k in range(8)]  # side rings of touching units
        forward = [_hash(first.frame_bytes(t)) for t in times]
        again = [_hash(first.frame_bytes(t)) for t in reversed(times)][::-1]
        picture = first.frame(times[1])
    finally:
        first.close()
    second = FilmRenderer(scene, timeline, (160, 90), library)
    try:
        fresh = [_hash(second.frame_bytes(t)) for t in times]
    finally:
        second.close()
    assert forward == again == fresh
    assert len(set(forward)) >= 3  # the shots differ
    assert picture.shape == (90, 160, 3) and picture.std() > 5  # not an empty picture


def test_bad_size_and_output_are_refused(tmp_path, scene, timeline):
    from bow3d.errors import UserInputError
    from bow3d.view.film.video import render_timeline_video

    with pytest.raises(UserInputError, match="even"):
        render_timeline_video(scene, timeline, tmp_path / "a.mp4", size=(321, 180), progress=False)
    with pytest.raises(UserInputError, match="mp4"):
        render_timeline_video(scene, timeline, tmp_path / "a.avi", size=(320, 180), progress=False)
    with pytest.raises(UserInputError, match="frames per second"):
        render_timeline_video(scene, timeline, tmp_path / "a.mp4", size=(320, 180), fps=0, progress=False)


BUNDLED = sorted((Path(__file__).resolve().parents[2] / "replays").glob("*.bowreplay"))


@pytest.mark.slow
@pytest.mark.skipif(not BUNDLED, reason="no bundled replay in replays/")
def test_bundled_replay_renders(tmp_path, renderer_available):
    import imageio_ffmpeg

    from bow3d.replay.verify import verify_replay
    from bow3d.view.film.video import render_replay_video

    if not verify_replay(BUNDLED[0]).ok:  # tests/replay/test_bundled.py reports a stale replay
        pytest.skip(f"{BUNDLED[0].name} does not re-simulate with today's rules; regenerate it")
    out = tmp_path / "replay.mp4"
    stats = render_replay_video(BUNDLED[0], out, size=(160, 90), fps=4, progress=False, max_seconds=20.0)
    frames, _ = imageio_ffmpeg.count_frames_and_secs(str(out))
    assert frames == stats.frames == round(stats.seconds * 4)


FRAMES_SCRIPT = """
import hashlib, sys
from pathlib import Path
sys.path.insert(0, {root!r})
from tests.conftest import write_library, write
from tests.view.test_video import BATTLEFIELD, FIGURE, SCENE
from bow3d.ldraw import Library
from bow3d.rulesets import load_scene
from bow3d.view.film.timeline import synthetic_timeline
from bow3d.view.film.video import FilmRenderer
root = Path({tmp!r})
library = Library([write_library(root / "ldraw")])
write(root / "field.ldr", BATTLEFIELD); write(root / "figure.ldr", FIGURE)
scene = load_scene(write(root / "scene.yaml", SCENE))
renderer = FilmRenderer(scene, synthetic_timeline(scene), (160, 90), library)
digest = hashlib.sha256()
for i in range(0, renderer.film.frame_count(10), 3):
    digest.update(bytes(renderer.frame_bytes(i / 10)))
print(digest.hexdigest())
"""


def test_same_frames_in_another_process(tmp_path, renderer_available):
    """Draw order does not depend on memory addresses: a second process renders the same bytes."""
    import subprocess
    import sys

    root = str(Path(__file__).resolve().parents[2])
    digests = []
    for k in range(2):
        folder = tmp_path / f"run{k}"
        result = subprocess.run([sys.executable, "-c", FRAMES_SCRIPT.format(root=root, tmp=str(folder))],
                                capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr[-2000:]
        digests.append(result.stdout.split()[-1])
    assert digests[0] == digests[1]
