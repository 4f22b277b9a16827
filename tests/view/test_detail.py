"""Level of detail by size on screen (bow3d.view.graph.detail): a still close enough to see studs draws
them (the near level), a far one does not; the switch follows the picture's size and the lens."""

from __future__ import annotations

import numpy as np
import pytest

from bow3d.ldraw import load_model
from bow3d.view.camera.pose import CameraPose
from bow3d.view.graph.batches import CHUNK_LDU, NEAR_LDU
from bow3d.view.graph.detail import STUD_PIXELS_NEAR, near_distance_ldu
from bow3d.view.output.offscreen import OffscreenRenderer
from bow3d.view.output.still import attach_model
from tests.conftest import write


def test_the_near_distance_follows_picture_size_and_lens():
    d = near_distance_ldu(720, 40.0)
    # a stud (12 LDU across) is STUD_PIXELS_NEAR px wide at d: 12 * (360 / tan 20 deg) / d
    assert np.isclose(12 * 360 / np.tan(np.radians(20)) / d, STUD_PIXELS_NEAR)
    assert np.isclose(near_distance_ldu(1440, 40.0), 2 * d)
    assert near_distance_ldu(720, 20.0) > 2 * d  # a long lens sees studs farther away
    assert d > NEAR_LDU  # a 720p still draws studs farther than the old 80-stud distance


def _frames(tmp_path, library, distance_ldu: float) -> tuple[np.ndarray, np.ndarray]:
    """The same still of a 6 x 6 field of studded bricks (one chunk) with the detail by size on screen,
    and with the camera's LOD scale put back to 1 (the old switch by distance alone)."""
    centre = CHUNK_LDU / 2  # the chunk's LOD centre: the bricks sit round it
    lines = [f"1 4 {centre + 20 * (i - 3):g} 0 {centre + 20 * (j - 3):g} 1 0 0 0 1 0 0 0 1 brickstud.dat"
             for i in range(6) for j in range(6)]
    model = load_model(write(tmp_path / "field.ldr", "\n".join(lines) + "\n"), library, cache=False)
    r = OffscreenRenderer(1280, 720)
    try:
        attach_model(r.render, model, "default")
        direction = np.array([0.0, -0.6, 0.8])
        target = np.array([centre, centre, 0.0])
        r.look(CameraPose(tuple(target + direction * distance_ldu), tuple(target), 40.0))
        r.render_frame()
        by_size = r.frame().astype(int)
        r.camera.node().set_lod_scale(1.0)
        r.render_frame()  # frame() hands back the frame before the one it renders
        by_distance = r.frame().astype(int)
    finally:
        r.close()
    return by_size, by_distance


@pytest.mark.render
def test_a_close_still_draws_studs_a_far_one_does_not(tmp_path, library, renderer_available):
    close = 0.8 * near_distance_ldu(720, 40.0)  # beyond NEAR_LDU: the old rule drew no studs here
    assert close > NEAR_LDU
    by_size, by_distance = _frames(tmp_path, library, close)
    assert np.count_nonzero(np.abs(by_size - by_distance).sum(axis=2) > 30) > 20  # studs drawn now
    far = 1.3 * near_distance_ldu(720, 40.0)
    by_size, by_distance = _frames(tmp_path, library, far)
    assert np.array_equal(by_size, by_distance)  # both the far level

