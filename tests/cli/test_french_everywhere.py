"""Issue 16: every command run with `--lang fr` asks the catalogue only for messages it translates.
(The three rulesets' battle logs and line-of-sight verdicts included; the batch and file commands'
summaries, reports and pictures too, the rulesets' refusals and pydantic's scene messages.)

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


def test_an_unrecognized_argument_is_said_in_french(capsys):
    """Was: 'unrecognized arguments' stayed English (argparse says it in parse_args, after the parse)."""
    code, missing = run_french(["los", str(ROOT / "scenes" / "village.yaml"), "a", "b", "--bogus"])
    err = capsys.readouterr().err
    assert code == 2 and not missing, sorted(missing)
    assert "erreur : arguments non reconnus : --bogus" in err


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


# the commands that write files or play games: their summaries, reports and pictures' words in French
# ({tmp}: the test's folder)
BATCH_AND_FILE_RUNS = [
    (["simulate", VILLAGE, "--games", "2", "--no-progress"], "victoire"),
    (["arena", VILLAGE, "--players", "greedy,ai", "--games", "2", "--no-progress"], "classement (façon Elo"),
    (["export", str(ROOT / "scenes" / "war-of-bros.yaml"), "-o", "{tmp}/w.glb", "--quality", "draft"],
     "unités et véhicules"),
    (["scene", "from-ldraw", str(ROOT / "scenes" / "western-town.ldr"), "-o", "{tmp}/w.yaml"], "un cheval"),
    (["rulesets"], "édition anglaise"),
]


@pytest.mark.parametrize("argv, words", BATCH_AND_FILE_RUNS, ids=lambda v: v[0] if isinstance(v, list) else None)
def test_batch_and_file_commands_in_french_miss_no_message(argv, words, tmp_path, capsys):
    code, missing = run_french([a.replace("{tmp}", str(tmp_path)) for a in argv])
    assert code == 0 and not missing, sorted(missing)
    assert words in capsys.readouterr().out


def test_the_balance_report_and_the_battle_report_are_french(tmp_path, capsys):
    code, missing = run_french(["balance", VILLAGE, "--games", "2", "--candidates", "0", "--no-progress",
                                "--report", str(tmp_path / "bal")])
    assert code == 0 and not missing, sorted(missing)
    assert "rounds en moyenne" in capsys.readouterr().out
    markdown = (tmp_path / "bal.md").read_text(encoding="utf-8")
    assert markdown.startswith("# Équilibre de ") and "## Telle qu'elle est" in markdown and "IC 95 %" in markdown
    assert '"verdict": "' in (tmp_path / "bal.json").read_text() and "scores" in (tmp_path / "bal.json").read_text()
    code, missing = run_french(["report", REPLAY, "-o", str(tmp_path / "r.html"), "--no-pictures"])
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert code == 0 and not missing, sorted(missing)
    assert "ko de glTF" in capsys.readouterr().out
    assert '<html lang="fr">' in page and "Journal de bataille" in page and '"Lecture"' in page
    assert "Battle log" not in page and '"Play"' not in page


@pytest.mark.render
@pytest.mark.parametrize("argv, words", [
    (["heatmap", VILLAGE, "--from", "blue-rifle-2", "-o", "{tmp}/h.png", "--no-progress"], "Vu depuis blue-rifle-2"),
    (["heatmap", VILLAGE, "--cover", "blue", "-o", "{tmp}/c.png", "--no-progress"], "à couvert ou cachée"),
    (["cards", str(ROOT / "scenes" / "war-of-bros.yaml"), "-o", "{tmp}/cards.png"], "cartes écrites"),
])
def test_picture_commands_in_french_miss_no_message(argv, words, tmp_path, capsys, renderer_available):
    code, missing = run_french([a.replace("{tmp}", str(tmp_path)) for a in argv])
    assert code == 0 and not missing, sorted(missing)
    assert words in capsys.readouterr().out


def test_refusals_of_war_of_bros_and_blaze_of_glory_are_french():
    """Why an action is illegal, in the language spoken (the play UI's prompt, replay verify's record):
    the engine's own refusals and the rulesets' words of why."""
    from types import SimpleNamespace

    from bow3d.rules.pending import Decide, check_decide, check_roll
    from bow3d.rulesets.war_of_bros.blocking import _what

    game = SimpleNamespace(state=SimpleNamespace(pending=None))
    with i18n.missing() as record, i18n.speaking("fr"):
        assert check_roll(game, None).words == "aucun lancer n'est attendu maintenant"
        assert check_decide(game, Decide("blue", "x")).words == "aucune décision n'est attendue maintenant"
        assert _what(SimpleNamespace(kind="wreck", id="tank-1")) == "une épave (tank-1)"
    with i18n.speaking("en"):
        assert check_roll(game, None).words == "no throw is awaited now"
    assert not record, sorted(record)


def test_pydantic_messages_are_french_and_english_stays_pydantic_s():
    from bow3d.scene.pydantic_words import problem

    item = {"type": "greater_than_equal", "msg": "Input should be greater than or equal to 0", "ctx": {"ge": 0}}
    literal = {"type": "literal_error", "msg": "Input should be 'a' or 'b'", "ctx": {"expected": "'a' or 'b'"}}
    unknown = {"type": "url_parsing", "msg": "Input should be a valid URL", "ctx": {}}
    with i18n.speaking("en"):
        assert [problem(i) for i in (item, literal, unknown)] == [i["msg"] for i in (item, literal, unknown)]
    with i18n.speaking("fr"):
        assert problem(item) == "la valeur doit être plus grande que 0 ou égale"
        assert problem(literal) == "la valeur doit être 'a' ou 'b'"
        assert problem(unknown) == "Input should be a valid URL"   # not mapped: pydantic's words


def test_blaze_of_glory_modifiers_are_said_in_the_language_spoken_and_recorded_in_english(capsys):
    from bow3d.rulesets.blaze_of_glory.modifier_words import say

    recorded = ["-1 partial cover", "-2 for 2 more casualties", "-1 for 1 story fallen",
                "S split between two pistols: 3 and 2", "-7 something new"]
    with i18n.speaking("en"):
        assert [say(m) for m in recorded] == recorded
    with i18n.missing() as record, i18n.speaking("fr"):
        assert [say(m) for m in recorded] == ["-1 couvert partiel", "-2 pour 2 victimes de plus",
                                              "-1 pour 1 étage de chute", "S partagé entre deux pistolets : 3 and 2",
                                              "-7 something new"]
    assert not record, sorted(record)
    code, missing = run_french(["replay", "show", str(ROOT / "replays" / "western-town-seed1.bowreplay")])
    out = capsys.readouterr().out
    assert code == 0 and not missing and "couvert partiel, -1 deux tirs" in out and "partial cover" not in out
