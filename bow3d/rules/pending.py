"""Pending answers: the chance throws and the other players' decisions an action waits for.

Layer: rules (the engine; pure Python). An action that needs chance or another player's choice
in the middle of a turn (a reaction, an interrupt, who takes the extra point) queues requests in
order; the game then accepts only the answer to the first one (a `Roll` for a ChanceRequest, a
`Decide` for a DecisionRequest) and refuses every action. A chance request whose spec has one
possible outcome (`spec.fixed()`, e.g. nothing to throw) is answered at once with no record.
When the last answer is in, the ruleset's resolver for the pending kind finishes the action.
Everything is in the records, so a replay re-simulates without a random generator or a player.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from bow3d.i18n import _
from bow3d.rules.chance import ChanceRequest, Roll
from bow3d.rules.events import Event
from bow3d.rules.records import Action, frozen, plain
from bow3d.rules.refusal import Reason, Refusal

if TYPE_CHECKING:
    from bow3d.rules.game import Game

Resolver = Callable[["Game", "Pending"], list[Event]]


@dataclass(frozen=True)
class DecisionRequest:
    """The game waits for `side` to choose one of `options` (plain values) for `decision` (a machine
    word, e.g. 'reaction', 'extra_point') about `about` (ids)."""

    side: str
    decision: str
    options: tuple[Any, ...]
    about: dict[str, Any] = field(default_factory=dict)

    def answer(self, choice: Any) -> Decide:
        return Decide(self.side, choice)

    def fields(self) -> dict[str, Any]:
        return {"side": self.side, "decision": self.decision, "options": plain(self.options),
                "about": dict(self.about)}


@dataclass(frozen=True)
class Decide(Action):
    """The answer to a decision request: `side` chose `choice` (record type 'decide')."""

    TYPE: ClassVar[str] = "decide"
    FREE: ClassVar[bool] = True
    side: str
    choice: Any

    def __post_init__(self) -> None:
        object.__setattr__(self, "choice", frozen(self.choice))


Request = ChanceRequest | DecisionRequest


@dataclass(frozen=True)
class Pending:
    """An action waiting for answers: the requests still to answer (first = awaited), the answers so
    far (outcomes and choices, in order), and the data its resolver needs."""

    kind: str
    requests: tuple[Request, ...]
    answers: tuple[Any, ...] = ()
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def rolls(self) -> tuple[Any, ...]:
        """The answers so far (for rulesets whose pending actions wait for throws only)."""
        return self.answers


def request(game: Game, kind: str, requests: Sequence[Request], **data: Any) -> list[Event]:
    """Queue the answers an action needs; resolves at once when none needs to be asked."""
    game.state.pending = Pending(kind, tuple(requests), (), data)
    return advance(game)


def advance(game: Game) -> list[Event]:
    """Answer fixed throws at once, then announce the next request, or resolve the action."""
    pending = game.state.pending
    assert pending is not None
    while pending.requests and isinstance(pending.requests[0], ChanceRequest) \
            and pending.requests[0].spec.fixed() is not None:
        fixed = pending.requests[0].spec.fixed()
        pending = dataclasses.replace(pending, requests=pending.requests[1:], answers=pending.answers + (fixed,))
    if pending.requests:
        game.state.pending = pending
        first = pending.requests[0]
        if isinstance(first, ChanceRequest):
            return [game.event("roll_requested", **first.fields())]
        return [game.event("decision_requested", **first.fields())]
    game.state.pending = None
    return game.ruleset.resolver(pending.kind)(game, pending)


def awaited(game: Game) -> Request | None:
    pending = game.state.pending
    return pending.requests[0] if pending is not None and pending.requests else None


def check_roll(game: Game, roll: Roll) -> Refusal | None:
    """The roll answers the awaited chance request: same side, same spec, a possible outcome."""
    req = awaited(game)
    if not isinstance(req, ChanceRequest):
        return Refusal(Reason.NO_ROLL_PENDING, _("no throw is awaited now"))
    if roll.side != req.side or roll.spec != req.spec:
        return Refusal(Reason.WRONG_ROLL, _("awaited {side} throwing {spec} ({purpose}), got {got_side} throwing "
                                            "{got_spec}").format(side=req.side, spec=req.spec.to_record(),
                                                                 purpose=req.purpose, got_side=roll.side,
                                                                 got_spec=roll.spec.to_record()))
    problem = req.spec.check(roll.outcome)
    if problem is not None:
        return Refusal(Reason.WRONG_ROLL, _("impossible outcome {outcome}: {problem}").format(
            outcome=repr(plain(roll.outcome)), problem=problem))
    return None


def check_decide(game: Game, decide: Decide) -> Refusal | None:
    req = awaited(game)
    if not isinstance(req, DecisionRequest):
        return Refusal(Reason.NO_DECISION_PENDING, _("no decision is awaited now"))
    if decide.side != req.side:
        return Refusal(Reason.WRONG_DECISION, _("awaited {side}'s decision ({decision}), not {other}'s").format(
            side=req.side, decision=req.decision, other=decide.side))
    if decide.choice not in req.options:
        return Refusal(Reason.WRONG_DECISION, _("{choice} is not one of {options}").format(
            choice=repr(plain(decide.choice)), options=plain(req.options)))
    return None


def apply_answer(game: Game, answer: Roll | Decide) -> list[Event]:
    """Take the answer (already checked), say it, then advance."""
    pending = game.state.pending
    assert pending is not None
    req = pending.requests[0]
    value = answer.outcome if isinstance(answer, Roll) else answer.choice
    game.state.pending = dataclasses.replace(pending, requests=pending.requests[1:], answers=pending.answers + (value,))
    if isinstance(req, ChanceRequest):
        event = game.event("rolled", **{**req.fields(), "outcome": plain(value)})
    else:
        event = game.event("decided", **{**req.fields(), "choice": plain(value)})
    return [event] + advance(game)
