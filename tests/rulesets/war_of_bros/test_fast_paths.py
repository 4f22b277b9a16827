"""The fast paths of War of Bros' referee give the answers of the plain computations they stand for: the
terrain's grid of boxes (Terrain.near), UnitState's replace, and the remembered arc distances. Each is
compared with the plain answer on random inputs; a key that forgot an input, or a grid cell that missed a
box, would show as a difference."""

from __future__ import annotations

import dataclasses

import numpy as np

from bow3d.rulesets.war_of_bros import measures
from bow3d.rulesets.war_of_bros.state import UnitState, replace
from bow3d.rulesets.war_of_bros.terrain import _Grid
from tests.rulesets.war_of_bros.helpers import ready, scene


def test_the_grid_finds_every_box_the_plain_scan_finds_in_the_same_order():
    rng = np.random.default_rng(7)
    boxes = []
    for _k in range(300):
        x0, y0 = rng.uniform(-60, 160, 2).round(1)   # negative coordinates, and boxes on cell borders
        w, h = rng.choice([0.0, 0.5, 8.0, 16.0, 40.0]), rng.choice([0.0, 1.0, 8.0, 24.0])
        boxes.append((float(x0), float(x0 + w), float(y0), float(y0 + h)))
    boxes.append((-1e6, 1e6, 10.0, 12.0))   # a huge zone: asked by every query, not filed by cells
    grid = _Grid(boxes)
    for _q in range(2000):
        x0, y0 = rng.uniform(-70, 170, 2).round(1)
        w, h = rng.choice([0.0, 3.0, 8.0, 20.0]), rng.choice([0.0, 3.0, 8.0])
        query = (float(x0), float(x0 + w), float(y0), float(y0 + h))
        plain = [k for k, b in enumerate(boxes) if b[0] <= query[1] and b[1] >= query[0] and b[2] <= query[3]
                 and b[3] >= query[2]]
        found = grid.meeting(*query)
        assert found is None or found == plain, query


def test_replace_gives_what_dataclasses_replace_gives():
    unit = UnitState("b1", "blue", "private", position=(3.0, 4.0), facing=90.0)
    for changes in ({"position": (5.0, 6.0)}, {"facing": 0.0, "moved_cm": 2.5}, {"alive": False, "burning": 2},
                    {"activated": True, "aboard": "tank"}):
        fast, plain = replace(unit, **changes), dataclasses.replace(unit, **changes)
        assert fast == plain and type(fast) is UnitState and unit == UnitState("b1", "blue", "private",
                                                                                position=(3.0, 4.0), facing=90.0)


def test_remembered_arc_distances_are_the_plain_ones_for_every_pose():
    units = [{"id": "b1", "side": "blue", "sheet": "private", "position": [20, 20], "facing": 0},
             {"id": "r1", "side": "red", "sheet": "private", "position": [40, 24], "facing": 180}]
    game = ready(scene(units), first="blue", rounds_skipped=1)
    width, depth = game.ctx.bases["b1"]
    target = measures.corners(game, "r1")
    rng = np.random.default_rng(3)
    spots = [(float(x), float(y)) for x, y in zip(rng.uniform(10, 50, 12), rng.uniform(10, 40, 12))]
    poses = [(spot, facing) for spot in spots for facing in (0.0, 45.0, 90.0, 180.0, 270.0)]   # each spot, all ways
    for slack in (0.0, 3.0):
        for position, facing in poses + poses:   # the second pass answers from memory
            got = measures.arc_distance_cm(game, "b1", target, slack, position, facing)
            assert got == measures._arc_distance_cm(position, facing, width, depth, target, slack), (position, facing)
