"""Issue 17: `bow3d setup` sets up armies offscreen and saves a scene that `bow3d scene check` accepts,
never replacing a file without --force; the deployment zones and the army list alone first."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bow3d.scene.model import Scene
from bow3d.view.apps.setup_ui import is_in_zone, zones_of

ROOT = Path(__file__).resolve().parents[2]


def _scene(units) -> Scene:
    return Scene.model_validate({"battlefield": "field.ldr", "sides": [{"id": "blue"}, {"id": "red"}],
                                 "units": [{"id": f"u{k}", "side": side, "sheet": "s", "model": "m.ldr",
                                            "position": list(at)} for k, (side, at) in enumerate(units)]})


def test_zones_are_the_thirds_each_army_stands_nearest():
    bounds = (0.0, 60.0, 0.0, 30.0)
    assert zones_of(_scene([]), bounds) == {"blue": (0.0, 20.0, 0.0, 30.0), "red": (40.0, 60.0, 0.0, 30.0)}
    east_west = zones_of(_scene([("blue", (50, 10)), ("red", (5, 12))]), bounds)
    assert east_west == {"blue": (40.0, 60.0, 0.0, 30.0), "red": (0.0, 20.0, 0.0, 30.0)}
    north_south = zones_of(_scene([("blue", (30, 2)), ("red", (31, 28))]), bounds)
    assert north_south == {"blue": (0.0, 60.0, 0.0, 10.0), "red": (0.0, 60.0, 20.0, 30.0)}
    assert is_in_zone((5, 5), east_west["red"]) and not is_in_zone((30, 5), east_west["red"])


SCRIPT = """side blue
choose blue-rifle-2
remove
sheet spearman
place 6 20
place 3 38
choose blue-spearman-2
turn -45
move 8 37
side red
sheet archer
place 58 30
save
"""


def _bow3d(*words, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "bow3d", *words], capture_output=True, text=True, cwd=cwd, env=env,
                          timeout=300)


@pytest.mark.render
def test_setup_saves_a_scene_that_scene_check_accepts(tmp_path, renderer_available):
    shutil.copytree(ROOT / "scenes", tmp_path / "scenes", ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    (tmp_path / "army.txt").write_text(SCRIPT)
    words = ["setup", "scenes/village.yaml", "--offscreen-script", "army.txt", "-o", "mine.yaml", "--budget", "200",
             "--size", "320x180"]
    made = _bow3d(*words, cwd=tmp_path)
    assert made.returncode == 0, made.stderr[-3000:]
    assert "Blue army: 8 units, 192 / 200 points" in made.stdout  # -22 (a rifleman) +11 +11 (two spearmen)
    assert "Red army: 11 units, 217 / 200 points (over budget by 17)" in made.stdout
    checked = _bow3d("scene", "check", "mine.yaml", cwd=tmp_path)
    assert checked.returncode == 0, checked.stderr
    from bow3d.rulesets import load_scene

    scene = load_scene(tmp_path / "mine.yaml")
    ids = {u.id: u for u in scene.units}
    assert "blue-rifle-2" not in ids and ids["blue-spearman-1"].position == (6.5, 20.5)
    assert ids["blue-spearman-1"].facing == 0.0 and ids["red-archer-3"].facing == 180.0  # towards the middle
    assert ids["blue-spearman-2"].position == (8.5, 37.5) and ids["blue-spearman-2"].facing == 315.0
    assert scene.battlefield == "scenes/village.ldr" and ids["blue-spearman-1"].model == "scenes/figures/blue-spearman.ldr"

    saved = (tmp_path / "mine.yaml").read_bytes()
    again = _bow3d(*words, cwd=tmp_path)  # never over an existing file without --force: exit 2, untouched
    assert again.returncode == 2 and "--force" in again.stderr and "Traceback" not in again.stderr
    assert (tmp_path / "mine.yaml").read_bytes() == saved
    assert _bow3d(*words, "--force", cwd=tmp_path).returncode == 0

    away = tmp_path / "elsewhere"
    away.mkdir()
    refused = _bow3d("setup", str(tmp_path / "scenes" / "village.yaml"), "--offscreen-script",
                     str(tmp_path / "army.txt"), "-o", "far.yaml", "--size", "320x180", cwd=away)
    assert refused.returncode == 2 and "BOW3D_ALLOW_PATHS" in refused.stderr  # it could not name the battlefield
    assert not (away / "far.yaml").exists()


@pytest.mark.render
def test_setup_on_a_bare_battlefield_with_another_scenes_sheets(tmp_path, renderer_available):
    shutil.copytree(ROOT / "scenes", tmp_path / "scenes", ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    (tmp_path / "bare.txt").write_text("sheet rifleman\nplace 5 30\nside red\nsheet swordsman\nplace 56 33\nsave\n")
    made = _bow3d("setup", "scenes/village.ldr", "--sheets", "scenes/village.yaml", "-o", "skirmish.yaml",
                  "--offscreen-script", "bare.txt", "--size", "320x180", cwd=tmp_path)
    assert made.returncode == 0, made.stderr[-3000:]
    assert "Blue army: 1 unit, 22 points" in made.stdout and "Red army: 1 unit, 26 points" in made.stdout
    assert _bow3d("scene", "check", "skirmish.yaml", cwd=tmp_path).returncode == 0


@pytest.mark.render
def test_a_players_own_battlefield_with_the_bundled_sheets_saves(tmp_path, renderer_available):
    """Was: `bow3d setup my-field.ldr` (the bundled village's sheets) could not save at all: "units[0].model:
    leads outside the scene's folder and the LDraw library (to .../scenes/figures/blue-rifleman.ldr)".
    The models are copied beside the saved scene (OUT-units/), never over a file of the player's."""
    folder = tmp_path / "my table"
    folder.mkdir()
    shutil.copy(ROOT / "scenes" / "village.ldr", folder / "my field.ldr")
    (folder / "army.txt").write_text("sheet rifleman\nplace 5 30\nside red\nsheet swordsman\nplace 56 33\nsave\n")
    words = ["setup", "my field.ldr", "--offscreen-script", "army.txt", "-o", "battle.yaml", "--size", "320x180"]
    (folder / "battle-units").mkdir()
    (folder / "battle-units" / "red-swordsman.ldr").write_text("0 mine\n")
    refused = _bow3d(*words, cwd=folder)
    assert refused.returncode == 2 and "red-swordsman.ldr" in refused.stderr and "Traceback" not in refused.stderr
    assert (folder / "battle-units" / "red-swordsman.ldr").read_text() == "0 mine\n" and not (folder / "battle.yaml").exists()
    (folder / "battle-units" / "red-swordsman.ldr").unlink()
    made = _bow3d(*words, cwd=folder)
    assert made.returncode == 0, made.stderr[-3000:]
    assert sorted(p.name for p in (folder / "battle-units").iterdir()) == ["blue-rifleman.ldr", "red-swordsman.ldr"]
    assert (folder / "battle-units" / "blue-rifleman.ldr").read_bytes() == \
        (ROOT / "scenes" / "figures" / "blue-rifleman.ldr").read_bytes()
    checked = _bow3d("scene", "check", "battle.yaml", cwd=folder)
    assert checked.returncode == 0, checked.stderr
    assert "model: battle-units/blue-rifleman.ldr" in (folder / "battle.yaml").read_text()
    assert _bow3d(*words, "--force", cwd=folder).returncode == 0  # the same copies again: kept


@pytest.mark.render
@pytest.mark.parametrize("cell,what", [("6 40", "a house's roof"), ("12 5", "a pine tree's top")])
def test_no_unit_on_a_roof_or_a_tree(cell, what, tmp_path, renderer_available):
    shutil.copytree(ROOT / "scenes", tmp_path / "scenes", ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    (tmp_path / "roof.txt").write_text(f"sheet spearman\nplace {cell}\nsave\n")
    made = _bow3d("setup", "scenes/village.yaml", "--offscreen-script", "roof.txt", "-o", "roof.yaml",
                  "--size", "320x180", cwd=tmp_path)
    assert made.returncode == 2, (what, made.stdout, made.stderr[-2000:])
    assert f"place {cell}: cell ({cell.replace(' ', ', ')}) is " in made.stderr
    assert "bricks above the ground around it" in made.stderr and "choose a cell on the ground" in made.stderr
    assert not (tmp_path / "roof.yaml").exists()


@pytest.mark.render
def test_an_unknown_side_in_a_script_names_its_line(tmp_path, renderer_available):
    shutil.copytree(ROOT / "scenes", tmp_path / "scenes", ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    (tmp_path / "sides.txt").write_text("# blue and red only\nside green\nsave\n")
    made = _bow3d("setup", "scenes/village.yaml", "--offscreen-script", "sides.txt", "-o", "sides.yaml",
                  "--size", "320x180", cwd=tmp_path)
    assert made.returncode == 2 and "Traceback" not in made.stderr
    assert "sides.txt:2: no side 'green' in the scene (sides: blue, red)" in made.stderr, made.stderr[-2000:]
    assert not (tmp_path / "sides.yaml").exists()


UNDO = """side blue
sheet spearman
place 6 20
undo
choose blue-rifle-2
remove
undo
choose blue-sword
turn 90
move 8 37
undo
undo
side red
sheet archer
place 58 30
place 58 28
undo
save
"""


@pytest.mark.render
def test_ctrl_z_takes_back_set_up_steps_one_by_one(tmp_path, renderer_available):
    shutil.copytree(ROOT / "scenes", tmp_path / "scenes", ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    (tmp_path / "undo.txt").write_text(UNDO)
    made = _bow3d("setup", "scenes/village.yaml", "--offscreen-script", "undo.txt", "-o", "undo.yaml",
                  "--size", "320x180", cwd=tmp_path)
    assert made.returncode == 0, made.stderr[-3000:]
    from bow3d.rulesets import load_scene

    before = {u.id: u for u in load_scene(ROOT / "scenes" / "village.yaml").units}
    after = {u.id: u for u in load_scene(tmp_path / "undo.yaml").units}
    assert set(after) == set(before) | {"red-archer-3"}  # the spearman placed then taken back; the rifle back
    assert after["red-archer-3"].position == (58.5, 30.5)  # the second archer taken back, the first kept
    for id in ("blue-rifle-2", "blue-sword"):  # put back where they were, facing as they did
        assert (after[id].position, after[id].facing) == (before[id].position, before[id].facing)
