"""The LOS picture's map and the viewer's overlay draw the rings of the scene's ruleset, in its words:
BOW's range bands (§2.4.2), War of Bros' and Blaze of Glory's weapon ranges (which have no bands).
Before, every ruleset got BOW's 15/30/45-stud bands and a legend saying so."""

from __future__ import annotations

import numpy as np
import pytest

from bow3d.rulesets.blaze_of_glory.sight import CoverVerdict as BlazeVerdict
from bow3d.rulesets.bow.sight import SightVerdict
from bow3d.rulesets.war_of_bros.cover import CoverVerdict as BrosVerdict
from bow3d.view.output.los_picture import BAND_COLOURS, draw_inset, inset_rings, map_legend


class Report:
    def __init__(self, distance_studs: float):
        self.distance_studs = distance_studs


def test_s2_4_2_bow_rings_are_its_range_bands_with_what_each_costs():
    """BOW 1.3 §2.4.2: -1 attack brick per 15 studs beyond the first 15."""
    verdict = SightVerdict(covered=False, range_penalty=0, cover_threshold=0.25, range_band_studs=15.0)
    assert verdict.range_rings(40.0) == ((15.0, "15 studs"), (30.0, "30 studs: -1 brick"),
                                         (45.0, "45 studs: -2 bricks"))
    assert verdict.range_rings(61.0)[-1] == (75.0, "75 studs: -4 bricks")
    wide = SightVerdict(covered=False, range_penalty=0, cover_threshold=0.25, range_band_studs=20.0)
    assert [r for r, _ in wide.range_rings(10.0)] == [20.0, 40.0, 60.0]   # the scene's band, not 15
    assert map_legend(inset_rings(verdict, Report(30.0))) == (
        "map: 15 studs (green), 30 studs: -1 brick (yellow), 45 studs: -2 bricks (orange); "
        "dark = outside the front arc")


def test_war_of_bros_starting_weapons_rings_in_cm_and_no_penalty_bands():
    """War of Bros "Starting Weapons": Sidearm 15 cm, Machine Gun 30, Carbine 35, Rifle 40 (a stud is 8 mm)."""
    verdict = BrosVerdict(visible=True, hidden_fraction=0.0, cover="none", given_by=None)
    assert verdict.range_rings(50.0) == ((18.75, "15 cm: Sidearm"), (37.5, "30 cm: Machine Gun"),
                                         (43.75, "35 cm: Carbine"), (50.0, "40 cm: Rifle"))
    legend = map_legend(inset_rings(verdict, Report(30.0)))
    assert "brick" not in legend and "studs" not in legend
    assert legend.startswith("map: 15 cm: Sidearm (green), 30 cm: Machine Gun (yellow), 35 cm: Carbine (orange)")


def test_blaze_of_glory_weapon_ranges_rings_in_inches():
    """Blaze of Glory "Weapon Ranges": thrown 6", pistol 12", bow 24", rifle 30" (the shotgun is a template)."""
    verdict = BlazeVerdict(visible=True, cover="none", hidden_share=0.0, cover_share=0.0, hard_share=0.0,
                           through_opening=False)
    rings = verdict.range_rings(100.0)
    assert [words for _, words in rings] == ['6": thrown', '12": pistol', '24": bow', '30": rifle']
    assert [round(r, 3) for r, _ in rings] == [19.05, 38.1, 76.2, 95.25]   # 1 inch = 3.175 studs
    # the map holds what fits on it: a 48-stud half side shows the thrown and pistol rings only
    assert [w for _, w in inset_rings(verdict, Report(20.0))] == ['6": thrown', '12": pistol']


def test_a_verdict_without_rings_draws_none_and_says_none():
    assert inset_rings(object(), Report(20.0)) == ()
    assert map_legend(()) == "map: dark = outside the front arc"


class _Grid:
    i0 = j0 = -100
    shape = (200, 200)
    heights = np.zeros((200, 200))


class _Body:
    def __init__(self, id_, position, index):
        self.id, self.position, self.facing, self.index = id_, position, 0.0, index


class _World:
    grid = _Grid()
    bodies = {"a": _Body("a", (0.0, 0.0, 0.0), 0), "b": _Body("b", (20.0, 0.0, 0.0), 1)}
    active = np.array([True, True])

    def body(self, id_):
        return self.bodies[id_]


class _Sight:
    firer, target, distance_studs, visible = "a", "b", 20.0, True


@pytest.mark.parametrize("rings", [((15.0, "a"), (30.0, "b")), ((18.75, "a"), (37.5, "b"))])
def test_the_inset_map_draws_each_ring_at_its_radius(rings):
    """The ring colours lie at the rings' radii on the map (half side 48 studs), nowhere else."""
    image = np.zeros((720, 1280, 3), np.uint8)
    draw_inset(image, _World(), _Sight(), rings=rings)
    side = int(720 * 0.42)
    x0, y0 = 1280 - side - 10, 720 - side - 10
    for k, (radius, _) in enumerate(rings):
        ys, xs = np.nonzero(np.all(image[y0:y0 + side, x0:x0 + side] == BAND_COLOURS[k], axis=-1))
        assert len(xs) > 50
        # pixel centres -> studs from the firer at the map's centre
        d = np.hypot((xs + 0.5) / side * 96 - 48, 48 - (ys + 0.5) / side * 96)
        assert abs(np.median(d) - radius) < 0.6
    assert not np.all(image[y0:y0 + side, x0:x0 + side] == BAND_COLOURS[2], axis=-1).any()
