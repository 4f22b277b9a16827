"""The rules engine: check-then-apply, the record stack, pending chance and decisions, typed events,
the ruleset interface and its registry. It names no game: each game system is a ruleset
(bow3d.rulesets) plugged into it.

Layer: rules. Pure Python: never imports bow3d.world, bow3d.view, bow3d.replay, numpy or panda3d,
never touches `random` or the clock. Geometric questions go through the `Geometry` protocol
(bow3d.rules.geometry, contract C2), which bow3d.world.World implements; `FlatGeometry`
(bow3d.rules.flat) is a flat-field double for tests and fast playouts. Units: studs, degrees
(0 = world +X, counter-clockwise from above).

More: docs/modules/rules.md#rules.
"""

from __future__ import annotations

from bow3d.rules.chance import CardDraw, ChanceRequest, ChanceSpec, Dice, Roll, Shuffle, register_spec, spec_from_record
from bow3d.rules.events import Event, EventKind, EventSchema, FieldSpec, Narrator, event_from_record
from bow3d.rules.game import Game
from bow3d.rules.geometry import Cell, Contact, Geometry, SightReport
from bow3d.rules.pending import Decide, DecisionRequest, Pending
from bow3d.rules.records import Action, ActionTable
from bow3d.rules.refusal import Illegal, Reason, Refusal
from bow3d.rules.ruleset import RULESETS, Registry, Ruleset, UnknownOpponent, UnknownRuleset

__all__ = [
    "Action", "ActionTable", "CardDraw", "Cell", "ChanceRequest", "ChanceSpec", "Contact", "Decide",
    "DecisionRequest", "Dice", "Event", "EventKind", "EventSchema", "FieldSpec", "Game", "Geometry", "Illegal",
    "Narrator", "Pending", "RULESETS", "Reason", "Refusal", "Registry", "Roll", "Ruleset", "Shuffle",
    "SightReport", "UnknownOpponent", "UnknownRuleset", "event_from_record", "register_spec", "spec_from_record",
]
