"""Blaze of Glory (Tim Eagling's Wild West skirmish rules) as a ruleset of the bow3d engine.

Layer: rulesets (imports the engine bow3d.rules, the scene layer and bow3d.units; never world,
view, replay or panda3d). Distances in inches on the table (1 inch = 3.175 studs, measured exactly),
heights in stories (6 bricks) read from the 3D world's ground heights. Every rule cites the book's
heading (`../shared/seeds/blaze-of-glory-rules.txt`: Activation & Movement, Climbing/Fall,
Shooting, Multiple Shots & Ammunition, Two Pistols, Scatter Guns, Wounding, Fisticuffs, Nerve,
Hero Points, Skills); where the book leaves room, the module that implements it says its reading
(docs/blaze-of-glory.md gathers them).

More: docs/modules/rulesets-blaze-of-glory.md#blaze-of-glory.
"""

from bow3d.rulesets.blaze_of_glory.actions import (
                                                   ACTION_CLASSES,
                                                   Disengage,
                                                   EndTurn,
                                                   Fight,
                                                   FightOn,
                                                   Finish,
                                                   Move,
                                                   Reload,
                                                   Run,
                                                   RunMove,
                                                   Shoot,
)
from bow3d.rulesets.blaze_of_glory.ruleset import RULESET, BlazeRuleset
from bow3d.rulesets.blaze_of_glory.sheets import NAME, BlazeParams, BlazeScene, FigureSheet
from bow3d.rulesets.blaze_of_glory.sight import CoverVerdict, judge_cover, judge_sight
from bow3d.rulesets.blaze_of_glory.state import BlazeReason, FigureState, GameState

__all__ = ["ACTION_CLASSES", "BlazeParams", "BlazeReason", "BlazeRuleset", "BlazeScene", "CoverVerdict", "Disengage",
           "EndTurn", "Fight", "FightOn", "FigureSheet", "FigureState", "Finish", "GameState", "Move", "NAME",
           "RULESET", "Reload", "Run", "RunMove", "Shoot", "judge_cover", "judge_sight"]
