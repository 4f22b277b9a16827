"""What one choice of the BOW AI reads often: the enemies, where they are, how far they shoot.

Layer: rulesets (BOW). Shared by the AI (ai.py) and its pilots (ai_pilots.py); no rules are judged
here, only the state and the sheets read.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bow3d.rulesets.bow.context import sheet_value


def _bearing(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])) % 360


def _turn_between(a: float, b: float) -> float:
    return abs((b - a + 180) % 360 - 180)


@dataclass
class _Board:
    """What one choice reads often: enemies, their positions and weapons' ranges."""

    game: Any
    side: str
    enemies: list[Any] = field(default_factory=list)
    enemy_xy: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    shooter_range: np.ndarray = field(default_factory=lambda: np.zeros(0))  # 0 = no ranged weapon
    hinted: set = field(default_factory=set)  # moves next to an obstacle (asked about cover too)
    memo: dict = field(default_factory=dict)  # answers asked more than once in one choice
    riders_shoot: bool = True  # an enemy aboard a vehicle shoots too (its own weapon, the vehicle's)

    def __post_init__(self) -> None:
        state = self.game.state
        self.units, self.vehicles = state.units, state.vehicles
        for unit in self.units.values():
            where = self.position_of(unit.id)
            if unit.side != self.side and unit.in_play and where is not None:
                self.enemies.append(unit)
        self.enemy_xy = np.array([self.position_of(u.id) for u in self.enemies], float).reshape(-1, 2)
        self.shooter_range = np.array([self._shooting_range(enemy) for enemy in self.enemies], float)

    def _shooting_range(self, enemy: Any) -> float:
        """Studs within which the enemy can still shoot with one brick (0: no ranged weapon), §2.4.2.
        Aboard, with `riders_shoot`, the vehicle's ranged weapons count too (§3.5)."""
        ctx = self.game.ctx
        skill = int(sheet_value(self.sheet(enemy.sheet), "attack"))
        weapons = [ctx.weapon(enemy.sheet, enemy.weapon)]
        if enemy.aboard is not None:
            if not self.riders_shoot:
                return 0.0
            weapons += list(sheet_value(self.sheet(self.vehicles[enemy.aboard].sheet), "weapons", []))
        bricks = [skill + int(sheet_value(w, "damage")) for w in weapons
                  if w is not None and sheet_value(w, "kind", "ranged") == "ranged"]
        return ctx.range_band * max(bricks) if bricks else 0.0

    def sheet(self, sheet_id: str) -> Any:
        return self.game.ctx.sheet(sheet_id)

    def position_of(self, id: str) -> tuple[float, float] | None:
        """Where a unit (its vehicle while aboard) or vehicle is on the field."""
        unit = self.units.get(id)
        if unit is not None:
            return self.vehicles[unit.aboard].position if unit.aboard is not None else unit.position
        vehicle = self.vehicles.get(id)
        return vehicle.position if vehicle is not None else None

    def nearest_enemy(self, point: tuple[float, float] | None) -> tuple[float, np.ndarray | None]:
        if point is None or not len(self.enemy_xy):
            return math.inf, None
        d = np.hypot(self.enemy_xy[:, 0] - point[0], self.enemy_xy[:, 1] - point[1])
        i = int(np.argmin(d))
        return float(d[i]), self.enemy_xy[i]

    def friends(self, unit_id: str) -> list[Any]:
        return [u for u in self.units.values() if u.side == self.side and u.id != unit_id and u.in_play]
