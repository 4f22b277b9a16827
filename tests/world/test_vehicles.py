"""Vehicle sweeps, turns and collision sectors (design.md; BOW 1.3 §3.6) on constructed cases."""

from __future__ import annotations

import pytest

from bow3d.errors import UserInputError
from bow3d.world import BodySpec
from bow3d.world.boxes import box_mesh, box_world
from bow3d.world.vehicles import collision_sector

# The 'car' template: 4 studs wide (x +-40 LDU), 6 studs long (y +-60), 30 LDU high, front = its -Y.


def car(id_, x, y, facing, **kw):
    return BodySpec(id_, "car", (x, y), facing, kind="vehicle", **kw)


def test_s3_6_3_head_on_hits_the_front_sector():
    """BOW 1.3 §3.6.3: collision between vehicles; a head-on hit is in the other's front sector."""
    world = box_world([], [car("a", 10, 32, 0), car("b", 30, 32, 180)])
    contact = world.sweep("a", 20)
    assert contact.kind == "vehicle" and contact.other == "b" and contact.sector == "front"
    assert contact.distance_studs == pytest.approx(14.0, abs=0.05)   # fronts at x 260 and 540 LDU


def test_s3_6_3_side_hit():
    world = box_world([], [car("a", 10, 32, 0), car("b", 30, 32, 90)])
    contact = world.sweep("a", 20)
    assert contact.other == "b" and contact.sector == "side"
    assert contact.distance_studs == pytest.approx(15.0, abs=0.05)


def test_s3_6_3_rear_hit():
    world = box_world([], [car("a", 10, 32, 0), car("b", 30, 32, 0)])
    contact = world.sweep("a", 20)
    assert contact.other == "b" and contact.sector == "back"


def test_glancing_corners():
    """A corner that clips the other's side near its back is a side hit; one that clips its front face
    near a corner is a front hit (the line from the centre crosses the front edge)."""
    side = box_world([], [car("a", 10, 32, 0), car("b", 30, 36.5, 90)])   # 10 LDU of overlap
    hit = side.sweep("a", 20)
    assert hit.other == "b" and hit.sector == "side"
    front = box_world([], [car("a", 10, 32, 0), car("b", 30, 35.5, 180)])
    hit = front.sweep("a", 20)
    assert hit.other == "b" and hit.sector == "front"
    assert box_world([], [car("a", 10, 32, 0), car("b", 30, 36.2, 180)]).sweep("a", 20) is None or \
        box_world([], [car("a", 10, 32, 0), car("b", 30, 36.2, 180)]).sweep("a", 20).kind != "vehicle"


def test_sector_by_the_edge_the_line_from_the_centre_crosses():
    world = box_world([], [car("b", 30, 32, 0)])           # faces +X: front edge at x = 660 LDU
    assert collision_sector(world, "b", (660, 640)) == "front"
    assert collision_sector(world, "b", (540, 640)) == "back"
    assert collision_sector(world, "b", (600, 680)) == "side"
    assert collision_sector(world, "b", (660, 680)) == "front"   # exactly a corner: the end edge


def test_s3_6_1_units_and_s3_6_2_decor_stop_the_sweep():
    """BOW 1.3 §3.6.1 collision with units, §3.6.2 with the decor."""
    world = box_world([], [car("a", 10, 32, 0), BodySpec("u", "fig", (20.5, 32.5), 180)])
    hit = world.sweep("a", 20)
    assert hit.kind == "unit" and hit.other == "u" and hit.sector is None
    assert hit.distance_studs == pytest.approx((400 - 260) / 20, abs=0.05)   # the fig's face at x 400 LDU
    wall = box_mesh((500, 560, 0), (520, 720, 48))
    world = box_world([wall], [car("a", 10, 32, 0)])
    hit = world.sweep("a", 20)
    assert hit.kind == "decor" and hit.distance_studs == pytest.approx(12.0, abs=0.05)


def test_plates_are_driven_over_and_flying_vehicles_hit_the_ground():
    plate = box_mesh((400, 500, 0), (440, 780, 8))
    assert box_world([plate], [car("a", 10, 32, 0)]).sweep("a", 20) is None
    flying = box_world([plate], [car("a", 10, 32, 0, flying=True)]).sweep("a", 20)
    assert flying.kind == "ground" and flying.distance_studs == pytest.approx(7.0, abs=0.05)


def test_leaving_the_battlefield_is_an_edge_contact():
    world = box_world([], [car("a", 55, 32, 0)])            # front at x 1160, slab ends at 1280
    hit = world.sweep("a", 20)
    assert hit.kind == "edge" and hit.distance_studs == pytest.approx(6.0, abs=0.05)
    assert box_world([], [car("a", 30, 32, 0)]).sweep("a", 5) is None


def test_turning_on_the_spot():
    """A turn sweeps the corners: a post beside the car's corner is met, open ground is not."""
    post = box_mesh((650, 690, 0), (670, 710, 60))           # near the front-left corner of a car facing +X
    world = box_world([post], [car("a", 30, 32, 0)])
    hit = world.turn_contacts("a", 45)
    assert hit is not None and hit.kind == "decor" and hit.distance_studs > 0
    assert world.turn_contacts("a", -45) is None
    assert box_world([], [car("a", 30, 32, 0)]).turn_contacts("a", 45) is None
    with_unit = box_world([], [car("a", 30, 32, 0), BodySpec("u", "fig", (33.0, 35.2), 0)])  # 4 LDU off its side
    assert with_unit.turn_contacts("a", 45).other == "u"


def test_sweep_all_meets_everything_in_the_way_nearest_first():
    """Every contact of a straight move (War of Bros: a mechanized unit destroys the cover it runs over);
    the first is sweep's."""
    low_wall = box_mesh((340, 600, 0), (360, 680, 30))               # decor instance 1
    tall_wall = box_mesh((700, 560, 0), (720, 720, 60))              # decor instance 2
    world = box_world([low_wall, tall_wall], [car("a", 10, 32, 0), BodySpec("u", "fig", (22.5, 32.5), 180),
                                              car("b", 45, 32, 180), BodySpec("off", "fig", (22.5, 40.5), 180)])
    world.add_obstacle("crate", [[30, 31], [31, 31], [31, 33], [30, 33]], 24, "wood")
    contacts = world.sweep_all("a", 40)
    assert [(c.kind, c.other, c.instance) for c in contacts] == [
        ("decor", None, 1), ("unit", "u", None), ("decor", "crate", None), ("decor", None, 2),
        ("vehicle", "b", None)]
    assert contacts[0] == world.sweep("a", 40)
    distances = [c.distance_studs for c in contacts]
    assert distances == sorted(distances)
    assert distances[0] == pytest.approx(4.0, abs=0.05) and distances[3] == pytest.approx(22.0, abs=0.05)
    assert contacts[4].sector == "front" and distances[4] == pytest.approx(29.0, abs=0.05)   # b spans x 42..48
    assert [c.material for c in contacts] == ["stone", "unit", "wood", "stone", "vehicle"]
    assert [c.instance for c in world.sweep_all("a", 8)] == [1]        # only what the move reaches
    world.remove_decor([1])
    world.remove_obstacle("crate")
    assert [(c.kind, c.other) for c in world.sweep_all("a", 40)][:2] == [("unit", "u"), ("decor", None)]


def test_sweep_all_ends_at_the_edge():
    world = box_world([box_mesh((1200, 600, 0), (1220, 680, 30))], [car("a", 50, 32, 0)])
    contacts = world.sweep_all("a", 20)
    assert [c.kind for c in contacts] == ["decor", "edge"] and contacts[1].distance_studs == pytest.approx(11.0)
    assert box_world([], [car("a", 30, 32, 0)]).sweep_all("a", 5) == ()


def test_only_vehicles_sweep():
    world = box_world([], [BodySpec("u", "fig", (5.5, 5.5), 0)])
    with pytest.raises(UserInputError, match="u is a unit, not a vehicle"):
        world.sweep_all("u", 5)
