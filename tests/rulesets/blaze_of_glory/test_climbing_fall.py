"""Blaze of Glory, Climbing/Fall: level changes in stories with an R test each (at most three a turn),
falls from the higher level with R less a story each and a wound on the Hand to Hand table, roof leaps
of at most three inches, NIMBLE's second try."""

from __future__ import annotations

import pytest

from bow3d.rulesets.blaze_of_glory import Move
from bow3d.rulesets.blaze_of_glory.book import STUDS_PER_INCH, story
from bow3d.rulesets.blaze_of_glory.terrain import plan_path
from tests.rulesets.blaze_of_glory.helpers import asked, feed, of, start
from tests.rulesets.blaze_of_glory.table import Block

ROOF = Block(24, 10, 34, 30, 152.0)       # one story: a roof of plates on six courses
TOWER = Block(24, 10, 28, 30, 296.0)      # two stories
NIMBLE = {"nimble": {"level": 2, "shoot": 3, "fisticuffs": 3, "reflexes": 3, "nerve": 3, "weapons": ["pistol"],
                     "skills": ["nimble"]}}


def climber(blocks, at=(20, 20), sheet="gun", sheets=None):
    return start([("a", "law", sheet, at), ("b", "outlaws", "gun", (100, 100))], ["a#1"], blocks=blocks,
                 sheets=sheets)


def test_climbing_stories_from_the_world_and_one_r_test_per_level():
    """'we describe heights in stories ... A character may move from one level to another by making a
    successful R test': onto a first-floor roof one test, onto a second-floor roof two."""
    assert (story(0), story(48), story(96), story(152), story(296)) == (0, 0, 0, 1, 2)
    game = climber([ROOF])
    events = game.apply(Move("a", ((27, 20),)))
    change = of(events, "level_change")[0].data
    assert (change["kind"], change["from_story"], change["to_story"], change["tests"]) == ("climb", 0, 1, 1)
    feed(game, 4)   # R 4: passed
    figure = game.state.figures["a"]
    assert figure.position == (27.0, 20.0) and story(figure.z) == 1
    game = climber([TOWER])
    game.apply(Move("a", ((26, 20),)))
    feed(game, 2)
    assert asked(game) == "climb"           # the second story asks its own test
    feed(game, 3)
    assert story(game.state.figures["a"].z) == 2


def test_climbing_at_most_three_level_changes_a_turn():
    """'He may make up to three level changes in a turn': over a two-story wall and down is four."""
    game = climber([TOWER])
    refusal = game.check(Move("a", ((31, 20),)))
    assert refusal is not None and "at most 3" in refusal
    assert game.check(Move("a", ((26, 20),))) is None   # up is two


def test_fall_a_failed_climb_falls_tests_r_less_the_stories_and_rolls_on_the_hand_to_hand_table():
    """'If the character fails an R test he falls ... Reduce the characters R by 1 for each story fallen
    ... A failed fall test results in a wound. Roll on the Hand to Hand combat wound table, subtracting
    one from the roll for each floor fallen'."""
    game = climber([ROOF])
    game.apply(Move("a", ((27, 20),)))
    events = feed(game, 6, False)          # the climb fails; no Hero Point spent on it
    fell = of(events, "fell")[0].data
    assert fell["stories"] == 1 and game.state.figures["a"].position[0] < 24   # at the foot of the wall
    assert asked(game) == "fall"
    events = feed(game, 4, False)          # R 4 - 1 = 3: a 4 fails
    fall_test = [e for e in of(game.events, "test") if e.data["purpose"] == "fall"][0].data
    assert fall_test["value"] == 3 and not fall_test["passed"]
    assert asked(game) == "wound"
    events = feed(game, 3)                  # 3 - 1 = 2 on the Hand to Hand table: a wound
    roll = of(events, "wound_roll")[0].data
    assert (roll["table"], roll["modifier"], roll["result"]) == ("fisticuffs", -1, "wounded")
    assert game.state.figures["a"].status == "wounded"


def test_fall_from_the_higher_level_of_the_two():
    """'A character is assumed to be at the higher level of the two being scaled': failing the second
    story's test he falls two stories (R - 2), failing the first one story (R - 1)."""
    for fails_at, stories in ((2, 2), (1, 1)):
        game = climber([TOWER])
        game.apply(Move("a", ((26, 20),)))
        feed(game, *([2] * (fails_at - 1)), 6, False)
        assert of(game.events, "fell")[-1].data["stories"] == stories
        feed(game, 1)
        assert [e for e in of(game.events, "test") if e.data["purpose"] == "fall"][0].data["value"] == 4 - stories


def _two_roofs(gap_studs: float):
    return [Block(10, 10, 20, 30, 152.0), Block(20 + gap_studs, 10, 40, 30, 152.0)]


def test_climbing_roof_leaps_of_at_most_three_inches():
    """'leap from one roof to another by making a successful R test. The roofs may not be more than three
    inches apart': a 2-inch gap is one leap; a 3.5-inch gap is a jump down and a climb; an inch is free."""
    game = climber(_two_roofs(2 * STUDS_PER_INCH), at=(17, 20))
    assert story(game.state.figures["a"].z) == 1
    plan = plan_path(game, "a", [(29, 20)], 10.0)
    assert [(c.kind, c.tests) for c in plan.changes] == [("leap", 1)]
    game.apply(Move("a", ((29, 20),)))
    assert asked(game) == "leap"
    feed(game, 6, False)                     # failed: he falls into the alley, one story
    assert of(game.events, "fell")[-1].data["stories"] == 1 and 20 < game.state.figures["a"].position[0] < 26.4
    wide = climber(_two_roofs(3.5 * STUDS_PER_INCH), at=(17, 20))
    plan = plan_path(wide, "a", [(33, 20)], 10.0)
    assert [c.kind for c in plan.changes] == ["drop", "climb"]
    narrow = climber(_two_roofs(0.9 * STUDS_PER_INCH), at=(17, 20))
    assert plan_path(narrow, "a", [(26, 20)], 10.0).changes == ()


def test_skills_nimble_rolls_again_a_failed_jump():
    """NIMBLE: 'May re-roll an R test if jumping'."""
    game = climber(_two_roofs(2 * STUDS_PER_INCH), at=(17, 20), sheet="nimble", sheets=NIMBLE)
    game.apply(Move("a", ((29, 20),)))
    events = feed(game, 6)
    assert of(events, "reroll")[0].data["skill"] == "nimble" and asked(game) == "leap"
    feed(game, 2)
    assert game.state.figures["a"].position == (29.0, 20.0)
    plain = climber(_two_roofs(2 * STUDS_PER_INCH), at=(17, 20))
    plain.apply(Move("a", ((29, 20),)))
    feed(plain, 6)
    assert asked(plain) == "hero_point"      # no second try: only a Hero Point could save him


@pytest.mark.parametrize("height", [150.0, 152.0, 160.0])
def test_climbing_a_roof_is_the_first_floor(height):
    assert story(height) == 1
