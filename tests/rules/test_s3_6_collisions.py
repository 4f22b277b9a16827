"""BOW 1.3 §3.6 Collision and crash: units, decor, vehicles."""

from __future__ import annotations

import pytest

from bow3d.rules.flat import Box
from bow3d.rulesets.bow import CompulsoryMove
from bow3d.rulesets.bow.collisions import relative_speed

R_FAR = ("r9", "red", "trooper", (55.5, 55.5), 0)
PILOT = ("p", "blue", "trooper", None, 0)
HORSE = {"horse": {"kind": "vehicle", "speed": 3, "armor": 3, "hp": 1, "seats": 1}}


def test_s3_6_1_book_example_horse_hits_peasant(rules):
    """BOW 1.3 §3.6.1 example: a horse at speed 2 hits a peasant, who resists a 2-brick roll with his
    Dodge/Armor; a survivor is put beside the vehicle; the move goes on."""
    peasant = ("r1", "red", "trooper", (16.5, 10.5), 0)
    game = rules.game([PILOT, peasant, R_FAR], [("h", "blue", "horse", (10, 10.5), 0, 2, ["p"])], sheets=HORSE)
    events = game.apply(CompulsoryMove("p"))
    assert any(e.kind == "collision" and e.data["other"] == "r1" for e in events)
    assert (game.pending_roll.side, game.pending_roll.spec.n) == ("blue", 2)  # the peasant's opponent rolls the speed
    rules.roll(game, 1)
    assert (game.pending_roll.side, game.pending_roll.spec.n) == ("red", 1)   # the peasant's Dodge/Armor
    rules.roll(game, 1)
    assert game.state.units["r1"].alive and game.state.units["r1"].cell != (16, 10)
    assert game.state.vehicles["h"].position == pytest.approx((20.0, 10.5))  # the full 10 studs


def test_s3_6_1_unit_hit_can_die(rules):
    """BOW 1.3 §3.6.1: the damage is resolved normally for the minifig."""
    game = rules.game([PILOT, ("r1", "red", "trooper", (16.5, 10.5), 0), R_FAR],
                      [("h", "blue", "horse", (10, 10.5), 0, 2, ["p"])], sheets=HORSE)
    game.apply(CompulsoryMove("p"))
    rules.roll(game, 2, 0)
    assert not game.state.units["r1"].alive


def test_s3_6_2_book_example_jeep_crashes_into_wall(rules):
    """BOW 1.3 §3.6.2 example: a jeep hits a wall at speed 2: it resists a 2-brick roll with its
    Dodge/Armor, then its speed falls to 0."""
    game = rules.game([PILOT, R_FAR], [("bj", "blue", "jeep", (10, 10.5), 0, 2, ["p"])], walls=[Box(17, 0, 18, 30)])
    game.apply(CompulsoryMove("p"))
    assert (game.pending_roll.side, game.pending_roll.spec.n) == ("red", 2)
    rules.roll(game, 2)
    assert (game.pending_roll.side, game.pending_roll.spec.n) == ("blue", 5)   # jeep: dodge 0 + armor 5
    rules.roll(game, 0)
    jeep = game.state.vehicles["bj"]
    assert jeep.damage == 2 and jeep.destroyed          # 2 damage on 2 HP
    assert game.state.units["p"].position is not None   # the occupant put at the vehicle's place


def test_s3_6_2_crash_stops_and_lands(rules):
    """BOW 1.3 §3.6.2: a vehicle that survives a crash stops; a flying one lands."""
    game = rules.game([PILOT, R_FAR], [("pl", "blue", "plane", (10, 10.5), 0, 4, ["p"])], walls=[Box(20, 0, 21, 30)])
    game.apply(CompulsoryMove("p"))
    assert (game.pending_roll.side, game.pending_roll.spec.n) == ("red", 4)
    events = rules.roll(game, 0, 0)
    plane = game.state.vehicles["pl"]
    assert plane.speed == 0 and not plane.destroyed and {"stopped", "landed"} <= {e.kind for e in events}
    assert plane.position[0] < 20


@pytest.mark.parametrize("sector, mover, hit, expected", [("front", 3, 2, 5), ("side", 3, 2, 3), ("back", 3, 2, 1),
                                                          ("back", 1, 4, 3)])
def test_s3_6_3_relative_speed_by_sector(sector, mover, hit, expected):
    """BOW 1.3 §3.6.3: front sector -> sum, side -> the mover's speed, back -> the difference."""
    assert relative_speed(sector, mover, hit) == expected


@pytest.mark.parametrize("facing, sector, rel", [(180, "front", 4), (0, "back", 0), (90, "side", 3)])
def test_s3_6_3_collision_between_vehicles(rules, facing, sector, rel):
    """BOW 1.3 §3.6.3: each vehicle resists a relative-speed roll with its Dodge/Armor; both stop."""
    game = rules.game([PILOT, ("q", "red", "trooper", None, 0), R_FAR],
                      [("bj", "blue", "jeep", (10, 10.5), 0, 3, ["p"]), ("rj", "red", "jeep", (22, 10.5), facing, 1 if
                                                                          sector != "back" else 3, ["q"])])
    events = game.apply(CompulsoryMove("p"))
    hit = next(e for e in events if e.kind == "collision")
    assert (hit.data["sector"], hit.data["relative_speed"]) == (sector, rel)
    while game.pending_roll is not None:
        rules.roll(game, 0)
    assert game.state.vehicles["bj"].speed == 0 and game.state.vehicles["rj"].speed == 0
