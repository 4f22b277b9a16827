"""Blaze of Glory, Hero Points: double the level, one a turn, a point spent on every Hero test passed or
failed; the lucky shot, the extra action, ignoring a failed roll, recovering from a wound."""

from __future__ import annotations

from dataclasses import replace

from bow3d.rulesets.blaze_of_glory import EndTurn, Run, Shoot
from bow3d.rulesets.blaze_of_glory.book import STUDS_PER_INCH
from bow3d.rulesets.blaze_of_glory.recovery import splits
from tests.rulesets.blaze_of_glory.helpers import arrange, asked, feed, make, of, start

I = STUDS_PER_INCH
SHEETS = {f"lvl{n}": {"level": n, "shoot": 4, "fisticuffs": 3, "reflexes": 3, "nerve": 3, "weapons": ["pistol"]}
          for n in (1, 2, 3, 4)}


def duel(first=("a#1",), a="lvl2", b="lvl2"):
    return start([("a", "law", a, (10, 20)), ("b", "outlaws", b, (10 + 5 * I, 20))], list(first), sheets=SHEETS)


def test_hero_points_double_the_level():
    game = make([(f"f{n}", "law" if n % 2 else "outlaws", f"lvl{n}", (10 * n, 10)) for n in (1, 2, 3, 4)],
                sheets=SHEETS)
    assert [game.state.figures[f"f{n}"].hero for n in (1, 2, 3, 4)] == [2, 4, 6, 8]


def test_hero_points_lucky_shot_on_a_one_to_wound():
    """'When an opponent rolls a 1 to wound a character may make a test. If he passes, the blow hit a lucky
    object ... knocked over, but otherwise takes no further damage. If the test is failed ... OUT OF ACTION'."""
    game = duel()
    game.apply(Shoot("a", "pistol", ("b",)))
    feed(game, 1, 1)
    assert asked(game) == "hero_point" and game.pending.about == {"unit": "b", "use": "lucky"}
    events = feed(game, True, 4)           # hero 4: a 4 passes
    assert of(events, "lucky") and game.state.figures["b"].status == "knocked_down"
    assert game.state.figures["b"].hero == 3
    game = duel()
    game.apply(Shoot("a", "pistol", ("b",)))
    feed(game, 1, 1, True, 5)              # a 5 fails against 4
    assert game.state.figures["b"].status == "out_of_action" and game.state.figures["b"].hero == 3


def test_hero_points_an_extra_action_and_the_point_is_spent_either_way():
    """'make an extra action. EG make an extra run roll or take another go shooting ... If it is failed the
    extra action does not occur'; 'reduce the character's HERO value by one each time a HERO test is made'."""
    game = duel()
    game.apply(Shoot("a", "pistol", ("b",)))
    feed(game, 6)
    game.apply(Shoot("a", "pistol", ("b",), hero=True))
    feed(game, 6)                          # the Hero test fails: no second volley
    assert len(of(game.events, "shots")) == 1 and game.state.figures["a"].hero == 3
    game = duel()
    game.apply(Shoot("a", "pistol", ("b",)))
    feed(game, 6)
    game.apply(Shoot("a", "pistol", ("b",), hero=True))
    feed(game, 3, 6)                       # passes: a second volley (it misses)
    assert len(of(game.events, "shots")) == 2 and game.state.figures["a"].hero == 3
    game = duel()
    game.apply(EndTurn("a"))
    while game.state.turn.unit != "a":
        game.apply(EndTurn(game.state.turn.unit))
    from bow3d.rulesets.blaze_of_glory import Move, RunMove
    game.apply(Move("a", ((11, 20),)))
    game.apply(Run("a"))
    feed(game, 1)
    game.apply(RunMove("a", ((12, 20),)))
    game.apply(Run("a", hero=True))        # a second run roll
    feed(game, 2, 4)
    assert of(game.events, "run")[-1].data["inches"] == 4


def test_hero_points_only_one_a_turn():
    """'Only one HERO POINT may be used a turn': after the extra go shooting, no lucky object for him."""
    game = duel(first=("a#1",))
    game.apply(Shoot("a", "pistol", ("b",)))
    feed(game, 6)
    game.apply(Shoot("a", "pistol", ("b",), hero=True))
    feed(game, 1, 6)
    assert game.check(Shoot("a", "pistol", ("b",), hero=True)) is not None
    assert game.state.turn.hero_used == ("a",)


def test_hero_points_recovering_from_a_wound():
    """'When a character is wounded he may try to recover the next time it is activated ... rolls a d6 and
    takes the score off his various attributes ... If any attribute is reduced to 0 he goes Out Of Action'."""
    game = make([("a", "law", "lvl2", (10, 20)), ("b", "outlaws", "lvl2", (40, 20)), ("c", "law", "lvl1", (10, 60))],
                sheets=SHEETS)
    game.state.figures["a"] = replace(game.state.figures["a"], status="wounded")
    arrange(game, ["a#1"])
    assert asked(game) == "hero_point" and game.pending.about["use"] == "recover"
    feed(game, True, 2)                    # passes (hero 4)
    assert asked(game) == "recovery"
    feed(game, 3)
    assert asked(game) == "attribute_loss" and (1, 1, 1, 0) in game.pending.options
    assert set(game.pending.options) == set(splits(3))
    events = feed(game, (1, 1, 1, 0))
    figure = game.state.figures["a"]
    assert figure.status == "knocked_down" and figure.needs_nerve and figure.losses == (1, 1, 1, 0)
    assert of(events, "attributes_lost")[0].data["left"] == {"shoot": 3, "fisticuffs": 2, "reflexes": 2, "nerve": 3}
    game = make([("a", "law", "lvl2", (10, 20)), ("b", "outlaws", "lvl2", (40, 20)), ("c", "law", "lvl1", (10, 60))],
                sheets=SHEETS)
    game.state.figures["a"] = replace(game.state.figures["a"], status="wounded")
    arrange(game, ["a#1"])
    feed(game, True, 1, 3, (0, 3, 0, 0))   # F 3 - 3 = 0: out of action
    assert game.state.figures["a"].status == "out_of_action"


def test_hero_points_spent_a_wounded_figure_goes_out_of_action():
    """'after those attempts are used if he is still wounded he goes OUT OF ACTION'."""
    game = make([("a", "law", "lvl1", (10, 20)), ("b", "outlaws", "lvl2", (40, 20)), ("c", "law", "lvl1", (10, 60))],
                sheets=SHEETS)
    game.state.figures["a"] = replace(game.state.figures["a"], status="wounded", hero=1)
    arrange(game, ["a#1", "a#2"])
    feed(game, True, 6)                    # the last point, a failed test
    assert game.state.figures["a"].status == "out_of_action"
    game = make([("a", "law", "lvl1", (10, 20)), ("b", "outlaws", "lvl2", (40, 20)), ("c", "law", "lvl1", (10, 60))],
                sheets=SHEETS)
    game.state.figures["a"] = replace(game.state.figures["a"], status="wounded", hero=0)
    arrange(game, ["a#1"])
    assert game.state.figures["a"].status == "out_of_action"
