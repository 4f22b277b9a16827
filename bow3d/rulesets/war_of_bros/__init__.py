"""War of Bros (YuLabs), the whole rule book, as a ruleset of the bow3d engine, refereed in 3D.

Layer: rulesets (imports the engine bow3d.rules and the scene layer; never world, view, replay or
panda3d). Units: cm for the rules (the book's), studs for positions (the scene's: 1 stud = 8 mm),
degrees for facings. Every rule cites the book's heading (`../shared/seeds/war-of-bros-rules.txt`);
where the book leaves room, the reading taken is said in the module that implements it and in
docs/war-of-bros.md.

    from bow3d.rulesets.war_of_bros import RULESET, Move, Attack
    game = Game.start(scene, world)                 # a WarOfBrosScene: RULESET by its name
    game.apply(game.pending.answer(faces))          # Dice(count, sides, keep="highest") throws
    RULESET.narrator().lines(events)

More: docs/modules/rulesets-war-of-bros.md#war-of-bros.
"""

from bow3d.rulesets.war_of_bros.actions import ACTION_CLASSES, Attack, EndStep, EndTurn, Move, Place, Turn
from bow3d.rulesets.war_of_bros.cover import CoverVerdict, judge
from bow3d.rulesets.war_of_bros.dice import DiceRoll
from bow3d.rulesets.war_of_bros.ruleset import WarOfBrosRuleset
from bow3d.rulesets.war_of_bros.sheets import UnitSheet, WarOfBrosParams, WarOfBrosScene
from bow3d.rulesets.war_of_bros.state import GameState, UnitState, WobReason

RULESET = WarOfBrosRuleset()

__all__ = ["ACTION_CLASSES", "Attack", "CoverVerdict", "DiceRoll", "EndStep", "EndTurn", "GameState", "Move",
           "Place", "RULESET", "Turn", "UnitSheet", "UnitState", "WarOfBrosParams", "WarOfBrosRuleset",
           "WarOfBrosScene", "WobReason", "judge"]
