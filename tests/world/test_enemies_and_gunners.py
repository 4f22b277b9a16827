"""Issue 17: `los FIRER` judges every enemy (horses and vehicles too), and a vehicle's gunner looks out
of its vehicle in heatmaps as in `World.sight` (so `heatmap --cover` counts vehicles' weapons)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bow3d.cli import main
from bow3d.ldraw import Library
from bow3d.world import World

VILLAGE = Path(__file__).resolve().parents[2] / "scenes" / "village.yaml"


@pytest.fixture(scope="module")
def village() -> World:
    from bow3d.rulesets import load_scene

    return World.from_scene(load_scene(VILLAGE), Library.from_env(None))


def test_enemies_of_names_vehicles_when_asked(village):
    assert "red-horse" not in village.enemies_of("blue-rifle-2")          # units, as the AI and heatmaps ask
    both = village.enemies_of("blue-rifle-2", kinds=("unit", "vehicle"))
    assert "red-horse" in both and "red-knight" in both and "blue-jeep" not in both
    assert "blue-jeep" in village.enemies_of("red-pistol", kinds=("unit", "vehicle"))


def test_los_firer_alone_judges_the_enemy_horse_and_jeep(capsys):
    assert main(["los", str(VILLAGE), "blue-rifle-2"]) == 0
    judged = {line.split(":")[0].split()[-1] for line in capsys.readouterr().out.splitlines()}
    assert "red-horse" in judged and "red-knight" in judged and len(judged) == 11  # 10 red units and the horse
    assert main(["los", str(VILLAGE), "red-pistol"]) == 0
    assert "blue-jeep" in {line.split(":")[0].split()[-1] for line in capsys.readouterr().out.splitlines()}


def test_a_gunner_looks_out_of_its_vehicle(village):
    jeep, driver = village.body("blue-jeep"), village.body("blue-driver")
    assert driver.seat is not None and driver.seat[0] == "blue-jeep"
    assert {driver.index, jeep.index} <= set(village.eye_skip("blue-driver"))
    assert village.eye_skip("blue-rifle-2") == (village.body("blue-rifle-2").index,)
    # seen from the driver's eye, the jeep's hull hides cells unless skipped: heatmaps skip it as World.sight does
    eye = village.head("blue-driver")
    xs, ys = np.meshgrid(np.arange(0.5, 64, 2.0), np.arange(0.5, 64, 2.0))
    points = np.column_stack([xs.ravel() * 20, ys.ravel() * 20, np.full(xs.size, 84.0)])  # heads on the ground
    own_only, _, _ = village.cast_sight(eye, points, skip=(driver.index,), describe=False)
    looking_out, _, _ = village.cast_sight(eye, points, skip=village.eye_skip("blue-driver"), describe=False)
    assert looking_out.sum() > own_only.sum() and not (own_only & ~looking_out).any()
