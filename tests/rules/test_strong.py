"""`strong` (issue 21): the AI's best options searched to the end of the unit's turn over the exact
chance of every throw (BOW §2.1), on the engine's check-then-apply and pop(). Flat geometry."""

from __future__ import annotations

import numpy as np

from bow3d.rules import Game
from bow3d.rules.flat import FlatGeometry
from bow3d.rulesets import BOW
from bow3d.rulesets.bow import Attack
from bow3d.rulesets.bow.strong import STRONG_VERSION, StrongPlayer
from tests.rules.test_ai import blue_to_play
from tests.rules.test_ai_opponent import scene_of

DUEL = """\
  - {id: blue-1, side: blue, sheet: rifleman, model: fig.ldr, position: [10.5, 10.5], facing: 0}
  - {id: blue-2, side: blue, sheet: knight, model: fig.ldr, position: [10.5, 16.5], facing: 0}
  - {id: red-1, side: red, sheet: rifleman, model: fig.ldr, position: [22.5, 10.5], facing: 180}
  - {id: red-2, side: red, sheet: rifleman, model: fig.ldr, position: [24.5, 16.5], facing: 180}
"""


def test_bow_2_1_the_search_weighs_every_throw_and_leaves_the_game_as_it_came():
    """Every outcome of every throw is played and taken back (Game.pop): the state, the records and
    the geometry are as before the decision; the choice is one the rules accept."""
    scene = scene_of(DUEL)
    game = Game.start(scene, FlatGeometry.from_scene(scene, width=40, depth=30))
    blue_to_play(game)
    before = (game.state.copy(), list(game.records), dict(game.geometry.positions))
    action = StrongPlayer("blue", np.random.default_rng(0), budget_s=5.0).choose(game)
    assert game.refusal(action) is None
    assert (game.state, game.records, game.geometry.positions) == before


def test_bow_2_4_2_in_range_it_shoots_and_a_spent_budget_still_gives_an_answer():
    """With a rifleman in range the search fires; with no time at all it still answers (the AI's
    best option, searched or not) and the answer is legal."""
    scene = scene_of(DUEL)
    for budget in (5.0, 0.0):
        game = Game.start(scene, FlatGeometry.from_scene(scene, width=40, depth=30))
        blue_to_play(game)
        action = StrongPlayer("blue", np.random.default_rng(0), budget_s=budget).choose(game)
        assert game.refusal(action) is None, action
    assert isinstance(StrongPlayer("blue", np.random.default_rng(0), budget_s=5.0).choose(game), Attack)


def test_strong_is_named_and_its_replays_are_checked_for_legality_only():
    """It decides under a time budget: the same seed may give other choices on a busier machine, so
    replay verify checks its records for legality and says so, rather than re-deriving them."""
    assert BOW.opponents()["strong"] == STRONG_VERSION
    assert not BOW.is_reproducible(STRONG_VERSION)
    assert BOW.is_reproducible(BOW.opponents()["greedy"]) and BOW.is_reproducible(BOW.ai_version)
    assert BOW.is_reproducible("bow-ai-1")
