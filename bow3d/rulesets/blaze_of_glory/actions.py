"""Blaze of Glory's actions as frozen values that round-trip through plain records (dicts).

Layer: rulesets (Blaze of Glory). Positions in studs. A turn (Activation & Movement) is a `Move`
(up to 4 inches; none is a move of 0 through the spot it stands on), then optionally `Run` (a d6
roll) and `RunMove` (up to that many inches), then one action: `Shoot`, `Fight`, `Reload`
(the whole turn: no move before it), `Finish` (a Baddy taking a wounded figure out of action) or
`EndTurn`. A Hero Point buys one extra action a turn: `Run(hero=True)`, `Shoot(hero=True)`,
`Reload(hero=True)`. A figure in a fistfight at the start of its turn either fights on (`FightOn`)
or tries to pull out (`Disengage`, then a `Move` away and a run).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bow3d.rules.records import Action

Point = tuple[float, float]


@dataclass(frozen=True)
class EndTurn(Action):
    """End the active figure's turn."""

    TYPE: ClassVar[str] = "end_turn"
    FREE: ClassVar[bool] = True
    unit: str


@dataclass(frozen=True)
class Move(Action):
    """Move up to 4 inches through `path` (1 to 4 points, studs; the last is where it stops)."""

    TYPE: ClassVar[str] = "move"
    unit: str
    path: tuple[Point, ...]


@dataclass(frozen=True)
class Run(Action):
    """After moving, roll a d6 to run that many inches further (`hero`: the Hero Point's second roll)."""

    TYPE: ClassVar[str] = "run"
    unit: str
    hero: bool = False


@dataclass(frozen=True)
class RunMove(Action):
    """Move up to the run roll in inches through `path`."""

    TYPE: ClassVar[str] = "run_move"
    unit: str
    path: tuple[Point, ...]


@dataclass(frozen=True)
class Shoot(Action):
    """Fire `weapon` ('pistol', 'pistol-2', 'pistols' for both, 'rifle', 'bow', 'shotgun', 'thrown'):
    one target per shot (several shots: Multiple Shots; the shotgun: the first target gives the
    template's direction)."""

    TYPE: ClassVar[str] = "shoot"
    unit: str
    weapon: str
    targets: tuple[str, ...]
    hero: bool = False


@dataclass(frozen=True)
class Reload(Action):
    """Reload a weapon that ran out of ammo: the whole turn, or the Hero Point's extra action."""

    TYPE: ClassVar[str] = "reload"
    unit: str
    weapon: str
    hero: bool = False


@dataclass(frozen=True)
class Fight(Action):
    """Fisticuffs with an enemy in contact."""

    TYPE: ClassVar[str] = "fight"
    unit: str
    target: str


@dataclass(frozen=True)
class FightOn(Action):
    """In a fistfight when the card is turned: stay and fight."""

    TYPE: ClassVar[str] = "fight_on"
    unit: str


@dataclass(frozen=True)
class Disengage(Action):
    """In a fistfight when the card is turned: try to pull out (an R roll)."""

    TYPE: ClassVar[str] = "disengage"
    unit: str


@dataclass(frozen=True)
class Finish(Action):
    """Take a wounded (or unconscious) figure in contact out of action: the whole turn."""

    TYPE: ClassVar[str] = "finish"
    unit: str
    target: str


ACTION_CLASSES = (EndTurn, Move, Run, RunMove, Shoot, Reload, Fight, FightOn, Disengage, Finish)
