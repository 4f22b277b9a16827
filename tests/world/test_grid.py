"""The stud grid: moves (BOW 1.3 §2.3.1), throws (§2.3.2), closeness and reach, on box worlds."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from bow3d.world import BodySpec
from bow3d.world.boxes import box_mesh, box_world

BRICK, PLATE = 24.0, 8.0


def wall_cells(i, j0, j1, height=BRICK):
    """A wall on cells (i, j0..j1-1)."""
    return box_mesh((i * 20, j0 * 20, 0), ((i + 1) * 20, j1 * 20, height))


def fig(id_, x, y, facing=0.0, side="blue"):
    return BodySpec(id_, "fig", (x, y), facing, side=side)


def test_s2_3_1_move_is_the_square_around_the_unit():
    """BOW 1.3 §2.3.1: with nothing in the way a Move of n reaches the (2n+1) x (2n+1) square."""
    world = box_world([], [fig("a", 20.5, 20.5)])
    cells = world.reachable_cells("a", 3)
    assert len(cells) == 49 and cells[(20, 20)] == 0 and cells[(23, 23)] == 3 and (24, 20) not in cells


def test_s2_3_1_walls_limit_the_move():
    """BOW 1.3 §2.3.1: decor higher than a plate is an obstacle to go around."""
    world = box_world([wall_cells(22, 15, 26)], [fig("a", 20.5, 20.5)])
    cells = world.reachable_cells("a", 5)
    assert (22, 20) not in cells                       # on the wall
    assert (23, 20) not in cells                       # behind it: the way round is longer than 5
    assert world.path("a", (23, 20), 5) is None
    path = world.path("a", (23, 20), 20)
    assert path is not None and path[-1] == (23, 20) and all(c[0] != 22 or c[1] >= 26 or c[1] < 15 for c in path)
    assert len(path) == world.reachable_cells("a", 20)[(23, 20)]


def test_a_plate_is_stepped_over_but_a_brick_is_not():
    low = box_mesh((21 * 20, 0, 0), (22 * 20, 1280, PLATE))
    world = box_world([low], [fig("a", 20.5, 20.5)])
    assert (22, 20) in world.reachable_cells("a", 2)
    high = box_mesh((21 * 20, 0, 0), (22 * 20, 1280, PLATE + 2))
    world = box_world([high], [fig("a", 20.5, 20.5)])
    assert (22, 20) not in world.reachable_cells("a", 2)


def test_diagonal_steps_do_not_cut_a_wall_corner():
    corner = [wall_cells(21, 20, 21), wall_cells(20, 21, 22)]  # cells (21, 20) and (20, 21)
    world = box_world(corner, [fig("a", 20.5, 20.5)])
    cells = world.reachable_cells("a", 8)
    assert cells[(21, 21)] == 6          # round the wall: (19, 21), (19, 22), (20, 22)... not across the corner
    assert (21, 21) not in world.reachable_cells("a", 5)


def test_other_units_block_cells():
    world = box_world([], [fig("a", 20.5, 20.5), fig("b", 21.5, 20.5, side="red")])
    cells = world.reachable_cells("a", 1)
    assert (21, 20) not in cells and len(cells) == 8
    world.remove("b")
    assert (21, 20) in world.reachable_cells("a", 1)


def test_ground_height_under_a_stud():
    world = box_world([box_mesh((100, 100, 0), (140, 140, 3 * BRICK))], [])
    assert world.ground_height(5.5, 5.5) == pytest.approx(3 * BRICK)
    assert world.ground_height(20.5, 20.5) == pytest.approx(0.0)
    assert world.ground_height(-3, 5) == float("-inf")


def test_units_stand_on_the_decor_below():
    world = box_world([box_mesh((100, 100, 0), (160, 160, BRICK))], [fig("a", 6.5, 6.5)])
    assert world.poses[world.body("a").index, 2, 3] == pytest.approx(BRICK)
    assert world.head("a")[2] == pytest.approx(BRICK + 84.0)


def test_s2_3_2_throw_range_is_twice_move_and_not_through_walls():
    """BOW 1.3 §2.3.2: throw within a circle of radius 2 x Move; the object cannot pass through walls."""
    tall = wall_cells(24, 10, 30, 5 * BRICK)
    world = box_world([tall], [fig("a", 20.5, 20.5)])
    assert world.can_throw("a", (23, 20), 10)
    assert not world.can_throw("a", (26, 20), 10)        # through the wall
    assert world.can_throw("a", (20, 30), 10)            # 10 studs away, in the open
    assert not world.can_throw("a", (20, 31), 10)        # 10.5 studs: too far
    low = box_world([wall_cells(24, 10, 30, BRICK)], [fig("a", 20.5, 20.5)])
    assert low.can_throw("a", (26, 20), 10)              # over a low wall


def test_close_and_melee_reach_body_to_body():
    """design.md: close = within 1 stud body to body; melee reach from body to body, in the front arc."""
    # A 'fig' is 1 stud deep along its facing: centres 1.9 studs apart leave a 0.9 stud gap.
    world = box_world([], [fig("a", 20.5, 20.5, 0), fig("b", 22.4, 20.5, 180, "red")])
    assert world.body_gap_studs("a", "b") == pytest.approx(0.9)
    assert world.is_close("a", "b")
    assert world.within_reach("a", "b", 1) and not world.within_reach("b", "a", 0.5)
    world.place("a", (20.5, 20.5), 180)                  # turns its back
    assert not world.within_reach("a", "b", 3)
    world.place("b", (22.6, 20.5), 180)
    assert not world.is_close("a", "b")


def test_free_cells_near_a_vehicle():
    world = box_world([], [BodySpec("car", "car", (20, 20), 0, kind="vehicle"), fig("a", 23.5, 20.5)])
    cells = world.free_cells_near("car")
    assert cells and (23, 20) not in cells and (20, 20) not in cells
    assert all(abs(i + 0.5 - 20) <= 4.5 and abs(j + 0.5 - 20) <= 3.5 for i, j in cells)


@settings(max_examples=20, deadline=None)
@given(move=st.integers(0, 6), walls=st.lists(st.tuples(st.integers(14, 26), st.integers(14, 26)), max_size=12))
def test_property_paths_are_as_long_as_the_steps(move, walls):
    """Every reachable cell has a path of exactly its step count, through reachable cells, one step apart."""
    world = box_world([wall_cells(i, j, j + 1) for i, j in walls if (i, j) != (20, 20)], [fig("a", 20.5, 20.5)])
    cells = world.reachable_cells("a", move)
    assert cells[(20, 20)] == 0 and max(cells.values()) <= move
    for cell, steps in list(cells.items())[:10]:
        path = world.path("a", cell, move)
        assert path is not None and len(path) == steps
        prev = (20, 20)
        for step in path:
            assert max(abs(step[0] - prev[0]), abs(step[1] - prev[1])) == 1 and step in cells
            prev = step


def test_world_implements_the_geometry_protocol():
    """Contract C2: the rules talk to the World through bow3d.rules.geometry's protocols."""
    geometry = pytest.importorskip("bow3d.rules.geometry")
    world = box_world([], [fig("a", 10.5, 10.5), fig("b", 20.5, 10.5, 180, "red"),
                           BodySpec("car", "car", (40, 40), 0, kind="vehicle")])
    assert isinstance(world, geometry.Geometry)
    assert isinstance(world.sight("a", "b"), geometry.SightReport)
    assert isinstance(world.sweep("car", 30), geometry.Contact)


def test_a_body_rests_on_what_is_under_its_feet():
    """C1: the lowest point rests on whatever is below: a body stands on what is under its feet
    (FEET_SLAB_LDU). A wall or a roof's eave under a minifig's outstretched arm does not lift it;
    a step under its feet lifts it by the step."""
    # 'fig' is a post of 40 x 20 LDU: give it an arm reaching 30 LDU out at 40-50 LDU high.
    from bow3d.world.boxes import box_mesh as box, merge_meshes
    arm = merge_meshes(box((-20, -10, 0), (20, 10, 96)), box((20, -5, 40), (50, 5, 50)))
    shapes = {"armed": arm}
    for decor in (box((430, 150, 0), (460, 270, 24)),     # a low wall under the arm
                  box((430, 150, 0), (460, 270, 45)),     # a wall reaching into the arm
                  box((435, 150, 120), (480, 270, 144))):  # an eave above the arm
        world = box_world([decor], [BodySpec("a", "armed", (20.5, 10.5), 270)], shapes)  # the arm points to +x
        assert world.poses[world.body("a").index, 2, 3] == pytest.approx(0.0)
    step = box((380, 180, 0), (440, 240, 8))             # a plate under the feet
    world = box_world([step], [BodySpec("a", "armed", (20.5, 10.5), 270)], shapes)
    assert world.poses[world.body("a").index, 2, 3] == pytest.approx(8.0, abs=0.01)
