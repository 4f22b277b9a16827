"""Game state of Blaze of Glory: the figures, the deck of cards, the active figure's turn, the queue of
what is still to resolve.

Layer: rulesets (Blaze of Glory). Positions in studs (the centre of the figure), facings in
degrees, heights (`z`) in LDU above the street. Figure states are frozen values replaced on
change, so a GameState copy is cheap. A figure's `status` is one of the book's states (Wounding,
Fisticuffs, Nerve): standing, knocked down (lies on his back), wounded (lies on his front),
unconscious (on his front with a dead marker beside him), out of action (replaced by a dead
counter: off the table) or fled (failed a Nerve test: "removed from play and may not return").
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from bow3d.rules.pending import Pending

STANDING, KNOCKED_DOWN, WOUNDED = "standing", "knocked_down", "wounded"
UNCONSCIOUS, OUT_OF_ACTION, FLED = "unconscious", "out_of_action", "fled"
STATUSES = (STANDING, KNOCKED_DOWN, WOUNDED, UNCONSCIOUS, OUT_OF_ACTION, FLED)
POSTURES = {STANDING: "standing", KNOCKED_DOWN: "on_back", WOUNDED: "face_down", UNCONSCIOUS: "face_down",
            OUT_OF_ACTION: "dead_counter", FLED: "gone"}   # Wounding: "lay it on its front ... on its back"

# The phases of a turn (Activation & Movement: "A turn consists of moving then carrying out an action")
SHUFFLE, ENGAGED, MOVE, MOVED, RUNNING, RAN, ACTED, BREAKING, DONE, OVER = (
    "shuffle", "engaged", "move", "moved", "running", "ran", "acted", "breaking", "done", "over")


class BlazeReason(str, Enum):
    """Blaze of Glory's own reasons for refusing an action (beside the engine's Reason)."""

    NOT_ACTIVE = "not_active"          # not the figure whose card was turned
    WRONG_PHASE = "wrong_phase"        # not now in the turn (move first, then an action)
    BLOCKED = "blocked"                # the path crosses a figure, leaves the table, or climbs too much
    OUT_OF_AMMO = "out_of_ammo"        # Multiple Shots & Ammunition: reload first
    NO_HERO = "no_hero"                # no Hero Point left, or one used this turn already
    ENGAGED = "engaged"                # in a fistfight: fight on or try to pull out


@dataclass(frozen=True)
class FigureState:
    """One figure: where it stands, its state, hero points left and what the book asks to remember."""

    id: str
    side: str
    sheet: str
    level: int
    position: tuple[float, float]
    facing: float
    z: float = 0.0                          # LDU: the ground it stands (or lies) on
    status: str = STANDING
    needs_nerve: bool = False               # knocked down by "Knock Down (N test)": must pass a Nerve test to get up
    hero: int = 0                           # Hero Points left (Hero Points: "double his level" at the start)
    losses: tuple[int, int, int, int] = (0, 0, 0, 0)   # S, F, R, N taken off by recovering from wounds
    empty: tuple[str, ...] = ()             # weapon slots that ran out of ammo
    engaged: tuple[str, ...] = ()           # opponents in a fistfight (Fisticuffs)
    by: str | None = None                   # who put him down (Blood Brother: the killer)
    vengeance: str | None = None            # Marked Man: hunts this figure, ignores Nerve tests meanwhile
    fearless: bool = False                  # Blaze of Glory: ignores further Nerve tests

    @property
    def on_table(self) -> bool:
        """Still on the table (standing or lying); out of action and fled figures are not."""
        return self.status not in (OUT_OF_ACTION, FLED)

    @property
    def alive(self) -> bool:
        """What the viewers read: out of action and fled figures are gone."""
        return self.on_table

    @property
    def in_fight(self) -> bool:
        """Standing or knocked down: still fighting (wounded, unconscious, gone figures are not)."""
        return self.status in (STANDING, KNOCKED_DOWN)

    @property
    def down(self) -> bool:
        return self.status in (KNOCKED_DOWN, WOUNDED, UNCONSCIOUS)

    @property
    def posture(self) -> str:
        return POSTURES[self.status]


@dataclass
class Turn:
    """The active figure's turn: what it did so far (moves, run, stand up, hero point, action)."""

    unit: str | None = None
    card: str | None = None
    phase: str = SHUFFLE
    moved_in: float = 0.0                   # inches moved (normal move and runs)
    ran: bool = False
    run_in: float = 0.0                     # the run roll being moved
    stood_up: bool = False                  # Shooting: "-1 stood up this turn NB can't use multiple shots"
    level_changes: int = 0                  # Climbing/Fall: at most three a turn
    acted: bool = False
    extra: bool = False                     # the Hero Point's extra action is used
    frenzy: bool = False                    # a Blood Brother's Blaze of Glory
    frenzy_enemy: str | None = None
    away_from: tuple[str, ...] = ()         # pulling out of a fistfight: must move away from them, and run
    hero_used: tuple[str, ...] = ()         # figures that used a Hero Point this turn ("Only one ... a turn")

    def copy(self) -> Turn:
        return dataclasses.replace(self)


@dataclass
class GameState:
    """The whole state; mutated only by `Game.apply` once the checker accepted the record."""

    round: int = 0
    deck: tuple[str, ...] = ()              # this round's cards, in the order they are turned
    drawn: int = 0                          # cards turned so far this round
    figures: dict[str, FigureState] = field(default_factory=dict)
    turn: Turn = field(default_factory=Turn)
    tasks: list[dict[str, Any]] = field(default_factory=list)   # what is still to resolve, in order
    interrupts: tuple[str, ...] = ()        # Blaze of Glory: figures that act at once, before the next card
    pending: Pending | None = None
    winner: str | None = None
    result: str | None = None
    over: bool = False
    activations: int = 0

    @property
    def phase(self) -> str:
        return OVER if self.over else self.turn.phase

    @property
    def units(self) -> dict[str, FigureState]:
        """The figures, under the name the viewers read (bow3d.view.film.timeline.snapshot)."""
        return self.figures

    def copy(self) -> GameState:
        new = dataclasses.replace(self)
        new.figures = dict(self.figures)
        new.turn = self.turn.copy()
        new.tasks = [dict(t) for t in self.tasks]
        return new


def replace(value: Any, **changes: Any) -> Any:
    return dataclasses.replace(value, **changes)
