"""The bundled scenes (scenes/village.yaml, scenes/los-gallery.yaml): generated, loadable, complete, fair, sound."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from bow3d.ldraw import load_model
from bow3d.rulesets import load_scene
from bow3d.rulesets.bow import judge_sight
from bow3d.rulesets.bow.cost import army_costs

SCENES = Path(__file__).resolve().parents[2] / "scenes"
VILLAGE, GALLERY = SCENES / "village.yaml", SCENES / "los-gallery.yaml"
PLATE_LDU = 8.0
# Written by `bow3d balance --write-scene`, not by the generator: the village with a balance report's
# suggestion applied (tests/batch/test_balance.py checks each still carries its report's suggestion).
BALANCED = {Path("village-balanced.yaml")}


def test_generator_reproduces_the_committed_files_byte_for_byte(make_scenes, tmp_path: Path):
    """scenes/make_scenes.py is deterministic and the committed files are its output."""
    written = make_scenes.write_tree(tmp_path)
    assert len(written) >= 10
    for path in written:
        rel = path.relative_to(tmp_path)
        committed = SCENES / rel
        assert committed.is_file(), f"{rel} is generated but not in scenes/; run python scenes/make_scenes.py"
        assert committed.read_bytes() == path.read_bytes(), f"scenes/{rel} differs from the generator's output"
    generated = {p.relative_to(tmp_path) for p in written}
    stale = [p for p in [*SCENES.glob("*.ldr"), *SCENES.glob("*.yaml"), *SCENES.glob("figures/*")]
             if p.relative_to(SCENES) not in generated | BALANCED]
    assert not stale, f"files in scenes/ the generator no longer writes: {stale}"


def test_ldraw_lines_have_clean_numbers():
    """Type-1 lines: 15 tokens, numbers with at most 3 decimals and no '-0'."""
    for path in [*SCENES.glob("*.ldr"), *SCENES.glob("figures/*.ldr")]:
        for n, line in enumerate(path.read_text().splitlines(), 1):
            tokens = line.split()
            if tokens[:1] != ["1"]:
                continue
            assert len(tokens) == 15, f"{path.name}:{n}"
            for token in tokens[2:14]:
                assert token != "-0" and len(token.partition(".")[2]) <= 3, f"{path.name}:{n}: {token}"


def test_village_has_two_armies_a_jeep_and_a_mounted_rider():
    """Issue 3: two sides of at least 6 minifigs with varied weapons, a mounted rider and a jeep."""
    scene = load_scene(VILLAGE)
    for side in ("blue", "red"):
        units = scene.units_of(side)
        assert len(units) >= 6
        weapons = {scene.sheet(u.sheet).weapons[0].name for u in units}
        assert len(weapons) >= 4, f"{side}: {weapons}"
    jeep, horse = scene.vehicle("blue-jeep"), scene.vehicle("red-horse")
    assert scene.sheet(jeep.sheet).speed == 4 and scene.sheet(jeep.sheet).armor == 5
    assert scene.sheet(jeep.sheet).weapons[0].arc == 180
    assert scene.sheet(horse.sheet).weapons == [] and scene.sheet(horse.sheet).exposed_occupants
    assert horse.occupants == ["red-knight"] and scene.unit("red-knight").position is None
    assert jeep.occupants == ["blue-driver"] and scene.unit("blue-driver").position is None
    assert any(scene.sheet(u.sheet).treat > 0 for u in scene.units_of("blue"))
    assert any(scene.sheet(u.sheet).treat > 0 for u in scene.units_of("red"))


def test_annex_a4_armies_are_balanced():
    """BOW 1.3 Annex A.4: the two armies' cost points are within 5 % of each other."""
    costs = army_costs(load_scene(VILLAGE))
    assert set(costs) == {"blue", "red"}
    assert abs(costs["blue"] - costs["red"]) <= 0.05 * max(costs.values()), costs
    assert f"blue {costs['blue']}, red {costs['red']}" in VILLAGE.read_text()  # the header says the same


def test_annex_a1_a2_sheets():
    """BOW 1.3 Annex A.1 basic trooper and the A.2 damage table hold for every minifig sheet (the
    swordsmen are veterans with 2 HP, so the medics have wounds to treat, §2.4.4)."""
    damage = {"sword": 2, "battle axe": 2, "spear": 1, "lance": 1, "knife": 1, "rifle": 2, "bow": 2, "pistol": 2}
    for path in (VILLAGE, GALLERY):
        scene = load_scene(path)
        for name, sheet in scene.sheets.items():
            if sheet.kind != "minifig":
                continue
            assert (sheet.action_budget, sheet.move, sheet.attack, sheet.dodge) == (2, 5, 1, 1), name
            assert sheet.hp == (2 if name == "swordsman" else 1), name  # veterans: wounded before they die
            for weapon in sheet.weapons:
                assert weapon.damage == damage[weapon.name], (name, weapon.name)


@pytest.mark.parametrize("scene_file", [VILLAGE, GALLERY], ids=["village", "los-gallery"])
def test_every_model_resolves_with_no_missing_part(scene_file: Path, any_library):
    """The battlefield and every unit and vehicle model load with zero missing parts (starter and official)."""
    scene = load_scene(scene_file)
    for path in {scene.battlefield_path, *(scene.resolve(x.model) for x in [*scene.units, *scene.vehicles])}:
        model = load_model(path, any_library)
        assert model.missing_parts == [], f"{path.name}: {[p.describe() for p in model.missing_parts]}"


@pytest.mark.parametrize("scene_file", [VILLAGE, GALLERY], ids=["village", "los-gallery"])
def test_units_stand_on_free_distinct_cells_inside_the_battlefield(scene_file: Path, any_library):
    """Every unit and vehicle on the ground: inside, on its own cell, nothing higher than a plate under it.

    The footprint checked is the square that holds the model's box however it turns (weapons
    included), so any placement rule (world or view) rests the model on the ground, not on decor.
    """
    from bow3d.world import World

    scene = load_scene(scene_file)
    world = World.from_scene(scene, any_library)
    battlefield = load_model(scene.battlefield_path, any_library).bounds() / 20.0
    cells = {}
    for item in [*scene.units, *scene.vehicles]:
        if item.position is None:
            continue
        x, y = item.position
        assert battlefield[0, 0] <= x <= battlefield[1, 0] and battlefield[0, 1] <= y <= battlefield[1, 1], item.id
        assert item.cell not in cells, f"{item.id} and {cells.get(item.cell)} share cell {item.cell}"
        cells[item.cell] = item.id
        box = load_model(scene.resolve(item.model), any_library).bounds()
        reach = float(np.abs(box[:, :2]).max())
        grid = np.linspace(-reach, reach, 13)
        points = np.array([[20 * x + a, 20 * y + b] for a in grid for b in grid])
        heights = world.ground_heights(points)
        centre = world.ground_height(x, y)
        assert centre <= PLATE_LDU + 0.5, f"{item.id} stands on decor ({centre} LDU)"
        assert heights.max() <= max(centre, PLATE_LDU) + 0.5, \
            f"{item.id}: decor {heights.max():.0f} LDU high under its footprint near {points[heights.argmax()] / 20}"


def test_units_keep_apart():
    """Units on the ground stand at least 2 studs apart (a minifig with its arms is 2 studs wide)."""
    for path in (VILLAGE, GALLERY):
        scene = load_scene(path)
        at = np.array([u.position for u in scene.units if u.position is not None])
        gaps = np.linalg.norm(at[:, None] - at[None], axis=-1) + np.eye(len(at)) * 99
        assert gaps.min() >= 2.0, path.name


def test_gallery_lanes_ids_and_range_distances(make_scenes):
    """The LOS gallery: a firer/target pair per lane, ids naming the situation; range lanes at 15-46 studs."""
    scene = load_scene(GALLERY)
    ids = {u.id for u in scene.units}
    for key in ("open", "lowwall", "fullwall", "window", "behind", "range15", "range16", "range30", "range31",
                "range46"):
        assert {f"{key}-firer", f"{key}-target"} <= ids
        firer, target = scene.unit(f"{key}-firer"), scene.unit(f"{key}-target")
        assert firer.side == "blue" and target.side == "red" and firer.facing == 0
        assert firer.position[1] == target.position[1], key  # the lane runs along the firer's facing
        if key.startswith("range"):
            assert math.dist(firer.position, target.position) == int(key[5:])
    text = GALLERY.read_text()
    for key in ("open", "window", "range46"):
        assert f"#   {key}-firer" in text and f"-> {key}-target" in text  # the opening comment lists every lane


def test_minifig_heights_from_the_parts(official):
    """Soles at 0, hips' visible top at 40, head centre at 84 LDU above the soles (the gallery's numbers)."""
    model = load_model(SCENES / "figures" / "gallery-target.ldr", official)
    z = {inst.name: inst for inst in model.instances}
    mesh = model.mesh
    lo = mesh.positions[:, 2].min()
    assert abs(lo) < 1e-3
    head = mesh.positions[mesh.triangles[mesh.tri_instance == list(z).index("3626b.dat")]].reshape(-1, 3)
    head_body = head[head[:, 2] < 96.5]  # without the head's stud
    assert abs((head_body[:, 2].min() + head_body[:, 2].max()) / 2 - 84) < 0.5
    torso = mesh.positions[mesh.triangles[mesh.tri_instance == list(z).index("973.dat")]].reshape(-1, 3)
    assert abs(z["973.dat"].transform[2, 3] - 72) < 1e-6  # torso origin (its top) 72 LDU above the soles
    assert abs(torso[:, 2].min() - 40) < 0.5  # the torso's lower edge: legs and hips are below 40 LDU


EXPECTED = {  # lane -> (visible, covered, in front arc, distance studs)
    "open": (True, False, True, 20), "lowwall": (True, True, True, 20), "fullwall": (False, False, True, 20),
    "window": (True, True, True, 20), "behind": (True, False, False, 10), "range15": (True, False, True, 15),
    "range16": (True, False, True, 16), "range30": (True, False, True, 30), "range31": (True, False, True, 31),
    "range46": (True, False, True, 46),
}


def test_gallery_verdicts_with_the_world(any_library):
    """BOW 1.3 §2.4.2 on the gallery: each lane's sight report is the one its comment promises."""
    from bow3d.rulesets.bow import range_penalty
    from bow3d.world import World

    world = World.from_scene(load_scene(GALLERY), any_library)
    for key, (visible, covered, arc, distance) in EXPECTED.items():
        report = world.sight(f"{key}-firer", f"{key}-target")
        got = (report.visible, judge_sight(report).covered, report.in_front_arc, round(report.distance_studs, 3))
        assert got == (visible, covered, arc, distance), key
    assert [range_penalty(d) for d in (15, 16, 30, 31, 46)] == [0, 1, 1, 2, 3]
