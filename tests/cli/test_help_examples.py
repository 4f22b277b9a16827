"""Every example printed by every command's `--help` runs as printed, on the bundled scenes and replays.

Each example runs in a child process, in a working folder holding copies of the bundled `scenes/` and
`replays/` (so `scenes/village.yaml` means what it means in a checkout), and must exit 0. An example that
reads what an earlier one wrote (`replay verify village.bowpack` after `replay pack ... -o village.bowpack`)
runs its producer first. Afterwards the copied bundled folders hold exactly what they held: no example
writes into them.

Only sizes and counts are made small (SMALLER: fewer games, smaller pictures, two-second clips), so
that the test stays quick; the ids, files and options are the printed ones. An example that opens a
window runs as its offscreen twin (--screenshot, an empty --offscreen-script (play, setup), a one-second GIF). What a
test machine cannot do is named, with the reason, in NEEDS (the network, a Ray cluster); examples of a
minute or more (LONG_WORDS) run with BOW3D_ALL_EXAMPLES=1.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bow3d import cli

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = ("scenes", "replays")  # copied into the working folder, and checked untouched afterwards
READ_ONLY = ("ldraw_library",)   # linked into it (examples name it as --library ldraw_library)

# Counts and sizes made small for the test (option -> value); every other word runs as printed.
SMALLER = {"--games": "2", "--screen-games": "2", "--candidates": "1", "--size": "320x180",
           "--video-size": "160x90", "--film-seconds": "4"}
# What a test machine cannot do, by words of the example, and why it is skipped.
NEEDS = {
    "library install": "downloads the official LDraw library from the network",
    "--address auto": "joins a running Ray cluster",
}
SLOW_WORDS = ("demo", "--cover", "--video", "--gif", "--all-units", "--engine ray", "balance", "--edges", "simulate")
# Examples of a minute or more (a map per unit, a cover map, a Ray instance starting): run only when
# BOW3D_ALL_EXAMPLES=1, so that the suite stays quick; their code paths have their own smaller tests.
LONG_WORDS = ("--all-units", "--cover", "--engine ray")
ALL_EXAMPLES = os.environ.get("BOW3D_ALL_EXAMPLES") == "1"


def help_texts(parser: argparse.ArgumentParser) -> list[str]:
    """The --help of a parser and of every subparser below it (`bow3d scene from-ldraw --help`)."""
    texts = [parser.format_help()]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                texts += help_texts(sub)
    return texts


def help_examples() -> list[tuple[str, str]]:
    """(command, example line) for every `bow3d ...` line under an `examples` heading of every --help, once."""
    found = {}
    for module in cli._command_modules():
        parser = cli.build_parser(module.NAME)
        command = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[module.NAME]
        for text in help_texts(command):
            block = text[text.index("examples"):] if "examples" in text else ""
            for line in block.splitlines():
                if line.startswith("  bow3d "):
                    found.setdefault(line.strip(), module.NAME)
    return [(name, line) for line, name in found.items()]


EXAMPLES = help_examples()


def test_every_command_has_examples():
    commands = {m.NAME for m in cli._command_modules()}
    assert commands - {name for name, _ in EXAMPLES} == set()


def smaller(option: str, value: str) -> str:
    """The value of `option` made SMALLER (a count never grows: --candidates 0 stays 0)."""
    small = SMALLER.get(option)
    if small is None:
        return value
    if value.isdigit() and small.isdigit():
        return str(min(int(value), int(small)))
    return small


def example_words(line: str) -> list[str]:
    """The example's words after `bow3d`, comments dropped, counts and sizes made SMALLER; films short."""
    words = shlex.split(line, comments=True)[1:]
    out = [smaller(words[i - 1], word) if i else word for i, word in enumerate(words)]
    if words[0] == "demo" and not {"--no-game", "--no-video"} & set(words):
        out += ["--video-size", SMALLER["--video-size"], "--film-seconds", SMALLER["--film-seconds"]]
    if {"--video", "--gif"} & set(words):
        if "--clip" in words:  # two seconds from the printed start
            i = words.index("--clip") + 1
            start = float(words[i].split(":")[0] or 0)
            out[i] = f"{start:g}:{start + 2:g}"
        else:
            out += ["--clip", "0:2"]
        if "--size" not in words:
            out += ["--size", SMALLER["--size"]]
    return out


def opens_window(words: list[str]) -> bool:
    """Does the example open a window, or serve until stopped (`bow3d serve`)?"""
    return (words[0] == "view" and "--screenshot" not in words) or words[0] == "serve" or (
        words[0] in ("play", "setup") and "--offscreen-script" not in words) or (
        words[0] == "replay" and words[1] not in ("show", "verify", "pack") and not {"--video", "--gif"} & set(words))


def offscreen_twin(words: list[str], cwd: Path) -> list[str]:
    """The same example without a window: a screenshot (view), an empty script (play), a short film (replay),
    a server that stops once its pages answered (serve)."""
    name = f"window-{len(list(cwd.glob('window-*')))}"
    if words[0] == "view":
        return [*words, "--screenshot", f"{name}.png", "--size", SMALLER["--size"]]
    if words[0] == "serve":  # started, its pages asked once, stopped; on any free port, its database here
        return [*words, "--check", "--port", "0", *([] if "--db" in words else ["--db", f"{name}.sqlite"])]
    if words[0] == "play":
        (cwd / "no-moves.txt").write_text("# nothing: open the game, then stop\n")
        return [*words, "--offscreen-script", "no-moves.txt", "--replay", f"{name}.bowreplay",
                "--size", SMALLER["--size"]]
    if words[0] == "setup":
        (cwd / "no-setup.txt").write_text("# nothing: open the table, then stop\n")
        return [*words, "--offscreen-script", "no-setup.txt", "--size", SMALLER["--size"]]
    return [*words, "--gif", f"{name}.gif", "--clip", "0:1"]


def produced(words: list[str]) -> set[str]:
    """The files an example writes (its -o/--output/--out/--replay/... argument)."""
    writes = {"-o", "--output", "--out", "--replay", "--video", "--gif", "--write-scene", "--results", "--png",
              "--screenshot"}
    return {words[i + 1] for i, w in enumerate(words[:-1]) if w in writes}


def needs(line: str) -> str | None:
    return next((why for word, why in NEEDS.items() if word in line), None)


def bow3d(words: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "bow3d", *words], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=900)


def snapshot(cwd: Path) -> dict[str, int]:
    return {str(p.relative_to(cwd)): p.stat().st_mtime_ns for folder in BUNDLED for p in (cwd / folder).rglob("*")}


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    """A working folder with copies of the bundled scenes and replays."""
    cwd = tmp_path_factory.mktemp("examples")
    for folder in BUNDLED:
        shutil.copytree(ROOT / folder, cwd / folder, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for folder in READ_ONLY:
        (cwd / folder).symlink_to(ROOT / folder, target_is_directory=True)
    return cwd


_done: dict[str, subprocess.CompletedProcess] = {}


def producer_of(word: str, line: str) -> str | None:
    """The example that writes `word`: the last one printed before `line`, else the first after it."""
    at = next(i for i, (_, other) in enumerate(EXAMPLES) if other == line)
    writers = [i for i, (_, other) in enumerate(EXAMPLES) if i != at and word in produced(example_words(other))]
    before = [i for i in writers if i < at]
    chosen = before[-1] if before else (writers[0] if writers else None)
    return None if chosen is None else EXAMPLES[chosen][1]


def run_example(line: str, cwd: Path) -> subprocess.CompletedProcess:
    """Run one example (once), after the example that writes a file it reads."""
    if line in _done:
        return _done[line]
    words = example_words(line)
    at = next(i for i, (_, other) in enumerate(EXAMPLES) if other == line)
    # Every example printed before this one that writes a file it reads or writes runs first, in the help's order:
    # the workspace is then as a user who runs them one after the other leaves it, whatever order the workers
    # take the tests in (--dist loadgroup keeps a group on one worker, not in order).
    for _, other in EXAMPLES[:at]:
        if other not in _done and set(words[1:]) & produced(example_words(other)):
            run_example(other, cwd)
    for word in set(words[1:]) - produced(words):
        producer = None if (cwd / word).exists() else producer_of(word, line)
        if producer is not None:
            run_example(producer, cwd)
    if opens_window(words):
        words = offscreen_twin(words, cwd)
    _done[line] = bow3d(words, cwd)
    return _done[line]


def _marks(line: str) -> list:
    return [pytest.mark.slow] if any(word in line for word in SLOW_WORDS) else []


# One worker runs them all, in the help's order, in one workspace (README's command runs the suite on every
# core): an example may use what an earlier one wrote, as a user who runs them one after the other would.
@pytest.mark.xdist_group("help-examples")
@pytest.mark.parametrize("line", [pytest.param(line, id=line[len("bow3d "):][:70], marks=_marks(line))
                                  for _, line in EXAMPLES])
def test_help_example_runs_as_printed(line, workspace):
    why = needs(line)
    if why:
        pytest.skip(f"needs what a test machine lacks: {why}")
    if not ALL_EXAMPLES and any(word in line for word in LONG_WORDS):
        pytest.skip("a minute or more: runs with BOW3D_ALL_EXAMPLES=1")
    if "--offline" in line:
        from bow3d.view.report.three import find_three
        try:
            find_three()
        except Exception as error:  # noqa: BLE001 (the reason is the skip's message)
            pytest.skip(f"three.js is not installed here ({error})")
    before = snapshot(workspace)
    result = run_example(line, workspace)
    assert result.returncode == 0, f"{line}\n{result.stdout[-1500:]}\n{result.stderr[-3000:]}"
    assert snapshot(workspace) == before, f"{line} wrote into the bundled folders"
