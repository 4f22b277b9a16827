"""End to end: `bow3d replay` and `bow3d simulate` as a user types them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bow3d.cli import main
from bow3d.replay.format import VERSION
from bow3d.replay.simulate import simulate
from tests.replay.test_session import MAX_ROUNDS, flat, record_game


@pytest.fixture(scope="module")
def replay_file(tmp_path_factory) -> Path:
    from tests.replay.conftest import write_scene

    folder = tmp_path_factory.mktemp("cli")
    scene_path = write_scene(folder / "scenes")
    (folder / "replays").mkdir()
    out = folder / "replays" / "skirmish.bowreplay"
    record_game(scene_path, 11, out)
    return out


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bow3d", *args], capture_output=True, text=True, timeout=120)


def test_replay_show_prints_the_battle_log_by_round(replay_file, capsys):
    assert main(["replay", "show", str(replay_file)]) == 0
    out = capsys.readouterr().out
    assert "Before the battle" in out and "\nRound 1\n" in out and "\nRound 2\n" in out
    assert "rolls 6 bricks" in out and "moves" in out and "Result:" in out
    assert main(["replay", "show", str(replay_file), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["header"]["seed"] == 11 and data["rounds"][0]["round"] == 0


def test_replay_show_of_a_truncated_file_keeps_the_rest_and_exits_2(replay_file, tmp_path, capsys):
    cut = replay_file.parent / "cut.bowreplay"
    cut.write_bytes(replay_file.read_bytes()[:-15])
    try:
        assert main(["replay", "show", str(cut)]) == 2
        captured = capsys.readouterr()
        assert "Round 1" in captured.out
        assert captured.err.count("\n") == 1 and "cut short" in captured.err
    finally:
        cut.unlink()


@pytest.mark.parametrize("damage, message", [
    (lambda text: text.replace(f'"version":{VERSION}', '"version":9'), "written by a newer bow3d (version 9)"),
    (lambda text: text.replace('\n{"n":3,', '\n#"n":3,'), ":4: not valid JSON"),
    (lambda text: "garbage\n" + text, "not valid JSON"),
])
def test_replay_broken_files_one_line_exit_2(replay_file, tmp_path, damage, message):
    bad = replay_file.parent / "bad.bowreplay"
    bad.write_text(damage(replay_file.read_text()))
    try:
        for command in (["show"], ["verify"], []):
            result = run_cli("replay", *command, str(bad))
            assert result.returncode == 2 and message in result.stderr, (command, result.stderr)
            assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    finally:
        bad.unlink()


def test_replay_verify_of_another_scene_exit_2(replay_file):
    scene = replay_file.parent.parent / "scenes" / "skirmish.yaml"
    original = scene.read_text()
    scene.write_text(original.replace("Skirmish", "Skirmish (edited)"))
    try:
        result = run_cli("replay", "verify", str(replay_file))
        assert result.returncode == 2 and "another scene" in result.stderr and result.stderr.count("\n") == 1
    finally:
        scene.write_text(original)


def test_replay_video_never_overwrites(replay_file, tmp_path):
    out = tmp_path / "film.mp4"
    out.write_bytes(b"mine")
    result = run_cli("replay", str(replay_file), "--video", str(out))
    assert result.returncode == 2 and "--force" in result.stderr and out.read_bytes() == b"mine"


@pytest.mark.parametrize("args, message", [
    (["replay", "play", "x.bowreplay"], "unknown replay command"),
    (["replay", "show"], "needs a replay FILE"),
    (["replay", "nowhere.bowreplay"], "no such replay file"),
    (["replay", "verify", "x.bowreplay", "--video", "a.mp4"], "--video, --gif and --clip go with"),
])
def test_replay_bad_arguments_exit_2(args, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run_cli(*args)
    assert result.returncode == 2 and message in result.stderr


def test_help_has_examples():
    for command in ("replay", "simulate"):
        result = run_cli(command, "--help")
        assert result.returncode == 0 and "examples:" in result.stdout


def test_simulate_on_flat_geometry_counts_wins_and_writes_replays(replay_file, tmp_path):
    """The simulation loop itself (world-independent): results per seed, replays written, never
    overwriting an existing one."""
    scene = replay_file.parent.parent / "scenes" / "skirmish.yaml"
    out_dir = tmp_path / "runs"
    out_dir.mkdir()
    (out_dir / "skirmish-seed3.bowreplay").write_text("mine\n")
    summary = simulate(scene, 3, seed=3, replays_dir=out_dir, max_rounds=MAX_ROUNDS, geometry_factory=flat)
    assert summary.games == 3 and sum(summary.wins.values()) + summary.draws == 3
    assert [r.seed for r in summary.results] == [3, 4, 5]
    assert (out_dir / "skirmish-seed3.bowreplay").read_text() == "mine\n"
    assert len(summary.replays) == 3 and str(out_dir / "skirmish-seed3-2.bowreplay") in summary.replays
    assert summary.games_per_second > 0 and 0 < summary.average_rounds <= MAX_ROUNDS
    from bow3d.replay.verify import verify_replay
    assert all(verify_replay(path, geometry_factory=flat).ok for path in summary.replays)
    two = simulate(scene, 3, seed=3, workers=2, max_rounds=MAX_ROUNDS, geometry_factory=flat)
    assert [(r.seed, r.winner, r.records) for r in two.results] == \
        [(r.seed, r.winner, r.records) for r in summary.results]  # the same games on 2 workers


def _broken_world(scene):
    from bow3d.errors import SceneError

    raise SceneError("the battlefield cannot be built (test)")


def test_simulate_workers_report_a_world_that_cannot_be_built(replay_file):
    from bow3d.errors import SceneError

    scene = replay_file.parent.parent / "scenes" / "skirmish.yaml"
    with pytest.raises(SceneError, match="cannot be built"):
        simulate(scene, 2, workers=2, geometry_factory=_broken_world)
