"""Doors in the world (BOW 1.3 §2.3.3): closed, a door fills its cell for sight, moves and sweeps."""

from __future__ import annotations

from bow3d.world import BodySpec
from bow3d.world.boxes import box_mesh, box_world
from bow3d.world.world import door_template

# A wall along x = 22 studs from y = 0 to 40 with a one-stud doorway at y = 20, 5 bricks high.
WALL = [box_mesh((440, 0, 0), (460, 400, 120)), box_mesh((440, 420, 0), (460, 800, 120))]


def fig(id_, x, y, facing, side):
    return BodySpec(id_, "fig", (x, y), facing, side=side)


def test_s2_3_3_a_closed_door_blocks_sight_and_is_named():
    """BOW 1.3 §2.3.3: through a closed door nobody is seen; open, the doorway lets sight through."""
    world = box_world(WALL, [fig("a", 18.5, 20.5, 0, "blue"), fig("b", 26.5, 20.5, 180, "red"),
                             BodySpec("gate", "door", (22.5, 20.5), 270.0, kind="door")],
                      {"door": box_mesh((-10, -10, 0), (10, 10, 120))})
    closed = world.sight("a", "b")
    assert not closed.visible and any(b.kind == "door" and b.id == "gate" for b in closed.blockers)
    world.set_door("gate", (22, 20), True)
    opened = world.sight("a", "b")
    assert opened.visible and opened.visible_fraction > 0.0
    world.set_door("gate", (22, 20), False)
    assert not world.sight("a", "b").visible


def test_s2_3_3_a_closed_door_bars_the_doorway():
    """BOW 1.3 §2.3.1 and §2.3.3: the only way through the wall is the doorway, barred while closed."""
    world = box_world(WALL, [fig("a", 20.5, 20.5, 0, "blue"),
                             BodySpec("gate", "door", (22.5, 20.5), 270.0, kind="door")],
                      {"door": box_mesh((-10, -10, 0), (10, 10, 120))})
    assert (24, 20) not in world.reachable_cells("a", 5)
    world.set_door("gate", (22, 20), True)
    assert world.reachable_cells("a", 5)[(24, 20)] == 4
    assert world.enemies_of("a") == []                       # a door is nobody's enemy


def test_a_vehicle_crashes_into_a_closed_door_as_into_decor():
    """BOW 1.3 §3.6.2: a closed door is decor for a moving vehicle."""
    world = box_world([], [BodySpec("car", "car", (15, 20.5), 0.0, kind="vehicle"),
                             BodySpec("gate", "door", (22.5, 20.5), 270.0, kind="door")],
                      {"door": box_mesh((-10, -10, 0), (10, 10, 120))})
    contact = world.sweep("car", 20)
    assert contact is not None and contact.kind == "decor" and "gate" in contact.decor
    assert 3.0 < contact.distance_studs < 4.5


def test_door_template_fills_one_cell():
    template = door_template(120.0)
    assert list(template.footprint) == [-10.0, 10.0, -10.0, 10.0]


SCENE = """format: bow3d-scene/1
battlefield: field.ldr
sides: [{id: blue, colour: 1}, {id: red, colour: 4}]
sheets: {trooper: {kind: minifig}}
units:
  - {id: b1, side: blue, sheet: trooper, model: figure.ldr, position: [2.5, 2.5], facing: 0}
  - {id: r1, side: red, sheet: trooper, model: figure.ldr, position: [8.5, 2.5], facing: 180}
doors:
  - {id: gate, cell: [5, 2]}
  - {id: shutter, cell: [5, 8], open: true}
"""


def test_scene_doors_reach_the_world_and_the_rules(tmp_path, monkeypatch):
    """The scene's doors are bodies of the world (closed ones in place) and doors of the game."""
    from bow3d.rules import Game
    from bow3d.rulesets import load_scene
    from bow3d.world import World

    monkeypatch.delenv("LDRAWDIR", raising=False)   # the bundled starter library has 3811 and 3005
    (tmp_path / "field.ldr").write_text("1 2 320 0 320 1 0 0 0 1 0 0 0 1 3811.dat\n")
    (tmp_path / "figure.ldr").write_text("1 1 0 -24 0 1 0 0 0 1 0 0 0 1 3005.dat\n")
    (tmp_path / "duel.yaml").write_text(SCENE)
    scene = load_scene(tmp_path / "duel.yaml")
    world = World.from_scene(scene)
    assert world.active[world.bodies["gate"].index] and not world.active[world.bodies["shutter"].index]
    assert (5, 2) not in world.reachable_cells("b1", 5)
    game = Game.start(scene, world)
    assert game.state.doors == {"gate": False, "shutter": True}
