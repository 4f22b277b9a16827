"""Blaze of Glory, Skills: how many by level, and each skill of the book (NIMBLE, TRUE GRIT and NERVES OF
STEEL are tested with Climbing/Fall and Nerve)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from pydantic import ValidationError

from bow3d.rulesets.blaze_of_glory import EndTurn, Fight, FightOn, Move, Shoot
from bow3d.rulesets.blaze_of_glory.book import STUDS_PER_INCH
from bow3d.rulesets.blaze_of_glory.sheets import FigureSheet
from tests.rulesets.blaze_of_glory.helpers import asked, feed, of, start

I = STUDS_PER_INCH


def sheet(skill: str | None = None, **values) -> dict:
    base = {"level": 4, "shoot": 4, "fisticuffs": 3, "reflexes": 3, "nerve": 3, "weapons": ["pistol"]}
    return {**base, **values, **({"skills": [skill]} if skill else {})}


def test_skills_by_level():
    """'Character Lvl / Number of Skills': 1 none, 2 one, 3 two, 4 three."""
    FigureSheet(level=2, skills=["nimble"])
    with pytest.raises(ValidationError, match="at most 0"):
        FigureSheet(level=1, skills=["nimble"])
    with pytest.raises(ValidationError, match="at most 1"):
        FigureSheet(level=2, skills=["nimble", "true grit"])
    FigureSheet(level=3, skills=["nimble", "true grit"])
    with pytest.raises(ValidationError, match="at most 2"):
        FigureSheet(level=3, skills=["nimble", "true grit", "pugilist"])
    FigureSheet(level=4, skills=["nimble", "true grit", "pugilist"])
    with pytest.raises(ValidationError, match="at most 3"):
        FigureSheet(level=4, skills=["nimble", "true grit", "pugilist", "dead eye"])


def shootout(shooter: dict, target: dict, distance_in: float, first=("a#1",)):
    return start([("a", "law", "s", (10, 20)), ("b", "outlaws", "t", (10 + distance_in * I, 20))], list(first),
                 sheets={"s": shooter, "t": target})


def last_attack(game):
    return of(game.events, "attack")[-1].data


def test_skills_sharpshooter_ignores_half_range_when_he_did_not_move():
    game = shootout(sheet("sharpshooter"), sheet(), 8)
    game.apply(Shoot("a", "pistol", ("b",)))
    feed(game, 6)
    assert last_attack(game)["modifiers"] == ["+1 aiming"]
    game = shootout(sheet("sharpshooter"), sheet(), 8)
    game.apply(Move("a", ((10.5, 20),)))
    game.apply(Shoot("a", "pistol", ("b",)))
    feed(game, 6)
    assert last_attack(game)["modifiers"] == ["-1 over half range"]


def test_skills_dodge_and_weave_an_r_roll_at_over_half_range_unless_a_sharpshooter():
    game = shootout(sheet(), sheet("dodge and weave"), 8)
    game.apply(Shoot("a", "pistol", ("b",)))
    feed(game, 1)
    assert asked(game) == "dodge"
    events = feed(game, 2)
    assert of(events, "attack_result")[0].data["result"] == "dodged" and game.pending is None or asked(game) != "wound"
    game = shootout(sheet(), sheet("dodge and weave"), 5)     # under half range: no dodging
    game.apply(Shoot("a", "pistol", ("b",)))
    feed(game, 1)
    assert asked(game) == "wound"
    game = shootout(sheet("sharpshooter"), sheet("dodge and weave"), 8)
    game.apply(Shoot("a", "pistol", ("b",)))
    feed(game, 1)
    assert asked(game) == "wound"


def test_skills_quick_draw_an_instant_countershot_on_a_straight_one_or_two():
    game = shootout(sheet(), sheet("quick draw"), 5)
    game.apply(Shoot("a", "pistol", ("b",)))
    feed(game, 6)
    assert asked(game) == "countershot" and game.pending.side == "outlaws"
    events = feed(game, True, 2)
    counter = of(events, "attack")[0].data
    assert (counter["unit"], counter["value"], counter["hit"]) == ("b", 2, True) and asked(game) == "wound"
    game = shootout(sheet(), sheet("quick draw"), 5)
    game.apply(Shoot("a", "pistol", ("b",)))
    events = feed(game, 6, True, 3)
    assert not of(events, "attack")[0].data["hit"]
    game = shootout(sheet(), sheet(), 5)
    game.apply(Shoot("a", "pistol", ("b",)))
    feed(game, 6)
    assert game.pending is None


def test_skills_dead_eye_two_dice_to_wound_not_with_a_shotgun():
    game = shootout(sheet("dead eye"), sheet(), 5)
    game.apply(Shoot("a", "pistol", ("b",)))
    feed(game, 1)
    assert game.pending.spec.count == 2 and game.pending.spec.keep == "lowest"
    events = feed(game, (6, 2))
    assert of(events, "wound_roll")[0].data["result"] == "wounded"
    game = shootout(sheet("dead eye", weapons=["shotgun"]), sheet(), 5)
    game.apply(Shoot("a", "shotgun", ("b",)))
    feed(game, 1)
    assert game.pending.spec.count == 1


def brawl(a: dict, b: dict, first=("a#1",)):
    return start([("a", "law", "s", (20, 20)), ("b", "outlaws", "t", (22, 20))], list(first),
                 sheets={"s": a, "t": b})


def test_skills_lowblow_fights_back_in_r_order_when_knocked_down():
    for skill, first in (("lowblow", "b"), (None, "a")):
        game = brawl(sheet(reflexes=3), sheet(skill, reflexes=5), first=("a#1", "b#1"))
        game.apply(Fight("a", "b"))
        feed(game, 6, 1, 3)                 # b (R5) misses, a knocks him down (3 + 1 with his fists)
        game.apply(FightOn("b"))
        assert game.pending.about["unit"] == first, skill


def test_skills_pugilist_fights_every_opponent():
    units = [("a", "law", "s", (20, 20)), ("b", "outlaws", "t", (22, 20)), ("c", "outlaws", "t", (20, 22))]
    for skill, strikes in (("pugilist", 2), (None, 1)):
        game = start(units, ["b#1", "c#1"], sheets={"s": sheet(skill, reflexes=2), "t": sheet(reflexes=4)})
        game.apply(Fight("b", "a"))
        feed(game, 6, 6)
        game.apply(Fight("c", "a"))
        feed(game, 6, 6)                    # c, then b, miss
        if asked(game) == "fist_target":
            feed(game, "b")
        while game.pending is not None:
            feed(game, 6)
        a_strikes = [e for e in of(game.events, "test") if e.data["unit"] == "a" and e.data["purpose"] == "strike"]
        assert len(a_strikes) == 1 + strikes, skill


def test_skills_counter_punch_strikes_back_even_knocked_down():
    for skill, strikes_back in (("counter punch", True), (None, False)):
        game = brawl(sheet(reflexes=5), sheet(skill, reflexes=3))
        game.apply(Fight("a", "b"))
        feed(game, 1, 3)                    # a (R5) knocks b down first (3 + 1 with his fists)
        assert (asked(game) == "strike") is strikes_back, skill


def test_skills_duck_and_dive_makes_the_striker_roll_the_wound_again():
    game = brawl(sheet(reflexes=5), sheet("duck and dive"))
    game.apply(Fight("a", "b"))
    feed(game, 1, 1)                        # a 1 + 1 (no weapon) = 2: a wound ...
    assert asked(game) == "duck_and_dive" and game.pending.side == "outlaws"
    events = feed(game, True, 5)            # ... rolled again: 5 + 1 = 6, no effect
    assert of(events, "wound_roll")[0].data["result"] == "no_effect" and game.state.figures["b"].status == "standing"


def test_skills_blood_brother():
    """BLOOD BROTHER: 'if that figure goes OUT OF ACTION or is WOUNDED roll on following table: 1 BLAZE OF
    GLORY ... 2,3 MARKED MAN ... 4,5 HOLD A GRUDGE ... 6 YELLOW DOG'."""
    units = [("x", "law", "gun", (10, 20)), ("friend", "outlaws", "m", (10 + 5 * I, 20)),
             ("bro", "outlaws", "bb", (10 + 8 * I, 30)), ("z", "law", "gun", (10, 60))]
    sheets = {"bb": sheet("blood brother", level=2, shoot=3), "m": sheet(level=1, nerve=9)}
    params = {"blood_brothers": {"bro": "friend"}}
    outcomes = {}
    for die in (1, 2, 4, 6):
        game = start(units, ["x#1"], sheets=sheets, params=params)
        game.apply(Shoot("x", "pistol", ("friend",)))
        feed(game, 1, 2)                    # the friend is wounded
        assert asked(game) == "blood_brother"
        events = feed(game, die)
        outcomes[die] = (of(events, "blood_brother")[0].data["result"], game.state.figures["bro"])
        if die == 1:
            game.apply(EndTurn("x"))
            assert game.state.turn.unit == "bro" and game.state.turn.frenzy   # at once, before the next card
            assert game.check(EndTurn("bro")) is not None                     # he must charge
            assert game.check(Move("bro", ((10 + 8 * I + 3, 30),))) is not None   # away from the enemy: no
    assert outcomes[1][0] == "blaze_of_glory" and outcomes[1][1].fearless
    assert outcomes[2][0] == "marked_man" and outcomes[2][1].vengeance == "x"
    assert outcomes[4][0] == "hold_a_grudge" and outcomes[4][1].vengeance is None
    assert outcomes[6][0] == "yellow_dog" and outcomes[6][1].status == "fled"


def test_skills_marked_man_ignores_nerve_tests_until_vengeance():
    units = [("x", "law", "gun", (10, 20)), ("friend", "outlaws", "m", (10 + 5 * I, 20)),
             ("bro", "outlaws", "bb", (10 + 8 * I, 30)), ("z", "law", "gun", (10, 60))]
    sheets = {"bb": sheet("blood brother", level=2, shoot=3), "m": sheet(level=1, nerve=9)}
    game = start(units, ["x#1"], sheets=sheets, params={"blood_brothers": {"bro": "friend"}})
    game.apply(Shoot("x", "pistol", ("friend",)))
    feed(game, 1, 2, 3)                    # wounded; bro rolls 3: Marked Man
    game.apply(Shoot("x", "pistol", ("friend",), hero=True))
    feed(game, 1, 1, 3)                    # the friend goes out of action: no Nerve test for bro
    tests = [e.data["unit"] for e in of(game.events, "test") if e.data["test"] == "N"]
    assert "bro" not in tests and game.state.figures["bro"].vengeance == "x"
    game.state.figures["x"] = replace(game.state.figures["x"])
