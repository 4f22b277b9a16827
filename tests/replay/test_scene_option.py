"""`--scene FILE` for the replay commands (issue 19), as a user types them, on the bundled Western town's
replay: copied alone to an empty folder it cannot find its scene and says to give --scene; with --scene it
verifies and shows; a scene commented and moved to another folder with its files still verifies."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REPLAY = ROOT / "replays" / "western-town-seed1.bowreplay"
SCENE = ROOT / "scenes" / "western-town.yaml"

pytestmark = pytest.mark.skipif(not (REPLAY.is_file() and SCENE.is_file()), reason="the bundled town is not here")


def bow3d(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "bow3d", *args], capture_output=True, text=True, timeout=300,
                          cwd=cwd, env=environment)


@pytest.fixture(scope="module")
def alone(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("alone")
    shutil.copy(REPLAY, folder / "town.bowreplay")
    return folder


def test_a_replay_alone_names_the_missing_scene_and_the_option(alone):
    result = bow3d("replay", "verify", "town.bowreplay", cwd=alone)
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert "western-town.yaml" in result.stderr and "--scene" in result.stderr


def test_scene_option_verifies_and_shows_a_replay_alone(alone):
    result = bow3d("replay", "verify", "town.bowreplay", "--scene", str(SCENE), cwd=alone)
    assert result.returncode == 0 and result.stdout.startswith("ok: town.bowreplay:"), result.stderr
    assert "every event identical" in result.stdout and "complete" in result.stdout
    shown = bow3d("replay", "show", "town.bowreplay", "--scene", str(SCENE), cwd=alone)
    assert shown.returncode == 0 and "\nRound 1\n" in shown.stdout, shown.stderr


def test_scene_option_takes_a_commented_scene_moved_with_its_files(alone, tmp_path):
    moved = tmp_path / "my-tables"
    moved.mkdir()
    shutil.copy(SCENE.parent / "western-town.ldr", moved)
    shutil.copytree(SCENE.parent / "figures", moved / "figures")
    text = SCENE.read_text()
    assert "\nname: Western town\n" in text
    (moved / "town.yaml").write_text("# played at the club, Tuesday\n"
                                     + text.replace("\nname: Western town\n", "\nname: Western town   # ours\n"))
    result = bow3d("replay", "verify", "town.bowreplay", "--scene", str(moved / "town.yaml"), cwd=alone)
    assert result.returncode == 0 and "every event identical" in result.stdout, result.stderr
    (moved / "town.yaml").write_text(text.replace("blood_brothers: {gunslinger: black-bart}",
                                                  "blood_brothers: {}"))
    refused = bow3d("replay", "verify", "town.bowreplay", "--scene", str(moved / "town.yaml"), cwd=alone)
    assert refused.returncode == 2 and "another scene" in refused.stderr, refused.stderr


@pytest.mark.parametrize("replay", sorted((ROOT / "replays").glob("*.bowreplay")), ids=lambda p: p.stem)
def test_every_bundled_replay_names_its_scene_by_meaning(replay):
    """Issue 19: a bundled replay is format 3 (its scene named by the digest of its meaning, not of its
    bytes), so a comment in the bundled scene breaks none of them."""
    import json

    header = json.loads(replay.read_text().splitlines()[0])
    assert header["version"] == 3 and header["scene_digest"]["method"].startswith("bow3d-scene-meaning/")


def test_a_comment_in_the_bundled_village_breaks_not_its_replay(tmp_path):
    village = ROOT / "scenes" / "village.yaml"
    shutil.copy(village.parent / "village.ldr", tmp_path)
    shutil.copytree(village.parent / "figures", tmp_path / "figures")
    (tmp_path / "village.yaml").write_text("# our club's table\n" + village.read_text())
    result = bow3d("replay", "verify", str(ROOT / "replays" / "village-seed1.bowreplay"), "--scene",
                   str(tmp_path / "village.yaml"), cwd=tmp_path)
    assert result.returncode == 0 and "every event identical" in result.stdout, result.stderr
