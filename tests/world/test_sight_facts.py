"""The facts of a sight report (issue 3: the world answers facts; rulesets judge): blockers along the
line of fire with share, material, distance and height; the target's and firer's heights; distances in
any unit; whether every LDraw part was found."""

from __future__ import annotations

import re

import numpy as np
import pytest

from bow3d.ldraw import BUNDLED_LIBRARY, Library, load_model
from bow3d.rulesets.bow import judge_sight
from bow3d.rulesets.bow.narrator import sight_sentence
from bow3d.world import BodySpec, World, sight_mesh
from bow3d.world.boxes import GROUND, box_mesh, box_world
from bow3d.world.raycast import merge_meshes

# Firer a at x 10.5 (eye x 210, z 84), target b at x 20.5 studs, facing each other along y = 10.5;
# the target spans y 190..230 LDU, z 0..96.
NEAR = box_mesh((240, 212, 0), (250, 300, 200))    # tall and near the firer: hides the target's +y side
FAR = box_mesh((380, 100, 0), (390, 300, 30))      # low and near the target: hides its legs


def duel(decor, **kw):
    return box_world(decor, [BodySpec("a", "fig", (10.5, 10.5), 0, side="blue"),
                             BodySpec("b", "fig", (20.5, 10.5), 180, side="red")], **kw)


def test_blockers_come_along_the_line_of_fire_nearest_first():
    world = duel([FAR, NEAR])                        # decor instance 1 = FAR, 2 = NEAR
    report = world.sight("a", "b")
    assert [b.instance for b in report.blockers] == [2, 1]          # near wall first, though listed last
    near, far = report.blockers
    assert near.distance_studs == pytest.approx(1.5, abs=0.1)      # its face at x 240, the eye at x 210
    assert 8.5 <= far.distance_studs < 9.0                          # its face at x 380
    assert (near.top_ldu, far.top_ldu) == (200.0, 30.0)
    assert (near.height_ldu, far.height_ldu) == (200.0, 30.0)       # over the target's feet (z 0)
    assert {near.material, far.material} == {"stone"} and near.kind == far.kind == "decor"
    assert sum(b.share for b in report.blockers) == pytest.approx(report.hidden_fraction)


def test_blocked_by_indexes_the_blockers_in_their_new_order():
    report = duel([FAR, NEAR]).sight("a", "b")
    for k, blocker in enumerate(report.blockers):
        assert (report.blocked_by == k).sum() == pytest.approx(blocker.share * report.sample_count)
    assert ((report.blocked_by >= 0) == ~report.seen).all()
    near_samples = report.points[report.blocked_by == 0]
    assert (near_samples[:, 1] > 205).all()                         # the near wall hides the +y side only


def test_verdict_and_json_keep_the_largest_share_first():
    report = duel([FAR, NEAR]).sight("a", "b")
    by_share = report.blockers_by_share
    assert [b.share for b in by_share] == sorted((b.share for b in report.blockers), reverse=True)
    assert [d["share"] for d in report.to_dict()["blockers"]] == [b.share for b in by_share]
    first = report.to_dict()["blockers"][0]
    assert {"material", "distance_studs", "top_ldu", "height_ldu", "instance"} <= set(first)
    sentence = sight_sentence(report, judge_sight(report))
    listed = [int(x) for x in re.findall(r"\((\d+)%\)", sentence)]
    assert listed == [round(b.share * 100) for b in by_share] and listed == sorted(listed, reverse=True)


def test_heights_of_target_firer_and_blockers():
    """A target on a one-brick platform: its feet at 24 LDU, its top at 120; blockers' heights over its feet."""
    platform = box_mesh((360, 150, 0), (460, 270, 24))
    wall = box_mesh((340, 100, 0), (350, 300, 60))
    report = duel([platform, wall]).sight("a", "b")
    assert (report.target_feet_ldu, report.target_top_ldu) == (24.0, 120.0)
    assert (report.firer_feet_ldu, report.eye_z_ldu) == (0.0, 84.0)
    wall_blocker = next(b for b in report.blockers if b.instance == 2)
    assert wall_blocker.top_ldu == 60.0 and wall_blocker.height_ldu == 36.0


def test_bodies_in_the_way_are_blockers_with_their_material_and_height():
    world = box_world([], [BodySpec("a", "fig", (10.5, 10.5), 0), BodySpec("b", "fig", (20.5, 10.5), 180),
                           BodySpec("c", "fig", (15.5, 10.5), 90), BodySpec("j", "car", (18, 16), 0, kind="vehicle")])
    blocker = world.sight("a", "b").blockers[0]
    assert (blocker.kind, blocker.id, blocker.material, blocker.top_ldu, blocker.height_ldu) == \
        ("unit", "c", "unit", 96.0, 96.0)
    assert blocker.distance_studs == pytest.approx(4.0, abs=0.1)    # c's side at x 290 (it faces +y: 2 studs wide)


def test_distance_in_any_unit():
    report = duel([]).sight("a", "b")
    assert report.distance_studs == pytest.approx(10.0)
    assert (report.distance("cm"), report.distance("mm"), report.distance("ldu")) == pytest.approx((8.0, 80.0, 200.0))
    assert report.distance("in") == pytest.approx(3.1496, abs=1e-4)
    data = report.to_dict()
    assert (data["distance_cm"], data["distance_in"]) == (8.0, 3.15)
    assert (data["target_feet_ldu"], data["target_top_ldu"], data["eye_z_ldu"]) == (0.0, 96.0, 84.0)


def test_an_open_line_has_no_blockers_and_full_facts():
    report = duel([]).sight("a", "b")
    assert report.blockers == () and report.blockers_by_share == () and report.visible_fraction == 1.0
    assert report.complete and report.missing_parts == () and report.to_dict()["missing_parts"] == []


def test_missing_parts_make_a_report_incomplete(tmp_path):
    """A decor with a part the library lacks (a magenta box stood in): complete is False, the part named."""
    (tmp_path / "field.ldr").write_text("1 2 320 0 320 1 0 0 0 1 0 0 0 1 3811.dat\n"
                                        "1 4 300 -24 300 1 0 0 0 1 0 0 0 1 nosuchpart.dat\n")
    model = load_model(tmp_path / "field.ldr", Library([BUNDLED_LIBRARY]), cache=False)
    base = duel([])
    world = World(sight_mesh(model), base.templates, [BodySpec("a", "fig", (10.5, 10.5), 0),
                                                      BodySpec("b", "fig", (20.5, 10.5), 180)],
                  model.instances, decor_model=model)
    report = world.sight("a", "b")
    assert not report.complete and report.missing_parts == ("nosuchpart.dat",)
    assert report.to_dict()["complete"] is False


def test_a_body_model_with_a_missing_part_makes_reports_incomplete(tmp_path):
    from bow3d.world import template_from_model

    (tmp_path / "fig.ldr").write_text("1 4 0 -24 0 1 0 0 0 1 0 0 0 1 3005.dat\n"
                                      "1 4 0 -48 0 1 0 0 0 1 0 0 0 1 ghost.dat\n")
    fig = template_from_model("fig", load_model(tmp_path / "fig.ldr", Library([BUNDLED_LIBRARY]), cache=False))
    world = World(merge_meshes(GROUND), {"fig": fig}, [BodySpec("a", "fig", (10.5, 10.5), 0),
                                                       BodySpec("b", "fig", (20.5, 10.5), 180)])
    assert world.sight("a", "b").missing_parts == ("ghost.dat",)


def test_gallery_low_wall_facts(gallery):
    """BOW 1.3 §2.4.2's low wall, as facts: grey stone bricks in two courses (tops 24 and 48 LDU over the
    target's feet), 7.5 studs and more from the firer's eye along the line of fire."""
    report = gallery.sight("blue-2", "red-2")
    assert report.blockers and {b.material for b in report.blockers} == {"stone"}
    assert {b.top_ldu for b in report.blockers} == {24.0, 48.0}              # each brick's own top
    assert all(b.height_ldu == b.top_ldu - report.target_feet_ldu for b in report.blockers)
    distances = [b.distance_studs for b in report.blockers]
    assert distances == sorted(distances) and 7.5 < distances[0] < 8.5       # the wall's face at x 12 studs
    assert report.complete


def test_cast_sight_orders_blockers_along_the_line_too():
    world = duel([FAR, NEAR])
    eye = world.head("a")
    points = np.array([[410.0, 225.0, 40.0], [410.0, 195.0, 10.0]])
    seen, hider, blockers = world.cast_sight(eye, points, (world.body("a").index, world.body("b").index))
    assert not seen.any() and [b.instance for b in blockers] == [2, 1] and list(hider) == [0, 1]
