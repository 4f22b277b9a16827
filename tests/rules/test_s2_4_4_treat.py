"""BOW 1.3 §2.4.4 Treat/Repair actions."""

from __future__ import annotations

import pytest

from bow3d.rules import Reason
from bow3d.rulesets.bow import Treat
from bow3d.rulesets.bow.combat import damage_unit, damage_vehicle

R_FAR = ("r9", "red", "trooper", (50.5, 50.5), 0)


def _wounded(rules, medic_sheet="medic", patient_sheet="hero", damage=2, **kwargs):
    game = rules.game([("m", "blue", medic_sheet, (10.5, 10.5), 0), ("p", "blue", patient_sheet, (11.5, 10.5), 0),
                       ("far", "blue", "hero", (30.5, 30.5), 0), R_FAR], **kwargs)
    damage_unit(game, "p", damage)
    damage_unit(game, "far", 1)
    return game


def test_s2_4_4_opponent_rolls_the_damage_points(rules):
    """BOW 1.3 §2.4.4: the treater rolls its Treat bricks, an opponent rolls as many bricks as the
    target's damage points (not its HP)."""
    game = _wounded(rules)
    game.apply(Treat("m", "p"))
    assert (game.pending_roll.side, game.pending_roll.spec.n) == ("blue", 2)
    rules.roll(game, 2)
    assert (game.pending_roll.side, game.pending_roll.spec.n) == ("red", 2)


@pytest.mark.parametrize("treat, resist, left, difference", [(2, 1, 1, False), (1, 1, 2, False), (0, 0, 2, False),
                                                            (2, 0, 0, True), (2, 1, 1, True)])
def test_s2_4_4_success_removes_one_point_or_the_difference(rules, treat, resist, left, difference):
    """BOW 1.3 §2.4.4: treat > resist removes 1 damage point; optional rule: the difference."""
    game = _wounded(rules, treat_removes_difference=difference)
    game.apply(Treat("m", "p"))
    rules.roll(game, treat, resist)
    assert game.state.units["p"].damage == left


def test_s2_4_4_colour_must_match(rules):
    """BOW 1.3 §2.4.4: red Treat heals red HP (life forms); yellow Repair fixes yellow HP (machines)."""
    game = _wounded(rules, medic_sheet="mechanic")
    assert game.refusal(Treat("m", "p")).reason is Reason.NOT_ALLOWED
    droid = {"droid": {"kind": "minifig", "hp": 2, "hp_colour": "yellow"}}
    game = _wounded(rules, medic_sheet="mechanic", patient_sheet="droid", damage=1, sheets=droid)
    assert game.check(Treat("m", "p")) is None


def test_s2_4_4_not_oneself_contact_and_wounded_only(rules):
    """BOW 1.3 §2.4.4: never oneself, in contact, only damaged units; the dead cannot be treated."""
    game = _wounded(rules, medic_sheet="hero", patient_sheet="hero")   # the hero treats (red, 2)
    damage_unit(game, "m", 1)
    assert game.refusal(Treat("m", "m")).reason is Reason.NOT_ALLOWED
    assert game.refusal(Treat("m", "far")).reason is Reason.OUT_OF_REACH
    fresh = rules.game([("m", "blue", "medic", (10.5, 10.5), 0), ("p", "blue", "hero", (11.5, 10.5), 0), R_FAR])
    assert fresh.refusal(Treat("m", "p")).reason is Reason.BAD_TARGET
    damage_unit(fresh, "p", 3)
    assert fresh.refusal(Treat("m", "p")).reason is Reason.BAD_TARGET
    nobody = rules.game([("t", "blue", "trooper", (10.5, 10.5), 0), ("p", "blue", "hero", (11.5, 10.5), 0), R_FAR])
    damage_unit(nobody, "p", 1)
    assert nobody.refusal(Treat("t", "p")).reason is Reason.NOT_ALLOWED       # Treat ability 0


def test_s2_4_4_repair_a_vehicle(rules):
    """BOW 1.3 §2.4.4 and §3.5: a mechanic repairs a damaged vehicle (yellow HP)."""
    game = rules.game([("m", "blue", "mechanic", (10.5, 10.5), 0), R_FAR], [("bj", "blue", "jeep", (14, 10.5), 0, 0)])
    damage_vehicle(game, "bj", 1)
    game.apply(Treat("m", "bj"))
    rules.roll(game, 2, 0)
    assert game.state.vehicles["bj"].damage == 0
