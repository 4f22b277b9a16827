"""Issue 13: every LDraw colour form, with the RGBA it documents (bow3d/ldraw/colours.py), no magenta for any
known form, and finishes read into the colour table as data a renderer can use."""

from __future__ import annotations

import numpy as np
import pytest

from bow3d.ldraw import ColourTable, load_model
from bow3d.ldraw.colour_defs import ColourMaterial, parse_colour_meta
from bow3d.ldraw.colours import legacy_colour
from bow3d.ldraw.parse import parse_document
from tests.conftest import write

MAGENTA = (255, 0, 255, 255)
# (code as written, RGBA): the legacy forms as LDView reads them (ldraw.org forum thread 12516).
FORMS = [
    ("0x2FF8000", (255, 128, 0, 255)),            # direct opaque
    (str(0x2123456), (0x12, 0x34, 0x56, 255)),    # the same form written in decimal, as MLCad did
    ("0x3A0C8F0", (0xA0, 0xC8, 0xF0, 128)),       # direct transparent: 50 %
    ("0x4F000F0", (127, 127, 0, 255)),            # dithered F00 / 0F0: each channel x17, averaged (rounded down)
    ("0x4FFF000", (127, 127, 127, 255)),          # white / black
    ("0x412345A", (0x11 + 0x44 >> 1, 0x22 + 0x55 >> 1, 0x33 + 0xAA >> 1, 255)),
    ("0x5ABC123", (0xAA, 0xBB, 0xCC, 128)),       # dithered, second half transparent: the first half at 50 %
    ("0x6789DEF", (0xDD, 0xEE, 0xFF, 128)),       # dithered, first half transparent: the second half at 50 %
    (str(117313504), (0xFF, 0xEE, 0x00, 128)),    # 0x6FE0FE0: the beacon of LDView's sample 8464
    ("0x7123456", (0, 0, 0, 0)),                  # both halves transparent: invisible
]


def test_legacy_colour_forms_in_a_file_draw_as_documented(tmp_path, library):
    text = "0 Legacy colours\n" + "".join(f"1 {code} {40 * k} 0 0 1 0 0 0 1 0 0 0 1 box.dat\n"
                                           for k, (code, _) in enumerate(FORMS))
    model = load_model(write(tmp_path / "legacy.ldr", text), library, cache=False)
    mesh = model.mesh
    for k, (code, rgba) in enumerate(FORMS):
        drawn = {tuple(c) for c in mesh.tri_rgba[mesh.tri_instance == k]}
        assert drawn == {rgba}, (code, drawn)
    assert not (mesh.tri_rgba == MAGENTA).all(axis=1).any() and not model.diagnostics


@pytest.mark.parametrize("code, transparent, name", [
    (0x2FF8000, False, "#FF8000"), (0x3A0C8F0, True, "Trans_#A0C8F0"), (0x4F000F0, False, "Dither_#7F7F00"),
    (0x5ABC123, True, "Trans_Dither_#AABBCC"), (0x7000000, True, "Invisible"),
])
def test_legacy_colours_name_and_transparency(code, transparent, name):
    colour = legacy_colour(code)
    assert colour.is_transparent == transparent and colour.name == name and colour.finish == "solid"


@pytest.mark.parametrize("code", [0x1123456, 0x8000000, 0x3FFFFFFF, 999])
def test_unknown_codes_are_magenta_with_a_reason(tmp_path, library, code):
    model = load_model(write(tmp_path / "m.ldr", f"1 {code} 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n"), library, cache=False)
    assert {tuple(c) for c in model.mesh.tri_rgba} == {MAGENTA}
    message = model.diagnostics[0].message
    assert model.diagnostics[0].line == 1 and f"unknown colour {code}" in message and "drawn magenta" in message
    if code >= 0x1000000:
        assert f"(0x{code:07X})" in message and "0x3RRGGBB" in message


def test_finishes_and_materials_are_data():
    lines = [
        "0 !COLOUR Chrome_Gold CODE 334 VALUE #DFC176 EDGE #C2982E CHROME",
        "0 !COLOUR Pearl_White CODE 183 VALUE #F6F2DF EDGE #333333 PEARLESCENT",
        "0 !COLOUR Rubber_Black CODE 256 VALUE #1B2A34 EDGE #808080 RUBBER",
        "0 !COLOUR Matte_Metallic_Silver CODE 150 VALUE #989B99 EDGE #333333 MATTE_METALLIC",
        "0 !COLOUR Metallic_Gold CODE 82 VALUE #DBAC34 EDGE #333333 METAL",
        "0 !COLOUR Glow_In_Dark_Opaque CODE 21 VALUE #E0FFB0 EDGE #B8FF4D ALPHA 240 LUMINANCE 15",
        "0 !COLOUR Glitter_Trans_Dark_Pink CODE 114 VALUE #DF6695 EDGE #B9275F ALPHA 128 "
        "MATERIAL GLITTER VALUE #B92790 FRACTION 0.17 VFRACTION 0.2 SIZE 1",
        "0 !COLOUR Opal_Trans_Clear CODE 360 VALUE #FCFCFC EDGE #C9C9C9 ALPHA 240 LUMINANCE 5 "
        "MATERIAL GLITTER VALUE #FFFFFF FRACTION 0.8 VFRACTION 0.6 MINSIZE 0.02 MAXSIZE 0.1",
        "0 !COLOUR Speckle_Black_Silver CODE 132 VALUE #000000 EDGE #898788 "
        "material speckle value 0x898788 fraction 0.4 minsize 1 maxsize 3",
        "0 !COLOUR Edge_Ref CODE 600 VALUE #102030 EDGE 334",
    ]
    table = ColourTable(parse_document("\n".join(lines), "LDConfig.ldr").main.colours)
    finishes = {code: table.get(code).finish for code in (334, 183, 256, 150, 82, 21, 114, 132)}
    assert finishes == {334: "chrome", 183: "pearlescent", 256: "rubber", 150: "matte_metallic", 82: "metal",
                        21: "solid", 114: "glitter", 132: "speckle"}
    glow = table.get(21)
    assert glow.luminance == 15 and glow.rgba == (0xE0, 0xFF, 0xB0, 240) and glow.is_transparent
    glitter = table.get(114)
    assert glitter.rgba == (0xDF, 0x66, 0x95, 128)  # the material's VALUE does not replace the colour's
    assert glitter.material == ColourMaterial("glitter", (0xB9, 0x27, 0x90, 255), 0.17, 0.2, size=1.0)
    opal = table.get(360).material
    assert (opal.min_size, opal.max_size, opal.size, table.get(360).luminance) == (0.02, 0.1, None, 5)
    speckle = table.get(132)
    assert speckle.material == ColourMaterial("speckle", (0x89, 0x87, 0x88, 255), 0.4, min_size=1.0, max_size=3.0)
    assert speckle.rgba == (0, 0, 0, 255)
    assert table.get(600).edge_rgba == table.get(334).rgba  # EDGE given as another colour's code


@pytest.mark.parametrize("bad", [
    "0 !COLOUR X CODE 1 EDGE #000000", "0 !COLOUR X CODE 1 VALUE #12 EDGE #000000 ALPHA 300",
    "0 !COLOUR X CODE 1 VALUE #123456 EDGE #000000 LUMINANCE -1",
    "0 !COLOUR X CODE 1 VALUE #123456 EDGE #000000 MATERIAL GLITTER FRACTION 2",
    "0 !COLOUR X CODE 1 VALUE #123456 EDGE #000000 MATERIAL SPECKLE SIZE nan",
    "0 !COLOUR X CODE 1 VALUE #123456 EDGE #000000 MATERIAL", "0 !COLOUR X CODE -4 VALUE #123456 EDGE #000000",
])
def test_bad_colour_lines_are_skipped_with_a_diagnostic(bad):
    f = parse_document(bad + "\n", "m.ldr").main
    assert f.colours == [] and f.diagnostics[0].line == 1 and "!COLOUR needs" in f.diagnostics[0].message


def test_every_colour_of_the_official_ldconfig_reads(official):
    definitions = parse_document((official.roots[0] / "LDConfig.ldr").read_bytes(), "LDConfig.ldr").main
    assert not definitions.diagnostics and len(definitions.colours) > 150
    table = ColourTable(definitions.colours)
    finishes = {table.get(d.code).finish for d in definitions.colours}
    assert {"solid", "chrome", "pearlescent", "rubber", "metal", "glitter", "speckle"} <= finishes
    for d in definitions.colours:
        if d.material is not None:  # glitter and speckle colours keep their own VALUE
            assert table.get(d.code).rgba[:3] == d.value and d.material.fraction > 0, d.name


def test_parse_colour_meta_is_the_one_reader():
    d = parse_colour_meta(["!COLOUR", "Trans_Clear", "CODE", "47", "VALUE", "#FCFCFC", "EDGE", "#C9C9C9", "ALPHA", "128"], 7)
    assert (d.name, d.code, d.value, d.edge, d.alpha, d.line) == ("Trans_Clear", 47, (252, 252, 252), (201, 201, 201),
                                                                    128, 7)
    assert np.all(np.asarray(d.value) <= 255)
