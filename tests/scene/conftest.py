"""Fixtures of the scene tests: a scene folder with its battlefield and model files, on any machine."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent.parent / "data" / "scenes"

# A 40 x 40-stud battlefield (x and y from 0 to 40 studs) made of one 32 x 32 baseplate scaled up,
# and two tiny model files; 3811.dat is in the bundled starter library and in the official one.
BATTLEFIELD = "0 Test field\n1 2 400 0 400 1.25 0 0 0 1 0 0 0 1.25 3811.dat\n"
FIGURE = "0 Figure\n1 1 0 -24 0 1 0 0 0 1 0 0 0 1 3005.dat\n"


@pytest.fixture
def scene_dir(tmp_path: Path, monkeypatch) -> Path:
    """A folder with village.yaml (the C1 example), its battlefield and models; LDRAWDIR = bundled library."""
    monkeypatch.delenv("LDRAWDIR", raising=False)
    folder = tmp_path / "scene"
    folder.mkdir()
    shutil.copy(DATA / "village.yaml", folder / "village.yaml")
    (folder / "village.ldr").write_text(BATTLEFIELD)
    (folder / "figure.ldr").write_text(FIGURE)
    (folder / "jeep.ldr").write_text(FIGURE)
    return folder
