"""Scene builders and game helpers for the rules tests (scenes built in memory with bow3d.scene)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bow3d.rules import Game
from bow3d.rules.flat import Box, FlatGeometry
from bow3d.rulesets.bow import BowScene as Scene

TROOPER: dict[str, Any] = {
    "kind": "minifig", "action_budget": 2, "move": 5, "attack": 1, "dodge": 1, "armor": 0, "hp": 1,
    "weapons": [{"name": "rifle", "kind": "ranged", "damage": 2}, {"name": "knife", "kind": "melee", "damage": 1}],
}
HERO = {**TROOPER, "hp": 3, "armor": 1, "treat": 2, "action_budget": 3}
MEDIC = {**TROOPER, "treat": 2, "weapons": [{"name": "knife", "kind": "melee", "damage": 1}]}
MECHANIC = {**MEDIC, "treat_colour": "yellow"}
JEEP = {"kind": "vehicle", "speed": 4, "dodge": 0, "armor": 5, "hp": 2, "seats": 3, "exposed_occupants": True,
        "weapons": [{"name": "machine gun", "kind": "ranged", "damage": 3, "arc": 180}]}
PLANE = {"kind": "vehicle", "speed": 8, "min_speed": 4, "flying": True, "armor": 3, "hp": 1, "seats": 1}


def build_scene(units: list[tuple], vehicles: list[tuple] = (), sheets: dict | None = None,
                **ruleset: Any) -> Scene:
    """units: (id, side, sheet, (x, y) or None, facing[, weapon]); vehicles: (id, side, sheet, (x, y),
    facing, speed, [occupants])."""
    all_sheets = {"trooper": TROOPER, "hero": HERO, "medic": MEDIC, "mechanic": MECHANIC, "jeep": JEEP,
                  "plane": PLANE}
    all_sheets.update(sheets or {})
    return Scene.model_validate({
        "battlefield": "field.ldr",
        "ruleset": ruleset,
        "sides": [{"id": "blue", "colour": 1}, {"id": "red", "colour": 4}],
        "sheets": all_sheets,
        "units": [{"id": u[0], "side": u[1], "sheet": u[2], "model": "3626.dat",
                   **({"position": list(u[3])} if u[3] is not None else {}), "facing": u[4],
                   **({"weapon": u[5]} if len(u) > 5 else {})} for u in units],
        "vehicles": [{"id": v[0], "side": v[1], "sheet": v[2], "model": "jeep.ldr", "position": list(v[3]),
                      "facing": v[4], "speed": v[5], "occupants": list(v[6]) if len(v) > 6 else []}
                     for v in vehicles],
    })


def new_game(units: list[tuple], vehicles: list[tuple] = (), *, starter: str | None = "blue",
             walls: list[Box] = (), cover: list[Box] = (), max_rounds: int | None = None,
             sheets: dict | None = None, **ruleset: Any) -> Game:
    """A game on a 60 x 60 flat field; with `starter`, the starting rolls are applied so that it starts."""
    scene = build_scene(units, vehicles, sheets, **ruleset)
    geometry = FlatGeometry.from_scene(scene, walls=list(walls), cover=list(cover))
    game = Game.start(scene, geometry, max_rounds=max_rounds)
    if starter is not None:
        for side in ("blue", "red"):
            game.apply(game.pending_roll.answer(3 if side == starter else 1))
    return game


def roll(game: Game, *edges: int) -> list:
    """Apply the awaited brick rolls with these results, in order; returns all events."""
    events = []
    for e in edges:
        request = game.pending_roll
        assert request is not None, "no roll pending"
        events += game.apply(request.answer(e))
    return events


@pytest.fixture
def game_of() -> Callable[..., Game]:
    return new_game


@pytest.fixture
def scene_of() -> Callable[..., Scene]:
    return build_scene


@pytest.fixture
def rules():
    """Helpers: rules.game(units, vehicles, ...), rules.roll(game, *edges), rules.scene(units, ...)."""
    from types import SimpleNamespace
    return SimpleNamespace(game=new_game, roll=roll, scene=build_scene)
