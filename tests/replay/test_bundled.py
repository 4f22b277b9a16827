"""The bundled replays (replays/*.bowreplay) verify on the real 3D world; the CLI on real replays."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bow3d.errors import ReplayError
from bow3d.replay.format import read_replay
from bow3d.replay.verify import verify_replay

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = sorted((ROOT / "replays").glob("*.bowreplay"))


def run_cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bow3d", *args], capture_output=True, text=True, timeout=300,
                          cwd=cwd)


def test_at_least_two_bundled_replays_of_the_demo_scenes():
    scenes = {read_replay(path).header.scene for path in BUNDLED}
    assert len(BUNDLED) >= 2 and {"../scenes/village.yaml", "../scenes/los-gallery.yaml"} <= scenes
    # made with the starter library that ships with bow3d, so they verify with or without LDRAWDIR
    assert {read_replay(path).header.library for path in BUNDLED} == {"bundled"}


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.name)
def test_bundled_replay_verifies_on_the_real_world(path):
    """Every event re-simulates identically from the header, the recorded rolls and the world."""
    result = verify_replay(path)
    assert result.ok, result.first_divergence
    assert not result.truncated and result.winner is not None
    replay = read_replay(path)
    assert result.entries == len(replay.entries) > 50
    kinds = {event["type"] for entry in replay.entries for event in entry.events}
    assert {"rolled", "moved", "attack", "game_over"} <= kinds


def test_verify_and_show_from_another_folder():
    """The header's scene path is relative to the replay: it verifies from anywhere."""
    path = next(p for p in BUNDLED if p.name.startswith("los-gallery"))
    result = run_cli("replay", "verify", str(path), cwd=ROOT / "tests")
    assert result.returncode == 0 and result.stdout.startswith("ok:"), result.stderr
    shown = run_cli("replay", "show", str(path), cwd=ROOT / "tests")
    assert shown.returncode == 0 and "Round 1" in shown.stdout and "Result:" in shown.stdout


@pytest.fixture
def gallery_copy(tmp_path):
    """A copy of the los-gallery replay beside a copy of its scene files."""
    source = next(p for p in BUNDLED if p.name.startswith("los-gallery"))
    scenes = tmp_path / "scenes"
    scenes.mkdir()
    for item in (ROOT / "scenes").iterdir():
        target = scenes / item.name
        if item.name == "figures":  # copied: scene files are read inside the scene's folder only
            shutil.copytree(item, target)
        elif item.suffix in (".yaml", ".ldr"):
            target.write_bytes(item.read_bytes())
    (tmp_path / "replays").mkdir()
    copy = tmp_path / "replays" / source.name
    copy.write_bytes(source.read_bytes())
    return copy


def test_hand_edited_illegal_record_one_line_exit_2(gallery_copy):
    lines = [json.loads(line) for line in gallery_copy.read_text().splitlines()]
    n = next(i for i, line in enumerate(lines[1:], start=1) if "record" in line and line["record"]["type"] == "attack")
    lines[n]["record"]["target"] = lines[n]["record"]["unit"]  # fire at oneself
    gallery_copy.write_text("".join(json.dumps(line) + "\n" for line in lines))
    result = run_cli("replay", "verify", str(gallery_copy))
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert f"entry {n} (line {n + 1})" in result.stderr and "illegal record" in result.stderr


def test_hand_edited_roll_diverges_exit_2(gallery_copy):
    lines = [json.loads(line) for line in gallery_copy.read_text().splitlines()]
    n = next(i for i, line in enumerate(lines[1:], start=1)
             if "record" in line and line["record"]["type"] == "roll" and i > 2
             and line["record"]["outcome"] < line["record"]["spec"]["n"])
    lines[n]["record"]["outcome"] += 1
    gallery_copy.write_text("".join(json.dumps(line) + "\n" for line in lines))
    result = run_cli("replay", "verify", str(gallery_copy))
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and f"entry {n}" in result.stderr
    assert "forged throw" in result.stderr  # the seeded generator gives another outcome


def test_truncated_replay_reported_exit_2_rest_verified(gallery_copy):
    data = gallery_copy.read_bytes()
    gallery_copy.write_bytes(data[:-30])
    result = run_cli("replay", "verify", str(gallery_copy))
    assert result.returncode == 2 and "cut short" in result.stderr and "re-simulate identically" in result.stderr
    assert result.stderr.count("\n") == 1


def test_replay_of_another_scene_exit_2(gallery_copy):
    scene = gallery_copy.parent.parent / "scenes" / "los-gallery.yaml"
    scene.write_text(scene.read_text().replace("position: [28.5, 4.5]", "position: [27.5, 4.5]"))
    result = run_cli("replay", "verify", str(gallery_copy))
    assert result.returncode == 2 and "another scene" in result.stderr and result.stderr.count("\n") == 1


def test_simulate_end_to_end_on_the_real_world(tmp_path):
    result = run_cli("simulate", "scenes/los-gallery.yaml", "--games", "2", "--seed", "5", "--json",
                     "--replays", str(tmp_path))
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["games"] == 2 and sum(data["wins"].values()) + data["draws"] == 2
    assert data["games_per_second"] > 0 and len(data["replays"]) == 2
    assert all(verify_replay(path).ok for path in data["replays"])
    text = run_cli("simulate", "scenes/los-gallery.yaml", "--games", "1")
    assert text.returncode == 0 and "games/s" in text.stdout and "average rounds" in text.stdout


@pytest.mark.slow
def test_simulate_village_games_complete_with_los_on_the_real_world():
    """Issue 5: `bow3d simulate scenes/village.yaml` completes (a few games here; 50 in the benchmark)."""
    result = run_cli("simulate", "scenes/village.yaml", "--games", "4", "--workers", "2", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["games"] == 4 and all(r["ended"] in ("win", "points", "draw") for r in data["results"])


@pytest.mark.parametrize("args, message", [
    (["simulate", "nowhere.yaml"], "no such scene file"),
    (["simulate", "scenes/village.yaml", "--games", "0"], "--games 0: give 1 to"),
])
def test_simulate_bad_input_exit_2(args, message):
    result = run_cli(*args)
    assert result.returncode == 2 and message in result.stderr and "Traceback" not in result.stderr


@pytest.mark.slow
@pytest.mark.render
def test_replay_video_end_to_end(tmp_path):
    """`bow3d replay FILE --video out.mp4` films a bundled replay through the view hook (C5)."""
    path = next(p for p in BUNDLED if p.name.startswith("los-gallery"))
    out = tmp_path / "film.mp4"
    result = run_cli("replay", str(path), "--video", str(out), "--size", "160x96", "--fps", "5")
    if result.returncode == 2 and "graphics pipe" in result.stderr:
        pytest.skip(result.stderr.strip())
    assert result.returncode == 0, result.stderr
    assert out.stat().st_size > 1000 and "wrote" in result.stdout
    again = run_cli("replay", str(path), "--video", str(out))
    assert again.returncode == 2 and "--force" in again.stderr


def test_the_world_of_a_replay_uses_the_library_its_header_names(monkeypatch, tmp_path):
    """A bundled replay is re-simulated with the bundled starter library even where LDRAWDIR
    points at another library (the units' parts decide the lines of sight)."""
    from bow3d.replay import open_replay

    monkeypatch.setenv("LDRAWDIR", str(tmp_path))
    opened = open_replay(next(p for p in BUNDLED if p.name.startswith("los-gallery")))
    assert opened.library().is_bundled
    assert opened.world().library.is_bundled  # as verify, the film and the viewer build it


def test_a_replay_of_an_external_library_asks_for_ldrawdir(monkeypatch, tmp_path):
    """A replay played with $LDRAWDIR's library cannot be re-simulated with the starter library:
    one clear line instead of a divergence somewhere in the game."""
    from bow3d.replay import open_replay

    monkeypatch.delenv("LDRAWDIR", raising=False)
    source = next(p for p in BUNDLED if p.name.startswith("los-gallery"))
    lines = source.read_text().splitlines(keepends=True)
    lines[0] = lines[0].replace('"library":"bundled"', '"library":"external"').replace(
        '"library": "bundled"', '"library": "external"')
    copy = tmp_path / source.name
    copy.write_text("".join(lines))
    opened = open_replay(copy)
    assert opened.header.library == "external"
    with pytest.raises(ReplayError, match="LDRAWDIR"):
        opened.library()
