"""Blaze of Glory, Activation & Movement: cards by level, a shuffled deck recorded once a round, the Active
figure moves then takes one action, 4-inch moves measured exactly, free obstacles up to an inch,
running on a d6."""

from __future__ import annotations

import math

import pytest

from bow3d.rules import Illegal
from bow3d.rules.chance import Shuffle
from bow3d.rulesets.blaze_of_glory import EndTurn, Move, Run, RunMove, Shoot
from bow3d.rulesets.blaze_of_glory.book import STUDS_PER_INCH
from bow3d.rulesets.blaze_of_glory.state import BlazeReason
from tests.rulesets.blaze_of_glory.helpers import arrange, asked, feed, kinds, make, of, start
from tests.rulesets.blaze_of_glory.table import Block

LEVELS = {f"l{n}": {"level": n, "shoot": 3, "fisticuffs": 3, "reflexes": 3, "nerve": 3, "weapons": ["pistol"]}
          for n in (1, 2, 3, 4)}


def test_activation_cards_by_level():
    """'Character Level / Number of cards': 1 or 2 -> 2, 3 -> 3, 4 -> 4; the deck holds every card."""
    game = make([(f"f{n}", "law" if n % 2 else "outlaws", f"l{n}", (10 * n, 10)) for n in (1, 2, 3, 4)],
                sheets=LEVELS)
    spec = game.pending.spec
    assert isinstance(spec, Shuffle)
    cards = sorted(spec.cards)
    assert cards == sorted(["f1#1", "f1#2", "f2#1", "f2#2", "f3#1", "f3#2", "f3#3", "f4#1", "f4#2", "f4#3", "f4#4"])


def test_activation_the_turned_card_makes_its_figure_active_several_times_a_round():
    """'The top card is turned and the player controlling the figure indicated takes his turn'; the deck
    is shuffled once a round and recorded; a figure with two cards is active twice."""
    game = make([("a", "law", "gun", (10, 10)), ("b", "outlaws", "gun", (60, 60))])
    order = arrange(game, ["a#1", "a#2", "b#1"])
    assert [r["type"] for r in game.records] == ["roll"] and game.records[0]["spec"]["kind"] == "shuffle"
    assert game.state.deck == order and game.state.turn.unit == "a" and game.side_to_play == "law"
    game.apply(EndTurn("a"))
    assert game.state.turn.unit == "a" and game.state.drawn == 2      # his second card
    with pytest.raises(Illegal) as error:
        game.apply(EndTurn("b"))
    assert error.value.reason is BlazeReason.NOT_ACTIVE
    game.apply(EndTurn("a"))
    assert game.state.turn.unit == "b"
    game.apply(EndTurn("b"))
    game.apply(EndTurn("b"))   # the deck is out: a new round, a new shuffle
    assert game.state.round == 2 and isinstance(game.pending.spec, Shuffle)


def test_activation_a_turn_is_a_move_then_one_action():
    """'A turn consists of moving then carrying out an action': after the shot, no move and no second shot."""
    game = start([("a", "law", "gun", (10, 10)), ("b", "outlaws", "gun", (30, 10))], ["a#1"])
    game.apply(Shoot("a", "pistol", ("b",)))
    feed(game, 6)  # a miss
    with pytest.raises(Illegal) as error:
        game.apply(Move("a", ((12, 10),)))
    assert error.value.reason is BlazeReason.WRONG_PHASE
    with pytest.raises(Illegal):
        game.apply(Shoot("a", "pistol", ("b",)))
    game.apply(EndTurn("a"))
    assert game.state.turn.unit != "a" or game.state.drawn > 1


def test_movement_four_inches_measured_exactly_along_the_path():
    """'all figures move 4 inches': 4 inches is 12.7 studs, diagonals and bends measured exactly (no grid)."""
    game = start([("a", "law", "gun", (20, 20)), ("b", "outlaws", "gun", (100, 100))], ["a#1"])
    reach = 4 * STUDS_PER_INCH / math.sqrt(2)
    assert game.check(Move("a", ((20 + reach - 0.01, 20 + reach - 0.01),))) is None   # 3.99 inches diagonally
    assert game.check(Move("a", ((20 + reach + 0.06, 20 + reach + 0.06),))) is not None   # 4.03 inches
    bent = Move("a", ((26.5, 20), (20.5, 20)))    # 6.5 + 6 studs = 3.94 inches, though it ends 0.16 inch away
    assert game.check(bent) is None
    too_long = Move("a", ((27, 20), (20.5, 20)))  # 7 + 6.5 studs = 4.25 inches
    assert "more than the 4.00 allowed" in game.check(too_long)
    events = game.apply(bent)
    moved = of(events, "moved")[0]
    assert moved.data["distance_in"] == pytest.approx(12.5 / STUDS_PER_INCH, abs=1e-4)
    assert game.state.figures["a"].position == (20.5, 20.0)


def test_movement_obstacles_up_to_an_inch_are_free_higher_ones_need_tests():
    """'A figure may move over obstacles up to 1 inch in height ... with no penalty. Obstacles over 1 inch
    high would require a climb test': 48 LDU (0.76 inch) is stepped over, 72 LDU (1.13 inch) asks R tests."""
    low = Block(24, 15, 26, 25, 48.0)
    game = start([("a", "law", "gun", (20, 20)), ("b", "outlaws", "gun", (100, 100))], ["a#1"], blocks=[low])
    events = game.apply(Move("a", ((30, 20),)))
    assert game.pending is None and of(events, "moved") and not of(events, "level_change")
    high = Block(24, 15, 26, 25, 72.0)
    game = start([("a", "law", "gun", (20, 20)), ("b", "outlaws", "gun", (100, 100))], ["a#1"], blocks=[high])
    events = game.apply(Move("a", ((30, 20),)))
    assert of(events, "level_change")[0].data["kind"] == "climb" and asked(game) == "climb"
    feed(game, 1)  # up ...
    assert asked(game) == "drop"
    events = feed(game, 1)  # ... and down the other side
    assert game.state.figures["a"].position == (30.0, 20.0) and of(events, "moved")


def test_movement_running_on_a_d6_after_the_move():
    """'After a figure has been moved the player may ... make a run roll ... a d6 and moves the figure the
    number of inches indicated'; 'you may shoot when running but accuracy is affected' (-1)."""
    game = start([("a", "law", "gun", (20, 20)), ("b", "outlaws", "gun", (60, 20))], ["a#1"])
    with pytest.raises(Illegal):
        game.apply(Run("a"))                       # not before moving
    game.apply(Move("a", ((25, 20),)))
    game.apply(Run("a"))
    assert asked(game) == "run"
    assert (game.pending.spec.count, game.pending.spec.sides) == (1, 6)   # "rolls a d6"
    events = feed(game, 3)
    assert of(events, "run")[0].data["inches"] == 3
    assert game.check(RunMove("a", ((25 + 3 * STUDS_PER_INCH + 0.05, 20),))) is not None
    game.apply(RunMove("a", ((25 + 3 * STUDS_PER_INCH - 0.05, 20),)))
    assert game.state.turn.ran and game.state.turn.moved_in == pytest.approx(3 + 4.95 / STUDS_PER_INCH, abs=1e-6)
    with pytest.raises(Illegal):
        game.apply(Run("a"))                       # one run roll a turn (a Hero Point buys the second)
    events = game.apply(Shoot("a", "pistol", ("b",)))
    feed(game, 6)
    attack = of(game.events, "attack")[-1]
    assert "-1 ran" in attack.data["modifiers"] and "+1 aiming" not in attack.data["modifiers"]
    assert attack.data["value"] == 4 - 1 - 1    # S4, ran, b over half range (8 inches off)
    assert "rolled" in kinds(game.events)
