"""The viewer on a scene: mouse picking, the sheet overlay, a line of sight drawn; the sheet's rows (BOW §1.4)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from bow3d.rulesets.bow.present import sheet_rows
from bow3d.rulesets.bow.sheets import MinifigSheet, VehicleSheet, Weapon
from bow3d.view.graph.markers import BLACK, DARK_GREY, GREEN, RED, WHITE, YELLOW
from bow3d.view.table.sheet_overlay import layout

SCRIPT = r"""
import json, sys
from pathlib import Path
sys.path.insert(0, {root!r})
from tests.conftest import write_library, write
from bow3d.ldraw import Library
from bow3d.rulesets import load_scene
from bow3d.view.camera.picking import pick_cell, project, cell_pixel
from bow3d.view.apps.viewer import Viewer, open_base

root = Path({tmp!r})
library = Library([write_library(root / "ldraw")])
write(root / "field.ldr", "0 Field\n1 2 160 8 80 16 0 0 0 0.3333333 0 0 0 8 box.dat\n"
                          "1 71 150 0 50 1 0 0 0 1 0 0 0 2 box.dat\n")
write(root / "figure.ldr", "0 Figure\n1 16 0 0 0 1 0 0 0 2 0 0 0 1 box.dat\n")
scene = load_scene(write(root / "s.yaml", {scene!r}))
base = open_base(offscreen=True, size=(480, 270))
viewer = Viewer(base, scene, library=library)
out = {{}}
x, y = project(base, [viewer.nodes.head_point("red-1")])[0]
viewer.on_click(float(x), float(y))            # a click on red-1's head selects it
out["selected"] = viewer.selected
out["sheet"] = viewer.sheet is not None and viewer.sheet.visible
out["sheet_rows"] = [r.label for r in viewer.sheet.rows]
viewer.on_click(2.0, 2.0)                      # the sky: nothing happens
out["still"] = viewer.selected
out["cell"] = pick_cell(base, viewer.nodes, cell_pixel(base, viewer.nodes, (11, 6)))
viewer.on_click_unit("blue-1")                 # a second unit: the line of sight red-1 -> blue-1
out["verdict"] = viewer.verdict_text.getText()
out["los"] = viewer.los is not None and viewer.los.root.get_num_children()
viewer.screenshot(str(root / "los.png"))
viewer.on_clear()
out["cleared"] = (viewer.selected, viewer.los, viewer.sheet.visible)
print("RESULT " + json.dumps(out))
"""
SCENE = """format: bow3d-scene/1
name: Two
battlefield: field.ldr
sides:
  - {id: blue, colour: 1}
  - {id: red, colour: 4}
sheets:
  rifleman: {kind: minifig, weapons: [{name: rifle, kind: ranged, damage: 1}]}
units:
  - {id: blue-1, side: blue, sheet: rifleman, model: figure.ldr, position: [2.5, 2.5], facing: 0}
  - {id: red-1, side: red, sheet: rifleman, model: figure.ldr, position: [12.5, 2.5], facing: 180}
"""


@pytest.mark.render
def test_viewer_picks_units_shows_the_sheet_and_the_line_of_sight(tmp_path, renderer_available):
    root = str(Path(__file__).resolve().parents[2])
    code = SCRIPT.format(root=root, tmp=str(tmp_path), scene=SCENE)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    out = json.loads(next(line for line in result.stdout.splitlines() if line.startswith("RESULT "))[7:])
    assert out["selected"] == "red-1" and out["still"] == "red-1" and out["sheet"]
    assert out["sheet_rows"][:2] == ["Action budget", "Move"]
    assert out["cell"] == [11, 6]  # a cell's pixel picks that cell back
    assert out["verdict"].startswith("red-1 can") and "studs" in out["verdict"]  # the wall covers part of blue-1
    assert out["los"] >= 4  # rays, samples, bands, arc
    assert out["cleared"] == [None, None, False]
    assert (tmp_path / "los.png").read_bytes()[:4] == b"\x89PNG"


def test_s1_4_1_minifig_sheet_rows_in_the_ability_colours():
    """BOW 1.3 §1.4.1: white Action Budget, green Move, dark grey skill + black weapon damage / armor, red HP."""
    sheet = MinifigSheet(action_budget=2, move=5, attack=1, dodge=2, armor=1, hp=3, treat=1, treat_colour="yellow",
                         weapons=[Weapon(name="rifle", kind="ranged", damage=2), Weapon(name="knife", kind="melee", damage=1)])
    rows = {r.label.split(" (")[0]: r for r in sheet_rows(sheet, weapon="knife", damage=2)}
    assert rows["Action budget"].studs == (WHITE, WHITE)
    assert rows["Move"].studs == (GREEN,) * 5
    assert rows["Attack/Damage"].studs == (DARK_GREY, BLACK)  # attack 1 + knife damage 1
    assert rows["Dodge/Armor"].studs == (DARK_GREY, DARK_GREY, BLACK)
    assert rows["HP"].studs == (RED,) * 3 and rows["HP"].marked == 2  # §2.4.3: damage marked on the sheet
    assert rows["Treat/Repair"].studs == (YELLOW,)


def test_s1_4_2_vehicle_sheet_rows():
    """BOW 1.3 §1.4.2: green Speed, black Dodge/Armor, yellow HP."""
    sheet = VehicleSheet(speed=4, armor=5, hp=2, weapons=[Weapon(name="gun", kind="ranged", damage=3)])
    rows = sheet_rows(sheet, damage=1)
    assert [r.label for r in rows] == ["Speed", "Dodge/Armor", "HP", "gun"]
    assert rows[0].studs == (GREEN,) * 4 and rows[1].studs == (BLACK,) * 5 and rows[2].studs == (YELLOW,) * 2
    assert rows[2].marked == 1


def test_sheet_layout_wraps_long_rows_on_the_6_stud_plate():
    sheet = MinifigSheet(move=8, weapons=[])
    placed = layout(sheet_rows(sheet))
    move_row, studs = placed[1]
    assert {col for col, *_ in studs} <= set(range(6)) and len({row for _, row, *_ in studs}) == 2
    assert placed[2][0] == move_row + 2  # the next ability starts below the wrapped row


# --- helpers under the scene nodes: ground heights and LEGO marker pieces (no graphics needed) -------------

boxes = st.lists(st.tuples(st.integers(-10, 10), st.integers(-10, 10), st.integers(1, 6), st.integers(1, 6),
                           st.integers(0, 10)), min_size=1, max_size=6)


@settings(max_examples=40, deadline=None)
@given(boxes, st.lists(st.tuples(st.floats(-12, 18), st.floats(-12, 18)), min_size=1, max_size=30))
def test_ground_is_the_highest_top_under_each_point(stacks, points):
    """GroundHeights: under a point, the highest upward face among the boxes above it (else 0)."""
    from bow3d.view.graph.ground import GroundHeights
    from bow3d.view.graph.markers import box_corners

    solids = [box_corners((x * 20, y * 20, 0), ((x + w) * 20, (y + d) * 20, h * 8)) for x, y, w, d, h in stacks]
    ground = GroundHeights(np.concatenate(solids))
    xy = np.array(points) * 20 + 0.37  # off the box edges
    got = ground.heights(xy)
    want = np.zeros(len(xy))
    for x, y, w, d, h in stacks:
        inside = (xy[:, 0] >= x * 20) & (xy[:, 0] <= (x + w) * 20) & (xy[:, 1] >= y * 20) & (xy[:, 1] <= (y + d) * 20)
        want = np.where(inside, np.maximum(want, h * 8), want)
    assert np.allclose(got, want)


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.sampled_from([8.0, 24.0]))
def test_marker_bricks_are_closed_and_face_outwards(sx, sy, height):
    """Every triangle of a marker brick faces away from the brick's axis (lit and culled as a solid)."""
    from bow3d.view.graph.markers import brick_corners

    tris = brick_corners(sx, sy, height)
    normals = np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0])
    body = tris[:12]  # the box: outwards from its centre
    centre = np.array([0.0, 0.0, height / 2])
    assert (np.einsum("ij,ij->i", normals[:12], body.mean(axis=1) - centre) > 0).all()
    studs = tris[12:]
    assert studs.shape[0] % 46 == 0 and (studs[:, :, 2] >= height - 1e-9).all()  # studs sit on the top


@given(st.tuples(*[st.floats(-1e4, 1e4, allow_nan=False)] * 6))
def test_camera_spec_parses_what_it_is_given(values):
    from bow3d.view.camera.camera_options import parse_camera

    if values[:3] == values[3:]:
        return
    text = ",".join(map(repr, values[:3])) + ":" + ",".join(map(repr, values[3:]))
    spec = parse_camera(text)
    assert spec.position == values[:3] and spec.target == values[3:]
