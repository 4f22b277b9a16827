"""Unit Placement, First Turn, Order Of Operation (activations and steps), Final Movement Step."""

from __future__ import annotations

import pytest

from bow3d.rules import Game, Illegal, Reason
from bow3d.rulesets.war_of_bros import Attack, EndStep, EndTurn, Move, Place, WobReason
from tests.rulesets.war_of_bros.field import BoxField
from tests.rulesets.war_of_bros.helpers import answer, ready, scene

TWO = [{"id": "b1", "side": "blue", "sheet": "lieutenant", "position": [10, 10]},
       {"id": "b2", "side": "blue", "sheet": "private", "position": [20, 10]},
       {"id": "b3", "side": "blue", "sheet": "private", "position": [30, 10]},
       {"id": "r1", "side": "red", "sheet": "private", "position": [10, 100], "facing": 270},
       {"id": "r2", "side": "red", "sheet": "sergeant", "position": [20, 100], "facing": 270}]


def test_unit_placement_order_roll_alternation_and_the_60_cm_rule():
    """Unit Placement: a die decides who places first (ties roll again); players alternate one unit at a
    time, a player with none left is passed over; "the closest units between any two players must be at
    least 60cm"."""
    scn = scene(TWO, params={"start_distance_cm": 60})
    game = Game.start(scn, BoxField.for_scene(scn))
    assert game.state.phase == "start" and game.pending.purpose == "placement_order"
    answer(game, 3)
    answer(game, 3)                       # a tie: both roll again
    assert [e.kind for e in game.events if e.kind == "order_tie"] == ["order_tie"]
    answer(game, 2)
    answer(game, 5)                       # red places first
    assert game.state.phase == "placement" and game.state.side_to_play == "red"
    with pytest.raises(Illegal) as refused:
        game.apply(Place("b1", 10, 10, 0))
    assert refused.value.reason is Reason.NOT_YOUR_TURN
    game.apply(Place("r1", 10, 100, 270))
    too_near = 1.875 + 59 * 1.25 + 1.875   # centre to centre: base to base 59 cm
    with pytest.raises(Illegal) as refused:
        game.apply(Place("b1", 10, 100 - too_near, 90))
    assert refused.value.reason is WobReason.START_DISTANCE and "60" in refused.value.words
    game.apply(Place("b1", 10, 100 - too_near - 1.25, 90))     # 60 cm: allowed
    game.apply(Place("r2", 20, 100, 270))
    game.apply(Place("b2", 20, 10, 90))
    assert game.state.side_to_play == "blue"   # red has none left: blue places the rest
    game.apply(Place("b3", 30, 10, 90))
    assert game.state.phase != "placement"
    assert game.pending.purpose == "first_turn"


def test_unit_placement_the_60_cm_rule_holds_when_the_scene_says_nothing():
    """Unit Placement: "At the beginning of the game, the closest units between any two players must be at least
    60cm" is the book's rule, not a scene's option: a scene that names no start distance gets 60 cm."""
    scn = scene(TWO, params={"start_distance_cm": None})
    game = Game.start(scn, BoxField.for_scene(scn))
    answer(game, 6)
    answer(game, 1)                       # blue places first
    game.apply(Place("b1", 10, 10, 0))
    near = 10 + 1.875 + 59.5 * 1.25 + 1.875   # base to base 59.5 cm
    refusal = game.refusal(Place("r1", near, 10, 180))
    assert refusal is not None and refusal.reason is WobReason.START_DISTANCE and "60" in refusal.words
    assert game.refusal(Place("r1", near + 0.5 * 1.25, 10, 180)) is None     # 60 cm


def test_placement_refuses_a_base_on_another_or_on_heavy_cover():
    scn = scene(TWO)
    game = Game.start(scn, BoxField.for_scene(scn, [_wall(40, 45, 40, 45)]))
    answer(game, 6)
    answer(game, 1)
    game.apply(Place("b1", 10, 10, 0))
    game.apply(Place("r1", 60, 60, 0))
    with pytest.raises(Illegal, match="base of b1"):
        game.apply(Place("b2", 11, 11, 0))
    with pytest.raises(Illegal, match="heavy cover"):
        game.apply(Place("b2", 42, 42, 0))


def _wall(x0, x1, y0, y1, height=48, material="stone"):
    from tests.rulesets.war_of_bros.field import Box
    return Box(x0, x1, y0, y1, 0, height, material)


def test_first_turn_no_attacks_and_only_the_first_movement_step():
    """First Turn: "players are not permitted to make an attack against any unit"; "Each player takes only
    the First Movement Step of their turn"; the die decides who moves first."""
    units = [{"id": "b1", "side": "blue", "sheet": "lieutenant", "position": [10, 10]},
             {"id": "r1", "side": "red", "sheet": "private", "position": [30, 10], "facing": 180}]
    game = ready(scene(units), first="red")
    assert game.state.round == 1 and game.state.side_to_play == "red"
    order = next(e for e in game.events if e.kind == "order" and e.data["purpose"] == "first_turn")
    assert order.data["sides"] == ["red", "blue"]
    game.apply(EndTurn("red"))
    refusal = game.refusal(Attack("b1", "r1", "Rifle"))
    assert refusal is not None and refusal.reason is WobReason.FIRST_TURN
    game.apply(Move("b1", 0, 5))
    events = game.apply(EndStep("b1"))     # the first turn: the activation ends with its First Movement Step
    kinds = [e.kind for e in events]
    assert "step" not in kinds and kinds[:2] == ["activation_ended", "round_ended"]
    assert game.state.round == 2
    assert game.refusal(Attack("r1", "b1", "Carbine")) is None   # the second turn: attacks


def test_order_of_operation_one_unit_at_a_time_then_the_next_player():
    """Order Of Operation: a unit takes its steps (First Movement, Attack, Final Movement), then the player
    selects a new unit; when all have, the next player begins its turn."""
    units = [{"id": "b1", "side": "blue", "sheet": "private", "position": [10, 10]},
             {"id": "b2", "side": "blue", "sheet": "private", "position": [20, 10]},
             {"id": "r1", "side": "red", "sheet": "private", "position": [10, 60], "facing": 270}]
    game = ready(scene(units), rounds_skipped=1)
    assert game.state.side_to_play == "blue"
    game.apply(Move("b1", 90, 3))
    assert game.state.active == "b1" and game.state.step == "first"
    refusal = game.refusal(Move("b2", 90, 3))
    assert refusal.reason is Reason.NOT_YOUR_TURN and "b1" in refusal.words
    game.apply(EndStep("b1"))                      # skip the attack: the Final Movement Step
    assert game.state.step == "final"
    assert game.refusal(Attack("b1", "r1", "Carbine")).reason is WobReason.WRONG_STEP
    game.apply(EndStep("b1"))
    assert game.state.active is None and game.refusal(Move("b1", 90, 1)).reason is Reason.CANNOT_ACT
    game.apply(EndStep("b2"))
    game.apply(EndStep("b2"))
    assert game.state.side_to_play == "red"        # blue has moved every unit: red's turn


def test_first_movement_step_saves_the_rest_for_the_final_movement_step():
    """First Movement Step: "The remainder of this unit's movement may be saved for use during the Final
    Movement Step"; Final Movement Step: "use any remaining movement"."""
    units = [{"id": "b1", "side": "blue", "sheet": "private", "position": [10, 10]},
             {"id": "r1", "side": "red", "sheet": "private", "position": [60, 60], "facing": 270}]
    game = ready(scene(units), rounds_skipped=1)
    game.apply(Move("b1", 0, 4))
    game.apply(EndStep("b1"))
    assert game.refusal(Move("b1", 0, 5.5)).reason is WobReason.NO_MOVEMENT_LEFT   # 9 - 4 = 5 left
    game.apply(Move("b1", 0, 5))
    x = game.state.units["b1"].position[0]
    assert x == pytest.approx(10 + 9 * 1.25)
    assert game.refusal(Move("b1", 0, 0.1)).reason is WobReason.NO_MOVEMENT_LEFT


def test_final_movement_step_is_lost_after_a_counter_attack():
    """Final Movement Step: "If a unit has suffered a movement penalty this turn as result of a counter-attack,
    they will ignore this step" (an Attack Of Opportunity that hit it)."""
    units = [{"id": "b1", "side": "blue", "sheet": "private", "position": [10, 10]},
             {"id": "r1", "side": "red", "sheet": "lieutenant", "position": [10, 24], "facing": 270}]
    game = ready(scene(units), rounds_skipped=1)
    game.apply(Move("b1", 90, 4))           # into the Lieutenant's 6 cm threat range
    assert game.pending.decision == "opportunity" and game.pending.side == "red"
    answer(game, True)
    answer(game, 4)                          # the Sidearm's d4 accuracy: a 4 (the Evasion d4 cannot beat it)
    answer(game, 1)                          # the damage d4: 1
    answer(game, 4)                          # b1's Vitality Save holds
    assert game.state.units["b1"].alive and game.state.units["b1"].penalised
    game.apply(EndStep("b1"))
    assert game.state.active is None and game.state.units["b1"].moved_cm == pytest.approx(4)
    assert not any(e.kind == "step" and e.data["unit"] == "b1" for e in game.events)


def test_final_movement_step_is_kept_without_a_counter_attack():
    units = [{"id": "b1", "side": "blue", "sheet": "private", "position": [10, 10]},
             {"id": "r1", "side": "red", "sheet": "lieutenant", "position": [10, 24], "facing": 270}]
    game = ready(scene(units), rounds_skipped=1)
    game.apply(Move("b1", 90, 4))
    answer(game, False)                      # red does not call it out
    game.apply(EndStep("b1"))
    assert game.state.active == "b1" and game.state.step == "final"
