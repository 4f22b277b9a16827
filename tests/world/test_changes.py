"""Rules-driven decor changes (bow3d.world.changes): obstacles added and removed (a fallen body, a wreck,
a barricade: War of Bros), decor parts destroyed and restored (cover a mechanized unit runs over), each
undone by its symmetrical call, as the rules do with doors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from bow3d.errors import UserInputError
from bow3d.world import BodySpec
from bow3d.world.boxes import box_mesh, box_world


def duel(decor=(), more=()):
    return box_world(list(decor), [BodySpec("a", "fig", (10.5, 10.5), 0, side="blue"),
                                   BodySpec("b", "fig", (20.5, 10.5), 180, side="red"), *more])


CRATE = [[15, 9], [16, 9], [16, 12], [15, 12]]     # a 1 x 3 stud rectangle across the line of fire, studs


def test_an_obstacle_blocks_sight_with_its_material_and_comes_and_goes():
    world = duel()
    world.add_obstacle("crate", CRATE, 120, "wood")
    report = world.sight("a", "b")
    assert not report.visible
    blocker = report.blockers[0]
    assert (blocker.kind, blocker.id, blocker.material, blocker.top_ldu) == ("obstacle", "crate", "wood", 120.0)
    assert blocker.distance_studs == pytest.approx(4.5, abs=0.1)
    world.remove_obstacle("crate")
    assert world.sight("a", "b").visible_fraction == 1.0
    world.remove_obstacle("crate")                                   # idempotent
    world.add_obstacle("crate", CRATE, 120, "wood")                  # the undo of the removal
    assert not world.sight("a", "b").visible
    world.add_obstacle("crate", CRATE, 120, "wood")                  # idempotent
    assert sum(b.id == "crate" for b in world.sight("a", "b").blockers) == 1


def test_a_low_obstacle_is_cover_not_a_wall():
    world = duel()
    before_target = [[18.5, 9], [19.5, 9], [19.5, 12], [18.5, 12]]
    world.add_obstacle("body-r2", before_target, 30, "body")         # War of Bros: a fallen unit is Light cover
    report = world.sight("a", "b")
    assert report.visible and 0 < report.hidden_fraction < 0.5
    assert {(b.kind, b.material) for b in report.blockers} == {("obstacle", "body")}
    world.add_obstacle("body-r2", before_target, 60, "stone")        # a new shape and material replace the old
    again = world.sight("a", "b")
    assert again.hidden_fraction > report.hidden_fraction and again.blockers[0].material == "stone"


def test_an_obstacle_on_the_base_of_a_fallen_unit():
    """War of Bros: a dead infantry unit becomes a Body where its base was."""
    world = duel(more=[BodySpec("c", "fig", (15.5, 10.5), 60, base_studs=(3.75, 3.75))])
    base = world.base("c")
    world.remove("c")
    world.add_obstacle("body-c", base, 24, "body")
    assert np.allclose(np.sort(world.base("body-c"), axis=0), np.sort(base, axis=0))
    assert world.body("body-c").facing == pytest.approx(60.0)
    assert any(b.id == "body-c" for b in world.sight("a", "b").blockers)
    assert world.bodies_within("a", 6, kinds="obstacle") == {"body-c": pytest.approx(5.0)}


def test_obstacles_stand_on_the_decor():
    platform = box_mesh((280, 180, 0), (340, 240, 24))
    world = duel([platform])
    world.add_obstacle("sandbags", [[14, 9], [17, 9], [17, 12], [14, 12]], 16, "sand")
    assert world.poses[world.body("sandbags").index, 2, 3] == 24.0
    assert world.sight("a", "b").blockers[0].top_ldu == 40.0


def test_obstacles_bar_moves_and_crash_vehicles():
    """Higher than a plate, an obstacle bars its cells; a vehicle running into it crashes (decor)."""
    world = duel()
    assert world.reachable_cells("a", 5)[(13, 10)] == 3
    world.add_obstacle("barricade", None, 48, "wood", cells=[(12, y) for y in range(5, 16)])
    assert (12, 10) not in world.reachable_cells("a", 5) and (13, 10) not in world.reachable_cells("a", 3)
    world.remove_obstacle("barricade")
    assert world.reachable_cells("a", 5)[(13, 10)] == 3
    world.add_obstacle("rubble", None, 8, "stone", cells=[(12, y) for y in range(5, 16)])   # a plate high
    assert world.reachable_cells("a", 5)[(13, 10)] == 3
    cars = box_world([], [BodySpec("car", "car", (10, 32), 0, kind="vehicle")])
    cars.add_obstacle("wreck", [[20, 30], [26, 30], [26, 34], [20, 34]], 40, "vehicle")
    contact = cars.sweep("car", 20)
    assert (contact.kind, contact.other, contact.material) == ("decor", "wreck", "vehicle")
    assert contact.distance_studs == pytest.approx(7.0, abs=0.05)


def test_bad_obstacles():
    world = duel()
    with pytest.raises(UserInputError, match="a is a unit, not an obstacle"):
        world.add_obstacle("a", CRATE, 24, "wood")
    with pytest.raises(UserInputError, match="a is a unit, not an obstacle"):
        world.remove_obstacle("a")
    with pytest.raises(UserInputError, match="must be a rectangle"):
        world.add_obstacle("x", [[0, 0], [2, 0], [3, 1], [0, 1]], 24, "wood")
    with pytest.raises(UserInputError, match="4 corners"):
        world.add_obstacle("x", [[0, 0], [2, 0], [2, 1]], 24, "wood")
    with pytest.raises(UserInputError, match="height above 0"):
        world.add_obstacle("x", CRATE, 0, "wood")
    with pytest.raises(UserInputError, match="lower-case word"):
        world.add_obstacle("x", CRATE, 24, "Wood")
    with pytest.raises(UserInputError, match="unknown unit or vehicle 'x'"):
        world.remove_obstacle("x")


WALL = box_mesh((300, 150, 0), (320, 270, 200))        # decor instance 1: hides b from a entirely
PLATFORM = box_mesh((400, 180, 0), (440, 240, 24))     # decor instance 2: b stands on it


def test_destroyed_decor_is_gone_for_sight_until_restored():
    world = duel([WALL])
    assert not world.sight("a", "b").visible
    removed = world.remove_decor([1])
    assert list(removed) == [1] and world.sight("a", "b").visible_fraction == 1.0
    assert list(world.remove_decor([1])) == []                        # already gone: nothing newly removed
    assert world.bodies_along("a", "b", decor=True) == ()
    world.restore_decor(removed)
    assert not world.sight("a", "b").visible
    world.restore_decor(removed)                                      # idempotent


def test_destroyed_decor_is_gone_for_the_ground_moves_and_sweeps():
    world = duel([WALL, PLATFORM])
    assert world.poses[world.body("b").index, 2, 3] == 24.0
    assert world.ground_height(21.0, 10.5) == 24.0
    assert (16, 10) not in world.reachable_cells("a", 6)
    world.remove_decor([1, 2])
    assert world.ground_height(21.0, 10.5) == 0.0
    assert world.poses[world.body("b").index, 2, 3] == 0.0            # b settles on what is left
    assert world.reachable_cells("a", 6)[(16, 10)] == 6
    cars = box_world([WALL], [BodySpec("car", "car", (8, 10.5), 0, kind="vehicle")])
    assert cars.sweep("car", 10).kind == "decor"
    cars.remove_decor([1])
    assert cars.sweep("car", 10) is None
    world.restore_decor([1, 2])
    assert world.poses[world.body("b").index, 2, 3] == 24.0 and (16, 10) not in world.reachable_cells("a", 6)


def test_remove_decor_by_region_and_material(world_library):
    from bow3d.world import World
    from tests.world.conftest import load_test_scene

    world = World.from_scene(load_test_scene("gallery.yaml"), world_library)
    assert world.sight("blue-3", "red-3").visible is False
    region = [[9, 13], [11, 13], [11, 21], [9, 21]]                   # the full wall of lane y = 16.5
    assert world.remove_decor(region=region, materials=["plant"]).size == 0
    removed = world.remove_decor(region=region, materials="stone")
    assert removed.size > 0 and {world.instances[k].name for k in removed} == {"3004.dat"}
    assert world.sight("blue-3", "red-3").visible_fraction >= 0.98  # all but the soles' edge (baseplate studs)
    world.restore_decor(removed)
    assert not world.sight("blue-3", "red-3").visible
    with pytest.raises(UserInputError, match="no decor part 99999"):
        world.remove_decor([99999])
    with pytest.raises(UserInputError, match="instance indices or a region"):
        world.remove_decor()


@settings(max_examples=20, deadline=None)
@given(x=st.floats(12.0, 18.0), h=st.floats(20.0, 120.0), layers=st.integers(1, 4))
def test_property_hidden_decor_is_as_if_never_built(x, h, layers):
    """Hiding decor parts (no rebuild) answers like a world built without them, stacked parts too."""
    stack = [box_mesh((x * 20, 150 + 10 * k, 20 * k), (x * 20 + 15, 280 - 10 * k, 20 * k + h)) for k in range(layers)]
    keep = box_mesh((360, 100, 0), (370, 200, 50))
    hidden, never = duel([*stack, keep]), duel([keep])
    hidden.remove_decor(list(range(1, layers + 1)))
    eye = hidden.head("a")
    rng = np.random.default_rng(int(x * 1000))
    points = np.column_stack([rng.uniform(300, 800, 400), rng.uniform(0, 600, 400), rng.uniform(1, 150, 400)])
    skip = (hidden.body("a").index, hidden.body("b").index)
    assert (hidden.cast_sight(eye, points, skip)[0] == never.cast_sight(eye, points, skip)[0]).all()
    assert hidden.sight("a", "b").visible_fraction == never.sight("a", "b").visible_fraction


def test_faces_shared_with_a_destroyed_part_still_count():
    """Bricks touch: a destroyed brick's faces lie in the planes of its neighbours'. Ground heights read
    the brick under it, not the bottom of that one; a sweep meets the brick beside it at its face."""
    lower, upper = box_mesh((400, 400, 0), (480, 440, 24)), box_mesh((400, 400, 24), (480, 440, 48))
    beside = box_mesh((480, 400, 0), (560, 440, 48))
    world = box_world([lower, upper, beside], [BodySpec("car", "car", (15, 21), 0, kind="vehicle")])
    assert world.ground_height(22.0, 21.0) == 48.0
    world.remove_decor([2])
    assert world.ground_height(22.0, 21.0) == 24.0
    world.remove_decor([1])
    assert world.ground_height(22.0, 21.0) == 0.0
    hit = world.sweep("car", 20)                                      # drives into the gap, meets `beside`
    assert hit.instance == 3 and hit.distance_studs == pytest.approx((480 - 360) / 20, abs=0.05)
    world.restore_decor([1, 2])
    assert world.ground_height(22.0, 21.0) == 48.0 and world.sweep("car", 20).instance in (1, 2)


def test_the_grid_is_measured_again_where_decor_changed(world_library):
    """After a change, the grid equals one built from scratch (heights and every step)."""
    from bow3d.world import World
    from bow3d.world.grid import StudGrid
    from tests.world.conftest import load_test_scene

    world = World.from_scene(load_test_scene("gallery.yaml"), world_library)
    before = world.grid.heights.copy()
    removed = world.remove_decor(region=[[9, 13], [11, 13], [11, 21], [9, 21]])
    fresh = StudGrid.build(world)
    assert (world.grid.heights == fresh.heights).all() and (world.grid.heights != before).any()
    assert all((world.grid.steps[d] == fresh.steps[d]).all() for d in fresh.steps)
    world.restore_decor(removed)
    assert (world.grid.heights == before).all()
