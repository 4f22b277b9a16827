"""Every unit drawn where the rules put it, at every frame of a film (issue 18: in the village film a unit
stood on a roof's edge, a red side ring and a pair of legs in the sky, while the rules had it on the ground)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.render

ROOT = Path(__file__).resolve().parents[2]
STEP_S = 0.5  # frame times checked (the film's shots are 0.6 s or longer)


def test_every_unit_stands_where_the_rules_put_it_at_every_frame(renderer_available):
    from bow3d.replay import open_replay
    from bow3d.view.film.video import FilmRenderer, load_timeline

    replay = ROOT / "replays" / "village-seed1.bowreplay"
    scene, timeline, opened = load_timeline(replay)
    renderer = FilmRenderer(scene, timeline, (64, 36), opened.library(), world=opened.world())
    rules = open_replay(replay).world()  # a world of its own: where the rules place each body
    render = renderer.renderer.render
    wrong = []
    try:
        film = renderer.film
        for time_s in np.arange(0.0, film.duration_s, STEP_S):
            spec = film.frame(float(time_s))
            renderer.stage.show(spec, film)
            for id_, pose in spec.poses.items():
                piece = renderer.nodes.pieces.get(id_)
                if piece is None or pose.aboard is not None or not pose.alive or math.isnan(pose.position[0]):
                    continue
                rules.place(id_, pose.position, pose.facing_deg)
                expected = rules.poses[rules.bodies[id_].index][:3, 3]
                drawn = piece.root.get_pos(render)
                if np.abs(np.array([drawn[0], drawn[1], drawn[2]]) - expected).max() > 0.5:
                    wrong.append(f"{time_s:.1f} s {id_}: drawn at {tuple(round(v) for v in drawn)}, "
                                 f"the rules put it at {tuple(np.round(expected).astype(int))}")
    finally:
        renderer.close()
    assert not wrong, "\n".join(wrong[:10])
