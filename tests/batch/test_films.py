"""bow3d replay films DIR: every replay of a folder filmed on the batch executor; a broken replay is
named and skipped; the films already there are never overwritten. Skipped without a graphics pipe."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.render, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bow3d", *args], capture_output=True, text=True, timeout=600, cwd=ROOT)


def test_replay_films_films_every_replay_of_a_folder(tmp_path, renderer_available):
    games = tmp_path / "games"
    played = run_cli("simulate", "scenes/los-gallery.yaml", "--games", "2", "--max-rounds", "2", "--replays",
                     str(games), "--no-progress")
    assert played.returncode == 0, played.stderr
    (games / "broken.bowreplay").write_text("not a replay\n")
    (games / "notes.txt").write_text("not a replay either, and not looked at\n")
    out = tmp_path / "films"
    result = run_cli("replay", "films", str(games), "-o", str(out), "--size", "64x36", "--fps", "1", "--workers", "2")
    assert result.returncode == 2, result.stderr  # the broken one is named; the others are filmed
    assert "skipped:" in result.stderr and "broken.bowreplay" in result.stderr and "Traceback" not in result.stderr
    films = sorted(out.glob("*.mp4"))
    assert [f.stem for f in films] == sorted(p.stem for p in games.glob("los-gallery-seed*.bowreplay"))
    assert all(f.read_bytes()[4:8] == b"ftyp" for f in films)
    assert "2 of 3 films written" in result.stdout
    before = films[0].read_bytes()
    again = run_cli("replay", "films", str(games), "-o", str(out), "--size", "64x36", "--fps", "1")
    assert again.returncode == 2 and "already exists" in again.stderr and films[0].read_bytes() == before


def test_replay_films_needs_a_folder_of_replays(tmp_path):
    result = run_cli("replay", "films", str(tmp_path))
    assert result.returncode == 2 and "no .bowreplay or .bowpack file" in result.stderr
