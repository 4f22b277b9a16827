"""The scene generator's building blocks (scenes/bricks.py): clean numbers, walls that fill exactly."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
from hypothesis import given, settings, strategies as st

SCENES = Path(__file__).resolve().parents[2] / "scenes"


def _bricks():
    if str(SCENES) not in sys.path:
        sys.path.insert(0, str(SCENES))
    spec = importlib.util.spec_from_file_location("bow3d_scene_bricks", SCENES / "bricks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bricks = _bricks()
LENGTH = {"3008.dat": 8, "3009.dat": 6, "3010.dat": 4, "3622.dat": 3, "3004.dat": 2, "3005.dat": 1}


@given(st.floats(-1e4, 1e4, allow_nan=False))
def test_num_is_clean_and_round_trips(value: float):
    text = bricks.num(value)
    assert text != "-0" and not text.endswith(".") and len(text.partition(".")[2]) <= 3
    assert abs(float(text) - value) <= 0.0005 + 1e-9


@given(st.integers(0, 40), st.sampled_from([None, 2, 3]))
def test_split_run_covers_the_run(length: int, first):
    pieces = bricks.split_run(length, (8, 6, 4, 3, 2, 1), first)
    assert sum(pieces) == length and all(p in (8, 6, 4, 3, 2, 1) for p in pieces)


@settings(max_examples=60, deadline=None)
@given(length=st.integers(6, 20), courses=st.integers(1, 6), along_x=st.booleans(), data=st.data())
def test_wall_fills_every_cell_outside_its_openings_once(length: int, courses: int, along_x: bool, data):
    """Every (stud, course) of the wall is covered by exactly one brick, except the openings' cells."""
    offset = data.draw(st.integers(1, length - 5))
    c0 = data.draw(st.integers(0, courses - 1))
    opening = (offset, 4, c0, data.draw(st.integers(c0, courses - 1)))
    lines = bricks.wall(72, 3, 5, length, along_x, courses, openings=[opening])
    count = np.zeros((courses, length), int)
    for line in lines:
        t = line.split()
        x, y, z = float(t[2]), float(t[3]), float(t[4])
        size = LENGTH[t[14]]
        course = round(-y / 24) - 1
        centre = (x / 20 - 3) if along_x else (z / 20 - 5)
        start = round(centre - size / 2)
        count[course, start:start + size] += 1
        assert (z / 20 == 5.5) if along_x else (x / 20 == 3.5)  # on the wall's line
    expected = np.ones((courses, length), int)
    expected[opening[2]:opening[3] + 1, offset:offset + 4] = 0
    assert (count == expected).all()


def test_standing_and_seated_minifigs_rest_on_y_zero(official):
    """Figures: soles (standing) or the hips' bottom (seated) at LDraw Y = 0, the lowest point."""
    from bow3d.ldraw import load_model

    for name in ("gallery-target.ldr", "red-rider.ldr", "blue-driver.ldr", "blue-spearman.ldr", "red-axeman.ldr"):
        model = load_model(SCENES / "figures" / name, official)
        assert abs(model.bounds()[0, 2]) < 0.01, name
