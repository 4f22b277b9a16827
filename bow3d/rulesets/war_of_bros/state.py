"""Game state of War of Bros: units on their bases, the turn order, the steps, bodies, wrecks, tokens.

Layer: rulesets (War of Bros; pure Python). Positions in studs (the centre of the base, as in the
scene), facings in degrees; movement in cm. Unit states are frozen values replaced on change, so
a copy is cheap. Every unit of the game is here, Mechanized ones included (the scene lists those
under `vehicles:`); `vehicles` stays empty (viewers read both tables).
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass, field
from typing import Any

from bow3d.rules.pending import Pending


class WobReason(str, enum.Enum):
    """War of Bros' own reasons for refusing an action (beside the engine's bow3d.rules.Reason)."""

    FIRST_TURN = "first_turn"          # "On the first turn of every encounter, players are not permitted to make an attack"
    WRONG_STEP = "wrong_step"          # not the step for it (Order Of Operation)
    NO_MOVEMENT_LEFT = "no_movement_left"
    BLOCKED = "blocked"                # cover of a rating higher than Light, a wreck, another base, the edge
    START_DISTANCE = "start_distance"  # Unit Placement: the 60 cm rule


@dataclass(frozen=True)
class UnitState:
    """One unit; `position` None while not placed (or aboard its Mechanized unit, `aboard`)."""

    id: str
    side: str
    sheet: str
    position: tuple[float, float] | None
    facing: float
    alive: bool = True
    placed: bool = False            # on the battlefield
    aboard: str | None = None       # crew inside a Mechanized unit
    moved_cm: float = 0.0           # movement used in its activation
    activated: bool = False         # done in this turn
    penalised: bool = False         # a counter-attack hit it in this activation: no Final Movement Step
    burning: int = 0                # Incendiary: rounds left
    kills: int = 0
    damage: int = 0                 # viewers read it; War of Bros units have no damage points

    @property
    def on_field(self) -> bool:
        return self.alive and self.placed and self.position is not None

    @property
    def in_play(self) -> bool:
        """Alive, on the battlefield or inside a Mechanized unit."""
        return self.alive and (self.placed or self.aboard is not None)


@dataclass(frozen=True)
class Obstacle:
    """A Body or a wreck left on the battlefield ("Vitality Step": "replace the unit ... with a equally
    sized proxy"): its base corners (studs), material and the side it belonged to."""

    id: str
    kind: str                       # 'body' | 'wreck'
    corners: tuple[tuple[float, float], ...]
    material: str
    side: str
    height_ldu: float


@dataclass
class GameState:
    """The whole state; changed only by `Game.apply` after the checker accepted the record."""

    round: int = 0
    phase: str = "start"            # 'start' | 'placement' | 'play' | 'over'
    order: list[str] = field(default_factory=list)        # turn order (after the first-turn roll)
    placing: list[str] = field(default_factory=list)      # placement order
    side_to_play: str | None = None
    active: str | None = None       # the unit in its activation
    step: str | None = None         # 'first' | 'final' (Order Of Operation)
    units: dict[str, UnitState] = field(default_factory=dict)
    vehicles: dict[str, Any] = field(default_factory=dict)
    obstacles: dict[str, Obstacle] = field(default_factory=dict)
    removed: frozenset[int] = frozenset()                 # decor instances destroyed
    pending: Pending | None = None
    tasks: tuple[tuple, ...] = ()   # what follows before play goes on (strikes, reactions, tramples)
    rolls: dict[str, int] = field(default_factory=dict)   # the last order roll of each side
    called: frozenset[tuple[str, str]] = frozenset()      # (reactor, mover) opportunities called this activation
    frags: dict[str, int] = field(default_factory=dict)   # Capture The Frag: tokens left
    primary: dict[str, str | None] = field(default_factory=dict)
    winner: str | None = None
    result: str | None = None       # 'win' | 'draw' | 'power' (round limit)
    rewards: dict[str, int] = field(default_factory=dict)

    def copy(self) -> GameState:
        # dataclasses.replace(self) without its per-field machinery (a copy is made for every record): the fields'
        # values, and nothing else kept on the state (movement's plans are kept there for one record)
        if type(self) is GameState:
            new = object.__new__(GameState)
            new.__dict__.update({name: value for name, value in self.__dict__.items() if name in _STATE_FIELDS})
        else:
            new = dataclasses.replace(self)
        new.order, new.placing = list(self.order), list(self.placing)
        new.units = dict(self.units)
        new.vehicles = dict(self.vehicles)
        new.obstacles = dict(self.obstacles)
        new.rolls, new.frags, new.primary = dict(self.rolls), dict(self.frags), dict(self.primary)
        new.rewards = dict(self.rewards)
        return new

    @property
    def first_turn(self) -> bool:
        return self.round == 1


_UNIT_FIELDS = frozenset(f.name for f in dataclasses.fields(UnitState))
_STATE_FIELDS = frozenset(f.name for f in dataclasses.fields(GameState))


def replace(value: Any, **changes: Any) -> Any:
    """dataclasses.replace. A UnitState (replaced thousands of times a game) has its fields copied directly:
    a frozen dataclass with no __post_init__ and every field in __init__, so the new value is the same."""
    if type(value) is UnitState and _UNIT_FIELDS.issuperset(changes):
        new = object.__new__(UnitState)
        new.__dict__.update(value.__dict__)
        new.__dict__.update(changes)
        return new
    return dataclasses.replace(value, **changes)
