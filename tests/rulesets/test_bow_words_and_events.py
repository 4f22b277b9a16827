"""BOW's events are typed facts with a documented schema; its words are the narrator's alone.

Rewording a narrator line changes no byte of a replay and breaks no verification (the words are
not in the file); every event of random playouts fits the documented schema; the schema itself is
kept in a snapshot, so a change to it is deliberate (a new replay version and an upgrade).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from bow3d.replay import ReplayWriter, play_game, verify_replay
from bow3d.rules import Game
from bow3d.rulesets import BOW, load_scene
from bow3d.rulesets.bow import narrator as bow_narrator
from bow3d.rulesets.bow.events import SCHEMA
from tests.replay.v1_fields import flat_field

ROOT = Path(__file__).resolve().parents[2]
V1 = ROOT / "tests" / "data" / "replay" / "v1"
SNAPSHOT = ROOT / "tests" / "data" / "rulesets" / "bow-events.schema.json"


def _write(path: Path, seed: int) -> None:
    scene = load_scene(V1 / "field-vehicles.yaml")
    with ReplayWriter(path, scene, seed, {"blue": "ai", "red": "ai"}, max_rounds=4) as writer:
        play_game(scene, flat_field(scene), None, seed, writer=writer, max_rounds=4)


def _without_time(path: Path) -> list[str]:
    return [re.sub(r'"created":"[^"]*"', '"created":""', line) for line in path.read_text().splitlines()]


def test_rewording_every_narrator_line_changes_no_replay_byte_and_breaks_no_verify(tmp_path, monkeypatch):
    _write(tmp_path / "before.bowreplay", 11)
    reworded = {kind: (lambda e, kind=kind: f"something else entirely about {kind}") for kind in bow_narrator.LINES}
    monkeypatch.setattr(bow_narrator, "LINES", reworded)
    monkeypatch.setattr(bow_narrator, "_attack_result", lambda e, following: "reworded too")
    assert BOW.narrator().line(Game.start(load_scene(V1 / "field-vehicles.yaml"),
                                          flat_field(load_scene(V1 / "field-vehicles.yaml"))).events[0]) \
        == "something else entirely about game_started"
    _write(tmp_path / "after.bowreplay", 11)
    assert _without_time(tmp_path / "after.bowreplay") == _without_time(tmp_path / "before.bowreplay")
    for name in ("before", "after"):
        result = verify_replay(tmp_path / f"{name}.bowreplay", geometry_factory=flat_field,
                               scene=V1 / "field-vehicles.yaml")
        assert result.ok, result.first_divergence


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_every_event_of_random_playouts_fits_the_schema(seed):
    """Random legal play on the vehicle field (disputes, crashes, treatments, boarding...)."""
    scene = load_scene(V1 / "field-vehicles.yaml")
    game = Game.start(scene, flat_field(scene), max_rounds=5)
    rng = np.random.default_rng(seed)
    for _ in range(600):
        if game.is_over:
            break
        request = game.pending
        if request is not None:
            game.apply(request.answer(request.spec.sample(rng.random)))
        else:
            legal = game.legal_actions()
            game.apply(legal[int(rng.integers(len(legal)))])
    kinds = set()
    for event in game.events:
        record = json.loads(json.dumps(event.to_record()))
        assert SCHEMA.check(record) is None, (SCHEMA.check(record), record)
        kinds.add(event.kind)
    assert {"moved", "attack", "rolled"} <= kinds


def test_the_schema_is_kept_in_a_snapshot():
    """Rewrite with `python -c "from bow3d.rulesets.bow.events import SCHEMA; import json;
    print(json.dumps(SCHEMA.as_dict(), indent=2))" > tests/data/rulesets/bow-events.schema.json`
    when the change is deliberate."""
    assert json.loads(SNAPSHOT.read_text()) == SCHEMA.as_dict()


def test_every_kind_has_words():
    """The narrator has a line for every documented kind (no event is shown as its raw kind)."""
    for kind in SCHEMA.kinds:
        assert kind in bow_narrator.LINES or kind == "attack_result", kind


def test_one_damage_point_is_said_in_the_singular():
    """§2.4.4 treatment against 1 damage point: 'against 1 damage point' in the battle log and in `bow3d odds`
    (they said 'against 1 damage points'), in French 'contre 1 point de dommage'."""
    from bow3d.rules.events import Event
    from bow3d.rulesets.bow.narrator import BowNarrator
    from bow3d.rulesets.bow.odds import odds_lines, treat_odds

    def treat(points):
        return Event("treat", 2, {"unit": "m", "target": "t", "repair": False, "treat_bricks": 2,
                                  "resist_bricks": points})

    assert BowNarrator("en").line(treat(1)).endswith("against 1 damage point")
    assert BowNarrator("en").line(treat(2)).endswith("against 2 damage points")
    assert BowNarrator("fr").line(treat(1)).endswith("contre 1 point de dommage")
    assert odds_lines("treat", treat_odds(2, 1, 0.262), [])[0].startswith("treat 2 bricks against 1 damage point (")
