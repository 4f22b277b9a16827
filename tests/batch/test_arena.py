"""`bow3d arena` (issue 21): every pairing on both seatings through the batch executor, scores with
Wilson intervals, Elo-like ratings, mishaps counted; bad input refused plainly. Flat geometry."""

from __future__ import annotations

import json
import math

import pytest

from bow3d.errors import UserInputError
from bow3d.replay.arena import Pairing, Seating, elo_ratings, play_arena
from bow3d.replay.balance import wilson
from tests.replay.test_session import flat


def test_every_pairing_plays_both_seatings_on_the_same_seeds(scene_path):
    result = play_arena(scene_path, ["greedy", "ai"], 4, seed=3, max_rounds=3, geometry_factory=flat)
    (pairing,) = result.pairings
    assert [(s.first, s.second, s.games) for s in pairing.seatings] == [("greedy", "ai", 2), ("ai", "greedy", 2)]
    assert pairing.games == 4 and sum(s.wins + s.losses + s.draws for s in pairing.seatings) == 4
    assert pairing.interval("ai") == wilson(pairing.score_of("ai"), 4)   # balance's Wilson interval, not a copy
    assert math.isclose(pairing.score_of("ai") + pairing.score_of("greedy"), 4)
    assert set(result.mishaps) == {"greedy", "ai"}
    assert json.loads(json.dumps(result.as_dict()))["ratings"]["greedy"] == 1000.0


def test_the_same_arena_gives_the_same_results_on_one_worker_or_two(scene_path):
    runs = [play_arena(scene_path, ["greedy", "ai"], 4, max_rounds=3, geometry_factory=flat, workers=w).as_dict()
            for w in (1, 2)]
    assert runs[0]["pairings"] == runs[1]["pairings"]


def test_ratings_follow_the_scores_and_stay_finite_after_a_sweep():
    """Bradley-Terry on the Elo scale: a player who wins 3 in 4 is about 190 points better; a clean
    sweep stays finite (one virtual draw per pairing)."""
    def pairing(a, b, wins_a, games):
        return Pairing(a, b, [Seating(a, b, games, wins_a, games - wins_a, 0)])
    ratings = elo_ratings(["x", "y"], [pairing("x", "y", 300, 400)])
    assert ratings["x"] == 1000.0 and 150 < ratings["x"] - ratings["y"] < 200
    swept = elo_ratings(["x", "y", "z"], [pairing("x", "y", 20, 20), pairing("y", "z", 20, 20), pairing("x", "z", 20, 20)])
    assert swept["x"] > swept["y"] > swept["z"] and all(math.isfinite(v) for v in swept.values())


@pytest.mark.parametrize("players, games, words", [
    (["greedy"], 4, "at least two"),
    (["greedy", "greedy"], 4, "each opponent once"),
    (["greedy", "smart"], 4, "--players smart: unknown opponent"),
    (["greedy", "ai"], 1, "at least 2"),
])
def test_bad_arena_input_is_refused_with_what_to_do(scene_path, players, games, words):
    with pytest.raises(UserInputError, match=words):
        play_arena(scene_path, players, games, geometry_factory=flat)


def test_the_arena_command_refuses_an_unknown_player_with_exit_code_2(scene_path, capsys):
    from bow3d.cli import main

    assert main(["arena", str(scene_path), "--players", "greedy,smart", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert "smart: unknown opponent" in err and "greedy, ai, strong" in err and "Traceback" not in err


def test_mishaps_are_counted_from_the_records_only_for_piloted_vehicles():
    """BOW §3.6: a friend run over and a crash count against the side whose pilot drove; a drifting
    vehicle (no pilot, §3.3) steers nobody and a run-over enemy is no mishap."""
    from bow3d.replay.simulate import Tally
    from bow3d.rules.events import Event
    from bow3d.rulesets.bow import RULESET, CompulsoryMove, DriftMove

    sides = {"jeep": "blue", "blue-1": "blue", "red-1": "red"}
    tally = Tally(sides, RULESET.mishap_tally(sides))
    tally(CompulsoryMove("blue-9"), [Event("collision", 1, {"vehicle": "jeep", "kind": "unit", "other": "red-1"}),
                                      Event("collision", 1, {"vehicle": "jeep", "kind": "unit", "other": "blue-1"})])
    tally(DriftMove(None, "jeep"), [Event("collision", 2, {"vehicle": "jeep", "kind": "decor", "other": None})])
    tally(CompulsoryMove("blue-9"), [Event("left_field", 3, {"vehicle": "jeep", "occupants": []})])
    assert tally.mishaps == [("blue", "friendly_run_over"), ("blue", "crash")]


def test_three_players_on_two_workers_play_every_pairing(scene_path):
    """Each pairing is one map on the same pool of workers. The arena reads exactly its games from each
    map, so the map's generator is closed before it is exhausted; that used to stop the pool, and the
    second pairing failed ("cannot schedule new futures after shutdown")."""
    result = play_arena(scene_path, ["greedy", "ai", "strong"], 2, max_rounds=2, geometry_factory=flat, workers=2)
    assert [(p.a, p.b, p.games) for p in result.pairings] == [("greedy", "ai", 2), ("greedy", "strong", 2),
                                                              ("ai", "strong", 2)]
