"""Wounding's postures in the 3D view: a knocked-down figure lies on his back, a wounded one on his front,
a figure whose nerve broke leaves the table (bow3d.view.graph.scene_nodes.SceneNodes.set_posture)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bow3d.rulesets.blaze_of_glory.state import FigureState

pytestmark = pytest.mark.render
TOWN = Path(__file__).resolve().parents[3] / "scenes" / "western-town.yaml"


@pytest.fixture
def nodes(renderer_available):
    from bow3d.ldraw import BUNDLED_LIBRARY, Library
    from bow3d.rulesets import load_scene
    from bow3d.view.graph.scene_nodes import attach_scene
    from bow3d.view.output.offscreen import OffscreenRenderer

    renderer = OffscreenRenderer(64, 48)
    try:
        yield attach_scene(renderer.render, load_scene(TOWN), Library([BUNDLED_LIBRARY]))
    finally:
        renderer.close()


def _bounds(nodes, unit):
    return nodes.pieces[unit].body.get_tight_bounds(nodes.units[unit])


def test_wounding_postures_on_back_face_down_and_leaving_the_table(nodes):
    standing = _bounds(nodes, "marshal")
    tall = standing[1][2] - standing[0][2]
    postures = {s: FigureState("marshal", "law", "marshal", 4, (0, 0), 0, status=s).posture
                for s in ("knocked_down", "wounded", "unconscious", "fled")}
    assert postures == {"knocked_down": "on_back", "wounded": "face_down", "unconscious": "face_down",
                        "fled": "gone"}
    ends = {}
    for posture in ("on_back", "face_down"):
        nodes.set_posture("marshal", posture)
        lying = _bounds(nodes, "marshal")
        assert lying[1][2] - lying[0][2] < 0.6 * tall and abs(lying[0][2]) < 1e-3, posture   # arms and guns up
        ends[posture] = nodes.pieces["marshal"].body.get_p()
    assert ends["on_back"] == -ends["face_down"] != 0
    assert not nodes.pieces["marshal"].body.has_transparency()      # still in play: not faded
    nodes.set_posture("marshal", "standing")
    again = _bounds(nodes, "marshal")
    assert abs((again[1][2] - again[0][2]) - tall) < 1e-3
    nodes.set_posture("brawler", "gone")
    assert nodes.pieces["brawler"].root.is_hidden()
    with pytest.raises(ValueError):
        nodes.set_posture("marshal", "dancing")
