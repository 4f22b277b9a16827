"""BOW 1.3 (Bricks Only Wargame), the basic rules, as a ruleset of the bow3d engine.

Layer: rulesets (imports the engine bow3d.rules and the scene layer; never world, view, replay
or panda3d). Units: studs, degrees. Every rule cites its section of the English rule book
(`../shared/seeds/bow-rules-1.3-en.txt`); where the book leaves room, the reading taken is said
in the module that implements it (e.g. the firer rolls first; a dispute is won by a strictly
higher roll; a pilotless vehicle drifts one straight move per round).

Also cites BOW 1.3 §2.2, §2.3, §2.4.2, §2.4.3, §3.5, §2.4.4, §3.1, §3.3, §3.6, Annex A.4. More:
docs/modules/rulesets-bow.md#bow.
"""

from bow3d.rules.refusal import Illegal, Reason, Refusal
from bow3d.rulesets.bow.actions import (
    ACTION_CLASSES,
    Action,
    Attack,
    ChangeDirection,
    ChangeSpeed,
    CompulsoryMove,
    Door,
    DriftMove,
    EndTurn,
    GetOff,
    GetOn,
    Give,
    Grab,
    Move,
    SwitchWeapon,
    Throw,
    Treat,
)
from bow3d.rulesets.bow.chance import DEFAULT_P, BrickRoll, Bricks, RollRequest, bricks_of
from bow3d.rulesets.bow.ruleset import RULESET, BowRuleset, action_from_record
from bow3d.rulesets.bow.sheets import BowParams, BowScene, MinifigSheet, VehicleSheet, Weapon, default_reach
from bow3d.rulesets.bow.sight import SightVerdict, is_covered, judge_sight, range_penalty
from bow3d.rulesets.bow.state import BowReason, GameState, UnitState, VehicleState

__all__ = [
    "ACTION_CLASSES", "Action", "Attack", "BowParams", "BowReason", "BowRuleset", "BowScene", "BrickRoll", "Bricks",
    "ChangeDirection", "ChangeSpeed", "CompulsoryMove", "DEFAULT_P", "Door", "DriftMove", "EndTurn", "GameState",
    "GetOff", "GetOn", "Give", "Grab", "Illegal", "MinifigSheet", "Move", "RULESET", "Reason", "Refusal",
    "RollRequest", "SightVerdict", "SwitchWeapon", "Throw", "Treat", "UnitState", "VehicleSheet", "VehicleState", "Weapon",
    "action_from_record", "bricks_of", "default_reach", "is_covered", "judge_sight", "range_penalty",
]
