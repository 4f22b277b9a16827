"""Blaze of Glory's AI plays sensibly: it stands still to aim at a target in range, closes on an enemy out of
range through cover, reloads, finishes a wounded Goody only as a Baddy, spends Hero Points on luck, and
plays whole games of the bundled town to an end."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from bow3d.rulesets.blaze_of_glory import Finish, Move, Reload, Shoot
from bow3d.rulesets.blaze_of_glory.ai import BlazePlayer
from bow3d.rulesets.blaze_of_glory.book import STUDS_PER_INCH
from tests.rulesets.blaze_of_glory.helpers import feed, start
from tests.rulesets.blaze_of_glory.table import Block

I = STUDS_PER_INCH
TOWN = Path(__file__).resolve().parents[3] / "scenes" / "western-town.yaml"


def player(side):
    return BlazePlayer(side, np.random.default_rng(0))


def test_ai_aims_at_a_target_in_range_without_moving():
    game = start([("a", "law", "gun", (10, 20)), ("b", "outlaws", "gun", (10 + 5 * I, 20))], ["a#1"])
    action = player("law").choose(game)
    assert isinstance(action, Shoot) and action.targets[0] == "b"


def test_ai_closes_on_an_enemy_out_of_range_and_takes_cover():
    """Out of range, it closes in; offered a crate a little off the straight line, it stops behind it."""
    from bow3d.rulesets.blaze_of_glory.sight import judge_cover

    units = [("a", "law", "gun", (10, 20)), ("b", "outlaws", "gun", (10 + 14 * I, 20))]
    game = start(units, ["a#1"])
    action = player("law").choose(game)
    assert isinstance(action, Move) and action.path[-1][0] > 10 + 3.9 * I and abs(action.path[-1][1] - 20) < 0.5
    crate = Block(23.2, 23.5, 24.2, 25.7, 48.0)
    game = start(units, ["a#1"], blocks=[crate])
    action = player("law").choose(game)
    game.apply(action)
    assert action.path[-1][1] > 22 and judge_cover(game.geometry.sight("b", "a")).cover == "partial"


def test_ai_reloads_an_empty_gun():
    game = start([("a", "law", "gun", (10, 20)), ("b", "outlaws", "gun", (10 + 5 * I, 20))], ["a#1"])
    game.state.figures["a"] = replace(game.state.figures["a"], empty=("pistol",))
    assert player("law").choose(game) == Reload("a", "pistol")


def test_ai_finishes_off_only_as_a_baddy():
    for side, wounded_side, finishes in (("outlaws", "law", True), ("law", "outlaws", False)):
        units = [("a", side, "gun", (20, 20)), ("b", wounded_side, "gun", (22, 20)),
                 ("c", wounded_side, "gun", (20 + 6 * I, 40))]
        game = start(units, ["a#1"])
        game.state.figures["b"] = replace(game.state.figures["b"], status="wounded")
        action = player(side).choose(game)
        assert isinstance(action, Finish) is finishes, side
        if not finishes:
            assert not (isinstance(action, Shoot) and "b" in action.targets)   # a Goody does not shoot him


def test_ai_spends_a_hero_point_on_a_lucky_shot():
    game = start([("a", "law", "gun", (10, 20)), ("b", "outlaws", "gun", (10 + 5 * I, 20))], ["a#1"])
    game.apply(Shoot("a", "pistol", ("b",)))
    feed(game, 1, 1)
    assert player("outlaws").choose(game).choice is True


def test_ai_plays_the_bundled_town_to_an_end():
    from bow3d.ldraw import BUNDLED_LIBRARY, Library
    from bow3d.replay import play_game
    from bow3d.replay.session import prepare_geometry
    from bow3d.rulesets import load_scene
    from bow3d.world import World

    scene = load_scene(TOWN)
    world = prepare_geometry(scene, World.from_scene(scene, Library([BUNDLED_LIBRARY])))
    results = [play_game(scene, world, None, seed) for seed in range(1, 7)]
    assert all(r.ended == "win" for r in results)
    assert {r.winner for r in results} == {"law", "outlaws"}
