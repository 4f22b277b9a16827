"""Why an action or an answer is refused: a typed reason and plain words.

Layer: rules (the engine; pure Python). The reasons here are the engine's and those every
skirmish game shares; a ruleset adds its own as another `str` Enum (a reason is compared with
`is` or `==`, and its value is the word written in records and messages).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bow3d.errors import RulesError


class Reason(str, Enum):
    """Typed reasons for refusing an action or an answer (python-chess style: a value, not a string)."""

    GAME_OVER = "game_over"
    ROLL_PENDING = "roll_pending"          # a chance answer (dice, cards...) is awaited, not an action
    NO_ROLL_PENDING = "no_roll_pending"    # an answer to chance that nobody asked for
    WRONG_ROLL = "wrong_roll"              # side, spec or outcome do not match the request
    DECISION_PENDING = "decision_pending"  # another player's decision is awaited
    NO_DECISION_PENDING = "no_decision_pending"
    WRONG_DECISION = "wrong_decision"      # not the awaited side, or not one of the options
    NOT_YOUR_TURN = "not_your_turn"
    UNKNOWN = "unknown"                    # unknown unit, action type, weapon, item, door...
    CANNOT_ACT = "cannot_act"              # dead, gone, already played
    NO_ACTION_LEFT = "no_action_left"      # the activation's budget is spent
    OUT_OF_REACH = "out_of_reach"
    NOT_VISIBLE = "not_visible"
    NOT_IN_FRONT = "not_in_front"
    TOO_FAR = "too_far"
    BAD_TARGET = "bad_target"
    NOT_ALLOWED = "not_allowed"            # the rule forbids it


class Illegal(RulesError):
    """An action or answer that breaks a rule; the game is left unchanged.

    `.reason` is a Reason (or a ruleset's own reason enum), `.words` the plain explanation.
    """

    def __init__(self, reason: Enum, words: str) -> None:
        super().__init__(f"{words} ({reason.value})")
        self.reason = reason
        self.words = words


@dataclass(frozen=True)
class Refusal:
    """The checker's answer for an illegal action: a typed reason and plain words."""

    reason: Enum
    words: str

    def error(self) -> Illegal:
        return Illegal(self.reason, self.words)
