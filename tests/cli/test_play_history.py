"""Issue 17, end to end through `bow3d play --offscreen-script`: a move previewed then committed (Enter
or the same cell again) or cancelled (Esc); Ctrl+Z taking back the last record in a hot-seat game;
`--resume FILE.bowreplay` going on with a stopped game. Every replay written verifies."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.test_view_play import bow3d, duel  # noqa: F401 (duel: the fixture, a two-unit scene)
from tests.conftest import write

pytestmark = pytest.mark.render
BOTH = "# whichever side won the initiative: the other side's clicks are refused\n"


def play(duel: Path, script: str, replay: str, *extra: str):
    path = write(duel.parent / f"{replay}.txt", BOTH + script)
    return bow3d("play", str(duel), "--library", str(duel.parent / "ldraw"), "--offscreen-script", str(path),
                 "--replay", str(duel.parent / replay), "--size", "320x180", *extra, cwd=duel.parent)


def records(path: Path) -> list[dict]:
    return [json.loads(line)["record"] for line in path.read_text().splitlines()[1:] if '"record"' in line]


def moves(path: Path) -> list[dict]:
    return [r for r in records(path) if r["type"] == "move"]


def verify(path: Path, duel: Path) -> None:
    """The replay re-simulates on the duel's world (built with the test's own library, as it was played)."""
    from bow3d.ldraw import Library
    from bow3d.replay.verify import verify_replay
    from bow3d.rulesets import load_scene
    from bow3d.world import World

    world = World.from_scene(load_scene(duel), Library([duel.parent / "ldraw"]))
    result = verify_replay(path, geometry=world)
    assert result.ok, result


def test_a_move_waits_for_enter_or_a_second_click_and_esc_forgets_it(duel, renderer_available):
    cancelled = play(duel, "click-unit blue-1\nclick-cell 5 2\ncancel\nconfirm\n"
                           "click-unit red-1\nclick-cell 10 3\ncancel\nconfirm\n", "cancel.bowreplay", "--seed", "3")
    assert cancelled.returncode == 0, cancelled.stderr[-2000:]
    assert moves(duel.parent / "cancel.bowreplay") == []  # previewed, then forgotten: Enter has nothing to commit
    clicked = play(duel, "click-unit blue-1\nclick-cell 5 2\nclick-cell 5 2\n"
                         "click-unit red-1\nclick-cell 10 3\nclick-cell 10 3\n", "twice.bowreplay", "--seed", "3")
    assert clicked.returncode == 0, clicked.stderr[-2000:]
    entered = play(duel, "click-unit blue-1\nclick-cell 5 2\nconfirm\n"
                         "click-unit red-1\nclick-cell 10 3\nconfirm\n", "enter.bowreplay", "--seed", "3")
    assert entered.returncode == 0, entered.stderr[-2000:]
    for name in ("twice.bowreplay", "enter.bowreplay"):
        made = moves(duel.parent / name)
        assert len(made) == 1 and tuple(made[0]["to"]) in {(5, 2), (10, 3)}
        verify(duel.parent / name, duel)


def test_ctrl_z_takes_back_a_move_but_not_a_throw(duel, renderer_available):
    probe = play(duel, "click-unit blue-1\nclick-cell 5 2\nconfirm\n", "probe.bowreplay", "--seed", "3")
    assert probe.returncode == 0, probe.stderr[-2000:]
    unit, cell = ("blue-1", "5 2") if moves(duel.parent / "probe.bowreplay") else ("red-1", "10 3")  # who starts
    result = play(duel, f"click-unit {unit}\nclick-cell {cell}\nconfirm\nundo\nundo\n", "undo.bowreplay",
                  "--seed", "3")
    assert result.returncode == 0, result.stderr[-2000:]
    replay = duel.parent / "undo.bowreplay"
    assert moves(replay) == []  # the move taken back, from the game and from the file
    assert records(replay) and all(r["type"] == "roll" for r in records(replay))  # the initiative throw stands
    assert [json.loads(line).get("n") for line in replay.read_text().splitlines()[1:]] == \
        list(range(1, len(records(replay)) + 1))
    verify(replay, duel)
    against_ai = play(duel, "click-unit blue-1\nclick-cell 5 2\nconfirm\nundo\n", "ai.bowreplay", "--seed", "3",
                      "--vs-ai", "red")
    assert against_ai.returncode == 0, against_ai.stderr[-2000:]
    assert any(r["type"] == "move" for r in records(duel.parent / "ai.bowreplay"))  # against the AI: no take-back


def test_resume_goes_on_with_a_stopped_game(duel, renderer_available):
    first = play(duel, "click-unit blue-1\nclick-cell 5 2\nconfirm\nclick-unit red-1\nclick-cell 10 3\nconfirm\n",
                 "first.bowreplay", "--seed", "5")
    assert first.returncode == 0, first.stderr[-2000:]
    stopped = records(duel.parent / "first.bowreplay")
    script = write(duel.parent / "more.txt", BOTH + "end-turn\nclick-unit blue-1\nclick-cell 4 3\nconfirm\n"
                   "click-unit red-1\nclick-cell 11 4\nconfirm\n")
    more = bow3d("play", "--resume", str(duel.parent / "first.bowreplay"), "--library", str(duel.parent / "ldraw"),
                 "--offscreen-script", str(script), "--replay", str(duel.parent / "more.bowreplay"),
                 "--size", "320x180", cwd=duel.parent)
    assert more.returncode == 0, more.stderr[-2000:]
    going_on = records(duel.parent / "more.bowreplay")
    assert going_on[:len(stopped)] == stopped and len(going_on) > len(stopped)  # the whole game, then more
    header = json.loads((duel.parent / "more.bowreplay").read_text().splitlines()[0])
    assert header["seed"] == 5 and header["players"] == {"blue": "human", "red": "human"}
    verify(duel.parent / "more.bowreplay", duel)
    again = bow3d("play", "--resume", str(duel.parent / "first.bowreplay"), "--vs-ai", "red", cwd=duel.parent)
    assert again.returncode == 2 and "--resume plays on with the replay's own seed" in again.stderr
    missing = bow3d("play", "--resume", str(duel.parent / "nope.bowreplay"), cwd=duel.parent)
    assert missing.returncode == 2 and "no such replay file" in missing.stderr
