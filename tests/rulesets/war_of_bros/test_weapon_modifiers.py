"""The weapon modifiers: Splash, Piercing, Armor and Shield Penetration, Rail Driven, Guided, Incendiary."""

from __future__ import annotations

import re

import pytest

from bow3d.rules import Reason
from bow3d.rulesets.war_of_bros import Attack, EndTurn
from tests.rulesets.war_of_bros.field import Box
from tests.rulesets.war_of_bros.helpers import SHEETS, answer, ready, scene

BASE = {"damage": "d6", "accuracy": "d8", "range": 40, "worth": 0}


def armed(weapon: dict, target_sheet="private", target_at=(40, 10), others=(), decor=(), target_facing=180):
    sheets = {**SHEETS, "armed": {"template": "light-infantry/general", "weapons": [{"name": "gun", **BASE, **weapon}]}}
    units = [{"id": "b1", "side": "blue", "sheet": "armed", "position": [10, 10], "facing": 0},
             {"id": "r1", "side": "red", "sheet": target_sheet, "position": list(target_at), "facing": target_facing},
             {"id": "r9", "side": "red", "sheet": "private", "position": [150, 150]}, *others]
    return ready(scene(units, sheets=sheets), list(decor), rounds_skipped=1)


def results(game):
    return {e.data["target"]: e.data["outcome"] for e in game.events if e.kind == "attack_result"}


def test_splash_every_unit_within_3_cm_of_the_impact_zone_one_roll_for_all():
    """Splash: "This weapon deals damage to all units within 3cm of the impact zone"; the Shield Step: "roll the
    weapon damage dice against the shield dice of all targets"."""
    near = {"id": "r2", "side": "red", "sheet": "private", "position": [40, 15], "facing": 180}    # 1 cm apart
    far = {"id": "r3", "side": "red", "sheet": "private", "position": [40, 20], "facing": 180}     # 5 cm apart
    game = armed({"splash_cm": 3}, others=[near, far])
    game.apply(Attack("b1", "r1", "gun"))
    answer(game, 3)                                         # one accuracy roll
    assert game.pending.purpose == "evasion_save" and game.pending.about["target"] == "r1"
    answer(game, 4)                                         # r1 evades
    assert game.pending.about["target"] == "r2"
    answer(game, 1)                                         # r2 does not
    answer(game, 6)                                         # one damage roll for the Vitality Step: r2 perishes
    assert results(game) == {"r1": "evaded", "r2": "perished"} and game.state.units["r3"].alive


def test_piercing_goes_on_through_the_line_of_fire_after_a_kill():
    """Piercing: "If a projectile fired from this weapon hits and kills its a target. It must continue through its
    line of fire regardless of range"."""
    behind = {"id": "r2", "side": "red", "sheet": "private", "position": [120, 10], "facing": 180}   # 86 cm away
    game = armed({"piercing": True}, others=[behind])
    game.apply(Attack("b1", "r1", "gun"))
    answer(game, 8)
    answer(game, 6)                                         # r1 perishes
    pierce = next(e for e in reversed(game.events) if e.kind == "attack")
    assert pierce.data["kind"] == "pierce" and pierce.data["target"] == "r2"
    answer(game, 8)
    answer(game, 6)
    assert results(game) == {"r1": "perished", "r2": "perished"}


def test_armor_and_shield_penetration_reduce_the_save_dice():
    """Armor Penetration / Shield Penetration: "Decrease the size of the Armor Dice of an opponent's unit making
    an Armor Save"; dice first, then sizes (Penetration Versus Multi Die Saves); Pen. Focus: "Reduce any save"."""
    game = armed({"armor_penetration": 1, "shield_penetration": 1, "armor_pen_focus": 1}, "lieutenant")
    game.apply(Attack("b1", "r1", "gun"))
    answer(game, 8)                                         # the Lieutenant's d8 evasion cannot win
    assert game.pending.purpose == "damage" and game.pending.about["step"] == "armor"   # its d4 shield: none left
    answer(game, 2)
    assert game.pending.purpose == "armor_save" and game.pending.spec.sides == 4        # d6 -> d4
    answer(game, 3)                                         # 3 - 1 (focus) = 2: ties go to the attacker
    assert game.pending.about["step"] == "vitality"


def test_rail_driven_ignores_range_and_cover_and_halves_damage():
    """Rail Driven: "Ignore all checks for Range or Cover. Divide the result of all Damage Rolls by 2 ... can bypass
    all cover including Total Cover as long as a target is within Line of Sight"."""
    barricade = Box(37, 37.5, 0, 20, 0, 48, "barricade")
    game = armed({"rail_driven": True, "range": 10}, decor=[barricade])
    assert game.refusal(Attack("b1", "r1", "gun")) is None          # 21 cm, beyond its 10 cm
    game.apply(Attack("b1", "r1", "gun"))
    assert game.pending.purpose == "accuracy"                        # no Cover Step at all
    answer(game, 8)
    answer(game, 5)                                                  # damage 5 / 2 = 2.5 against the d4 vitality
    assert game.pending.purpose == "vitality_save"
    answer(game, 3)                                                  # 3 > 2.5: it holds
    assert results(game)["r1"] == "vitality"


def test_guided_line_of_sight_3_cm_away_and_light_cover_bypassed():
    """Guided: "Line of Sight checks made with this weapon may be up to 3cm away. This munition can bypass Light
    cover."""
    game = armed({"guided": True, "splash_cm": 3}, target_at=(20, 26))   # 1.3 cm outside the arc
    assert game.refusal(Attack("b1", "r1", "gun")) is None
    game = armed({"splash_cm": 3}, target_at=(20, 26))
    assert game.refusal(Attack("b1", "r1", "gun")).reason is Reason.NOT_VISIBLE
    game = armed({"guided": True, "splash_cm": 3}, target_at=(20, 28.5))  # 2.7 cm outside: within the 3 cm
    assert game.refusal(Attack("b1", "r1", "gun")) is None
    game = armed({"guided": True, "splash_cm": 3}, target_at=(20, 30.5))  # 3.8 cm outside: beyond them
    assert game.refusal(Attack("b1", "r1", "gun")).reason is Reason.NOT_VISIBLE
    sand = Box(37, 37.5, 0, 20, 0, 48, "sand")
    game = armed({"guided": True, "splash_cm": 3}, decor=[sand])
    game.apply(Attack("b1", "r1", "gun"))
    impact = next(e for e in reversed(game.events) if e.kind == "impact")
    assert impact.data["cover"] == "none" and game.pending.purpose == "accuracy"


def test_incendiary_burns_three_rounds_against_a_damage_roll_of_4():
    """Incendiary: "A unit hit my this munition will have to roll against a Damage Roll equal to 4 every round for 3
    rounds"."""
    game = armed({"incendiary": True, "splash_cm": 3}, "lieutenant")
    game.apply(Attack("b1", "r1", "gun"))
    answer(game, 8)                     # hit (evasion cannot win)
    answer(game, 1)                     # damage 1 against the shield d4
    answer(game, 4)                     # held
    assert game.state.units["r1"].burning == 3
    game.apply(EndTurn("blue"))
    game.apply(EndTurn("red"))          # a new round: it burns
    burn = next(e for e in reversed(game.events) if e.kind == "burn")
    assert burn.data["unit"] == "r1" and burn.data["damage"] == 4
    assert game.pending.purpose == "armor_save"          # its d4 shield cannot beat a 4: not rolled; its d6 armor
    assert game.state.units["r1"].burning == 2


@pytest.mark.parametrize("weapon, first_line", [
    ("Area Weapon", "Area Weapon"), ("FG-23 Fragmentation Grenade", "FG-23"),
    ("UML-00 Unassisted Munition Launcher", "UML-00"), ("ISLR Terror Group Vestment", "ISLR Terror Group")])
def test_splash_and_splash_range_up_the_book_templates_radii(weapon, first_line):
    """Weapon Templates, read again from the book: each splash weapon's "Splash Ncm" is the radius bow3d uses, and
    it is what its listed modifications buy (Splash: "all units within 3cm of the impact zone"; Splash Range Up:
    "Increase the splash damage radius by 3cm"): "Splash [6], 3x Splash Range Up [15]" is 3 + 3 x 3 = 12 cm."""
    from bow3d.rulesets.war_of_bros.profile import weapon_profile
    from tests.rulesets.war_of_bros.test_sheets_and_tables import _book_lines

    lines = _book_lines()
    at = lines.index(first_line, lines.index("Weapon Templates"))
    block = lines[at:at + 20]
    radius = float(re.fullmatch(r"(\d+)cm", block[block.index("Splash") + 1])[1])
    listed = " ".join(block[block.index("Splash") + 2:])
    assert "Splash [6]" in listed, listed
    ups = re.search(r"(?:(\d+)x )?Splash Range Up", listed)
    ups = 0 if ups is None else int(ups[1] or 1)
    assert weapon_profile(weapon).splash_cm == radius == 3 + 3 * ups
