"""`strong` (issue 21, bow-strong-3): greedy's plan with targets weighed by their cost points and the
exact chance to kill, a target still to play first, the unit's turn searched for a step that makes
the shot much better, and the vehicles' guns weighed the same way. On the flat geometry."""

from __future__ import annotations

import numpy as np

from bow3d.rules import Game
from bow3d.rules.flat import Box, FlatGeometry
from bow3d.rulesets import BOW
from bow3d.rulesets.bow import Attack, Move, Treat
from bow3d.rulesets.bow.chance import DEFAULT_P
from bow3d.rulesets.bow.cost import unit_cost
from bow3d.rulesets.bow.greedy import GreedyPlayer
from bow3d.rulesets.bow.odds import attack_odds
from bow3d.rulesets.bow.state import replace
from bow3d.rulesets.bow.strong import CLOSE_IN, SECOND_STRONG_VERSION, STRONG_VERSION, SecondStrongPlayer, StrongPlayer
from tests.rules.test_ai import blue_to_play, play_blue
from tests.rules.test_ai_opponent import collisions, scene_of


def strong(seed: int = 0) -> StrongPlayer:
    return StrongPlayer("blue", np.random.default_rng(seed))


def start(units: str, vehicles: str = "", width: float = 60, depth: float = 30, **field) -> Game:
    """Blue to play on a flat field (FlatGeometry.from_scene's `walls` and the like in `field`)."""
    scene = scene_of(units, vehicles)
    game = Game.start(scene, FlatGeometry.from_scene(scene, width=width, depth=depth, **field))
    blue_to_play(game)
    return game


def duel(red_x: float) -> Game:
    return start(f"""\
  - {{id: blue-1, side: blue, sheet: rifleman, model: fig.ldr, position: [10.5, 10.5], facing: 0}}
  - {{id: red-1, side: red, sheet: rifleman, model: fig.ldr, position: [{red_x}, 10.5], facing: 180}}
""")


def test_bow_2_4_2_one_band_closer_it_steps_in_first_else_it_fires():
    """BOW §2.4.2: the rifle's 3 bricks lose one per 15 studs after the first band. At 34 studs a shot
    has 1 brick (kills a dodge-1 rifleman with 0.193), five studs closer 2 bricks (0.354): the searched
    step is worth 1.8 times the shot, over CLOSE_IN, so it steps; greedy fires. At 20 studs 2 bricks
    against 3 bricks from 15 studs (0.486) is 1.37 times: it fires. With one action left it fires."""
    one, two, three = (attack_odds(n, 1, DEFAULT_P).success for n in (1, 2, 3))
    assert two / one > CLOSE_IN > three / two
    game = duel(44.5)
    step = strong().choose(game)
    assert isinstance(step, Move) and step.to[0] > 10, step
    assert isinstance(GreedyPlayer("blue").choose(game), Attack)
    assert strong().choose(duel(30.5)) == Attack("blue-1", "red-1", "rifle")
    game = duel(44.5)   # a 1-brick shot fired and missed: with the one action left, no step first
    game.apply(Attack("blue-1", "red-1", "rifle"))
    while game.pending_roll is not None:
        game.apply(game.pending_roll.answer(0))
    assert game.state.active_unit == "blue-1" and strong().choose(game) == Attack("blue-1", "red-1", "rifle")


def test_annex_a4_of_two_equal_shots_it_takes_the_costlier_target():
    """BOW Annex A.4: the medic (treat 1) costs less than the rifleman; both dodge 1 with no armor at the
    same distance, so the shots are equal. Greedy takes the first it finds (the medic, first in the
    scene); strong takes the rifleman, whose loss costs the enemy more points."""
    game = start("""\
  - {id: blue-1, side: blue, sheet: rifleman, model: fig.ldr, position: [10.5, 15.5], facing: 0}
  - {id: red-medic, side: red, sheet: medic, model: fig.ldr, position: [20.5, 11.5], facing: 180}
  - {id: red-rifle, side: red, sheet: rifleman, model: fig.ldr, position: [20.5, 19.5], facing: 180}
""")
    sheets = game.ctx.scene.sheets
    assert unit_cost(sheets["rifleman"]) > unit_cost(sheets["medic"])
    assert GreedyPlayer("blue").choose(game).target == "red-medic"
    assert strong().choose(game) == Attack("blue-1", "red-rifle", "rifle")
    # Annex A.4 costs a minifig with the weapon it carries: a medic who picked up a rifle (§2.3.2) is
    # worth (2 + 5 + 1 + 3 + 1) x 1 x 2 = 24 points, more than the rifleman's 22 (no treat)
    units = game.state.units
    units["red-medic"] = replace(units["red-medic"], weapon="rifle", items=("knife",))
    assert unit_cost(sheets["medic"], game.ctx.weapon("medic", "rifle")) == 24 > unit_cost(sheets["rifleman"]) == 22
    assert strong().choose(game) == Attack("blue-1", "red-medic", "rifle")


def test_bow_2_2_a_target_still_to_play_this_round_comes_first():
    """BOW §2.2: sides alternate units, so an enemy killed before it has played this round loses its
    action too. Of two equal riflemen at the same distance, strong shoots the one still to play."""
    game = start("""\
  - {id: blue-1, side: blue, sheet: rifleman, model: fig.ldr, position: [10.5, 15.5], facing: 0}
  - {id: red-1, side: red, sheet: rifleman, model: fig.ldr, position: [20.5, 11.5], facing: 180}
  - {id: red-2, side: red, sheet: rifleman, model: fig.ldr, position: [20.5, 19.5], facing: 180}
""")
    units = game.state.units
    units["red-1"] = replace(units["red-1"], played=True)
    assert strong().choose(game) == Attack("blue-1", "red-2", "rifle")
    units = game.state.units   # the search took its steps back: the state is a restored copy
    units["red-1"], units["red-2"] = replace(units["red-1"], played=False), replace(units["red-2"], played=True)
    assert strong().choose(game) == Attack("blue-1", "red-1", "rifle")


def test_the_search_leaves_the_game_as_it_came():
    """The steps searched are played and taken back (Game.pop): state, records and geometry unchanged."""
    game = duel(44.5)
    before = (game.state.copy(), list(game.records), dict(game.geometry.positions))
    action = strong().choose(game)
    assert game.refusal(action) is None
    assert (game.state, game.records, game.geometry.positions) == before


def test_strong_is_named_reproducible_and_the_clocked_first_version_is_known():
    """bow-strong-3 reads no clock, so replay verify re-derives its choices like the AI's, and so does the
    retired bow-strong-2's; the first strong (bow-strong-1) searched under a time budget, so its replays
    are checked for legality only."""
    assert BOW.opponents()["strong"] == STRONG_VERSION == "bow-strong-3"
    assert BOW.is_reproducible(STRONG_VERSION) and BOW.is_reproducible(SECOND_STRONG_VERSION)
    assert BOW.opponent(SECOND_STRONG_VERSION, "blue", np.random.default_rng(0)).version == "bow-strong-2"
    assert "bow-strong-1" in BOW.clocked_opponents() and not BOW.is_reproducible("bow-strong-1")
    assert BOW.is_reproducible(BOW.opponents()["greedy"]) and BOW.is_reproducible(BOW.ai_version)
    assert BOW.is_reproducible("bow-ai-1")


TREAT_SHEETS = """\
  rifleman: {kind: minifig, action_budget: 2, move: 5, attack: 1, dodge: 1, armor: 0, hp: 2,
             weapons: [{name: rifle, kind: ranged, damage: 2}]}
  porter: {kind: minifig, action_budget: 2, move: 5, attack: 0, dodge: 1, armor: 0, hp: 2, weapons: []}
  medic: {kind: minifig, action_budget: 2, move: 5, attack: 1, dodge: 1, armor: 0, hp: 1, treat: 1,
          treat_colour: red, weapons: [{name: knife, kind: melee, damage: 1, reach: 1}]}
units:
"""


def test_bow_2_4_4_it_treats_a_wounded_friend_never_a_wounded_enemy():
    """BOW §2.4.4: with nothing to attack (an unarmed porter; the enemy stands behind the medic, out of its
    knife's front arc), the medic treats the wounded friend within touch, not the wounded enemy within
    touch: the rules' checker would take either treatment, so the choice is strong's. Greedy's plan
    took the first treatment it found, the enemy's (first in the scene)."""
    from bow3d.rulesets import parse_scene

    text = ("format: bow3d-scene/1\nname: treat test\nbattlefield: field.ldr\nsides:\n"
            "  - {id: blue, colour: 1}\n  - {id: red, colour: 4}\nsheets:\n" + TREAT_SHEETS)
    units = """\
  - {id: blue-medic, side: blue, sheet: medic, model: fig.ldr, position: [10.5, 10.5], facing: 0}
  - {id: red-1, side: red, sheet: rifleman, model: fig.ldr, position: [9.5, 10.5], facing: 0}
  - {id: blue-1, side: blue, sheet: porter, model: fig.ldr, position: [11.5, 10.5], facing: 0}
"""
    scene = parse_scene(text + units, "treat-test.yaml")
    game = Game.start(scene, FlatGeometry.from_scene(scene, width=60, depth=30))
    blue_to_play(game)
    units = game.state.units
    units["red-1"] = replace(units["red-1"], damage=1)
    treats = [a for a in game.legal_actions() if isinstance(a, Treat)]
    assert treats == [Treat("blue-medic", "red-1")]          # the friend is not wounded yet
    assert strong().choose(game) != treats[0]
    units["blue-1"] = replace(units["blue-1"], damage=1)
    treats = [a for a in game.legal_actions() if isinstance(a, Treat)]
    assert treats[0] == Treat("blue-medic", "red-1") and Treat("blue-medic", "blue-1") in treats
    assert strong().choose(game) == Treat("blue-medic", "blue-1")


def test_bow_3_3_while_a_pilot_has_yet_to_play_the_ai_chooses():
    """BOW §3.3: piloting is the AI's (bow-ai-2: courses checked past friends and walls, §3.6). While a
    unit of the side aboard a vehicle has yet to play and no attack is on (the enemy stands 84 studs
    off), strong's choice is the AI's on the same stream."""
    from bow3d.rulesets.bow.ai import AIPlayer

    game = start("""\
  - {id: blue-1, side: blue, sheet: rifleman, model: fig.ldr, facing: 0}
  - {id: blue-2, side: blue, sheet: rifleman, model: fig.ldr, position: [10.5, 20.5], facing: 0}
  - {id: red-1, side: red, sheet: rifleman, model: fig.ldr, position: [95.5, 28.5], facing: 180}
""", """\
  - {id: blue-jeep, side: blue, sheet: jeep, model: jeep.ldr, position: [12, 10], facing: 0, speed: 0,
     occupants: [blue-1]}
""", width=100, depth=40)
    assert not [a for a in game.legal_actions() if isinstance(a, Attack)]
    chosen = strong(5).choose(game)
    assert chosen == AIPlayer("blue", np.random.default_rng(5)).choose(game)
    assert chosen != GreedyPlayer("blue").choose(game)   # greedy's plan alone would step the rifleman on foot


def test_annex_a4_the_jeep_s_gun_is_weighed_like_every_attack_while_its_driver_has_yet_to_play():
    """BOW Annex A.4 and §2.4.2, the situation of the village's first round: the jeep's driver has yet to
    play, a medic (its knife: the cheaper unit) stands 13.5 studs off and a rifleman 18.5 studs off, one
    range band further (one brick fewer). The rifleman's cost points times the chance to kill him is
    worth more, and bow-strong-3 fires the machine gun at him. bow-strong-2 let the AI choose while a
    pilot had yet to play, and the AI's gun took the surer shot at the medic: against greedy on the
    village it won 25 of 100 games as blue, bow-strong-3 44 (benchmarks/RESULTS.md)."""
    game = start("""\
  - {id: blue-1, side: blue, sheet: rifleman, model: fig.ldr, facing: 0}
  - {id: red-medic, side: red, sheet: medic, model: fig.ldr, position: [25.5, 12.5], facing: 180}
  - {id: red-rifle, side: red, sheet: rifleman, model: fig.ldr, position: [30.5, 8.5], facing: 180}
""", """\
  - {id: blue-jeep, side: blue, sheet: jeep, model: jeep.ldr, position: [12, 10], facing: 0, speed: 0,
     occupants: [blue-1]}
""", width=100, depth=40)
    at_medic, at_rifle = (Attack("blue-1", target, "machine gun") for target in ("red-medic", "red-rifle"))
    ctx = game.ctx
    assert unit_cost(ctx.sheet("rifleman"), ctx.weapon("rifleman", "rifle")) > \
        unit_cost(ctx.sheet("medic"), ctx.weapon("medic", "knife"))
    assert strong().weigh(game, at_rifle) > strong().weigh(game, at_medic) > 0
    assert strong(5).choose(game) == at_rifle
    old = SecondStrongPlayer("blue", np.random.default_rng(5))
    assert old.version == SECOND_STRONG_VERSION and old.choose(game) == at_medic


def test_bow_3_6_a_pilot_who_owes_his_compulsory_move_is_steered_before_anyone_attacks():
    """BOW §3.3, §3.6: the knight's horse (speed 2) owes its compulsory move with a wall 6 studs ahead
    and an enemy within the lance's reach. Attacks first whenever one is on (a first draft of
    bow-strong-3: 6 crashes and 3 friends run over in 200 village games against greedy) strikes twice
    and leaves the pilot no action to slow down with: the horse hits the wall. strong lets the AI play
    the pilot while he owes the move: one strike, then he slows down, and nothing is hit."""
    class AttacksFirst(StrongPlayer):
        @staticmethod
        def _vehicle_to_steer(game):
            return False

    units = """\
  - {id: blue-1, side: blue, sheet: knight, model: fig.ldr, facing: 0}
  - {id: red-1, side: red, sheet: rifleman, model: fig.ldr, position: [12.5, 12.5], facing: 180}
  - {id: red-2, side: red, sheet: rifleman, model: fig.ldr, position: [75.5, 30.5], facing: 180}
"""
    horse = """\
  - {id: blue-horse, side: blue, sheet: horse, model: horse.ldr, position: [10, 10.5], facing: 0, speed: 2,
     occupants: [blue-1]}
"""
    crashed = {}
    for player in (strong(), AttacksFirst("blue", np.random.default_rng(0))):
        game = start(units, horse, width=100, depth=40, walls=[Box(16, 0, 17, 40)])
        chosen, events = play_blue(game, player)
        crashed[type(player).__name__] = (collisions(events), [type(a).__name__ for a in chosen])
    assert crashed["StrongPlayer"] == ([], ["Attack", "ChangeSpeed", "EndTurn"]), crashed
    assert crashed["AttacksFirst"][0], "the situation no longer shows the fault"
