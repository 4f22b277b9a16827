"""Measures by convention, bases, and the area queries of the rulesets (bow3d.world.queries):
radius (Blaze of Glory's nerve tests), cone and template (its shotgun), segment (War of Bros' line of fire)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from bow3d.errors import UserInputError
from bow3d.units import convert
from bow3d.world import BodySpec, World
from bow3d.world.bodies import parse_base
from bow3d.world.boxes import box_mesh, box_world

# The 'fig' template: 2 studs across its facing, 1 stud deep, 96 LDU tall, eye at 84 LDU.
SCENES = Path(__file__).resolve().parents[2] / "scenes"
WOB = convert(3, "cm", "studs")  # a War of Bros light infantry base: 3 x 3 cm = 3.75 studs


def fig(id_, x, y, facing=0.0, **kw):
    return BodySpec(id_, "fig", (x, y), facing, **kw)


def test_measuring_conventions():
    world = box_world([], [fig("a", 10.5, 10.5, 0), fig("b", 20.5, 10.5, 180)])
    assert world.measure("a", "b") == pytest.approx(10.0)                        # heads, BOW's default
    assert world.measure("a", "b", "centres") == pytest.approx(10.0)
    assert world.measure("a", "b", "bases") == pytest.approx(9.0)               # 1 stud deep bases
    assert world.measure("a", "b", "front_edge") == pytest.approx(9.0)
    assert world.measure("a", "b", "bodies") == pytest.approx(9.0)
    assert world.measure("a", "b", "bases", unit="cm") == pytest.approx(7.2)
    assert world.measure("a", "b", unit="in") == pytest.approx(10 * 0.31496, abs=1e-4)
    assert world.measure("a", "b") == world.distance_studs("a", "b")
    with pytest.raises(UserInputError, match="unknown measuring convention 'feet'.*heads, bases, front_edge"):
        world.measure("a", "b", "feet")


def test_war_of_bros_bases_and_the_front_edge():
    """War of Bros: 3 x 3 cm bases; ranges from the front edge of the base to any part of the target's base."""
    world = box_world([], [fig("a", 10.5, 10.5, 0, base_studs=(WOB, WOB)), fig("ahead", 20.5, 10.5, 180,
                                                                             base_studs=(WOB, WOB)),
                           fig("behind", 4.5, 10.5, 0, base_studs=(WOB, WOB)), fig("plain", 10.5, 30.5)])
    assert world.measure("a", "ahead", "bases") == pytest.approx(10 - WOB)
    assert world.measure("a", "ahead", "front_edge") == pytest.approx(10 - WOB)
    assert world.measure("a", "behind", "bases") == pytest.approx(6 - WOB)
    assert world.measure("a", "behind", "front_edge") == pytest.approx(6.0)    # from x 12.375 back to 6.375
    assert world.measure("a", "ahead", "bases", "cm") == pytest.approx(8.0 - 3.0)
    base = world.base("a")
    assert base.shape == (4, 2) and np.allclose(base[:2, 0], 10.5 + WOB / 2)       # front edge first, facing +X
    assert np.allclose(sorted(base[:, 1]), [10.5 - WOB / 2] * 2 + [10.5 + WOB / 2] * 2)
    assert np.allclose(world.base("plain"), world.footprint("plain") / 20.0)     # no base: the model's footprint


def test_bodies_distance_in_3d():
    """'bodies': the closest points of two upright boxes: plan gap and height gap together."""
    tower = box_mesh((380, 150, 0), (460, 270, 200))
    world = box_world([tower], [fig("a", 10.5, 10.5, 0), fig("up", 20.5, 10.5, 180)])
    assert world.measure("a", "up", "bodies") == pytest.approx(math.hypot(180, 104) / 20)
    assert world.measure("a", "up", "bases") == pytest.approx(9.0)


@pytest.mark.parametrize("value, studs", [(None, None), ([3, 4], (3.0, 4.0)), ((2.5, 2.5), (2.5, 2.5)),
                                          ({"width": 3, "depth": 3, "unit": "cm"}, (3.75, 3.75)),
                                          ({"width": 6, "depth": 12, "unit": "cm"}, (7.5, 15.0)),
                                          ({"width": 1, "depth": 1, "unit": "in"}, (3.175, 3.175))])
def test_scene_bases(value, studs):
    assert parse_base(value, "u1: base") == (pytest.approx(studs) if studs else None)


@pytest.mark.parametrize("value", [[3], "big", {"width": -1, "depth": 2}, {"width": 1, "depth": 1, "unit": "ft"}])
def test_bad_scene_bases(value):
    with pytest.raises(UserInputError, match="u1: base"):
        parse_base(value, "u1: base")


CROWD = [fig("a", 10.5, 10.5, 0, side="blue"), fig("near", 14.5, 10.5, 180, side="red"),
         fig("side", 10.5, 16.5, 270, side="blue"), fig("far", 30.5, 10.5, 180, side="red"),
         fig("behind", 4.5, 10.5, 0, side="red"), BodySpec("jeep", "car", (13, 20), 0, kind="vehicle")]


def test_bodies_within_a_radius():
    world = box_world([], CROWD)
    assert world.bodies_within("a", 7) == {"near": 4.0, "behind": 6.0, "side": 6.0}   # ties by id
    assert list(world.bodies_within("a", 12)) == ["near", "behind", "side", "jeep"]
    assert world.bodies_within("a", 7, kinds="vehicle") == {}
    assert world.bodies_within("a", 12, kinds=["vehicle"]) == {"jeep": pytest.approx(math.hypot(2.5, 9.5))}
    assert world.bodies_within("a", 7, exclude=["near"]) == {"behind": 6.0, "side": 6.0}
    assert world.bodies_within((14.5, 10.5), 0.1) == {"near": 0.0}                    # a point: nobody left out
    assert world.bodies_within("a", 3.2, unit="cm") == {"near": pytest.approx(3.2)}   # 4 studs = 3.2 cm
    assert world.bodies_within("a", 3.0, between="bases") == {"near": 3.0}           # 1-stud-deep bases
    assert world.bodies_within("a", 4.0, between="heads") == {"near": 4.0}


def test_bodies_within_heads_is_3d():
    """Blaze of Glory's nerve tests (friends within 12"): from a body's eye, in 3D, e.g. up a balcony."""
    balcony = box_mesh((280, 190, 0), (320, 230, 120))
    world = box_world([balcony], [fig("a", 10.5, 10.5, 0), fig("up", 15.0, 10.5, 180)])
    assert world.bodies_within("a", 5, between="centres") == {"up": pytest.approx(4.5)}
    assert world.bodies_within("a", 5, between="heads") == {}
    assert world.bodies_within("a", 7.5, between="heads") == {"up": pytest.approx(math.hypot(4.5, 6.0))}


def test_bodies_within_bad_input():
    world = box_world([], CROWD)
    with pytest.raises(UserInputError, match="unknown convention 'ears'"):
        world.bodies_within("a", 5, between="ears")
    with pytest.raises(UserInputError, match="'heads' from a body"):
        world.bodies_within((3.0, 3.0), 5, between="heads")
    with pytest.raises(UserInputError, match=r"\(x, y\) in studs"):
        world.bodies_within((3.0, 3.0, 1.0), 5)
    with pytest.raises(UserInputError, match="unknown unit or vehicle 'ghost'"):
        world.bodies_within("ghost", 5)
    assert box_world([], [fig("a", 5.5, 5.5)]).bodies_within("a", 50) == {}


def test_bodies_in_a_cone():
    world = box_world([], CROWD)
    assert world.bodies_in_cone("a", None, 30, 25) == {"near": 3.5, "far": 19.5}      # heading: its facing
    assert world.bodies_in_cone("a", None, 30, 10) == {"near": 3.5}
    assert world.bodies_in_cone("a", 90, 30, 15) == {"side": 5.5, "jeep": 7.5}       # the jeep's side at y 18
    wide = world.bodies_in_cone("a", 0, 135, 10)
    assert set(wide) == {"near", "side", "jeep"} and "behind" not in wide
    assert set(world.bodies_in_cone("a", 0, 180, 10)) == {"near", "side", "jeep", "behind"}
    assert world.bodies_in_cone((0.5, 10.5), 0, 5, 5) == {"behind": 3.5}              # from a point
    with pytest.raises(UserInputError, match="0 < half angle <= 180"):
        world.bodies_in_cone("a", 0, 0, 10)


def test_a_base_that_reaches_into_the_cone_counts():
    """The cone's edge passes beside the unit's centre but through its base: it is under the template."""
    world = box_world([], [fig("a", 10.5, 10.5, 0), fig("edge", 20.5, 14.5, 180)])
    angle = math.degrees(math.atan2(4.0, 10.0))
    assert world.bodies_in_cone("a", 0, angle - 3, 15) == {"edge": pytest.approx(math.hypot(9.5, 3.0))}
    assert world.bodies_in_cone("a", 0, angle - 10, 15) == {}


def test_blaze_of_glory_shotgun_template():
    """Blaze of Glory: a conical template 8" long, 2.5" wide at the end; everyone under it is shot at."""
    length, width = 8, 2.5
    world = box_world([], [fig("gun", 10.5, 30.5, 0), fig("hit", 30.5, 33.0, 180), fig("close", 14.5, 30.5, 180),
                           fig("miss", 30.5, 35.5, 180), fig("beyond", 37.5, 30.5, 180)])
    hit = world.bodies_in_template("gun", None, length, width, near_width=0, unit="in")
    assert list(hit) == ["close", "hit"]
    assert hit["close"] == pytest.approx(convert(3.5, "studs", "in"))                 # along the heading
    band = world.bodies_in_template("gun", 0, 30, 1)                                   # a 1-stud strip, studs
    assert list(band) == ["close", "beyond"]
    assert world.bodies_in_template((10.5, 30.5), 0, 30, 0.0, exclude="gun") == {"close": 3.5, "beyond": 26.5}
    with pytest.raises(UserInputError, match="template needs a length > 0"):
        world.bodies_in_template("gun", 0, 0, 1)


def test_every_body_along_a_segment():
    """War of Bros: the first unit on the line of fire is hit instead; all of them, nearest first."""
    wall = box_mesh((500, 150, 0), (520, 270, 200))
    low = box_mesh((460, 150, 0), (470, 270, 30))
    world = box_world([wall, low], [fig("a", 10.5, 10.5, 0), fig("b", 30.5, 10.5, 180), fig("c", 15.5, 10.5, 90),
                                    fig("d", 20.5, 10.5, 90), fig("aside", 20.5, 14.5, 90),
                                    BodySpec("jeep", "car", (40, 40), 0, kind="vehicle")])
    crossed = world.bodies_along("a", "b")
    assert [(c.kind, c.id) for c in crossed] == [("unit", "c"), ("unit", "d")]
    assert crossed[0].distance_studs == pytest.approx(4.5, abs=0.01) and crossed[0].material == "unit"
    assert crossed[0].point == pytest.approx((300.0, 210.0, 84.0))                   # c's head, 20 LDU wide
    with_decor = world.bodies_along("a", "b", decor=True)
    assert [(c.kind, c.id, c.instance) for c in with_decor] == [("unit", "c", None), ("unit", "d", None),
                                                                ("decor", None, 1)]  # the low wall is under the line
    assert with_decor[2].distance_studs == pytest.approx(14.5, abs=0.01) and with_decor[2].material == "stone"
    assert world.bodies_along("a", "b", kinds="vehicle") == ()
    ends = world.bodies_along(world.head("a"), world.head("b"))                      # points as ends
    assert [c.id for c in ends] == ["a", "c", "d", "b"]                               # nobody left out
    assert world.bodies_along("a", "a") == ()


def test_queries_on_an_empty_world_return_empty_results():
    world = box_world([], [fig("a", 10.5, 10.5)])
    assert world.bodies_within("a", 100) == {} and world.bodies_in_cone("a", 0, 45, 100) == {}
    assert world.bodies_in_template("a", 0, 10, 2) == {} and world.bodies_along("a", (600.0, 600.0, 50.0)) == ()


@pytest.fixture(scope="module")
def los_gallery(world_library) -> World:
    from tests.world.conftest import load_test_scene

    path = SCENES / "los-gallery.yaml"
    if not path.is_file():
        pytest.skip("scenes/los-gallery.yaml is not there")
    return World.from_scene(load_test_scene(path), world_library)


def test_queries_on_the_bundled_gallery(los_gallery):
    """Lanes 6 studs apart: a narrow cone and a radius see one lane; the full wall stands on the head line."""
    assert los_gallery.measure("open-firer", "open-target") == pytest.approx(20.0, abs=1e-3)
    assert los_gallery.measure("open-firer", "open-target", "centres", "cm") == pytest.approx(16.0, abs=1e-3)
    assert 16.0 < los_gallery.measure("open-firer", "open-target", "bases") < 20.0   # arms and rifles stick out
    assert list(los_gallery.bodies_in_cone("open-firer", None, 8, 25)) == ["open-target"]
    near = los_gallery.bodies_within("lowwall-firer", 6.5)
    assert set(near) == {"open-firer", "fullwall-firer"}
    assert los_gallery.bodies_along("fullwall-firer", "fullwall-target") == ()
    walls = los_gallery.bodies_along("fullwall-firer", "fullwall-target", decor=True)
    assert walls and {c.material for c in walls} == {"stone"} and {c.part for c in walls} <= {"3004.dat", "3005.dat",
                                                                                            "3009.dat", "3010.dat"}
    assert 15.0 < walls[0].distance_studs < 17.0                                    # cells x = 25, firer at 8.5
    assert los_gallery.bodies_along("lowwall-firer", "lowwall-target", decor=True) == ()   # over the low wall
