"""Game state of BOW 1.3: units, vehicles, round, turn, pending brick rolls and decisions.

Layer: rulesets (BOW). Positions in studs (centre of the footprint), facings in degrees
(0 = world +X, counter-clockwise). Unit and vehicle states are frozen values replaced on
change, so a GameState copy is cheap (`GameState.copy()`).
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass, field
from typing import Any

from bow3d.rules.geometry import Cell
from bow3d.rules.pending import Pending


class BowReason(str, enum.Enum):
    """BOW's own reasons for refusing an action (beside the engine's bow3d.rules.Reason)."""

    COMPULSORY_MOVE = "compulsory_move"    # the vehicle must do its compulsory move first (BOW §3.3)


@dataclass(frozen=True)
class UnitState:
    """One unit (minifig) of the game; `position` is None while aboard or off the field."""

    id: str
    side: str
    sheet: str
    position: tuple[float, float] | None
    facing: float
    damage: int = 0
    alive: bool = True
    weapon: str | None = None            # in hand
    items: tuple[str, ...] = ()          # in the bag or clipped on the back (BOW §2.3.2)
    aboard: str | None = None            # vehicle id
    marking_bricks: int = 0              # the played marker: added in odd rounds, removed in even ones (§2.2)
    played: bool = False                 # played this round
    actions_used: int = 0                # in its current turn
    left_field: bool = False             # carried off the battlefield by a vehicle

    @property
    def cell(self) -> Cell | None:
        """The stud-grid cell under the unit, None when it is not on the field."""
        if self.position is None:
            return None
        return (int(self.position[0] // 1), int(self.position[1] // 1))

    @property
    def in_play(self) -> bool:
        """Alive and still on the battlefield (on foot or aboard)."""
        return self.alive and not self.left_field


@dataclass(frozen=True)
class VehicleState:
    """One vehicle; `seats[0]` is the pilot's seat (None = free)."""

    id: str
    side: str
    sheet: str
    position: tuple[float, float] | None
    facing: float
    speed: int = 0
    seats: tuple[str | None, ...] = ()
    damage: int = 0
    destroyed: bool = False
    left_field: bool = False
    moved: bool = False                  # did its move this round (pilot's compulsory move or drift)

    @property
    def occupants(self) -> tuple[str, ...]:
        """Unit ids aboard, pilot's seat first."""
        return tuple(s for s in self.seats if s is not None)

    @property
    def pilot(self) -> str | None:
        return self.seats[0] if self.seats else None

    @property
    def in_play(self) -> bool:
        return not self.destroyed and not self.left_field


@dataclass
class GameState:
    """The whole state; mutated only by `Game.apply` after the checker accepted the action."""

    round: int = 0
    phase: str = "start"                 # 'start' (starting-player rolls) | 'play' | 'drift' | 'over'
    side_to_play: str | None = None
    active_unit: str | None = None       # the unit whose turn it is, once it acted
    round_starter: str | None = None
    finished_first: str | None = None    # first side that played all its units this round
    units: dict[str, UnitState] = field(default_factory=dict)
    vehicles: dict[str, VehicleState] = field(default_factory=dict)
    ground_items: tuple[tuple[str, Cell], ...] = ()   # objects lying on the battlefield
    doors: dict[str, bool] = field(default_factory=dict)  # door id -> open
    pending: Pending | None = None
    start_rolls: dict[str, int] = field(default_factory=dict)
    winner: str | None = None
    result: str | None = None            # 'win' | 'draw' | 'points' once over
    turns_played: int = 0

    @property
    def marking_bricks_added(self) -> bool:
        """True in odd rounds (played units get a marking brick), False in even ones (§2.2)."""
        return self.round % 2 == 1

    def copy(self) -> GameState:
        """An independent copy (unit and vehicle states are immutable and shared)."""
        new = dataclasses.replace(self)
        new.units = dict(self.units)
        new.vehicles = dict(self.vehicles)
        new.doors = dict(self.doors)
        new.start_rolls = dict(self.start_rolls)
        return new


def cell_centre(cell: Cell) -> tuple[float, float]:
    """Centre of a stud-grid cell, in studs (C1: after a move a unit stands there)."""
    return (cell[0] + 0.5, cell[1] + 0.5)


def replace(value: Any, **changes: Any) -> Any:
    """A frozen unit or vehicle state with some fields changed."""
    return dataclasses.replace(value, **changes)
