"""Dice, cards and unknown kinds drawn on the roll tray, offscreen: what each frame shows in the tray's corner,
the same bytes in another process, a replay of a dice ruleset (the engine test's "race to ten") filmed, and
the play UI's tray fed by its own record hook. Skipped where no graphics pipe exists."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from bow3d.view.film.timeline import RollsShown, RoundStarted, Step, ThrowShown, Timeline
from tests.conftest import write
from tests.view.test_video import BATTLEFIELD, FIGURE, SCENE

pytestmark = pytest.mark.render

SIZE = (640, 360)
TRAY = (0.64, 0.985, 0.04, 0.42)  # RollTray's frame in the film: left, right, bottom, top (0-1, bottom up)
GOLD = np.array([255, 205, 20])  # the ring of the die that counts (unlit)
CREAM = np.array([246, 242, 228])  # a card's face
HIGHEST = ThrowShown("blue", {"kind": "dice", "count": 2, "sides": 6, "keep": "highest"}, (2, 5), "save",
                     "blue saves on the higher of 2d6: 5")
SUM = ThrowShown("blue", {"kind": "dice", "count": 2, "sides": 6, "keep": "sum"}, (2, 5), "move", "blue moves 7")
DRAW = ThrowShown("red", {"kind": "draw", "cards": ("Sergeant", "Runner")}, "Sergeant", "activation",
                  "red draws the Sergeant")
COIN = ThrowShown("red", {"kind": "coin"}, "heads", "toss", "")


def _scene(tmp_path):
    from bow3d.rulesets import load_scene

    write(tmp_path / "field.ldr", BATTLEFIELD)
    write(tmp_path / "figure.ldr", FIGURE)
    return load_scene(write(tmp_path / "scene.yaml", SCENE))


def _timeline(scene, throws) -> Timeline:
    from bow3d.view.film.timeline import synthetic_timeline

    base = synthetic_timeline(scene, rounds=1)
    steps = (Step(RoundStarted(1), 1, None, base.start, base.start, "Round 1"),
             *(Step(RollsShown(t), 1, None, base.start, base.start) for t in throws))
    return replace(base, steps=steps)


def _tray(picture: np.ndarray) -> np.ndarray:
    h, w = picture.shape[:2]
    left, right, bottom, top = TRAY
    return picture[int((1 - top) * h) + 1:int((1 - bottom) * h) - 1, int(left * w) + 1:int(right * w) - 1]


def _near(pixels: np.ndarray, rgb: np.ndarray, within: float = 30.0) -> int:
    return int((np.linalg.norm(pixels.astype(np.float64) - rgb, axis=-1) < within).sum())


def test_tray_shows_dice_with_the_die_that_counts_a_card_and_words(tmp_path, library, renderer_available):
    from bow3d.view.film.video import FilmRenderer

    scene = _scene(tmp_path)
    renderer = FilmRenderer(scene, _timeline(scene, [(HIGHEST,), (SUM,), (DRAW,), (COIN,)]), SIZE, library)
    try:
        shots = renderer.film.shots
        assert [s.kind for s in shots] == ["establishing", "rolls", "rolls", "rolls", "rolls"]
        ends = [_tray(renderer.frame(s.end_s - 0.05)) for s in shots[1:]]
        early = _tray(renderer.frame(shots[1].start_s + 0.02))
        captions = {}
        for shot in shots[1:]:
            renderer.frame(shot.end_s - 0.05)
            captions[shot.step] = [text for text, _ in renderer.stage.captions.shown]
        kinds = [row.kind for row in renderer.stage.tray.throws.rows]
    finally:
        renderer.close()
    highest, summed, card, coin = ends
    assert _near(highest, GOLD) > 40  # keep highest: the 5 is ringed in gold once the dice lie still
    assert _near(summed, GOLD) < 5  # a sum counts every die: no ring
    assert _near(early, GOLD) < 5  # nor while they are still in the air
    assert np.abs(highest.astype(int) - early.astype(int)).max() > 100  # the dice came in
    assert _near(card, CREAM, 20) > 400 and _near(highest, CREAM, 20) < 50  # the card lies face up
    assert (coin.min(axis=-1) > 235).sum() > 200  # a white tile with the outcome in words
    assert kinds == ["words"]
    assert captions == {1: ["blue saves on the higher of 2d6: 5"], 2: ["blue moves 7"], 3: ["red draws the Sergeant"],
                        4: ["Red army: heads"]}  # the narrator's words; none: the outcome


def test_throws_the_view_cannot_read_are_drawn_in_words_and_never_crash(renderer_available):
    from bow3d.view.output.offscreen import OffscreenRenderer
    from bow3d.view.throws.brick_roll_animation import RollTray

    hostile = (ThrowShown("a", {"kind": "coin"}, ""), ThrowShown("a", {"kind": "coin"}, "\u2603\u2603"),
               ThrowShown("a", {"kind": "dice", "count": 100, "sides": 1000}, tuple(range(1, 101))),
               ThrowShown("a", {"kind": "shuffle", "cards": ()}, tuple(f"card {k}" for k in range(40))),
               ThrowShown("a", {"kind": "draw", "cards": ("x",)}, "not in the deck"),
               ThrowShown("a", {"kind": "bricks", "n": 10_000}, 9_999),
               ThrowShown("a", {"kind": "dice"}, None), ThrowShown("a", {}, {"nested": [1, {"x": 2}]}))
    renderer = OffscreenRenderer(160, 90)
    try:
        tray = RollTray(renderer.buffer)
        for seconds in (0.0, 0.3, 30.0):
            settled = tray.show(hostile, seconds, 1, [(0.5, 0.5, 0.5)] * len(hostile))
            renderer.engine.render_frame()
        assert settled.all() and len(settled) == len(hostile)
        assert [row.kind for row in tray.throws.rows] == ["words", "words", "dice", "shuffle", "draw", "bricks",
                                                          "words", "words"]
        tray.remove()
    finally:
        renderer.close()


FRAMES_SCRIPT = """
import hashlib, sys
from pathlib import Path
sys.path.insert(0, {root!r})
from tests.conftest import write_library
from tests.view.test_throws_render import DRAW, HIGHEST, SUM, COIN, _scene, _timeline
from bow3d.ldraw import Library
from bow3d.view.film.timeline import ThrowShown
from bow3d.view.film.video import FilmRenderer
root = Path({tmp!r})
library = Library([write_library(root / "ldraw")])
scene = _scene(root)
d20 = ThrowShown("red", {{"kind": "dice", "count": 3, "sides": 20, "keep": "highest"}}, (4, 19, 11), "", "")
shuffle = ThrowShown("blue", {{"kind": "shuffle", "cards": ("a", "b", "c")}}, ("c", "a", "b"), "", "")
renderer = FilmRenderer(scene, _timeline(scene, [(HIGHEST, d20), (DRAW,), (shuffle, COIN)]), (160, 90), library)
digest = hashlib.sha256()
for shot in renderer.film.shots[1:]:
    for k in range(12):
        digest.update(bytes(renderer.frame_bytes(shot.start_s + k * shot.duration_s / 12)))
print(digest.hexdigest())
"""


def test_same_throw_frames_in_another_process(tmp_path, renderer_available):
    """Bullet's flights, the dice's text and the cards draw the same bytes in every process."""
    root = str(Path(__file__).resolve().parents[2])
    digests = []
    for k in range(2):
        folder = tmp_path / f"run{k}"
        result = subprocess.run([sys.executable, "-c", FRAMES_SCRIPT.format(root=root, tmp=str(folder))],
                                capture_output=True, text=True, timeout=180)
        assert result.returncode == 0, result.stderr[-2000:]
        digests.append(result.stdout.split()[-1])
    assert digests[0] == digests[1]


def test_a_dice_ruleset_replay_is_filmed_with_its_d6(tmp_path, library, renderer_available):
    """The engine test's "race to ten" throws a d6 per run: its replay's timeline holds every throw as
    recorded, with the narrator's words, and the film throws the die onto the tray."""
    from bow3d.replay import ReplayWriter, Session, open_replay
    from bow3d.rules import RULESETS
    from bow3d.rules.flat import FlatGeometry
    from bow3d.rulesets import load_scene
    from bow3d.view.film.timeline import Narrated, timeline_from_replay
    from bow3d.view.film.video import FilmRenderer
    from tests.rules.test_engine import RACE, SCENE as RACE_SCENE

    RULESETS.register(RACE)
    try:
        write(tmp_path / "track.ldr", "0 track\n1 2 0 8 0 10 0 0 0 0.33 0 0 0 10 box.dat\n")
        scene = load_scene(write(tmp_path / "race.yaml", RACE_SCENE))
        with ReplayWriter(tmp_path / "race.bowreplay", scene, 3, {"a": "ai", "b": "ai"}, max_rounds=None) as writer:
            session = Session.start(scene, FlatGeometry(), seed=3, writer=writer, max_rounds=None)
            session.advance()
        recorded = [(r["side"], tuple(r["outcome"])) for r in session.game.records if r["type"] == "roll"]
        opened = open_replay(tmp_path / "race.bowreplay")
        timeline = timeline_from_replay(opened, FlatGeometry())
        throws = [t for s in timeline.steps if isinstance(s.beat, Narrated) for t in s.beat.rolls]
        assert [(t.side, t.outcome) for t in throws] == recorded and recorded
        assert all(t.kind == "dice" and t.spec == {"kind": "dice", "count": 1, "sides": 6, "keep": "all"} for t in throws)
        narrator = opened.narrator("en")
        rolled = [e for e in session.game.events if e.kind == "rolled"]
        assert [t.words for t in throws] == [narrator.line(e) for e in rolled]
        renderer = FilmRenderer(scene, timeline, (320, 180), library)
        try:
            shot = next(s for s in renderer.film.shots if s.kind == "throw")
            throw = renderer.film.timeline.steps[shot.step].beat.rolls[0]
            picture = _tray(renderer.frame(shot.end_s - 0.05))
            tray = renderer.stage.tray
            assert tray.region.is_active() and [row.kind for row in tray.throws.rows] == ["dice"]
            assert renderer.stage.captions.shown == [(throw.words, renderer.film.rgb_of_side(throw.side))]
            die = picture.max(axis=-1) < 90  # side colour 0: a black die (white pips) on the tan tray
            assert 40 < die.sum() < die.size / 4
        finally:
            renderer.close()
    finally:
        RULESETS.unregister(RACE.name)


def test_play_ui_tray_takes_any_throw_with_the_narrators_words(renderer_available):
    """The play UI's record hook turns every Roll into a ThrowShown (not only bricks), and its Bullet tray
    throws dice and cards too."""
    from bow3d.rules import CardDraw, Dice, Roll
    from bow3d.rules.events import Event
    from bow3d.view.apps.play_ui import PlayUI
    from bow3d.view.output.offscreen import OffscreenRenderer
    from bow3d.view.throws.brick_physics import PhysicsRollTray

    class Words:
        def line(self, event, following=()):
            return f"{event.data['side']} got {event.data['outcome']}" if event.kind == "rolled" else None

    class Hooked:  # the parts of PlayUI its record hook reads
        rolls, log, _rolls_done, _roll_clock, _last_poses, narrator = [], [], False, 5.0, {}, Words()
        _resuming = False  # not a game resumed from its replay (issue 17)

        def _sync(self, before):
            pass

        def _poses(self):
            return {}

    ui = Hooked()
    dice, card = Dice(2, 8, "highest"), CardDraw(("Sergeant", "Runner"))
    for side, spec, outcome in (("blue", dice, (3, 7)), ("red", card, "Runner")):
        event = Event("rolled", 1, {"side": side, "spec": spec.to_record(), "purpose": "p", "about": {},
                                    "outcome": list(outcome) if isinstance(outcome, tuple) else outcome})
        PlayUI._recorded(ui, Roll(side, spec, outcome), [event])
    assert [(t.kind, t.outcome, t.words) for t in ui.rolls] == [("dice", (3, 7), "blue got [3, 7]"),
                                                                 ("draw", "Runner", "red got Runner")]
    assert ui._roll_clock == 0.0 and ui.log == ["Round 1: blue got [3, 7]", "Round 1: red got Runner"]
    renderer = OffscreenRenderer(320, 180)
    try:
        tray = PhysicsRollTray(renderer.buffer, frame=(0.70, 0.995, 0.55, 0.93))
        settled = tray.show(tuple(ui.rolls), 30.0, 4, [(0.1, 0.3, 0.7), (0.7, 0.0, 0.0)])
        assert settled.tolist() == [True, True] and tray.region.is_active()
        assert [row.kind for row in tray.throws.rows] == ["dice", "draw"]
        renderer.engine.render_frame()
        picture = renderer.frame()
        h, w = picture.shape[:2]
        corner = picture[int(0.07 * h) + 1:int(0.45 * h) - 1, int(0.70 * w) + 1:int(0.995 * w) - 1]
        assert _near(corner, GOLD) > 5 and _near(corner, CREAM, 20) > 50  # the 7 ringed, the card face up
        tray.remove()
    finally:
        renderer.close()
