"""Issue 30: the table (bow3d.rules.table) over every registered ruleset, as OpenSpiel's random-simulation test.

An AI game of each ruleset's bundled scene is stepped record by record; at every step the table's view of it
must hold: every legal choice has words in every language the ruleset speaks (no message missing from its
catalogue), a known aim, a preview, and parses back to the action it stands for; the pieces and what is
awaited are JSON-ready plain data; a pending decision's answers are choices. Bounded by count, not time.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest

import bow3d.rulesets  # noqa: F401  (registers the built-in rulesets)
from bow3d import i18n
from bow3d.bundled import scenes_dir
from bow3d.ldraw import Library
from bow3d.replay import Session
from bow3d.replay.session import ai_players
from bow3d.rules import RULESETS, DecisionRequest
from bow3d.rules.table import AIM_KINDS, Table, to_dict
from bow3d.rulesets import load_scene
from bow3d.world import World
from tests.conftest import bundled_scene_of

STEPS = 60  # records of each game looked at


@pytest.fixture(scope="module")
def scenes(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("scenes") / "scenes"
    shutil.copytree(scenes_dir(), folder)
    return folder


@pytest.fixture(scope="module")
def worlds():
    return {}


@pytest.mark.parametrize("name", RULESETS.names())
def test_every_choice_has_words_an_aim_and_a_preview(name, scenes, worlds):
    scene = load_scene(bundled_scene_of(name, scenes))
    if scene.battlefield not in worlds:  # the French village is the village
        worlds[scene.battlefield] = World.from_scene(scene, Library.from_env())
    world = worlds[scene.battlefield]
    ruleset = RULESETS.get(name)
    session = Session.start(scene, world, seed=5, players=ai_players(scene, 5))
    table = Table(session.game, {side.id: "ai" for side in scene.sides})
    decisions = looked = 0
    for _step in range(STEPS):
        if session.game.is_over:
            break
        awaiting = table.awaiting()
        json.dumps(table.to_dict())  # plain data, all of it
        assert json.loads(json.dumps(to_dict(awaiting)))["side"] == awaiting.side
        assert awaiting.round == session.game.state.round and awaiting.side == session.game.side_to_play
        if isinstance(session.game.pending, DecisionRequest):
            decisions += 1
            assert [c.kind for c in awaiting.choices] == ["decide"] * len(session.game.pending.options)
        for choice in awaiting.choices[:40]:
            action = table.action(choice)
            assert ruleset.parse(dict(choice.record)) == action
            assert choice.aim.kind in AIM_KINDS
            assert choice.aim.kind != "unit" or table.piece(choice.aim.target) is not None, choice
            for language in ruleset.languages:
                with i18n.speaking(language), i18n.missing() as missing:
                    words = table.present.words(action, session.game)
                    preview = table.preview(action)
                assert words and preview.words and not missing, (language, choice, missing)
            looked += 1
        events = session.step() or []
        for language in ruleset.languages:  # every event has its words in every language the ruleset speaks
            narrator = ruleset.narrator(language)
            with i18n.missing() as missing:
                lines = [narrator.line(e, events[k + 1:]) for k, e in enumerate(events)]
            assert not missing and all(line is None or line.strip() for line in lines), (language, missing)
    assert looked > 0


@pytest.mark.parametrize("name", RULESETS.names())
def test_the_sheet_of_every_unit_has_rows(name, scenes):
    scene = load_scene(bundled_scene_of(name, scenes))
    present = RULESETS.get(name).presentation()
    for item in [*scene.units, *scene.vehicles]:
        rows = present.sheet_rows(scene, item.id)
        assert rows and all(r.label and r.value for r in rows), (item.id, rows)
        assert all(r.marked <= len(r.studs) for r in rows)


def test_a_figure_lies_as_blaze_of_glory_says():
    """Wounding: a knocked-down figure lies on his back, a wounded one on his front, still in play; one whose
    nerve broke has left the table."""
    from bow3d.rulesets.blaze_of_glory.state import FigureState

    present = RULESETS.get("blaze-of-glory").presentation()
    figure = FigureState("kid", "outlaws", "kid", 1, (3.5, 4.5), 90.0)
    pieces = {status: present.figure(dataclasses.replace(figure, status=status))
              for status in ("standing", "knocked_down", "wounded", "fled", "out_of_action")}
    assert {s: (p.posture, p.alive) for s, p in pieces.items()} == {
        "standing": ("standing", True), "knocked_down": ("on_back", True), "wounded": ("face_down", True),
        "fled": ("gone", False), "out_of_action": ("standing", False)}
    assert "knocked down" in pieces["knocked_down"].words
