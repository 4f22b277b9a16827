"""Helpers for Blaze of Glory's rule tests: a scene built in memory, a game on the 2.5D table, the deck
arranged, and scripted dice and decisions fed one request at a time.

    game = start(figures(("marshal", "law", "gun", (10, 10))), order=["marshal#1"])
    game.apply(Shoot("marshal", "pistol", ("bart",)))
    feed(game, 3)                       # the to-hit die
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from bow3d.rules import Game
from bow3d.rules.chance import ChanceRequest, Dice, Shuffle
from bow3d.rules.pending import DecisionRequest
from bow3d.rulesets import parse_scene
from tests.rulesets.blaze_of_glory.table import Block, Table

SHEETS = {
    "gun": {"level": 2, "shoot": 4, "fisticuffs": 3, "reflexes": 4, "nerve": 4, "weapons": ["pistol"]},
    "rifle": {"level": 2, "shoot": 4, "fisticuffs": 3, "reflexes": 4, "nerve": 4, "weapons": ["rifle"]},
    "hero": {"level": 4, "shoot": 5, "fisticuffs": 4, "reflexes": 5, "nerve": 5, "weapons": ["pistol", "pistol"]},
    "shotgun": {"level": 1, "shoot": 3, "fisticuffs": 3, "reflexes": 3, "nerve": 3, "weapons": ["shotgun"]},
    "brawler": {"level": 1, "shoot": 3, "fisticuffs": 4, "reflexes": 3, "nerve": 3, "weapons": ["knife"]},
    "mook": {"level": 1, "shoot": 3, "fisticuffs": 3, "reflexes": 3, "nerve": 3, "weapons": ["pistol"]},
}


def _yaml(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_yaml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_yaml(v)}" for k, v in value.items()) + "}"
    return str(value)


def scene_text(units: Iterable[tuple], sheets: dict[str, dict] | None = None, params: dict | None = None) -> str:
    """A scene file: `units` as (id, side, sheet, (x, y)[, facing]); sides law (Goodies) and outlaws."""
    sheets = {**SHEETS, **(sheets or {})}
    ruleset = {"name": "blaze-of-glory", "goodies": "law", "baddies": "outlaws", **(params or {})}
    lines = ["format: bow3d-scene/1", "name: test", "battlefield: table.ldr", f"ruleset: {_yaml(ruleset)}",
             "sides: [{id: law}, {id: outlaws}]", "sheets:"]
    lines += [f"  {name}: {_yaml(sheet)}" for name, sheet in sheets.items()]
    lines.append("units:")
    for unit in units:
        id, side, sheet, (x, y), *facing = unit
        lines.append(f"  - {{id: {id}, side: {side}, sheet: {sheet}, model: fig.ldr, position: [{x}, {y}], "
                     f"facing: {facing[0] if facing else 0}}}")
    return "\n".join(lines) + "\n"


def make(units: Iterable[tuple], blocks: Sequence[Block] = (), sheets: dict[str, dict] | None = None,
         params: dict | None = None) -> Game:
    """A game on the table, waiting for the deck's shuffle."""
    scene = parse_scene(scene_text(units, sheets, params))
    return Game.start(scene, Table.from_scene(scene, blocks=list(blocks)))


def arrange(game: Game, first: Sequence[str] = ()) -> tuple[str, ...]:
    """Answer the shuffle: the cards in `first` on top, in that order, then the others as dealt."""
    request = game.pending
    assert isinstance(request, ChanceRequest) and isinstance(request.spec, Shuffle), request
    cards = list(request.spec.cards)
    order = list(first) + [c for c in cards if c not in first]
    game.apply(request.answer(tuple(order)))
    return tuple(order)


def start(units: Iterable[tuple], first: Sequence[str] = (), **kwargs: Any) -> Game:
    game = make(units, **kwargs)
    arrange(game, first)
    return game


def feed(game: Game, *answers: Any) -> list:
    """Answer the pending requests in order: an int is one d6 face, a tuple the faces of a throw, a bool
    or a str a decision. Returns every event produced."""
    events = []
    for value in answers:
        request = game.pending
        assert request is not None, f"nothing asked, yet {value!r} is left to give"
        if isinstance(request, DecisionRequest):
            events += game.apply(request.answer(value))
            continue
        assert isinstance(request.spec, Dice), request
        faces = value if isinstance(value, tuple) else (value,)
        assert len(faces) == request.spec.count, f"{request.purpose} throws {request.spec.count} dice, not {faces}"
        events += game.apply(request.answer(faces))
    return events


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def of(events, kind: str) -> list:
    return [e for e in events if e.kind == kind]


def asked(game: Game) -> str | None:
    """What the game waits for now: a throw's purpose or a decision's name."""
    request = game.pending
    if request is None:
        return None
    if isinstance(request, DecisionRequest):
        return request.decision
    return request.about.get("purpose", request.purpose) if request.purpose.endswith("_test") else request.purpose
