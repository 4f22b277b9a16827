"""Fixtures shared by the view tests: a short AI game on the village's 3D world, played once per session."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def village_replay(tmp_path_factory) -> Path:
    """A three-round AI game on scenes/village.yaml (the library LDRAWDIR names, else the bundled one)."""
    folder = tmp_path_factory.mktemp("village-game")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    played = subprocess.run([sys.executable, "-m", "bow3d", "simulate", str(ROOT / "scenes" / "village.yaml"),
                             "--games", "1", "--seed", "3", "--max-rounds", "3", "--replays", str(folder)],
                            capture_output=True, text=True, timeout=300, cwd=folder, env=env)
    assert played.returncode == 0, played.stderr
    return next(folder.glob("*.bowreplay"))
