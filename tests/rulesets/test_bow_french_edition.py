"""BOW 1.3's French edition, `bow-1.3-fr` (issue 16): where the French rule book differs from the English
one, the edition says which reading it follows, and a game played under its name follows it.

One test per difference of bow3d.rulesets.bow.french.DIFFERENCES (each would fail if the game took the
other reading), on the rules tests' flat field; the English edition's behaviour is the same game.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bow3d.rules import Game
from bow3d.rules.flat import Box, FlatGeometry
from bow3d.rulesets import get, known, parse_scene
from bow3d.rulesets.bow import Attack, CompulsoryMove, Move
from bow3d.rulesets.bow.french import DIFFERENCES, FRENCH_NAME, FrenchBowScene
from tests.rules.conftest import build_scene, roll

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT.parent / "shared" / "seeds"
PILOT, ENEMY_PILOT = ("p", "blue", "trooper", None, 0), ("q", "red", "trooper", None, 0)
R_FAR = ("r9", "red", "trooper", (55.5, 55.5), 0)


def french_game(units, vehicles=(), *, walls=(), sheets=None) -> Game:
    """A game of `bow-1.3-fr` on the 60 x 60 flat field; blue starts."""
    english = build_scene(units, vehicles, sheets)
    scene = FrenchBowScene.model_validate({**english.model_dump(), "ruleset": {
        **english.ruleset.model_dump(), "name": FRENCH_NAME}})
    game = Game.start(scene, FlatGeometry.from_scene(scene, walls=list(walls)))
    assert game.ruleset.name == FRENCH_NAME
    for side in ("blue", "red"):
        game.apply(game.pending_roll.answer(3 if side == "blue" else 1))
    return game


def difference(section: str, words: str):
    return next(d for d in DIFFERENCES if d.section == section and words in d.french)


def test_the_edition_is_registered_with_its_book_and_languages():
    ruleset = get(FRENCH_NAME)
    assert ruleset.book == "bow-rules-1.3-fr.txt" and ruleset.languages[0] == "fr"
    assert [r.name for r in known()].count(FRENCH_NAME) == 1
    assert get("bow-1.3").book == "bow-rules-1.3-en.md" and get("bow-1.3").edition == "1.3 (English edition)"
    scene = parse_scene("format: bow3d-scene/1\nbattlefield: f.ldr\nruleset: {name: bow-1.3-fr}\n"
                        "sides: [{id: blue, colour: 1}, {id: red, colour: 4}]\n")
    assert isinstance(scene, FrenchBowScene)


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the rule books are not beside this checkout")
def test_every_difference_quotes_both_books():
    french = " ".join((SEEDS / "bow-rules-1.3-fr.txt").read_text(encoding="utf-8").split()).replace("’", "'")
    english = " ".join((SEEDS / "bow-rules-1.3-en.md").read_text(encoding="utf-8").split())
    for d in DIFFERENCES:
        for quoted, book in ((d.french, french), (d.english, english)):
            for part in quoted.replace("**", "").split(" ... "):
                assert " ".join(part.split()).rstrip(".") in book.replace("**", ""), (d.section, part)
    assert len(DIFFERENCES) == 4 and {d.reading for d in DIFFERENCES} == {"both", "english", "french"}


@pytest.mark.parametrize("facing", [90, 270])
def test_s3_6_3_four_sectors_two_of_them_flanks(facing):
    """§3.6.3 'quatre secteurs' (French) and 'three sectors' (English): either flank is a side hit."""
    assert difference("3.6.3", "quatre secteurs").reading == "both"
    game = french_game([PILOT, ENEMY_PILOT, R_FAR], [("bj", "blue", "jeep", (10, 10.5), 0, 3, ["p"]),
                                                     ("rj", "red", "jeep", (22, 10.5), facing, 1, ["q"])])
    hit = next(e for e in game.apply(CompulsoryMove("p")) if e.kind == "collision")
    assert (hit.data["sector"], hit.data["relative_speed"]) == ("side", 3)


def test_s3_6_3_last_sentence_vehicles_not_destroyed_are_stopped():
    """§3.6.3's last sentence: the French says destroyed vehicles are stopped; bow-1.3-fr reads the English
    ('are not destroyed'): both jeeps survive the collision, and both stop."""
    assert difference("3.6.3", "sont détruits").reading == "english"
    game = french_game([PILOT, ENEMY_PILOT, R_FAR], [("bj", "blue", "jeep", (10, 10.5), 0, 3, ["p"]),
                                                     ("rj", "red", "jeep", (22, 10.5), 180, 1, ["q"])])
    game.apply(CompulsoryMove("p"))
    while game.pending_roll is not None:
        roll(game, 0)
    for jeep in ("bj", "rj"):
        assert not game.state.vehicles[jeep].destroyed and game.state.vehicles[jeep].speed == 0


def test_s2_3_1_caption_the_obstacle_limits_the_move_to_where_it_stands():
    """§2.3.1's caption: 'limits his move to 2 studs' (English), not 'by 2 studs' (French 'de 2 tenons'): a
    house 2 studs to the right of a Move 5 trooper stops a move that way after 2 studs."""
    assert difference("2.3.1", "de 2 tenons").reading == "english"
    house = Box(13, 5, 20, 16)   # from x = 13: cells 11 and 12 are free to the right of b1 (cell 10)
    game = french_game([("b1", "blue", "trooper", (10.5, 10.5), 0), R_FAR], walls=[house])
    assert game.check(Move("b1", (12, 10), 0)) is None
    assert game.refusal(Move("b1", (13, 10), 0)).reason is not None


def test_s2_4_3_at_least_as_many_damage_points_as_hp_kill():
    """§2.4.3 'au moins autant de points de dommage' (French): 3 damage points on a unit of 2 HP kill it."""
    assert difference("2.4.3", "au moins autant").reading == "french"
    tough = {"kind": "minifig", "action_budget": 2, "move": 5, "attack": 1, "dodge": 0, "armor": 0, "hp": 2,
             "weapons": [{"name": "knife", "kind": "melee", "damage": 1}]}
    game = french_game([("b1", "blue", "trooper", (10.5, 10.5), 0), ("r1", "red", "tough", (14.5, 10.5), 180)],
                       sheets={"tough": tough})
    game.apply(Attack("b1", "r1", "rifle"))
    events = roll(game, 3)
    if game.pending_roll is not None:
        events += roll(game, 0)
    result = next(e for e in events if e.kind == "attack_result")
    assert result.data["damage"] == 3 and not game.state.units["r1"].in_play


def test_the_english_edition_plays_the_same_readings():
    from bow3d.rulesets.bow.readings import readings

    english, french = get("bow-1.3"), get(FRENCH_NAME)
    assert english.revision == french.revision
    assert readings(english.params_model()) == readings(french.params_model())


def test_the_docs_print_the_same_table():
    text = (ROOT / "docs" / "bow-1.3-fr.md").read_text(encoding="utf-8")
    for d in DIFFERENCES:
        assert f"| {d.section} | « {d.french} » | \"{d.english}\" | {d.reading} | {d.why} |" in text
