"""Blaze of Glory, Nerve: who tests when a friend goes out of action (12 inches, line of sight), beside a
friend failing (6 inches), when activated near the wounded or in sight of the dead; the modifiers; the
failure (removed from play) and the Hero Point that ignores it."""

from __future__ import annotations

from dataclasses import replace

from bow3d.rulesets.blaze_of_glory import EndTurn, Shoot
from bow3d.rulesets.blaze_of_glory.book import STUDS_PER_INCH
from tests.rulesets.blaze_of_glory.helpers import arrange, asked, feed, make, of, start
from tests.rulesets.blaze_of_glory.table import Block

I = STUDS_PER_INCH
SHEETS = {
    "n4": {"level": 1, "shoot": 3, "fisticuffs": 3, "reflexes": 3, "nerve": 4, "weapons": ["pistol"]},
    "boss": {"level": 3, "shoot": 3, "fisticuffs": 3, "reflexes": 3, "nerve": 4, "weapons": ["pistol"]},
    "shooter": {"level": 1, "shoot": 4, "fisticuffs": 3, "reflexes": 3, "nerve": 4, "weapons": ["pistol", "rifle"]},
    "steel": {"level": 2, "shoot": 3, "fisticuffs": 3, "reflexes": 3, "nerve": 4, "weapons": ["pistol"],
              "skills": ["nerves of steel"]},
    "grit": {"level": 2, "shoot": 3, "fisticuffs": 3, "reflexes": 3, "nerve": 4, "weapons": ["pistol"],
             "skills": ["true grit"]},
}


def nerve_tests(game, purpose=None):
    return [e.data for e in of(game.events, "test") if e.data["test"] == "N"
            and (purpose is None or e.data["purpose"] == purpose)]


def kill(game, victim="v"):
    """x shoots the victim out of action (a hit, a 1 to wound; he spends no Hero Point on a lucky shot)."""
    game.apply(Shoot("x", "rifle", (victim,)))
    feed(game, 1, 2)     # rifle: 2 - 1 = 1
    if asked(game) == "hero_point":
        feed(game, False)
    assert game.state.figures[victim].status == "out_of_action"


def scene(*extra, blocks=(), victim_sheet="n4", first=("x#1",)):
    units = [("x", "outlaws", "shooter", (10, 60)), ("v", "law", victim_sheet, (40, 60)), *extra]
    return start(units, list(first), blocks=blocks, sheets=SHEETS)


def test_nerve_a_friend_out_of_action_within_12_inches_and_in_sight():
    """'If within 12 inches and L/O/S when a friend goes OUT OF ACTION'."""
    wall = Block(50, 68, 51, 80, 144.0)
    game = scene(("near", "law", "n4", (40 + 11 * I, 60)), ("far", "law", "n4", (40 - 12.5 * I, 60)),
                 ("hidden", "law", "n4", (55, 75)), blocks=[wall])
    kill(game)
    assert asked(game) == "nerve_casualty" and game.pending.about["unit"] == "near"
    feed(game, 4)
    assert asked(game) is None                                    # nobody else tests:
    assert [t["unit"] for t in nerve_tests(game)] == ["near"]     # not 'far' (12.5 inches), not 'hidden'


def test_nerve_failing_removes_the_figure_unless_a_hero_point_ignores_it():
    """'in game terms the figure is removed from play and may not return'; 'a figure failing a NERVE test
    could ignore the failed result by successfully passing a HERO test'."""
    game = scene(("near", "law", "n4", (40 + 5 * I, 60)))
    kill(game)
    events = feed(game, 5, False)
    assert of(events, "fled") and game.state.figures["near"].status == "fled"
    assert "near" not in game.geometry.positions
    game = scene(("near", "law", "n4", (40 + 5 * I, 60)))
    kill(game)
    events = feed(game, 5, True, 1)          # the Hero test passes: he stays
    assert not of(events, "fled") and game.state.figures["near"].status == "standing"
    assert game.state.figures["near"].hero == 1


def test_nerve_beside_someone_failing_within_6_inches_but_no_further_chain():
    """'If within 6 inches and L/O/S of someone failing N test for the above reason'."""
    game = scene(("near", "law", "n4", (40 + 10 * I, 60)), ("buddy", "law", "n4", (40 + 15 * I, 60)),
                 ("third", "law", "n4", (40 + 20.5 * I, 60)), ("aside", "law", "n4", (40 + 12 * I, 60 + 6.2 * I)))
    kill(game)
    feed(game, 5, False)                     # 'near' (10 inches) fails ...
    assert asked(game) == "nerve_failer" and game.pending.about["unit"] == "buddy"
    feed(game, 5, False)                     # ... so 'buddy' (5 inches from him) tests, and fails too
    assert game.state.figures["buddy"].status == "fled"
    assert asked(game) is None               # 'aside' is 6.5 inches from 'near' (13.5 from the casualty)
    assert [t["unit"] for t in nerve_tests(game)] == ["near", "buddy"]   # 'third' is 5.5 from buddy: no chain


def test_nerve_modifiers_levels_casualties_cover():
    """'-1 if the casualty is 2 or more levels higher than the tester; -1 for each figure wounded or O.O.A.
    after the first; +1 if the character is in cover'."""
    game = scene(("near", "law", "n4", (40 + 5 * I, 60)), victim_sheet="boss")
    kill(game)
    feed(game, 1)
    assert nerve_tests(game)[0]["value"] == 3 and "-1 casualty 2 or more levels higher" in nerve_tests(game)[0]["modifiers"]
    game = scene(("near", "law", "n4", (40 + 5 * I, 60)), ("hurt", "law", "n4", (40 + 5 * I, 64)))
    game.state.figures["hurt"] = replace(game.state.figures["hurt"], status="wounded")
    kill(game)
    feed(game, 1)
    assert nerve_tests(game)[0]["value"] == 3                       # two casualties in sight: -1
    crate = Block(40 + 5 * I - 3, 57, 40 + 5 * I - 2, 63, 48.0)     # between 'near' and x, the enemy
    game = scene(("near", "law", "n4", (40 + 5 * I, 60)), blocks=[crate])
    kill(game)
    feed(game, 1)
    assert nerve_tests(game)[0]["value"] == 5 and "+1 in cover" in nerve_tests(game)[0]["modifiers"]


def test_nerve_when_activated_near_the_wounded_or_in_sight_of_the_dead():
    """'If within 6 inches and L/O/S of WOUNDED friend or 12 inches and L/O/S of a dead friend when
    ACTIVATED'; NERVES OF STEEL 'Ignores Nerve test caused by WOUNDED friends at start of turn'."""
    for sheet, status, distance, tests in (("n4", "wounded", 5, True), ("n4", "wounded", 7, False),
                                           ("n4", "out_of_action", 11, True), ("n4", "out_of_action", 13, False),
                                           ("steel", "wounded", 5, False),
                                           ("steel", "out_of_action", 5, True)):
        game = make([("x", "outlaws", "shooter", (10, 90)), ("t", "law", sheet, (40, 60)),
                     ("hurt", "law", "n4", (40 + distance * I, 60))], sheets=SHEETS)
        game.state.figures["hurt"] = replace(game.state.figures["hurt"], status=status)
        arrange(game, ["t#1"])
        assert (asked(game) == "nerve_activation") is tests, (sheet, status, distance)


def test_skills_true_grit_two_dice_keep_the_best():
    game = make([("x", "outlaws", "shooter", (10, 90)), ("t", "law", "grit", (40, 60)),
                 ("hurt", "law", "n4", (44, 60))], sheets=SHEETS)
    game.state.figures["hurt"] = replace(game.state.figures["hurt"], status="wounded")
    arrange(game, ["t#1"])
    assert game.pending.spec.count == 2 and game.pending.spec.keep == "lowest"
    feed(game, (6, 3))
    assert nerve_tests(game)[0]["passed"] and nerve_tests(game)[0]["dice"] == [6, 3]


def test_nerve_the_wounded_do_not_test_the_knocked_down_do():
    """'A figure that is KNOCKED DOWN is still subject to the other type of NERVE tests'."""
    game = scene(("lying", "law", "n4", (40 + 4 * I, 60)), ("down", "law", "n4", (40 - 4 * I, 60)))
    game.state.figures["lying"] = replace(game.state.figures["lying"], status="wounded")
    game.state.figures["down"] = replace(game.state.figures["down"], status="knocked_down")
    kill(game)
    assert game.pending.about["unit"] == "down"
    feed(game, 1)
    assert [t["unit"] for t in nerve_tests(game)] == ["down"]
    game.apply(EndTurn("x"))
