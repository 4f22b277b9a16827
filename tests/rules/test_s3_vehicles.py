"""BOW 1.3 §3 Vehicles: occupants, speed, compulsory move, piloting, weapons, damage (§3.1-§3.5)."""

from __future__ import annotations

import pytest

from bow3d.rules import Reason
from bow3d.rulesets.bow import Attack, BowReason, ChangeDirection, ChangeSpeed, CompulsoryMove, DriftMove, EndTurn
from bow3d.rulesets.bow.combat import damage_unit, damage_vehicle, share_excess

R_FAR = ("r9", "red", "trooper", (55.5, 55.5), 0)
PILOT = ("p", "blue", "trooper", None, 0)
GUNNER = ("g", "blue", "trooper", None, 0)
GUNNER2 = ("g2", "blue", "trooper", None, 0)


def _jeep(rules, speed=2, occupants=("p", "g"), units=(), **kwargs):
    crew = [u for u in (PILOT, GUNNER, GUNNER2) if u[0] in occupants]
    return rules.game([*crew, R_FAR, *units], [("bj", "blue", "jeep", (10, 10.5), 0, speed, list(occupants))],
                      **kwargs)


def test_s3_1_occupants_play_their_own_turns(rules):
    """BOW 1.3 §3.1: each occupant is played on a different turn."""
    game = _jeep(rules, speed=0)
    game.apply(EndTurn("p"))
    assert game.state.side_to_play == "red"
    game.apply(EndTurn("r9"))
    assert game.check(EndTurn("g")) is None and game.state.units["p"].played


@pytest.mark.parametrize("bodies", [False, True])
def test_s3_1_occupants_are_in_their_seats_even_on_a_used_geometry(rules, bodies):
    """BOW 1.3 §3.1, §3.5: occupants are inside the vehicle, not standing on the field: a geometry where
    a game left the pilot standing has him put back when the next game starts: in his seat (reading
    `occupant_bodies`, revision 2), or off the field (revision 1: judged by the vehicle)."""
    from bow3d.rules import Game

    first = _jeep(rules, speed=0, occupant_bodies=bodies)
    geometry = first.geometry
    geometry.place("p", (30.5, 30.5), 0.0)          # as an earlier game might have left him
    Game.start(first.ctx.scene, geometry)
    if bodies:
        assert geometry.seated == {"p": ("bj", 0), "g": ("bj", 1)}
        assert geometry.positions["p"] == geometry.positions["g"] == geometry.positions["bj"]
    else:
        assert "p" not in geometry.positions and "g" not in geometry.positions


def test_s3_2_compulsory_move_is_speed_times_five(rules):
    """BOW 1.3 §3.2/§3.3: the vehicle moves speed x 5 studs in a straight line, for free."""
    game = _jeep(rules, speed=2)
    game.apply(CompulsoryMove("p"))
    assert game.state.vehicles["bj"].position == pytest.approx((20.0, 10.5))
    assert game.state.units["p"].actions_used == 0


def test_s3_3_compulsory_move_is_owed_before_the_turn_ends(rules):
    """BOW 1.3 §3.3: a moving vehicle moves necessarily during the pilot's turn, before or after piloting."""
    game = _jeep(rules, speed=2)
    assert game.refusal(EndTurn("p")).reason is BowReason.COMPULSORY_MOVE
    game.apply(ChangeDirection("p", 45))
    game.apply(CompulsoryMove("p"))
    assert game.refusal(CompulsoryMove("p")).reason is Reason.NOT_ALLOWED    # once
    game.apply(ChangeSpeed("p", 0))                                          # and stop after it
    assert game.check(EndTurn("p")) is None


def test_s3_3_start_move_stop_in_one_turn(rules):
    """BOW 1.3 §3.3 example: start (0 -> 2), compulsory move of 10 studs, stop (2 -> 0)."""
    game = _jeep(rules, speed=0)
    assert game.check(EndTurn("p")) is None
    game.apply(ChangeSpeed("p", 2))
    assert game.refusal(EndTurn("p")).reason is BowReason.COMPULSORY_MOVE
    game.apply(CompulsoryMove("p"))
    game.apply(ChangeSpeed("p", 0))
    assert game.state.vehicles["bj"].position == pytest.approx((20.0, 10.5))
    assert game.state.vehicles["bj"].speed == 0


@pytest.mark.parametrize("delta, legal", [(45, True), (-45, True), (20, True), (46, False), (0, False)])
def test_s3_3_change_direction_at_most_45_degrees(rules, delta, legal):
    """BOW 1.3 §3.3: a changing direction action rotates the vehicle on itself by at most 45 degrees."""
    game = _jeep(rules, speed=0)
    assert (game.check(ChangeDirection("p", delta)) is None) == legal


@pytest.mark.parametrize("speed, legal", [(0, True), (1, False), (3, False), (4, True), (8, True), (9, False)])
def test_s3_2_minimum_speed_of_flying_vehicles(rules, speed, legal):
    """BOW 1.3 §3.2: a plane flies between its minimum and maximum speed, or is landed at 0."""
    game = rules.game([PILOT, R_FAR], [("pl", "blue", "plane", (20, 20.5), 0, 6, ["p"])])
    assert (game.check(ChangeSpeed("p", speed)) is None) == legal
    if speed == 0:
        events = game.apply(ChangeSpeed("p", 0))
        assert events[-1].kind == "landed"


def test_s3_3_dead_pilot_vehicle_drifts_at_round_end(rules):
    """BOW 1.3 §3.3: a moving vehicle with a dead pilot moves on another unit's turn, or at the end of
    the round, straight on until it crashes or leaves the battlefield."""
    game = _jeep(rules, speed=1)
    damage_unit(game, "p", 1)
    assert game.state.vehicles["bj"].pilot is None
    assert game.check(DriftMove("g", "bj")) is None
    game.apply(EndTurn("g"))
    game.apply(EndTurn("r9"))
    assert game.state.phase == "drift" and game.legal_actions() == [DriftMove(None, "bj")]
    game.apply(DriftMove(None, "bj"))
    assert game.state.round == 2 and game.state.vehicles["bj"].position == pytest.approx((15.0, 10.5))


def test_s3_3_vehicle_leaves_the_battlefield(rules):
    """BOW 1.3 §3.3: a vehicle that moves out of the battlefield is gone with its occupants."""
    game = rules.game([PILOT, R_FAR], [("bj", "blue", "jeep", (50, 10.5), 0, 4, ["p"])])
    game.apply(CompulsoryMove("p"))
    assert game.state.vehicles["bj"].left_field and game.state.units["p"].left_field
    assert game.is_over and game.winner == "red"


def test_s3_4_vehicle_weapon_arc(rules):
    """BOW 1.3 §3.4: vehicle weapons have an arc: 180 degrees ahead, or 360 on a turret."""
    turret = {"tank": {"kind": "vehicle", "speed": 2, "armor": 6, "hp": 3, "seats": 2, "exposed_occupants": False,
                       "weapons": [{"name": "cannon", "kind": "ranged", "damage": 4, "arc": 360}]}}
    behind = ("r1", "red", "trooper", (2.5, 10.5), 0)
    game = _jeep(rules, speed=0, occupants=("p", "g"), units=[behind])
    assert game.refusal(Attack("p", "r1", "machine gun")).reason is Reason.NOT_IN_FRONT
    tank = rules.game([PILOT, behind, R_FAR], [("t", "blue", "tank", (10, 10.5), 0, 0, ["p"])], sheets=turret)
    assert tank.check(Attack("p", "r1", "cannon")) is None
    assert tank.refusal(Attack("p", "r1", "rifle")).reason is Reason.UNKNOWN   # shut in: no hand weapon


def test_s3_5_exposed_occupants_can_be_targeted(rules):
    """BOW 1.3 §3.5: a visible occupant (open cockpit) can be attacked directly; a closed one cannot."""
    shooter = ("r1", "red", "trooper", (25.5, 10.5), 180)
    game = _jeep(rules, speed=0, units=[shooter], starter="red")
    assert game.check(Attack("r1", "g", "rifle")) is None
    closed = {"van": {"kind": "vehicle", "speed": 3, "armor": 2, "hp": 2, "seats": 2, "exposed_occupants": False}}
    game = rules.game([PILOT, shooter, R_FAR], [("v", "blue", "van", (10, 10.5), 0, 0, ["p"])], sheets=closed,
                      starter="red")
    assert game.refusal(Attack("r1", "p", "rifle")).reason is Reason.NOT_VISIBLE
    assert game.check(Attack("r1", "v", "rifle")) is None


def test_s3_5_damage_goes_to_the_vehicle_first(rules):
    """BOW 1.3 §3.5: attacks on the vehicle damage it, not its occupants, until it is destroyed."""
    game = _jeep(rules, speed=0)
    damage_vehicle(game, "bj", 1)
    assert game.state.vehicles["bj"].damage == 1 and game.state.units["g"].damage == 0


@pytest.mark.parametrize("excess, n, shares", [(5, 3, [2, 2, 1]), (0, 2, [0, 0]), (4, 2, [2, 2]), (1, 3, [1, 0, 0])])
def test_s3_5_excess_damage_shared_fairly(excess, n, shares):
    """BOW 1.3 §3.5: the remaining damage points are shared fairly between the occupants."""
    assert share_excess(excess, n) == shares


def test_s3_5_book_example_six_damage_one_hp_left(rules):
    """BOW 1.3 §3.5 example: driver and two gunners; 6 damage on 1 HP left -> destroyed, 5 shared 2/2/1;
    the occupants are put at the vehicle's former place."""
    hardy = {"gunner": {"kind": "minifig", "hp": 3}}
    crew = [("p", "blue", "gunner", None, 0), ("g", "blue", "gunner", None, 0), ("g2", "blue", "gunner", None, 0)]
    game = rules.game([*crew, R_FAR], [("bj", "blue", "jeep", (10, 10.5), 0, 0, ["p", "g", "g2"])], sheets=hardy)
    damage_vehicle(game, "bj", 1)
    events = damage_vehicle(game, "bj", 6)
    assert game.state.vehicles["bj"].destroyed and "bj" not in game.geometry.positions
    assert [game.state.units[u].damage for u in ("p", "g", "g2")] == [2, 2, 1]
    cells = [game.state.units[u].cell for u in ("p", "g", "g2")]
    assert len(set(cells)) == 3 and all(abs(c[0] - 10) <= 1 and abs(c[1] - 10) <= 1 for c in cells)
    assert [e.kind for e in events].count("placed") == 3


def test_s2_3_3_piloting_actions_count_in_the_budget(rules):
    """BOW 1.3 §2.3.3/§3.3: each piloting action is one action of the pilot's budget (the compulsory
    move is free)."""
    game = _jeep(rules, speed=0)
    game.apply(ChangeSpeed("p", 1))
    game.apply(ChangeDirection("p", 30))
    assert game.refusal(ChangeSpeed("p", 2)).reason is Reason.NO_ACTION_LEFT
    game.apply(CompulsoryMove("p"))
    assert game.check(EndTurn("p")) is None


def test_s3_3_drifting_vehicle_moved_in_another_units_turn(rules):
    """BOW 1.3 §3.3: the player may move a pilotless moving vehicle during another minifig's turn (free);
    it then does not move again at the end of the round."""
    game = _jeep(rules, speed=1)
    damage_unit(game, "p", 1)
    game.apply(DriftMove("g", "bj"))
    assert game.state.vehicles["bj"].position == pytest.approx((15.0, 10.5))
    assert game.state.units["g"].actions_used == 0
    assert game.refusal(DriftMove("g", "bj")).reason is Reason.NOT_ALLOWED
    game.apply(EndTurn("g"))
    game.apply(EndTurn("r9"))
    assert game.state.round == 2 and game.state.phase == "play"


def test_s3_5_attacker_chooses_who_takes_the_extra_point(rules):
    """BOW 1.3 §3.5: when the count is not fair, the attacker chooses the minifigs that receive 1 more point."""
    hardy = {"gunner": {"kind": "minifig", "hp": 3}}
    crew = [("p", "blue", "gunner", None, 0), ("g", "blue", "gunner", None, 0), ("g2", "blue", "gunner", None, 0)]
    shooter = ("r1", "red", "hero", (22.5, 10.5), 180)
    game = rules.game([*crew, shooter, R_FAR], [("bj", "blue", "jeep", (10, 10.5), 0, 0, ["p", "g", "g2"])],
                      sheets=hardy, starter="red")
    damage_vehicle(game, "bj", 1)
    assert game.refusal(Attack("r1", "bj", "rifle", extra_to=("r9",))).reason is Reason.BAD_TARGET
    game.apply(Attack("r1", "bj", "rifle", extra_to=("g2", "g")))
    rules.roll(game, 3, 0)            # 3 damage: 1 destroys the jeep, 2 shared over 3 occupants
    assert [game.state.units[u].damage for u in ("p", "g", "g2")] == [0, 1, 1]
