"""The replay tests' small two-side scene (flat geometry) for batch tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.replay.conftest import SCENE, write_scene


@pytest.fixture
def scene_path(tmp_path: Path) -> Path:
    return write_scene(tmp_path / "scenes")


@pytest.fixture
def lopsided_scene(tmp_path: Path) -> Path:
    """The same skirmish with one blue rifleman fewer: red is favoured."""
    return write_scene(tmp_path / "lopsided", "\n".join(line for line in SCENE.splitlines() if "blue-2" not in line) + "\n")
