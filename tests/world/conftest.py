"""Fixtures for world tests: a library with the minifig and brick parts, the test scenes, box worlds."""

from __future__ import annotations

from pathlib import Path

import pytest

from bow3d.ldraw import Library
from bow3d.world import World

DATA = Path(__file__).resolve().parents[1] / "data" / "world"
NEEDED = ("3626bp01.dat", "973.dat", "3815.dat", "3816.dat", "3817.dat", "3818.dat", "3819.dat", "3820.dat",
          "3811.dat", "3004.dat")


@pytest.fixture(scope="session")
def world_library() -> Library:
    """Library.from_env() (LDRAWDIR, else the bundled starter library) when it has the minifig parts."""
    library = Library.from_env()
    missing = [name for name in NEEDED if library.find(name) is None]
    if missing:
        pytest.skip(f"the LDraw library ({library.describe()}) lacks {', '.join(missing)} (set LDRAWDIR)")
    return library


def load_test_scene(name: str):
    from bow3d.rulesets import load_scene

    return load_scene(DATA / name)


@pytest.fixture(scope="session")
def gallery(world_library) -> World:
    return World.from_scene(load_test_scene("gallery.yaml"), world_library)


@pytest.fixture(scope="session")
def example_242(world_library) -> World:
    return World.from_scene(load_test_scene("example-2-4-2.yaml"), world_library)
