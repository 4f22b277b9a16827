"""attach_scene: units placed per the scene contract (C1), rings, marking bricks, death, highlight."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.conftest import write

pytestmark = pytest.mark.render

# A 6x6-stud floor (box.dat scaled: 120 x 8 x 120 LDU, top at z = 0) with a 1-brick step
# (top at z = 24) on the cells x in [2, 3), y in [2, 3); units are an asymmetric "figure"
# (two boxes: a body 20 x 20 x 48 LDU and, in front of it, a nose towards LDraw -Z = world -Y).
BATTLEFIELD = """0 Test battlefield
1 71 60 8 60 6 0 0 0 0.3333333 0 0 0 6 box.dat
1 4 50 0 50 1 0 0 0 1 0 0 0 1 box.dat
"""
FIGURE = """0 Test figure
1 16 0 0 0 1 0 0 0 2 0 0 0 1 box.dat
1 16 0 -10 -12 0.2 0 0 0 0.2 0 0 0 0.2 box.dat
"""
SCENE = """format: bow3d-scene/1
name: Test
battlefield: field.ldr
sides:
  - {id: blue, colour: 1}
  - {id: red, colour: 4}
sheets:
  trooper: {kind: minifig, hp: 2, weapons: [{name: rifle, kind: ranged, damage: 1}]}
  robot: {kind: minifig, hp: 1, hp_colour: yellow}
units:
  - {id: blue-1, side: blue, sheet: trooper, model: figure.ldr, position: [0.5, 0.5], facing: 270}
  - {id: red-1, side: red, sheet: robot, model: figure.ldr, position: [2.5, 2.5], facing: 0}
"""


@pytest.fixture
def scene(tmp_path, library):
    from bow3d.rulesets import load_scene

    write(tmp_path / "field.ldr", BATTLEFIELD)
    write(tmp_path / "figure.ldr", FIGURE)
    return load_scene(write(tmp_path / "scene.yaml", SCENE))


@pytest.fixture
def nodes(scene, library, renderer_available):
    from bow3d.view.graph.scene_nodes import attach_scene
    from bow3d.view.output.offscreen import OffscreenRenderer

    renderer = OffscreenRenderer(64, 48)
    try:
        yield attach_scene(renderer.render, scene, library)
    finally:
        renderer.close()


def test_units_stand_at_their_position_facing_and_on_the_ground(nodes):
    """C1: origin at (20x, 20y), turned by facing - 270 about Z, lowest point on the ground."""
    blue, red = nodes.units["blue-1"], nodes.units["red-1"]
    assert np.allclose(tuple(blue.get_pos()), (10, 10, 0), atol=1e-3)  # on the floor's top
    assert np.allclose(tuple(red.get_pos()), (50, 50, 24), atol=1e-3)  # on the 1-brick step
    assert math.isclose(blue.get_h() % 360, 0.0, abs_tol=1e-4)
    assert math.isclose(red.get_h() % 360, 90.0, abs_tol=1e-4)
    # the nose (model -Y, i.e. facing 270) points along world +X once turned to facing 0
    lo, hi = nodes.pieces["red-1"].body.get_tight_bounds(nodes.root)
    assert hi[0] - 50 > 50 - lo[0] + 2  # sticks out towards +X
    assert math.isclose(lo[2], 24.0, abs_tol=1e-3)  # lowest point on the step (rings start at +0.3)


def test_set_pose_moves_a_unit_and_its_head_point(nodes):
    nodes.set_pose("blue-1", (4.5, 1.5), 90)
    assert np.allclose(tuple(nodes.units["blue-1"].get_pos()), (90, 30, 0), atol=1e-3)
    head = nodes.head_point("blue-1")
    assert math.isclose(head[0], 90, abs_tol=3) and math.isclose(head[1], 30, abs_tol=3)
    assert math.isclose(head[2], 36, abs_tol=1e-3)  # no head part: 12 LDU under the top of the figure
    nodes.set_pose("blue-1", (2.5, 2.5), 0, ground_z=100.0)
    assert math.isclose(nodes.units["blue-1"].get_z(), 100.0)


def test_side_rings_in_side_colours(nodes):
    for uid, code in (("blue-1", 1), ("red-1", 4)):
        ring = nodes.pieces[uid].base
        assert not ring.is_empty() and ring.node().get_num_geoms() == 1
        from bow3d.view.graph.markers import ldraw_rgba

        assert nodes.pieces[uid].side_rgba == ldraw_rgba(code, nodes.colours)


def test_marking_bricks_and_damage_bricks(nodes):
    """BOW 1.3 §2.2 one white marking brick beside a played unit; §2.4.3 damage bricks on the minifig."""
    from bow3d.view.graph.markers import RED, YELLOW

    nodes.set_marks("blue-1", beside=1, on_top=1)
    assert nodes.pieces["blue-1"].marks_state == (1, 1)
    lo, hi = nodes.pieces["blue-1"].marks.get_tight_bounds(nodes.units["blue-1"])
    assert hi[2] > 48  # the damage brick sits on top of the figure
    nodes.set_marks("blue-1")
    assert nodes.pieces["blue-1"].marks_state == (0, 0)
    assert nodes.pieces["blue-1"].marks.get_tight_bounds() is None  # nothing drawn
    assert nodes.pieces["blue-1"].damage_code == RED and nodes.pieces["red-1"].damage_code == YELLOW


def test_dead_unit_lies_down_and_fades(nodes):
    standing = nodes.pieces["blue-1"].body.get_tight_bounds(nodes.units["blue-1"])
    nodes.set_alive("blue-1", False)
    lying = nodes.pieces["blue-1"].body.get_tight_bounds(nodes.units["blue-1"])
    assert lying[1][2] - lying[0][2] < standing[1][2] - standing[0][2]  # lower than standing
    assert math.isclose(lying[0][2], 0.0, abs_tol=1e-3)
    assert nodes.pieces["blue-1"].base.is_hidden()
    nodes.set_marks("blue-1", beside=1)  # the rules still count its marking brick: not drawn on the fallen
    assert nodes.pieces["blue-1"].marks.is_hidden()
    nodes.set_alive("blue-1", True)
    assert not nodes.pieces["blue-1"].base.is_hidden()


def test_highlight_one_unit_per_slot(nodes):
    nodes.highlight("blue-1")
    nodes.highlight("red-1", (1, 0, 0, 1), slot="target")
    assert "select" in nodes.pieces["blue-1"].selection and "target" in nodes.pieces["red-1"].selection
    nodes.highlight("red-1")
    assert "select" not in nodes.pieces["blue-1"].selection and "select" in nodes.pieces["red-1"].selection
    nodes.highlight(None)
    assert not any("select" in p.selection for p in nodes.pieces.values())


def test_unknown_model_is_a_scene_error(tmp_path, library, renderer_available):
    from bow3d.errors import SceneError
    from bow3d.rulesets import parse_scene
    from bow3d.view.graph.scene_nodes import attach_scene
    from bow3d.view.output.offscreen import OffscreenRenderer

    write(tmp_path / "field.ldr", BATTLEFIELD)
    scene = parse_scene(SCENE.replace("model: figure.ldr, position: [2.5", "model: nofig.ldr, position: [2.5"),
                        str(tmp_path / "scene.yaml"))
    scene.path = tmp_path / "scene.yaml"
    write(tmp_path / "figure.ldr", FIGURE)
    renderer = OffscreenRenderer(32, 32)
    try:
        with pytest.raises(SceneError, match="nofig.ldr"):
            attach_scene(renderer.render, scene, library)
    finally:
        renderer.close()


@pytest.mark.parametrize("exposed", [True, False])
def test_occupants_sit_in_the_seats_the_vehicle_model_names(tmp_path, library, renderer_available, exposed):
    """A unit aboard an exposed vehicle is drawn in its seat (`0 // bow3d seat 1: X Y Z`); a closed one hides it."""
    from bow3d.rulesets import load_scene
    from bow3d.view.graph.scene_nodes import attach_scene
    from bow3d.view.output.offscreen import OffscreenRenderer

    write(tmp_path / "field.ldr", BATTLEFIELD)
    write(tmp_path / "figure.ldr", FIGURE)
    write(tmp_path / "cart.ldr", "0 Cart\n0 // bow3d seat 1: 0 -24 10\n1 14 0 0 0 2 0 0 0 1 0 0 0 2 box.dat\n")
    text = SCENE.replace("  robot:", f"  cart: {{kind: vehicle, speed: 2, seats: 1, exposed_occupants: {str(exposed).lower()}}}\n  robot:")
    text += "  - {id: blue-2, side: blue, sheet: trooper, model: figure.ldr}\n"
    text += "vehicles:\n  - {id: cart, side: blue, sheet: cart, model: cart.ldr, position: [4.5, 4.5], facing: 90, occupants: [blue-2]}\n"
    scene = load_scene(write(tmp_path / "scene.yaml", text))
    renderer = OffscreenRenderer(32, 32)
    try:
        nodes = attach_scene(renderer.render, scene, library)
        rider = nodes.units["blue-2"]
        assert rider.is_hidden() != exposed
        if exposed:
            assert rider.get_parent() == nodes.vehicles["cart"]
            # seat LDraw (0, -24, 10) -> model (0, 10, 24); the cart turned by 90 - 270 = -180 puts it at (90, 80);
            # the figure's head centre is 2 LDU towards its nose (model -Y), turned too: +2 in y
            head = nodes.head_point("blue-2")
            assert math.isclose(head[0], 90, abs_tol=1e-3) and math.isclose(head[1], 82, abs_tol=1e-3)
            assert math.isclose(head[2], 24 + 36, abs_tol=1e-3)  # seat height + head centre of the 48-LDU figure
            nodes.set_pose("blue-2", (1.5, 1.5), 0)  # got off: back on the ground
            assert rider.get_parent() == nodes.root and math.isclose(rider.get_z(), 0.0, abs_tol=1e-3)
    finally:
        renderer.close()



def test_a_unit_stands_on_what_is_under_its_feet_not_its_arms():
    """C1: a model rests on what is under its feet; an arm held out over a step or under an eave
    does not lift it (the same rule as bow3d.world.bodies.FEET_SLAB_LDU)."""
    from types import SimpleNamespace

    from bow3d.view.graph.scene_nodes import _feet_half_extent

    legs = np.array([[-10, -5, 0], [10, 5, 0], [10, 5, 40]], np.float32)
    arm = np.array([[0, 0, 40], [60, 0, 45]], np.float32)            # reaches 60 LDU out, 40 up
    model = SimpleNamespace(mesh=SimpleNamespace(positions=np.concatenate([legs, arm])))
    assert _feet_half_extent(model, np.array([-10.0, -5.0, 0.0])) == (10.0, 5.0)


def test_doors_are_drawn_closed_and_taken_away_open(tmp_path, library, renderer_available):
    """BOW §2.3.3: a closed door fills its cell (as in the world); an open one is not drawn."""
    from bow3d.rulesets import load_scene
    from bow3d.view.graph.scene_nodes import attach_scene
    from bow3d.view.output.offscreen import OffscreenRenderer

    write(tmp_path / "field.ldr", BATTLEFIELD)
    write(tmp_path / "figure.ldr", FIGURE)
    text = SCENE + "doors:\n  - {id: gate, cell: [4, 1]}\n  - {id: hatch, cell: [4, 4], open: true}\n"
    scene = load_scene(write(tmp_path / "scene.yaml", text))
    renderer = OffscreenRenderer(64, 48)
    try:
        nodes = attach_scene(renderer.render, scene, library)
        gate, hatch = nodes.doors["gate"], nodes.doors["hatch"]
        assert not gate.is_hidden() and hatch.is_hidden()
        lo, hi = gate.get_tight_bounds(nodes.root)
        assert np.allclose([lo[0], lo[1], lo[2], hi[2]], [80.5, 20.5, 0.0, 120.0], atol=1e-3)
        nodes.set_door("gate", True)
        nodes.set_door("hatch", False)
        assert gate.is_hidden() and not hatch.is_hidden()
    finally:
        renderer.close()
