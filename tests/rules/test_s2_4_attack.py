"""BOW 1.3 §2.4.1-§2.4.3 Attacks: brick duels, melee and long-range conditions, damage and death."""

from __future__ import annotations

import pytest

from bow3d.rules import Reason
from bow3d.rules.flat import Box
from bow3d.rulesets.bow import Attack, EndTurn, Move
from bow3d.rulesets.bow.combat import attack_plan, range_penalty

B1 = ("b1", "blue", "trooper", (10.5, 10.5), 0)


def _attack(rules, target_at, *, facing=180, weapon="rifle", **kwargs):
    units = [B1, ("r1", "red", kwargs.pop("sheet", "trooper"), target_at, facing)]
    if weapon != "rifle":
        units[0] = (*B1, weapon)
    return rules.game(units, **kwargs)


@pytest.mark.parametrize("attack, dodge, damage", [(3, 1, 2), (2, 2, 0), (1, 2, 0), (3, 0, 3)])
def test_s2_4_2_damage_is_the_difference_when_greater(rules, attack, dodge, damage):
    """BOW 1.3 §2.4.2: attack BR > dodge BR -> the difference in damage points; else no effect."""
    game = _attack(rules, (14.5, 10.5), sheet="hero")
    game.apply(Attack("b1", "r1", "rifle"))
    assert (game.pending_roll.side, game.pending_roll.spec.n) == ("blue", 3)
    events = rules.roll(game, attack)
    assert (game.pending_roll.side, game.pending_roll.spec.n) == ("red", 2)   # hero: dodge 1 + armor 1
    events = rules.roll(game, dodge)
    result = next(e for e in events if e.kind == "attack_result")
    assert result.data["damage"] == damage and game.state.units["r1"].damage == damage


@pytest.mark.parametrize("target_at, facing, reach, legal", [
    ((11.5, 10.5), 0, None, True),      # in front, touching
    ((9.5, 10.5), 0, None, False),      # behind the attacker
    ((13.5, 10.5), 0, None, False),     # 2 studs between bodies: out of a knife's reach
    ((13.5, 10.5), 0, "sword", True),   # a sword reaches 2 studs
])
def test_s2_4_2_melee_front_arc_and_reach(rules, target_at, facing, reach, legal):
    """BOW 1.3 §2.4.2 melee: target in front (180 degrees) and reachable by the weapon."""
    sheets = {"swordsman": {"kind": "minifig", "weapons": [{"name": "sword", "kind": "melee", "damage": 2}]}}
    attacker = ("b1", "blue", "swordsman" if reach else "trooper", (10.5, 10.5), 0) + (() if reach else ("knife",))
    game = rules.game([attacker, ("r1", "red", "trooper", target_at, facing)], sheets=sheets)
    weapon = reach or "knife"
    assert (game.check(Attack("b1", "r1", weapon)) is None) == legal


def test_s2_4_2_long_range_needs_visible_target_in_front(rules):
    """BOW 1.3 §2.4.2 long range: visible (not behind a wall) and in front (180 degrees)."""
    game = rules.game([B1, ("r1", "red", "trooper", (20.5, 10.5), 0), ("r2", "red", "trooper", (5.5, 10.5), 0)],
                      walls=[Box(15, 5, 16, 15)])
    assert game.refusal(Attack("b1", "r1", "rifle")).reason is Reason.NOT_VISIBLE
    assert game.refusal(Attack("b1", "r2", "rifle")).reason is Reason.NOT_IN_FRONT


@pytest.mark.parametrize("studs, penalty", [(0, 0), (15, 0), (15.5, 1), (30, 1), (31, 2), (45, 2), (46, 3), (60, 3)])
def test_s2_4_2_range_penalty_one_brick_per_15_studs(studs, penalty):
    """BOW 1.3 §2.4.2: remove 1 attack brick per 15 studs (a target just at 15 studs: no penalty)."""
    assert range_penalty(studs) == penalty


def test_s2_4_2_book_example_four_minifigs(rules):
    """BOW 1.3 §2.4.2 example: 1 behind (no), 2 behind a wall (no), 3 at 16-30 studs covered
    (-1 attack, +1 dodge), 4 at 46-60 studs (3 bricks removed: falls to 0, no)."""
    units = [("f", "blue", "trooper", (5.5, 30.5), 0),
             ("m1", "red", "trooper", (1.5, 30.5), 0),
             ("m2", "red", "trooper", (15.5, 40.5), 0),
             ("m3", "red", "trooper", (27.5, 30.5), 0),
             ("m4", "red", "trooper", (55.5, 30.5), 0)]
    wall = Box(9, 33, 10, 45)        # hides m2
    game = rules.game(units, walls=[wall], cover=[Box(26, 29, 29, 32)])   # m3 behind a little wall
    assert game.refusal(Attack("f", "m1", "rifle")).reason is Reason.NOT_IN_FRONT
    assert game.refusal(Attack("f", "m2", "rifle")).reason is Reason.NOT_VISIBLE
    plan, refusal = attack_plan(game, Attack("f", "m3", "rifle"))
    assert refusal is None and (plan["attack"], plan["dodge"], plan["penalty"], plan["covered"]) == (2, 2, 1, True)
    assert game.refusal(Attack("f", "m4", "rifle")).reason is Reason.TOO_FAR


def test_s2_4_2_cover_adds_a_dodge_brick(rules):
    """BOW 1.3 §2.4.2: a covered target adds 1 brick to its Dodge/Armor roll."""
    open_game = _attack(rules, (20.5, 10.5))
    covered_game = _attack(rules, (20.5, 10.5), cover=[Box(19, 9, 22, 12)])
    assert attack_plan(open_game, Attack("b1", "r1", "rifle"))[0]["dodge"] == 1
    assert attack_plan(covered_game, Attack("b1", "r1", "rifle"))[0]["dodge"] == 2


def test_s2_4_2_visibility_dispute_option(rules):
    """BOW 1.3 §2.4.2: if the players disagree on visibility, a 5-brick roll each decides (option)."""
    wall = [Box(15, 5, 16, 15)]
    off = _attack(rules, (20.5, 10.5), walls=wall)
    assert off.refusal(Attack("b1", "r1", "rifle", dispute=True)).reason is Reason.NOT_ALLOWED
    game = _attack(rules, (20.5, 10.5), walls=wall, visibility_dispute=True)
    assert Attack("b1", "r1", "rifle", dispute=True) in game.legal_actions()
    game.apply(Attack("b1", "r1", "rifle", dispute=True))
    assert (game.pending_roll.side, game.pending_roll.spec.n) == ("blue", 5)
    rules.roll(game, 2, 1)                    # the firer wins the dispute: the attack goes on
    assert game.pending_roll.purpose.startswith("attack")
    lost = _attack(rules, (20.5, 10.5), walls=wall, visibility_dispute=True)
    lost.apply(Attack("b1", "r1", "rifle", dispute=True))
    events = rules.roll(lost, 1, 1)           # a tie: the target stays hidden
    assert lost.pending_roll is None and events[-1].kind == "dispute_result" and not events[-1].data["won"]


def test_s2_4_3_death_at_hp_removes_the_unit(rules):
    """BOW 1.3 §2.4.3: as much damage as HP -> dead, removed; it cannot act or be targeted."""
    game = rules.game([B1, ("b2", "blue", "trooper", (10.5, 14.5), 0), ("r1", "red", "hero", (14.5, 10.5), 180),
                       ("r2", "red", "trooper", (14.5, 14.5), 180)])
    game.apply(Attack("b1", "r1", "rifle"))
    rules.roll(game, 2, 0)
    assert game.state.units["r1"].damage == 2 and game.state.units["r1"].alive       # hero: 3 HP
    game.apply(Attack("b1", "r1", "rifle"))
    rules.roll(game, 3, 0)
    r1 = game.state.units["r1"]
    assert r1.damage == 3 and not r1.alive and "r1" not in game.geometry.positions    # never above HP
    assert game.refusal(Attack("b2", "r1", "rifle")).reason is Reason.NOT_YOUR_TURN
    game.apply(EndTurn("b1"))
    assert game.refusal(Move("r1", (13, 10), 0)).reason is Reason.CANNOT_ACT
    assert all(getattr(a, "unit", None) != "r1" for a in game.legal_actions())


def test_s2_4_2_no_attack_on_own_side(rules):
    """BOW 1.3 §1.4.1: the Attack ability is used against an enemy unit."""
    game = rules.game([B1, ("b2", "blue", "trooper", (14.5, 10.5), 0), ("r1", "red", "trooper", (40.5, 40.5), 0)])
    assert game.refusal(Attack("b1", "b2", "rifle")).reason is Reason.BAD_TARGET
