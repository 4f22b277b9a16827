"""Line of sight and cover: the geometric truths of the sight gallery and BOW 1.3 §2.4.2."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from bow3d.errors import UserInputError
from bow3d.rulesets.bow import judge_sight, range_penalty
from bow3d.rulesets.bow.narrator import sight_sentence
from bow3d.world import BodySpec
from bow3d.world.boxes import box_mesh, box_world


def test_open_ground_is_visible_and_not_covered(gallery):
    report = gallery.sight("blue-1", "red-1")
    # the baseplate's studs just before the target's feet hide the edge of its soles (about 1 %)
    assert report.visible and report.visible_fraction >= 0.98 and not judge_sight(report).covered
    assert {b.part for b in report.blockers} <= {"3811.dat"}
    assert report.sample_count >= 64


def test_s2_4_2_low_wall_covers(gallery):
    """BOW 1.3 §2.4.2: a target behind a little wall is visible but covered (+1 dodge brick)."""
    report = gallery.sight("blue-2", "red-2")
    assert report.visible and judge_sight(report).covered
    assert report.hidden_fraction >= 0.25  # BOW's cover threshold
    assert all(b.kind == "decor" and b.part == "3004.dat" and b.file == "gallery.ldr" for b in report.blockers)


def test_s2_4_2_full_wall_hides(gallery):
    """BOW 1.3 §2.4.2: a target behind a wall taller than it is not visible."""
    report = gallery.sight("blue-3", "red-3")
    assert not report.visible and report.visible_fraction == 0.0 and not judge_sight(report).covered
    assert "cannot see" in sight_sentence(report, judge_sight(report))


def test_window_is_visible_and_covered(gallery):
    report = gallery.sight("blue-4", "red-4")
    assert report.visible and judge_sight(report).covered and 0.0 < report.visible_fraction < 0.5


def test_s2_4_2_behind_the_firer_is_not_in_front_arc(gallery):
    """BOW 1.3 §2.4.2: the target must be in front of the firer (180 degrees)."""
    assert not gallery.sight("blue-5", "red-5").in_front_arc
    assert gallery.sight("blue-1", "red-1").in_front_arc
    assert gallery.in_front_arc("blue-5", "red-5", arc_deg=360.0)


@pytest.mark.parametrize("pair, studs, penalty", [(6, 15, 0), (7, 16, 1), (8, 30, 1), (9, 31, 2), (10, 46, 3)])
def test_s2_4_2_range_penalty(gallery, pair, studs, penalty):
    """BOW 1.3 §2.4.2: remove 1 brick per 15 studs, head to head: 15 none, 16 and 30 one, 31 two, 46 three."""
    report = gallery.sight(f"blue-{pair}", f"red-{pair}")
    assert report.distance_studs == pytest.approx(studs, abs=0.05)  # heads may sit a fraction off-centre
    assert judge_sight(report).range_penalty == penalty


def test_s2_4_2_range_penalty_table():
    """BOW 1.3 §2.4.2: ceil(d / 15) - 1, never negative, 15.0000001 is still 15."""
    assert [range_penalty(d) for d in (0, 1, 15, 15 + 1e-9, 15.01, 30, 30.5, 45, 46, 60, 61)] == \
        [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4]


def test_s2_4_2_rule_book_example(example_242):
    """BOW 1.3 §2.4.2 example: 1 is behind the firer, 2 behind a wall, 3 covered at -1 brick, 4 at -3 bricks."""
    one, two, three, four = (example_242.sight("firer", f"minifig-{k}") for k in (1, 2, 3, 4))
    assert not one.in_front_arc
    assert two.in_front_arc and not two.visible
    assert three.visible and judge_sight(three).covered and judge_sight(three).range_penalty == 1 and 16 <= three.distance_studs <= 30
    assert four.visible and not judge_sight(four).covered and judge_sight(four).range_penalty == 3 and 46 <= four.distance_studs <= 60


def test_blockers_name_the_part_its_colour_and_line(gallery):
    report = gallery.sight("blue-2", "red-2")
    first = report.blockers[0]
    assert first.colour == "Light_Bluish_Grey" and first.line > 3
    assert first.describe() == f"3004.dat, Light_Bluish_Grey, gallery.ldr line {first.line}"
    assert sum(b.share for b in report.blockers) == pytest.approx(report.hidden_fraction)
    assert f"gallery.ldr line {first.line}" in sight_sentence(report, judge_sight(report))
    assert report.to_dict()["blockers"][0]["part"] == "3004.dat"


def test_units_block_and_are_named(gallery):
    """BOW 1.3 §2.4.2: a target can be covered by another unit."""
    report = gallery.sight("blue-1", "red-8")  # red-3 stands in the way
    assert any(b.kind == "unit" and b.id == "red-3" for b in report.blockers)


def test_fraction_is_stable_under_a_one_ldu_move(gallery):
    before = gallery.sight("blue-2", "red-2").visible_fraction
    try:
        gallery.place("red-2", (14.5 + 0.05, 10.5), 180)
        after = gallery.sight("blue-2", "red-2").visible_fraction
    finally:
        gallery.place("red-2", (14.5, 10.5), 180)
    assert abs(after - before) < 0.05


def test_unknown_and_absent_units_list_the_valid_ids(gallery):
    with pytest.raises(UserInputError, match="known: .*blue-1"):
        gallery.sight("blue-1", "green-9")
    gallery.remove("red-1")
    try:
        with pytest.raises(UserInputError, match="red-1 is not on the battlefield.*on it: blue-1"):
            gallery.sight("blue-1", "red-1")
    finally:
        gallery.place("red-1", (14.5, 4.5), 180)


# ----- the traps and conventions, on box worlds -------------------------------------------------
def two_figs(decor=(), **kw):
    return box_world(list(decor), [BodySpec("a", "fig", (10.5, 10.5), 0, side="blue"),
                                   BodySpec("b", "fig", (20.5, 10.5), 180, side="red")], **kw)


def test_a_segment_ending_on_the_target_does_not_count_as_blocked():
    """The trap: a ray that ends exactly on the target's surface would hit it; ours stop short."""
    world = two_figs()
    report = world.sight("a", "b")
    assert report.visible_fraction == 1.0 and report.sample_count >= 64


def test_own_bodies_never_block():
    """design.md: the firer's own parts never block (its eye is inside its head)."""
    world = two_figs()
    assert world.sight("b", "a").visible_fraction == 1.0


def test_grazing_convention_robust_mode():
    """Convention (Embree robust mode), at exact brick-top heights:
    - a sight line lying in the plane of a wall's top face (eye and sample both at the top's
      height) grazes it and passes: seen; a hundredth of an LDU lower it is blocked;
    - a sight line through the shared edge of two triangles (a quad's diagonal) never slips
      between them: blocked. Both the same on every run."""
    wall = box_mesh((290, 150, 0), (310, 270, 84))  # top at the eye's exact height
    world = two_figs([wall])
    eye = world.head("a")
    assert eye[2] == 84.0
    skip = (world.body("a").index, world.body("b").index)
    ends = np.column_stack([np.linspace(380, 420, 41), np.full(41, 210.0), np.full(41, 84.0)])
    seen = world.cast_sight(eye, ends, skip)[0]
    assert seen.all() and (world.cast_sight(eye, ends, skip)[0] == seen).all()
    assert not world.cast_sight(eye, ends - [0, 0, 0.01], skip)[0].any()
    u = np.linspace(0.05, 0.95, 37)  # the front face's diagonal, from (y 150, z 0) to (y 270, z 84)
    on_edge = np.column_stack([np.full(37, 290.0), 150 + 120 * u, 84 * u])
    beyond = eye + (on_edge - eye) * 1.3
    assert not world.cast_sight(eye, beyond, skip)[0].any()


def test_removing_a_blocker_never_lowers_the_visible_fraction_example():
    wall = box_mesh((290, 150, 0), (310, 270, 40))
    with_wall, without = two_figs([wall]), two_figs()
    assert with_wall.sight("a", "b").visible_fraction < without.sight("a", "b").visible_fraction == 1.0


@settings(max_examples=25, deadline=None)
@given(x=st.floats(12.0, 19.0), y=st.floats(8.0, 13.0), w=st.floats(0.5, 3.0), h=st.floats(4.0, 110.0))
def test_property_removing_a_blocker_never_lowers_visibility(x, y, w, h):
    """Removing a decor element never lowers the visible fraction (same samples, fewer triangles)."""
    block = box_mesh((x * 20, y * 20, 0), ((x + w) * 20, (y + w) * 20, h))
    other = box_mesh((300, 260, 0), (320, 300, 60))
    both, fewer = two_figs([block, other]), two_figs([other])
    assert fewer.sight("a", "b").visible_fraction >= both.sight("a", "b").visible_fraction - 1e-12


@settings(max_examples=25, deadline=None)
@given(x=st.floats(12.0, 19.0), y=st.floats(8.0, 13.0), h=st.floats(4.0, 110.0), ty=st.floats(6.0, 15.0))
def test_property_eye_to_eye_visibility_is_symmetric(x, y, h, ty):
    """The segment between two eyes is blocked or not, whichever end it is cast from."""
    block = box_mesh((x * 20, y * 20, 0), ((x + 1.5) * 20, (y + 1.5) * 20, h))
    world = box_world([block], [BodySpec("a", "fig", (10.5, 10.5), 0), BodySpec("b", "fig", (22.5, ty), 180)])
    a, b = world.head("a"), world.head("b")
    skip = tuple(world.body(k).index for k in ("a", "b"))
    ab = world.cast_sight(a, b[None], skip)[0][0]
    ba = world.cast_sight(b, a[None], skip)[0][0]
    assert ab == ba


def test_covered_uses_the_ruleset_threshold():
    """BOW 1.3 §2.4.2: covered from the ruleset's cover_threshold of hidden share (a scene parameter)."""
    from bow3d.rulesets.bow import BowParams

    wall = box_mesh((380, 150, 0), (390, 270, 40))
    world = two_figs([wall])
    report = world.sight("a", "b")
    assert 0 < report.hidden_fraction < 1
    assert not judge_sight(report, BowParams(cover_threshold=report.hidden_fraction + 0.01)).covered
    assert judge_sight(report, BowParams(cover_threshold=report.hidden_fraction - 0.01)).covered


def test_place_moves_a_body_without_rebuilding_the_decor():
    world = two_figs()
    scene_before = world.decor_scene
    world.place("b", (30.5, 10.5), 180)
    assert world.decor_scene is scene_before
    assert world.distance_studs("a", "b") == pytest.approx(20.0)


def test_big_batches_through_the_merged_bodies_scene_agree_with_instancing(monkeypatch):
    """Big batches that pass near many bodies cast them through one merged scene: same answers."""
    import bow3d.world.world as world_module
    from bow3d.world.world import MERGED_BATCH_RAYS

    monkeypatch.setattr(world_module, "MERGED_NEAR_SHARE", 0.0)  # big batches always take the merged path

    wall = box_mesh((290, 150, 0), (310, 270, 40))
    world = box_world([wall], [BodySpec(f"u{k}", "fig", (8.5 + 3 * (k % 5), 4.5 + 4 * (k // 5)), 45.0 * k)
                               for k in range(15)])
    rng = np.random.default_rng(3)
    points = np.column_stack([rng.uniform(0, 1280, 5000), rng.uniform(0, 1280, 5000), rng.uniform(1, 100, 5000)])
    eye = world.head("u0")
    skip = (world.body("u0").index,)
    big = world.cast_sight(eye, points, skip)
    assert len(points) >= MERGED_BATCH_RAYS and world._merged[0] == world._version  # the merged scene was used
    small = [world.cast_sight(eye, chunk, skip) for chunk in np.array_split(points, 5)]
    assert (big[0] == np.concatenate([s[0] for s in small])).all()
    assert 0.05 < big[0].mean() < 0.95 and any(b.kind == "unit" for b in big[2])
    world.place("u3", (40.5, 40.5), 0)   # a move rebuilds the merged scene
    moved = world.cast_sight(eye, points, skip)[0]
    assert (moved == np.concatenate([world.cast_sight(eye, c, skip)[0] for c in np.array_split(points, 5)])).all()
