"""Property: any valid scene written by save_scene reads back identical (hypothesis)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

from bow3d.rulesets import load_scene, parse_scene
from bow3d.rulesets.bow.sheets import BowScene, MinifigSheet, VehicleSheet, Weapon
from bow3d.scene import Scene, Side, Unit, Vehicle, format_scene, save_scene

ids = st.from_regex(r"[a-z][a-z0-9_-]{0,8}", fullmatch=True)
names = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=20)
small = st.integers(min_value=0, max_value=9)
finite = st.floats(min_value=-500, max_value=500, allow_nan=False, allow_infinity=False)


@st.composite
def weapons(draw, vehicle: bool = False):
    kind = draw(st.sampled_from(["melee", "ranged"]))
    reach = draw(st.one_of(st.none(), st.floats(min_value=0.5, max_value=6))) if kind == "melee" else None
    arc = draw(st.sampled_from([180.0, 360.0])) if vehicle else 180.0
    return Weapon(name=draw(names.filter(lambda s: s.strip() != "")), kind=kind, damage=draw(small), reach=reach,
                  arc=arc)


@st.composite
def scenes(draw) -> Scene:
    side_ids = draw(st.lists(ids, min_size=1, max_size=3, unique=True))
    sides = [Side(id=s, name=draw(names), colour=draw(st.integers(0, 511))) for s in side_ids]
    sheet_ids = draw(st.lists(ids, min_size=2, max_size=5, unique=True))
    minifig_ids, vehicle_ids = sheet_ids[:-1], sheet_ids[-1:]
    sheets = {}
    for sid in minifig_ids:
        sheets[sid] = MinifigSheet(action_budget=draw(small), move=draw(small), attack=draw(small), dodge=draw(small),
                                   armor=draw(small), hp=draw(st.integers(1, 5)), treat=draw(small),
                                   hp_colour=draw(st.sampled_from(["red", "yellow"])),
                                   weapons=draw(st.lists(weapons(), max_size=3)))
    for sid in vehicle_ids:
        speed = draw(small)
        sheets[sid] = VehicleSheet(speed=speed, min_speed=draw(st.integers(0, speed)), flying=draw(st.booleans()),
                                   armor=draw(small), hp=draw(st.integers(1, 4)), seats=draw(st.integers(1, 4)),
                                   exposed_occupants=draw(st.booleans()),
                                   weapons=draw(st.lists(weapons(True), max_size=2)))
    unit_ids = draw(st.lists(ids, max_size=8, unique=True))
    cells = draw(st.lists(st.tuples(st.integers(-50, 50), st.integers(-50, 50)), min_size=len(unit_ids) + 1,
                          max_size=len(unit_ids) + 1, unique=True))
    seats = sheets[vehicle_ids[0]].seats
    aboard = set(unit_ids[:draw(st.integers(0, min(seats, len(unit_ids))))])
    units = []
    for uid, (i, j) in zip(unit_ids, cells):
        sheet_id = draw(st.sampled_from(minifig_ids))
        carried = sheets[sheet_id].weapon_names
        position = None if uid in aboard else (i + draw(st.floats(0, 0.99)), j + draw(st.floats(0, 0.99)))
        units.append(Unit(id=uid, side=draw(st.sampled_from(side_ids)), sheet=sheet_id, model=f"figures/{uid}.ldr",
                          position=position, facing=draw(finite),
                          weapon=draw(st.sampled_from([None, *carried]))))
    vehicles = []
    vid = "v-" + draw(ids)
    if vid not in unit_ids:
        i, j = cells[-1]
        vehicles.append(Vehicle(id=vid, side=side_ids[0], sheet=vehicle_ids[0], model="jeep.ldr",
                                position=(i + 0.5, j + 0.5), facing=draw(finite),
                                speed=draw(st.integers(0, sheets[vehicle_ids[0]].speed)),
                                occupants=[u for u in unit_ids if u in aboard]))
    else:
        units = [u if u.position is not None else u.model_copy(update={"position": (999.5 + k, 999.5)})
                 for k, u in enumerate(units)]
    return BowScene(name=draw(names), battlefield="field.ldr", sides=sides, sheets=sheets, units=units,
                 vehicles=vehicles)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenes())
def test_save_then_load_is_identity(scene):
    text = format_scene(scene)
    again = parse_scene(text, "generated.yaml")
    assert again == scene
    assert format_scene(again) == text


def test_save_then_load_from_disk(tmp_path):
    scene = BowScene(battlefield="field.ldr", sides=[Side(id="blue", colour=1)],
                  sheets={"trooper": MinifigSheet()},
                  units=[Unit(id="b1", side="blue", sheet="trooper", model="3005.dat", position=(0.5, 0.5))])
    (tmp_path / "field.ldr").write_text("0 field\n1 2 0 0 0 1 0 0 0 1 0 0 0 1 3811.dat\n")
    path = save_scene(scene, tmp_path / "s.yaml")
    assert load_scene(path) == scene
