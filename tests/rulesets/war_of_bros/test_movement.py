"""First Movement Step (straight segments, rotation about the Line of Sight indicator), Difficult Terrain,
what cannot be crossed, airborne units, and Mechanized units trampling and destroying cover."""

from __future__ import annotations

import math

import pytest

from bow3d.rulesets.war_of_bros import Attack, EndStep, Move, Turn, WobReason
from tests.rulesets.war_of_bros.field import Box
from tests.rulesets.war_of_bros.helpers import SHEETS, answer, ready, scene

FAR_RED = {"id": "r1", "side": "red", "sheet": "private", "position": [150, 150], "facing": 270}


def lieutenant(**extra):
    return {"id": "b1", "side": "blue", "sheet": "lieutenant", "position": [10, 10], "facing": 0, **extra}


def zone(difficulty, x0=20, x1=25):
    return {"terrain": [{"area": [[x0, 0], [x1, 0], [x1, 20], [x0, 20]], "difficulty": difficulty}]}


def test_first_movement_step_straight_up_to_the_movement_score():
    """First Movement Step: "permitted to move a number of centimeters, in straight lines, less than or equal
    to the amount listed as that unit's movement score" (the Lieutenant's 15 cm)."""
    game = ready(scene([lieutenant(), FAR_RED]), rounds_skipped=1)
    assert game.refusal(Move("b1", 0, 15.01)).reason is WobReason.NO_MOVEMENT_LEFT
    game.apply(Move("b1", 30, 10))
    unit = game.state.units["b1"]
    assert unit.facing == 30 and unit.moved_cm == pytest.approx(10)
    dx, dy = unit.position[0] - 10, unit.position[1] - 10    # straight ahead, along its new facing
    assert math.hypot(dx, dy) == pytest.approx(12.5) and math.degrees(math.atan2(dy, dx)) == pytest.approx(30)
    game.apply(Move("b1", 300, 5))                         # a second straight segment
    assert game.refusal(Move("b1", 0, 0.01)).reason is WobReason.NO_MOVEMENT_LEFT


def test_rotation_is_free_and_about_the_line_of_sight_indicator():
    """"A unit is permitted to rotate to any angle ... Rotation is made around the center point of the Light of
    Sight indicator": in the middle of an infantry base; not in the centre of a Mechanized base."""
    units = [lieutenant(), FAR_RED]
    vehicles = [{"id": "tank", "side": "blue", "sheet": "tank", "position": [40, 40], "facing": 0, "occupants": []}]
    game = ready(scene(units, vehicles), rounds_skipped=1)
    game.apply(Turn("b1", 180))
    assert game.state.units["b1"].position == (10, 10) and game.state.units["b1"].moved_cm == 0
    game.apply(EndStep("b1"))
    game.apply(EndStep("b1"))
    game.apply(Turn("tank", 180))
    x, y = game.state.units["tank"].position
    # the vertex lies half a width (3.75 studs) behind the front edge (7.5 studs ahead): 3.75 studs ahead of
    # the centre; turning about it by 180 degrees puts the centre 7.5 studs further on
    assert (x, y) == pytest.approx((47.5, 40)) and game.state.units["tank"].moved_cm == 0


@pytest.mark.parametrize("difficulty, distance, allowed, cost", [
    (2, 10.5, True, 6.5 + 8), (2, 11, True, 15), (2, 11.5, False, None),
    (3, 9, True, 6.5 + 2.5 * 3), (3, 10.5, False, None), (1, 15, True, 15)])
def test_difficult_terrain_costs_double_or_triple(difficulty, distance, allowed, cost):
    """Difficult Terrain: "Difficulty 2 terrain causes a unit to use twice the amount of movement for each
    centimeter of travel ... Difficulty 3 ... a third of its normal speed" (a marked zone 4 cm across,
    6.5 cm ahead of the front edge)."""
    game = ready(scene([lieutenant(), FAR_RED], params=zone(difficulty)), rounds_skipped=1)
    refusal = game.refusal(Move("b1", 0, distance))
    assert (refusal is None) == allowed, refusal
    if allowed:
        game.apply(Move("b1", 0, distance))
        assert game.state.units["b1"].moved_cm == pytest.approx(cost)


def test_difficult_terrain_a_heavy_infantry_body_costs_8_cm_to_cross():
    """Heavy Infantry: "a perished Heavy Infantry will be replaced by a Body Cover. Though it will 4cm by 4cm in
    size ... All Body Cover are Difficulty 2 terrain. For a Heavy Infantry body, 8cm of movement must be used to
    bypass it"."""
    sheets = {**SHEETS, "heavy": {"template": "heavy-infantry/private", "weapons": []}}
    units = [lieutenant(), {"id": "r2", "side": "red", "sheet": "heavy", "position": [20, 10], "facing": 180}, FAR_RED]
    game = ready(scene(units, sheets=sheets), rounds_skipped=1)
    game.apply(Attack("b1", "r2", "Rifle"))      # no Evasion Dice: the damage rolls only
    answer(game, 6)                              # the Shield Step: its d4 cannot beat a 6
    answer(game, 6)                              # the Vitality Step: its d4 neither
    assert not game.state.units["r2"].alive and game.state.obstacles["r2~body"].material == "body"
    game.apply(Move("b1", 0, 4.5))               # up to the Body's near edge (4.5 cm ahead of the front edge)
    assert game.state.units["b1"].moved_cm == pytest.approx(4.5)
    game.apply(Move("b1", 0, 4))                 # over its 4 cm, at difficulty 2
    assert game.state.units["b1"].moved_cm == pytest.approx(4.5 + 8)


def test_cover_above_light_cannot_be_crossed_light_cover_can_at_difficulty_2():
    """"Units cannot walk over cover of a rating higher than Light": a wooden crate stops the base; sandbags
    (light) are crossed at difficulty 2 (our reading for every light cover, as the book says of Bodies)."""
    crate = Box(20, 25, 5, 15, 0, 48, "wood")
    game = ready(scene([lieutenant(), FAR_RED]), [crate], rounds_skipped=1)
    refusal = game.refusal(Move("b1", 0, 10))
    assert refusal.reason is WobReason.BLOCKED and "medium cover (wood" in refusal.words
    sand = Box(20, 25, 5, 15, 0, 24, "sand")
    game = ready(scene([lieutenant(), FAR_RED]), [sand], rounds_skipped=1)
    game.apply(Move("b1", 0, 10.5))
    assert game.state.units["b1"].moved_cm == pytest.approx(14.5)


def test_bases_do_not_cross_other_bases_or_leave_the_battlefield():
    units = [lieutenant(), {"id": "b2", "side": "blue", "sheet": "private", "position": [20, 10]}, FAR_RED]
    game = ready(scene(units), rounds_skipped=1)
    assert "base of b2" in game.refusal(Move("b1", 0, 6)).words
    assert "off the battlefield" in game.refusal(Move("b1", 180, 8)).words
    assert game.refusal(Move("b1", 90, 8)) is None


def test_airborne_units_ignore_terrain_and_fly_over_bases():
    """Light Airborne: "Airborne units cannot experience terrain difficulty ... These units may overlap other
    units on the field"; and they fly over cover of any rating."""
    sheets = {**SHEETS, "flyer": {"template": "light-airborne/sergeant", "weapons": ["Sidearm"]}}
    crate = Box(20, 25, 5, 15, 0, 48, "stone")
    units = [{"id": "f1", "side": "blue", "sheet": "flyer", "position": [10, 10]},
             {"id": "b2", "side": "blue", "sheet": "private", "position": [30, 10]}, FAR_RED]
    game = ready(scene(units, sheets=sheets, params=zone(3, 26, 29)), [crate], rounds_skipped=1)
    game.apply(Move("f1", 0, 15))            # over the stone, over b2, through the marsh: 15 cm of 15
    assert game.state.units["f1"].moved_cm == pytest.approx(15)


def test_mechanized_units_trample_infantry_and_destroy_light_and_medium_cover():
    """Mechanized: "Mechanized units can also trample Infantry units they drive over ... a d8 weapon, with d20
    accuracy"; "If the unit perishes as the result of a trample, that unit is not replaced with a Body";
    "The Mechanized unit will also destroy any Light or Medium cover they contact"."""
    vehicles = [{"id": "tank", "side": "blue", "sheet": "tank", "position": [20, 20], "facing": 0, "occupants": []}]
    units = [{"id": "r1", "side": "red", "sheet": "private", "position": [33, 20], "facing": 180},
             {"id": "r9", "side": "red", "sheet": "private", "position": [150, 150]}]
    crates = Box(31, 33, 22, 24, 0, 48, "wood")
    game = ready(scene(units, vehicles), [crates], first="blue", rounds_skipped=1)
    game.apply(Move("tank", 0, 7))
    assert any(e.kind == "cover_destroyed" for e in game.events[-6:])
    assert game.geometry.removed_decor[1]                       # the crates are gone from the 3D world too
    assert game.pending.purpose == "accuracy" and game.pending.spec.sides == 20
    answer(game, 20)                                             # d20 accuracy: the private's d4 evasion cannot win
    assert game.pending.purpose == "damage" and game.pending.spec.sides == 8 and game.pending.spec.count == 1
    answer(game, 8)                                              # d8 damage against its d4 vitality: no save rolled
    assert not game.state.units["r1"].alive
    assert not any(key.startswith("r1") for key in game.state.obstacles)   # no Body: the cover is destroyed


def test_a_trampled_unit_that_evades_moves_6_cm_and_is_trampled_again_if_still_under():
    """Mechanized: "If the unit makes the Evasion Save successfully, the controller of that unit must
    immediately move 6cm in a chosen direction. If that unit is still under the Mechanized unit ... the attack
    will occur again"."""
    sheets = {**SHEETS, "dodger": {"template": "light-infantry/colonel", "weapons": []}}
    vehicles = [{"id": "tank", "side": "blue", "sheet": "tank", "position": [20, 20], "facing": 0, "occupants": []}]
    units = [{"id": "r1", "side": "red", "sheet": "dodger", "position": [34, 20], "facing": 180}]
    game = ready(scene(units, vehicles, sheets=sheets), first="blue", rounds_skipped=1)
    game.apply(Move("tank", 0, 7))
    answer(game, 1)                  # d20 accuracy: 1
    answer(game, 12, 12)             # the Colonel's 2d12 evasion: 12: evaded
    assert game.pending.decision == "escape" and game.pending.side == "red"
    options = game.pending.options
    assert 0 in options and 90 in options
    answer(game, 180)                # back towards the tank's middle: still under it
    assert game.pending is not None and game.pending.purpose == "accuracy"   # the trample again
    answer(game, 1)
    answer(game, 12, 3)
    answer(game, 90)                 # sideways, out from under it
    assert game.pending is None and game.state.units["r1"].alive
    assert game.state.units["r1"].position == pytest.approx((34 - 7.5, 20 + 7.5))
