"""The BOW 1.3 rules core: game state, actions, brick rolls, damage, rounds and turns, events.

Layer: rules. Pure Python: never imports bow3d.world, bow3d.view, bow3d.replay or panda3d,
never touches `random` or the clock. Geometric questions go through the `Geometry` protocol
(bow3d.rules.geometry, contract C2), which bow3d.world.World implements; `FlatGeometry`
(bow3d.rules.flat) is a flat-field double for tests and fast playouts. Units: studs, degrees
(0 = world +X, counter-clockwise from above).

Usage (check-then-apply; chance is an explicit, recorded BrickRoll)::

    from bow3d.rules import Game, BrickRoll, Move, Attack, EndTurn, Illegal, action_from_record
    game = Game.start(scene, geometry)          # starting-player rolls pending (BOW §2.2)
    while not game.is_over:
        request = game.pending_roll             # RollRequest(side, bricks, purpose) or None
        if request is not None:                 # the rolls come from outside (bow3d.replay)
            edges = int(rng.binomial(request.bricks, game.ctx.p))
            events = game.apply(BrickRoll(request.side, request.bricks, edges))
        else:
            action = choose(game.legal_actions())  # every legal action passes game.check()
            events = game.apply(action)         # raises Illegal(reason) and changes nothing if illegal
        for event in events:
            print(event.describe())
    game.winner, game.state.result              # side id or None; 'win' | 'draw' | 'points'

Records: `action.to_record()` is a dict with a "type" key; `action_from_record(record)` gives
the action back; `game.records` is the applied-record stack, `game.pop()` takes the last one back
(state, events and geometry); `Game.from_records(scene, geometry, records)` re-simulates a game.

A turn: the side to play picks an unplayed unit by acting with it (or `EndTurn(unit)` to pass);
the same unit acts until `EndTurn`. Pilots owe the free `CompulsoryMove` of a moving vehicle
before they may end their turn. Odds of attacks and treatments: bow3d.rules.odds.
"""

from __future__ import annotations

from bow3d.rules.actions import (
    Action, Attack, BrickRoll, ChangeDirection, ChangeSpeed, CompulsoryMove, Door, DriftMove,
    EndTurn, GetOff, GetOn, Give, Grab, Move, RollRequest, SwitchWeapon, Throw, Treat,
    action_from_record,
)
from bow3d.rules.events import Event
from bow3d.rules.game import Game
from bow3d.rules.geometry import Cell, Contact, Geometry, SightReport
from bow3d.rules.state import GameState, Illegal, Reason, Refusal, UnitState, VehicleState

__all__ = [
    "Action", "Attack", "BrickRoll", "Cell", "ChangeDirection", "ChangeSpeed", "CompulsoryMove",
    "Contact", "Door", "DriftMove", "EndTurn", "Event", "Game", "GameState", "Geometry", "GetOff",
    "GetOn", "Give", "Grab", "Illegal", "Move", "Reason", "Refusal", "RollRequest", "SightReport",
    "SwitchWeapon", "Throw", "Treat", "UnitState", "VehicleState", "action_from_record",
]
