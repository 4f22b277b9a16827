"""BOW 1.3 §2.2 Round and Turn: starting player, alternating turns, marking bricks, game end."""

from __future__ import annotations

import pytest

from bow3d.rules import Illegal, Reason
from bow3d.rulesets.bow import RULESET, Attack, BrickRoll, EndTurn, Move

B1 = ("b1", "blue", "trooper", (10.5, 10.5), 0)
B2 = ("b2", "blue", "trooper", (10.5, 14.5), 0)
R1 = ("r1", "red", "trooper", (20.5, 10.5), 180)
R2 = ("r2", "red", "trooper", (20.5, 14.5), 180)


def test_s2_2_starting_player_by_six_brick_rolls(rules):
    """BOW 1.3 §2.2: each player rolls 6 bricks, the higher result starts."""
    game = rules.game([B1, R1], starter=None)
    assert game.pending_roll.spec.n == 6 and game.pending_roll.side == "blue"
    game.apply(BrickRoll("blue", 6, 1))
    game.apply(BrickRoll("red", 6, 2))
    assert game.state.side_to_play == "red" and game.state.round == 1


def test_s2_2_starting_tie_is_rolled_again(rules):
    """BOW 1.3 §2.2 (re-roll ties): equal results roll again."""
    game = rules.game([B1, R1], starter=None)
    rules.roll(game, 2, 2)
    assert game.state.phase == "start" and game.pending_roll.side == "blue"
    rules.roll(game, 3, 1)
    assert game.state.side_to_play == "blue"


def test_s2_2_players_alternate_one_unit_per_turn(rules):
    """BOW 1.3 §2.2: a turn is one unit; then the other player plays one of his."""
    game = rules.game([B1, B2, R1, R2])
    game.apply(Move("b1", (11, 10), 0))
    assert game.refusal(Move("b2", (11, 14), 0)).reason is Reason.NOT_YOUR_TURN  # b1 is in its turn
    game.apply(EndTurn("b1"))
    assert game.state.side_to_play == "red"
    assert game.refusal(Move("b2", (11, 14), 0)).reason is Reason.NOT_YOUR_TURN
    game.apply(EndTurn("r2"))
    assert game.refusal(Move("b1", (12, 10), 0)).reason is Reason.CANNOT_ACT  # b1 has played this round


def test_s2_2_action_budget(rules):
    """BOW 1.3 §2.2: as many actions as the Action Budget, or fewer."""
    game = rules.game([B1, R1])
    game.apply(Move("b1", (11, 10), 0))
    game.apply(Move("b1", (12, 10), 0))
    refusal = game.refusal(Move("b1", (13, 10), 0))
    assert refusal.reason is Reason.NO_ACTION_LEFT
    assert all(not isinstance(a, Move) for a in game.legal_actions())


def test_s2_2_passing_marks_the_unit_played(rules):
    """BOW 1.3 §2.2: a minifig can do no action: the player passes but marks it as played."""
    game = rules.game([B1, B2, R1])
    game.apply(EndTurn("b1"))
    assert game.state.units["b1"].played and game.state.units["b1"].marking_bricks == 1


def test_s2_2_fewer_units_finish_first_and_start_next_round(rules):
    """BOW 1.3 §2.2: the player with fewer units finishes first, the other plays the rest in a row,
    and the one who finished first starts the next round."""
    game = rules.game([B1, R1, R2], starter="red")
    game.apply(EndTurn("r1"))
    game.apply(EndTurn("b1"))
    assert game.state.side_to_play == "red"   # blue has finished: red plays the rest
    game.apply(EndTurn("r2"))
    assert game.state.round == 2 and game.state.side_to_play == "blue"


def test_s2_2_marking_bricks_added_in_odd_rounds_removed_in_even(rules):
    """BOW 1.3 §2.2: odd rounds add a marking brick to a played unit, even rounds remove it."""
    game = rules.game([B1, R1])
    game.apply(EndTurn("b1"))
    assert game.state.units["b1"].marking_bricks == 1
    game.apply(EndTurn("r1"))
    assert game.state.round == 2 and game.state.units["b1"].marking_bricks == 1
    game.apply(EndTurn("b1"))
    assert game.state.units["b1"].marking_bricks == 0
    game.apply(EndTurn("r1"))
    assert game.state.round == 3 and all(u.marking_bricks == 0 for u in game.state.units.values())


def test_s2_2_refused_action_leaves_state_unchanged(rules):
    """BOW 1.3 §2.2 (check then apply): an illegal action raises Illegal and changes nothing."""
    game = rules.game([B1, R1])
    before = game.state.copy()
    with pytest.raises(Illegal) as error:
        game.apply(Move("r1", (19, 10), 180))
    assert error.value.reason is Reason.NOT_YOUR_TURN
    assert game.state == before and len(game.records) == 2


def test_s2_2_game_ends_when_one_side_has_no_unit(rules):
    """BOW 1.3 §2.2/§2.4.3: the last side with units in play wins."""
    game = rules.game([B1, ("r1", "red", "trooper", (12.5, 10.5), 180)])
    game.apply(Attack("b1", "r1", "rifle"))
    rules.roll(game, 3, 0)
    assert game.is_over and game.winner == "blue" and game.state.result == "win"
    assert game.legal_actions() == [] and game.refusal(EndTurn("b1")).reason is Reason.GAME_OVER


def test_s2_2_round_limit_gives_a_points_result(rules):
    """Annex A.4 cost points decide a game stopped by max_rounds (for simulations)."""
    game = rules.game([B1, B2, R1], max_rounds=1)
    for unit in ("b1", "r1", "b2"):
        game.apply(EndTurn(unit))
    assert game.is_over and game.state.result == "points" and game.winner == "blue"


def test_s2_2_the_player_chooses_any_unplayed_unit(rules):
    """BOW 1.3 §2.2: the player chooses one (any) of his unplayed units for the turn."""
    game = rules.game([B1, B2, R1, R2])
    assert {a.unit for a in game.legal_actions()} == {"b1", "b2"}
    game.apply(EndTurn("b2"))
    game.apply(EndTurn("r1"))
    assert {a.unit for a in game.legal_actions()} == {"b1"}


def test_events_describe_in_plain_words(rules):
    """The battle log: each event says what happened, with its round."""
    game = rules.game([B1, R1])
    events = game.apply(Move("b1", (12, 10), 0))
    narrator = RULESET.narrator()
    assert [f"Round {e.round}: {narrator.line(e)}" for e in events] == ["Round 1: b1's turn",
                                                                        "Round 1: b1 moves 2 studs to (12, 10), facing 0"]
    record = events[-1].to_record()
    assert record["type"] == "moved" and len(record["path"]) == 2 and record["path"][-1] == [12, 10]
