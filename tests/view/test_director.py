"""The camera director and the timeline, without a GPU: shot choice per beat, determinism, length cap,
brick rolls that land as recorded, and beats rebuilt through the real rules from a played game."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from bow3d.errors import ReplayError
from bow3d.view.film.director import HARD_MIN_SHOT_S, direct
from bow3d.view.film.timeline import (
    Attacked,
    BrickRollShown,
    Died,
    Moved,
    Narrated,
    Pose,
    RollsShown,
    RoundStarted,
    SideStyle,
    Step,
    Timeline,
    Treated,
    VehicleMoved,
    timeline_from_replay,
)
from bow3d.view.throws.brick_throw import brick_poses, landing

BOUNDS = np.array([[0.0, 0.0, -8.0], [960.0, 640.0, 120.0]])
START = {"blue-1": Pose((5.5, 5.5), 0.0), "red-1": Pose((30.5, 20.5), 180.0), "jeep": Pose((10.0, 25.0), 0.0)}


def _after(**changes) -> dict[str, Pose]:
    poses = dict(START)
    poses.update(changes)
    return poses


def story() -> Timeline:
    moved = _after(**{"blue-1": Pose((9.5, 8.5), 37.0)})
    hit = {**moved, "red-1": Pose((30.5, 20.5), 180.0, True, None, 1)}
    dead = {**moved, "red-1": Pose((30.5, 20.5), 180.0, False, None, 2)}
    rolls = (BrickRollShown("blue", 3, 2, "attack/damage"), BrickRollShown("red", 1, 0, "dodge/armor"))
    steps = (
        Step(RoundStarted(1), 1, None, START, START, "Round 1"),
        Step(RollsShown((BrickRollShown("blue", 6, 2, "starting player"),)), 1, None, START, START),
        Step(Moved("blue-1", ((5.5, 5.5), (6.5, 6.5), (7.5, 7.5), (8.5, 8.5), (9.5, 8.5))), 1, "blue", START, moved),
        Step(VehicleMoved("jeep", ((10.0, 25.0), (30.0, 25.0)), (0.0, 20.0)), 1, "blue", moved, moved),
        Step(Attacked("blue-1", "red-1", rolls, 1), 1, "blue", moved, hit, "",
             caption="blue-1 fires its rifle at red-1 (25.0 studs, -1 brick): 3 attack against 1 dodge",
             result="blue-1 on red-1: 2 attack bricks on edge vs 0 dodge: 1 damage"),
        Step(RoundStarted(2), 2, None, hit, hit, "Round 2"),
        Step(Attacked("blue-1", "red-1", rolls, 1), 2, "blue", hit, dead, result="red-1 dies"),
        Step(Died("red-1", "blue-1"), 2, "blue", hit, dead, result="red-1 dies"),
        Step(Narrated("blue-1"), 2, "blue", dead, dead, result="blue-1 grabs the rope"),
        Step(Treated("blue-1", "jeep", (BrickRollShown("blue", 2, 1, "treat/repair"),), 1), 2, "blue", dead, dead,
             result="blue-1 repairs jeep: 1 damage repaired"),
    )
    return Timeline("Test field", START, steps, {"blue": SideStyle("Blue army", (0.1, 0.3, 0.7)),
                                                 "red": SideStyle("Red army", (0.7, 0.0, 0.0))},
                    {"blue-1": "blue", "jeep": "blue", "red-1": "red"}, frozenset({"jeep"}),
                    {"blue-1": "blue-1 (rifleman)", "red-1": "red-1 (rifleman)", "jeep": "jeep (jeep)"})


def test_each_beat_gets_its_shot():
    film = direct(story(), BOUNDS)
    assert [s.kind for s in film.shots] == ["establishing", "rolls", "tracking", "tracking", "over_the_shoulder",
                                            "establishing", "over_the_shoulder", "close_up", "glance", "two_shot"]
    assert film.shots[0].start_s == 0.0
    for a, b in zip(film.shots, film.shots[1:]):
        assert b.start_s == pytest.approx(a.end_s)
    assert film.frame_count(30) == round(film.duration_s * 30)


def test_same_timeline_same_shots_and_frames():
    a, b = direct(story(), BOUNDS), direct(story(), BOUNDS)
    assert a.shots == b.shots
    for t in np.linspace(0.0, a.duration_s, 41):
        assert a.frame(float(t)) == b.frame(float(t))


def test_frame_does_not_depend_on_what_was_asked_before():
    film = direct(story(), BOUNDS)
    times = np.linspace(0.0, film.duration_s, 23)
    forward = [film.frame(float(t)) for t in times]
    fresh = direct(story(), BOUNDS)
    backward = [fresh.frame(float(t)) for t in times[::-1]][::-1]
    assert forward == backward


def test_round_titles_and_establishing_orbit():
    film = direct(story(), BOUNDS)
    shot = film.shots[5]
    early, late = film.frame(shot.start_s + 0.6), film.frame(shot.end_s - 0.6)
    assert any(t.role == "round" and t.text == "Round 2" for t in early.titles)
    assert early.camera.target == late.camera.target  # an orbit round the battlefield's centre
    assert early.camera.position != late.camera.position
    centre = (BOUNDS[0] + BOUNDS[1]) / 2
    assert np.allclose(early.camera.target[:2], centre[:2])


def test_over_the_shoulder_looks_from_behind_the_firer_and_shows_shot_and_rolls():
    film = direct(story(), BOUNDS)
    shot = film.shots[4]
    timeline = film.timeline
    firer = film.world(timeline.steps[4].before["blue-1"].position)
    target = film.world(timeline.steps[4].before["red-1"].position)
    frames = [film.frame(t) for t in np.linspace(shot.start_s, shot.end_s - 1e-6, 50)]
    camera = np.array(frames[0].camera.position)
    assert np.linalg.norm(camera[:2] - firer[:2]) < np.linalg.norm(camera[:2] - target[:2])
    assert np.linalg.norm(camera[:2] - target[:2]) > np.linalg.norm(firer[:2] - target[:2])  # behind the firer
    assert any(f.tracer is not None for f in frames)
    assert any(f.roll is not None and f.roll.rolls[0].edges == 2 for f in frames)
    assert frames[-1].titles[-1].role == "result"
    assert frames[-1].titles[-1].text == "blue-1 on red-1: 2 attack bricks on edge vs 0 dodge: 1 damage"
    assert any(t.role == "caption" and t.text.startswith("blue-1 fires its rifle at red-1 (25.0 studs")
               for t in frames[10].titles)  # the rules' announcement first, with range and penalty
    assert frames[0].poses["red-1"].damage == 0 and frames[-1].poses["red-1"].damage == 1  # damage shown once rolled


def test_tracking_shot_walks_the_path():
    film = direct(story(), BOUNDS)
    shot = film.shots[2]
    first, last = film.frame(shot.start_s), film.frame(shot.end_s - 1e-6)
    assert first.poses["blue-1"].position == (5.5, 5.5)
    assert last.poses["blue-1"].position == pytest.approx((9.5, 8.5))
    middle = film.frame(shot.start_s + shot.duration_s / 2).poses["blue-1"].position
    assert 5.5 < middle[0] < 9.5
    assert first.highlight == "blue-1"
    vehicle = film.frame(film.shots[3].end_s - 1e-6)
    assert vehicle.poses["jeep"].position == pytest.approx((30.0, 25.0))
    assert vehicle.poses["jeep"].facing_deg == pytest.approx(20.0)


def test_treat_two_shot_frames_both_and_shows_the_roll():
    film = direct(story(), BOUNDS)
    shot = film.shots[-1]
    end = film.frame(shot.end_s - 1e-6)
    before = film.timeline.steps[shot.step].before
    medic, jeep = film.world(before["blue-1"].position), film.world(before["jeep"].position)
    middle = (medic[:2] + jeep[:2]) / 2
    assert np.linalg.norm(np.array(end.camera.target[:2]) - middle) < 1.0
    assert end.roll is not None and end.roll.rolls[0].purpose == "treat/repair"
    assert any(t.role == "result" and "repaired" in t.text for t in end.titles)


def test_close_up_when_a_unit_dies():
    film = direct(story(), BOUNDS)
    shot = film.shots[7]
    start, end = film.frame(shot.start_s), film.frame(shot.end_s - 1e-6)
    assert start.falling["red-1"] == 0.0 and end.falling["red-1"] == 1.0
    dead = np.array(film.world(START["red-1"].position))
    assert np.linalg.norm(np.array(end.camera.position) - dead) < 260.0  # close
    assert any("red-1" in t.text for t in end.titles)


def test_film_length_is_capped_and_idle_beats_are_quick():
    base = story()
    steps = base.steps * 12 + tuple(Step(Narrated("blue-1"), 3, "blue", START, START, "waits") for _ in range(20))
    long = Timeline(base.scene_name, base.start, steps, base.sides, base.unit_sides, base.vehicles, base.labels)
    film = direct(long, BOUNDS, max_seconds=60.0)
    assert film.duration_s <= 60.0 + 1e-6
    assert min(s.duration_s for s in film.shots) >= HARD_MIN_SHOT_S - 1e-9
    idle = [s.duration_s for s in direct(long, BOUNDS, max_seconds=1e9).shots[-20:]]
    assert sum(idle) <= max(2.0, 20 * HARD_MIN_SHOT_S) + 1e-6 < 20 * 0.9
    short = direct(story(), BOUNDS, max_seconds=12.0)
    assert short.duration_s <= 12.0 + 1e-6 and min(s.duration_s for s in short.shots) >= 0.6 - 1e-9


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 12), st.integers(0, 12)), min_size=1, max_size=3), st.integers(0, 2**31))
def test_s2_1_exactly_the_recorded_bricks_land_on_edge(rolls, seed):
    """BOW 1.3 §2.1: the roll shows the recorded number of bricks on their edge, the others flat."""
    shown = tuple(BrickRollShown("blue", n, min(e, n)) for n, e in rolls)
    which, on_edge = landing(shown, seed)
    for k, roll in enumerate(shown):
        assert on_edge[which == k].sum() == min(roll.edges, 10)
    poses = brick_poses(shown, 30.0, seed)
    assert poses.settled.all()
    assert np.allclose(poses.hpr[:, 1], np.where(poses.on_edge, 90.0, 0.0))
    assert np.allclose(poses.centres[:, 2], np.where(poses.on_edge, 20.0, 12.0))


SCENE = """\
format: bow3d-scene/1
name: Skirmish
battlefield: field.ldr
sides:
  - {id: blue, name: Blue army, colour: 1}
  - {id: red, name: Red army, colour: 4}
sheets:
  rifleman: {kind: minifig, action_budget: 2, move: 5, attack: 2, dodge: 0, hp: 1,
             weapons: [{name: rifle, kind: ranged, damage: 2}]}
units:
  - {id: blue-1, side: blue, sheet: rifleman, model: fig.ldr, position: [4.5, 4.5], facing: 0}
  - {id: blue-2, side: blue, sheet: rifleman, model: fig.ldr, position: [4.5, 8.5], facing: 0}
  - {id: red-1, side: red, sheet: rifleman, model: fig.ldr, position: [20.5, 4.5], facing: 180}
  - {id: red-2, side: red, sheet: rifleman, model: fig.ldr, position: [20.5, 8.5], facing: 180}
"""


def test_timeline_rebuilt_through_the_rules(tmp_path):
    """A game played by the AI, replayed record by record: the beats follow what the rules decided."""
    import json

    from bow3d.replay import ReplayWriter, open_replay
    from bow3d.replay.session import play_game
    from bow3d.rules.flat import FlatGeometry
    from bow3d.rulesets import load_scene
    from tests.replay.conftest import FIGURE

    (tmp_path / "field.ldr").write_text("0 field\n")
    (tmp_path / "fig.ldr").write_text(FIGURE)
    (tmp_path / "s.yaml").write_text(SCENE)
    scene = load_scene(tmp_path / "s.yaml")
    with ReplayWriter(tmp_path / "game.bowreplay", scene, 5, {"blue": "ai", "red": "ai"}, max_rounds=6) as writer:
        result = play_game(scene, FlatGeometry.from_scene(scene), None, seed=5, max_rounds=6, writer=writer)
    opened = open_replay(tmp_path / "game.bowreplay")
    records = [entry.record for entry in opened.entries]
    timeline = timeline_from_replay(opened, FlatGeometry.from_scene(scene))
    game = opened.start(FlatGeometry.from_scene(scene))
    for record in records:
        game.apply(game.parse(record))
    kinds = Counter(type(s.beat).__name__ for s in timeline.steps)
    assert kinds["RoundStarted"] == game.state.round == result.rounds
    assert kinds["Attacked"] == sum(r["type"] == "attack" for r in records)
    assert kinds["Moved"] == sum(r["type"] == "move" for r in records)
    dead = {u.id for u in game.state.units.values() if not u.alive}
    assert {s.beat.unit for s in timeline.steps if isinstance(s.beat, Died)} == dead
    for step in timeline.steps:
        if isinstance(step.beat, Attacked):  # the rolls shown are the recorded ones, attacker first
            assert step.beat.rolls and step.beat.rolls[0].side == timeline.unit_sides[step.beat.firer]
        if isinstance(step.beat, Moved):
            assert step.beat.path[-1] == step.after[step.beat.unit].position
            legs = np.diff(np.asarray(step.beat.path), axis=0)
            assert np.abs(legs).max() <= 1.0 + 1e-9 or len(step.beat.path) == 2  # stud by stud
    film = direct(timeline, BOUNDS)
    assert 0 < film.duration_s <= 90.0
    assert math.isfinite(film.frame(film.duration_s / 2).camera.position[0])
    lines = (tmp_path / "game.bowreplay").read_text().splitlines()
    entries = [json.loads(line) for line in lines[1:5] + lines[6:-1]]  # a brick roll lost, renumbered
    for n, entry in enumerate(entries, start=1):
        entry["n"] = n
    (tmp_path / "broken.bowreplay").write_text("\n".join([lines[0], *map(json.dumps, entries)]) + "\n")
    with pytest.raises(ReplayError, match=r"entry 5 \("):  # the next record is refused, and named
        timeline_from_replay(open_replay(tmp_path / "broken.bowreplay"), FlatGeometry.from_scene(scene))


def test_units_aboard_are_filmed_from_their_vehicle():
    """A unit aboard a vehicle has no position of its own: its shots use the vehicle's, never NaN."""
    nan = (math.nan, math.nan)
    poses = {**START, "blue-1": Pose(nan, 0.0, True, "jeep")}
    dead = {**poses, "red-1": Pose((30.5, 20.5), 180.0, False, None, 1)}
    rolls = (BrickRollShown("blue", 3, 2, "attack/damage"),)
    base = story()
    steps = (Step(Attacked("blue-1", "red-1", rolls, 1), 1, "blue", poses, dead, "red-1 dies"),
             Step(Died("red-1", "blue-1"), 1, "blue", poses, dead, "red-1 dies"),
             Step(Died("blue-1", "red-1"), 1, "red", poses, {**poses, "blue-1": Pose(nan, 0.0, False, "jeep")}))
    film = direct(Timeline("t", poses, steps, base.sides, base.unit_sides, base.vehicles, base.labels), BOUNDS)
    jeep = film.world(START["jeep"].position)
    for t in np.linspace(0.0, film.duration_s - 1e-6, 30):
        spec = film.frame(float(t))
        assert np.isfinite(spec.camera.position).all() and np.isfinite(spec.camera.target).all()
    tracer = next(f.tracer for f in (film.frame(t) for t in np.linspace(0, film.shots[0].end_s, 40)) if f.tracer)
    assert np.allclose(tracer.start[:2], jeep[:2])
    assert np.linalg.norm(np.array(film.frame(film.shots[2].start_s).camera.target)[:2] - jeep[:2]) < 1e-6


def test_a_finished_game_ends_on_the_winner():
    from dataclasses import replace

    base = story()
    film = direct(replace(base, winner="blue", finished=True), BOUNDS)
    last = film.shots[-1]
    assert last.kind == "finale" and [s.kind for s in film.shots[:-1]] == [s.kind for s in direct(base, BOUNDS).shots]
    titles = film.frame(last.end_s - 0.5).titles
    assert any(t.role == "round" and t.text == "Blue army wins" for t in titles)
    assert film.frame_count(30) == round(film.duration_s * 30)
    long = replace(base, steps=base.steps * 10, winner="blue", finished=True)
    assert direct(long, BOUNDS, max_seconds=40.0).duration_s <= 40.0 + 1e-6


def test_frames_show_the_doors_as_the_rules_left_them():
    """BOW §2.3.3: a door opened during the game is open in the frames of the beats after it."""
    steps = (Step(RoundStarted(1), 1, None, START, START, "Round 1", {"gate": False}),
             Step(Narrated("blue-1"), 1, "blue", START, START, "blue-1 opens gate", {"gate": True}))
    timeline = Timeline("doors", START, steps, start_doors={"gate": False})
    film = direct(timeline, BOUNDS)
    assert film.frame(0.0).doors == {"gate": False}
    assert film.frame(film.duration_s - 0.01).doors == {"gate": True}


def test_the_opening_caption_says_when_a_packs_own_parts_decided_the_world():
    """Issue 32: a pack with parts of its own says so in the film, under the scene's name on the first shot."""
    from dataclasses import replace

    plain = direct(story(), BOUNDS).frame(1.0)
    assert [t.text for t in plain.titles if t.role == "caption"] == ["Test field"]
    noted = direct(replace(story(), parts_note="on the pack's own LDraw parts, not checked"), BOUNDS).frame(1.0)
    assert [t.text for t in noted.titles if t.role == "caption"] == [
        "Test field\non the pack's own LDraw parts, not checked"]
