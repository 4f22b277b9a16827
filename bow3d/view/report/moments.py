"""Pictures of a battle's key moments for the report, shot from the film itself.

Layer: view (Panda3D offscreen, through bow3d.view.film.video.FilmRenderer). The moments are shots of the
film (bow3d.view.film.director): the opening look at the battlefield, the deaths (each close-up once the
unit has fallen; at most MAX_DEATHS, spread over the game) and the finale. Each picture is the very
frame the film shows at that moment, as a JPEG.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

MAX_DEATHS = 4
SIZE = (768, 432)


@dataclass(frozen=True)
class Moment:
    """One key moment: when in the film, the round, what happened (the narrator's words), the picture."""

    time_s: float
    round: int
    caption: str
    jpeg: bytes = b""


def key_moments(film: Any, result: str | None = None) -> list[Moment]:
    """The key moments of a film (bow3d.view.film.director.ShotList), in order, without pictures."""
    from bow3d.view.film.timeline import Died

    shots = list(film.shots)
    chosen: list[Moment] = []
    opening = next((s for s in shots if s.kind == "establishing"), shots[0] if shots else None)
    if opening is not None:
        step = film.timeline.steps[opening.step]
        name = film.timeline.scene_name or "the battlefield"
        chosen.append(Moment(opening.start_s + 0.6 * opening.duration_s, step.round, f"{name}: the armies deployed"))
    deaths = [s for s in shots if s.kind == "close_up" and isinstance(film.timeline.steps[s.step].beat, Died)]
    if len(deaths) > MAX_DEATHS:
        deaths = [deaths[int(i)] for i in np.round(np.linspace(0, len(deaths) - 1, MAX_DEATHS))]
    for shot in deaths:
        step = film.timeline.steps[shot.step]
        words = step.result or f"{step.beat.unit} falls"
        chosen.append(Moment(shot.start_s + 0.92 * shot.duration_s, step.round, words))
    finale = next((s for s in shots if s.kind == "finale"), None)
    if finale is not None:
        step = film.timeline.steps[finale.step]
        chosen.append(Moment(finale.start_s + 0.5 * finale.duration_s, step.round, result or "The end of the battle"))
    return chosen


def _jpeg(renderer: Any, time_s: float) -> bytes:
    from panda3d.core import PNMImage, StringStream

    renderer.frame_bytes(time_s)
    image = PNMImage()
    stream = StringStream()
    if not renderer.renderer.texture.store(image) or not image.write(stream, "moment.jpg"):
        return b""
    return bytes(stream.getData())


def shoot_moments(scene: Any, timeline: Any, library: Any, result: str | None = None,
                  size: tuple[int, int] = SIZE, max_seconds: float | None = None) -> list[Moment]:
    """The key moments with their pictures, rendered offscreen (RenderUnavailable where no graphics pipe is)."""
    from bow3d.view.film.video import MAX_FILM_SECONDS, FilmRenderer

    renderer = FilmRenderer(scene, timeline, size, library, MAX_FILM_SECONDS if max_seconds is None else max_seconds)
    try:
        return [Moment(m.time_s, m.round, m.caption, _jpeg(renderer, m.time_s))
                for m in key_moments(renderer.film, result)]
    finally:
        renderer.close()
