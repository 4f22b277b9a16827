"""Blaze of Glory through the engine: seeded playouts whose events fit the documented schema (kept in a
snapshot), words for every kind, a replay written by a Session that `verify_replay` accepts, taking
records back, the scene schema's refusals, and the ruleset registered."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bow3d.errors import SceneError
from bow3d.replay import ReplayWriter, Session, verify_replay
from bow3d.rules import Game
from bow3d.rulesets import RULESETS, load_scene, parse_scene
from bow3d.rulesets.blaze_of_glory import RULESET, BlazeScene, narrator as words
from bow3d.rulesets.blaze_of_glory.book import SKILLS, WEAPON_NAMES
from bow3d.rulesets.blaze_of_glory.events import SCHEMA
from bow3d.rulesets.blaze_of_glory.sheets import SkillName, WeaponName
from tests.rulesets.blaze_of_glory.helpers import scene_text
from tests.rulesets.blaze_of_glory.table import Block, Table

SNAPSHOT = Path(__file__).resolve().parents[2] / "data" / "rulesets" / "blaze-of-glory-events.schema.json"
TOWN = Path(__file__).resolve().parents[3] / "scenes" / "western-town.yaml"
SHEETS = {
    "marshal": {"level": 4, "shoot": 6, "fisticuffs": 4, "reflexes": 5, "nerve": 5, "weapons": ["pistol", "pistol"],
                "skills": ["quick draw", "true grit", "dead eye"]},
    "deputy": {"level": 2, "shoot": 4, "fisticuffs": 3, "reflexes": 4, "nerve": 4, "weapons": ["rifle", "knife"],
               "skills": ["sharpshooter"]},
    "boss": {"level": 3, "shoot": 5, "fisticuffs": 4, "reflexes": 4, "nerve": 4, "weapons": ["shotgun", "pistol"],
             "skills": ["dodge and weave", "nimble"]},
    "bro": {"level": 2, "shoot": 3, "fisticuffs": 5, "reflexes": 3, "nerve": 3, "weapons": ["pistol", "club"],
            "skills": ["blood brother"]},
    "mook": {"level": 1, "shoot": 3, "fisticuffs": 3, "reflexes": 3, "nerve": 3, "weapons": ["pistol"]},
}
UNITS = [("marshal", "law", "marshal", (10, 10)), ("deputy", "law", "deputy", (12, 30)),
         ("citizen", "law", "mook", (20, 20)), ("bart", "outlaws", "boss", (50, 15)),
         ("kid", "outlaws", "bro", (55, 25)), ("o1", "outlaws", "mook", (55, 10))]
BLOCKS = [Block(30, 8, 32, 14, 48.0), Block(40, 18, 42, 24, 48.0), Block(24, 28, 34, 38, 152.0)]


@pytest.fixture
def table_scene(tmp_path):
    (tmp_path / "table.ldr").write_text("0 table\n")
    (tmp_path / "fig.ldr").write_text("0 figure\n")
    path = tmp_path / "duel.yaml"
    path.write_text(scene_text(UNITS, SHEETS, {"blood_brothers": {"kid": "bart"}}))
    return path


def table_of(scene):
    return Table.from_scene(scene, blocks=list(BLOCKS))


def test_registered_and_read_with_its_schema(table_scene):
    assert RULESETS.get("blaze-of-glory") is RULESET
    scene = load_scene(table_scene)
    assert isinstance(scene, BlazeScene) and scene.ruleset.blood_brothers == {"kid": "bart"}
    assert set(WeaponName.__args__) == set(WEAPON_NAMES) and set(SkillName.__args__) == set(SKILLS)


@pytest.mark.parametrize("change,problem", [
    (("weapons: [pistol]", "weapons: [pistol], damage: 2"), "damage"),              # a BOW field: refused
    (("baddies: outlaws", "baddies: posse"), "not a side"),
    (("{kid: bart}", "{kid: marshal}"), "not a friend"),
    (("weapons: [pistol, club], skills: [blood brother]", "weapons: [pistol, club]"), "no Blood Brother skill"),
])
def test_scene_refusals_name_the_field(table_scene, change, problem):
    text = table_scene.read_text().replace(*change)
    with pytest.raises(SceneError, match=problem):
        parse_scene(text)


def test_seeded_playouts_fit_the_schema_and_end(table_scene):
    scene = load_scene(table_scene)
    kinds = set()
    for seed in range(12):
        session = Session.start(scene, table_of(scene), seed=seed, max_rounds=8)
        session.advance()
        game = session.game
        assert game.is_over, seed
        for event in game.events:
            record = json.loads(json.dumps(event.to_record()))
            assert SCHEMA.check(record) is None, (SCHEMA.check(record), record)
            kinds.add(event.kind)
    assert {"round_started", "card_turned", "moved", "shots", "attack", "attack_result", "wound_roll", "down",
            "test", "rolled", "decided", "game_over"} <= kinds


def test_the_schema_is_kept_in_a_snapshot():
    """Rewrite with `python -c "from bow3d.rulesets.blaze_of_glory.events import SCHEMA; import json;
    print(json.dumps(SCHEMA.as_dict(), indent=2))" > tests/data/rulesets/blaze-of-glory-events.schema.json`
    when the change is deliberate."""
    assert json.loads(SNAPSHOT.read_text()) == SCHEMA.as_dict()


def test_every_kind_has_words_of_the_book():
    for kind in SCHEMA.kinds:
        assert kind in words.LINES or kind == "attack_result", kind


def test_a_session_replay_verifies_and_a_forged_die_is_named(table_scene, tmp_path):
    scene = load_scene(table_scene)
    out = tmp_path / "duel.bowreplay"
    with ReplayWriter(out, scene, 5, {"law": "ai", "outlaws": "ai"}, max_rounds=8) as writer:
        session = Session.start(scene, table_of(scene), seed=5, writer=writer, max_rounds=8)
        session.advance()
    result = verify_replay(out, geometry_factory=table_of)
    assert result.ok and result.complete and result.chance_checked and result.winner == session.game.winner
    lines = out.read_text().splitlines()
    n = next(i for i, line in enumerate(lines) if '"purpose":"shoot"' in line and '"record":{"type":"roll"' in line)
    entry = json.loads(lines[n])
    entry["record"]["outcome"] = [face % 6 + 1 for face in entry["record"]["outcome"]]
    lines[n] = json.dumps(entry, separators=(",", ":"))
    out.write_text("\n".join(lines) + "\n")
    forged = verify_replay(out, geometry_factory=table_of)
    assert not forged.ok and forged.entry == n


def test_taking_records_back_restores_the_state_and_the_table(table_scene):
    scene = load_scene(table_scene)
    table = table_of(scene)
    session = Session.start(scene, table, seed=3, max_rounds=8)
    for _ in range(60):
        session.step()
    game = session.game
    records = list(game.records)
    final = {f.id: (f.position, f.status, f.hero) for f in game.state.figures.values()}
    assert final != {u.id: ((float(u.position[0]), float(u.position[1])), "standing", None) for u in scene.units}
    while len(game.records) > 1:
        game.pop()
    start = {f.id: f.position for f in game.state.figures.values()}
    assert start == {u.id: tuple(float(v) for v in u.position) for u in scene.units}
    assert dict(table.positions) == start                      # the table put back as well
    again = Game.from_records(scene, table_of(scene), records)
    assert {f.id: (f.position, f.status, f.hero) for f in again.state.figures.values()} == final


def test_the_bundled_town_plays_and_verifies_on_the_real_world(tmp_path):
    """A whole game of the bundled town on the 3D world (the bundled starter library), replayed and verified."""
    from bow3d.ldraw import BUNDLED_LIBRARY, Library
    from bow3d.replay.format import sight_method
    from bow3d.world import World

    scene = load_scene(TOWN)
    world = World.from_scene(scene, Library([BUNDLED_LIBRARY]))
    out = tmp_path / "town.bowreplay"
    with ReplayWriter(out, scene, 2, {"law": "ai", "outlaws": "ai"}, max_rounds=30, library="bundled",
                      sight=sight_method(world)) as writer:
        session = Session.start(scene, world, seed=2, writer=writer)
        session.advance()
    assert session.game.is_over
    for event in session.game.events:
        assert SCHEMA.check(json.loads(json.dumps(event.to_record()))) is None
    result = verify_replay(out, geometry=World.from_scene(scene, Library([BUNDLED_LIBRARY])))
    assert result.ok, result.first_divergence


def test_hero_points_the_log_says_each_choice_in_the_book_s_words(capsys):
    """Hero Points: the battle log says who spends one and for what, not the engine's 'outlaws decides
    (hero point): True', and the question itself (decision_requested) stays out of the log."""
    from bow3d.cli import main

    replay = Path(__file__).resolve().parents[3] / "replays" / "western-town-seed1.bowreplay"
    assert main(["replay", "show", str(replay)]) == 0
    log = capsys.readouterr().out
    assert "decides (" not in log
    assert "will spend a HERO POINT" in log or "keeps his Hero Point" in log
