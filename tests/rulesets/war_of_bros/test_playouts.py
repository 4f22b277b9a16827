"""Seeded random playouts: invariants after every record, every event fits the schema, take-backs restore the
state and the geometry; a Session's replay verified; the schema kept in a snapshot; the battle log's words."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bow3d.replay import ReplayWriter, Session, battle_log, verify_replay
from bow3d.rules import Game
from bow3d.rules.pending import DecisionRequest
from bow3d.rulesets.war_of_bros import plan
from bow3d.rulesets.war_of_bros.events import SCHEMA
from bow3d.rulesets.war_of_bros.narrator import LINES
from tests.rulesets.war_of_bros.field import Box, BoxField
from tests.rulesets.war_of_bros.helpers import SHEETS, scene

ROOT = Path(__file__).resolve().parents[3]
SNAPSHOT = ROOT / "tests" / "data" / "rulesets" / "war-of-bros-events.schema.json"

UNITS = [
    {"id": "b-lt", "side": "blue", "sheet": "lieutenant", "position": [20, 20], "facing": 90},
    {"id": "b-sg", "side": "blue", "sheet": "sergeant", "position": [30, 20], "facing": 90},
    {"id": "b-p1", "side": "blue", "sheet": "private", "position": [40, 20], "facing": 90},
    {"id": "b-c1", "side": "blue", "sheet": "crew"}, {"id": "b-c2", "side": "blue", "sheet": "crew"},
    {"id": "r-lt", "side": "red", "sheet": "lieutenant", "position": [20, 70], "facing": 270},
    {"id": "r-sg", "side": "red", "sheet": "sergeant", "position": [30, 70], "facing": 270},
    {"id": "r-p1", "side": "red", "sheet": "private", "position": [40, 70], "facing": 270},
]
VEHICLES = [{"id": "b-tank", "side": "blue", "sheet": "tank", "position": [60, 15], "facing": 90,
             "occupants": ["b-c1", "b-c2"]}]
DECOR = [Box(25, 35, 40, 41, 0, 48, "stone"), Box(40, 45, 45, 46, 0, 30, "wood"), Box(10, 14, 45, 47, 0, 20, "sand"),
         Box(50, 52, 40, 50, 0, 200, "barricade"), Box(60, 64, 44, 46, 0, 40, "glass")]
SHEETS_X = {**SHEETS, "tank": {"template": "mechanized/private", "weapons": ["Area Weapon", "MR-52 Assault"]}}


def field_scene(mode="domination"):
    return scene(UNITS, VEHICLES, sheets=SHEETS_X, params={"mode": mode, "terrain": [
        {"area": [[30, 50], [45, 50], [45, 60], [30, 60]], "difficulty": 3}]})


def invariants(game: Game) -> None:
    state = game.state
    for unit in state.units.values():
        profile = game.ctx.profile(unit.id)
        assert unit.moved_cm <= profile.movement_cm + 1e-6, unit
        if unit.on_field:
            assert game.geometry.poses[unit.id][0] == pytest.approx(unit.position)
        else:
            assert unit.id not in game.geometry.poses
    ground = [u for u in state.units.values() if u.on_field and not game.ctx.profile(u.id).airborne]
    for i, a in enumerate(ground):            # bases never overlap (a trampled unit under a tank excepted)
        for b in ground[i + 1:]:
            if game.ctx.profile(a.id).mechanized != game.ctx.profile(b.id).mechanized:
                continue
            pa, pb = (game.ctx.corners(u.id, u.position, u.facing) for u in (a, b))
            assert not plan.overlaps(pa, pb, 1e-4), (a.id, b.id)
    assert set(game.geometry.obstacles) == set(state.obstacles)
    if state.first_turn:
        assert not any(e.kind == "attack" for e in game.events)


def random_game(seed: int, mode="domination", records=1500) -> Game:
    scn = field_scene(mode)
    game = Game.start(scn, BoxField.for_scene(scn, DECOR), max_rounds=12)
    rng = np.random.default_rng(seed)
    for _ in range(records):
        if game.is_over:
            break
        request = game.pending
        if isinstance(request, DecisionRequest):
            game.apply(request.answer(request.options[int(rng.integers(len(request.options)))]))
        elif request is not None:
            game.apply(request.answer(request.spec.sample(rng.random)))
        else:
            legal = game.legal_actions()
            attacks = [a for a in legal if type(a).__name__ == "Attack"]
            pool = attacks if attacks and rng.random() < 0.6 else legal
            game.apply(pool[int(rng.integers(len(pool)))])
        invariants(game)
    return game


@pytest.mark.parametrize("seed, mode", [(1, "domination"), (2, "domination"), (3, "capture-the-frag")])
def test_random_playouts_keep_the_invariants_and_every_event_fits_the_schema(seed, mode):
    game = random_game(seed, mode)
    kinds = set()
    for event in game.events:
        record = json.loads(json.dumps(event.to_record()))
        assert SCHEMA.check(record) is None, (SCHEMA.check(record), record)
        kinds.add(event.kind)
    assert {"placed", "moved", "attack", "impact", "attack_result", "rolled"} <= kinds
    narrator = game.ruleset.narrator()
    assert all(narrator.line(e) for e in game.events)


def test_take_backs_restore_state_and_geometry():
    """pop(): the state, the events and the geometry (positions, Bodies, wrecks, destroyed decor) as before."""
    game = random_game(4, records=400)
    for _ in range(150):
        if not game.records:
            break
        game.pop()
        invariants(game)
    again = Game.from_records(game.scene, BoxField.for_scene(game.scene, DECOR), game.records, max_rounds=12)
    assert again.state.units == game.state.units and again.state.obstacles == game.state.obstacles


def test_a_session_replay_verifies_and_is_told_in_the_book_s_words(tmp_path):
    """A Session of the AI against itself (every throw seeded) writes a replay that `verify` re-derives."""
    scn = field_scene()
    (tmp_path / "field.ldr").write_text("0 field\n")
    scene_path = tmp_path / "field.yaml"
    scene_path.write_text(json.dumps(scn.model_dump(mode="json")))
    from bow3d.rulesets import load_scene

    (tmp_path / "fig.ldr").write_text("0 fig\n")
    (tmp_path / "tank.ldr").write_text("0 tank\n")
    loaded = load_scene(scene_path)
    out = tmp_path / "wob.bowreplay"

    def geometry(s):
        return BoxField.for_scene(s, DECOR)
    with ReplayWriter(out, loaded, 5, {"blue": "ai", "red": "ai"}, max_rounds=12) as writer:
        session = Session.start(loaded, geometry(loaded), seed=5, writer=writer, max_rounds=12)
        session.advance()
    assert session.game.is_over
    result = verify_replay(out, geometry_factory=geometry)
    assert result.ok and result.complete and result.chance_checked and result.players_checked == ("blue", "red"), \
        result.first_divergence
    text = battle_log(out).format()
    assert "First Turn:" in text and "Unit Placement:" in text and "The encounter ends:" in text


def test_every_event_kind_has_words():
    kinds = set(SCHEMA.kinds) - {"roll_requested", "decision_requested", "rolled", "decided"}
    assert kinds <= set(LINES)


def test_the_schema_is_kept_in_a_snapshot():
    """Rewrite with `python -c "from bow3d.rulesets.war_of_bros.events import SCHEMA; import json;
    print(json.dumps(SCHEMA.as_dict(), indent=2))" > tests/data/rulesets/war-of-bros-events.schema.json`."""
    assert json.loads(SNAPSHOT.read_text()) == SCHEMA.as_dict()


def test_the_impact_step_s_hidden_share_never_rounds_a_little_to_nothing():
    """Impact Step: the battle log gives the share hidden as the sight verdicts do ('<1%', not '0%', for a
    sliver behind a blocker; '>99%' for all but a sliver): 'not behind cover' is the verdict, not 0."""
    from bow3d.rules.events import Event

    def hidden(share, cover="none"):
        return LINES["impact"](Event("impact", 2, {"unit": "b1", "target": "r1", "airborne": False, "visible": True,
                                                   "cover": cover, "hidden": share, "material": "plant",
                                                   "given_by": "6064.dat"}))

    assert hidden(0.003) == "Impact Step: r1 is not behind cover (<1% hidden)"
    assert "(>99% hidden;" in hidden(0.996, "medium") and "(58% hidden;" in hidden(0.58, "medium")


def test_the_impact_step_s_blocker_names_its_file_and_line_in_the_language_spoken():
    """The event keeps cover.describe's words ('..., war-of-bros.ldr line 60'); the French log says 'ligne'."""
    from bow3d.rules.events import Event
    from bow3d.rulesets.war_of_bros.narrator import WarOfBrosNarrator

    event = Event("impact", 2, {"unit": "b1", "target": "r1", "airborne": False, "visible": True, "cover": "medium",
                                "hidden": 0.58, "material": "plant", "given_by": "6064.dat, Green, war-of-bros.ldr line 60"})
    assert WarOfBrosNarrator("en").line(event).endswith("plant: 6064.dat, Green, war-of-bros.ldr line 60)")
    assert WarOfBrosNarrator("fr").line(event).endswith("6064.dat, Green, war-of-bros.ldr ligne 60)")
