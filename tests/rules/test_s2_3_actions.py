"""BOW 1.3 §2.3 Actions without a brick roll: move, objects and weapons, doors, vehicles, piloting."""

from __future__ import annotations

import pytest

from bow3d.rules import Game, Reason
from bow3d.rules.flat import Box, FlatGeometry
from bow3d.rulesets.bow import (
    Attack,
    ChangeSpeed,
    Door,
    EndTurn,
    GetOff,
    GetOn,
    Give,
    Grab,
    Move,
    SwitchWeapon,
    Throw,
)
from bow3d.rulesets.bow.combat import attack_plan

B1 = ("b1", "blue", "trooper", (10.5, 10.5), 0)
B2 = ("b2", "blue", "trooper", (11.5, 10.5), 0)
R1 = ("r1", "red", "trooper", (30.5, 10.5), 180)


@pytest.mark.parametrize("to, legal", [((15, 10), True), ((15, 15), True), ((16, 10), False), ((5, 5), True),
                                       ((4, 10), False)])
def test_s2_3_1_move_within_move_studs_square(rules, to, legal):
    """BOW 1.3 §2.3.1: a move of at most Move studs, diagonals allowed: a square around the unit."""
    game = rules.game([B1, R1])
    assert (game.check(Move("b1", to, 0)) is None) == legal


def test_s2_3_1_move_goes_around_obstacles(rules):
    """BOW 1.3 §2.3.1: walls and other units must be walked around (the path counts)."""
    wall = Box(12, 0, 13, 14)   # a wall from y=0 to y=14 east of b1
    game = rules.game([B1, R1], walls=[wall])
    assert game.check(Move("b1", (14, 10), 0)) is not None   # 4 studs away, but the detour is longer
    assert game.refusal(Move("b1", (14, 10), 0)).reason is Reason.OUT_OF_REACH
    blocked = rules.game([B1, ("r2", "red", "trooper", (12.5, 10.5), 0), R1])
    assert blocked.check(Move("b1", (12, 10), 0)) is not None   # occupied cell
    game.apply(Move("b1", (11, 13), 90))
    event = game.events[-1]
    assert event.kind == "moved" and event.data["path"][-1] == [11, 13]
    assert game.state.units["b1"].position == (11.5, 13.5)
    assert game.geometry.positions["b1"] == (11.5, 13.5)


def test_s2_3_1_reorienting_only_during_a_move(rules):
    """BOW 1.3 §2.3.1: reorienting is free but only in a move action, even on the spot."""
    game = rules.game([B1, R1])
    game.apply(Move("b1", (10, 10), 180))
    assert game.state.units["b1"].facing == 180 and game.state.units["b1"].actions_used == 1


def test_s2_3_1_several_moves_in_a_turn(rules):
    """BOW 1.3 §2.3.1: two move actions carry a Move 5 trooper 10 studs."""
    game = rules.game([B1, R1])
    game.apply(Move("b1", (15, 10), 0))
    game.apply(Move("b1", (20, 10), 0))
    assert game.state.units["b1"].cell == (20, 10)


def test_s2_3_2_throw_within_twice_move_not_through_walls(rules):
    """BOW 1.3 §2.3.2: throw an object up to 2 x Move studs, not through walls; it lies there."""
    game = rules.game([B1, R1], walls=[Box(5, 0, 6, 30)])
    assert game.refusal(Throw("b1", "knife", (21, 10))).reason is Reason.OUT_OF_REACH   # 11 studs
    assert game.refusal(Throw("b1", "knife", (3, 10))).reason is Reason.OUT_OF_REACH    # behind the wall
    assert game.refusal(Throw("b1", "axe", (12, 10))).reason is Reason.UNKNOWN
    game.apply(Throw("b1", "knife", (20, 10)))
    assert "knife" not in game.state.units["b1"].items
    assert game.state.ground_items == (("knife", (20, 10)),)


def test_s2_3_2_grab_a_close_object(rules):
    """BOW 1.3 §2.3.2: grab a free object the unit can touch."""
    game = rules.game([B1, R1])
    game.apply(Throw("b1", "knife", (12, 10)))
    assert game.refusal(Grab("b1", "knife")).reason is Reason.OUT_OF_REACH
    game.apply(Move("b1", (11, 10), 0))
    game.apply(EndTurn("b1"))
    game.apply(EndTurn("r1"))
    game.apply(Grab("b1", "knife"))
    assert "knife" in game.state.units["b1"].items and game.state.ground_items == ()


def test_s2_3_2_give_is_free_for_the_receiver(rules):
    """BOW 1.3 §2.3.2: give to a close minifig that accepts it; free for the receiver."""
    game = rules.game([B1, B2, ("b3", "blue", "trooper", (20.5, 20.5), 0), R1,
                       ("r2", "red", "trooper", (9.5, 10.5), 0)])
    assert game.refusal(Give("b1", "knife", "b3")).reason is Reason.OUT_OF_REACH
    assert game.refusal(Give("b1", "knife", "r2")).reason is Reason.NOT_ALLOWED
    game.apply(Give("b1", "knife", "b2"))
    assert game.state.units["b2"].items.count("knife") == 2 and game.state.units["b2"].actions_used == 0
    assert "knife" not in game.state.units["b1"].items


def test_s2_3_2_switch_weapons_changes_attack_damage(rules):
    """BOW 1.3 §2.3.2 and A.2: the weapon in hand sets the Attack/Damage bricks."""
    game = rules.game([B1, ("r1", "red", "trooper", (11.5, 10.5), 180)])
    assert game.refusal(Attack("b1", "r1", "knife")).reason is Reason.UNKNOWN   # knife in the bag
    assert attack_plan(game, Attack("b1", "r1", "rifle"))[0]["attack"] == 3
    game.apply(SwitchWeapon("b1", "knife"))
    assert game.state.units["b1"].weapon == "knife" and game.state.units["b1"].items == ("rifle",)
    assert attack_plan(game, Attack("b1", "r1", "knife"))[0]["attack"] == 2


def test_s2_3_3_open_and_close_a_close_door(rules):
    """BOW 1.3 §2.3.3: open or close a door the unit is close to."""
    scene = rules.scene([B1, R1])
    doors = [("gate", (11, 11), False), ("far", (40, 40), False)]
    game = Game.start(scene, FlatGeometry.from_scene(scene), doors=doors)
    rules.roll(game, 3, 1)
    assert game.refusal(Door("b1", "far", True)).reason is Reason.OUT_OF_REACH
    assert game.refusal(Door("b1", "gate", False)).reason is Reason.NOT_ALLOWED   # already closed
    game.apply(Door("b1", "gate", True))
    assert game.state.doors["gate"] is True


def test_s2_3_3_a_closed_door_bars_the_way_and_the_view_until_opened(rules):
    """BOW 1.3 §2.3.3: the door in a wall is closed: the unit cannot walk or see through it until
    it opens it (one action); taking the action back closes it again in the geometry too."""
    scene = rules.scene([("b1", "blue", "trooper", (12.5, 10.5), 0), R1])
    wall = [Box(13, 0, 14, 10), Box(13, 11, 14, 40)]            # a wall along x = 13 with a doorway at y = 10
    game = Game.start(scene, FlatGeometry.from_scene(scene, walls=wall), doors=[("gate", (13, 10), False)])
    rules.roll(game, 3, 1)
    assert game.check(Move("b1", (14, 10), 0)) is not None       # through the closed door: no way
    assert not game.geometry.sight("b1", "r1").visible
    game.apply(Door("b1", "gate", True))
    assert game.geometry.sight("b1", "r1").visible
    assert game.check(Move("b1", (14, 10), 0)) is None           # the doorway is open: 2 studs
    game.pop()
    assert not game.geometry.sight("b1", "r1").visible


JEEP_AT = ("bj", "blue", "jeep", (14, 10.5), 0, 0)


@pytest.mark.parametrize("bodies", [False, True])
def test_s2_3_3_get_on_a_free_seat_and_off_by_the_door(rules, bodies):
    """BOW 1.3 §2.3.3: get on when close and a seat is free; get off onto a free place by the door. Aboard,
    the unit sits in its seat (reading `occupant_bodies`, §3.5) or is off the field (revision 1)."""
    game = rules.game([B1, R1, ("b2", "blue", "trooper", None, 0)], [(*JEEP_AT, ["b2"])], occupant_bodies=bodies)
    assert game.refusal(GetOn("b1", "bj", 0)).reason is Reason.NOT_ALLOWED     # the pilot's seat is taken
    game.apply(GetOn("b1", "bj", 1))
    assert game.state.units["b1"].aboard == "bj"
    if bodies:
        assert game.geometry.seated["b1"] == ("bj", 1) and game.geometry.positions["b1"] == (14.0, 10.5)
    else:
        assert "b1" not in game.geometry.positions
    assert game.refusal(Move("b1", (9, 9), 0)).reason is Reason.NOT_ALLOWED    # stuck in his seat (§3.1)
    game.apply(GetOff("b1", (10, 10)))
    assert game.state.units["b1"].aboard is None and game.state.vehicles["bj"].occupants == ("b2",)
    assert game.geometry.positions["b1"] == (10.5, 10.5) and "b1" not in game.geometry.seated


def test_s2_3_3_cannot_get_off_a_vehicle_against_walls(rules):
    """BOW 1.3 §2.3.3: if no place by the door is free, the minifig cannot get off."""
    walls = [Box(9, 6, 19, 8.4), Box(9, 12.6, 19, 15), Box(9, 6, 10.9, 15), Box(17.1, 6, 19, 15)]
    game = rules.game([R1, ("b2", "blue", "trooper", None, 0)], [(*JEEP_AT, ["b2"])], walls=walls)
    assert game.geometry.free_cells_near("bj") == []
    assert game.refusal(GetOff("b2", (10, 10))).reason is Reason.OUT_OF_REACH
    assert not any(isinstance(a, GetOff) for a in game.legal_actions())


def test_s2_3_3_only_the_pilot_drives(rules):
    """BOW 1.3 §2.3.3: only the minifig controlling the vehicle pilots it."""
    game = rules.game([R1, ("b2", "blue", "trooper", None, 0), ("b3", "blue", "trooper", None, 0)],
                      [(*JEEP_AT, ["b2", "b3"])])
    assert game.refusal(ChangeSpeed("b3", 2)).reason is Reason.NOT_ALLOWED
    assert game.check(ChangeSpeed("b2", 2)) is None
