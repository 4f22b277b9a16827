"""The scene file (C1): strict reading with file:line, field path and fix; round trips; format versions."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from bow3d.cli import main
from bow3d.errors import SceneError
from bow3d.rulesets import load_scene, parse_scene
from bow3d.rulesets.bow.sheets import MinifigSheet, default_reach
from bow3d.scene import FORMAT, UPGRADES, Scene, Unit, format_scene, save_scene
from bow3d.textformats import format_path

DATA = Path(__file__).resolve().parent.parent / "data" / "scenes"
VILLAGE = (DATA / "village.yaml").read_text()


def line_of(text: str, fragment: str) -> int:
    """1-based line of the first line holding `fragment`."""
    return next(n for n, line in enumerate(text.splitlines(), start=1) if fragment in line)


def test_c1_example_loads_with_every_accessor(scene_dir):
    scene = load_scene(scene_dir / "village.yaml", battlefield=True)
    assert scene.format == FORMAT and scene.name == "Village"
    assert scene.path == scene_dir / "village.yaml"
    assert scene.battlefield_path == scene_dir / "village.ldr"
    assert scene.resolve("figure.ldr") == scene_dir / "figure.ldr"
    assert scene.unit("blue-1").position == (12.5, 8.5) and scene.unit("blue-1").facing == 90
    assert scene.unit("blue-1").cell == (12, 8)
    assert scene.vehicle("blue-jeep").occupants == ["blue-6"] and scene.aboard("blue-6").id == "blue-jeep"
    assert isinstance(scene.sheet("rifleman"), MinifigSheet)
    assert [u.id for u in scene.units_of("red")] == ["red-1", "red-2"]
    assert scene.ruleset.brick_edge_probability == 0.262 and scene.ruleset.range_band_studs == 15
    with pytest.raises(KeyError, match="no unit 'nobody'.*blue-1"):
        scene.unit("nobody")


def test_ruleset_and_defaults_may_be_omitted():
    """C1: scene files may omit the ruleset; sheets default to the basic trooper of BOW 1.3 Annex A.1."""
    text = """format: bow3d-scene/1
battlefield: field.ldr
sides: [{id: blue}]
sheets:
  trooper: {kind: minifig}
units:
  - {id: b1, side: blue, sheet: trooper, model: f.ldr, position: [1.5, 1.5]}
"""
    scene = parse_scene(text, "small.yaml")
    assert scene.ruleset.name == "bow-1.3" and scene.ruleset.cover_threshold == 0.25
    assert scene.ruleset.treat_removes_difference is False and scene.ruleset.visibility_dispute is False
    sheet = scene.sheet("trooper")
    assert (sheet.action_budget, sheet.move, sheet.attack, sheet.dodge, sheet.hp, sheet.treat) == (2, 5, 1, 1, 1, 0)
    assert scene.sides[0].name == "blue" and scene.unit("b1").facing == 270


@pytest.mark.parametrize("name, expected", [("knife", 1), ("fist", 1), ("sword", 2), ("long sword", 2), ("spear", 3),
                                            ("lance", 4), ("club", 1)])
def test_melee_reach_defaults_by_weapon_name(name, expected):
    """design.md melee reach: knife/fist 1, sword 2, spear 3, lance 4 studs, else 1."""
    assert default_reach(name) == expected
    text = VILLAGE.replace("{name: sword, kind: melee, damage: 2}", f"{{name: {name}, kind: melee, damage: 2}}")
    assert parse_scene(text, "v.yaml").sheet("swordsman").weapons[0].reach == expected


def test_arc_defaults_to_the_front_half():
    scene = parse_scene(VILLAGE.replace(", arc: 180}", "}"), "v.yaml")
    assert scene.sheet("jeep").weapons[0].arc == 180


# (case, old text, new text, field path, fragment of the problem, fragment of the fix, fragment on the line)
MISTAKES = [
    ("unknown sheet", "sheet: swordsman\n    model: figure.ldr\n    position: [30.5",
     "sheet: archr\n    model: figure.ldr\n    position: [30.5", "units[3].sheet", "unknown sheet 'archr'",
     "add the sheet under sheets:", "sheet: archr"),
    ("unknown side", "side: red\n    sheet: rifleman", "side: green\n    sheet: rifleman", "units[4].side",
     "unknown side 'green' (known: blue, red)", "add the side under sides:", "side: green"),
    ("wrong type", "move: 5", "move: five", "sheets.rifleman.move", "valid integer", "write a whole number",
     "move: five"),
    ("wrong type in a list", "damage: 2}\n      - {name: knife", "damage: two}\n      - {name: knife",
     "sheets.rifleman.weapons[0].damage", "valid integer", "whole number", "damage: two"),
    ("unknown field", "move: 5", "mvoe: 5", "sheets.rifleman.mvoe", "unknown field", "check its spelling", "mvoe"),
    ("missing field", "    model: jeep.ldr\n", "", "vehicles[0].model", "missing", "add it", "- id: blue-jeep"),
    ("two units on one cell", "position: [14.5, 8.5]", "position: [12.9, 8.1]", "units[1].position",
     "cell (12, 8), already taken by units[0] 'blue-1'", "move one of them", "[12.9, 8.1]"),
    ("duplicate id", "id: red-2", "id: blue-jeep", "vehicles[0].id", "duplicate id 'blue-jeep' (also units[4])",
     "its own id", "- id: blue-jeep\n    side: blue"),
    ("vehicle sheet on a unit", "sheet: swordsman\n    model: figure.ldr\n    position: [30.5",
     "sheet: jeep\n    model: figure.ldr\n    position: [30.5", "units[3].sheet", "is a vehicle sheet",
     "give it a minifig sheet", "sheet: jeep\n    model: figure.ldr\n    position: [30.5"),
    ("weapon not on the sheet", "weapon: rifle", "weapon: bazooka", "units[0].weapon", "'bazooka' is not on sheet",
     "use one of them", "weapon: bazooka"),
    ("aboard and placed", "sheet: rifleman\n    model: figure.ldr\n  - id: red-1", "sheet: rifleman\n    model: "
     "figure.ldr\n    position: [2.5, 2.5]\n  - id: red-1", "units[2].position", "aboard vehicles[0] 'blue-jeep' and also has a position",
     "remove its position", "[2.5, 2.5]"),
    ("neither aboard nor placed", "occupants: [blue-6]", "occupants: []", "units[2].position",
     "aboard no vehicle", "give its position", "id: blue-6"),
    ("seats exceeded", "occupants: [blue-6]", "occupants: [blue-6, blue-1, blue-2]", "vehicles[0].occupants",
     "3 occupants for 2 seats", "raise seats", "occupants: [blue-6"),
    ("unknown occupant", "occupants: [blue-6]", "occupants: [blue-6, blue-9]", "vehicles[0].occupants[1]",
     "unknown unit 'blue-9'", "list unit ids only", "occupants: [blue-6"),
    ("bad literal", "hp_colour: red", "hp_colour: green", "sheets.rifleman.hp_colour", "'red' or 'yellow'",
     "use one of those values", "hp_colour: green"),
    ("reach on a ranged weapon", "{name: rifle, kind: ranged, damage: 2}", "{name: rifle, kind: ranged, damage: 2, "
     "reach: 3}", "sheets.rifleman.weapons[0]", "reach is for melee weapons only", "make the weapon kind: melee",
     "reach: 3"),
    ("short position", "position: [12.5, 8.5]", "position: [12.5]", "units[0].position", "two numbers",
     "[12.5, 8.5]", "position: [12.5]"),
    ("sheet without kind", "    kind: vehicle\n", "", "sheets.jeep", "discriminator 'kind'", "kind: vehicle",
     "  jeep:"),
    ("speed above the sheet", "speed: 0\n    occupants", "speed: 9\n    occupants", "vehicles[0].speed", "above the sheet's maximum 4",
     "from 0 to 4", "speed: 9"),
    ("closed door on a unit", "cell: [5, 5]", "cell: [12, 8]", "doors[0].cell", "closed door on cell (12, 8), where "
     "units[0] 'blue-1' stands", "open the door", "cell: [12, 8]"),
    ("door id taken", "id: gate", "id: blue-1", "doors[0].id", "duplicate id 'blue-1' (also units[0])",
     "its own id", "id: blue-1\n    cell"),
    ("a number below its bound", "move: 5", "move: -5", "sheets.rifleman.move", "greater than or equal to 0 (found -5)",
     "give 0 or more", "move: -5"),
    # issue 32: accepted before, and a range band of 1e-300 studs cuts a line of fire into 1e301 bands
    ("a door of infinite height", "open: false", "open: false\n    height_ldu: .inf", "doors[0].height_ldu",
     "not a finite number (found inf)", "write a plain number", "height_ldu: .inf"),
    ("a range band of no length", "range_band_studs: 15", "range_band_studs: 1e-300", "ruleset.range_band_studs",
     "1e-300 is beyond what a battlefield measures", "studs, LDU, degrees", "range_band_studs: 1e-300"),
    ("a door of 1e300 LDU", "open: false", "open: false\n    height_ldu: 1.0e+300", "doors[0].height_ldu",
     "1e+300 is beyond what a battlefield measures", "studs, LDU, degrees", "height_ldu: 1.0e+300"),
]


@pytest.mark.parametrize("case, old, new, path, problem, fix, where", MISTAKES, ids=[m[0] for m in MISTAKES])
def test_mistakes_name_file_line_field_and_fix(case, old, new, path, problem, fix, where, scene_dir, capsys):
    """Every mistake kind: the message is '<file>:<line>: <field path>: <problem>; <fix>', exit code 2."""
    source = (scene_dir / "village.yaml").read_text()
    assert old in source, case
    text = source.replace(old, new, 1)
    bad = scene_dir / "bad.yaml"
    bad.write_text(text)
    with pytest.raises(SceneError) as caught:
        load_scene(bad)
    first = str(caught.value).splitlines()[0]
    line = text[:text.index(where)].count("\n") + 1
    assert first.startswith(f"{bad}:{line}: {path}: "), first
    assert problem in first and fix in first.split(";", 1)[1], first
    assert main(["scene", "check", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"bad.yaml:{line}: {path}" in err and "Traceback" not in err


def test_missing_battlefield_and_model_files_name_the_path_tried(scene_dir):
    (scene_dir / "jeep.ldr").unlink()
    (scene_dir / "village.ldr").unlink()
    with pytest.raises(SceneError) as caught:
        load_scene(scene_dir / "village.yaml")
    message = str(caught.value)
    assert f"village.yaml:3: battlefield: no such file '{scene_dir / 'village.ldr'}'" in message
    assert f"vehicles[0].model: no such file '{scene_dir / 'jeep.ldr'}'" in message and "set LDRAWDIR" in message


def test_a_library_part_is_a_valid_model(scene_dir):
    path = scene_dir / "village.yaml"
    path.write_text(path.read_text().replace("model: jeep.ldr", "model: 3005.dat"))
    assert load_scene(path).vehicle("blue-jeep").model == "3005.dat"


def test_unit_outside_the_battlefield_says_its_extent(scene_dir, capsys):
    path = scene_dir / "village.yaml"
    path.write_text(path.read_text().replace("[32.5, 20.5]", "[52.5, 20.5]"))
    load_scene(path)  # fine without the battlefield check
    with pytest.raises(SceneError, match=r"village.yaml:\d+: units\[4\].position: \[52.5, 20.5\] lies outside the "
                       r"battlefield, which spans x 0 to 40, y 0 to 40 studs; move it onto the battlefield"):
        load_scene(path, battlefield=True)
    assert main(["scene", "check", str(path)]) == 2
    assert "outside the battlefield" in capsys.readouterr().err


def test_an_empty_battlefield_is_named_once(scene_dir, capsys):
    """Was: every unit 'lies outside the battlefield, which spans x 0 to 0, y 0 to 0 studs'."""
    (scene_dir / "village.ldr").write_text("0 Test field\n0 // nothing built yet\n")
    assert main(["scene", "check", str(scene_dir / "village.yaml")]) == 2
    err = capsys.readouterr().err
    assert "village.yaml:3: battlefield: 'village.ldr' has nothing in it to stand on or hide behind" in err
    assert "a baseplate at least" in err and "outside the battlefield" not in err and len(err.splitlines()) == 1


def test_scene_check_warns_of_sides_that_look_alike_or_have_no_colour(scene_dir, capsys):
    """Rings, titles and dice take a side's colour: an unknown code is drawn grey, two sides of one colour
    look alike. Warnings (exit 0: the scene plays)."""
    path = scene_dir / "village.yaml"
    original = path.read_text()
    assert main(["scene", "check", str(path)]) == 0
    assert "colour" not in capsys.readouterr().out
    path.write_text(original.replace("{id: red, name: Red army, colour: 4}", "{id: red, name: Red army, colour: 1}"))
    assert main(["scene", "check", str(path)]) == 0
    assert "sides blue and red are both colour 1 (Blue): their rings and titles look alike" in capsys.readouterr().out
    path.write_text(original.replace("{id: red, name: Red army, colour: 4}", "{id: red, name: Red army, colour: 99999}"))
    assert main(["scene", "check", str(path)]) == 0
    assert "side red: colour 99999 is no LDraw colour of the library" in capsys.readouterr().out


def test_scene_check_warns_of_a_unit_placed_in_a_wall(scene_dir, capsys):
    """A unit whose base straddles a wall is stood on its top (C1): its sight lines are not what the player
    meant. A stack of three 1x1 bricks under the right half of the first unit's base ([12.5, 8.5])."""
    field = scene_dir / "village.ldr"
    original = field.read_text()
    assert main(["scene", "check", str(scene_dir / "village.yaml")]) == 0
    assert "straddles" not in capsys.readouterr().out
    wall = "".join(f"1 4 260 {-24 * k} 170 1 0 0 0 1 0 0 0 1 3005.dat\n" for k in (1, 2, 3))
    field.write_text(original + wall)
    assert main(["scene", "check", str(scene_dir / "village.yaml")]) == 0   # a warning: towers are allowed
    out = capsys.readouterr().out
    assert "[12.5, 8.5]: its base straddles a drop of 3.0 bricks (placed in a wall, or on an edge?)" in out, out
    assert out.count("straddles") == 1


def test_scene_check_warns_of_a_unit_over_no_ground(scene_dir, capsys):
    """A battlefield of two baseplates with a gap between them: the unit in the gap stands on thin air."""
    field = scene_dir / "village.ldr"
    # the 40 x 40 baseplate cut in two 40 x 16 halves (y 0..16 and 24..40 studs): units at y 8.5 and 20.5
    field.write_text("0 Test field\n1 2 400 0 160 1.25 0 0 0 1 0 0 0 0.5 3811.dat\n"
                     "1 2 400 0 640 1.25 0 0 0 1 0 0 0 0.5 3811.dat\n")
    assert main(["scene", "check", str(scene_dir / "village.yaml")]) == 0
    out = capsys.readouterr().out
    assert "at [30.5, 20.5]: nothing of the battlefield is under it" in out, out
    assert "at [12.5, 8.5]: nothing" not in out


def test_newer_format_is_refused_plainly_and_unknown_formats_named(tmp_path):
    with pytest.raises(SceneError, match=r"v.yaml:1: format: bow3d-scene/2 was written by a newer bow3d"):
        parse_scene(VILLAGE.replace("bow3d-scene/1", "bow3d-scene/2"), "v.yaml")
    with pytest.raises(SceneError, match=r"unknown format 'ldraw-scene/1'"):
        parse_scene(VILLAGE.replace("bow3d-scene/1", "ldraw-scene/1"), "v.yaml")
    with pytest.raises(SceneError, match=r"format: missing; add 'format: bow3d-scene/1'"):
        parse_scene(VILLAGE.replace("format: bow3d-scene/1\n", ""), "v.yaml")
    with pytest.raises(SceneError, match=r"the file is a list, not a scene"):
        parse_scene("- 1\n- 2\n", "v.yaml")
    with pytest.raises(SceneError, match=r"v.yaml:\d+: \(YAML\): .*fix the YAML syntax"):
        parse_scene(VILLAGE.replace("  - id: red-1", "  - id: red-1\n   x"), "v.yaml")
    with pytest.raises(SceneError, match="no such scene file"):
        load_scene(tmp_path / "none.yaml")


@pytest.mark.parametrize("command", [["scene", "check"], ["los"]])
def test_a_format_version_of_5000_digits_is_refused_plainly(scene_dir, capsys, command):
    """Issue 32: int() refuses 5,000 digits: an internal error (exit 1) in scene check and los."""
    bad = scene_dir / "long.yaml"
    bad.write_text(VILLAGE.replace("bow3d-scene/1", "bow3d-scene/" + "1" * 5000))
    with pytest.raises(SceneError, match=r"long.yaml:\d+: format: version 111111111111\.\.\. \(5,000 digits\) is no "
                                         r"version of a bow3d scene; write 'format: bow3d-scene/1'"):
        load_scene(bad)
    args = [str(bad), "blue-1"] if command == ["los"] else [str(bad)]
    assert main([*command, *args]) == 2
    err = capsys.readouterr().err
    assert "5,000 digits" in err and "internal error" not in err and len(err) < 400


def test_older_formats_go_through_the_upgrade_steps(monkeypatch):
    """The upgrade hook: a /0 document (hypothetical, 'title' instead of 'name') is upgraded step by step."""
    def step(data):
        data["name"] = data.pop("title")
        return data

    monkeypatch.setitem(UPGRADES, 0, step)
    old = VILLAGE.replace("format: bow3d-scene/1", "format: bow3d-scene/0").replace("name: Village", "title: Village")
    assert parse_scene(old, "old.yaml").name == "Village"
    monkeypatch.delitem(UPGRADES, 0)
    with pytest.raises(SceneError, match="no upgrade step exists"):
        parse_scene(old, "old.yaml")


def test_round_trip_load_save_load(scene_dir, tmp_path):
    scene = load_scene(scene_dir / "village.yaml")
    out = scene_dir / "copy.yaml"
    save_scene(scene, out)
    again = load_scene(out)
    assert again == scene and again.path == out
    assert format_scene(again) == out.read_text()
    assert out.read_text().index("format:") < out.read_text().index("name:")  # format first
    with pytest.raises(SceneError, match="already exists"):
        save_scene(scene, out, overwrite=False)


def test_field_paths_are_written_like_python():
    assert format_path(("units", 3, "sheet")) == "units[3].sheet"
    assert format_path(("sheets", "jeep", "weapons", 0, "arc")) == "sheets.jeep.weapons[0].arc"


def test_facing_is_kept_in_0_to_360():
    unit = Unit(id="a", side="s", sheet="t", model="m.ldr", position=(1, 1), facing=-90)
    assert unit.facing == 270
    with pytest.raises(ValueError):
        Unit(id="a", side="s", sheet="t", model="m.ldr", position=(math.inf, 1))


def test_scene_built_in_memory_resolves_against_the_working_folder():
    scene = Scene(battlefield="b.ldr", sides=[{"id": "blue"}])
    assert scene.path is None and scene.resolve("b.ldr") == Path.cwd() / "b.ldr"


def test_scene_check_prints_a_summary(scene_dir, capsys):
    assert main(["scene", "check", str(scene_dir / "village.yaml")]) == 0
    out = capsys.readouterr().out
    assert "village.yaml: OK (bow3d-scene/1)" in out
    assert "village.ldr (40 x 40 studs, x 0.0 to 40.0, y 0.0 to 40.0)" in out
    assert "side blue     Blue army: 3 units, 1 vehicle, 116 CP" in out
    assert "warning: the sides are unbalanced" in out


@pytest.mark.parametrize("argv", [["scene", "--help"], ["scene", "from-ldraw", "--help"], ["cost", "--help"],
                                  ["schema", "--help"]])
def test_commands_have_help_with_examples(argv, capsys):
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "example" in out or "!BOW" in out


def test_a_unit_in_two_vehicles_is_refused(scene_dir):
    path = scene_dir / "village.yaml"
    second = """  - id: blue-jeep-2
    side: blue
    sheet: jeep
    model: jeep.ldr
    position: [24, 10]
    occupants: [blue-6]
"""
    path.write_text(path.read_text().replace("doors:\n", second + "doors:\n"))
    with pytest.raises(SceneError) as caught:
        load_scene(path)
    line = max(n for n, text in enumerate(path.read_text().splitlines(), start=1) if text == "    occupants: [blue-6]")
    assert str(caught.value).startswith(f"{path}:{line}: vehicles[1].occupants[0]: unit 'blue-6' is already aboard "
                                        "vehicles[0] 'blue-jeep'; a unit rides one vehicle at a time")


def test_an_ldraw_model_given_for_a_scene_says_how_to_make_one(capsys):
    """`bow3d simulate scenes/village.ldr`: the battlefield, not its scene. It was read as YAML ('village.ldr:6:
    (YAML): could not find expected ':'); now the fix is named, exit 2."""
    battlefield = Path(__file__).resolve().parents[2] / "scenes" / "village.ldr"
    with pytest.raises(SceneError, match="is an LDraw model, not a scene file; .* bow3d scene from-ldraw"):
        load_scene(battlefield)
    assert main(["simulate", str(battlefield), "--games", "1"]) == 2
    assert f"bow3d scene from-ldraw {battlefield} -o SCENE.yaml" in capsys.readouterr().err


OPEN_FIELD = """format: bow3d-scene/1
battlefield: village.ldr
sides: [{id: blue, colour: 1}, {id: red, colour: 4}]
"""


def test_scene_check_warns_of_a_library_with_no_parts_and_names_it(scene_dir, tmp_path, capsys):
    """Issue 32: with a library whose parts/ is empty, scene check said OK and nothing else (every part a box)."""
    empty = tmp_path / "empty-ldraw"
    (empty / "parts").mkdir(parents=True)
    (empty / "LDConfig.ldr").write_text("0 LDraw colours\n0 !COLOUR Black CODE 0 VALUE #1B2A34 EDGE #808080\n")
    assert main(["scene", "check", str(scene_dir / "village.yaml"), "--library", str(empty)]) == 2
    err = capsys.readouterr().err   # the units stand outside a battlefield of boxes: the library named as the cause
    assert "lies outside the battlefield" in err and f"the LDraw library {empty.resolve()} has no parts" in err
    (scene_dir / "open.yaml").write_text(OPEN_FIELD)
    assert main(["scene", "check", str(scene_dir / "open.yaml"), "--library", str(empty)]) == 0
    out = capsys.readouterr().out
    assert "OK" in out and f"the LDraw library {empty.resolve()} has no parts" in out and "library install" in out
    assert main(["scene", "check", str(scene_dir / "village.yaml")]) == 0
    assert "has no parts" not in capsys.readouterr().out


@pytest.mark.parametrize("name", ["village", "war-of-bros", "western-town", "los-gallery"])
def test_every_rulesets_scene_is_written_back_as_it_reads(name):
    """format_scene wrote only BOW's sheets: a Blaze of Glory sheet names its weapons ('rifle'), and writing
    the Western town raised ValueError (bow3d setup saving it, the referee's saved scene)."""
    from bow3d.bundled import scenes_dir
    from bow3d.rulesets import load_scene, parse_scene

    scene = load_scene(scenes_dir() / f"{name}.yaml")
    again = parse_scene(format_scene(scene), f"{name}.yaml")
    assert again.model_dump(exclude={"path"}) == scene.model_dump(exclude={"path"})
