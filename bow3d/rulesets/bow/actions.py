"""BOW 1.3's actions as frozen values that round-trip through plain records (dicts).

Layer: rulesets (BOW). Every action has `to_record() -> dict` with a "type" key; the ruleset's
`parse` (and `action_from_record`, in bow.ruleset) gives it back (cells become tuples), the
engine's answers (`roll`, `decide`) too. Units: studs, degrees.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bow3d.rules.geometry import Cell
from bow3d.rules.records import Action


@dataclass(frozen=True)
class EndTurn(Action):
    """End the unit's turn (with no action before: pass the turn, BOW §2.2)."""

    TYPE: ClassVar[str] = "end_turn"
    FREE: ClassVar[bool] = True
    unit: str


@dataclass(frozen=True)
class Move(Action):
    """Move to a cell within Move studs around obstacles and face `facing` (BOW §2.3.1)."""

    TYPE: ClassVar[str] = "move"
    unit: str
    to: Cell
    facing: float


@dataclass(frozen=True)
class Grab(Action):
    """Pick up an object lying close to the unit (BOW §2.3.2)."""

    TYPE: ClassVar[str] = "grab"
    unit: str
    item: str


@dataclass(frozen=True)
class Throw(Action):
    """Throw a carried object to a cell within 2 x Move studs, not through walls (BOW §2.3.2)."""

    TYPE: ClassVar[str] = "throw"
    unit: str
    item: str
    to: Cell


@dataclass(frozen=True)
class Give(Action):
    """Give a carried object to a close friendly unit, free for the receiver (BOW §2.3.2)."""

    TYPE: ClassVar[str] = "give"
    unit: str
    item: str
    receiver: str


@dataclass(frozen=True)
class SwitchWeapon(Action):
    """Put the weapon in hand in the bag and take `weapon` from the bag (BOW §2.3.2)."""

    TYPE: ClassVar[str] = "switch"
    unit: str
    weapon: str


@dataclass(frozen=True)
class Door(Action):
    """Open (`open=True`) or close a close door or window (BOW §2.3.3)."""

    TYPE: ClassVar[str] = "door"
    unit: str
    door: str
    open: bool


@dataclass(frozen=True)
class GetOn(Action):
    """Get on a close vehicle into a free seat; seat 0 is the pilot's (BOW §2.3.3)."""

    TYPE: ClassVar[str] = "get_on"
    unit: str
    vehicle: str
    seat: int


@dataclass(frozen=True)
class GetOff(Action):
    """Get off onto a free cell next to the vehicle (BOW §2.3.3)."""

    TYPE: ClassVar[str] = "get_off"
    unit: str
    to: Cell


@dataclass(frozen=True)
class ChangeSpeed(Action):
    """Piloting: set the vehicle's current speed (0, or min speed .. max speed) (BOW §3.3)."""

    TYPE: ClassVar[str] = "speed"
    unit: str
    speed: int


@dataclass(frozen=True)
class ChangeDirection(Action):
    """Piloting: rotate the vehicle on itself by at most 45 degrees, CCW positive (BOW §3.3)."""

    TYPE: ClassVar[str] = "turn"
    unit: str
    delta_deg: float


@dataclass(frozen=True)
class CompulsoryMove(Action):
    """The free straight move of the pilot's vehicle, speed x 5 studs, once in his turn (BOW §3.3)."""

    TYPE: ClassVar[str] = "compulsory_move"
    FREE: ClassVar[bool] = True
    unit: str


@dataclass(frozen=True)
class DriftMove(Action):
    """The move of a moving vehicle whose pilot is dead, in another unit's turn or at round end
    (`unit` None) (BOW §3.3, special case)."""

    TYPE: ClassVar[str] = "drift"
    FREE: ClassVar[bool] = True
    unit: str | None
    vehicle: str


@dataclass(frozen=True)
class Attack(Action):
    """Attack a unit or vehicle with a weapon in hand or a vehicle weapon (BOW §2.4.2, §3.4).

    `dispute=True` (ruleset option visibility_dispute): fire at a target the geometry reports
    hidden; a 5-brick roll each decides whether it counts as visible.
    `extra_to` (target a vehicle): the occupants that take the odd extra points first if the vehicle
    is destroyed and its excess damage cannot be shared evenly (BOW §3.5: the attacker chooses);
    the others follow in seat order.
    """

    TYPE: ClassVar[str] = "attack"
    unit: str
    target: str
    weapon: str
    dispute: bool = False
    extra_to: tuple[str, ...] = ()


@dataclass(frozen=True)
class Treat(Action):
    """Treat a wounded life form or repair a damaged machine or vehicle (BOW §2.4.4)."""

    TYPE: ClassVar[str] = "treat"
    unit: str
    target: str


ACTION_CLASSES: tuple[type[Action], ...] = (EndTurn, Move, Grab, Throw, Give, SwitchWeapon, Door, GetOn, GetOff,
                                            ChangeSpeed, ChangeDirection, CompulsoryMove, DriftMove, Attack, Treat)

