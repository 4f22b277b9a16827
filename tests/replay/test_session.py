"""Seeded games written, read and verified by re-simulation (bow3d.replay.session / verify)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from bow3d.errors import ReplayError
from bow3d.replay.dice import SeededDice
from bow3d.replay.format import ReplayWriter, read_replay
from bow3d.replay.session import play_game
from bow3d.replay.verify import verify_replay
from bow3d.rules.flat import FlatGeometry
from bow3d.rulesets import load_scene
from tests.replay.conftest import write_scene

FIELD = dict(width=32, depth=14)
MAX_ROUNDS = 6


def flat(scene):
    return FlatGeometry.from_scene(scene, **FIELD)


def record_game(scene_path: Path, seed: int, out: Path, max_rounds: int = MAX_ROUNDS):
    scene = load_scene(scene_path)
    players = {side.id: "ai" for side in scene.sides}
    with ReplayWriter(out, scene, seed, players, max_rounds=max_rounds) as writer:
        result = play_game(scene, flat(scene), None, seed, writer=writer, max_rounds=max_rounds)
    return result


def rewrite(path: Path, change) -> None:
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    change(lines)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("game")
    scene_path = write_scene(folder / "scenes")
    out = folder / "replays" / "game.bowreplay"
    out.parent.mkdir()
    result = record_game(scene_path, 5, out)
    return scene_path, out, result


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31 - 1))
def test_seeded_games_write_read_verify_round_trip(tmp_path_factory, seed):
    """Property: any seeded AI game, written as it is played, reads back whole and re-simulates
    to the very same events without an RNG; the same seed plays the same game."""
    folder = tmp_path_factory.mktemp("rt")
    scene_path = write_scene(folder)
    result = record_game(scene_path, seed, folder / "a.bowreplay")
    replay = read_replay(folder / "a.bowreplay")
    assert not replay.truncated and len(replay.entries) == result.records
    assert replay.header.seed == seed and replay.header.max_rounds == MAX_ROUNDS
    verdict = verify_replay(folder / "a.bowreplay", geometry_factory=flat)
    assert verdict.ok, verdict.first_divergence
    assert verdict.entries == result.records and verdict.winner == result.winner
    record_game(scene_path, seed, folder / "b.bowreplay")
    again = read_replay(folder / "b.bowreplay")
    assert [e.record for e in again.entries] == [e.record for e in replay.entries]


def test_game_ends_and_records_every_roll(recorded):
    _, out, result = recorded
    replay = read_replay(out)
    assert result.ended in ("win", "points", "draw") and result.rounds <= MAX_ROUNDS
    types = [e.record["type"] for e in replay.entries]
    assert types[:2] == ["roll", "roll"]  # BOW §2.2: the starting-player rolls come first
    assert "end_turn" in types and "move" in types
    assert any(event["type"] == "game_over" for event in replay.entries[-1].events)


def test_verify_reports_first_divergence(recorded, tmp_path):
    scene_path, out, _ = recorded
    copy = tmp_path / "copy.bowreplay"
    copy.write_text(out.read_text().replace("../scenes/", str(scene_path.parent) + "/"))
    rewrite(copy, lambda lines: lines[5]["events"][0].update(round=99))
    verdict = verify_replay(copy, geometry_factory=flat)
    assert not verdict.ok and verdict.kind == "divergence" and verdict.entry == 5
    assert "entry 5 (line 6" in verdict.first_divergence and "round: expected 99" in verdict.first_divergence


def test_verify_catches_a_hand_edited_brick_roll(recorded, tmp_path):
    scene_path, out, _ = recorded
    copy = tmp_path / "copy.bowreplay"
    copy.write_text(out.read_text().replace("../scenes/", str(scene_path.parent) + "/"))
    replay = read_replay(copy)
    n = next(e.n for e in replay.entries if e.record["type"] == "roll" and e.record["outcome"] < e.record["spec"]["n"])
    rewrite(copy, lambda lines: lines[n]["record"].update(outcome=lines[n]["record"]["outcome"] + 1))
    verdict = verify_replay(copy, geometry_factory=flat)
    assert not verdict.ok and verdict.entry == n and verdict.kind == "chance"


def test_verify_reports_an_illegal_record_with_the_rules_reason(recorded, tmp_path):
    scene_path, out, _ = recorded
    copy = tmp_path / "copy.bowreplay"
    copy.write_text(out.read_text().replace("../scenes/", str(scene_path.parent) + "/"))
    replay = read_replay(copy)
    n = next(e.n for e in replay.entries if e.record["type"] == "move")
    rewrite(copy, lambda lines: lines[n]["record"].update(to=[31, 13]))  # far beyond Move 5
    verdict = verify_replay(copy, geometry_factory=flat)
    assert not verdict.ok and verdict.kind == "illegal" and verdict.entry == n
    assert f"entry {n}" in verdict.first_divergence and "illegal record" in verdict.first_divergence
    assert "out_of_reach" in verdict.first_divergence and "\n" not in verdict.first_divergence


def test_verify_refuses_a_replay_of_another_scene(recorded, tmp_path):
    scene_path, out, _ = recorded
    other = write_scene(tmp_path / "scenes")
    other.write_text(other.read_text().replace("position: [26.5, 8.5]", "position: [25.5, 8.5]"))
    copy = tmp_path / "replays" / "copy.bowreplay"
    copy.parent.mkdir()
    copy.write_bytes(out.read_bytes())  # names ../scenes/skirmish.yaml, now the edited one
    with pytest.raises(ReplayError, match="another scene"):
        verify_replay(copy, geometry_factory=flat)
    (tmp_path / "scenes" / "skirmish.yaml").unlink()
    with pytest.raises(ReplayError, match="not found"):
        verify_replay(copy, geometry_factory=flat)


def test_truncated_replay_verifies_what_is_kept(recorded, tmp_path):
    scene_path, out, result = recorded
    copy = tmp_path / "copy.bowreplay"
    data = out.read_text().replace("../scenes/", str(scene_path.parent) + "/").encode()
    copy.write_bytes(data[:data.rindex(b'{"end"')][:-20])  # the end record gone, the last entry cut short
    verdict = verify_replay(copy, geometry_factory=flat)
    assert verdict.ok and verdict.truncated and verdict.entries == result.records - 1
    assert "cut short" in verdict.truncation


def test_writer_and_game_agree_on_the_round_limit(scene_path, tmp_path):
    scene = load_scene(scene_path)
    with (ReplayWriter(tmp_path / "x.bowreplay", scene, 1, {"blue": "ai", "red": "ai"}, max_rounds=3) as writer,
          pytest.raises(ValueError, match="max_rounds")):
        play_game(scene, flat(scene), None, 1, writer=writer, max_rounds=4)


def test_s2_1_brick_roll_counts_bricks_on_edge():
    """BOW 1.3 §2.1: each 2x2 brick lands on its edge with probability p; the result counts them."""
    from bow3d.rulesets.bow import Bricks, RollRequest

    dice = SeededDice(0)
    rolls = np.array([dice.throw(RollRequest("blue", 6, "attack")) for _ in range(4000)])
    assert rolls.min() >= 0 and rolls.max() <= 6
    assert abs(rolls.mean() - 6 * 0.262) < 0.05
    assert Bricks(0).fixed() == 0  # nothing to throw: 0 at once, no draw
    same = RollRequest("blue", 5, "attack", 0.5)
    assert SeededDice(3).throw(same) == SeededDice(3).throw(same)


def test_a_human_callback_plays_one_side_and_the_replay_verifies(scene_path, tmp_path):
    """The play UI's way in: a callable (game) -> action for a side, the AI for the other."""
    from bow3d.replay.session import ai_players

    scene = load_scene(scene_path)
    seen = []

    def human(game):
        seen.append(game.state.side_to_play)
        return game.legal_actions()[-1]

    players = {"blue": human, "red": ai_players(scene, 4)["red"]}
    out = tmp_path / "human.bowreplay"
    with ReplayWriter(out, scene, 4, {"blue": "human", "red": "ai"}, max_rounds=3) as writer:
        result = play_game(scene, flat(scene), players, 4, writer=writer, max_rounds=3)
    assert seen and set(seen) == {"blue"} and result.records == len(read_replay(out).entries)
    assert read_replay(out).header.players == {"blue": "human", "red": "ai"}
    assert verify_replay(out, geometry_factory=flat).ok


def test_record_limit_stops_a_game_that_would_not_end(scene_path):
    scene = load_scene(scene_path)
    result = play_game(scene, flat(scene), None, 2, max_records=25)
    assert result.ended == "record limit" and result.records == 25 and result.winner is None


def test_missing_player_refused(scene_path):
    scene = load_scene(scene_path)
    with pytest.raises(ValueError, match="no player for side"):
        play_game(scene, flat(scene), {"blue": lambda game: None}, 1)


VEHICLE_SCENE_EXTRA = """\
  jeep: {kind: vehicle, speed: 3, dodge: 0, armor: 3, hp: 2, seats: 2,
         weapons: [{name: machine gun, kind: ranged, damage: 3, arc: 180}]}
"""


class RandomPlayer:
    """Any legal action, uniformly (seeded): reaches the corners of the rules the AI avoids."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def choose(self, game):
        actions = game.legal_actions()
        return actions[int(self.rng.integers(len(actions)))]


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6))
def test_random_legal_play_round_trips(tmp_path_factory, seed):
    """Property: games of random legal actions (vehicles, boarding, throws...) written, read and
    re-simulated give the same events, whatever the actions were."""
    from tests.replay.conftest import SCENE

    text = SCENE.replace("units:\n", VEHICLE_SCENE_EXTRA + "units:\n")
    text = text.replace("  - {id: blue-2, side: blue, sheet: rifleman, model: fig.ldr, position: [4.5, 8.5], facing: 0}\n",
                        "  - {id: blue-2, side: blue, sheet: rifleman, model: fig.ldr, facing: 0}\n")
    text += ("vehicles:\n  - {id: blue-jeep, side: blue, sheet: jeep, model: fig.ldr, position: [10, 10], "
             "facing: 0, occupants: [blue-2]}\n")
    folder = tmp_path_factory.mktemp("random")
    scene_path = write_scene(folder, text)
    scene = load_scene(scene_path)
    players = {"blue": RandomPlayer(seed), "red": RandomPlayer(seed + 1)}
    out = folder / "random.bowreplay"
    with ReplayWriter(out, scene, seed, {"blue": "human", "red": "human"}, max_rounds=3) as writer:
        result = play_game(scene, flat(scene), players, seed, writer=writer, max_rounds=3)
    verdict = verify_replay(out, geometry_factory=flat)
    assert verdict.ok, verdict.first_divergence
    assert verdict.entries == result.records


def test_verify_reports_a_record_it_does_not_understand(recorded, tmp_path):
    scene_path, out, _ = recorded
    copy = tmp_path / "copy.bowreplay"
    copy.write_text(out.read_text().replace("../scenes/", str(scene_path.parent) + "/"))
    rewrite(copy, lambda lines: lines[3]["record"].update(type="teleport"))
    verdict = verify_replay(copy, geometry_factory=flat)
    assert not verdict.ok and verdict.entry == 3 and "not understood" in verdict.first_divergence
    assert "unknown action type" in verdict.first_divergence
