"""The geometric truths of issue 4 on the bundled scenes/los-gallery.yaml (BOW 1.3 §2.4.2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bow3d.rulesets.bow import judge_sight
from bow3d.world import World

SCENES = Path(__file__).resolve().parents[2] / "scenes"

# lane: (visible, covered, in front arc, head-to-head studs, range penalty)
LANES = {
    "open": (True, False, True, 20, 1),
    "lowwall": (True, True, True, 20, 1),
    "fullwall": (False, False, True, 20, 1),
    "window": (True, True, True, 20, 1),
    "behind": (True, False, False, 10, 0),
    "range15": (True, False, True, 15, 0),
    "range16": (True, False, True, 16, 1),
    "range30": (True, False, True, 30, 1),
    "range31": (True, False, True, 31, 2),
    "range46": (True, False, True, 46, 3),
}


@pytest.fixture(scope="module")
def los_gallery(world_library) -> World:
    from bow3d.rulesets import load_scene

    path = SCENES / "los-gallery.yaml"
    if not path.is_file():
        pytest.skip("scenes/los-gallery.yaml is not there")
    return World.from_scene(load_scene(path), world_library)


@pytest.mark.parametrize("lane", list(LANES))
def test_s2_4_2_los_gallery_lanes(los_gallery, lane):
    """BOW 1.3 §2.4.2 on the bundled gallery: open ground visible and not covered; low wall covered; full wall
    not visible; window visible and covered; behind the firer not in arc; 15 studs no penalty, 16 and 30 one
    brick, 31 two, 46 three."""
    visible, covered, arc, studs, penalty = LANES[lane]
    report = los_gallery.sight(f"{lane}-firer", f"{lane}-target")
    assert (report.visible, judge_sight(report).covered, report.in_front_arc) == (visible, covered, arc)
    assert report.distance_studs == pytest.approx(studs, abs=1e-3)
    assert judge_sight(report).range_penalty == penalty
    assert report.sample_count >= 64


def test_window_names_the_window_frame(los_gallery):
    report = los_gallery.sight("window-firer", "window-target")
    assert any(b.part == "60594.dat" for b in report.blockers)
