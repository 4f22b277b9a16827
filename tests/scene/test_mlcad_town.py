"""Issue 13: a town saved the MLCad way (sub-models named `*.dat`, no `!LDRAW_ORG` headers) loads as a model of
its parts, in its colours, and `scene from-ldraw` finds exactly its minifigs and its car (tests/scene/mlcad_town.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bow3d.cli import main
from bow3d.ldraw import Library, load_model
from bow3d.rulesets.bow.equipment import BOW_SHEETS
from bow3d.scene.from_ldraw import scene_from_ldraw
from tests.scene.mlcad_town import BROWN, DITHER, GLASS, OUTPUT as TOWN, TRUTH, build

BUNDLED = Library.from_env(str(Path(__file__).resolve().parents[2] / "ldraw_library"))


@pytest.fixture(params=["bundled", "official"])
def lib(request) -> Library:
    return BUNDLED if request.param == "bundled" else request.getfixturevalue("official")


def test_town_file_is_what_the_generator_writes():
    assert TOWN.read_text() == build()


def test_sub_models_named_dat_are_expanded_into_their_parts(lib):
    """Each `*.dat` block without a header is a sub-model (the main model `town.dat` too); the packed part with an
    old `0 LDRAW_ORG Unofficial_Part` header is one part; nothing is missing, nothing magenta."""
    model = load_model(TOWN, lib, cache=False)
    names = [i.name for i in model.instances]
    assert len(model.instances) == TRUTH["parts"] and not model.diagnostics and model.is_complete
    assert names.count("sign.dat") == 1 and names.count("973.dat") == 3 and names.count("3641.dat") == 8
    assert not any(n.endswith(("house_1.dat", "fig_medic_1.dat", "town.dat")) for n in names)
    assert model.instances[names.index("3626bp01.dat")].submodel_path == ("town.dat", "house_1.dat", "wing_b.dat")
    assert not (model.mesh.tri_rgba == (255, 0, 255, 255)).all(axis=1).any()


def test_town_colours_direct_transparent_and_dithered(lib):
    model = load_model(TOWN, lib, cache=False)
    mesh = model.mesh

    def rgba_of(colour: int) -> set[tuple[int, ...]]:
        placed = np.flatnonzero(model.table.colour == colour)
        assert placed.size, colour
        return {tuple(c) for c in mesh.tri_rgba[np.isin(mesh.tri_instance, placed) & (mesh.tri_colour == colour)]}

    assert rgba_of(BROWN) == {(0xB5, 0x65, 0x1D, 255)}
    assert rgba_of(GLASS) == {(0xA0, 0xC8, 0xF0, 128)} and model.colours.get(GLASS).is_transparent
    assert rgba_of(DITHER) == {(127, 127, 0, 255)}  # 0xF00 and 0x0F0 (x17 each), averaged
    assert model.colours.name(GLASS) == "Trans_#A0C8F0" and model.colours.name(DITHER) == "Dither_#7F7F00"


def test_inspect_counts_the_town_as_a_parts_list(tmp_path, capsys):
    assert main(["inspect", str(TOWN), "--json", "--no-cache", "--library", str(BUNDLED.roots[0])]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["parts"] == TRUTH["parts"] and stats["missing_parts"] == [] and stats["complete"]
    assert stats["part_counts"]["3010.dat"] == 42 and "fig_guard.dat" not in stats["part_counts"]
    assert {"#B5651D", "Trans_#A0C8F0", "Dither_#7F7F00"} <= set(stats["colours"])


def test_scene_from_ldraw_finds_exactly_the_minifigs_and_the_car(lib, tmp_path):
    result = scene_from_ldraw(TOWN, tmp_path / "town.yaml", sheets=BOW_SHEETS, library=lib, side_default="blue")
    scene = result.scene
    found = sorted(result.origins[u.id].split(" placed")[0].split(" at ")[0] for u in scene.units
                   if u.position is not None)
    assert found == TRUTH["units"]
    assert {result.origins[v.id].split(" placed")[0]: [result.origins[o].split(" placed")[0] for o in v.occupants]
            for v in scene.vehicles} == TRUTH["vehicles"]
    assert "4 wheels at its bottom" in result.figures[scene.vehicles[0].id].why
    decor = {line.split(" placed")[0]: line for line in result.decor}
    assert sorted(decor) == TRUTH["decor"]
    assert "none at its bottom" in decor["wing_shed.dat"]  # tyres hung on a wall
    assert "1 other part stands on the ground" in decor["wing_garage.dat"]  # tyres leaning on a wall
    assert "only 11 of its 32 parts are minifig parts" in decor["wing_a.dat"]
    assert [n.split(":")[0] for n in result.notes] == [f"{TRUTH['roofed']} placed at mlcad-town.mpd line 47"]
    assert "stands under Plate  6 x  8" in result.notes[0] and "in the scene it will stand on it" in result.notes[0]
    decor_model = load_model(result.decor_path, lib)
    assert not [i for i in decor_model.instances if i.name.startswith(("973", "3626"))]
    assert sum(i.name in ("3844.dat", "3847.dat", "3846.dat") for i in decor_model.instances) == 3  # the armoury wall


def test_scene_from_ldraw_says_why(tmp_path, capsys):
    args = ["scene", "from-ldraw", str(TOWN), "-o", str(tmp_path / "t.yaml"), "--library", str(BUNDLED.roots[0]),
            "--side-default", "red"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "found 6 units and 1 vehicles" in out and "(car.dat placed at mlcad-town.mpd line 11: 4 wheels" in out
    assert "kept as decor: wing_shed.dat placed at mlcad-town.mpd line 92: 2 wheel or tyre parts" in out
    assert "note: fig_guard.dat placed at mlcad-town.mpd line 47: stands under" in out


def test_a_seated_minifig_on_the_ground_is_said_to_be_seated(tmp_path):
    """A minifig sitting on a bench (not in a vehicle) becomes a standing unit: the builder says so."""
    text = TOWN.read_text()
    main_end = text.index("\n0 FILE house_1.dat")
    text = text[:main_end] + "\n1 16 -200 -72 200 1 0 0 0 1 0 0 0 1 fig_driver.dat" + text[main_end:]
    model = tmp_path / "bench.mpd"
    model.write_text(text)
    result = scene_from_ldraw(model, tmp_path / "b.yaml", sheets=BOW_SHEETS, library=BUNDLED, side_default="red")
    seated = [n for n in result.notes if "is seated" in n]
    assert len(seated) == 1 and seated[0].startswith("fig_driver.dat placed at bench.mpd line 14")
