"""`bow3d scene from-ldraw`: minifigs and vehicles placed in an editor become a scene (editor-12.mpd and more)."""

from __future__ import annotations

import hashlib
import math
from pathlib import Path

import numpy as np
import pytest

from bow3d.cli import main
from bow3d.errors import SceneError
from bow3d.ldraw import Library, load_model
from bow3d.rulesets import load_scene
from bow3d.rulesets.bow.equipment import BOW_SHEETS
from bow3d.scene.from_ldraw import placement_matrix, scene_from_ldraw
from tests.scene.editor12 import OUTPUT as EDITOR_12, build

BUNDLED = Library.from_env(str(Path(__file__).resolve().parents[2] / "ldraw_library"))


@pytest.fixture(params=["bundled", "official"])
def lib(request) -> Library:
    """The bundled starter library (minifig parts included) everywhere, and the official one when LDRAWDIR is set."""
    return BUNDLED if request.param == "bundled" else request.getfixturevalue("official")


def angle_gap(a: float, b: float) -> float:
    return abs((a - b + 180.0) % 360.0 - 180.0)


def world_box(model, indices) -> np.ndarray:
    """(2, 3) world box of the given instances' vertices."""
    pts = []
    for i in indices:
        inst = model.instances[i]
        pos = model.parts[model.instance_part[i]].positions.astype(float)
        pts.append(pos @ inst.transform[:3, :3].T + inst.transform[:3, 3])
    pts = np.concatenate(pts)
    return np.stack([pts.min(axis=0), pts.max(axis=0)])


def test_editor_12_file_is_what_the_generator_writes():
    assert EDITOR_12.read_text() == build()[0]


@pytest.fixture
def built(lib, tmp_path):
    return scene_from_ldraw(EDITOR_12, tmp_path / "battle.yaml", sheets=BOW_SHEETS, library=lib), lib


def test_finds_all_12_minifigs_at_their_studs_and_facings(built):
    """12 minifigs placed in an editor (sub-models turned by 37, 123, 301.5 degrees..., a squad sub-model,
    loose parts, some on plates and bricks): each found within half a stud and 5 degrees."""
    result, _ = built
    _, truth = build()
    units = result.scene.units
    assert len(units) == 12 and not result.scene.vehicles
    unmatched = list(units)
    for expected in truth:
        unit = min(unmatched, key=lambda u: math.dist(u.position, expected["position"]))
        unmatched.remove(unit)
        assert math.dist(unit.position, expected["position"]) <= 0.5, (unit.id, expected)
        assert angle_gap(unit.facing, expected["facing"]) <= 5.0, (unit.id, expected)
        assert unit.side == expected["side"], (unit.id, expected)
        sheet = result.scene.sheet(unit.sheet)
        assert (sheet.weapon().name if sheet.weapons else None) == expected["weapon"], (unit.id, sheet)
        assert len(result.figures[unit.id].instances) == expected["parts"], (unit.id, expected)
    assert result.unassigned == [] and result.decor == []
    # The musketeer stands against the brick wall, its feet inside the bricks' footprint: in the scene it would
    # stand on them (C1: a unit rests on the decor under it), and the builder says so.
    assert [n.split(", whose")[0] for n in result.notes] == [
        "musketeer.ldr placed at editor-12.mpd line 18: stands under Brick  2 x  4 (editor-12.mpd line 9)"]


def test_meta_lines_give_sides_sheets_and_ids(built):
    scene = built[0].scene
    musketeer = scene.unit("blue-musketeer")  # `0 !BOW UNIT side=blue sheet=musketeer id=blue-musketeer` before the line
    assert musketeer.side == "blue" and musketeer.sheet == "musketeer"
    archers = [u for u in scene.units if u.sheet == "archer"]  # `0 !BOW UNIT side=red sheet=archer` inside archer.ldr
    assert archers and all(u.side == "red" for u in archers)


def test_default_sheets_follow_the_weapons_held(built):
    """BOW 1.3 A.2: sword 2 (melee, reach 2), gun/bow 2 (ranged), lance (spear class) 1; helmet and shield +1 armor."""
    scene = built[0].scene
    by_weapon = {s.weapons[0].name: s for s in scene.sheets.values() if s.weapons}
    assert by_weapon["sword"].weapons[0].damage == 2 and by_weapon["sword"].weapons[0].reach == 2
    assert by_weapon["sword"].armor == 2  # helmet + shield
    assert by_weapon["rifle"].weapons[0].kind == "ranged" and by_weapon["bow"].weapons[0].damage == 2
    assert by_weapon["lance"].weapons[0].reach == 4 and by_weapon["lance"].weapons[0].damage == 1
    unarmed = [s for s in scene.sheets.values() if not s.weapons]
    assert unarmed and unarmed[0].armor == 0  # a police hat is no armor


def test_written_scene_loads_and_unit_models_reproduce_the_original(built, tmp_path):
    """Each unit model placed per C1 (turned by facing - 270 about the vertical, origin at the position, lowest
    point on the stand below it) covers the original parts' world box within 1 LDU."""
    result, lib = built
    scene = load_scene(tmp_path / "battle.yaml", battlefield=True, library=lib)
    original = result.model
    _, truth = build()
    for unit in scene.units:
        expected = min(truth, key=lambda t: math.dist(t["position"], unit.position))
        before = world_box(original, result.figures[unit.id].instances)
        assert before[0, 2] == pytest.approx(expected["ground"], abs=1.0)  # soles on the ground, plate or brick
        own = load_model(scene.resolve(unit.model), lib)
        place = placement_matrix(unit.position, unit.facing, expected["ground"])
        own_box = world_box(own, range(len(own.instances)))
        assert own_box[0, 2] == pytest.approx(0.0, abs=1e-6)  # lowest point at the model's origin height
        corners = np.array([[x, y, z] for x in own_box[:, 0] for y in own_box[:, 1] for z in own_box[:, 2]])
        placed = []
        for i, inst in enumerate(own.instances):
            pos = own.parts[own.instance_part[i]].positions.astype(float)
            m = place @ inst.transform
            placed.append(pos @ m[:3, :3].T + m[:3, 3])
        placed = np.concatenate(placed)
        after = np.stack([placed.min(axis=0), placed.max(axis=0)])
        assert np.abs(after - before).max() <= 1.0, (unit.id, before, after)
        assert corners.shape == (8, 3)


def test_decor_keeps_everything_but_the_units_and_the_model_is_untouched(lib, tmp_path):
    digest = hashlib.sha256(EDITOR_12.read_bytes()).hexdigest()
    result = scene_from_ldraw(EDITOR_12, tmp_path / "battle.yaml", sheets=BOW_SHEETS, library=lib)
    assert hashlib.sha256(EDITOR_12.read_bytes()).hexdigest() == digest
    decor = load_model(result.decor_path, lib)
    names = [i.name for i in decor.instances]
    assert not [n for n in names if n.startswith(("973", "3626", "3815", "3820", "3847", "30141"))]
    original = load_model(EDITOR_12, lib)
    minifig_parts = sum(len(f.instances) for f in result.figures.values())
    assert len(decor.instances) == len(original.instances) - minifig_parts
    assert "3811.dat" in names and names.count("3001.dat") == 3 and not decor.diagnostics


def test_never_overwrites_without_force(tmp_path, capsys):
    out = tmp_path / "battle.yaml"
    args = ["scene", "from-ldraw", str(EDITOR_12), "-o", str(out), "--library", str(BUNDLED.roots[0])]
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "found 12 units and 0 vehicles" in printed and "wrote" in printed
    before = out.read_text()
    assert main(args) == 2
    assert "already exists" in capsys.readouterr().err and out.read_text() == before
    assert main(args + ["--force"]) == 0
    assert main(["scene", "check", str(out), "--library", str(BUNDLED.roots[0])]) == 0
    assert "OK" in capsys.readouterr().out
    with pytest.raises(SceneError, match="is the model being read"):
        _clash(tmp_path)


def _clash(tmp_path: Path):
    """A scene named so that its decor would be the model itself."""
    model = tmp_path / "field-decor.ldr"
    model.write_text(EDITOR_12.read_text())
    return scene_from_ldraw(model, tmp_path / "field.yaml", sheets=BOW_SHEETS, library=BUNDLED, force=True)


LONE = """0 FILE lone.ldr
0 Lone minifig
1 2 0 0 0 1 0 0 0 1 0 0 0 1 3811.dat
{parts}
"""


def lone_minifig(meta: str = "") -> str:
    parts = ["1 4 50 -72 30 1 0 0 0 1 0 0 0 1 973.dat", "1 0 50 -40 30 1 0 0 0 1 0 0 0 1 3815.dat",
             "1 0 50 -28 30 1 0 0 0 1 0 0 0 1 3816.dat", "1 0 50 -28 30 1 0 0 0 1 0 0 0 1 3817.dat",
             "1 14 50 -96 30 1 0 0 0 1 0 0 0 1 3626b.dat"]
    return LONE.format(parts="\n".join(([meta] if meta else []) + parts))


def test_unassigned_sides_are_listed_and_refused_until_set(tmp_path, capsys):
    model = tmp_path / "lone.mpd"
    model.write_text(lone_minifig())
    out = tmp_path / "lone.yaml"
    assert main(["scene", "from-ldraw", str(model), "-o", str(out), "--library", str(BUNDLED.roots[0])]) == 0
    printed = capsys.readouterr().out
    assert "1 units have no side: unassigned-1" in printed and "--side-default" in printed
    with pytest.raises(SceneError, match=r"units\[0\].side: unknown side 'unassigned'"):
        load_scene(out, library=BUNDLED)
    assert main(["scene", "from-ldraw", str(model), "-o", str(out), "--side-default", "red", "--force",
                 "--library", str(BUNDLED.roots[0])]) == 0
    scene = load_scene(out, library=BUNDLED)
    assert scene.units[0].side == "red" and scene.units[0].position == (2.5, 1.5)
    assert scene.units[0].facing == 270  # identity: facing LDraw -Z = world -Y


def test_horse_and_rider_become_a_vehicle_with_its_occupant(lib, tmp_path):
    """A horse (4493c01) is a vehicle in BOW terms (§3); a minifig sitting on it is its occupant (the pilot)."""
    rider = ["1 4 0 -110 0 1 0 0 0 1 0 0 0 1 973.dat", "1 0 0 -78 0 1 0 0 0 1 0 0 0 1 3815.dat",
             "1 0 0 -66 0 1 0 0 0 1 0 0 0 1 3816.dat", "1 0 0 -66 0 1 0 0 0 1 0 0 0 1 3817.dat",
             "1 14 0 -134 0 1 0 0 0 1 0 0 0 1 3626b.dat"]
    text = LONE.format(parts="\n".join(["0 !BOW VEHICLE side=red sheet=warhorse",
                                         "1 70 100 0 100 0 0 -1 0 1 0 1 0 0 4493c01.dat",
                                         "0 !BOW UNIT side=red id=knight"]
                                        + [_moved(line, 100, 100) for line in rider]))
    model = tmp_path / "horse.mpd"
    model.write_text(text)
    result = scene_from_ldraw(model, tmp_path / "horse.yaml", sheets=BOW_SHEETS, library=lib)
    scene = result.scene
    assert [v.occupants for v in scene.vehicles] == [["knight"]]
    horse = scene.vehicles[0]
    assert horse.sheet == "warhorse" and horse.side == "red" and scene.sheet("warhorse").kind == "vehicle"
    assert angle_gap(horse.facing, 0.0) <= 5 and math.dist(horse.position, (5, 5)) <= 2.5
    assert scene.unit("knight").position is None
    load_scene(tmp_path / "horse.yaml", library=lib)


def _moved(line: str, dx: float, dz: float) -> str:
    t = line.split()
    t[2], t[4] = str(float(t[2]) + dx), str(float(t[4]) + dz)
    return " ".join(t)


def test_nothing_found_is_a_clear_error(tmp_path, capsys):
    model = tmp_path / "empty.ldr"
    model.write_text("0 Empty\n1 2 0 0 0 1 0 0 0 1 0 0 0 1 3811.dat\n")
    assert main(["scene", "from-ldraw", str(model), "-o", str(tmp_path / "e.yaml"),
                 "--library", str(BUNDLED.roots[0])]) == 2
    assert "no minifig found" in capsys.readouterr().err


def _figure_at(x: float, y: float, z: float) -> list[str]:
    """A standing minifig (torso, hips, legs, head) with its soles at LDraw (x, y, z), facing -Z."""
    parts = [(0, "973.dat"), (32, "3815.dat"), (44, "3816.dat"), (44, "3817.dat"), (-24, "3626b.dat")]
    return [f"1 1 {x} {y - 72 + dy} {z} 1 0 0 0 1 0 0 0 1 {name}" for dy, name in parts]


def test_car_sub_model_with_its_crew_pilot_first(lib, tmp_path):
    """A sub-model with `0 !BOW VEHICLE` and a steering wheel is a vehicle; the minifigs in it are its occupants,
    the one nearest the steering wheel first (BOW §3.1: the first seat is the pilot's)."""
    jeep = ["0 FILE jeep.ldr", "0 Jeep", "0 !BOW VEHICLE side=blue sheet=jeep",
            "1 15 0 0 0 0 0 1 0 1 0 -1 0 0 3034.dat", "1 0 0 -8 -50 1 0 0 0 1 0 0 0 1 3829c01.dat",
            "1 0 0 -40 -90 1 0 0 0 1 0 0 0 1 30141.dat",  # a rifle built on the bonnet, held by nobody: the jeep's gun
            "0 !BOW UNIT id=gunner", *_figure_at(0, -8, 50), "0 !BOW UNIT id=driver", *_figure_at(0, -8, -20),
            "0 NOFILE"]
    main_model = ["0 FILE field.ldr", "0 Field", "1 2 0 0 0 1 0 0 0 1 0 0 0 1 3811.dat",
                  "1 16 100 0 -60 0 0 -1 0 1 0 1 0 0 jeep.ldr", "0 NOFILE"]
    model = tmp_path / "field.mpd"
    model.write_text("\n".join(main_model + jeep) + "\n")
    result = scene_from_ldraw(model, tmp_path / "field.yaml", sheets=BOW_SHEETS, library=lib)
    scene = result.scene
    assert len(scene.vehicles) == 1 and sorted(u.id for u in scene.units) == ["driver", "gunner"]
    car = scene.vehicles[0]
    assert car.occupants == ["driver", "gunner"] and car.side == "blue" and car.sheet == "jeep"
    assert angle_gap(car.facing, 0.0) <= 5 and math.dist(car.position, (5, -3)) <= 2.5
    assert all(u.side == "blue" and u.position is None for u in scene.units)  # the crew takes the vehicle's side
    assert scene.sheet("jeep").kind == "vehicle" and scene.sheet("jeep").seats >= 2
    assert [(w.name, w.damage, w.arc) for w in scene.sheet("jeep").weapons] == [("rifle", 2, 180)]  # BOW A.2
    load_scene(tmp_path / "field.yaml", battlefield=True, library=lib)
    car_model = load_model(scene.resolve(car.model), lib)
    assert not [i for i in car_model.instances if i.name.startswith("973")]  # the crew has models of its own


def test_external_sub_model_files_next_to_the_model(lib, tmp_path):
    """Minifig sub-models kept as separate .ldr files beside the battlefield; the decor inlines the others."""
    (tmp_path / "red-guard.ldr").write_text("0 Red guard\n" + "\n".join(_figure_at(0, 0, 0)) + "\n")
    (tmp_path / "hut.ldr").write_text("0 Hut\n1 4 0 -24 0 1 0 0 0 1 0 0 0 1 3001.dat\n")
    (tmp_path / "field.ldr").write_text("0 Field\n1 2 0 0 0 1 0 0 0 1 0 0 0 1 3811.dat\n"
                                        "1 16 -90 0 50 1 0 0 0 1 0 0 0 1 red-guard.ldr\n"
                                        "1 16 100 0 100 1 0 0 0 1 0 0 0 1 hut.ldr\n")
    out = tmp_path / "out" / "battle.yaml"
    result = scene_from_ldraw(tmp_path / "field.ldr", out, sheets=BOW_SHEETS, library=lib)
    unit = result.scene.units[0]
    assert unit.side == "red" and unit.position == (-4.5, 2.5) and unit.facing == 270
    decor = load_model(result.decor_path, lib)
    assert sorted(i.name for i in decor.instances) == ["3001.dat", "3811.dat"] and not decor.diagnostics


def test_bad_meta_values_are_refused_with_the_line(tmp_path, capsys):
    model = tmp_path / "lone.mpd"
    model.write_text(lone_minifig("0 !BOW UNIT side=Blue#army colour=1 weapon=sword"))
    args = ["scene", "from-ldraw", str(model), "-o", str(tmp_path / "lone.yaml"), "--library", str(BUNDLED.roots[0])]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "lone.mpd:4: !BOW UNIT side=Blue#army: not a valid id" in err and "Traceback" not in err
    model.write_text(lone_minifig("0 !BOW UNIT side=blue colour=1 weapon=sword"))
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "colour=...: unknown key, ignored" in out and "weapon=sword is not among the weapons found" in out
    assert main(args[:-2] + ["--force", "--side-default", "no good"]) == 2


def test_a_unit_part_in_the_edge_colour_of_its_sub_model_is_written_as_that_colour():
    # a part placed in 24 inside a sub-model placed in red is red's edge colour, a code with no number:
    # the unit's model file gets its RGB as a direct colour (not 0x40000004, which no reader knows)
    from bow3d.ldraw.colour_defs import parse_colour_meta
    from bow3d.ldraw.colours import EDGE_OF, ColourTable
    from bow3d.scene.from_ldraw import _colour

    table = ColourTable([parse_colour_meta(["!COLOUR", "Red", "CODE", "4", "VALUE", "#C91A09", "EDGE", "#333334"], 1)])
    assert _colour(4 | EDGE_OF, table) == "0x2333334"
    assert _colour(4, table) == "4" and _colour(0x2FF8000, table) == "0x2FF8000"
