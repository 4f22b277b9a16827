"""The heuristic AI (bow3d.rules.ai) on the flat geometry: cover, odds, medics, pilots, ending games."""

from __future__ import annotations

import dataclasses

import numpy as np

from bow3d.replay.session import play_game
from bow3d.rules import Game
from bow3d.rules.flat import Box, FlatGeometry
from bow3d.rulesets import parse_scene
from bow3d.rulesets.bow import Attack, Move, Treat
from bow3d.rulesets.bow.ai import AIPlayer

SHEETS = """\
format: bow3d-scene/1
name: AI test
battlefield: field.ldr
sides:
  - {id: blue, colour: 1}
  - {id: red, colour: 4}
sheets:
  rifleman: {kind: minifig, action_budget: 2, move: 5, attack: 1, dodge: 1, armor: 0, hp: 1,
             weapons: [{name: rifle, kind: ranged, damage: 2}]}
  medic: {kind: minifig, action_budget: 2, move: 5, attack: 0, dodge: 1, armor: 0, hp: 1, treat: 3,
          treat_colour: red, weapons: [{name: knife, kind: melee, damage: 1}]}
  hero: {kind: minifig, action_budget: 2, move: 4, attack: 2, dodge: 1, armor: 1, hp: 3,
         weapons: [{name: sword, kind: melee, damage: 2, reach: 2}]}
  jeep: {kind: vehicle, speed: 4, dodge: 0, armor: 3, hp: 2, seats: 2,
         weapons: [{name: machine gun, kind: ranged, damage: 3, arc: 180}]}
units:
"""


def scene_of(units: str, vehicles: str = ""):
    return parse_scene(SHEETS + units + (("vehicles:\n" + vehicles) if vehicles else ""), "ai-test.yaml")


def blue_to_play(game: Game) -> None:
    """Settle the starting-player rolls so that blue starts (BOW §2.2)."""
    while game.pending_roll is not None:
        request = game.pending_roll
        game.apply(request.answer(4 if request.side == "blue" else 0))
    assert game.state.side_to_play == "blue"


def play_blue(game: Game, player: AIPlayer, limit: int | None = None) -> tuple[list, list]:
    """Blue's actions until the other side is to play (every roll: no brick on edge): (actions, events)."""
    chosen, events = [], []
    while game.state.side_to_play == "blue" and not game.is_over and (limit is None or len(chosen) < limit):
        if game.pending_roll is not None:
            request = game.pending_roll
            events += game.apply(request.answer(0))
            continue
        action = player.choose(game)
        chosen.append(action)
        events += game.apply(action)
    return chosen, events


def ai(side: str = "blue", seed: int = 0) -> AIPlayer:
    return AIPlayer(side, np.random.default_rng(seed))


def test_moves_into_cover_when_a_covered_cell_is_reachable():
    """BOW §2.4.2: out of range of any target, the rifleman advances to a cell the enemy cannot
    see (behind the wall) rather than the open cells that gain a stud more."""
    scene = scene_of("""\
  - {id: blue-1, side: blue, sheet: rifleman, model: fig.ldr, position: [5.5, 7.5], facing: 0}
  - {id: red-1, side: red, sheet: rifleman, model: fig.ldr, position: [52.5, 7.5], facing: 180}
""")
    geometry = FlatGeometry.from_scene(scene, walls=[Box(10, 5, 11, 10)])
    game = Game.start(scene, geometry)
    blue_to_play(game)
    action = ai().choose(game)
    assert isinstance(action, Move), action
    game.apply(action)
    assert not geometry.sight("red-1", "blue-1").visible
    open_field = FlatGeometry.from_scene(scene)  # same game without the wall: it simply advances
    game = Game.start(scene, open_field)
    blue_to_play(game)
    action = ai().choose(game)
    assert isinstance(action, Move) and action.to[0] >= 9


def test_fires_at_the_target_with_the_best_odds():
    """BOW §2.4.2: a covered target adds a dodge brick, so the AI fires at the uncovered one."""
    scene = scene_of("""\
  - {id: blue-1, side: blue, sheet: rifleman, model: fig.ldr, position: [10.5, 10.5], facing: 0}
  - {id: red-1, side: red, sheet: rifleman, model: fig.ldr, position: [20.5, 14.5], facing: 180}
  - {id: red-2, side: red, sheet: rifleman, model: fig.ldr, position: [20.5, 6.5], facing: 180}
""")
    for covered, expected in (("red-1", "red-2"), ("red-2", "red-1")):
        x, y = scene.unit(covered).position
        geometry = FlatGeometry.from_scene(scene, cover=[Box(x - 1, y - 1, x + 1, y + 1)])
        game = Game.start(scene, geometry)
        blue_to_play(game)
        action = ai().choose(game)
        assert isinstance(action, Attack) and action.target == expected, action


def test_prefers_the_nearer_target_out_of_the_range_penalty():
    """BOW §2.4.2: -1 brick per 15 studs: the target at 10 studs is the better shot than at 25."""
    scene = scene_of("""\
  - {id: blue-1, side: blue, sheet: rifleman, model: fig.ldr, position: [10.5, 10.5], facing: 0}
  - {id: red-1, side: red, sheet: rifleman, model: fig.ldr, position: [35.5, 10.5], facing: 180}
  - {id: red-2, side: red, sheet: rifleman, model: fig.ldr, position: [20.5, 10.5], facing: 180}
""")
    game = Game.start(scene, FlatGeometry.from_scene(scene))
    blue_to_play(game)
    action = ai().choose(game)
    assert isinstance(action, Attack) and action.target == "red-2"


def test_medic_treats_a_wounded_friend_of_matching_colour():
    """BOW §2.4.4: a medic (red treat) next to a wounded life form (red HP) treats him."""
    scene = scene_of("""\
  - {id: blue-1, side: blue, sheet: medic, model: fig.ldr, position: [10.5, 10.5], facing: 0}
  - {id: red-1, side: red, sheet: rifleman, model: fig.ldr, position: [55.5, 55.5], facing: 180}
  - {id: red-2, side: red, sheet: hero, model: fig.ldr, position: [50.5, 50.5], facing: 180}
  - {id: blue-2, side: blue, sheet: hero, model: fig.ldr, position: [10.5, 11.5], facing: 0}
""")
    game = Game.start(scene, FlatGeometry.from_scene(scene))
    blue_to_play(game)
    hero = game.state.units["blue-2"]
    game.state.units["blue-2"] = dataclasses.replace(hero, damage=2)
    chosen, _ = play_blue(game, ai(), limit=6)
    assert Treat("blue-1", "blue-2") in chosen, chosen
    assert chosen.index(Treat("blue-1", "blue-2")) == 0  # before the wounded hero walks away


def test_medic_walks_to_a_wounded_friend():
    """BOW §2.4.4: the medic must touch the wounded: he walks to him, not to the rest of his side."""
    scene = scene_of("""\
  - {id: blue-1, side: blue, sheet: medic, model: fig.ldr, position: [5.5, 5.5], facing: 0}
  - {id: blue-2, side: blue, sheet: hero, model: fig.ldr, position: [14.5, 5.5], facing: 0}
  - {id: blue-3, side: blue, sheet: rifleman, model: fig.ldr, position: [5.5, 40.5], facing: 0}
  - {id: red-1, side: red, sheet: rifleman, model: fig.ldr, position: [55.5, 55.5], facing: 180}
""")
    game = Game.start(scene, FlatGeometry.from_scene(scene))
    blue_to_play(game)
    for unit, damage in (("blue-2", 1), ("blue-3", 0)):
        game.state.units[unit] = dataclasses.replace(game.state.units[unit], damage=damage, played=True)
    action = ai().choose(game)
    assert isinstance(action, Move) and action.unit == "blue-1", action
    assert np.hypot(14.5 - action.to[0] - 0.5, 5.5 - action.to[1] - 0.5) <= 9 - 4, action


def test_pilot_drives_towards_the_enemy_without_crashing():
    """BOW §3.3/§3.6.2: out of its machine gun's range, the pilot steers towards the enemy and
    sets a speed; a wall ahead is never driven into."""
    scene = scene_of("""\
  - {id: blue-1, side: blue, sheet: rifleman, model: fig.ldr, facing: 0}
  - {id: red-1, side: red, sheet: rifleman, model: fig.ldr, position: [55.5, 55.5], facing: 180}
""", """\
  - {id: blue-jeep, side: blue, sheet: jeep, model: jeep.ldr, position: [10, 10], facing: 0, occupants: [blue-1]}
""")
    for walls in ([], [Box(20, 0, 21, 30)]):
        geometry = FlatGeometry.from_scene(scene, walls=walls)
        game = Game.start(scene, geometry)
        blue_to_play(game)
        start = game.state.vehicles["blue-jeep"].position
        _, events = play_blue(game, ai())
        assert not any(e.kind == "collision" and e.data.get("kind") == "decor" for e in events), \
            [e.describe() for e in events]
        if not walls:
            end = game.state.vehicles["blue-jeep"].position
            before = np.hypot(55.5 - start[0], 55.5 - start[1])
            after = np.hypot(55.5 - end[0], 55.5 - end[1])
            assert after < before - 5, [e.describe() for e in events]  # out of range: it closes in


def test_ai_games_terminate_and_are_deterministic():
    scene = scene_of("""\
  - {id: blue-1, side: blue, sheet: rifleman, model: fig.ldr, position: [5.5, 5.5], facing: 0}
  - {id: blue-2, side: blue, sheet: hero, model: fig.ldr, position: [5.5, 9.5], facing: 0}
  - {id: blue-3, side: blue, sheet: medic, model: fig.ldr, position: [3.5, 7.5], facing: 0}
  - {id: red-1, side: red, sheet: rifleman, model: fig.ldr, position: [40.5, 5.5], facing: 180}
  - {id: red-2, side: red, sheet: hero, model: fig.ldr, position: [40.5, 9.5], facing: 180}
""")
    outcomes = []
    for seed in (1, 2, 3, 1):
        records = []
        result = play_game(scene, FlatGeometry.from_scene(scene, width=48, depth=16), None, seed,
                           max_rounds=25, on_record=lambda record, events: records.append(record.to_record()))  # noqa: B023 (called within the loop)
        assert result.ended in ("win", "points", "draw") and result.rounds <= 25
        outcomes.append((result.winner, records))
    assert outcomes[0] == outcomes[3]  # same seed, same game
    assert sum(1 for winner, _ in outcomes if winner is not None) >= 3
    assert any(r["type"] == "attack" for r in outcomes[0][1])


def test_pilot_does_not_run_over_his_own_side():
    """BOW §3.6.1: a vehicle that hits a unit hurts it; the AI never drives into a friend."""
    scene = scene_of("""\
  - {id: blue-1, side: blue, sheet: rifleman, model: fig.ldr, facing: 0}
  - {id: blue-2, side: blue, sheet: rifleman, model: fig.ldr, position: [16.5, 10.5], facing: 0}
  - {id: red-1, side: red, sheet: rifleman, model: fig.ldr, position: [75.5, 10.5], facing: 180}
""", """\
  - {id: blue-jeep, side: blue, sheet: jeep, model: jeep.ldr, position: [10, 10.5], facing: 0, occupants: [blue-1]}
""")
    game = Game.start(scene, FlatGeometry.from_scene(scene, width=100))  # out of the gun's range
    blue_to_play(game)
    game.state.units["blue-2"] = dataclasses.replace(game.state.units["blue-2"], played=True)
    _, events = play_blue(game, ai())
    assert not any(e.kind == "collision" and e.data.get("other") == "blue-2" for e in events), \
        [e.describe() for e in events]
