"""BOW 1.3 §2.1 Brick Roll: n 2x2 bricks, each on its edge with probability p; rolls enter as records."""

from __future__ import annotations

import pytest

from bow3d.rules import Game, Illegal, Reason
from bow3d.rules.flat import FlatGeometry
from bow3d.rulesets.bow import BrickRoll, Move, action_from_record

UNITS = [("b1", "blue", "trooper", (10.5, 10.5), 0), ("r1", "red", "trooper", (20.5, 10.5), 180)]


def test_s2_1_default_edge_probability_is_the_authors_count(rules):
    """BOW 1.3 §2.1: p defaults to 0.262 (262 of 1,000 throws on edge) and is a ruleset parameter."""
    assert rules.game(UNITS).ctx.p == pytest.approx(0.262)
    assert rules.game(UNITS, brick_edge_probability=0.3).ctx.p == pytest.approx(0.3)


@pytest.mark.parametrize("roll, reason", [
    (BrickRoll("red", 6, 2), Reason.WRONG_ROLL),      # blue rolls first
    (BrickRoll("blue", 5, 2), Reason.WRONG_ROLL),     # 6 bricks asked
    (BrickRoll("blue", 6, 7), Reason.WRONG_ROLL),     # more edges than bricks
    (BrickRoll("blue", 6, -1), Reason.WRONG_ROLL),
])
def test_s2_1_roll_must_match_the_request(rules, roll, reason):
    """BOW 1.3 §2.1: a roll is n bricks of which 0..n land on edge; only the awaited roll is accepted,
    and a refused one leaves the game unchanged."""
    game = rules.game(UNITS, starter=None)
    before = (game.pending_roll, len(game.records), game.state.start_rolls.copy())
    with pytest.raises(Illegal) as error:
        game.apply(roll)
    assert error.value.reason is reason
    assert (game.pending_roll, len(game.records), game.state.start_rolls) == before


def test_s2_1_actions_wait_for_the_pending_roll(rules):
    """BOW 1.3 §2.1: while a roll is pending, no action is legal."""
    game = rules.game(UNITS, starter=None)
    assert game.legal_actions() == []
    assert game.refusal(Move("b1", (11, 10), 0)).reason is Reason.ROLL_PENDING


def test_s2_1_roll_without_request_is_refused(rules):
    """BOW 1.3 §2.1: rolls happen only when an action asks for them."""
    game = rules.game(UNITS)
    assert game.refusal(BrickRoll("blue", 1, 0)).reason is Reason.NO_ROLL_PENDING


def test_s2_1_rolls_are_records(rules):
    """BOW 1.3 §2.1: rolls come from outside and are recorded like actions (type 'roll')."""
    roll = BrickRoll("blue", 6, 2)
    assert roll.to_record() == {"type": "roll", "side": "blue", "spec": {"kind": "bricks", "n": 6, "p": 0.262},
                                "outcome": 2}
    assert action_from_record(roll.to_record()) == roll
    scene = rules.scene(UNITS)
    game = Game.start(scene, FlatGeometry.from_scene(scene))
    game.apply(roll)
    assert game.records == [roll.to_record()]


def test_s2_1_numpy_roll_results_become_plain_ints():
    """BOW 1.3 §2.1: rolls drawn with a numpy Generator are recorded as plain JSON numbers."""
    import json

    import numpy as np
    roll = BrickRoll("blue", np.int64(6), np.int64(2))
    assert type(roll.outcome) is int and type(roll.spec.n) is int and json.dumps(roll.to_record())
