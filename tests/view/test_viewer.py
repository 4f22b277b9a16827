"""The viewer driven through its own input handlers, offscreen (skipped without a graphics pipe)."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytestmark = pytest.mark.render

SCRIPT = """
import sys
from pathlib import Path
sys.path.insert(0, {root!r})
from tests.conftest import write_library, write
from bow3d.ldraw import Library, load_model
from bow3d.view.apps.viewer import Viewer, open_base
root = Path({tmp!r})
library = Library([write_library(root / "ldraw")])
model = load_model(write(root / "m.ldr", "1 4 0 0 0 1 0 0 0 1 0 0 0 1 brickstud.dat\\n1 1 100 0 0 1 0 0 0 1 0 0 0 1 box.dat\\n"),
                   library, cache=False)
base = open_base(offscreen=True, size=(160, 90))
viewer = Viewer(base, model)
start = viewer.camera
viewer.on_orbit(30, 10)
assert viewer.camera.yaw_deg != start.yaw_deg
viewer.on_zoom(0.5)
assert viewer.camera.distance_ldu < start.distance_ldu
viewer.on_pan(0.1, 0)
viewer.on_view("top")
assert viewer.camera.pitch_deg > 80
viewer.on_drag_start("orbit"); viewer.drag_to(50, 50); viewer.on_drag_end()
viewer.on_toggle_edges(); viewer.on_cycle_quality(); viewer.on_toggle_help()
viewer.screenshot(str(root / "shot.png"))
print("ok", viewer.state.quality, viewer.state.edges)
"""


def test_viewer_handlers_offscreen(tmp_path, renderer_available):
    from pathlib import Path

    root = str(Path(__file__).resolve().parents[2])
    result = subprocess.run([sys.executable, "-c", SCRIPT.format(root=root, tmp=str(tmp_path))],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split()[-3:] == ["ok", "full", "True"]
    assert (tmp_path / "shot.png").read_bytes()[:4] == b"\x89PNG"
