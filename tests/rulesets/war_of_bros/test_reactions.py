"""Attack Of Opportunity, Reactive Armor, Penetration Versus Reactive."""

from __future__ import annotations

import pytest

from bow3d.rulesets.war_of_bros import Attack, EndStep, Move
from tests.rulesets.war_of_bros.helpers import SHEETS, answer, ready, scene

MOVER = {"id": "b1", "side": "blue", "sheet": "private", "position": [10, 10], "facing": 90}


def watcher(sheet="sergeant", facing=270, at=(10, 24)):
    return {"id": "r1", "side": "red", "sheet": sheet, "position": list(at), "facing": facing}


def game_with(*units, sheets=None, rounds=1):
    return ready(scene([MOVER, *units], sheets=sheets), rounds_skipped=rounds)


def asked(game) -> bool:
    return game.pending is not None and getattr(game.pending, "decision", None) == "opportunity"


def test_attack_of_opportunity_when_a_unit_moves_into_the_threat_range():
    """Attack Of Opportunity: "If a unit moves into the melee threat range of an enemy unit, and is within line of
    sight of that unit, a player may call it out ... with the attacker's sidearm or melee weapon"."""
    game = game_with(watcher())                      # a Sergeant: 3 cm, with its Sidearm
    game.apply(Move("b1", 90, 7))                    # from 8.2 cm to 2.6 cm of its front edge
    assert asked(game) and game.pending.side == "red" and game.pending.about == {"unit": "r1", "target": "b1"}
    answer(game, True)
    attack = next(e for e in reversed(game.events) if e.kind == "attack")
    assert attack.data["kind"] == "opportunity" and attack.data["weapon"] == "Sidearm"


def test_no_opportunity_outside_the_threat_range_the_line_of_sight_or_for_privates():
    """"Private Templates do not have a threat range"; the mover must come within the range and within the
    reacting unit's Line of Sight; a unit already inside did not move into it."""
    game = game_with(watcher())
    game.apply(Move("b1", 90, 4))                    # 4.2 cm away: outside the 3 cm
    assert not asked(game)
    game = game_with(watcher())
    game.apply(Move("b1", 90, 4.8))                  # 3.4 cm away: still outside
    assert not asked(game)
    game = game_with(watcher())
    game.apply(Move("b1", 90, 5.5))                  # 2.7 cm away: inside
    assert asked(game)
    game = game_with(watcher(sheet="private"))
    game.apply(Move("b1", 90, 7))
    assert not asked(game)
    game = game_with(watcher(facing=90))             # it looks the other way
    game.apply(Move("b1", 90, 7))
    assert not asked(game)
    game = game_with(watcher(at=(10, 15.5)))          # already within 3 cm
    game.apply(Move("b1", 0, 1))
    assert not asked(game)


def test_threat_up_adds_3_cm_to_the_threat_range():
    """Unit Modifications: Threat Up: "Increase threat range by 3cm" (a Sergeant's 3 cm becomes 6 cm); the mover
    starts 8.2 cm from the Sergeant's front edge."""
    sheets = {**SHEETS, "alert": {"template": "light-infantry/sergeant", "weapons": ["Sidearm"],
                                  "modifications": {"threat-up": 1}}}
    game = game_with(watcher(sheet="alert"), sheets=sheets)
    game.apply(Move("b1", 90, 1.8))                  # 6.4 cm away: outside 3 + 3 cm
    assert not asked(game)
    game = game_with(watcher(sheet="alert"), sheets=sheets)
    game.apply(Move("b1", 90, 2.6))                  # 5.6 cm away: inside
    assert asked(game)


def test_opportunity_never_with_the_primary_weapon_and_without_a_sidearm_only_as_far_as_the_melee_weapon():
    """Attack Of Opportunity: "either with the attacker's sidearm or melee weapon. The primary weapon may not be used
    for this purpose"; "in order for an infantry unit to take advantage of threat ranges greater than 3cm, they must
    be carrying a Sidearm. Otherwise, their maximum threat range is the range of their off-hand weapon ... a Knife
    with a range of 3cm" (a Lieutenant's 6 cm becomes the Knife's 3)."""
    sheets = {**SHEETS, "rifleman": {"template": "light-infantry/lieutenant", "weapons": ["Rifle", "Knife"]}}
    game = game_with(watcher(sheet="rifleman"), sheets=sheets)
    game.apply(Move("b1", 90, 3.7))                  # 4.5 cm away: inside 6 cm, outside the Knife's 3
    assert not asked(game)
    game = game_with(watcher(sheet="rifleman"), sheets=sheets)
    game.apply(Move("b1", 90, 5.5))                  # 2.7 cm away
    answer(game, True)
    attack = next(e for e in reversed(game.events) if e.kind == "attack")
    assert attack.data["kind"] == "opportunity" and attack.data["weapon"] == "Knife"


def test_threat_focus_adds_1_to_the_opportunity_damage_roll():
    """Unit Modifications: Threat Focus: "Add 1 to any damage roll made as an Attack Of Opportunity" (not to the
    accuracy roll)."""
    sheets = {**SHEETS, "focused": {"template": "light-infantry/lieutenant", "weapons": ["Sidearm"],
                                    "modifications": {"threat-focus": 1}}}
    game = game_with(watcher(sheet="focused"), sheets=sheets)
    game.apply(Move("b1", 90, 7))
    answer(game, True)
    answer(game, 4)                                   # the Sidearm's d4 accuracy: 4, the Private's d4 cannot beat it
    assert game.pending.purpose == "damage"
    answer(game, 2)                                   # the Sidearm's d4 damage: 2 + 1
    rolls = [e.data for e in game.events if e.kind == "attack_roll"]
    assert [(r["step"], r["value"]) for r in rolls] == [("accuracy", 4), ("vitality", 3)]


def test_no_opportunity_on_airborne_units_or_reactive_shields_nor_in_the_first_turn():
    """Light Airborne: "airborne units negate all Attacks Of Opportunity imposed on them"; Reactive Shield:
    "Negate all ... Attacks Of Opportunity targeting this unit"; First Turn: no attacks at all."""
    sheets = {**SHEETS, "flyer": {"template": "light-airborne/private", "weapons": []},
              "shielded": {"template": "light-infantry/lieutenant", "weapons": [],
                           "modifications": {"reactive-shield": 1}}}
    for sheet in ("flyer", "shielded"):
        game = ready(scene([{**MOVER, "sheet": sheet}, watcher()], sheets=sheets), rounds_skipped=1)
        game.apply(Move("b1", 90, 7))
        assert not asked(game), sheet
    game = ready(scene([MOVER, watcher()]))          # round 1
    game.apply(Move("b1", 90, 7))
    assert not asked(game)


def test_threat_bonus_adds_to_the_opportunity_rolls():
    """Light Infantry Brigadier General: "15cm + 1": "this additional number is added to the damage die of an
    Attack Of Opportunity Roll ... Adding 1 to the accuracy and damage results"."""
    sheets = {**SHEETS, "general": {"template": "light-infantry/brigadier-general", "weapons": ["Sidearm"]}}
    game = game_with(watcher(sheet="general", at=(10, 40)), sheets=sheets)
    game.apply(Move("b1", 90, 9))
    answer(game, True)
    answer(game, 2)                                   # the Sidearm's d4: 2 + 1
    roll = next(e for e in reversed(game.events) if e.kind == "attack_roll")
    assert roll.data["value"] == 3


@pytest.mark.parametrize("mods, damage_sides", [({}, 4), ({"reactive-up": 1}, 6)])
def test_reactive_armor_counter_attacks_on_an_armor_penetration_failure(mods, damage_sides):
    """Reactive Armor: "When an enemy projectile makes an Armor Penetration failure against this unit:
    counter-attack the attacker with a d4 damage projectile with an accuracy of d4"; the attacker so hit
    loses its Final Movement Step ("a movement penalty this turn as result of a counter-attack").
    Reactive Up: "Increase the size of the Damage Dice when using a counter-attack initiated by Reactive Armor"
    (the next size after d4 in "Die Sizes In Ascending Order": d6)."""
    sheets = {**SHEETS, "reactive": {"template": "light-infantry/lieutenant", "weapons": ["Ranged Weapon"],
                                     "modifications": {"reactive-armor": 1, **mods}}}
    units = [{"id": "b1", "side": "blue", "sheet": "lieutenant", "position": [10, 10], "facing": 0},
             {"id": "r1", "side": "red", "sheet": "reactive", "position": [40, 10], "facing": 180}]
    game = ready(scene(units, sheets=sheets), rounds_skipped=1)
    game.apply(Attack("b1", "r1", "Rifle"))
    answer(game, 8)              # accuracy: the d8 Evasion cannot win
    answer(game, 4)              # damage 4 against the d4 shield: no roll
    answer(game, 2)              # damage 2 against the armor d6
    answer(game, 6)              # the armor holds: an Armor Penetration failure
    counter = next(e for e in reversed(game.events) if e.kind == "attack")
    assert counter.data == {**counter.data, "unit": "r1", "target": "b1", "kind": "reactive"}
    assert game.pending.side == "red" and game.pending.spec.sides == 4 and game.pending.purpose == "accuracy"
    answer(game, 4)              # d4 accuracy 4 against b1's d8 Evasion
    answer(game, 1)              # b1's evasion fails: hit
    assert game.pending.purpose == "damage" and game.pending.spec.sides == damage_sides
    assert game.pending.spec.count == 1
    answer(game, 1)              # damage 1 against b1's shield d4
    answer(game, 3)
    assert game.state.units["b1"].penalised
    game.apply(EndStep("b1")) if game.state.active == "b1" else None
    assert game.state.active != "b1"     # no Final Movement Step


def test_penetration_versus_reactive():
    """Penetration Versus Reactive: "If penetration mods ... reduce the die size of a target with the mod
    Reactive Armor ... below the minimum size of d4; then the effects of the Reactive Armor ... are negated.
    There cannot be an Armor Penetration Failure"."""
    piercer = {"name": "AP rifle", "damage": "d6", "accuracy": "d8", "range": 40, "worth": 0,
               "armor_penetration": 1}
    sheets = {**SHEETS, "ap": {"template": "light-infantry/lieutenant", "weapons": [piercer]},
              "reactive": {"template": "light-infantry/sergeant", "weapons": [],
                           "modifications": {"reactive-armor": 1}}}     # armor d4: one step takes it away
    units = [{"id": "b1", "side": "blue", "sheet": "ap", "position": [10, 10], "facing": 0},
             {"id": "r1", "side": "red", "sheet": "reactive", "position": [40, 10], "facing": 180}]
    game = ready(scene(units, sheets=sheets), rounds_skipped=1)
    game.apply(Attack("b1", "r1", "AP rifle"))
    answer(game, 8)              # accuracy: d6 evasion cannot win
    assert game.pending.purpose == "damage" and game.pending.about["step"] == "vitality"   # no Armor Step at all
    assert not any(e.kind == "attack" and e.data["kind"] == "reactive" for e in game.events)
