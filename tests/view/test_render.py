"""Offscreen stills (skipped where no graphics pipe exists)."""

from __future__ import annotations

import pytest

from bow3d.ldraw import load_model
from bow3d.view.output.offscreen import OffscreenRenderer, pose_for_view
from bow3d.view.output.still import attach_model, render_still
from tests.conftest import write

pytestmark = pytest.mark.render


def test_a_red_brick_shows_red_on_sky(tmp_path, library, renderer_available):
    m = load_model(write(tmp_path / "m.ldr", "1 4 0 0 0 1 0 0 0 1 0 0 0 1 brickstud.dat\n"), library, cache=False)
    r = OffscreenRenderer(160, 90)
    try:
        attach_model(r.render, m, "default")
        r.look(pose_for_view(m.bounds(), "iso", aspect=160 / 90))
        frame = r.frame().astype(int)
    finally:
        r.close()
    assert frame.shape == (90, 160, 3)
    centre = frame[35:55, 70:90].reshape(-1, 3).mean(axis=0)
    assert centre[0] > 2 * centre[2] and centre[0] > 60  # lit red in the middle
    corner = frame[0:5, 0:5].reshape(-1, 3).mean(axis=0)
    assert corner[2] > corner[0]  # sky in the corner


@pytest.mark.parametrize("view", ["top", "front", "iso"])
def test_render_still_writes_a_png(tmp_path, library, renderer_available, view):
    m = load_model(write(tmp_path / "m.ldr", "1 1 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n"), library, cache=False)
    stats = render_still(m, tmp_path / "out.png", (64, 48), view=view, edges=True)
    data = (tmp_path / "out.png").read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and stats.triangles == 12
