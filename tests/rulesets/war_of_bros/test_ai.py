"""The War of Bros AI holds issue 21's bar for every ruleset's AI: it never runs over its own units.

Mechanized: "Mechanized units can also trample Infantry units they drive over, both Light and Heavy" -
whoever they are. The first AI (FirstWarOfBrosAI, war-of-bros-ai-1) weighed only the decor a tank's
move destroys, so its tanks drove over their own privates (37 friends trampled to death in 20 games of
the bundled scene); the AI of today (WarOfBrosAI) in the same situations, and its version's replays.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bow3d.rulesets.war_of_bros import EndStep, Move
from bow3d.rulesets.war_of_bros.ai import FIRST_AI_VERSION, FirstWarOfBrosAI, WarOfBrosAI
from bow3d.rulesets.war_of_bros.movement import plan_move
from tests.rulesets.war_of_bros.helpers import ready, scene

ROOT = Path(__file__).resolve().parents[3]
WAR_OF_BROS = ROOT / "scenes" / "war-of-bros.yaml"
FIRST_REPLAY = ROOT / "tests" / "data" / "replay" / "war-of-bros-ai-1-seed1.bowreplay"


def friends_under(game, action) -> list[str]:
    """The player's own units that the move would trample."""
    if not isinstance(action, Move):
        return []
    found, _refusal = plan_move(game, action.unit, action.heading, action.distance)
    side = game.state.units[action.unit].side
    return [uid for uid in found.trampled if game.state.units[uid].side == side]


def test_mechanized_a_tank_never_drives_over_a_friend_standing_in_its_way():
    """The situation of the bundled game's round 2: a private that has played stands in front of its tank,
    the enemy straight ahead beyond him. The first AI drove on over him; today's does not."""
    vehicles = [{"id": "tank", "side": "blue", "sheet": "tank", "position": [20, 20], "facing": 0, "occupants": []}]
    units = [{"id": "b1", "side": "blue", "sheet": "private", "position": [30, 20], "facing": 0},
             {"id": "r1", "side": "red", "sheet": "private", "position": [110, 20], "facing": 180}]
    chosen = {}
    for player in (FirstWarOfBrosAI("blue", np.random.default_rng(0)), WarOfBrosAI("blue", np.random.default_rng(0))):
        game = ready(scene(units, vehicles), first="blue", rounds_skipped=1)
        game.apply(EndStep("b1"))   # the private has played: he stays where he stands
        game.apply(EndStep("b1"))
        action = player.choose(game)
        assert action.unit == "tank"
        chosen[player.version] = friends_under(game, action)
    assert chosen == {FIRST_AI_VERSION: ["b1"], WarOfBrosAI.version: []}


@pytest.fixture(scope="module")
def bundled():
    """The bundled War of Bros scene on its real 3D world (the starter library that ships with bow3d)."""
    from bow3d.replay.session import prepare_geometry
    from bow3d.replay.simulate import open_library
    from bow3d.rulesets import load_scene
    from bow3d.world import World

    found = load_scene(WAR_OF_BROS)
    return found, prepare_geometry(found, World.from_scene(found, open_library(None)))


def friendly_tramples(bundled, player, seed: int) -> int:
    """Trample attacks of a tank on its own side in one AI-against-AI game of the bundled scene."""
    from bow3d.replay.session import play_game

    scn, geometry = bundled
    players = {side.id: player(side.id, np.random.default_rng([seed, k])) for k, side in enumerate(scn.sides)}
    pairs = []   # (attacker, target) of every trample

    def count(_record, events):
        pairs.extend((e.data["unit"], e.data["target"]) for e in events
                     if e.kind == "attack" and e.data.get("kind") == "trample")

    play_game(scn, geometry, players, seed, max_rounds=8, on_record=count)
    sides = {body.id: body.side for body in (*scn.units, *scn.vehicles)}
    tramples = [(a, t) for a, t in pairs if sides[a] == sides[t]]
    return len(tramples)


def test_mechanized_no_friend_trampled_in_the_bundled_games(bundled):
    """Counted from the games' events, the first rounds of seeds 1 and 2: the first AI's tanks trampled
    their own infantry in them, today's none."""
    first = sum(friendly_tramples(bundled, FirstWarOfBrosAI, seed) for seed in (1, 2))
    now = sum(friendly_tramples(bundled, WarOfBrosAI, seed) for seed in (1, 2))
    assert first > 0 and now == 0


def test_replays_of_the_first_ai_still_re_derive_its_choices():
    """A replay war-of-bros-ai-1 played (the bundled one before this AI) verifies with its choices re-derived
    by the retired AI, not only checked for legality."""
    from bow3d.replay.verify import verify_replay

    result = verify_replay(FIRST_REPLAY, scene=WAR_OF_BROS)
    assert result.ok and result.complete, result.first_divergence
    assert result.ai_note is None and set(result.players_checked) == {"blue", "red"}
