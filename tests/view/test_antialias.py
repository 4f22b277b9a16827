"""Anti-aliasing choices: `bow3d view --antialias` opens a multisampled framebuffer (blended edge pixels),
films are multisampled at --quality high only. Windows open in child processes; skipped without a pipe."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bow3d.view.film.video import film_multisamples
from bow3d.view.output.offscreen import MULTISAMPLES

ROOT = Path(__file__).resolve().parents[2]


def test_films_are_multisampled_at_high_quality_only():
    assert film_multisamples("high") == MULTISAMPLES > 0
    assert film_multisamples("default") == film_multisamples("draft") == 0


PROBE = """
from bow3d.view.apps.viewer import open_base
base = open_base(offscreen=True, size=(64, 36), multisamples={ms})
print(base.win.get_fb_properties().get_multisamples(), base.render.get_antialias())
"""


@pytest.mark.render
@pytest.mark.parametrize("ms", [0, MULTISAMPLES])
def test_the_viewer_asks_for_a_multisampled_framebuffer_on_request(tmp_path, renderer_available, ms):
    # `bow3d view --antialias` passes MULTISAMPLES; the framebuffer the pipe gives has them (on a window the
    # driver resolves them; an offscreen ShowBase buffer on llvmpipe reports them without blending edges).
    result = subprocess.run([sys.executable, "-c", PROBE.format(ms=ms)], capture_output=True, text=True,
                            timeout=120, cwd=tmp_path, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin",
                                                            "HOME": str(tmp_path)})
    assert result.returncode == 0, result.stderr[-2000:]
    samples, antialias = result.stdout.split()[-2:]
    assert int(samples) == ms and (int(antialias) != 0) == bool(ms)


@pytest.mark.render
def test_stills_and_films_blend_edges_when_multisampled(tmp_path, library, renderer_available):
    # OffscreenRenderer (stills, films): a multisampled EGL pbuffer on llvmpipe never blended an edge;
    # a framebuffer object on a plain host does.
    import numpy as np

    from bow3d.ldraw import load_model
    from bow3d.view.output.offscreen import OffscreenRenderer, pose_for_view
    from bow3d.view.output.still import attach_model
    from tests.conftest import write

    model = load_model(write(tmp_path / "m.ldr", "1 4 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n"), library, cache=False)
    colours = {}
    for ms in (0, MULTISAMPLES):
        r = OffscreenRenderer(160, 90, multisamples=ms)
        try:
            attach_model(r.render, model)
            r.look(pose_for_view(model.bounds(), "iso", aspect=16 / 9))
            r.render_frame()
            colours[ms] = len(np.unique(r.frame().reshape(-1, 3), axis=0))
        finally:
            r.close()
    assert colours[MULTISAMPLES] > 2 * colours[0]  # blended edge pixels between face and sky colours
