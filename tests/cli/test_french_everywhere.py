"""Issue 16: every command run with `--lang fr` asks the catalogue only for messages it translates.
(The three rulesets' battle logs and line-of-sight verdicts included.)

bow3d.i18n.missing() records each message looked up in French that the French catalogue lacks;
every command's --help (each subcommand's too), argparse's own words (usage, a missing argument)
and a few real runs on the bundled scenes and replays must leave the record empty. The help texts'
argparse placeholders (%(default)s, %%) survive translation.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from bow3d import cli, i18n

ROOT = Path(__file__).resolve().parents[2]
VILLAGE = str(ROOT / "scenes" / "village.yaml")
REPLAY = str(ROOT / "replays" / "village-seed1.bowreplay")


def command_paths(parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command and subcommand of the parser: ('los',), ('scene', 'check'), ..."""
    paths = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                paths.append(prefix + (name,))
                paths += command_paths(sub, prefix + (name,))
    return paths


COMMANDS = command_paths(cli.build_parser())


def run_french(argv: list[str]) -> tuple[int, set]:
    """(exit code, the messages asked for in French that the catalogue lacks) of `bow3d --lang fr ...`."""
    with i18n.missing() as record:
        try:
            code = cli.main(["--lang", "fr", *argv])
        except SystemExit as stop:   # --help and usage errors: argparse exits
            code = stop.code
    return code, record


def test_every_command_is_reached():
    assert len(COMMANDS) > 20 and ("scene", "check") in COMMANDS and ("los",) in COMMANDS


@pytest.mark.parametrize("path", [()] + COMMANDS, ids=lambda p: " ".join(p) or "bow3d")
def test_every_help_is_french_through_and_through(path, capsys):
    code, missing = run_french([*path, "--help"])
    out = capsys.readouterr().out
    assert code == 0 and not missing, sorted(missing)
    assert out.startswith("usage : bow3d") and "afficher cette aide et quitter" in out
    assert "show this help" not in out and "\noptions:" in out


@pytest.mark.parametrize("argv, words", [
    (["los", VILLAGE, "blue-rifle-2", "red-pistol"], "voit red-pistol"),
    (["los", VILLAGE, "blue-rifle-2"], "tenons"),
    (["replay", "show", REPLAY], "Avant la bataille"),
    (["replay", "show", str(ROOT / "replays" / "war-of-bros-seed1.bowreplay")], "ordre de Placement des Unités"),
    (["replay", "show", str(ROOT / "replays" / "western-town-seed1.bowreplay")], " pouces"),
    (["los", str(ROOT / "scenes" / "western-town.yaml"), "gunslinger"], "pouces."),
    (["los", str(ROOT / "scenes" / "war-of-bros.yaml"), "blue-lt"], " vu, "),
    (["odds", "3", "2"], "réussite"),
    (["odds", "--ruleset", "war-of-bros", "--accuracy", "2d8", "--damage", "d8", "--cover", "medium"], "arrêté par"),
    (["odds", "--ruleset", "blaze-of-glory", "--shoot", "5"], "la cible après les tirs"),
    (["replay", "verify", REPLAY], "entrées re-simulées"),
    (["cost", VILLAGE], " PC ("),
    (["scene", "check", VILLAGE], "champ de bataille"),
    (["rulesets"], "livre de règles"),
    (["inspect", str(ROOT / "scenes" / "village.ldr")], "boîte englobante"),
])
def test_real_runs_in_french_miss_no_message(argv, words, capsys):
    code, missing = run_french(argv)
    assert code == 0 and not missing, sorted(missing)
    assert words in capsys.readouterr().out


def test_argparse_speaks_french_and_exits_2(capsys):
    code, missing = run_french(["los"])
    err = capsys.readouterr().err
    assert code == 2 and not missing, sorted(missing)
    assert "usage : bow3d los" in err and "erreur : les arguments suivants sont obligatoires : scene, firer" in err


def test_a_user_error_is_french_and_exits_2(capsys):
    code, missing = run_french(["los", str(ROOT / "scenes" / "nowhere.yaml"), "a", "b"])
    err = capsys.readouterr().err
    assert code == 2 and not missing, sorted(missing)
    assert err.startswith("bow3d los : erreur : ")


def test_the_language_does_not_stick_to_argparse(capsys):
    run_french(["los"])
    capsys.readouterr()
    with pytest.raises(SystemExit):
        cli.main(["los"])
    assert "the following arguments are required" in capsys.readouterr().err


PERCENT = re.compile(r"%\(\w+\)[a-z]|%[a-z%]")


def test_help_translations_keep_argparse_placeholders():
    from bow3d.cli_words import ARGPARSE_WORDS, parser_texts

    with i18n.speaking("en"):
        texts = parser_texts(cli.build_parser()) + list(ARGPARSE_WORDS)
    with i18n.speaking("fr"):
        for text in texts:
            assert sorted(PERCENT.findall(i18n._(text))) == sorted(PERCENT.findall(text)), text


def test_a_broken_scene_is_refused_in_french_with_every_problem(tmp_path, capsys):
    scene = tmp_path / "broken.yaml"
    scene.write_text("format: bow3d-scene/1\nbattlefield: field.ldr\nsides: [{id: blue, colour: 1}, {id: blue, colour: 4}]\n"
                     "sheets: {}\nunits:\n  - {id: a, side: green, sheet: nope, model: 3626.dat, position: [1, 1], "
                     "facing: 0}\n", encoding="utf-8")
    code, missing = run_french(["scene", "check", str(scene)])
    err = capsys.readouterr().err
    assert code == 2 and not missing, sorted(missing)
    assert "camp en double 'blue'" in err and "camp inconnu 'green'" in err and "fiche inconnue 'nope'" in err
    assert "de plus)" in err
