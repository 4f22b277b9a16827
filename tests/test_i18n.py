"""One message catalogue for the words bow3d prints (issue 16, first part): every message has its
French translation with the same placeholders, in the French rule book's terms (the glossary in
the catalogue's header), the compiled catalogue is up to date, and the language follows --lang,
BOW3D_LANG, then the locale, with one line when a language has no catalogue."""

from __future__ import annotations

import ast
import os
import re
import string
import subprocess
import sys
from pathlib import Path

import pytest

from bow3d import i18n
from bow3d.cli import main
from bow3d.locale import GLOSSARY

babel = pytest.importorskip("babel", reason="Babel extracts the messages (pip install -e '.[test]')")

from bow3d.locale.__main__ import extract, main as rebuild, read_po  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
VILLAGE = str(ROOT / "scenes" / "village.yaml")
REPLAY = str(ROOT / "replays" / "village-seed1.bowreplay")


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def _forms(value) -> list[str]:
    return list(value) if isinstance(value, (list, tuple)) else [value]


@pytest.fixture(scope="module")
def french():
    return read_po("fr")


def test_every_message_of_the_source_has_its_french_translation_with_the_same_placeholders(french):
    template = extract()
    ids = [m.id for m in template if m.id]
    assert len(ids) > 100
    for msgid in ids:
        message = french.get(msgid[0] if isinstance(msgid, tuple) else msgid)
        assert message is not None and all(_forms(message.string)), f"no French for {msgid!r}"
        wanted = set().union(*(_fields(i) for i in _forms(msgid)))
        for form in _forms(message.string):
            assert _fields(form) == wanted, f"{msgid!r} -> {form!r}: placeholders {_fields(form)} != {wanted}"


def test_the_committed_catalogues_are_what_a_rebuild_writes(capsys):
    """python -m bow3d.locale --check: the .po holds every message of the source, the .mo is its compilation."""
    assert rebuild(["--check"]) == 0, capsys.readouterr().err


def singular(text: str) -> str:
    """'points de dommage' -> 'point de dommage': a term counts in its plural too."""
    return re.sub(r"(\w)s\b", r"\1", text)


def test_the_glossary_is_in_the_catalogue_header_and_every_translation_says_its_terms(french):
    header = (ROOT / "bow3d" / "locale" / "fr" / "LC_MESSAGES" / "bow3d.po").read_text(encoding="utf-8")
    for english, word in GLOSSARY["fr"].items():
        assert f"#   {english} = {word}" in header
    checked = 0
    for message in french:
        if not message.id:
            continue
        source = " ".join(re.sub(r"\{[^}]*\}", " ", i) for i in _forms(message.id)).lower()
        target = singular(" ".join(_forms(message.string)).lower())
        for english, word in GLOSSARY["fr"].items():
            if re.search(rf"\b{re.escape(english)}s?\b", source):
                assert singular(word.lower()) in target, f"{message.id!r}: '{english}' is '{word}' in French: {target!r}"
                checked += 1
    assert checked > 30


def test_french_plurals_follow_the_french_rule():
    """French: 0 and 1 take the singular ('0 brique'), English 0 the plural."""
    with i18n.speaking("fr"):
        assert [i18n.ngettext("{n} brick", "{n} bricks", n).format(n=n) for n in (0, 1, 2)] == [
            "0 brique", "1 brique", "2 briques"]
    with i18n.speaking("en"):
        assert i18n.ngettext("{n} brick", "{n} bricks", 0).format(n=0) == "0 bricks"


@pytest.mark.parametrize("option, environ, expected", [
    ("fr", {"LANG": "en_GB.UTF-8"}, "fr"),
    (None, {"BOW3D_LANG": "fr", "LANG": "en_US.UTF-8"}, "fr"),
    (None, {"LANG": "fr_FR.UTF-8"}, "fr"),
    (None, {"LC_ALL": "fr_CA.UTF-8", "LANG": "en_US.UTF-8"}, "fr"),
    (None, {"LC_ALL": "C.UTF-8", "LANG": "fr_FR.UTF-8"}, "en"),   # LC_ALL decides, and C asks for no language
    ("en", {"BOW3D_LANG": "fr"}, "en"),
    (None, {}, "en"),
])
def test_the_language_follows_the_option_then_bow3d_lang_then_the_locale(option, environ, expected):
    assert i18n.choose(option, environ) == (expected, None)


def test_an_unknown_language_falls_back_to_english_with_one_line():
    lang, note = i18n.choose("de", {})
    assert lang == "en" and "'de'" in note and "en, fr" in note and "English" in note


def test_bow3d_lang_fr_los_prints_the_verdict_in_french(capsys):
    assert main(["--lang", "fr", "los", VILLAGE, "blue-rifle-2", "red-pistol"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("blue-rifle-2 voit red-pistol : ")
    assert re.search(r"\d+ % visible, à couvert \(\d+ % caché par véhicule blue-jeep", text)
    assert "35,0 tenons : -2 briques" in text
    assert "en face du tireur" in text
    assert main(["los", VILLAGE, "blue-rifle-2", "red-pistol"]) == 0   # the language does not stick
    assert re.search(r"blue-rifle-2 can see red-pistol: \d+% visible, covered", capsys.readouterr().out)


@pytest.mark.parametrize("variable", ["LANG", "BOW3D_LANG"])
def test_the_locale_alone_gives_french(variable, tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG", "BOW3D_LANG")}
    env[variable] = "fr_FR.UTF-8" if variable == "LANG" else "fr"
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    result = subprocess.run([sys.executable, "-m", "bow3d", "los", VILLAGE, "blue-rifle-2", "red-pistol"],
                            capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "voit red-pistol" in result.stdout and "tenons" in result.stdout


def test_an_unknown_language_says_so_once_and_speaks_english(capsys):
    assert main(["--lang", "xx", "los", VILLAGE, "blue-rifle-2", "red-pistol"]) == 0
    out, err = capsys.readouterr()
    assert "can see red-pistol" in out and err.count("no catalogue for the language 'xx'") == 1


def test_replay_show_in_french_is_the_same_log_in_other_words(capsys):
    assert main(["replay", "show", REPLAY]) == 0
    english = capsys.readouterr().out.splitlines()
    assert main(["--lang", "fr", "replay", "show", REPLAY]) == 0
    french = capsys.readouterr().out.splitlines()
    assert len(french) == len(english)
    assert french[2] == "Avant la bataille" and "Round 1" in french
    assert any("lance 3 briques (Attaque/Dommage : blue-driver sur red-pistol)" in line for line in french)
    winner = english[-1].split("game over: ")[1].split(" wins")[0]
    assert french[-1].startswith(f"Résultat : fin de la partie : {winner} gagne")
    changed = sum(a != b for a, b in zip(english, french))
    assert changed > 0.9 * len([line for line in english if line.strip()])


def _binds_underscore(tree: ast.AST) -> list[int]:
    """Lines where a function binds `_` itself (a throwaway), which would hide the catalogue's `_`."""
    lines = []
    for node in ast.walk(tree):
        if ((isinstance(node, ast.Name) and node.id == "_" and isinstance(node.ctx, ast.Store))
                or (isinstance(node, ast.arg) and node.arg == "_")):
            lines.append(node.lineno)
    return lines


def test_no_module_that_translates_uses_underscore_as_a_throwaway_name():
    offenders = []
    for path in sorted((ROOT / "bow3d").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imports = any(isinstance(n, ast.ImportFrom) and n.module == "bow3d.i18n" and any(a.name == "_" for a in n.names)
                      for n in ast.walk(tree))
        if imports and path.name != "i18n.py":
            offenders += [f"{path.relative_to(ROOT)}:{line}" for line in _binds_underscore(tree)]
    assert not offenders, "`_` rebound where it translates: " + ", ".join(offenders)


def test_the_english_only_books_terms_are_said_to_be_bow3d_s_translation(french):
    """War of Bros and Blaze of Glory have English books only: the header says their French words are bow3d's
    own, lists them, and the catalogue uses each of them."""
    from bow3d.locale import TRANSLATED_TERMS

    header = (ROOT / "bow3d" / "locale" / "fr" / "LC_MESSAGES" / "bow3d.po").read_text(encoding="utf-8")
    said = " ".join(" ".join(_forms(m.string)) for m in french if m.id).lower()
    for book, terms in TRANSLATED_TERMS["fr"].items():
        assert f"# {book}: its rule book is English only; these are bow3d's own translations" in header
        for english, word in terms.items():
            assert f"#   {english} = {word}" in header
            assert all(part.lower() in said for part in word.split("/")[:1]), word


def test_every_ruleset_says_how_its_games_end_in_each_language():
    """The rules' result codes ('win', 'points', War of Bros' 'power', Blaze of Glory's 'survivors') are words in
    the battle log's game_over line and in `replay verify`, French included: each bundled replay's result has
    its ruleset's words (they were printed raw: 'red gagne (win)')."""
    import json

    from bow3d.rulesets import known, load_scene, ruleset_of

    for ruleset in known():
        english, french = ruleset.narrator("en"), ruleset.narrator("fr")
        assert {"win", "draw"} <= set(english.results), ruleset.name
        for code in english.results:
            assert french.result(code) not in (code, english.result(code)), (ruleset.name, code)
    for path in sorted((ROOT / "replays").glob("*.bowreplay")):
        lines = path.read_text().splitlines()
        end = json.loads(lines[-1])["end"]
        scene = load_scene(path.parent / json.loads(lines[0])["scene"])
        assert end["result"] in ruleset_of(scene).narrator().results, path.name


def test_parts_of_a_line_are_parted_by_a_semicolon_the_language_s_way(capsys):
    """French puts a space before ';' as before ':' ('p = 0,262 ; 20 tenons'), in the lines bow3d joins itself too
    (they read 'p = 0,262; 20 tenons' among translated ones written ' ; ')."""
    assert main(["--lang", "fr", "odds", "3", "2", "--range", "20"]) == 0
    assert "(p = 0,262 ; 20 tenons : -1)" in capsys.readouterr().out
    assert main(["odds", "3", "2", "--range", "20"]) == 0
    assert "(p = 0.262; 20 studs: -1)" in capsys.readouterr().out
