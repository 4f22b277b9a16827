"""Cost points (BOW 1.3 Annex A.4) and balanced armies (§1.4.3), and `bow3d cost` end to end."""

from __future__ import annotations

import json

import pytest

from bow3d.cli import main
from bow3d.rulesets import load_scene
from bow3d.rulesets.bow.cost import (
    army_costs,
    balance_warning,
    cost_lines,
    imbalance_pct,
    unit_cost,
    unit_formula,
    vehicle_cost,
)
from bow3d.rulesets.bow.sheets import MinifigSheet, VehicleSheet, Weapon

# BOW 1.3 Annex A.1: the basic trooper: Action Budget 2, Move 5, Dodge 1, Attack 1, HP 1, Treat/Repair 0.
TROOPER = dict(action_budget=2, move=5, dodge=1, attack=1, hp=1, treat=0, armor=0)
SWORD = Weapon(name="sword", kind="melee", damage=2)  # A.2: sword 2
GUN = Weapon(name="gun", kind="ranged", damage=2)  # A.2: gun 2
ROCKET = Weapon(name="rocket launcher", kind="ranged", damage=4)  # A.2: rocket launcher 4


def test_annex_a4_basic_trooper_with_a_melee_weapon():
    """BOW 1.3 Annex A.4: melee CP = (Action Budget + Move + Dodge/Armor + Attack/Damage + Treat/Repair) x HP."""
    sheet = MinifigSheet(**TROOPER, weapons=[SWORD])
    assert unit_cost(sheet) == (2 + 5 + 1 + (1 + 2) + 0) * 1 == 11


def test_annex_a4_basic_trooper_with_a_long_range_weapon_multiplies_by_damage():
    """BOW 1.3 Annex A.4: long-range CP = (AB + Move + Dodge/Armor + Attack/Damage + Treat/Repair) x HP x Damage."""
    sheet = MinifigSheet(**TROOPER, weapons=[GUN, SWORD])
    assert unit_cost(sheet) == (2 + 5 + 1 + 3 + 0) * 1 * 2 == 22
    assert unit_cost(sheet, "sword") == 11  # the weapon in hand decides
    assert unit_cost(sheet, ROCKET) == (2 + 5 + 1 + 5 + 0) * 1 * 4 == 52


def test_annex_a4_armor_hp_and_treat_count():
    """BOW 1.3 Annex A.2/A.4: Dodge/Armor = dodge + armor (helmet + shield = 2), everything times HP."""
    medic = MinifigSheet(**{**TROOPER, "armor": 2, "hp": 3, "treat": 2}, weapons=[SWORD])
    assert unit_cost(medic) == (2 + 5 + (1 + 2) + (1 + 2) + 2) * 3 == 45
    cost, formula = unit_formula(medic)
    assert formula == "(2 + 5 + 3 + 3 + 2) x 3" and cost == 45


def test_annex_a4_unarmed_minifig_counts_as_melee_with_no_damage():
    assert unit_cost(MinifigSheet(**TROOPER)) == (2 + 5 + 1 + 1 + 0) * 1 == 9


def test_annex_a4_vehicle_formula_with_the_s1_4_2_example():
    """BOW 1.3 Annex A.4: vehicle CP = [(Speed x 5) + Dodge/Armor + all weapons' Damage] x HP; the §1.4.2 example
    vehicle has Speed 4, Dodge/Armor 5, HP 2."""
    plain = VehicleSheet(speed=4, dodge=0, armor=5, hp=2)
    assert vehicle_cost(plain) == (4 * 5 + 5 + 0) * 2 == 50
    armed = VehicleSheet(speed=4, dodge=0, armor=5, hp=2,
                         weapons=[Weapon(name="machine gun", kind="ranged", damage=3), ROCKET])
    assert vehicle_cost(armed) == (20 + 5 + 3 + 4) * 2 == 64


def test_annex_a4_army_costs_per_side(scene_dir):
    scene = load_scene(scene_dir / "village.yaml")
    lines = {line.id: line.cost_points for line in cost_lines(scene)}
    # rifleman: (2 + 5 + (1+1) + (1+2) + 0) x 1 x 2 = 24; swordsman (armor 1, sword 2): 12; jeep: [20 + 5 + 3] x 2 = 56
    assert lines == {"blue-1": 24, "blue-2": 12, "blue-6": 24, "red-1": 12, "red-2": 24, "blue-jeep": 56}
    assert army_costs(scene) == {"blue": 24 + 12 + 24 + 56, "red": 12 + 24}


def test_s1_4_3_balance_warning_beyond_the_tolerance():
    """BOW 1.3 §1.4.3: compare the armies' global CP; warn when they are too far apart."""
    assert imbalance_pct({"blue": 100, "red": 95}) == pytest.approx(5.0)
    assert balance_warning({"blue": 100, "red": 95}) is None
    warning = balance_warning({"blue": 100, "red": 80})
    assert warning.startswith("warning: the sides are unbalanced: blue 100 CP vs red 80 CP (20 % apart")
    assert balance_warning({"blue": 100, "red": 80}, tolerance_pct=25) is None


def test_cost_command_table_totals_and_warning(scene_dir, capsys):
    assert main(["cost", str(scene_dir / "village.yaml")]) == 0
    out = capsys.readouterr().out
    assert "blue-1" in out and "(2 + 5 + 2 + 3 + 0) x 1 x 2" in out and "[(4 x 5) + 5 + 3] x 2" in out
    assert "blue: 116 CP" in out and "red: 36 CP" in out
    assert "warning: the sides are unbalanced" in out
    assert main(["cost", str(scene_dir / "village.yaml"), "--json", "--tolerance", "80"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["sides"] == {"blue": 116, "red": 36} and data["balanced"] is True
    assert {u["id"]: u["cost_points"] for u in data["units"]}["blue-jeep"] == 56


def test_cost_command_refuses_a_broken_scene_with_exit_2(scene_dir, capsys):
    path = scene_dir / "village.yaml"
    path.write_text(path.read_text().replace("sheet: swordsman", "sheet: archr", 1))
    assert main(["cost", str(path)]) == 2
    assert "units[1].sheet: unknown sheet 'archr'" in capsys.readouterr().err
    assert main(["cost", str(scene_dir / "village.yaml"), "--tolerance", "120"]) == 2
