"""Scenes and games for War of Bros' rule tests: a scene from a few lines, dice answered by hand."""

from __future__ import annotations

import json
from typing import Any

from bow3d.rules import Game
from bow3d.rules.pending import DecisionRequest
from bow3d.rulesets import parse_scene
from bow3d.rulesets.war_of_bros import EndTurn, Place
from tests.rulesets.war_of_bros.field import Box, BoxField

SHEETS = {
    "private": {"template": "starter/private"},
    "sergeant": {"template": "starter/sergeant"},
    "lieutenant": {"template": "starter/lieutenant"},
    "tank": {"template": "mechanized/private", "weapons": ["Area Weapon", "Ranged Weapon"]},
    "crew": {"template": "light-infantry/private"},
}


def scene(units: list[dict], vehicles: list[dict] = (), sheets: dict | None = None, params: dict | None = None,
          sides=("blue", "red")):
    """A War of Bros scene: units as {id, side, sheet, position, facing} (positions in studs). The units start
    at any distance (start_distance_cm 0) unless `params` says otherwise; a parameter given as None is left
    out (the ruleset's default)."""
    ruleset = {"name": "war-of-bros", "start_distance_cm": 0, **(params or {})}
    data: dict[str, Any] = {
        "format": "bow3d-scene/1", "name": "test", "battlefield": "field.ldr",
        "ruleset": {key: value for key, value in ruleset.items() if value is not None},
        "sides": [{"id": s} for s in sides], "sheets": sheets or SHEETS,
        "units": [{"model": "fig.ldr", "facing": 0, **u} for u in units],
    }
    if vehicles:
        data["vehicles"] = [{"model": "tank.ldr", "facing": 0, **v} for v in vehicles]
    return parse_scene(json.dumps(data), "test.yaml")


def answer(game: Game, *outcome) -> list:
    """Answer the awaited throw with these faces (or the awaited decision with this choice)."""
    request = game.pending
    assert request is not None, "nothing is awaited"
    if isinstance(request, DecisionRequest):
        return game.apply(request.answer(outcome[0]))
    return game.apply(request.answer(tuple(outcome)))


def ready(scn, decor=(), first: str | None = None, rounds_skipped: int = 0, **options) -> Game:
    """A game whose units are placed at the scene's positions (placement and first-turn rolls fixed so that
    `first` goes first), in round 1 (or later, after `rounds_skipped` rounds of EndTurn)."""
    game = Game.start(scn, BoxField.for_scene(scn, decor), **options)
    sides = [s.id for s in scn.sides]
    first = first or sides[0]
    for side in sides:  # placement order
        answer(game, 6 if side == first else 1)
    while game.state.phase == "placement":
        side = game.state.side_to_play
        unit = next(u for u in scn.units + list(scn.vehicles) if u.side == side and not game.state.units[u.id].placed
                    and game.state.units[u.id].aboard is None)
        game.apply(Place(unit.id, unit.position[0], unit.position[1], unit.facing))
    while game.pending is not None and game.state.phase != "play":
        request = game.pending
        if isinstance(request, DecisionRequest):
            answer(game, request.options[0])
        else:
            answer(game, 6 if request.side == first else 1)
    for _ in range(rounds_skipped):
        for _side in sides:
            game.apply(EndTurn(game.state.side_to_play))
    return game


__all__ = ["Box", "BoxField", "SHEETS", "answer", "ready", "scene"]
