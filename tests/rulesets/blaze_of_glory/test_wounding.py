"""Blaze of Glory, Wounding: the table (1 out of action, 2-3 wound, 4 knock down with a Nerve test, 5 knock
down, 6+ no effect), rifle and shotgun at -1, a 6 always a 6, the figures' postures, the dead counter."""

from __future__ import annotations

import pytest

from bow3d.rulesets.blaze_of_glory import EndTurn, Shoot
from bow3d.rulesets.blaze_of_glory.book import SHOOTING_TABLE, STUDS_PER_INCH, table_result
from tests.rulesets.blaze_of_glory.helpers import asked, feed, of, start

I = STUDS_PER_INCH
LOW = {"low": {"level": 1, "shoot": 4, "fisticuffs": 3, "reflexes": 3, "nerve": 3, "weapons": ["pistol", "rifle"]}}


def shot(die: int, weapon: str = "pistol"):
    """a hits b (a 1 to hit) with `weapon`, and rolls `die` to wound; b (level 1) spends no Hero Point."""
    game = start([("a", "law", "low", (10, 20)), ("b", "outlaws", "mook", (10 + 5 * I, 20)),
                  ("c", "outlaws", "mook", (10 + 5 * I, 40))], ["a#1"], sheets=LOW)
    game.apply(Shoot("a", weapon, ("b",)))
    events = feed(game, 1, die)
    if asked(game) == "hero_point":
        events += feed(game, False)
    return game, events


@pytest.mark.parametrize("die,result,state,posture", [
    (1, "out_of_action", "out_of_action", None), (2, "wounded", "wounded", "face_down"),
    (3, "wounded", "wounded", "face_down"), (4, "knocked_down_nerve", "knocked_down", "on_back"),
    (5, "knocked_down", "knocked_down", "on_back"), (6, "no_effect", "standing", None)])
def test_wounding_the_table_and_the_postures(die, result, state, posture):
    """'If a figure is WOUNDED lay it on its front, KNOCKED DOWN on its back and if it goes OUT OF ACTION
    replace it with a DEAD counter'."""
    game, events = shot(die)
    assert of(events, "wound_roll")[0].data["result"] == result
    figure = game.state.figures["b"]
    assert figure.status == state
    downs = of(events, "down")
    assert [d.data["posture"] for d in downs] == ([posture] if posture else [])
    if die == 4:
        assert figure.needs_nerve and downs[0].data["needs_nerve"]
    if die == 1:
        assert of(events, "died") and "b" not in game.geometry.positions    # the dead counter: off the table


def test_wounding_rifle_minus_one_and_a_six_is_always_a_six():
    """'If the figure is shot by a rifle or a shotgun reduce the result of the dice by 1, REMEMBER a 6 is
    always treated as a 6'."""
    game, events = shot(5, "rifle")
    assert of(events, "wound_roll")[0].data["result"] == "knocked_down_nerve"     # 5 - 1 = 4
    game, events = shot(6, "rifle")
    assert of(events, "wound_roll")[0].data["result"] == "no_effect"               # not 5
    game, events = shot(2, "rifle")
    assert of(events, "wound_roll")[0].data["result"] == "out_of_action"           # 2 - 1 = 1
    assert [table_result(SHOOTING_TABLE, d, -1) for d in range(1, 7)] == [
        "out_of_action", "out_of_action", "wounded", "wounded", "knocked_down_nerve", "no_effect"]


def test_wounding_a_wounded_figure_wounded_again_goes_out_of_action():
    game, _ = shot(2)
    game.apply(Shoot("a", "pistol", ("b",), hero=True))   # the Hero Point's other go
    feed(game, 1, 1, 3)
    assert game.state.figures["b"].status == "out_of_action"


def test_wounding_knocked_down_figures_get_up_with_a_nerve_test_when_the_table_says_so():
    """Nerve: 'on a KNOCKED DOWN result ... a NERVE test must be passed before the figure will get up'
    ('Knock Down (N test)'); he 'continues to take NERVE tests until he passes one'."""
    game, _ = shot(4)
    game.apply(EndTurn("a"))
    while game.state.turn.unit != "b":
        game.apply(EndTurn(game.state.turn.unit))
    assert asked(game) == "get_up"
    events = feed(game, 6, False)
    assert of(events, "stayed_down") and game.state.figures["b"].status == "knocked_down"
    game, _ = shot(5)
    game.apply(EndTurn("a"))
    while game.state.turn.unit != "b":
        game.apply(EndTurn(game.state.turn.unit))
    assert game.pending is None and game.state.figures["b"].status == "standing"   # a plain knock down
