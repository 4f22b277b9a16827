"""Issue 17, at the table: the measuring tape, "who sees this cell" and the melee and charge previews.

The words and the geometry alone first (no window), then the play UI driven offscreen through its own
handlers and a real mouse click (a child process: one ShowBase per process; skipped without a pipe).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bow3d.rulesets import RULESETS
from bow3d.view.table.table_aids import beam_corners, distance_words, seers_words, tape_words

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("ruleset,studs,expected", [
    ("bow-1.3", 22.0, "22.0 studs, within 30 studs: -1 brick"),   # BOW 1.3 §2.4.2: -1 brick per 15 studs
    ("bow-1.3", 15.0, "15.0 studs, within 15 studs"),
    ("war-of-bros", 25.0, "20.0 cm, within 30 cm: Machine Gun"),  # 1 cm = 1.25 studs
    ("war-of-bros", 100.0, "80.0 cm, beyond 40 cm: Rifle"),
    ("blaze-of-glory", 31.75, '10.0 in, within 12": pistol'),      # 1 in = 3.175 studs
])
def test_the_tape_speaks_the_rulesets_unit_and_band(ruleset, studs, expected):
    assert tape_words(RULESETS.get(ruleset), studs) == expected


def test_distance_words_and_the_seers_line():
    assert distance_words(2.5, "studs") == "2.5 studs" and distance_words(1.25, "cm") == "1.0 cm"
    assert seers_words((3, 4), {}) == "cell (3, 4): seen by no enemy"
    assert seers_words((3, 4), {"red-1": 0.25, "red-2": 0.9}) == "cell (3, 4): seen by red-2 (90%), red-1 (25%)"
    many = {f"red-{n}": n / 10 for n in range(1, 6)}
    assert seers_words((3, 4), many) == "cell (3, 4): seen by red-5 (50%), red-4 (40%), red-3 (30%) and 2 more"


def test_a_beam_runs_from_one_end_to_the_other():
    corners = beam_corners((0, 0, 0), (30, 40, 0), 2.0).reshape(-1, 3)
    along = corners @ np.array([0.6, 0.8, 0.0])
    assert along.min() == pytest.approx(0.0) and along.max() == pytest.approx(50.0)
    assert np.abs(corners[:, 2]).max() == pytest.approx(1.0)


SCENE = """format: bow3d-scene/1
name: Aids
battlefield: field.ldr
sides:
  - {id: blue, name: Blue army, colour: 1}
  - {id: red, name: Red army, colour: 4}
sheets:
  swordsman: {kind: minifig, action_budget: 2, move: 4, attack: 2, dodge: 1, hp: 2,
              weapons: [{name: sword, kind: melee, damage: 1, reach: 1}]}
  rifleman: {kind: minifig, action_budget: 2, move: 4, attack: 1, dodge: 1, hp: 2,
             weapons: [{name: rifle, kind: ranged, damage: 1}]}
units:
  - {id: blue-1, side: blue, sheet: swordsman, model: figure.ldr, position: [2.5, 6.5], facing: 0}
  - {id: blue-2, side: blue, sheet: rifleman, model: figure.ldr, position: [1.5, 1.5], facing: 0}
  - {id: red-1, side: red, sheet: swordsman, model: figure.ldr, position: [3.5, 6.5], facing: 180}
  - {id: red-2, side: red, sheet: swordsman, model: figure.ldr, position: [8.5, 6.5], facing: 180}
  - {id: red-3, side: red, sheet: rifleman, model: figure.ldr, position: [25.5, 2.5], facing: 180}
"""
# 30 x 8 studs, top at z = 0, and a wall 4 bricks high across x 14..15, y 0..4
FIELD = ("0 Field\n1 2 300 8 80 30 0 0 0 0.3333333 0 0 0 8 box.dat\n"
         "1 71 290 0 40 1 0 0 0 4 0 0 0 4 box.dat\n")
FIGURE = "0 Figure\n1 16 0 0 0 1 0 0 0 2 0 0 0 1 box.dat\n"

# The offscreen scripts' start: the test field, its figure and scene written under tmp, a 640x360 window.
PROLOGUE = r"""
import json, sys
from pathlib import Path
sys.path.insert(0, {root!r})
from tests.conftest import write_library, write
from bow3d.ldraw import Library
from bow3d.rulesets import load_scene
from bow3d.view.camera.picking import cell_pixel, project
from bow3d.view.apps.viewer import Viewer, open_base

root = Path({tmp!r})
library = Library([write_library(root / "ldraw")])
write(root / "field.ldr", {field!r}); write(root / "figure.ldr", {figure!r})
scene = load_scene(write(root / "aids.yaml", {scene!r}))
base = open_base(offscreen=True, size=(640, 360))
"""

SCRIPT = PROLOGUE + r"""from bow3d.view.apps.play_ui import PlayUI
ui = PlayUI(base, scene, root / "aids.bowreplay", seed=3, library=library, animate=False,
            players={{"blue": "human", "red": "human"}})
world = ui.viewer.world
out = {{"side": ui.game.state.side_to_play}}

# the tape, through real clicks: T, then the pixel of blue-1's head, then red-3's
ui.on_tape_mode()
for unit in ("blue-1", "red-3"):
    x, y = project(base, [ui.nodes.head_point(unit)])[0]
    ui.on_mouse_click(float(x), float(y))
out["tape"] = [ui.aids.measure.distance_studs, ui.aids.measure.words, ui.viewer.verdict_text.getText()]
out["world"] = world.distance_studs("blue-1", "red-3")
out["label"] = ui.aids.label.getText()
ui.viewer.screenshot(str(root / "tape.png"))
# from a unit to a point on the ground: a click on a cell's pixel
ui.on_tape_end("blue-2")
x, y = cell_pixel(base, ui.nodes, (10, 1))
ui.on_mouse_click(x, y)
end = ui.aids.ends[1]
out["point"] = [ui.aids.measure.distance_studs, [float(v) for v in end], list(world.head("blue-2")),
                ui.aids.measure.words]
ui.on_tape_heads()  # G: the point on the ground
out["ground"] = [ui.aids.measure.distance_studs, ui.viewer.verdict_text.getText()]
ui.on_tape_heads()
out["selected_while_measuring"] = ui.selected
ui.on_cancel()
out["after_cancel"] = [ui.tape_mode, ui.aids.measure is None, ui.aids.label.getText()]

# the tape by a drag, through the window's mouse handlers: press on blue-1's head, move, release on red-3's
def pixel(unit):
    return [float(v) for v in project(base, [ui.nodes.head_point(unit)])[0]]
ui.on_tape_mode()
a, b = pixel("blue-1"), pixel("red-3")
ui.viewer.on_left_press(*a)
out["pressed"] = ui.aids.measure is None
live = []
for t in (0.25, 0.5, 0.75):
    ui.viewer.on_pointer_move(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
    live.append([ui.aids.measure.distance_studs, ui.aids.label.getText(), ui.aids.ends[1] if isinstance(ui.aids.ends[1], str) else "point"])
ui.viewer.on_pointer_move(*b)
ui.viewer.on_left_release(*b)
out["live"] = live
out["dragged"] = [ui.aids.ends, ui.aids.measure.distance_studs, ui.viewer.verdict_text.getText(),
                  ui.aids.label.getText(), ui.selected, ui.tape_mode]
# released on the ground: the far end is the point under the pointer, at a minifig's head height
c = list(cell_pixel(base, ui.nodes, (10, 1)))
ui.viewer.on_left_press(*a)
ui.viewer.on_pointer_move(*c)
ui.viewer.on_left_release(*c)
out["dragged_to_ground"] = [ui.aids.ends[0], [float(v) for v in ui.aids.ends[1]], ui.aids.measure.distance_studs,
                            list(world.head("blue-1"))]
ui.on_tape_mode()
# outside tape mode a left drag orbits and lays no tape, chooses nothing
yaw = ui.viewer.camera.yaw_deg
ui.viewer.on_left_press(*a)
ui.viewer.on_pointer_move(a[0] + 60, a[1])
ui.viewer.on_left_release(a[0] + 60, a[1])
out["orbit"] = [ui.viewer.camera.yaw_deg - yaw, ui.aids.measure is None, ui.selected]
# the same drag from an offscreen play script (bow3d play --offscreen-script): T, drag, G
from bow3d.commands.play import parse_play_script, run_script
a, b = pixel("blue-2"), pixel("red-2")
run_script(ui, parse_play_script("tape-mode\ndrag %f %f %f %f\nheads\n" % (*a, *b), "s.txt"), "s.txt")
out["script_drag"] = [ui.aids.ends, ui.aids.measure.words, ui.aids.heads, ui.tape_mode]
ui.on_tape_heads()
ui.on_tape_mode()

# who sees a cell: both near reds see (5, 1); the wall hides it from red-3; red-3 sees (20, 6)
out["near"] = ui.on_hover_cell((5, 1))
out["far"] = ui.on_hover_cell((20, 6))
out["hover_words"] = ui.viewer.verdict_text.getText()
out["rings"] = ui.aids._sight is not None
out["cached"] = len(ui.aids._seen_cache)
ui.on_hover_cell((5, 1))
out["cached_again"] = len(ui.aids._seen_cache)

# melee reach now and where a charge would end (blue-1's sword)
out["records_before"] = len(ui.game.records)
ui.on_click_unit("blue-1")
now, charges = ui.melee
out["melee_now"] = now
out["charges"] = {{f"{{c[0]}},{{c[1]}}": e for c, e in charges.items()}}
out["rings_red"] = sorted(id for id, p in ui.nodes.pieces.items() if "melee" in p.selection)
out["records"] = len(ui.game.records)
out["positions"] = {{u.id: list(u.position) for u in ui.game.state.units.values()}}
# a charge cell previewed, then the sword reaches red-2 from there (the rules agree)
cell = sorted(charges)[0]
ui.on_click_cell(cell); ui.on_click_cell(cell)
from bow3d.rulesets.bow import Attack
out["after_charge"] = ui.game.check(Attack("blue-1", "red-2", "sword"))
ui.viewer.screenshot(str(root / "melee.png"))
ui.close()
print("RESULT " + json.dumps(out, default=lambda v: [float(x) for x in v]))
"""


@pytest.mark.render
def test_tape_hover_and_melee_previews_in_the_play_ui(tmp_path, renderer_available):
    code = SCRIPT.format(root=str(ROOT), tmp=str(tmp_path), field=FIELD, figure=FIGURE, scene=SCENE)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, result.stderr[-3000:]
    out = json.loads(next(line for line in result.stdout.splitlines() if line.startswith("RESULT "))[7:])
    distance, words, shown = out["tape"]
    assert distance == pytest.approx(out["world"])  # head to head in 3D (BOW §2.4.2), measured by the world
    assert 20 < distance < 30 and words == f"{distance:.1f} studs, within 30 studs: -1 brick (head to head)"
    assert shown == words and out["label"] == words
    point_distance, end, head, point_words = out["point"]
    assert end[2] == pytest.approx(0.0, abs=1.0)  # the ground of the field, measured at a minifig's head above it
    assert point_distance == pytest.approx(np.linalg.norm(np.subtract(end, head) + (0, 0, 44)) / 20)
    assert point_words.endswith("(head to head)")
    ground_distance, ground_words = out["ground"]  # G: to the point on the ground
    assert ground_distance == pytest.approx(np.linalg.norm(np.subtract(end, head)) / 20)
    assert ground_words.endswith("(head to the ground point)")
    assert out["pressed"]  # a press alone lays nothing yet
    assert "red-3" not in [end for _, _, end in out["live"]]  # mid-way: the tape to the pointer (a unit or point)
    assert out["live"][0][0] < out["live"][1][0] < out["live"][2][0] < distance  # ...following it
    assert all(label.endswith("(head to head)") and "studs" in label for _, label, _ in out["live"])
    ends, dragged, shown, label, selected, mode = out["dragged"]
    assert ends == ["blue-1", "red-3"] and dragged == pytest.approx(distance)
    assert shown == label == words and selected is None and mode
    start, ground_end, to_ground, head1 = out["dragged_to_ground"]
    assert start == "blue-1" and ground_end[2] == pytest.approx(0.0, abs=1.0)
    assert (int(ground_end[0] // 20), int(ground_end[1] // 20)) == (10, 1)
    assert to_ground == pytest.approx(np.linalg.norm(np.subtract(ground_end, head1) + (0, 0, 44)) / 20)
    turned, no_tape, chosen = out["orbit"]
    assert abs(turned) > 5 and no_tape and chosen is None
    ends, script_words, heads, mode = out["script_drag"]
    assert ends == ["blue-2", "red-2"] and script_words.endswith("(head to head)") and not heads and mode
    assert out["selected_while_measuring"] is None  # measuring clicks choose nothing
    assert out["after_cancel"] == [False, True, ""]
    assert set(out["near"]) == {"red-1", "red-2"}  # the wall hides the cell from red-3
    assert set(out["far"]) >= {"red-3"}
    assert out["hover_words"].startswith("cell (20, 6): seen by") and out["rings"]
    assert out["cached_again"] == out["cached"]  # asked again: from the cache
    assert out["melee_now"] == ["red-1"]  # adjacent, in the front arc, within the sword's reach of 1 stud
    assert out["charges"] and all(enemies == ["red-2"] for enemies in out["charges"].values())
    assert out["rings_red"] == ["red-1"]
    assert out["records"] == out["records_before"] and out["positions"]["blue-1"] == [2.5, 6.5]  # previews apply nothing
    assert out["after_charge"] is None  # moved to a charge cell: the rules let the sword strike red-2
    assert (tmp_path / "tape.png").read_bytes()[:4] == b"\x89PNG"


VIEWER_SCRIPT = PROLOGUE + r"""viewer = Viewer(base, scene, library=library)
viewer.on_tape_mode()
for unit in ("blue-2", "red-2"):
    x, y = project(base, [viewer.nodes.head_point(unit)])[0]
    viewer.on_click(float(x), float(y))
out = dict(words=viewer.verdict_text.getText(), studs=viewer.aids.measure.distance_studs,
           world=viewer.world.distance_studs("blue-2", "red-2"), selected=viewer.selected)
# the same by a drag: press on blue-2, move, release on red-2
a, b = ([float(v) for v in project(base, [viewer.nodes.head_point(u)])[0]] for u in ("blue-2", "red-2"))
viewer.on_left_press(*a)
viewer.on_pointer_move((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
viewer.on_left_release(*b)
out["drag"] = [viewer.aids.ends, viewer.aids.measure.distance_studs, viewer.verdict_text.getText()]
viewer.on_clear()
out["cleared"] = [viewer.tape_mode, viewer.aids.measure is None]
print("RESULT " + json.dumps(out, default=lambda v: [float(x) for x in v]))
"""


@pytest.mark.render
def test_the_viewer_measures_too(tmp_path, renderer_available):
    code = VIEWER_SCRIPT.format(root=str(ROOT), tmp=str(tmp_path), field=FIELD, figure=FIGURE, scene=SCENE)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, result.stderr[-3000:]
    out = json.loads(next(line for line in result.stdout.splitlines() if line.startswith("RESULT "))[7:])
    assert out["studs"] == pytest.approx(out["world"]) and out["selected"] is None
    # blue-2 (1.5, 1.5) to red-2 (8.5, 6.5)
    assert out["words"] == f"{out['studs']:.1f} studs, within 15 studs (head to head)"
    assert out["drag"] == [["blue-2", "red-2"], pytest.approx(out["studs"]), out["words"]]
    assert out["cleared"] == [False, True]


def test_view_tape_names_two_units_of_the_scene(capsys):
    from bow3d.cli import main

    village = str(ROOT / "scenes" / "village.yaml")
    for tape, words in [("blue-rifle-2", "write A:B"), ("blue-rifle-2:blue-rifle-2", "write A:B"),
                        ("blue-rifle-2:nobody", "no unit or vehicle 'nobody'")]:
        assert main(["view", village, "--tape", tape]) == 2
        assert words in capsys.readouterr().err
