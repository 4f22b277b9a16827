"""Fixtures for the bundled scenes: the generator (scenes/make_scenes.py) and the libraries to check them with."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

from bow3d.ldraw import BUNDLED_LIBRARY, Library

SCENES = Path(__file__).resolve().parents[2] / "scenes"


@pytest.fixture(scope="session")
def make_scenes():
    """The generator module, imported from its file (scenes/ is not a package)."""
    spec = importlib.util.spec_from_file_location("bow3d_make_scenes", SCENES / "make_scenes.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def used_parts() -> set[str]:
    """Every part name the bundled scene files reference (lowercase, e.g. '3811.dat')."""
    names = set()
    for path in [*SCENES.glob("*.ldr"), *SCENES.glob("figures/*.ldr")]:
        for line in path.read_text().splitlines():
            tokens = line.split()
            if tokens[:1] == ["1"] and len(tokens) >= 15:
                names.add(tokens[14].lower())
    return names


@pytest.fixture(scope="session", params=["starter", "official"])
def any_library(request) -> Library:
    """The bundled starter library (skips until it has every part the scenes use) and the official one."""
    if request.param == "official":
        root = os.environ.get("LDRAWDIR")
        if not root or not Path(root, "parts").is_dir():
            pytest.skip("the official LDraw library is not available (set LDRAWDIR)")
        return Library([Path(root)])
    missing = sorted(p for p in used_parts() if not (BUNDLED_LIBRARY / "parts" / p).is_file())
    if missing:
        pytest.skip(f"the starter library lacks {len(missing)} parts the scenes use: {', '.join(missing[:12])}")
    return Library([BUNDLED_LIBRARY])
