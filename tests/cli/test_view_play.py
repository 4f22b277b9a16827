"""End to end: `bow3d view SCENE --screenshot`, `bow3d render SCENE --camera/--los`, `bow3d play --offscreen-script`.

Windows and buffers open in child processes (one ShowBase per process); skipped without a graphics pipe.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bow3d.cli import main
from tests.conftest import write, write_library

ROOT = Path(__file__).resolve().parents[2]
SCENE = """format: bow3d-scene/1
name: Duel
battlefield: field.ldr
sides:
  - {id: blue, colour: 1}
  - {id: red, colour: 4}
sheets:
  rifleman: {kind: minifig, attack: 1, dodge: 1, hp: 2, weapons: [{name: rifle, kind: ranged, damage: 1}]}
units:
  - {id: blue-1, side: blue, sheet: rifleman, model: figure.ldr, position: [2.5, 2.5], facing: 0}
  - {id: red-1, side: red, sheet: rifleman, model: figure.ldr, position: [12.5, 3.5], facing: 180}
"""


@pytest.fixture
def duel(tmp_path) -> Path:
    write_library(tmp_path / "ldraw")
    write(tmp_path / "field.ldr", "0 Field\n1 2 160 8 80 16 0 0 0 0.3333333 0 0 0 8 box.dat\n"
                                  "1 71 150 0 50 1 0 0 0 1 0 0 0 2 box.dat\n")  # a 1x2-stud wall between them
    write(tmp_path / "figure.ldr", "0 Figure\n1 16 0 0 0 1 0 0 0 2 0 0 0 1 box.dat\n")
    return write(tmp_path / "duel.yaml", SCENE)


def bow3d(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bow3d", *args], capture_output=True, text=True, timeout=120,
                          cwd=cwd, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(cwd),
                                        "BOW3D_CACHE_DIR": str(cwd / "cache")})


@pytest.mark.render
def test_view_scene_screenshot_with_a_line_of_sight(duel, renderer_available):
    out = duel.parent / "shot.png"
    result = bow3d("view", str(duel), "--library", str(duel.parent / "ldraw"), "--screenshot", str(out),
                   "--size", "320x180", "--los", "blue-1:red-1", cwd=duel.parent)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "blue-1 can" in result.stdout and "studs" in result.stdout  # the verdict in words
    assert out.read_bytes()[:4] == b"\x89PNG"
    again = bow3d("view", str(duel), "--library", str(duel.parent / "ldraw"), "--screenshot", str(out),
                  cwd=duel.parent)
    assert again.returncode == 2 and "already exists" in again.stderr  # never overwrites


@pytest.mark.render
def test_render_scene_from_a_unit_shoulder(duel, renderer_available):
    out = duel.parent / "r.png"
    code = main(["render", str(duel), "-o", str(out), "--library", str(duel.parent / "ldraw"), "--size", "160x90",
                 "--camera", "unit:blue-1", "--los", "blue-1:red-1"])
    assert code == 0 and out.read_bytes()[:4] == b"\x89PNG"
    code = main(["render", str(duel), "-o", str(duel.parent / "s.png"), "--library", str(duel.parent / "ldraw"),
                 "--size", "160x90", "--camera=-5,-5,10:8,4,0"])
    assert code == 0


def test_render_and_view_refuse_bad_cameras_and_sights(duel, capsys):
    assert main(["render", str(duel), "-o", str(duel.parent / "x.png"), "--camera", "1,2:3"]) == 2
    assert "--camera" in capsys.readouterr().err
    assert main(["render", str(duel), "-o", str(duel.parent / "x.png"), "--los", "blue-1:nobody"]) == 2
    assert "nobody" in capsys.readouterr().err


@pytest.mark.render
def test_play_offscreen_script_writes_a_replay_that_verifies(duel, renderer_available):
    from bow3d.ldraw import Library
    from bow3d.replay.verify import verify_replay
    from bow3d.rulesets import load_scene
    from bow3d.world import World

    script = write(duel.parent / "moves.txt", "# blue or red starts: both try\n"
                   "click-unit blue-1\nclick-cell 5 2\nconfirm\nclick-unit red-1\nconfirm\nend-turn\n"
                   "click-unit red-1\nclick-cell 10 3\nconfirm\nclick-unit blue-1\nconfirm\nend-turn\n"
                   "screenshot play.png\n")
    replay = duel.parent / "duel.bowreplay"
    result = bow3d("play", str(duel), "--library", str(duel.parent / "ldraw"), "--offscreen-script", str(script),
                   "--replay", str(replay), "--seed", "3", "--size", "320x180", cwd=duel.parent)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "records written to" in result.stdout and (duel.parent / "play.png").exists()
    lines = replay.read_text().splitlines()
    assert len(lines) >= 5 and '"type":"move"' in replay.read_text()  # rolls, a move, more
    scene = load_scene(duel)
    world = World.from_scene(scene, Library([duel.parent / "ldraw"]))
    assert verify_replay(replay, geometry=world).ok
    refused = bow3d("play", str(duel), "--library", str(duel.parent / "ldraw"), "--offscreen-script", str(script),
                    "--replay", str(replay), cwd=duel.parent)
    assert refused.returncode == 2 and "never overwrites" in refused.stderr


def test_play_refuses_bad_scripts_and_sides(duel, capsys):
    bad = write(duel.parent / "bad.txt", "click-unit blue-1\njump 3\n")
    assert main(["play", str(duel), "--offscreen-script", str(bad), "--replay", str(duel.parent / "x.bowreplay")]) == 2
    assert "bad.txt:2: unknown command 'jump'" in capsys.readouterr().err
    assert main(["play", str(duel), "--vs-ai", "green"]) == 2
    assert "--vs-ai green" in capsys.readouterr().err
    assert not (duel.parent / "x.bowreplay").exists()


def test_play_script_parser_checks_arguments():
    from bow3d.commands.play import parse_play_script
    from bow3d.errors import UserInputError

    steps = parse_play_script("click-cell 3 4  # go\n\nconfirm\nturn -45\n", "s.txt")
    assert [(s.line, s.command, s.args) for s in steps] == [(1, "click-cell", ("3", "4")), (3, "confirm", ()),
                                                             (4, "turn", ("-45",))]
    with pytest.raises(UserInputError, match="s.txt:1: click-cell needs numbers"):
        parse_play_script("click-cell a b\n", "s.txt")
    with pytest.raises(UserInputError, match="s.txt:1: key takes 1"):
        parse_play_script("key\n", "s.txt")
    drag = parse_play_script("tape-mode\ndrag 10 20.5 300 40\nheads\n", "s.txt")
    assert [(s.command, s.args) for s in drag] == [("tape-mode", ()), ("drag", ("10", "20.5", "300", "40")),
                                                   ("heads", ())]
    with pytest.raises(UserInputError, match="s.txt:1: drag takes 4"):
        parse_play_script("drag 1 2\n", "s.txt")


@pytest.mark.render
def test_render_ldraw_from_a_camera_position(duel, renderer_available, capsys):
    field, lib = str(duel.parent / "field.ldr"), str(duel.parent / "ldraw")
    assert main(["render", field, "-o", str(duel.parent / "f.png"), "--library", lib, "--size", "64x48",
                 "--camera=-4,-4,6:8,4,0"]) == 0
    assert main(["render", field, "-o", str(duel.parent / "g.png"), "--library", lib, "--camera", "unit:blue-1"]) == 2
    assert "needs a scene file" in capsys.readouterr().err
