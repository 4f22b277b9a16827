"""Conditional (type 5) lines: drawn, with the edges, only where the view makes them a silhouette
(their two control points on one side of the line on screen). Offscreen; skipped without a graphics pipe."""

from __future__ import annotations

import numpy as np
import pytest

from bow3d.ldraw import load_model
from bow3d.view.camera.pose import CameraPose
from bow3d.view.graph.batches import conditional_lines
from bow3d.view.output.offscreen import OffscreenRenderer
from bow3d.view.output.still import attach_model
from tests.conftest import write

# A vertical line (LDraw Y 0..-20: world z 0..20) at the origin, seen from the front (world -Y).
# An edge line far off to the side makes the lines a drawn model (loose conditional lines alone are not).
AWAY = "2 0 200 0 0 210 0 0\n"
SAME_SIDE = AWAY + "5 0 0 0 0 0 -20 0 -10 0 5 -10 0 -5\n"  # both controls to the left on screen: a silhouette
OPPOSITE = AWAY + "5 0 0 0 0 0 -20 0 -10 0 5 10 0 5\n"  # one left, one right: an inner line, hidden


def _darkest_in_the_middle(tmp_path, library, text: str, edges: bool = True) -> int:
    model = load_model(write(tmp_path / "m.ldr", text), library, cache=False)
    r = OffscreenRenderer(200, 100)
    try:
        attach_model(r.render, model, "default", edges=edges)
        r.look(CameraPose((0.0, -60.0, 10.0), (0.0, 0.0, 10.0), 40.0))
        frame = r.frame().astype(int)
    finally:
        r.close()
    return int(frame[40:60, 95:105].sum(axis=2).min())


@pytest.mark.render
def test_a_conditional_line_is_drawn_only_as_a_silhouette(tmp_path, library, renderer_available):
    sky = _darkest_in_the_middle(tmp_path, library, SAME_SIDE, edges=False)
    assert _darkest_in_the_middle(tmp_path, library, SAME_SIDE) < sky - 200
    assert _darkest_in_the_middle(tmp_path, library, OPPOSITE) > sky - 30


def test_each_end_carries_the_other_end_and_both_controls(tmp_path, library):
    model = load_model(write(tmp_path / "m.ldr", OPPOSITE), library, cache=False)
    lines = conditional_lines(model)
    assert lines.positions.shape == (2, 3) and lines.controls.shape == (2, 3, 3)
    # world = LDraw (X, Z, -Y)
    assert np.allclose(lines.controls[0, 0], lines.positions[1])
    assert np.allclose(lines.controls[1, 0], lines.positions[0])
    assert np.allclose(lines.controls[:, 1], [-10, 5, 0]) and np.allclose(lines.controls[:, 2], [10, 5, 0])
