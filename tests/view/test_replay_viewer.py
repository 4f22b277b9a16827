"""The replay viewer driven through its handlers (play/pause, step, seek, speed), offscreen in its own
process (one ShowBase per process); skipped without a graphics pipe."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.render

SCRIPT = """
import sys
from pathlib import Path
sys.path.insert(0, {root!r})
from tests.conftest import write_library, write
from tests.view.test_video import BATTLEFIELD, FIGURE, SCENE
from bow3d.ldraw import Library
from bow3d.rulesets import load_scene
from bow3d.view.film.timeline import synthetic_timeline
from bow3d.view.apps.replay_viewer import ReplayViewer
from bow3d.view.apps.viewer import open_base
root = Path({tmp!r})
library = Library([write_library(root / "ldraw")])
write(root / "field.ldr", BATTLEFIELD); write(root / "figure.ldr", FIGURE)
scene = load_scene(write(root / "scene.yaml", SCENE))
base = open_base(offscreen=True, size=(320, 180))
viewer = ReplayViewer(base, scene, synthetic_timeline(scene), library)
film = viewer.film
assert viewer.time_s == 0 and not viewer.playing
viewer.on_play_pause(); assert viewer.playing
viewer.advance(1.5); assert abs(viewer.time_s - 1.5) < 1e-9
viewer.on_speed(2.0); viewer.advance(1.0); assert abs(viewer.time_s - 3.5) < 1e-9 and viewer.speed == 2.0
viewer.on_play_pause(); assert not viewer.playing
viewer.advance(5.0); assert abs(viewer.time_s - 3.5) < 1e-9  # paused: time stands still
following = film.shots[film.shot_at(3.5) + 1].start_s
viewer.on_step(1); assert viewer.time_s == following > 3.5 and not viewer.playing
second = viewer.time_s
viewer.on_step(1); viewer.on_step(-1); assert viewer.time_s == second
viewer.on_seek(1.0); assert viewer.time_s == film.duration_s
viewer.on_play_pause(); assert viewer.time_s == 0.0 and viewer.playing  # plays again from the start
viewer.on_seek(0.5); viewer.on_play_pause()
viewer.screenshot(root / "a.png")
viewer.on_seek(0.0); viewer.on_seek(0.5)
viewer.screenshot(root / "b.png")
director = base.camera.get_pos()
viewer.on_free_look(30.0, 5.0); viewer.on_zoom(0.5)
assert viewer.free is not None and (base.camera.get_pos() - director).length() > 1.0
viewer.on_seek(0.6); assert viewer.free is not None  # free look stays while the film goes on
viewer.on_director_camera(); viewer.on_seek(0.5)
assert viewer.free is None and (base.camera.get_pos() - director).length() < 1e-3
base.task_mgr.step()
print("ok", len(film.shots), round(film.duration_s, 2))
"""


def test_replay_viewer_handlers_offscreen(tmp_path, renderer_available):
    root = str(Path(__file__).resolve().parents[2])
    result = subprocess.run([sys.executable, "-c", SCRIPT.format(root=root, tmp=str(tmp_path))],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.split()[-3] == "ok"
    a, b = (tmp_path / "a.png").read_bytes(), (tmp_path / "b.png").read_bytes()
    assert a[:4] == b"\x89PNG" and a == b  # the same time shows the same picture, however it was reached


def test_open_replay_viewer_refuses_a_missing_replay(tmp_path):
    from bow3d.errors import Bow3dError
    from bow3d.view.apps.replay_viewer import open_replay_viewer

    with pytest.raises(Bow3dError):
        open_replay_viewer(tmp_path / "nothing.bowreplay")


def test_without_a_display_the_viewer_says_to_film_instead(monkeypatch):
    from bow3d.replay.verify import verify_replay
    from bow3d.view.apps.replay_viewer import open_replay_viewer
    from bow3d.view.output.offscreen import RenderUnavailable

    bundled = sorted((Path(__file__).resolve().parents[2] / "replays").glob("*.bowreplay"))
    if not bundled or not verify_replay(bundled[0]).ok:
        pytest.skip("no bundled replay that re-simulates with today's rules")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    with pytest.raises(RenderUnavailable, match="--video"):
        open_replay_viewer(bundled[0])
