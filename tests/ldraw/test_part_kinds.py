"""Issue 13: a file is a part only when its header says so or the library has it; anything else is a sub-model,
whatever its suffix (MLCad's `fig_medic_1.dat`), and inspect counts parts as an LDraw parts list does."""

from __future__ import annotations

import json

import pytest

from bow3d.cli import main
from bow3d.ldraw import load_model
from bow3d.ldraw.parse import parse_document
from tests.conftest import write

BODY = "1 16 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n1 4 0 -24 0 1 0 0 0 1 0 0 0 1 box.dat\n"


@pytest.mark.parametrize("header, kind", [
    ("0 !LDRAW_ORG Part UPDATE 2004-01", "part"), ("0 !LDRAW_ORG Unofficial_Part", "part"),
    ("0 !LDRAW_ORG Subpart", "part"), ("0 !LDRAW_ORG Primitive", "part"), ("0 !LDRAW_ORG 48_Primitive", "part"),
    ("0 !LDRAW_ORG Unofficial_8_Primitive", "part"), ("0 !LDRAW_ORG Shortcut", "part"),
    ("0 !LDRAW_ORG Part Alias", "part"), ("0 LDRAW_ORG Part UPDATE 2002-02", "part"),
    ("0 Unofficial_Part", "part"), ("0 Unofficial Part", "part"), ("0 !LDRAW_ORG Model", "model"),
    ("0 !LDRAW_ORG Unofficial_Model", "model"), ("0 !LDRAW_ORG Configuration", "model"), ("", ""),
    ("0 // LDRAW_ORG Part (a comment)", ""),
])
def test_header_kinds(header, kind):
    text = f"0 Title\n0 Name: x.dat\n{header}\n3 16 0 0 0 1 0 0 0 0 1\n"
    assert parse_document(text, "x.dat").main.header_kind == kind


def test_old_headers_count_only_in_the_header():
    """`0 Unofficial_Part` as the title, or after geometry, is no header."""
    assert parse_document("0 Unofficial part of my wall\n3 16 0 0 0 1 0 0 0 0 1\n", "a.dat").main.header_kind == ""
    late = "0 Wall\n3 16 0 0 0 1 0 0 0 0 1\n0 LDRAW_ORG Part\n"
    assert parse_document(late, "a.dat").main.header_kind == ""


def test_mpd_blocks_named_dat_without_header_are_sub_models(tmp_path, library):
    """MLCad's habit: `fig_medic_1.dat` and `house.dat` blocks with no header; the main block named .dat too."""
    mpd = ("0 FILE town.dat\n0 Town\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 fig_medic_1.dat\n"
           "1 14 100 0 0 1 0 0 0 1 0 0 0 1 house.dat\n"
           "0 FILE fig_medic_1.dat\n0 Medic\n" + BODY + "0 FILE house.dat\n0 House\n" + BODY + BODY)
    model = load_model(write(tmp_path / "town.mpd", mpd), library, cache=False)
    assert [i.name for i in model.instances] == ["box.dat"] * 6 and not model.diagnostics
    assert [i.colour for i in model.instances] == [16, 4, 14, 4, 14, 4]
    assert model.instances[2].submodel_path == ("town.dat", "house.dat")


def test_packed_parts_and_library_names_stay_parts(tmp_path, library):
    """A block whose header says Part (any form) is one part; one without a header named like a library part is
    that part (packed in by an editor); a shortcut is one part, not expanded."""
    mpd = ("0 FILE main.ldr\n1 1 0 0 0 1 0 0 0 1 0 0 0 1 old.dat\n1 4 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n"
           "1 14 0 0 0 1 0 0 0 1 0 0 0 1 short.dat\n"
           "0 FILE old.dat\n0 Old part\n0 LDRAW_ORG Part UPDATE 2001-01\n" + BODY +
           "0 FILE box.dat\n0 A packed box.dat with no header\n3 16 0 0 0 10 0 0 0 0 10\n"
           "0 FILE short.dat\n0 Shortcut\n0 !LDRAW_ORG Unofficial_Shortcut\n" + BODY)
    model = load_model(write(tmp_path / "packed.mpd", mpd), library, cache=False)
    assert [i.name for i in model.instances] == ["old.dat", "box.dat", "short.dat"] and not model.diagnostics
    assert model.triangle_count() == 2 + 1 + 2


def test_local_dat_without_header_is_a_sub_model_and_a_library_part_a_part(tmp_path, library):
    write(tmp_path / "wall.dat", "0 Wall (a model file)\n" + BODY)
    model = load_model(write(tmp_path / "m.ldr", "1 4 0 0 0 1 0 0 0 1 0 0 0 1 wall.dat\n"), library, cache=False)
    assert [i.name for i in model.instances] == ["box.dat", "box.dat"]
    single = load_model(library.roots[0] / "parts" / "brickstud.dat", library, cache=False)
    assert [i.name for i in single.instances] == ["brickstud.dat"]


def test_a_main_model_named_dat_is_a_model(tmp_path, library):
    model = load_model(write(tmp_path / "house.dat", "0 My house\n" + BODY), library, cache=False)
    assert len(model.instances) == 2


def test_inspect_counts_parts_not_loose_geometry(tmp_path, library, capsys):
    """A parts list counts placed parts; lines drawn straight into a model are no part."""
    text = "0 Model\n" + BODY + "3 16 0 0 0 10 0 0 0 0 10\n"
    path = write(tmp_path / "m.ldr", text)
    assert main(["inspect", str(path), "--json", "--no-cache", "--library", str(library.roots[0])]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["parts"] == 2 and stats["loose_geometry"] == 1 and "m.ldr (loose geometry)" not in stats["part_counts"]
