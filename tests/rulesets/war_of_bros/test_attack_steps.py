"""The Attack Step: Check Step, Impact Step, Cover Step (by material), Accuracy Step, Multiple Die Saves,
Shield Step, Armor Step, Vitality Step, the Mechanized unit's death, directional dice, Vital Attack."""

from __future__ import annotations

import pytest

from bow3d.rules import Reason
from bow3d.rulesets.war_of_bros import Attack, Move
from bow3d.rulesets.war_of_bros.blocking import blocked_by
from tests.rulesets.war_of_bros.field import Box
from tests.rulesets.war_of_bros.helpers import SHEETS, answer, ready, scene

LT = {"id": "b1", "side": "blue", "sheet": "lieutenant", "position": [10, 10], "facing": 0}


def duel(target_sheet="private", at=(40, 10), facing=180, decor=(), sheets=None, units=(), params=None, vehicles=()):
    target = {"id": "r1", "side": "red", "sheet": target_sheet, "position": list(at), "facing": facing}
    return ready(scene([LT, target, *units], list(vehicles), sheets=sheets, params=params), list(decor),
                 rounds_skipped=1)


def kinds(game, since=0):
    return [e.kind for e in game.events[since:]]


def result(game):
    return next(e for e in reversed(game.events) if e.kind == "attack_result")


# -- Check Step ----------------------------------------------------------------------------------
def test_check_step_line_of_sight_arc_and_range_from_the_front_edge():
    """Check Step: the target within Line of Sight (the indicator's arc) and within the weapon's range,
    measured "in the exact same way that movement is measured": front edge to any part of the base."""
    game = duel(at=(63.75, 10))              # front edge 11.875, target's near edge 61.875: 50 studs = 40 cm
    assert game.refusal(Attack("b1", "r1", "Rifle")) is None
    assert game.refusal(Attack("b1", "r1", "Sidearm")).reason is Reason.TOO_FAR     # 15 cm
    game = duel(at=(64, 10))
    assert game.refusal(Attack("b1", "r1", "Rifle")).reason is Reason.TOO_FAR
    game = duel(at=(10, 40))                 # straight to its left: outside the 90-degree arc
    assert game.refusal(Attack("b1", "r1", "Rifle")).reason is Reason.NOT_VISIBLE
    game = duel(at=(20, 20.5))               # a corner of its base just inside the arc: "Some part ... of the base"
    assert game.refusal(Attack("b1", "r1", "Rifle")) is None
    # "marked by extending lines on their bases": the lines from the indicator (the middle of a 3 x 3 cm base)
    # through the front corners, 45 degrees either side; the nearest corner of this base is 46.8 degrees off
    game = duel(at=(20, 24.5))
    assert game.refusal(Attack("b1", "r1", "Rifle")).reason is Reason.NOT_VISIBLE


def test_check_step_airborne_range_reduction():
    """Light Airborne: "reduce the range of an attacker's weapon by 15 centimeters when attacking to or from a
    ground to airborne target"."""
    sheets = {**SHEETS, "flyer": {"template": "light-airborne/private", "weapons": []}}
    game = duel("flyer", at=(45.5, 10), sheets=sheets)       # 25.4 cm away: the Rifle reaches 40 - 15 = 25 cm
    assert game.refusal(Attack("b1", "r1", "Rifle")).reason is Reason.TOO_FAR
    game = duel("flyer", at=(43, 10), sheets=sheets)         # 23.4 cm
    assert game.refusal(Attack("b1", "r1", "Rifle")) is None


def test_check_step_airborne_against_airborne_no_reduction_and_no_melee():
    """Light Airborne: "Airborne targets attacking each other do not have these penalties"; "When an airborne unit
    is attacking a grounded target, they suffer the same penalties as the ground target would"; "they cannot make
    melee attacks"."""
    sheets = {**SHEETS, "ace": {"template": "light-airborne/lieutenant", "weapons": ["Carbine", "Knife"]},
              "flyer": {"template": "light-airborne/private", "weapons": []}}
    ace = {"id": "b1", "side": "blue", "sheet": "ace", "position": [10, 10], "facing": 0}

    def game_with(target_sheet, at):
        target = {"id": "r1", "side": "red", "sheet": target_sheet, "position": list(at), "facing": 180}
        return ready(scene([ace, target], sheets=sheets), rounds_skipped=1)

    game = game_with("flyer", (50, 10))              # 29 cm: the Carbine's 35 cm, no reduction in the air
    assert game.refusal(Attack("b1", "r1", "Carbine")) is None
    game = game_with("private", (50, 10))            # a ground target: 35 - 15 = 20 cm
    assert game.refusal(Attack("b1", "r1", "Carbine")).reason is Reason.TOO_FAR
    game = game_with("flyer", (14, 10))              # within the Knife's 3 cm
    assert game.refusal(Attack("b1", "r1", "Knife")).reason is Reason.NOT_ALLOWED


def test_high_flyer_flies_5_cm_higher_and_loses_5_cm_more_range():
    """Unit Modifications: High Flyer: "Increase the height at which an Airborne Unit flies by 5 cm"; Light Airborne:
    "An airborne unit's weapon range is always reduced by the height they fly" (the Rifle's 40 cm less 15 + 5)."""
    sheets = {**SHEETS, "high": {"template": "light-airborne/lieutenant", "weapons": [],
                                 "modifications": {"high-flyer": 1}}}
    game = duel("high", at=(39.5, 10), sheets=sheets)        # 20.6 cm away
    assert game.refusal(Attack("b1", "r1", "Rifle")).reason is Reason.TOO_FAR
    game = duel("high", at=(38, 10), sheets=sheets)          # 19.4 cm
    assert game.refusal(Attack("b1", "r1", "Rifle")) is None


# -- Impact Step ---------------------------------------------------------------------------------
def test_impact_step_another_unit_on_the_line_of_fire_is_hit_instead_unless_cancelled():
    """Impact Step: "If there is a another unit impeding the path of this target, even if this unit is your own,
    roll the attack against this unit ... A player may choose to cancel their unit's attack"."""
    friend = {"id": "b2", "side": "blue", "sheet": "private", "position": [25, 10], "facing": 180}
    game = duel(units=[friend])
    game.apply(Attack("b1", "r1", "Rifle"))
    request = game.pending
    assert request.decision == "intercepted" and request.side == "blue" and request.about["other"] == "b2"
    answer(game, "cancel")
    assert result(game).data["outcome"] == "cancelled" and game.pending is None and game.state.step == "final"
    game = duel(units=[friend])
    game.apply(Attack("b1", "r1", "Rifle"))
    answer(game, "attack")
    assert game.pending.about["target"] == "b2"      # the rolls are against the unit in the way
    answer(game, 8)                                   # the Rifle's d8 accuracy
    answer(game, 6)                                   # damage (vitality step): b2's d4 cannot win
    assert not game.state.units["b2"].alive and game.state.units["r1"].alive


def test_impact_step_terrain_higher_than_the_unit_is_a_miss():
    """Impact Step: "If there is terrain impeding the line of attack that exceeds the height of the unit, this
    attack will be considered a miss" (nothing of the target is seen from the attacker's eye)."""
    wall = Box(30, 31, 0, 20, 0, 200, "stone")
    game = duel(decor=[wall])
    game.apply(Attack("b1", "r1", "Rifle"))
    assert result(game).data["outcome"] == "terrain" and game.pending is None


# -- Cover Step ----------------------------------------------------------------------------------
@pytest.mark.parametrize("material, cover, miss, through", [
    ("body", "light", 1, 2), ("sand", "light", 1, 2), ("glass", "light", 1, 2), ("plant", "medium", 2, 3), ("wood", "medium", 2, 3),
    ("vehicle", "medium", 2, 3), ("metal", "medium", 2, 3), ("stone", "heavy", 3, 4), ("building", "heavy", 3, 4)])
def test_cover_step_d4_by_the_material_of_the_cover(material, cover, miss, through):
    """Cover Step and "Cover Provided By Various Materials": light misses on a 1, medium on 1-2, heavy on 1-3."""
    wall = Box(37, 37.5, 0, 20, 0, 48, material)       # hides the target's legs and hips
    game = duel(decor=[wall])
    game.apply(Attack("b1", "r1", "Rifle"))
    impact = next(e for e in reversed(game.events) if e.kind == "impact")
    assert impact.data["cover"] == cover and impact.data["material"] == material
    assert game.pending.purpose == "cover" and game.pending.spec.sides == 4
    answer(game, miss)
    assert result(game).data["outcome"] == "cover"
    game = duel(decor=[wall])
    game.apply(Attack("b1", "r1", "Rifle"))
    answer(game, through)
    assert game.pending.purpose == "accuracy"


def test_cover_step_total_cover_no_roll_and_a_miss():
    """Cover Step: "under Total Cover: no roll is made, but the attack is a miss" (a Barricade)."""
    game = duel(decor=[Box(37, 37.5, 0, 20, 0, 48, "barricade")])
    game.apply(Attack("b1", "r1", "Rifle"))
    assert result(game).data["outcome"] == "cover" and game.pending is None
    assert not any(e.kind == "roll_requested" and e.data["purpose"] == "cover" for e in game.events)


def test_cover_step_not_behind_cover_when_little_is_hidden_and_airborne_bypass():
    """"If the target unit is not behind cover, ignore this step": a low kerb hides under the threshold;
    airborne units "bypass all cover"."""
    game = duel(decor=[Box(37, 37.5, 0, 20, 0, 12, "stone")])
    game.apply(Attack("b1", "r1", "Rifle"))
    assert game.pending.purpose == "accuracy"
    sheets = {**SHEETS, "flyer": {"template": "light-airborne/private", "weapons": []}}
    game = duel("flyer", at=(30, 10), sheets=sheets, decor=[Box(27, 27.5, 0, 20, 0, 48, "stone")])
    game.apply(Attack("b1", "r1", "Rifle"))
    assert game.pending.purpose == "accuracy"


# -- Accuracy Step and Multiple Die Saves -------------------------------------------------------------
def test_accuracy_step_ties_go_to_the_attacker():
    """Accuracy Step: "when a die roll is equal between players, the attacking player always wins"."""
    sheets = {**SHEETS, "dodger": {"template": "light-infantry/major", "weapons": []}}   # evasion d10
    game = duel("dodger", sheets=sheets)
    game.apply(Attack("b1", "r1", "Rifle"))
    answer(game, 5)
    answer(game, 5)                       # the Evasion Save ties: the attack goes on
    assert game.pending.about["step"] in ("shield", "armor", "vitality") or game.pending.purpose == "damage"
    game = duel("dodger", sheets=sheets)
    game.apply(Attack("b1", "r1", "Rifle"))
    answer(game, 5)
    answer(game, 6)
    assert result(game).data["outcome"] == "evaded"


def test_multiple_die_saves_highest_die_and_a_save_that_cannot_win_is_not_rolled():
    """Multiple Die Saves: several dice, the highest kept; "if the result of an attacker's accuracy roll is six
    ... and the defender has an Evasion Save of 3d6, no save roll is necessary"."""
    sheets = {**SHEETS, "triple": {"template": "light-infantry/private", "evasion": "3d6", "weapons": []}}
    game = duel("triple", sheets=sheets)
    game.apply(Attack("b1", "r1", "Rifle"))
    answer(game, 6)
    assert "save_skipped" in kinds(game, -4)
    assert game.pending.purpose == "damage"           # straight on to the Vitality Step's damage roll
    game = duel("triple", sheets=sheets)
    game.apply(Attack("b1", "r1", "Rifle"))
    answer(game, 4)
    assert game.pending.purpose == "evasion_save" and game.pending.spec.count == 3
    answer(game, 1, 5, 2)                             # the highest, 5, beats 4
    assert result(game).data["outcome"] == "evaded"


# -- Shield, Armor, Vitality -------------------------------------------------------------------------------
def test_shield_step_armor_step_and_vitality_step():
    """Shield Step ("Shield Penetration Failure"), Armor Step ("Armor Penetration Failure"), Vitality Step: a new
    damage roll against each save, ties to the attacker."""
    for faces, outcome in (((1, 2), "shield"), ((2, 1, 2, 5), "armor"), ((3, 1, 3, 1, 3, 8), "vitality"),
                           ((3, 1, 3, 1, 3, 3), "perished")):
        game = duel("lieutenant")       # shield d4, armor d6, vitality d8, evasion d8
        game.apply(Attack("b1", "r1", "Rifle"))
        answer(game, 8)                  # accuracy 8: the Evasion d8 cannot win
        for face in faces:               # damage, save, damage, save...
            answer(game, face)
        assert result(game).data["outcome"] == outcome, faces
    assert not game.state.units["r1"].alive


def test_vitality_step_a_body_is_light_cover_and_difficult_terrain_2():
    """Vitality Step: "count this new terrain addition as a Body. Bodies are considered Light Cover. Bodies are
    also Difficult Terrain 2"."""
    game = duel(at=(25, 10), units=[{"id": "r9", "side": "red", "sheet": "private", "position": [150, 150]}])
    game.apply(Attack("b1", "r1", "Rifle"))
    answer(game, 8)
    answer(game, 6)
    body = game.state.obstacles["r1~body"]
    assert body.material == "body" and "r1~body" in game.geometry.obstacles     # the 3D world has it too
    assert game.state.step == "final"           # the attack done: the Final Movement Step
    assert game.refusal(Move("b1", 0, 12.1)).reason.value == "no_movement_left"
    game.apply(Move("b1", 0, 12))    # 9 cm to the Body, its 3 cm at double: 15 cm of movement
    assert game.state.units["b1"].moved_cm == pytest.approx(15)
    assert game.state.units["b1"].position[0] == pytest.approx(10 + 12 * 1.25)


def test_vitality_step_house_rule_perished_units_leave_no_cover():
    """Vitality Step: "A house rule may be set so that player's remove units that have perished from the board
    entirely, instead of replacing the unit with a cover marker" (remove_dead)."""
    far = {"id": "r9", "side": "red", "sheet": "private", "position": [150, 150]}
    game = duel(at=(25, 10), units=[far], params={"remove_dead": True})
    game.apply(Attack("b1", "r1", "Rifle"))
    answer(game, 8)
    answer(game, 6)
    assert not game.state.units["r1"].alive and not game.state.obstacles
    assert not any(e.kind == "cover_left" for e in game.events)


def tank_duel(facing=180):
    units = [{"id": "c1", "side": "red", "sheet": "crew"}, {"id": "c2", "side": "red", "sheet": "crew"},
             {"id": "r9", "side": "red", "sheet": "private", "position": [150, 150]}]
    vehicles = [{"id": "tank", "side": "red", "sheet": "tank", "position": [40, 10], "facing": facing,
                 "occupants": ["c1", "c2"]}]
    return ready(scene([LT, *units], vehicles), rounds_skipped=1)


def test_mechanized_perish_after_armor_wreck_and_two_crew_ejected():
    """Mechanized: no Vitality Save, "if the attacker hits a Mechanized unit, and make an Armor Penetration, that
    Mechanized unit will perish ... branch 2 Light Infantry units ... placed adjacent"; "replaced with a 6cm by
    12cm Vehicle Cover", which "units must navigate around"."""
    game = tank_duel()
    game.apply(Attack("b1", "tank", "Rifle"))
    assert game.pending.purpose == "damage"       # no Evasion Dice: no accuracy roll at all
    answer(game, 6)                               # against the front shield d6: it cannot win
    answer(game, 6)                               # against the front armor d8
    assert game.pending.purpose == "armor_save" and game.pending.spec.sides == 8
    answer(game, 2)
    assert result(game).data["outcome"] == "perished" and not game.state.units["tank"].alive
    assert any(e.kind == "destroyed" and e.data["vehicle"] == "tank" for e in game.events)
    wreck = game.state.obstacles["tank~wreck"]
    assert wreck.material == "vehicle" and wreck.kind == "wreck"
    placed = [e.data for e in game.events if e.kind == "placed" and e.data["reason"] == "ejected"]
    assert [p["unit"] for p in placed] == ["c1", "c2"]
    for crew in ("c1", "c2"):
        unit = game.state.units[crew]
        assert unit.on_field and abs(unit.position[1] - 10) == pytest.approx(3.75 + 1.875 + 0.05)   # beside it
    assert "wreck" in blocked_by(game, "b1", game.ctx.corners("b1", (32, 10), 0))


def test_mechanized_directional_shield_and_armor():
    """Mechanized: "3 scores ... The first score is to counter hits from the front, the second hits from the
    side, and the third value counters hits from behind" (the Private: shield d6/d4/---, armor d8/d6/d4)."""
    game = tank_duel(facing=0)                    # its back to the attacker: no shield there, armor d4
    game.apply(Attack("b1", "tank", "Rifle"))
    answer(game, 3, 1)                            # a Vital Attack (2d6) straight to the Armor Step: no back shield
    assert game.pending.purpose == "armor_save" and game.pending.spec.sides == 4
    game = tank_duel(facing=90)                   # its side: shield d4
    game.apply(Attack("b1", "tank", "Rifle"))
    answer(game, 3)
    assert game.pending.purpose == "shield_save" and game.pending.spec.sides == 4


def test_vital_attack_adds_a_die_to_accuracy_and_damage_from_behind():
    """Vital Attack: "When attacking a target from directly behind ... Add 1 die to both the damage and accuracy
    rolls ... for all damage rolls against that target during all damage steps"."""
    game = duel("lieutenant", facing=0)           # r1 shows b1 its back
    game.apply(Attack("b1", "r1", "Rifle"))
    assert game.pending.spec.count == 2 and game.pending.spec.sides == 8         # 2d8 accuracy
    answer(game, 8, 1)
    assert game.pending.spec.count == 2 and game.pending.spec.sides == 6         # 2d6 damage
    game = duel("lieutenant", facing=180)         # face to face: no Vital Attack
    game.apply(Attack("b1", "r1", "Rifle"))
    assert game.pending.spec.count == 1


def test_reactive_shield_negates_vital_attacks():
    """Reactive Shield: "Negate all Vital Attacks and Attacks Of Opportunity targeting this unit"."""
    sheets = {**SHEETS, "guarded": {"template": "light-infantry/lieutenant", "weapons": ["Ranged Weapon"],
                                    "modifications": {"reactive-shield": 1}}}
    game = duel("guarded", facing=0, sheets=sheets)
    game.apply(Attack("b1", "r1", "Rifle"))
    assert game.pending.spec.count == 1
