"""bow3d.textformats: the strict, bounded YAML and JSON readers (scenes, replays)."""

from __future__ import annotations

import time

import pytest

from bow3d.errors import ReplayError, UserInputError
from bow3d.textformats import (
    MAX_ALIAS_NODES,
    MAX_DEPTH,
    MAX_ENTRIES,
    MAX_INT_DIGITS,
    load_json,
    load_json_line,
    load_yaml,
    load_yaml_document,
)


def test_yaml_reads_plain_documents_like_pyyaml():
    assert load_yaml("a: [1, 2.5, true, null, x]\nb: {c: 'd'}\n", "t.yaml") == {
        "a": [1, 2.5, True, None, "x"], "b": {"c": "d"}}
    assert load_yaml("", "t.yaml") is None
    document = load_yaml_document("a:\n  b: 1\n", "t.yaml")
    assert document.data == {"a": {"b": 1}} and document.root.value[0][1].start_mark.line == 1


def test_yaml_limits_name_source_and_line():
    with pytest.raises(UserInputError, match=f"t.yaml:1: \\(YAML\\): nested deeper than {MAX_DEPTH}"):
        load_yaml("[" * 100_000, "t.yaml")
    with pytest.raises(UserInputError, match="t.yaml:1: \\(YAML\\): more than 10,000 items"):
        load_yaml("[" + "1," * (MAX_ENTRIES + 1) + "]", "t.yaml")
    with pytest.raises(UserInputError, match="an alias inside its own anchor"):
        load_yaml("a: &a [1, *a]\n", "t.yaml")
    with pytest.raises(UserInputError, match="t.yaml:3: \\(YAML\\): a key without its ':'; fix the YAML"):
        load_yaml("a: 1\nb c\nd: 2\n", "t.yaml")


@pytest.mark.parametrize("text, english, french", [
    ("a: b: c\n", "a ':' where no key can start", "un « : » là où aucune clé ne peut commencer"),
    ("a:\n  b: 1\n c: 2\n", "a line indented unlike its neighbours", "une ligne indentée autrement que ses voisines"),
    ("a:\n\t- 1\n", "(a tab? YAML indents with spaces only)", "(une tabulation ? YAML n'indente qu'avec des espaces)"),
    ("a: [1, 2\n", "a '[' never closed", "un « [ » jamais fermé"),
])
def test_the_commonest_yaml_mistakes_are_said_in_words_in_each_language(text, english, french):
    """PyYAML's 'mapping values are not allowed in this context' and the like, said plainly, French included."""
    from bow3d import i18n

    for language, words in (("en", english), ("fr", french)):
        with i18n.speaking(language), pytest.raises(UserInputError) as caught:
            load_yaml(text, "t.yaml")
        assert words in str(caught.value) and "t.yaml:" in str(caught.value), str(caught.value)


def test_yaml_aliases_within_bounds_are_fine_and_a_bomb_is_not():
    small = "a: &a [1, 2, 3]\nb: *a\nc: *a\n"
    assert load_yaml(small, "t.yaml") == {"a": [1, 2, 3], "b": [1, 2, 3], "c": [1, 2, 3]}
    bomb = "l0: &l0 [" + ", ".join(["x"] * 10) + "]\n" + "".join(
        f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 10) + "]\n" for i in range(1, 7))
    started = time.perf_counter()
    with pytest.raises(UserInputError, match=f"more than {MAX_ALIAS_NODES:,} added"):
        load_yaml(bomb, "t.yaml")
    assert time.perf_counter() - started < 1.0


def test_the_caller_picks_the_error_class():
    with pytest.raises(ReplayError):
        load_yaml("a: 1\na: 2\n", "t.yaml", error=ReplayError)
    with pytest.raises(ReplayError):
        load_json_line('{"a": 1, "a": 2}', "r.bowreplay", 7, error=ReplayError)


@pytest.mark.parametrize("text, message", [
    ('{"a": 1, "b": {"c": 1, "c": 2}}', "r.bowreplay:7: b: key 'c' written twice; keep one of them"),
    ('{"seed": ' + "9" * 5000 + "}", f"r.bowreplay:7: seed: an integer of 5,000 digits; at most {MAX_INT_DIGITS}"),
    ('{"x": [1, NaN]}', "r.bowreplay:7: x[1]: NaN is not a JSON number"),
    ('{"x": -Infinity}', "r.bowreplay:7: x: -Infinity is not a JSON number"),
    ('{"x": 1e999}', "r.bowreplay:7: x: the number 1e999 is too large"),
    ("[" * 1000 + "]" * 1000, f"r.bowreplay:7: nested deeper than {MAX_DEPTH} levels"),
    ('{"x": ', "r.bowreplay:7: not valid JSON (Expecting value at column 7)"),
    (b'{"x": "\xff"}', "r.bowreplay:7: not UTF-8 text (byte 7 of the line)"),
])
def test_json_lines_refuse_with_source_line_and_field(text, message):
    with pytest.raises(UserInputError) as caught:
        load_json_line(text, "r.bowreplay", 7)
    assert str(caught.value).startswith(message)


def test_json_brackets_inside_strings_do_not_count_as_depth():
    text = '{"note": "' + "[{" * 500 + '\\" ]"}'
    assert load_json(text, "x.json") == {"note": "[{" * 500 + '" ]'}
    assert load_json_line('{"a": [1, 2, {"b": null}], "c": -3, "d": 0.5}', "r", 1) == {
        "a": [1, 2, {"b": None}], "c": -3, "d": 0.5}


def test_json_line_speed_is_close_to_plain_json():
    line = '{"kind":"roll","unit":"blue-1","values":[1,2,3],"result":{"hits":2,"edge":[0,1]}}'
    started = time.perf_counter()
    for n in range(20_000):
        load_json_line(line, "r", n)
    assert time.perf_counter() - started < 1.0  # 20,000 events (a long game) read in well under a second


@pytest.mark.parametrize("text", ["a: !!int ''\n", "a: !!timestamp soon\n", "a: !!float x\n"])
def test_explicit_tags_with_wrong_values_are_input_errors(text):
    """Found by tests/fuzz: PyYAML's constructors raised IndexError or AttributeError (internal errors)."""
    with pytest.raises(UserInputError, match="t.yaml:1: a: cannot be read as a .*; write a plain value"):
        load_yaml(text, "t.yaml")
