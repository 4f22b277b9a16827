"""War of Bros' actions as frozen records (the engine's Roll and Decide answer throws and decisions).

Layer: rulesets (War of Bros). Positions in studs (the scene's), headings and facings in degrees,
distances in cm (the book's unit).

    Place(unit, x, y, facing)          Unit Placement: put a unit on the battlefield
    Move(unit, heading, distance)      First or Final Movement Step: turn freely to `heading`, then go
                                       `distance` cm straight ahead (one straight segment)
    Turn(unit, facing)                 rotate about the Line of Sight indicator (free)
    Attack(unit, target, weapon)       Attack Step: the Check Step, then the steps that follow
    EndStep(unit)                      the First Movement Step done without attacking (to the Final
                                       Movement Step), or the Final Movement Step done (the unit's
                                       activation ends); in the first turn it ends the activation
    EndTurn(side)                      the player's turn ends (units not yet moved stay)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bow3d.rules.records import Action


@dataclass(frozen=True)
class Place(Action):
    TYPE: ClassVar[str] = "place"
    unit: str
    x: float
    y: float
    facing: float


@dataclass(frozen=True)
class Move(Action):
    TYPE: ClassVar[str] = "move"
    unit: str
    heading: float
    distance: float


@dataclass(frozen=True)
class Turn(Action):
    TYPE: ClassVar[str] = "turn"
    unit: str
    facing: float


@dataclass(frozen=True)
class Attack(Action):
    TYPE: ClassVar[str] = "attack"
    unit: str
    target: str
    weapon: str


@dataclass(frozen=True)
class EndStep(Action):
    TYPE: ClassVar[str] = "end_step"
    unit: str


@dataclass(frozen=True)
class EndTurn(Action):
    TYPE: ClassVar[str] = "end_turn"
    side: str


ACTION_CLASSES: tuple[type[Action], ...] = (Place, Move, Turn, Attack, EndStep, EndTurn)
