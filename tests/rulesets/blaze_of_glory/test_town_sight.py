"""The bundled Western town on the 3D world (the bundled starter library): Shooting's partial cover behind a
water trough or crates, full cover through the sheriff's window, none in the open, with the deciding parts
named; stories read from the world; `bow3d los` and heatmaps through the ruleset."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bow3d.cli import main
from bow3d.ldraw import BUNDLED_LIBRARY, Library
from bow3d.rulesets import load_scene, ruleset_of
from bow3d.rulesets.blaze_of_glory.book import story

ROOT = Path(__file__).resolve().parents[3]
TOWN = ROOT / "scenes" / "western-town.yaml"


@pytest.fixture(scope="module", params=["starter", "official"])
def town(request):
    """The town's world with the bundled starter library, and with the official one (LDRAWDIR) when set."""
    import os

    from bow3d.world import World

    root = BUNDLED_LIBRARY
    if request.param == "official":
        root = Path(os.environ.get("LDRAWDIR", "/nonexistent"))
        if not (root / "parts").is_dir():
            pytest.skip("the official LDraw library is not available (set LDRAWDIR)")
    scene = load_scene(TOWN)
    return scene, World.from_scene(scene, Library([root]))


def verdict(town, firer, target):
    scene, world = town
    report = world.sight(firer, target)
    return report, ruleset_of(scene).judge_sight(report, scene.ruleset)


@pytest.mark.parametrize("firer,target,level,part,material", [
    ("black-bart", "citizen-revolver", "partial", "3009.dat", "wood"),     # the water trough in the street
    ("marshal", "scattergun", "partial", "3003.dat", "wood"),              # the crates by the hotel
    ("brawler", "deputy-rifle", "full", "60594.dat", None),                # the sheriff's window
    ("marshal", "black-bart", "none", None, None)])                        # Main Street, in the open
def test_shooting_cover_levels_on_the_town(town, firer, target, level, part, material):
    report, judged = verdict(town, firer, target)
    assert report.complete and report.visible and judged.cover == level
    data = judged.to_dict()
    if part is not None:
        assert part in [b.get("part") for b in data["deciding"]][:3]
        if material:
            assert data["deciding"][0]["material"] == material
    if level == "partial":
        assert judged.cover_share >= 0.25 and judged.hard_share < 0.8 and not judged.through_opening
    if level == "full":
        assert judged.through_opening and judged.hard_share >= 0.4
    if level == "none":
        assert judged.cover_share < 0.25


def test_climbing_stories_from_the_world(town):
    """Heights in stories taken from the 3D world: the street, the saloon's balcony, the bank's roof."""
    scene, world = town
    for unit, expected in (("marshal", 0), ("deputy-shotgun", 0), ("citizen-rifle", 1), ("rifleman", 1),
                           ("gunslinger", 2)):
        x, y = scene.unit(unit).position
        assert story(world.ground_height(x, y)) == expected, unit


def test_los_command_gives_the_verdict_and_the_deciding_parts(capsys):
    args = ["los", str(TOWN), "brawler", "deputy-rifle", "--library", str(BUNDLED_LIBRARY), "--json"]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["verdict"]["ruleset"] == "blaze-of-glory" and data["verdict"]["cover"] == "full"
    assert data["verdict"]["shoot_modifier"] == -2 and "FULL COVER" in data["text"]
    assert main(["los", str(TOWN), "black-bart", "citizen-revolver", "--library", str(BUNDLED_LIBRARY)]) == 0
    text = capsys.readouterr().out
    assert "PARTIAL COVER, -1" in text and "3009.dat" in text


def test_heatmap_judgement_is_the_partial_cover_share(town):
    scene, _ = town
    ruleset = ruleset_of(scene)
    assert ruleset.cover_share(scene.ruleset) == 0.25
    assert ruleset.in_cover(np.array([1.0, 0.76, 0.75, 0.0]), scene.ruleset).tolist() == [False, False, True, True]
