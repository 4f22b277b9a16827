"""Issue 16: English that bypasses the catalogue. A heuristic: run commands with `--lang fr` and look for
common English function words in what they print.

tests/cli/test_french_everywhere.py catches a message that goes through `_()` without a translation; this
catches words that never go through `_()` at all (an f-string printed as it is). No output line may hold
" the ", " and ", " with ", " of ", " to " or " is " as a word, once the words that are no sentence are
taken out: ids and file names (they hold '-', '_', '.' or '/'), example command lines, and the rule books'
own titles (Blaze of Glory, War of Bros), which stay as their authors wrote them. The detector is tested
too: the same commands printing English (the French catalogue emptied) are caught.
"""

from __future__ import annotations

import contextlib
import gettext
import re
from pathlib import Path

import pytest

from bow3d import cli, i18n

ROOT = Path(__file__).resolve().parents[2]
ENGLISH = re.compile(r"(?<![\w'’-])(the|and|with|of|to|is)(?![\w'’-])", re.IGNORECASE)
PROPER_NAMES = re.compile(r"Blaze of Glory|BLAZE OF GLORY|War of Bros", re.IGNORECASE)
NOT_WORDS = re.compile(r"\S*[/\\._]\S*|\S+-\S+")   # paths, file names, ids: blaze-of-glory, red-to-1, a.yaml
BROKEN_SCENE = """format: bow3d-scene/1
battlefield: field.ldr
colour: 3
sides: [{id: blue, colour: 1}, {id: red, colour: x}]
sheets:
  rifleman: {kind: minifig, move: -2, attack: abc, dodge: 1.5, weapons: [{name: rifle, kind: ranged, damage: 2}]}
  car: {kind: boat}
units:
  - {id: a, side: blue, sheet: rifleman, model: 3626.dat, position: [1], facing: 0}
  - {id: b, side: green, sheet: nope, model: 3626.dat, position: [1, 2], facing: 0}
"""


def english_words(line: str) -> list[str]:
    """The English function words of an output line, ids, file names, commands and book titles aside."""
    if re.match(r"\s*(\$ )?bow3d \S", line):   # an example command line
        return []
    words = NOT_WORDS.sub(" ", PROPER_NAMES.sub(" ", line))
    return ENGLISH.findall(words)


def run_french(argv: list[str], capsys) -> list[str]:
    """The lines `bow3d --lang fr ARGV` prints (stdout and stderr)."""
    with contextlib.suppress(SystemExit):   # a refused scene: exit code 2, its words on stderr
        cli.main(["--lang", "fr", *argv])
    captured = capsys.readouterr()
    return (captured.out + captured.err).splitlines()


def scene(name: str) -> str:
    return str(ROOT / "scenes" / name)


def replay(name: str) -> str:
    return str(ROOT / "replays" / name)


RUNS = {
    "los village": ["los", scene("village.yaml"), "blue-rifle-2", "red-pistol"],
    "los village, every target": ["los", scene("village.yaml"), "blue-rifle-2"],
    "los western town": ["los", scene("western-town.yaml"), "gunslinger"],
    "los war of bros": ["los", scene("war-of-bros.yaml"), "blue-lt"],
    "replay show BOW": ["replay", "show", replay("village-seed1.bowreplay")],
    "replay show War of Bros": ["replay", "show", replay("war-of-bros-seed1.bowreplay")],
    "replay show Blaze of Glory": ["replay", "show", replay("western-town-seed1.bowreplay")],
    "replay verify": ["replay", "verify", replay("village-seed1.bowreplay")],
    "cost": ["cost", scene("village.yaml")],
    "rulesets": ["rulesets"],
    "scene check": ["scene", "check", scene("village.yaml")],
    "odds": ["odds", "3", "2"],
    "simulate": ["simulate", scene("village.yaml"), "--games", "2", "--no-progress"],
    "balance": ["balance", scene("village.yaml"), "--games", "2", "--candidates", "0", "--no-progress"],
}


def test_the_detector_sees_english_and_lets_ids_names_and_commands_be():
    assert english_words("the scene is fair: every side within 45%-55%") == ["the", "is"]
    assert english_words("  blue       score 50,0 % (IC 95 % 15,0 %-85,0 %), 2 victoires with 192 PC") == ["with"]
    assert not english_words("blaze-of-glory  Blaze of Glory : escarmouche au Far West, livre de règles "
                             "(blaze-of-glory-rules.txt) ; langues : en, fr")
    assert not english_words("  bow3d replay show replays/war-of-bros-seed1.bowreplay")
    assert not english_words("écrit : out/the-map_of.png ; la scène est équilibrée")


@pytest.mark.parametrize("name", list(RUNS))
def test_french_output_holds_no_english_sentence(name, capsys):
    lines = run_french(RUNS[name], capsys)
    assert lines, "the command printed nothing"
    english = [line for line in lines if english_words(line)]
    assert not english, "\n".join(english[:10])


def test_a_broken_scene_is_refused_without_english(tmp_path, capsys):
    broken = tmp_path / "broken.yaml"
    broken.write_text(BROKEN_SCENE, encoding="utf-8")
    lines = run_french(["scene", "check", str(broken)], capsys)
    assert any("champ inconnu" in line for line in lines) and any("nombre entier" in line for line in lines)
    english = [line for line in lines if english_words(line)]
    assert not english, "\n".join(english)


@pytest.mark.parametrize("name", ["cost", "replay show BOW", "scene check"])
def test_the_same_commands_in_english_are_caught(name, capsys, monkeypatch):
    """Honest: with the French catalogue emptied, `--lang fr` prints the source's English, and the
    detector finds it."""
    monkeypatch.setitem(i18n._catalogues, "fr", gettext.NullTranslations())
    lines = run_french(RUNS[name], capsys)
    assert any(english_words(line) for line in lines), "\n".join(lines[:10])
