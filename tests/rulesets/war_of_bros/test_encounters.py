"""Ending An Encounter and the Alternate Game Modes: Domination, Capture The Frag; the round limit."""

from __future__ import annotations

from bow3d.rulesets.war_of_bros import Attack, EndStep, EndTurn
from tests.rulesets.war_of_bros.helpers import answer, ready, scene

BLUE = [{"id": "b1", "side": "blue", "sheet": "lieutenant", "position": [10, 10], "facing": 0}]


def kill(game, target):
    game.apply(Attack("b1", target, "Rifle"))
    answer(game, 8)
    answer(game, 6)


def test_alternate_game_modes_domination_ends_when_one_player_has_units_left_and_gives_the_rewards():
    """Ending An Encounter / Domination: "the only player ... with units remaining shall be declared the winner";
    A Reward Is Given: 5 unit power to the winner, 2 to the loser at the first tier."""
    red = [{"id": "r1", "side": "red", "sheet": "private", "position": [40, 10], "facing": 180}]
    game = ready(scene(BLUE + red), rounds_skipped=1)
    kill(game, "r1")
    assert game.is_over and game.winner == "blue" and game.result == "win"
    over = game.events[-1]
    assert over.kind == "game_over" and over.data["rewards"] == {"blue": 5, "red": 2}


def test_a_reward_is_given_by_the_lowest_unit_power_of_any_player():
    """A Reward Is Given: "A unit power reward is given based on the lowest unit power of any player participating
    in an encounter ... a fifth winning player had a unit power of 800, the winning player will only be rewarded 5
    unit power": an 82 unit power Lieutenant Colonel (the 51 - 150 tier) beating a 1 unit power Private gets the
    first tier's 5, the loser its 2."""
    sheets = {"colonel": {"template": "light-infantry/lieutenant-colonel", "weapons": ["Rifle"]},
              "private": {"template": "starter/private"}}
    blue = [{**BLUE[0], "sheet": "colonel"}]
    red = [{"id": "r1", "side": "red", "sheet": "private", "position": [40, 10], "facing": 180}]
    game = ready(scene(blue + red, sheets=sheets), rounds_skipped=1)
    kill(game, "r1")
    assert game.is_over and game.winner == "blue"
    assert game.events[-1].data["rewards"] == {"blue": 5, "red": 2}


def test_ending_an_encounter_not_while_two_players_have_units():
    red = [{"id": "r1", "side": "red", "sheet": "private", "position": [40, 10], "facing": 180},
           {"id": "r2", "side": "red", "sheet": "private", "position": [150, 150], "facing": 180}]
    game = ready(scene(BLUE + red), rounds_skipped=1)
    kill(game, "r1")
    assert not game.is_over


def test_alternate_game_modes_capture_the_frag_primary_targets_tokens_and_the_loser_removed():
    """Capture The Frag: each player selects a Primary Target; "When a primary target is killed, the player that
    controlled that primary target will lose their frag token and will be required to select a new primary target
    ... When all 3 frag tokens are lost, that player's units and all Body and Vehicle Covers associated with that
    player will be removed"; the one player with tokens left wins."""
    red = [{"id": f"r{k}", "side": "red", "sheet": "private", "position": [40, 6 + 4 * k], "facing": 180}
           for k in range(1, 5)]
    game = ready(scene(BLUE + red, params={"mode": "capture-the-frag"}), rounds_skipped=0)
    primaries = [e.data for e in game.events if e.kind == "primary_target"]
    assert [p["side"] for p in primaries] == ["blue", "red"] and game.state.frags == {"blue": 3, "red": 3}
    assert game.state.primary["red"] == "r1"          # the helper answers every decision with its first option
    game.apply(EndTurn("blue"))
    game.apply(EndTurn("red"))
    kill(game, "r1")
    assert game.state.frags["red"] == 2 and game.pending.decision == "primary_target" and game.pending.side == "red"
    assert "r1" not in game.pending.options
    answer(game, "r2")
    game.apply(EndStep("b1"))
    game.apply(EndTurn("red"))
    kill(game, "r2")
    answer(game, "r3")
    game.apply(EndStep("b1"))
    game.apply(EndTurn("red"))
    assert not game.is_over
    kill(game, "r3")                                  # the last token: red leaves the battle, bodies and all
    assert game.is_over and game.winner == "blue"
    assert not game.state.units["r4"].alive and not any(o.side == "red" for o in game.state.obstacles.values())
    assert any(e.kind == "side_out" and e.data["side"] == "red" for e in game.events)


def test_alternate_game_modes_capture_the_frag_only_the_primary_target_costs_a_token():
    """Capture The Frag: "When a primary target is killed, the player that controlled that primary target will lose
    their frag token": another of its units killed costs none."""
    red = [{"id": "r1", "side": "red", "sheet": "private", "position": [150, 150], "facing": 180},
           {"id": "r2", "side": "red", "sheet": "private", "position": [40, 10], "facing": 180}]
    game = ready(scene(BLUE + red, params={"mode": "capture-the-frag"}), rounds_skipped=1)
    assert game.state.primary["red"] == "r1"
    kill(game, "r2")
    assert not game.state.units["r2"].alive and game.state.frags == {"blue": 3, "red": 3}
    assert game.state.primary["red"] == "r1" and game.pending is None
    assert not any(e.kind == "frag_lost" for e in game.events)


def test_ending_an_encounter_round_limit_decided_by_the_unit_power_in_play():
    """Our reading for the session's round limit (the book has none): the unit power still in play decides."""
    red = [{"id": "r1", "side": "red", "sheet": "private", "position": [150, 150], "facing": 180}]
    game = ready(scene(BLUE + red), rounds_skipped=2, max_rounds=2)
    assert game.is_over and game.winner == "blue" and game.result == "power"
