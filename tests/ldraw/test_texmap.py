"""!TEXMAP and !DATA: the three projections against hand-worked points, the block semantics of the
LDraw !TEXMAP spec (START / NEXT / FALLBACK / END, `0 !:`), inheritance into placed files, embedded
images, and the diagnostics for what is not drawn."""

from __future__ import annotations

import base64
import struct
import zlib

import numpy as np
import pytest

from bow3d.ldraw import PartCache, load_model, parse_document
from bow3d.ldraw.texmap import TexMap, parse_texmap, texture_coords, triangle_coords
from tests.conftest import write


def png_bytes(rgba: np.ndarray) -> bytes:
    """A PNG of an (h, w, 4) uint8 picture (no imaging library needed)."""
    h, w = rgba.shape[:2]
    raw = b"".join(b"\x00" + rgba[y].tobytes() for y in range(h))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def data_block(name: str, data: bytes) -> str:
    text = base64.b64encode(data).decode()
    return f"0 !DATA {name}\n" + "".join(f"0 !: {text[i:i + 60]}\n" for i in range(0, len(text), 60))


def test_planar_hand_worked_points():
    # p1 the image's top left, p2 its top right (u), p3 its bottom left (v); off the plane counts as on it
    t = TexMap("PLANAR", (0, 0, 0, 10, 0, 0, 0, 20, 0), (), "a.png")
    uv = texture_coords(t, [[5, 10, 3], [10, 20, 0], [-5, 0, 0], [0, 0, 0]])
    assert np.allclose(uv, [[0.5, 0.5], [1, 1], [-0.5, 0], [0, 0]])


def test_cylindrical_hand_worked_points():
    # bottom centre p1 (0 10 0), top centre p2 (0 0 0), image middle towards p3 (-Z); 180 degrees round.
    # Positive angles go towards (p3 - p2) x (p1 - p2) = (-Z) x (+Y) = +X.
    t = TexMap("CYLINDRICAL", (0, 10, 0, 0, 0, 0, 0, 0, -5), (180.0,), "a.png")
    s = 5 / np.sqrt(2)
    uv = texture_coords(t, [[0, 0, -5], [5, 5, 0], [-5, 10, 0], [s, 2.5, -s]])
    assert np.allclose(uv, [[0.5, 0], [1.0, 0.5], [0.0, 1.0], [0.75, 0.25]])


def test_spherical_hand_worked_points():
    # centre p1, image centre at p2 (-Z), equator through p3 (+X): north = (-Z) x (+X) = -Y (LDraw up)
    t = TexMap("SPHERICAL", (0, 0, 0, 0, 0, -10, 10, 0, 0), (180.0, 90.0), "a.png")
    r = 10 / np.sqrt(2)
    uv = texture_coords(t, [[0, 0, -10], [10, 0, 0], [-10, 0, 0], [0, -r, -r], [0, r, -r]])
    assert np.allclose(uv, [[0.5, 0.5], [1.0, 0.5], [0.0, 0.5], [0.5, 0.0], [0.5, 1.0]])


def test_a_triangle_across_the_seam_is_not_drawn_backwards():
    t = TexMap("CYLINDRICAL", (0, 10, 0, 0, 0, 0, 0, 0, -5), (360.0,), "a.png")
    behind = np.array([[[-1, 0, 5], [1, 0, 5], [0, 5, 5]]], float)  # straddles the back (u 0 / 1)
    u = triangle_coords(t, behind)[0, :, 0]
    assert u.max() - u.min() < 0.1


def test_parse_texmap_words_and_errors():
    t = parse_texmap(["SPHERICAL", "0", "-20", "0", "-26", "-20", "0", "0", "-20", "-26", "180", "175", "61287p01rb.png", "GLOSSMAP", "g.png"])
    assert t.method == "SPHERICAL" and t.angles == (180.0, 175.0) and t.image == "61287p01rb.png"
    assert t.glossmap == "g.png"
    for bad in ("PLANAR 0 0 0 1 0 0 0 1", "WAVY 0 0 0 1 0 0 0 1 0 a.png", "PLANAR 0 0 0 1 0 0 0 x 0 a.png"):
        with pytest.raises(ValueError):
            parse_texmap(bad.split())


PLANAR = "0 !TEXMAP START PLANAR -10 0 0 10 0 0 -10 20 0 a.png\n"
QUAD = "4 4 -10 0 0 10 0 0 10 20 0 -10 20 0\n"


def test_start_fallback_end():
    # Between START and FALLBACK every geometry line is textured, `0 !:` ones included; FALLBACK..END is not drawn.
    text = PLANAR + "0 !: " + QUAD + "3 4 0 0 0 1 0 0 0 1 0\n0 !TEXMAP FALLBACK\n" + QUAD + "0 !TEXMAP END\n" + QUAD
    f = parse_document(text, "t.ldr").main
    assert f.triangles.shape[0] == 2 + 1 + 2
    assert f.tri_texmap.tolist() == [0, 0, 0, -1, -1] and f.texmaps[0].image == "a.png"
    assert not f.diagnostics


def test_next_textures_one_line_and_stray_lines_are_reported():
    text = ("0 !TEXMAP NEXT PLANAR -10 0 0 10 0 0 -10 20 0 a.png\n0 !: 3 4 0 0 0 1 0 0 0 1 0\n"
            "3 4 0 0 0 1 0 0 0 1 0\n0 !: 3 4 0 0 0 1 0 0 0 1 0\n0 !TEXMAP END\n0 !TEXMAP BLINK\n")
    f = parse_document(text, "t.ldr").main
    assert f.tri_texmap.tolist() == [0, -1]
    said = " | ".join(d.message for d in f.diagnostics)
    assert "0 !: outside" in said and "END without a START" in said and "BLINK" in said


def test_unsupported_things_are_diagnosed():
    text = ("0 !TEXMAP START PLANAR -10 0 0 10 0 0 -10 20 0 a.png GLOSSMAP g.png\n0 !: " + QUAD
            + "0 !TEXMAP END\n0 PE_TEX_INFO iVBORw0KGgo=\n0 !TEXMAP START PLANAR 0 0 0 0 0 0 0 0 0 b.png\n"
            + "0 !: " + QUAD + "0 !TEXMAP END\n")
    f = parse_document(text, "t.ldr").main
    said = " | ".join(d.message for d in f.diagnostics)
    assert "GLOSSMAP g.png not drawn" in said and "PE_TEX_INFO" in said and "define no projection" in said
    assert f.tri_texmap.tolist() == [0, 0, -1, -1]  # the bad projection's quad is still drawn, untextured


def test_a_placed_file_takes_the_projection_of_the_block_around_it(tmp_path, library):
    # Inside a part: the projection is in the placing file's frame, so the subpart's quad, moved 10 LDU
    # right, lands on u 0.5..1.5; a subpart with its own projection keeps it.
    write(tmp_path / "tx.dat", "0 Part\n0 !LDRAW_ORG Unofficial_Part\n" + PLANAR
          + "0 !: 1 16 10 0 0 1 0 0 0 1 0 0 0 1 txs.dat\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 own.dat\n0 !TEXMAP END\n")
    write(tmp_path / "txs.dat", "0 Subpart\n0 !LDRAW_ORG Unofficial_Subpart\n" + QUAD)
    write(tmp_path / "own.dat", "0 Subpart\n0 !LDRAW_ORG Unofficial_Subpart\n0 !TEXMAP START PLANAR 0 0 0 "
          "1 0 0 0 1 0 b.png\n0 !: 3 4 0 0 0 1 0 0 0 1 0\n0 !TEXMAP END\n")
    m = load_model(write(tmp_path / "m.ldr", "1 4 0 0 0 1 0 0 0 1 0 0 0 1 tx.dat\n"), library, cache=False)
    (part,) = m.parts.values()
    assert sorted(part.textures) == ["a.png", "b.png"]
    from_a = part.tex_uv[part.tri_texture[part.tri_texture >= 0] == part.textures.index("a.png")]
    assert np.isclose(from_a[..., 0].min(), 0.5) and np.isclose(from_a[..., 0].max(), 1.5)
    assert np.allclose(part.tex_uv[part.tri_texture[part.tri_texture >= 0] == part.textures.index("b.png")],
                       [[0, 0], [1, 0], [0, 1]])


def test_a_texmap_round_parts_in_a_model_is_reported(tmp_path, library):
    text = PLANAR + "0 !: 1 4 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n0 !TEXMAP END\n"
    m = load_model(write(tmp_path / "m.ldr", text), library, cache=False)
    assert len(m.instances) == 1 and m.is_complete
    assert any("round parts or sub-models placed in a model is not drawn" in d.message for d in m.diagnostics)


def test_embedded_image_is_found_and_a_missing_one_reported(tmp_path, library):
    image = png_bytes(np.full((2, 2, 4), 200, np.uint8))
    text = "0 FILE main.ldr\n" + PLANAR + "0 !: " + QUAD + "0 !TEXMAP END\n0 !TEXMAP START PLANAR -10 0 0 10 0 0 " \
           "-10 20 0 lost.png\n0 !: " + QUAD + "0 !TEXMAP END\n" + data_block("a.png", image)
    m = load_model(write(tmp_path / "m.mpd", text), library, cache=False)
    assert m.textures["a.png"].data == image
    assert "lost.png" not in m.textures
    assert any("texture image 'lost.png' not found" in d.message for d in m.diagnostics)


def test_an_image_beside_the_model_in_textures(tmp_path, library):
    (tmp_path / "textures").mkdir()
    (tmp_path / "textures" / "a.png").write_bytes(png_bytes(np.zeros((1, 1, 4), np.uint8)))
    m = load_model(write(tmp_path / "m.ldr", PLANAR + "0 !: " + QUAD + "0 !TEXMAP END\n"), library, cache=False)
    assert m.textures["a.png"].path == (tmp_path / "textures" / "a.png").resolve()
    assert not m.diagnostics


def test_textures_survive_the_part_cache(tmp_path, library):
    part = ("0 Textured part\n0 Name: tx.dat\n0 !LDRAW_ORG Unofficial_Part\n0 BFC CERTIFY CCW\n" + PLANAR
            + "0 !: 4 16 -10 0 0 10 0 0 10 20 0 -10 20 0\n0 !TEXMAP END\n")
    write(tmp_path / "tx.dat", part)
    model = write(tmp_path / "m.ldr", "1 4 0 0 0 1 0 0 0 1 0 0 0 1 tx.dat\n")
    cache = PartCache(tmp_path / "cache")
    cold = load_model(model, library, cache=cache)
    warm = load_model(model, library, cache=cache)
    assert warm.cache_hits >= 1
    (a,), (b,) = cold.parts.values(), warm.parts.values()
    assert b.textures == a.textures == ("a.png",)
    assert np.array_equal(a.tri_texture, b.tri_texture) and np.allclose(a.tex_uv, b.tex_uv)
