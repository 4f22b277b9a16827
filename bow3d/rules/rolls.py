"""Explicit chance: pending brick-roll requests, their checking and their resolution.

Layer: rules. An action that needs brick rolls queues RollRequests (performer first, then
the resisting side, BOW §2.4.1); the game then only accepts the matching BrickRoll. A request
for 0 bricks needs no throw: it counts 0 at once ("sometimes the opponent has no Brick to
throw", BOW Annex B.1). When the last roll is in, the resolver registered for the pending
kind finishes the action.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from bow3d.rules.actions import BrickRoll, RollRequest
from bow3d.rules.events import Event, bricks
from bow3d.rules.state import Pending, Reason, Refusal

if TYPE_CHECKING:
    from bow3d.rules.game import Game

RESOLVERS: dict[str, Callable[["Game", Pending], list[Event]]] = {}


def register(kind: str) -> Callable:
    """Decorator: the function that finishes an action of this pending kind."""
    def wrap(fn: Callable) -> Callable:
        RESOLVERS[kind] = fn
        return fn
    return wrap


def request(g: Game, kind: str, requests: Sequence[RollRequest], **data: Any) -> list[Event]:
    """Queue the rolls an action needs; resolves at once when none needs a throw."""
    g.state.pending = Pending(kind, tuple(requests), (), data)
    return advance(g)


def advance(g: Game) -> list[Event]:
    """Count 0-brick requests as 0, then either announce the next roll or resolve."""
    pending = g.state.pending
    assert pending is not None
    while pending.requests and pending.requests[0].bricks <= 0:
        pending = dataclasses.replace(pending, requests=pending.requests[1:], rolls=pending.rolls + (0,))
    if pending.requests:
        g.state.pending = pending
        req = pending.requests[0]
        return [g.event("roll_requested", f"{req.side} rolls {bricks(req.bricks)} ({req.purpose})",
                        side=req.side, bricks=req.bricks, purpose=req.purpose)]
    g.state.pending = None
    return RESOLVERS[pending.kind](g, pending)


def check_roll(g: Game, roll: BrickRoll) -> Refusal | None:
    """BOW §2.1: the roll must be the awaited one; 0 <= edges <= bricks."""
    req = g.pending_roll
    if req is None:
        return Refusal(Reason.NO_ROLL_PENDING, "no brick roll is awaited now")
    if roll.side != req.side or roll.bricks != req.bricks:
        return Refusal(Reason.WRONG_ROLL, f"awaited {req.side} rolling {bricks(req.bricks)} ({req.purpose}), "
                       f"got {roll.side} rolling {bricks(roll.bricks)}")
    if not isinstance(roll.edges, int) or isinstance(roll.edges, bool) or not 0 <= roll.edges <= roll.bricks:
        return Refusal(Reason.WRONG_ROLL, f"{roll.edges!r} bricks on edge out of {roll.bricks}")
    return None


def apply_roll(g: Game, roll: BrickRoll) -> list[Event]:
    pending = g.state.pending
    assert pending is not None
    req = pending.requests[0]
    g.state.pending = dataclasses.replace(pending, requests=pending.requests[1:], rolls=pending.rolls + (roll.edges,))
    events = [g.event("rolled", f"{req.side} rolls {bricks(req.bricks)} ({req.purpose}): {roll.edges} on edge",
                      side=req.side, bricks=req.bricks, edges=roll.edges, purpose=req.purpose)]
    return events + advance(g)
