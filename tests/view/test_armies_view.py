"""Issue 17: the demo picture and the viewer's first view frame both armies (seen across the battle line)."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bow3d.view.camera.armies_view import ELEVATION_DEG, armies_direction, side_positions
from bow3d.view.camera.choices import VIEWS
from bow3d.view.output.offscreen import pose_for_view

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = ("village", "war-of-bros", "western-town")


def test_the_view_looks_across_the_line_between_the_armies():
    west, east = np.array([[2.0, 30.0], [4.0, 34.0]]), np.array([[60.0, 30.0], [58.0, 34.0]])
    x, y, z = armies_direction({"blue": west, "red": east})
    assert abs(x) < 1e-9 and y < 0  # from the south (the iso view's side), square to the west-east line
    assert math.degrees(math.atan2(z, math.hypot(x, y))) == pytest.approx(ELEVATION_DEG)
    assert armies_direction({"blue": west}) == VIEWS["iso"]  # one army: the iso view
    assert armies_direction({"blue": west, "red": west}) == VIEWS["iso"]


def project(pose, points: np.ndarray, aspect: float) -> np.ndarray:
    """(N, 2) normalised screen coordinates (-1..1 inside the picture) of world points through `pose`."""
    position, target = np.asarray(pose.position), np.asarray(pose.target)
    forward = (target - position) / np.linalg.norm(target - position)
    right = np.cross(forward, [0.0, 0.0, 1.0])
    right /= np.linalg.norm(right)
    up = np.cross(right, forward)
    rel = points - position
    depth = rel @ forward
    tan_v = math.tan(math.radians(pose.fov_deg) / 2)
    return np.column_stack([rel @ right / (depth * tan_v * aspect), rel @ up / (depth * tan_v)])


@pytest.mark.parametrize("name", BUNDLED)
def test_both_armies_project_inside_the_first_frame(name):
    from bow3d.rulesets import load_scene

    scene = load_scene(ROOT / "scenes" / f"{name}.yaml")
    sides = side_positions(scene)
    assert len(sides) >= 2
    every = np.concatenate(list(sides.values())) * 20.0
    bounds = np.array([[*every.min(axis=0) - 200, 0.0], [*every.max(axis=0) + 200, 300.0]])  # the field round them
    pose = pose_for_view(bounds, direction=armies_direction(sides), aspect=16 / 9)
    for side, points in sides.items():
        heads = np.column_stack([points * 20.0, np.full(len(points), 84.0)])
        screen = project(pose, heads, 16 / 9)
        assert (np.abs(screen) <= 1.0).all(), f"{name}: {side} units outside the frame"


VIEWER_SCRIPT = r"""
import json, sys
sys.path.insert(0, {root!r})
from bow3d.ldraw import Library
from bow3d.rulesets import load_scene
from bow3d.view.camera.picking import project
from bow3d.view.apps.viewer import Viewer, open_base

scene = load_scene({scene!r})
base = open_base(offscreen=True, size=(1280, 720))
viewer = Viewer(base, scene, library=Library.from_env(None))
ids = [u.id for u in scene.units] + [v.id for v in scene.vehicles]
pixels = project(base, [viewer.nodes.head_point(i) for i in ids])
print("RESULT " + json.dumps({{"ids": ids, "pixels": pixels.tolist(),
                              "sides": {{u.id: u.side for u in [*scene.units, *scene.vehicles]}}}}))
"""


@pytest.mark.render
def test_the_viewers_first_view_frames_both_armies(renderer_available, tmp_path):
    script = VIEWER_SCRIPT.format(root=str(ROOT), scene=str(ROOT / "scenes" / "village.yaml"))
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    out = json.loads(next(line for line in result.stdout.splitlines() if line.startswith("RESULT "))[7:])
    pixels = np.array(out["pixels"])
    inside = (pixels[:, 0] >= 0) & (pixels[:, 0] <= 1280) & (pixels[:, 1] >= 0) & (pixels[:, 1] <= 720)
    outside = [i for i, ok in zip(out["ids"], inside) if not ok]
    assert not outside, f"outside the first view: {outside}"
    assert {"blue", "red"} <= set(out["sides"].values())


@pytest.mark.parametrize("name", BUNDLED)
def test_from_the_first_view_every_head_on_the_ground_is_seen(name):
    """What the iso view got wrong on the village: two blue heads hidden behind the houses."""
    from bow3d.ldraw import Library
    from bow3d.rulesets import load_scene
    from bow3d.world import World

    scene = load_scene(ROOT / "scenes" / f"{name}.yaml")
    world = World.from_scene(scene, Library.from_env(None))
    eye = np.array(pose_for_view(world.bounds, direction=armies_direction(side_positions(scene)),
                                 aspect=16 / 9).position)
    hidden = []
    for body in world.bodies.values():
        if body.kind == "unit" and body.seat is None:
            seen, _, _ = world.cast_sight(eye, world.head(body.id)[None], skip=(body.index,), describe=False)
            hidden += [] if seen[0] else [body.id]
    assert hidden == []
