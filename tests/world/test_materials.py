"""Materials of decor and bodies (bow3d.world.materials): the default table, overrides, real parts."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from bow3d.errors import UserInputError
from bow3d.ldraw import BUNDLED_LIBRARY, Library, load_model
from bow3d.world import BodySpec, World
from bow3d.world.boxes import box_mesh, box_world
from bow3d.world.materials import DEFAULT_MATERIAL, MaterialRule, MaterialTable, classify_instances, part_titles

TABLE = MaterialTable()


@pytest.mark.parametrize("part, title, colour, finish, transparent, material", [
    ("3005.dat", "Brick  1 x  1", "Light_Bluish_Grey", "solid", False, "stone"),
    ("3005.dat", "Brick  1 x  1", "Tan", "solid", False, "stone"),
    ("3005.dat", "Brick  1 x  1", "Trans_Clear", "solid", True, "glass"),
    ("3005.dat", "Brick  1 x  1", "Trans_Clear", "solid", None, "glass"),       # by the colour's name alone
    ("3005.dat", "Brick  1 x  1", "Reddish_Brown", "solid", False, "wood"),
    ("3005.dat", "Brick  1 x  1", "Chrome_Silver", "chrome", False, "metal"),
    ("3005.dat", "Brick  1 x  1", "Pearl_Light_Grey", "pearlescent", False, "metal"),
    ("3005.dat", "Brick  1 x  1", "Flat_Silver", "solid", False, "metal"),
    ("6064.dat", "Plant Bush", "Green", "solid", False, "plant"),
    ("2435.dat", "Plant Tree Pyramidal  3 x  3 x  4", "Reddish_Brown", "solid", False, "plant"),
    ("60623.dat", "Door  1 x  4 x  6 with 4 Panes and Stud Handle", "Blue", "solid", False, "wood"),
    ("60596.dat", "Door  1 x  4 x  6 Frame", "White", "solid", False, "stone"),
    ("60621.dat", "Door  1 x  4 x  6 Barred", "Black", "solid", False, "metal"),
    ("60601.dat", "Glass for Window  1 x  2 x  2 without Sill", "Black", "solid", False, "glass"),
    ("3854.dat", "Window  1 x  2 x  3 Pane", "White", "solid", False, "glass"),
    ("3823.dat", "Windscreen  2 x  4 x  2", "Black", "solid", False, "glass"),
    ("60594.dat", "Window  1 x  4 x  3 without Shutter Tabs", "White", "solid", False, "stone"),
    ("30136.dat", "Brick  1 x  2 Log", "Reddish_Brown", "solid", False, "wood"),
    ("2489.dat", "Barrel  2 x  2 x  1.667", "Yellow", "solid", False, "wood"),
    ("3633.dat", "Fence Lattice  1 x  4 x  1", "White", "solid", False, "wood"),
    ("3811.dat", "Baseplate 32 x 32", "Green", "solid", False, "ground"),
    ("3626b.dat", "Minifig Head with Blocked Hollow Stud", "Yellow", "solid", False, "unit"),
    ("3626b.dat", "Minifig Head", "Trans_Clear", "solid", True, "unit"),        # a ghost is still a figure
    ("6014.dat", "Wheel 11 x 12 with Hub", "Light_Bluish_Grey", "solid", False, "vehicle"),
    ("6082.dat", "Panel  4 x 10 x  6 Rock Rectangular", "Dark_Bluish_Grey", "solid", False, "stone"),
    ("9999.dat", "", "Red", "solid", False, DEFAULT_MATERIAL),                  # nothing known: the default
])
def test_default_table(part, title, colour, finish, transparent, material):
    assert TABLE.classify(part, title, None, colour, finish, transparent) == material


def test_overrides_most_specific_first():
    table = MaterialTable.from_overrides({"3005.dat@70": "sand", "3005": "wood", "@47": "plant",
                                         "@Dark_Tan": "sand", "unit:red-2": "body"})
    assert table.classify("3005.dat", "Brick  1 x  1", 70, "Reddish_Brown") == "sand"    # part in colour
    assert table.classify("3005.dat", "Brick  1 x  1", 71, "Light_Bluish_Grey") == "wood"  # part
    assert table.classify("3005.dat", "Brick  1 x  1", 47, "Trans_Clear") == "wood"      # part beats colour
    assert table.classify("3004.dat", "Brick  1 x  2", 47, "Trans_Clear") == "plant"     # colour by code
    assert table.classify("3004.dat", "Brick  1 x  2", 28, "Dark_Tan") == "sand"         # colour by name
    assert table.classify("3004.dat", "Brick  1 x  2", 71, "Light_Bluish_Grey") == "stone"
    assert table.body_material("unit", "red-2") == "body" and table.body_material("unit", "red-1") == "unit"
    assert table.body_material("door", "gate") == "wood" and table.body_material("obstacle", "x", "sand") == "sand"


def test_a_custom_rule_table():
    table = MaterialTable(rules=(MaterialRule("hedge", words=("Bush",)),), default="rubble")
    assert table.classify("6064.dat", "Plant Bush") == "hedge"
    assert table.classify("3005.dat", "Brick  1 x  1", None, "Trans_Clear") == "rubble"


@pytest.mark.parametrize("overrides, message", [
    ({"3005.dat": "Stone!"}, "materials: '3005.dat': a material is a lower-case word"),
    ({"3005.dat": 3}, "a material is a lower-case word"),
    ({"": "wood"}, "give a part"),
])
def test_bad_overrides_say_what_and_where(overrides, message):
    with pytest.raises(UserInputError, match=message):
        MaterialTable.from_overrides(overrides)


def test_body_overrides_must_name_bodies():
    with pytest.raises(UserInputError, match="'unit:ghost' names no unit of this scene.*unit:a"):
        box_world([], [BodySpec("a", "fig", (5.5, 5.5))], materials={"unit:ghost": "body"})
    world = box_world([], [BodySpec("a", "fig", (5.5, 5.5)), BodySpec("b", "car", (20, 20), kind="vehicle")],
                      materials={"unit:a": "body", "obstacle:wreck": "metal"})   # obstacles come later
    assert world.bodies["a"].material == "body" and world.bodies["b"].material == "vehicle"
    world.add_obstacle("wreck", [[30, 30], [32, 30], [32, 31], [30, 31]], 24, "vehicle")
    assert world.bodies["wreck"].material == "metal"                             # the scene's word wins


FIELD = """0 Materials
1 71 0 0 0 1 0 0 0 1 0 0 0 1 3005.dat
1 47 40 0 0 1 0 0 0 1 0 0 0 1 3005.dat
1 70 80 0 0 1 0 0 0 1 0 0 0 1 3005.dat
1 2 120 0 0 1 0 0 0 1 0 0 0 1 6064.dat
1 1 160 0 0 1 0 0 0 1 0 0 0 1 60623.dat
1 15 200 0 0 1 0 0 0 1 0 0 0 1 60596.dat
1 70 240 0 0 1 0 0 0 1 0 0 0 1 30136.dat
1 2 0 0 400 1 0 0 0 1 0 0 0 1 3811.dat
1 14 280 0 0 1 0 0 0 1 0 0 0 1 3626b.dat
1 0 320 0 0 1 0 0 0 1 0 0 0 1 3823.dat
1 15 360 0 0 1 0 0 0 1 0 0 0 1 3854.dat
1 383 400 0 0 1 0 0 0 1 0 0 0 1 3005.dat
1 80 440 0 0 1 0 0 0 1 0 0 0 1 3005.dat
1 4 480 0 0 1 0 0 0 1 0 0 0 1 nosuchpart.dat
"""
EXPECTED = ["stone", "glass", "wood", "plant", "wood", "stone", "wood", "ground", "unit", "glass", "glass", "metal",
            "metal", "stone"]


@pytest.mark.parametrize("which", ["starter", "official"])
def test_real_parts_by_title_and_colour(tmp_path, request, which):
    """Titles read from the part files, colours from LDConfig (transparency and finish), once per pair."""
    library = Library([BUNDLED_LIBRARY]) if which == "starter" else request.getfixturevalue("official")
    path = tmp_path / "field.ldr"
    path.write_text(FIELD)
    model = load_model(path, library, cache=False)
    materials = classify_instances(MaterialTable(), model.instances, model)
    assert materials.shape == (len(model.instances),) and list(materials) == EXPECTED
    assert part_titles(model)[model.instance_part[3]] == "Plant Bush"


def test_official_glass_and_barrels(official, tmp_path):
    path = tmp_path / "more.ldr"
    path.write_text("1 15 0 0 0 1 0 0 0 1 0 0 0 1 60601.dat\n1 14 40 0 0 1 0 0 0 1 0 0 0 1 2489.dat\n"
                    "1 0 80 0 0 1 0 0 0 1 0 0 0 1 60621.dat\n1 72 120 0 0 1 0 0 0 1 0 0 0 1 30294.dat\n")
    model = load_model(path, official, cache=False)
    assert list(classify_instances(MaterialTable(), model.instances, model)) == ["glass", "wood", "metal", "stone"]


def test_parts_packed_in_an_mpd_have_their_block_titles(tmp_path):
    path = tmp_path / "pack.mpd"
    path.write_text("0 FILE main.ldr\n0 Main\n1 70 0 0 0 1 0 0 0 1 0 0 0 1 crate.dat\n"
                    "0 FILE crate.dat\n0 Crate Wooden 2 x 2\n0 !LDRAW_ORG Part\n"
                    "4 16 -10 0 10 10 0 10 10 0 -10 -10 0 -10\n")
    model = load_model(path, Library([BUNDLED_LIBRARY]), cache=False)
    assert part_titles(model)[model.instance_part[0]] == "Crate Wooden 2 x 2"
    assert list(classify_instances(MaterialTable.from_overrides({"@70": "metal"}), model.instances, model)) == \
        ["metal"]


def test_titles_lose_their_marks(tmp_path):
    (tmp_path / "a.dat").write_text("0 ~Moved to 3023b\n")
    (tmp_path / "b.dat").write_text("0 =Rock  4 x  4 x  1.667 Bottom\n")
    (tmp_path / "c.dat").write_text("1 16 0 0 0 1 0 0 0 1 0 0 0 1 a.dat\n")
    model = SimpleNamespace(instance_part=[str(tmp_path / n) for n in ("a.dat", "b.dat", "c.dat")] + ["missing:x"])
    assert list(part_titles(model).values()) == ["Moved to 3023b", "Rock  4 x  4 x  1.667 Bottom", "", ""]


def test_empty_decor_has_an_empty_material_array():
    assert classify_instances(TABLE, [], None).shape == (0,)


def test_the_world_classifies_each_instance_once(gallery):
    """The gallery's walls are grey bricks (stone), its ground baseplates; blockers carry the material."""
    assert gallery.decor_materials.shape == (len(gallery.instances),)
    names = np.array([i.name for i in gallery.instances])
    assert set(gallery.decor_materials[names == "3004.dat"]) == {"stone"}
    assert set(gallery.decor_materials[names == "3811.dat"]) == {"ground"}
    assert {b.material for b in gallery.sight("blue-2", "red-2").blockers} == {"stone"}
    assert {b.material for b in gallery.sight("blue-1", "red-8").blockers if b.kind == "unit"} == {"unit"}


class WithFields:
    """A loaded scene with extra fields (`materials:`, a unit's `base:`), as the scene model will give them."""

    def __init__(self, scene, **fields):
        self._scene = scene
        self.__dict__.update(fields)

    def __getattr__(self, name):
        return getattr(self._scene, name)


def test_scene_overrides_reach_the_blockers(world_library):
    """from_scene reads the scene's `materials:` mapping (part@colour, bodies)."""
    from tests.world.conftest import load_test_scene

    scene = load_test_scene("gallery.yaml")
    assert World.from_scene(scene, world_library).sight("blue-2", "red-2").blockers[0].material == "stone"
    world = World.from_scene(WithFields(scene, materials={"3004.dat@71": "wood", "unit:red-3": "body"}),
                             world_library)
    assert {b.material for b in world.sight("blue-2", "red-2").blockers} == {"wood"}
    assert [b.material for b in world.sight("blue-1", "red-8").blockers if b.id == "red-3"] == ["body"]


def test_world_materials_argument(world_library):
    """World(..., materials=...) as from_scene passes the scene's mapping."""
    from tests.world.conftest import load_test_scene

    base = World.from_scene(load_test_scene("gallery.yaml"), world_library)
    world = World(base.decor, base.templates, [BodySpec(b.id, b.template.name, b.position, b.facing, b.kind, b.side)
                                               for b in base.bodies.values()],
                  base.instances, decor_model=base.decor_model, materials={"3004.dat": "sand", "unit:red-3": "body"})
    assert {b.material for b in world.sight("blue-2", "red-2").blockers} == {"sand"}
    assert [b.material for b in world.sight("blue-1", "red-8").blockers if b.id == "red-3"] == ["body"]


def test_box_worlds_default_everything():
    world = box_world([box_mesh((0, 0, 0), (20, 20, 20))], [])
    assert list(world.decor_materials) == [DEFAULT_MATERIAL, DEFAULT_MATERIAL]


def test_closed_doors_are_wood_unless_the_scene_says_otherwise():
    wall = [box_mesh((440, 0, 0), (460, 400, 120)), box_mesh((440, 420, 0), (460, 800, 120))]
    bodies = [BodySpec("a", "fig", (18.5, 20.5), 0), BodySpec("b", "fig", (26.5, 20.5), 180),
              BodySpec("gate", "door", (22.5, 20.5), 270.0, kind="door")]
    shapes = {"door": box_mesh((-10, -10, 0), (10, 10, 120))}
    assert [b.material for b in box_world(wall, bodies, shapes).sight("a", "b").blockers] == ["wood"]
    iron = box_world(wall, bodies, shapes, materials={"door:gate": "metal"})
    assert [b.material for b in iron.sight("a", "b").blockers] == ["metal"]
