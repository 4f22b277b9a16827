"""The same replay filmed in French and in English differs only in words (issue 16): the film's cuts,
cameras, poses, throws and highlights are the same at every moment, only the titles' text differs,
and where it differs the pictures differ in a small part of the frame; the replay verifies whatever
language is spoken. Skipped where no graphics pipe exists."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from bow3d.i18n import speaking

pytestmark = pytest.mark.render

ROOT = Path(__file__).resolve().parents[2]
REPLAY = ROOT / "replays" / "village-seed1.bowreplay"
SIZE = (320, 180)


@pytest.fixture(scope="module")
def timelines():
    from bow3d.view.film.video import load_timeline

    scene, english, _opened = load_timeline(REPLAY, language="en")
    _scene, french, _opened = load_timeline(REPLAY, language="fr")
    return scene, english, french


def _without_words(spec):
    """The frame's spec with every text blanked: the titles' and the narrator's line of each throw."""
    roll = spec.roll
    if roll is not None:
        roll = replace(roll, rolls=tuple(replace(r, words="") for r in roll.rolls))
    return replace(spec, titles=tuple(replace(t, text="") for t in spec.titles), roll=roll)


def _film(scene, timeline, language: str, times: np.ndarray, pictures: tuple[float, ...]):
    """(specs at `times`, frames at `pictures`) of one film, rendered in `language`; one renderer at a
    time (Panda3D's offscreen buffers are not meant to be open side by side)."""
    from bow3d.view.film.video import FilmRenderer

    film = FilmRenderer(scene, timeline, SIZE, None, max_seconds=60.0)
    try:
        with speaking(language):   # the tray's captions are drawn in the language spoken
            specs = [film.film.frame(float(t)) for t in times]
            frames = [film.frame(t) for t in pictures]
        return film.film.duration_s, specs, frames
    finally:
        film.renderer.close()


def test_a_film_in_french_has_the_english_film_s_frames_but_its_words(timelines, renderer_available):
    scene, english, french = timelines
    times = np.arange(0.0, 60.0, 0.25)
    pictures = (2.0, 16.0, 31.0, 47.5)
    en_seconds, en_specs, en_frames = _film(scene, english, "en", times, pictures)
    fr_seconds, fr_specs, fr_frames = _film(scene, french, "fr", times, pictures)
    assert en_seconds == fr_seconds
    differing = []
    for t, a, b in zip(times, en_specs, fr_specs):
        assert _without_words(a) == _without_words(b), f"the films differ at {t:.2f} s in more than words"
        if [x.text for x in a.titles] != [x.text for x in b.titles]:
            differing.append(float(t))
    # the narrator's lines are words; unit titles ('Blue army: blue-sword') are names, and "Round 3" is
    # French too: about half the film's moments show words that differ
    assert len(differing) > 0.4 * len(times), "hardly any words were translated"
    texts = {x.text for spec in fr_specs for x in spec.titles}
    assert any("tenons" in x or "brique" in x or "Attaque" in x for x in texts), sorted(texts)[:5]
    assert sum(bool(np.any(a != b)) for a, b in zip(en_frames, fr_frames)) >= 2   # words were drawn differently
    for t, a, b in zip(pictures, en_frames, fr_frames):
        changed = np.any(a != b, axis=-1)
        assert changed.mean() < 0.08, (t, changed.mean())   # the words' lines, not the picture
        rows = np.flatnonzero(changed.any(axis=1))
        if rows.size:   # the words are in the title bands, at the top and in the lower third
            assert np.all((rows < 0.25 * SIZE[1]) | (rows > 0.55 * SIZE[1])), (t, rows.min(), rows.max())


def test_the_replay_verifies_whatever_the_language(capsys):
    from bow3d.cli import main

    for lang in ("en", "fr"):
        assert main(["--lang", lang, "replay", "verify", str(REPLAY)]) == 0, capsys.readouterr()
    with speaking("fr"):
        from bow3d.replay.verify import verify_replay

        assert verify_replay(REPLAY).ok
