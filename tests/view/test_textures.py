"""Textures drawn: a !TEXMAP decal shows the image's colours where the projection puts them, the
part's own colour elsewhere (offscreen renders, skipped where no graphics pipe exists)."""

from __future__ import annotations

import numpy as np
import pytest

from bow3d.ldraw import load_model
from bow3d.view.camera.pose import CameraPose
from bow3d.view.graph.batches import build_batches
from bow3d.view.output.offscreen import OffscreenRenderer
from bow3d.view.output.still import attach_model
from tests.conftest import write
from tests.ldraw.test_texmap import data_block, png_bytes

# A white wall 40 x 20 LDU facing the camera (LDraw -Z, world -Y); the image covers its left half only:
# red on the image's left, blue on its right. LDraw X right, -Y up.
WALL = "4 15 -20 -20 0 20 -20 0 20 0 0 -20 0 0\n"
TEXMAP = "0 !TEXMAP START PLANAR -20 -20 0 0 -20 0 -20 0 0 rb.png\n0 !: " + WALL + "0 !TEXMAP END\n"


def _picture() -> np.ndarray:
    rgba = np.zeros((8, 8, 4), np.uint8)
    rgba[:, :4] = (220, 0, 0, 255)
    rgba[:, 4:] = (0, 0, 220, 255)
    return rgba


def _render(model, quality: str = "default") -> np.ndarray:
    r = OffscreenRenderer(200, 100)
    try:
        attach_model(r.render, model, quality)
        r.look(CameraPose((0.0, -60.0, 10.0), (0.0, 0.0, 10.0), 40.0))  # square onto the wall, its middle
        return r.frame().astype(int)
    finally:
        r.close()


@pytest.mark.render
@pytest.mark.parametrize("quality", ["default", "full"])
def test_a_textured_wall_shows_the_image_where_the_projection_puts_it(tmp_path, library, renderer_available,
                                                                      quality):
    text = "0 FILE wall.ldr\n" + TEXMAP + data_block("rb.png", png_bytes(_picture()))
    model = load_model(write(tmp_path / "wall.mpd", text), library, cache=False)
    frame = _render(model, quality)
    # The wall spans x -20..20 (the middle 40 LDU of the picture); the image covers x -20..0.
    row = frame[50]
    columns = np.linspace(0, 199, 200)
    x_ldu = (columns - 99.5) / 100 * 60 * np.tan(np.radians(20)) * 2  # picture column -> wall x (LDU), aspect 2
    red, blue, white = row[np.argmin(abs(x_ldu + 15))], row[np.argmin(abs(x_ldu + 5))], row[np.argmin(abs(x_ldu - 10))]
    assert red[0] > 100 and red[0] > 3 * max(red[1], red[2]), red
    assert blue[2] > 100 and blue[2] > 3 * max(blue[0], blue[1]), blue
    assert min(white) > 120 and max(white) - min(white) < 40, white  # off the image: the wall's own white


@pytest.mark.render
def test_without_its_image_the_part_keeps_its_colour(tmp_path, library, renderer_available):
    model = load_model(write(tmp_path / "wall.ldr", TEXMAP), library, cache=False)
    assert "rb.png" not in model.textures
    assert not [b for b in build_batches(model) if b.texture]
    frame = _render(model)
    assert min(frame[50, 80]) > 120 and max(frame[50, 80]) - min(frame[50, 80]) < 40  # white where red would be


def test_decals_are_near_level_by_default_and_absent_in_draft(tmp_path, library):
    text = "0 FILE wall.ldr\n" + TEXMAP + data_block("rb.png", png_bytes(_picture()))
    model = load_model(write(tmp_path / "wall.mpd", text), library, cache=False)
    decals = {q: [b for b in build_batches(model, q) if b.texture] for q in ("draft", "default", "full")}
    assert not decals["draft"]
    assert [b.lod for b in decals["default"]] == [1] and [b.lod for b in decals["full"]] == [0]
    (decal,) = decals["full"]
    assert decal.texture == "rb.png" and decal.uvs.shape == (6, 2)
    assert np.allclose(decal.uvs.min(axis=0), 0) and np.allclose(decal.uvs.max(axis=0), [2, 1])  # u: twice the image
