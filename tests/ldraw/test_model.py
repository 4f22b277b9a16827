"""The LDraw reader end to end on small inline documents (issue 2, LDraw file format spec)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bow3d.errors import LDrawError
from bow3d.ldraw import Library, load_model, parse_document
from tests.conftest import write


def signed_volume(mesh, rows=None) -> float:
    tris = mesh.positions[mesh.triangles if rows is None else mesh.triangles[rows]].astype(np.float64)
    return float(np.einsum("ij,ij->i", tris[:, 0], np.cross(tris[:, 1], tris[:, 2])).sum() / 6.0)


def model_of(tmp_path: Path, text: str | bytes, library: Library, name: str = "m.ldr", **kw):
    return load_model(write(tmp_path / name, text), library, cache=False, **kw)


def test_world_frame_is_x_z_minus_y(tmp_path, library):
    # design.md: world (x, y, z) = LDraw (X, Z, -Y); a box on the origin stands on z = 0.
    m = model_of(tmp_path, "1 4 100 -24 40 1 0 0 0 1 0 0 0 1 box.dat\n", library)
    lo, hi = m.mesh.bounds()
    assert np.allclose(lo, [90, 30, 24]) and np.allclose(hi, [110, 50, 48])
    assert np.allclose(m.instances[0].transform[:3, 3], [100, 40, 24])


def test_quads_split_and_edges_kept_apart(tmp_path, library):
    m = model_of(tmp_path, "1 4 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n", library)
    assert m.mesh.triangle_count == 12  # 6 quads -> 12 triangles
    assert m.mesh.edges.shape == (1, 2) and m.mesh.optional_edges.shape == (0, 4)
    assert m.mesh.tri_colour.tolist() == [4] * 12
    assert m.mesh.edge_colour[0] != 4  # 24 = edge colour of red, resolved at the instance


@pytest.mark.parametrize("quad, warned", [
    ("0 0 0 10 0 0 0 0 10 10 0 10", "1 2 4 3"),   # sides 2-3 and 4-1 cross
    ("0 0 0 10 0 10 10 0 0 0 0 10", "1 3 2 4"),   # sides 1-2 and 3-4 cross
    ("0 0 0 10 0 0 10 0 10 0 0 10", None),        # in order
    ("0 0 0 10 0 0 10 0 10 10 0 10", None),       # a triangle written as a quad
])
def test_a_bow_tie_quad_is_drawn_by_its_outline(tmp_path, library, quad, warned):
    # split as written, a bow-tie's two triangles overlapped and left half the square open (LDView reorders it)
    m = model_of(tmp_path, f"0 Quads\n0 BFC CERTIFY CCW\n4 4 {quad}\n", library)
    tris = m.mesh.positions[m.mesh.triangles].astype(np.float64)
    area = np.linalg.norm(np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0]).sum(axis=0)) / 2  # signed
    assert area == pytest.approx(50 if "10 0 10 10 0 10" in quad else 100)
    if warned:
        assert [(d.line, d.severity) for d in m.diagnostics] == [(3, "warning")]
        assert f"bow-tie): drawn with its corners in the order {warned}" in m.diagnostics[0].message
    else:
        assert not m.diagnostics


def test_bounds_leave_out_optional_line_control_points(tmp_path, library):
    # LDraw spec, line type 5: the two control points only decide when the line is drawn.
    write(tmp_path / "opt.dat", "0 Box with an optional line\n0 !LDRAW_ORG Part\n"
          "1 16 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n5 24 10 0 10 10 -24 10 60 0 10 10 0 90\n")
    m = model_of(tmp_path, "1 4 0 0 0 1 0 0 0 1 0 0 0 1 opt.dat\n", library)
    assert m.mesh.optional_edges.shape == (1, 4)
    assert np.allclose(m.bounds(), m.mesh.bounds())
    assert np.allclose(m.bounds()[1], [10, 10, 24])


def test_bounds_are_exact_for_any_turn(tmp_path, library):
    # A box turned by 45 degrees: its own box's corners would stick out by 41 %.
    text = "1 4 0 0 0 0.7071068 0 0.7071068 0 1 0 -0.7071068 0 0.7071068 box.dat\n"
    m = model_of(tmp_path, text, library)
    assert np.allclose(m.bounds(), m.mesh.bounds(), atol=1e-3)
    assert m.bounds()[1][0] == pytest.approx(10 * 2 ** 0.5, abs=1e-3)


@pytest.mark.parametrize("matrix", ["1 0 0 0 1 0 0 0 1", "-1 0 0 0 1 0 0 0 1", "1 0 0 0 -1 0 0 0 1",
                                    "0 0 1 0 1 0 -1 0 0", "2 0 0 0 1 0 0 0 -3"])
@pytest.mark.parametrize("part", ["box.dat", "boxcw.dat"])
def test_bfc_winding_outward_for_any_matrix(tmp_path, library, matrix, part):
    # LDraw BFC: CW files and mirroring matrices are normalised: front faces CCW, outward.
    m = model_of(tmp_path, f"1 4 0 0 0 {matrix} {part}\n", library)
    assert m.mesh.tri_certified.all()
    assert signed_volume(m.mesh) > 0


def test_bfc_invertnext_turns_inside_out_even_when_mirrored(tmp_path, library):
    m = model_of(tmp_path, "0 BFC CERTIFY CCW\n0 BFC INVERTNEXT\n1 4 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n"
                           "0 BFC INVERTNEXT\n1 4 0 0 0 -1 0 0 0 1 0 0 0 1 box.dat\n", library, name="inv.dat")
    # INVERTNEXT turns a box inside out, mirrored or not (the mirror itself is compensated)
    assert signed_volume(m.mesh, slice(0, 12)) < 0
    assert signed_volume(m.mesh, slice(12, 24)) < 0
    plain = model_of(tmp_path, "1 4 0 0 0 -1 0 0 0 1 0 0 0 1 box.dat\n", library, name="plain.dat")
    assert signed_volume(plain.mesh) > 0


def test_uncertified_and_noclip_are_not_certified(tmp_path, library):
    m = model_of(tmp_path, "1 4 0 0 0 1 0 0 0 1 0 0 0 1 boxnocert.dat\n", library)
    assert not m.mesh.tri_certified.any()
    part = "0 P\n0 !LDRAW_ORG Part\n0 BFC CERTIFY CCW\n0 BFC NOCLIP\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n" \
           "0 BFC CLIP\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n"
    write(tmp_path / "clip.dat", part)
    m = model_of(tmp_path, "1 4 0 0 0 1 0 0 0 1 0 0 0 1 clip.dat\n", library)
    assert m.mesh.tri_certified.sum() == 12


def test_mpd_submodels_colour_inheritance_and_instances(tmp_path, library):
    mpd = """0 FILE main.ldr
0 Main
1 4 0 0 0 1 0 0 0 1 0 0 0 1 house.ldr
1 1 100 0 0 1 0 0 0 1 0 0 0 1 House.ldr
0 NOFILE
0 FILE house.ldr
1 16 0 0 0 1 0 0 0 1 0 0 0 1 box.dat
1 14 0 -24 0 1 0 0 0 1 0 0 0 1 box.dat
0 NOFILE
"""
    m = model_of(tmp_path, mpd, library, name="village.mpd")
    assert [i.colour for i in m.instances] == [4, 14, 1, 14]  # 16 inherits through the sub-model
    assert len(m.parts) == 1 and m.triangle_count() == 48  # one part flattened once, instanced 4 times
    assert m.instances[2].submodel_path == ("main.ldr", "house.ldr")
    assert m.instances[1].describe() == "box.dat, Yellow, village.mpd line 8"
    assert np.allclose(m.instances[3].transform[:3, 3], [100, 0, 24])


def test_file_names_keep_their_inner_spaces(tmp_path, library):
    # a name is the rest of the type 1 line as written: two spaces or a tab inside it are kept, as in its
    # 0 FILE line and on disk (they were squeezed to one space: the sub-model was reported missing)
    text = ("0 FILE Main  Model.ldr\n1 4 0 0 0 1 0 0 0 1 0 0 0 1 my  wall.ldr\n"
            "1 1 0 0 0 1 0 0 0 1 0 0 0 1 on\tdisk  file.ldr  \n"
            "0 FILE my  wall.ldr\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n")
    write(tmp_path / "on\tdisk  file.ldr", "1 16 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n")
    m = model_of(tmp_path, text, library, name="spaces.mpd")
    assert not m.diagnostics
    assert [(i.name, i.colour) for i in m.instances] == [("box.dat", 4), ("box.dat", 1)]


def test_a_second_file_of_the_same_name_is_ignored_with_a_warning(tmp_path, library):
    # LDView uses the first 0 FILE of a name and says so; the last one was used here, silently
    text = ("0 FILE main.ldr\n1 4 0 0 0 1 0 0 0 1 0 0 0 1 wall.ldr\n"
            "0 FILE wall.ldr\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n"
            "0 FILE Wall.LDR\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 brickstud.dat\n")
    m = model_of(tmp_path, text, library, name="dup.mpd")
    assert [i.name for i in m.instances] == ["box.dat"]
    assert [(d.line, d.severity) for d in m.diagnostics] == [(5, "warning")]
    assert "second 0 FILE Wall.LDR (the first is at line 3)" in m.diagnostics[0].message
    with pytest.raises(LDrawError, match="dup.mpd:5: a second 0 FILE"):
        model_of(tmp_path, text, library, name="dup.mpd", strict=True)


def test_mpd_main_model_before_first_file_and_data_block(tmp_path, library):
    text = ("1 4 0 0 0 1 0 0 0 1 0 0 0 1 sub.ldr\n0 FILE sub.ldr\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n"
            "0 !DATA tex.png\n0 !: iVBORw0KGgo=\n0 FILE other.ldr\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n")
    m = model_of(tmp_path, text, library, name="packed.ldr")
    assert len(m.instances) == 1 and m.instances[0].colour == 4
    assert not m.diagnostics  # an embedded image no texture uses is read, not reported
    assert parse_document(text, "packed.ldr").data["tex.png"].startswith(b"\x89PNG")


def test_packed_mpd_with_parts_inside(tmp_path, library):
    text = ("0 FILE model.ldr\n1 4 0 0 0 1 0 0 0 1 0 0 0 1 mypart.dat\n"
            "0 FILE mypart.dat\n0 My part\n0 !LDRAW_ORG Unofficial_Part\n0 BFC CERTIFY CCW\n"
            "1 16 0 0 0 1 0 0 0 1 0 0 0 1 s/mypartsub.dat\n"
            "0 FILE s/mypartsub.dat\n0 !LDRAW_ORG Unofficial_Subpart\n3 16 0 0 0 10 0 0 0 0 10\n")
    m = model_of(tmp_path, text, library, name="packed.mpd")
    assert [i.name for i in m.instances] == ["mypart.dat"] and m.triangle_count() == 1
    assert not m.diagnostics


def test_editor_quirks_bom_crlf_tabs_small_numbers(tmp_path, library):
    text = "\ufeff0 Quirks\r\n1\t4\t0.000080 0 0 1 0 0 0 1 0 0 0 1\tBOX.DAT\r\n"
    m = model_of(tmp_path, text.encode("utf-8"), library)
    assert not m.diagnostics and len(m.instances) == 1
    assert m.instances[0].transform[0, 3] == pytest.approx(0.00008)


def test_a_byte_order_mark_inside_an_mpd_is_read_past(tmp_path, library):
    # .ldr files joined into an MPD each bring their BOM: '\ufeff0 FILE sub.ldr' was an unknown line type,
    # so the sub-model was lost and reported missing
    text = ("0 FILE main.ldr\n1 4 0 0 0 1 0 0 0 1 0 0 0 1 sub.ldr\n\ufeff0 FILE sub.ldr\n"
            "\ufeff1 16 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n")
    m = model_of(tmp_path, ("\ufeff" + text).encode("utf-8"), library, name="joined.mpd")
    assert not m.diagnostics and [(i.name, i.colour) for i in m.instances] == [("box.dat", 4)]


def test_colours_direct_local_and_unknown(tmp_path, library):
    text = ("0 !COLOUR My_Green CODE 500 VALUE #00FF00 EDGE #000000\n"
            "1 0x2FF8000 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n"
            "1 500 40 0 0 1 0 0 0 1 0 0 0 1 box.dat\n"
            "1 9999 80 0 0 1 0 0 0 1 0 0 0 1 box.dat\n")
    m = model_of(tmp_path, text, library)
    rgba = {int(i): tuple(m.mesh.tri_rgba[m.mesh.tri_instance == i][0]) for i in range(3)}
    assert rgba[0] == (255, 128, 0, 255)
    assert rgba[1] == (0, 255, 0, 255)
    assert rgba[2] == (255, 0, 255, 255)  # unknown code: magenta, and said so
    assert any("9999" in d.message and d.line == 4 for d in m.diagnostics)


def test_a_part_placed_in_24_takes_the_edge_colour_of_the_sub_model_colour(tmp_path, library):
    # LDraw spec: 24 is the edge colour of the current colour; a part placed in 24 inside a sub-model placed
    # in red was drawn in LDConfig's generic Edge_Colour instead of red's edge (as its own 24 lines already were)
    text = ("0 !COLOUR Red CODE 4 VALUE #C91A09 EDGE #111111\n"
            "1 4 0 0 0 1 0 0 0 1 0 0 0 1 sub.ldr\n1 9999 100 0 0 1 0 0 0 1 0 0 0 1 sub.ldr\n"
            "1 24 200 0 0 1 0 0 0 1 0 0 0 1 sub.ldr\n"
            "0 FILE sub.ldr\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 inner.ldr\n"
            "0 FILE inner.ldr\n1 24 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n")
    m = model_of(tmp_path, text, library, name="edge.mpd")
    red, unknown, edge = (tuple(m.mesh.tri_rgba[m.mesh.tri_instance == i][0]) for i in range(3))
    assert red == (0x11, 0x11, 0x11, 255) and m.instances[0].colour_name == "Edge_of_Red"
    assert unknown == (255, 0, 255, 255) and edge == m.colours.get(24).rgba
    assert [d.line for d in m.diagnostics if "unknown colour 9999:" in d.message] == [8]  # said as 9999


def test_transparent_colour_alpha(tmp_path, library):
    m = model_of(tmp_path, "1 47 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n", library)
    assert (m.mesh.tri_rgba[:, 3] == 128).all()


def test_library_resolution_subparts_primitives_and_hires(tmp_path, library):
    m = model_of(tmp_path, "1 4 0 0 0 1 0 0 0 1 0 0 0 1 Wrapper.DAT\n", library)
    assert m.triangle_count() == 1 and not m.diagnostics
    hires = Library(library.roots, resolution="high")
    assert load_model(tmp_path / "m.ldr", hires, cache=False).triangle_count() == 2


def test_referencing_file_folder_is_searched(tmp_path, library):
    write(tmp_path / "models" / "wall.ldr", "1 16 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n")
    m = model_of(tmp_path / "models", "1 4 0 0 0 1 0 0 0 1 0 0 0 1 wall.ldr\n", library)
    assert len(m.instances) == 1 and m.instances[0].file == "wall.ldr"


def test_stud_primitives_are_marked_detail(tmp_path, library):
    m = model_of(tmp_path, "1 4 0 0 0 1 0 0 0 1 0 0 0 1 brickstud.dat\n", library)
    assert m.mesh.tri_detail.sum() == 1 and m.mesh.triangle_count == 13


def test_missing_part_is_a_magenta_box_with_a_diagnostic(tmp_path, library):
    m = model_of(tmp_path, "0 x\n1 4 0 0 0 1 0 0 0 1 0 0 0 1 nosuch.dat\n", library)
    assert m.instances[0].missing and m.mesh.triangle_count == 12
    assert (m.mesh.tri_rgba[:, :3] == (255, 0, 255)).all()
    assert [(d.file.endswith("m.ldr"), d.line, "nosuch.dat" in d.message) for d in m.diagnostics] == [(True, 2, True)]


def test_a_missing_reference_says_what_it_is_and_what_to_do(tmp_path, library):
    # both were "missing part": a sub-model is looked for in the MPD's 0 FILE blocks, a part needs a library
    m = model_of(tmp_path, "0 x\n1 4 0 0 0 1 0 0 0 1 0 0 0 1 nosuch.dat\n1 4 0 0 0 1 0 0 0 1 0 0 0 1 Wing.ldr\n",
                 library)
    part, sub = (d.message for d in m.diagnostics)
    assert part.startswith("missing part 'nosuch.dat'") and "bow3d library install" in part
    assert sub.startswith("missing sub-model 'Wing.ldr': no 0 FILE of that name") and "magenta box" in sub


@pytest.mark.parametrize("line", ["1 4 0 0 0 1 0 0", "3 4 0 0 x 1 1 1 2 2 2", "7 garbage", "4 4 1 2 3"])
def test_malformed_line_is_skipped_with_file_and_line(tmp_path, library, line):
    m = model_of(tmp_path, f"1 4 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n{line}\n", library)
    assert len(m.instances) == 1
    assert [d.line for d in m.diagnostics] == [2]
    with pytest.raises(LDrawError, match=r"m\.ldr:2"):
        model_of(tmp_path, f"1 4 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n{line}\n", library, strict=True)


def test_reference_cycles_are_reported_with_the_cycle(tmp_path, library):
    text = "0 FILE a.ldr\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 b.ldr\n0 FILE b.ldr\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 a.ldr\n"
    m = model_of(tmp_path, text, library, name="cycle.mpd")
    assert any("cycle" in d.message and "a.ldr -> b.ldr -> a.ldr" in d.message.lower() for d in m.diagnostics)
    part_cycle = "0 P\n0 !LDRAW_ORG Part\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 loop.dat\n"
    write(tmp_path / "loop.dat", part_cycle)
    m = model_of(tmp_path, "1 4 0 0 0 1 0 0 0 1 0 0 0 1 loop.dat\n", library)
    assert any("cycle" in d.message for d in m.diagnostics)


@pytest.mark.parametrize("name", ["..\\..\\..\\etc\\passwd", "/etc/passwd", "C:\\Windows\\win.ini", "s\\..\\..\\x.dat"])
def test_references_cannot_escape_the_library(tmp_path, library, name):
    m = model_of(tmp_path, f"1 4 0 0 0 1 0 0 0 1 0 0 0 1 {name}\n", library)
    assert m.mesh.triangle_count == 0 and len(m.diagnostics) == 1
    assert m.diagnostics[0].line == 1


def test_binary_garbage_is_a_clear_error(tmp_path, library):
    with pytest.raises(LDrawError, match="binary"):
        model_of(tmp_path, b"\x89PNG\r\n\x1a\n\x00\x00\x00", library)


def test_garbage_text_gives_bounded_diagnostics(tmp_path, library):
    m = model_of(tmp_path, "0 Mostly junk\n" + "".join(f"9 junk {i}\n" for i in range(5000)), library)
    assert len(m.diagnostics) <= 60


@pytest.mark.parametrize("text, error", [
    (b"This is a README\nnot a model\n", "m.ldr:1: this is not an LDraw file: .* starts with 'This is a README'"),
    (b"\n<?xml version='1.0'?>\n<LXFML>\n", "m.ldr:2: this is not an LDraw file: .* starts with \"<\\?xml"),
    (b"PK\x03\x04\x14\x00\x00\x00\x08\x00", "m.ldr: this is a zip archive.*Studio .io"),
])
def test_a_main_file_with_no_ldraw_in_it_is_a_clear_error(tmp_path, library, text, error):
    # was read as a model of no parts, "complete", and drawn as an empty picture
    with pytest.raises(LDrawError, match=error):
        model_of(tmp_path, text, library)


@pytest.mark.parametrize("text", ["", "\r\n  \n", "0 New model\n0 Name: m.ldr\n0 Author: someone\n"])
def test_an_empty_file_or_comments_alone_is_an_empty_model(tmp_path, library, text):
    m = model_of(tmp_path, text, library)   # a flat battlefield is an empty file
    assert len(m.instances) == 0 and not m.diagnostics


def test_depth_limit(tmp_path, library):
    blocks = "".join(f"0 FILE m{i}.ldr\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 m{i + 1}.ldr\n" for i in range(80))
    m = model_of(tmp_path, blocks + "0 FILE m80.ldr\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n", library, name="deep.mpd")
    assert any("deeper" in d.message for d in m.diagnostics)


def test_missing_main_file_is_an_error(tmp_path, library):
    with pytest.raises(LDrawError, match="no such LDraw file"):
        load_model(tmp_path / "nope.ldr", library)


def test_oversized_file_is_refused_before_reading(tmp_path, library):
    path = tmp_path / "huge.ldr"
    with open(path, "wb") as handle:  # sparse: takes no disk space
        handle.truncate(65 * 1024 * 1024)
    with pytest.raises(LDrawError, match="MiB"):
        load_model(path, library, cache=False)


def test_big_files_are_streamed_with_the_same_result(tmp_path, library, monkeypatch):
    import bow3d.ldraw.loader as loader_module
    import bow3d.ldraw.parse as parse_module

    lines = "".join(f"3 4 {i} 0 0 {i + 1} 0 0 {i} 1 0\n" for i in range(3000)) + "1 4 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n"
    path = write(tmp_path / "big.ldr", lines + "junk\n")
    whole = load_model(path, library, cache=False)
    monkeypatch.setattr(loader_module, "STREAM_ABOVE_BYTES", 10)
    monkeypatch.setattr(parse_module, "FLUSH_ROWS", 256)  # many batches
    streamed = load_model(path, library, cache=False)
    assert streamed.triangle_count() == whole.triangle_count() == 3012
    assert [str(d) for d in streamed.diagnostics] == [str(d) for d in whole.diagnostics]
    assert np.array_equal(streamed.mesh.positions, whole.mesh.positions)
