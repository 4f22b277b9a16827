"""Blaze of Glory, Shooting (roll under the modified S, every modifier, weapon ranges), Multiple Shots &
Ammunition, Two Pistols and Scatter Guns, on the 2.5D table."""

from __future__ import annotations

import pytest

from bow3d.rules import Illegal
from bow3d.rules.refusal import Reason
from bow3d.rulesets.blaze_of_glory import EndTurn, Move, Reload, Shoot
from bow3d.rulesets.blaze_of_glory.book import STUDS_PER_INCH
from bow3d.rulesets.blaze_of_glory.state import BlazeReason
from tests.rulesets.blaze_of_glory.helpers import asked, feed, of, start
from tests.rulesets.blaze_of_glory.table import Block

I = STUDS_PER_INCH
SHEETS = {"ace": {"level": 1, "shoot": 9, "fisticuffs": 3, "reflexes": 3, "nerve": 3, "weapons": ["pistol"]},
          "dud": {"level": 1, "shoot": 0, "fisticuffs": 3, "reflexes": 3, "nerve": 3, "weapons": ["pistol"]},
          "s4": {"level": 1, "shoot": 4, "fisticuffs": 3, "reflexes": 3, "nerve": 3, "weapons": ["pistol", "rifle"]},
          "pair": {"level": 2, "shoot": 5, "fisticuffs": 3, "reflexes": 3, "nerve": 3, "weapons": ["pistol", "pistol"]}}


def duel(distance_in: float, sheet: str = "s4", blocks=(), extra=()):
    """a (law) at (10, 20) facing b (outlaws) `distance_in` inches east; a's card on top."""
    units = [("a", "law", sheet, (10, 20)), ("b", "outlaws", "mook", (10 + distance_in * I, 20)), *extra]
    return start(units, ["a#1", "a#2"], blocks=blocks, sheets=SHEETS)


def attack(game):
    return of(game.events, "attack")[-1].data


def test_shooting_roll_equal_or_under_the_modified_s_one_always_hits_six_always_misses():
    game = duel(5)                         # S4 +1 aiming = 5 (5 inches: under half range)
    game.apply(Shoot("a", "pistol", ("b",)))
    feed(game, 5)
    assert attack(game)["value"] == 5 and attack(game)["hit"]
    game = duel(5)
    game.apply(Shoot("a", "pistol", ("b",)))
    feed(game, 6)
    assert not attack(game)["hit"]
    game = duel(5, "ace")                  # S 10: a 6 still misses
    game.apply(Shoot("a", "pistol", ("b",)))
    feed(game, 6)
    assert attack(game)["value"] == 10 and not attack(game)["hit"]
    game = duel(8, "dud")                  # S 0 +1 -1 = 0: a 1 still hits
    game.apply(Shoot("a", "pistol", ("b",)))
    feed(game, 1)
    assert attack(game)["value"] == 0 and attack(game)["hit"]


def _value(game, action):
    game.apply(action)
    feed(game, 6)
    return attack(game)["value"], attack(game)["modifiers"]


def test_shooting_modifiers_aiming_point_blank_half_range():
    """+1 aiming (did not move), +1 point blank (< 3 inches), -1 over half range (a pistol: 6 inches)."""
    assert _value(duel(5), Shoot("a", "pistol", ("b",))) == (5, ["+1 aiming"])
    assert _value(duel(2.9), Shoot("a", "pistol", ("b",))) == (6, ["+1 aiming", "+1 point blank"])
    assert _value(duel(3.1), Shoot("a", "pistol", ("b",)))[0] == 5
    assert _value(duel(6.5), Shoot("a", "pistol", ("b",))) == (4, ["+1 aiming", "-1 over half range"])
    assert _value(duel(15), Shoot("a", "rifle", ("b",)))[0] == 5      # a rifle's half range is 15 inches
    game = duel(5)
    game.apply(Move("a", ((11, 20),)))
    assert _value(game, Shoot("a", "pistol", ("b",))) == (4, [])      # moved: no aiming


def test_shooting_modifiers_partial_and_full_cover_from_the_table():
    """-1 partial cover (a crate, a low wall), -2 full cover (through a window)."""
    crate = Block(10 + 5 * I - 2.5, 18, 10 + 5 * I - 1.5, 22, 48.0)
    value, mods = _value(duel(5, blocks=[crate]), Shoot("a", "pistol", ("b",)))
    assert (value, mods) == (4, ["+1 aiming", "-1 partial cover"]) and attack_cover(crate) == "partial"
    window = Block(10 + 5 * I - 2.5, 16, 10 + 5 * I - 1.5, 24, 144.0, material="stone", sill=56.0, lintel=114.0)
    value, mods = _value(duel(5, blocks=[window]), Shoot("a", "pistol", ("b",)))
    assert (value, mods) == (3, ["+1 aiming", "-2 full cover"])


def attack_cover(block):
    game = duel(5, blocks=[block])
    game.apply(Shoot("a", "pistol", ("b",)))
    feed(game, 6)
    return attack(game)["cover"]


def test_shooting_weapon_ranges_and_sight():
    """'Any figure within line of sight and the weapon's range': pistol 12, rifle 30 inches."""
    assert duel(11.9).check(Shoot("a", "pistol", ("b",))) is None
    assert "reaches 12" in duel(12.2).check(Shoot("a", "pistol", ("b",)))
    assert duel(29.5).check(Shoot("a", "rifle", ("b",))) is None
    assert duel(30.5).refusal(Shoot("a", "rifle", ("b",))).reason is Reason.TOO_FAR
    wall = Block(10 + 2 * I, 10, 10 + 2 * I + 1, 30, 144.0)
    assert duel(5, blocks=[wall]).refusal(Shoot("a", "pistol", ("b",))).reason is Reason.NOT_VISIBLE


def test_multiple_shots_pistol_three_rifle_two_minus_one_and_two():
    """'fire a pistol up to three times and a rifle twice': two shots at -1 each, three at -2 each."""
    game = duel(5)
    assert game.check(Shoot("a", "pistol", ("b",) * 4)) is not None
    assert game.check(Shoot("a", "rifle", ("b",) * 3)) is not None
    game.apply(Shoot("a", "pistol", ("b",) * 3))
    assert asked(game) == "shoot" and game.pending.spec.count == 3     # one throw, three dice
    feed(game, (6, 5, 4))
    assert [e.data["value"] for e in of(game.events, "attack")] == [3, 3, 3]     # 4 + 1 - 2
    game = duel(5)
    game.apply(Shoot("a", "rifle", ("b",) * 2))
    feed(game, (6, 5))
    assert [e.data["value"] for e in of(game.events, "attack")] == [4, 4]


def test_multiple_shots_extra_targets_within_six_inches_of_the_first():
    near = ("c", "outlaws", "mook", (10 + 5 * I, 20 + 5.5 * I))
    far = ("d", "outlaws", "mook", (10 + 5 * I, 20 - 6.5 * I))
    game = duel(5, extra=(near, far))
    assert game.check(Shoot("a", "pistol", ("b", "c"))) is None
    assert "more than 6 inches" in game.check(Shoot("a", "pistol", ("b", "d")))


def test_ammunition_doubles_empty_the_gun_and_reloading_takes_the_turn():
    """'If the player rolls any doubles whilst shooting multiple shots then his weapon runs out of ammo ...
    He must spend a turn reloading the weapon, and nothing else'; one shot a go never runs out."""
    game = duel(5)
    game.apply(Shoot("a", "pistol", ("b",) * 2))
    events = feed(game, (6, 6))
    assert of(events, "out_of_ammo") and "pistol" in game.state.figures["a"].empty
    game.apply(EndTurn("a"))
    assert game.refusal(Shoot("a", "pistol", ("b",))).reason is BlazeReason.OUT_OF_AMMO
    assert game.check(Shoot("a", "rifle", ("b",))) is None             # his other gun still fires
    game.apply(Move("a", ((11, 20),)))
    assert game.check(Reload("a", "pistol")) is not None               # not after moving
    game = duel(5)
    game.apply(Shoot("a", "pistol", ("b",) * 2))
    feed(game, (6, 6))
    game.apply(EndTurn("a"))
    game.apply(Reload("a", "pistol"))
    assert "pistol" not in game.state.figures["a"].empty and game.state.turn.unit != "a"   # and nothing else
    game = duel(5)
    game.apply(Shoot("a", "pistol", ("b",) * 2))
    feed(game, (6, 5))
    assert not game.state.figures["a"].empty                          # no double, no trouble
    game = duel(5)
    game.apply(Shoot("a", "pistol", ("b",)))
    feed(game, 6)
    assert not game.state.figures["a"].empty


def test_ammunition_a_hero_point_reloads_in_the_same_turn():
    """'reload in the same turn his gun is emptied': a Hero test, the point spent either way."""
    game = duel(5)
    game.apply(Shoot("a", "pistol", ("b",) * 2))
    feed(game, (6, 6))
    hero = game.state.figures["a"].hero
    game.apply(Reload("a", "pistol", hero=True))
    events = feed(game, 1)
    assert of(events, "reloaded") and not game.state.figures["a"].empty and game.state.figures["a"].hero == hero - 1


def test_two_pistols_split_s_then_the_other_modifiers():
    """'use half of his S skill for each hand ... S5 he may use both pistols one at S3 and one at S2. Other
    modifiers are added after the S value has been split'; one shot from each: no double runs them dry."""
    game = duel(5, "pair")
    game.apply(Shoot("a", "pistols", ("b", "b")))
    feed(game, (6, 6))
    assert [e.data["value"] for e in of(game.events, "attack")] == [4, 3]   # 3 and 2, +1 aiming each
    assert not game.state.figures["a"].empty
    assert duel(5, "s4").check(Shoot("a", "pistols", ("b", "b"))) is not None   # one pistol only


SHOTGUN = {"gun12": {"level": 1, "shoot": 4, "fisticuffs": 3, "reflexes": 3, "nerve": 3, "weapons": ["shotgun"]}}


def test_scatter_guns_the_template_hits_everyone_under_it():
    """'a conical shape approximately 8 inches long and 2.5 inches wide at the end ... Everything under the
    template can be shot at the same time': the enemy, the friend in front of him, not the one aside. 7 inches
    out the cone is 2.5 * 7 / 8 = 2.19 inches wide: a figure 1 inch off its axis is under it, one 1.4 inches off
    is not."""
    units = [("a", "law", "gun12", (10, 20)), ("b", "outlaws", "mook", (10 + 6 * I, 20)),
             ("friend", "law", "mook", (10 + 3 * I, 20.5)), ("aside", "outlaws", "mook", (10 + 6 * I, 20 + 3 * I)),
             ("edge", "outlaws", "mook", (10 + 7 * I, 20 + 1.0 * I)),
             ("wide", "outlaws", "mook", (10 + 7 * I, 20 - 1.4 * I))]
    game = start(units, ["a#1"], sheets=SHOTGUN)
    assert game.check(Shoot("a", "shotgun", ("aside",))) is None          # it may be aimed there instead
    game.apply(Shoot("a", "shotgun", ("b",)))
    shots = of(game.events, "shots")[-1].data
    assert shots["template"] and sorted(shots["targets"]) == ["b", "edge", "friend"]
    assert shots["values"] == [4, 4, 4]       # no aiming bonus, no range modifier
    feed(game, (6, 1, 6))
    assert asked(game) == "wound"
    assert [e.data["target"] for e in of(game.events, "attack")] == ["friend", "b"]    # nearest first
    far = start([("a", "law", "gun12", (10, 20)), ("b", "outlaws", "mook", (10 + 8.5 * I, 20))], ["a#1"],
                sheets=SHOTGUN)
    assert "8-inch template" in far.check(Shoot("a", "shotgun", ("b",)))


def test_scatter_guns_count_all_cover_as_partial_and_wound_at_minus_one():
    window = Block(10 + 5 * I - 2.5, 16, 10 + 5 * I - 1.5, 24, 144.0, material="stone", sill=56.0, lintel=114.0)
    game = start([("a", "law", "gun12", (10, 20)), ("b", "outlaws", "mook", (10 + 5 * I, 20))], ["a#1"],
                 blocks=[window], sheets=SHOTGUN)
    game.apply(Shoot("a", "shotgun", ("b",)))
    feed(game, 1)
    shot = attack(game)
    assert shot["cover"] == "full" and shot["value"] == 3 and shot["modifiers"] == [
        "-1 cover (a scatter gun counts all cover as partial)"]
    events = feed(game, 3)
    assert of(events, "wound_roll")[0].data["modifier"] == -1


@pytest.mark.parametrize("shots", [1, 2])
def test_shooting_stood_up_this_turn_minus_one_and_no_multiple_shots(shots):
    """'-1 stood up this turn NB can't use multiple shots either'."""
    game = duel(5)
    game.apply(Shoot("a", "pistol", ("b",)))
    feed(game, 1, 5)                         # a hit, a 5: knocked down (no Nerve test to get up)
    assert game.state.figures["b"].status == "knocked_down"
    game.apply(EndTurn("a"))
    game.apply(EndTurn("a"))
    while game.state.turn.unit != "b":
        game.apply(EndTurn(game.state.turn.unit))
    assert game.state.turn.stood_up and game.state.figures["b"].status == "standing"
    action = Shoot("b", "pistol", ("a",) * shots)
    if shots > 1:
        with pytest.raises(Illegal):
            game.apply(action)
        return
    game.apply(action)
    feed(game, 6)
    assert attack(game)["modifiers"] == ["-1 stood up this turn"] and attack(game)["value"] == 2
