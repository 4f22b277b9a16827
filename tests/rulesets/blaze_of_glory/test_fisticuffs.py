"""Blaze of Glory, Fisticuffs: strike order, the F test and the fisticuffs table (+1 with no close combat
weapon), no fighting back off one's feet, unconsciousness, headlocks, the fight going on at the next
card, pulling out, wounded figures and the Goody's scruples, several figures in one fight."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bow3d.rules import Illegal
from bow3d.rulesets.blaze_of_glory import Disengage, EndTurn, Fight, FightOn, Finish, Move, Run, RunMove
from bow3d.rulesets.blaze_of_glory.state import BlazeReason
from tests.rulesets.blaze_of_glory.helpers import asked, feed, of, start

SHEETS = {
    "fists": {"level": 1, "shoot": 3, "fisticuffs": 4, "reflexes": 3, "nerve": 3, "weapons": ["pistol"]},
    "knife": {"level": 1, "shoot": 3, "fisticuffs": 4, "reflexes": 3, "nerve": 3, "weapons": ["knife"]},
    "quick": {"level": 1, "shoot": 3, "fisticuffs": 3, "reflexes": 5, "nerve": 3, "weapons": ["pistol"]},
    "nohero": {"level": 1, "shoot": 3, "fisticuffs": 3, "reflexes": 3, "nerve": 3, "weapons": ["pistol"]},
}


def brawl(a="knife", b="fists", first=("a#1",), extra=(), blocks=()):
    units = [("a", "law", a, (20, 20)), ("b", "outlaws", b, (22, 20)), *extra]
    return start(units, list(first), sheets=SHEETS, blocks=blocks)


def strikers(game):
    return [e.data["unit"] for e in of(game.events, "test") if e.data["purpose"] == "strike"]


def test_fisticuffs_contact_needed():
    game = start([("a", "law", "knife", (20, 20)), ("b", "outlaws", "fists", (26, 20))], ["a#1"], sheets=SHEETS)
    assert "not in contact" in game.check(Fight("a", "b"))


def test_fisticuffs_highest_r_swings_first_the_active_figure_on_equal_r():
    """'Compare figures R, the highest gets to take a swing first. If the R is the same the ACTIVE figure
    goes first'."""
    game = brawl(a="knife", b="quick")
    game.apply(Fight("a", "b"))
    assert asked(game) == "strike" and game.pending.about["unit"] == "b"   # R5 before R3, though a is active
    game = brawl(a="knife", b="fists")
    game.apply(Fight("a", "b"))
    assert game.pending.about["unit"] == "a"


def test_fisticuffs_f_test_then_the_table_plus_one_without_a_close_combat_weapon():
    """'Make a fisticuffs roll ... If successful roll on the wound table, if the figure is not equipped with
    a specific close combat weapon add one to the dice roll' (the knife: no bonus)."""
    game = brawl(a="knife", b="fists")
    game.apply(Fight("a", "b"))
    events = feed(game, 4, 6)              # a: F4 passed; wound 6: no effect; then b strikes back
    assert of(events, "wound_roll")[0].data["modifier"] == 0
    events = feed(game, 5)                 # b: F4, a 5 fails
    assert not of(events, "test")[-1].data["passed"]
    game = brawl(a="fists", b="knife")
    game.apply(Fight("a", "b"))
    events = feed(game, 2, 4)              # no weapon: 4 + 1 = 5, a headlock
    roll = of(events, "wound_roll")[0].data
    assert (roll["modifier"], roll["result"]) == (1, "headlock")


def test_fisticuffs_knocked_off_his_feet_no_fighting_back():
    """'If the first figure fails to knock down his opponent the other figure can attempt to strike back. If
    a figure is knocked off his feet he cannot fight back that turn'."""
    game = brawl()
    game.apply(Fight("a", "b"))
    feed(game, 1, 4)                        # a knocks b down (a 4 with a knife: knock down, N test)
    assert game.state.figures["b"].status == "knocked_down" and strikers(game) == ["a"]
    assert of(game.events, "no_fight_back")[0].data["unit"] == "b"
    game = brawl()
    game.apply(Fight("a", "b"))
    feed(game, 1, 6)                        # no effect: b strikes back
    assert asked(game) == "strike" and game.pending.about["unit"] == "b"


def test_fisticuffs_out_of_action_may_be_only_unconscious():
    """'if it goes OUT OF ACTION roll a d6: 1-2 he is only unconscious ... 3-6 remove the figure'."""
    for die, state in ((2, "unconscious"), (3, "out_of_action")):
        game = brawl(b="nohero")
        game.apply(Fight("a", "b"))
        feed(game, 1, 1)                    # a hit, a 1: out of action ...
        feed(game, False)                   # ... b keeps his Hero Points
        assert asked(game) == "unconscious"
        feed(game, die)
        assert game.state.figures["b"].status == state


def test_fisticuffs_headlock_r_test_or_no_fight_back():
    game = brawl(a="fists", b="knife")
    game.apply(Fight("a", "b"))
    feed(game, 1, 4)                        # 4 + 1 = 5: headlock
    assert of(game.events, "headlock") and asked(game) == "headlock"
    feed(game, 6, False)                    # b fails his R test: no fight back
    assert strikers(game) == ["a"] and of(game.events, "no_fight_back")


def test_fisticuffs_the_fight_goes_on_at_the_next_card():
    """'the two figures stay in combat until the next time either of their cards are turned ... the player
    must decide to continue the fight or not'."""
    game = brawl(first=("a#1", "b#1"))
    game.apply(Fight("a", "b"))
    feed(game, 6, 6)                        # both miss
    assert game.state.figures["a"].engaged == ("b",) and game.state.turn.unit == "b"
    assert game.state.turn.phase == "engaged"
    assert game.refusal(Move("b", ((23, 20),))).reason is BlazeReason.WRONG_PHASE
    with pytest.raises(Illegal):
        game.apply(EndTurn("b"))
    game.apply(FightOn("b"))
    assert asked(game) == "strike" and game.pending.about["unit"] == "b"    # equal R: the active one first


def test_fisticuffs_pulling_out_succeeds_moving_away_and_running():
    """'If this succeeds then the figure may move away from combat and must run as well ... in the figures
    rear arc. He cannot try to move past the opponent. After running away ... nothing further'."""
    game = brawl(first=("a#1", "b#1"))
    game.apply(Fight("a", "b"))
    feed(game, 6, 6)
    game.apply(Disengage("b"))
    feed(game, 2)                           # b's R 3: passed
    assert game.state.turn.phase == "breaking" and not game.state.figures["b"].engaged
    assert game.check(Move("b", ((20, 24),))) is not None     # towards a: no
    game.apply(Move("b", ((26, 20),)))
    with pytest.raises(Illegal):
        game.apply(EndTurn("b"))           # he must run as well
    game.apply(Run("b"))
    feed(game, 2)
    game.apply(RunMove("b", ((29, 20),)))
    assert game.state.turn.unit != "b" or game.state.turn.card != "b#1"


def test_fisticuffs_pulling_out_fails_a_free_roll_then_an_attack():
    """'If the R roll fails the opponent gets a free unmodified roll on the Wound table, and then may make
    his own Fisticuffs attack'."""
    game = brawl(a="fists", b="fists", first=("a#1", "b#1"))
    game.apply(Fight("a", "b"))
    feed(game, 6, 6)
    game.apply(Disengage("b"))
    feed(game, 6, False)                    # failed
    assert asked(game) == "wound" and game.pending.about["unit"] == "a"
    events = feed(game, 4)                  # free and unmodified: 4 is a knock down, no +1 for his fists
    roll = of(events, "wound_roll")[0].data
    assert (roll["modifier"], roll["result"]) == (0, "knocked_down")
    assert asked(game) == "strike" and game.pending.about["unit"] == "a"


def test_fisticuffs_knocked_down_last_plus_one_to_hit_minus_one_to_wound_stands_at_minus_one():
    """'If one figure is Knocked down then he will go last ... A figure attacking a Knocked down figure gets
    +1 to his F skill ... may also modify a wound roll by -1. If the figure on the floor survives the attack
    he may stand up, but will fight at -1 to his F skill for that turn'."""
    game = brawl(a="knife", b="quick", first=("a#1", "b#1"))
    game.apply(Fight("a", "b"))
    feed(game, 6, 1, 4)                     # b (R5) misses; a hits: 4, knocked down (no N test)
    assert game.state.figures["b"].status == "knocked_down"
    game.apply(FightOn("b"))
    assert game.pending.about["unit"] == "a"                      # b, on the floor, goes last despite R5
    events = feed(game, 5)                                         # a: F4 + 1 = 5
    assert of(events, "test")[0].data["value"] == 5
    events = feed(game, 6)                                         # wound at -1, but a 6 is a 6
    assert of(events, "wound_roll")[0].data["modifier"] == -1
    assert of(game.events, "stood_up") and game.pending.about["unit"] == "b"
    feed(game, 3)
    assert of(game.events, "test")[-1].data["value"] == 2         # F3 - 1 after standing up


def test_fisticuffs_wounded_figures_goodies_and_baddies():
    """'a Goody figure would not assault a wounded figure ... A Baddy can assault a wounded figure to take him
    Out of Action ... he must give up his whole turn ... a Goody may attack a wounded figure, but must give
    up a Hero Point'."""
    for side_a, side_b, hero_lost in (("outlaws", "law", False), ("law", "outlaws", True)):
        units = [("a", side_a, "knife", (20, 20)), ("b", side_b, "fists", (22, 20)),
                 ("c", side_b, "fists", (60, 60)), ("d", side_a, "fists", (90, 90))]
        game = start(units, ["a#1"], sheets=SHEETS)
        game.state.figures["b"] = replace(game.state.figures["b"], status="wounded")
        assert "Goody would not" in game.check(Fight("a", "b"))
        hero = game.state.figures["a"].hero
        game.apply(Finish("a", "b"))
        assert game.state.figures["b"].status == "out_of_action"
        assert game.state.figures["a"].hero == hero - (1 if hero_lost else 0)
    units = [("a", "law", "knife", (20, 20)), ("b", "outlaws", "fists", (22, 20)), ("c", "outlaws", "fists", (60, 60))]
    game = start(units, ["a#1"], sheets=SHEETS)
    game.state.figures["b"] = replace(game.state.figures["b"], status="wounded")
    game.state.figures["a"] = replace(game.state.figures["a"], hero=0)
    assert "Hero Point" in game.check(Finish("a", "b"))


def test_fisticuffs_everyone_in_the_fight_strikes_and_the_outnumbered_chooses():
    """'In cases of multiple combats all figures fight each time any of them are activated ... The out
    numbered figure may choose which enemy he wishes to strike'."""
    units = [("a", "law", "knife", (20, 20)), ("b", "outlaws", "fists", (22, 20)), ("c", "outlaws", "quick", (20, 22))]
    game = start(units, ["c#1", "b#1"], sheets=SHEETS)
    game.apply(Fight("c", "a"))
    feed(game, 6, 6)                        # c (R5) misses; a misses
    game.apply(Fight("b", "a"))             # b joins: one fight of three
    assert game.pending.about["unit"] == "c"  # R order: c, then b (active on equal R), then a
    feed(game, 6)
    feed(game, 6)
    assert asked(game) == "fist_target" and sorted(game.pending.options) == ["b", "c"]
    feed(game, "c", 6)
    assert strikers(game) == ["c", "a", "c", "b", "a"]
