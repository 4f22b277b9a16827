"""Issue 30: every registered ruleset plays in `bow3d play` and shows in `bow3d view`, through the table.

For each ruleset of the registry, on a bundled scene of that ruleset (the French BOW on a copy of the
village that names it): a whole hot-seat game and a whole game against the AI from an offscreen play script
(the same handlers as the mouse and keys: next unit, the first listed choice, confirm, end the turn), whose
replay verifies; a click on every unit and vehicle in the viewer shows its sheet (rows in the ruleset's
words); `bow3d view --select` and `--los` answer. Children run in their own processes (one ShowBase each).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import bow3d.rulesets  # noqa: F401  (registers the built-in rulesets)
from bow3d.bundled import scenes_dir
from bow3d.rules import RULESETS
from tests.conftest import bundled_scene_of

ROOT = Path(__file__).resolve().parents[2]
TURNS = 120  # script rounds of (next unit, first choice, confirm, end turn): more than one game round needs
AUTO = "\n".join(["next-unit", "key 1", "confirm", "end-turn"] * TURNS) + "\nscreenshot end.png\n"


@pytest.fixture(scope="module")
def scenes(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("scenes") / "scenes"
    shutil.copytree(scenes_dir(), folder)
    return folder


def run(args: list[str], cwd: Path, timeout: int = 300) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BOW3D_CACHE_DIR": str(cwd / "cache")}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=timeout, cwd=cwd, env=env)


def sides_of(scene: Path) -> list[str]:
    return [side["id"] for side in yaml.safe_load(scene.read_text(encoding="utf-8"))["sides"]]


@pytest.mark.render
@pytest.mark.slow
@pytest.mark.parametrize("name", RULESETS.names())
@pytest.mark.parametrize("mode", ["hot-seat", "vs-ai"])
def test_a_whole_game_plays_offscreen(name, mode, scenes, tmp_path, renderer_available):
    """Against the AI: the whole game from one script. Hot seat: a first script takes a choice back (Ctrl+Z) and
    stops mid-game; `--resume` plays the game on from its replay to the end, into a new replay."""
    scene = bundled_scene_of(name, scenes)
    (tmp_path / "auto.txt").write_text(AUTO, encoding="utf-8")
    (tmp_path / "start.txt").write_text("next-unit\nkey 1\nconfirm\nundo\n" + "next-unit\nkey 1\nconfirm\nend-turn\n" * 3,
                                        encoding="utf-8")
    ai = ["--vs-ai", sides_of(scene)[-1]] if mode == "vs-ai" else []
    common = ["--seed", "2", "--max-rounds", "1", "--quality", "draft", "--size", "640x360"]
    if mode == "hot-seat":
        started = run(["-m", "bow3d", "play", str(scene), "--offscreen-script", "start.txt", "--replay",
                       "start.bowreplay", *common], tmp_path)
        assert started.returncode == 0 and "game over" not in started.stdout, started.stdout + started.stderr[-3000:]
        played = run(["-m", "bow3d", "play", "--resume", "start.bowreplay", "--offscreen-script", "auto.txt",
                      "--replay", "game.bowreplay", "--quality", "draft", "--size", "640x360"], tmp_path)
    else:
        played = run(["-m", "bow3d", "play", str(scene), "--offscreen-script", "auto.txt", "--replay", "game.bowreplay",
                      *common, *ai], tmp_path)
    assert played.returncode == 0, played.stderr[-3000:]
    assert "game over" in played.stdout, played.stdout  # the script played the game to its end (the round limit)
    assert (tmp_path / "end.png").read_bytes()[:4] == b"\x89PNG"
    verified = run(["-m", "bow3d", "replay", "verify", "game.bowreplay"], tmp_path)
    assert verified.returncode == 0 and verified.stdout.startswith("ok:"), verified.stdout + verified.stderr[-2000:]
    header, *entries = [json.loads(line) for line in (tmp_path / "game.bowreplay").read_text().splitlines()]
    assert any(e.get("record", {}).get("type") not in ("roll", None) for e in entries), "no choice was recorded"
    players = header["players"]
    assert players[sides_of(scene)[0]] == "human"
    assert (players[sides_of(scene)[-1]] == "human") == (mode == "hot-seat"), players


VIEW = r"""
import json, sys
sys.path.insert(0, {root!r})
from bow3d.ldraw import Library
from bow3d.rulesets import load_scene
from bow3d.view.apps.viewer import Viewer, open_base

scene = load_scene({scene!r})
base = open_base(offscreen=True, size=(640, 360))
viewer = Viewer(base, scene, library=Library.from_env())
out = {{}}
for item in [*scene.units, *scene.vehicles]:
    viewer.on_clear()
    viewer.on_click_unit(item.id)
    out[item.id] = [viewer.selected, viewer.sheet.visible, viewer.sheet.title, [[r.label, r.value] for r in viewer.sheet.rows]]
viewer.screenshot({shot!r})
print(json.dumps(out))
"""


@pytest.mark.render
@pytest.mark.slow
@pytest.mark.parametrize("name", RULESETS.names())
def test_every_unit_clicked_in_the_viewer_shows_its_sheet(name, scenes, tmp_path, renderer_available):
    scene = bundled_scene_of(name, scenes)
    shot = tmp_path / "sheet.png"
    clicked = run(["-c", VIEW.format(root=str(ROOT), scene=str(scene), shot=str(shot))], tmp_path)
    assert clicked.returncode == 0, clicked.stderr[-3000:]
    out = json.loads(clicked.stdout.strip().splitlines()[-1])
    data = yaml.safe_load(scene.read_text(encoding="utf-8"))
    ids = [u["id"] for u in data.get("units", [])] + [v["id"] for v in data.get("vehicles", []) or []]
    assert sorted(out) == sorted(ids)
    for id_, (selected, visible, title, rows) in out.items():
        assert selected == id_ and visible and title.startswith(id_), (id_, title)
        assert rows and all(label and value for label, value in rows), (id_, rows)  # the sheet in words
    first, second = ids[0], next(i for i in ids if i != ids[0])
    for extra in (["--select", first], ["--los", f"{first}:{second}"]):
        out_png = tmp_path / f"view{len(extra[1])}.png"
        viewed = run(["-m", "bow3d", "view", str(scene), "--screenshot", str(out_png), "--size", "640x360", *extra],
                     tmp_path)
        assert viewed.returncode == 0, viewed.stderr[-3000:]
        assert out_png.read_bytes()[:4] == b"\x89PNG"
