"""A heuristic BOW player: scores the legal actions and plays the best one.

Layer: rules (pure: no world, view or replay import, no global random). It reads the game state,
the description sheets and the geometry protocol (C2), and weighs attacks and treatments by
their exact odds (bow3d.rules.odds). Ties are broken by a numpy Generator passed in, so a game
is a function of its seed.

What it does, in BOW 1.3's words:
- fires (or strikes) with the best odds: expected damage, plus the chance to kill (§2.4.2, §2.4.3);
- moves to cover: a cell whose neighbour towards the nearest enemy is blocked (a wall, a house,
  a unit) counts as covered; ranged units close to their best range band, melee units charge,
  and nobody walks into the open needlessly (§2.3.1, §2.4.2 cover);
- medics treat wounded friends whose HP colour matches their treat colour, and walk to them (§2.4.4);
- pilots drive vehicles towards the nearest enemy, turning at most 45 degrees per action and
  slowing down when the straight move ahead would crash into the decor or leave the field (§3.3, §3.6).

Cost: moves are first scored with arithmetic on the stud grid; only the best REFINE of them are
checked with the geometry (the unit stood there with place(), at most SHOOTERS sight queries
each, then put back). Attacks are weighed with the rules' own brick counts (combat.attack_plan).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from bow3d.errors import RulesError
from bow3d.rules.actions import (
    Action, Attack, ChangeDirection, ChangeSpeed, CompulsoryMove, DriftMove, EndTurn, GetOff, GetOn, Move,
    Treat,
)
from bow3d.rules.combat import attack_plan
from bow3d.rules.odds import attack_odds, treat_odds

# Weights, in "expected damage points" (one kill of a 1-HP trooper is worth KILL_VALUE).
KILL_VALUE = 1.5
TREAT_VALUE = 2.0           # one HP back is one hit less from death
COVER_VALUE = 0.45          # standing covered towards the nearest enemy
ADVANCE_VALUE = 0.35        # per Move worth of studs gained towards the enemy, when out of range
EXPOSED_PENALTY = 0.15      # per enemy that could shoot the cell without cover
WOUNDED_PULL = 0.6          # medic walking to a wounded friend, per Move worth of studs
WAIT_FOR_MEDIC = 1.0        # a wounded unit walking away from the medic beside him
SEEK_VALUE = 0.25           # ranged unit with no target in sight: per Move worth of studs closer
FOLLOW_VALUE = 0.15         # medic with nobody to treat: per Move worth of studs closer to his friends
STAND_STILL = -0.05         # a Move that ends where it started (reorienting) is worth little
DRIVE_VALUE = 0.4           # pilots: per 5 studs gained towards the enemy
CRASH_PENALTY = 2.0         # pilots: a straight move that ends against the decor or off the field
HIDDEN_VALUE = 0.35         # out of an enemy's sight altogether (per enemy asked)
GRID_COVER_HINT = 0.1       # an obstacle next to the cell, towards the nearest enemy (before asking)
REFINE = 4                  # moves per decision whose cover is asked of the geometry
SHOOTERS = 2                # enemies asked per move
TIE = 1e-9


@dataclass
class _Decision:
    """What one decision reads often: positions, enemies, sheets (rebuilt per decision)."""

    game: Any
    side: str
    can_attack: set[str]

    def __post_init__(self) -> None:
        state = self.game.state
        self.units = state.units
        self.vehicles = state.vehicles
        self.enemies = [u for u in self.units.values() if u.side != self.side and u.in_play]
        self.enemy_positions = [self.position_of(u.id) for u in self.enemies]

    def sheet(self, sheet_id: str) -> Any:
        return self.game.ctx.sheet(sheet_id)

    def position_of(self, unit_or_vehicle: str) -> tuple[float, float] | None:
        """Where a unit is on the field (its vehicle's position when aboard)."""
        unit = self.units.get(unit_or_vehicle)
        if unit is not None:
            if unit.aboard is not None:
                return self.vehicles[unit.aboard].position
            return unit.position
        vehicle = self.vehicles.get(unit_or_vehicle)
        return vehicle.position if vehicle is not None else None

    def friends_centre(self, unit_id: str) -> tuple[float, float] | None:
        """The mean position of the other units of the side on the field."""
        points = [self.position_of(u.id) for u in self.units.values()
                  if u.side == self.side and u.id != unit_id and u.in_play]
        points = [p for p in points if p is not None]
        if not points:
            return None
        return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))

    def nearest_enemy(self, point: tuple[float, float] | None) -> tuple[float, tuple[float, float] | None]:
        best, where = math.inf, None
        if point is None:
            return best, where
        for position in self.enemy_positions:
            if position is not None:
                d = math.hypot(position[0] - point[0], position[1] - point[1])
                if d < best:
                    best, where = d, position
        return best, where


def _value(sheet: Any, name: str, default: Any = 0) -> Any:
    value = getattr(sheet, name, default)
    return default if value is None else value


class AIPlayer:
    """Plays one side: `choose(game)` returns one of `game.legal_actions()`."""

    def __init__(self, side: str, rng: np.random.Generator) -> None:
        self.side = side
        self.rng = rng

    def choose(self, game: Any) -> Action:
        """The best-scored legal action now (ties broken by the generator)."""
        actions = game.legal_actions()
        if not actions:
            raise RulesError(f"the AI of {self.side} has no legal action (is a brick roll pending?)")
        decision = _Decision(game, self.side, {a.unit for a in actions if isinstance(a, Attack)})
        scores = np.array([self.score(decision, action) for action in actions])
        self._refine_moves(decision, actions, scores)
        best = np.flatnonzero(scores >= scores.max() - TIE)
        return actions[int(best[0] if len(best) == 1 else self.rng.choice(best))]

    # -- scoring -------------------------------------------------------------------------
    def score(self, d: _Decision, action: Action) -> float:
        """How good an action looks, in expected damage points; EndTurn is 0."""
        if isinstance(action, Attack):
            return self._attack(d, action)
        if isinstance(action, Treat):
            return self._treat(d, action)
        if isinstance(action, Move):
            return self._move(d, action)
        if isinstance(action, EndTurn):
            return 0.0
        if isinstance(action, (CompulsoryMove, DriftMove)):
            return 0.01  # owed anyway: after steering, before ending the turn
        if isinstance(action, ChangeSpeed):
            return self._speed(d, action)
        if isinstance(action, ChangeDirection):
            return self._direction(d, action)
        if isinstance(action, GetOn):
            return 0.3 if action.seat == 0 else 0.05
        if isinstance(action, GetOff):
            return -0.3
        return -0.5  # grab, throw, give, switch, doors: not part of the plan

    def _attack(self, d: _Decision, action: Attack) -> float:
        """Expected damage plus the chance to kill, with the rules' own brick counts (§2.4.2)."""
        plan, refusal = attack_plan(d.game, action)
        if plan is None or plan["attack"] <= 0:
            return -1.0
        target = d.units.get(action.target) or d.vehicles[action.target]
        odds = attack_odds(int(plan["attack"]), int(plan["dodge"]), d.game.ctx.p)
        left = int(_value(d.sheet(target.sheet), "hp", 1)) - int(target.damage)
        kill = sum(p for k, p in odds.damage_distribution.items() if k >= left)
        return odds.expected_damage + KILL_VALUE * kill

    def _treat(self, d: _Decision, action: Treat) -> float:
        medic = d.units[action.unit]
        target = d.units.get(action.target) or d.vehicles[action.target]
        odds = treat_odds(int(_value(d.sheet(medic.sheet), "treat")), int(target.damage), d.game.ctx.p)
        return TREAT_VALUE * odds.success

    def _move(self, d: _Decision, action: Move) -> float:
        unit = d.units[action.unit]
        sheet = d.sheet(unit.sheet)
        start = unit.position
        if start is None:
            return -1.0
        to = (action.to[0] + 0.5, action.to[1] + 0.5)
        move = max(1, int(_value(sheet, "move", 1)))
        if action.to == unit.cell:
            return STAND_STILL + (0.2 if self._facing_gain(d, unit, action.facing) else 0.0)
        d_now, _ = d.nearest_enemy(start)
        d_new, enemy = d.nearest_enemy(to)
        if enemy is None:
            return STAND_STILL
        score = 0.0
        if unit.damage > 0 and self._medic_beside(d, unit, start) and not self._medic_beside(d, unit, to):
            score -= WAIT_FOR_MEDIC  # a wounded unit waits for the medic beside him (§2.4.4)
        wounded = self._wounded_friend(d, unit, sheet)
        weapon = d.game.ctx.weapon(unit.sheet, unit.weapon)
        if wounded is not None:  # a medic walks to the wounded friend (§2.4.4: must touch him)
            w_new = math.dist(to, wounded)
            score += WOUNDED_PULL * (math.dist(start, wounded) - w_new) / move + (0.3 if w_new <= 1.5 else 0.0)
        elif int(_value(sheet, "treat")) > 0:  # a medic with nobody to treat keeps near his friends
            centre = d.friends_centre(unit.id)
            if centre is not None:
                score += FOLLOW_VALUE * (math.dist(start, centre) - math.dist(to, centre)) / move
        elif _value(weapon, "kind", "ranged") == "melee":  # charge
            reach = float(_value(weapon, "reach", 1))
            score += ADVANCE_VALUE * 2 * (d_now - d_new) / move + (0.5 if d_new <= reach + 1.0 else 0.0)
        else:  # ranged: close to the best range band; with no target in sight, look for one
            bricks = int(_value(sheet, "attack")) + int(_value(weapon, "damage"))
            best_range = d.game.ctx.range_band * max(1, bricks - 1)  # keep at least 2 bricks
            if unit.id not in d.can_attack:
                score += SEEK_VALUE * (d_now - d_new) / move
            elif d_now > best_range:
                score += ADVANCE_VALUE * (min(d_now, d_new + move) - max(d_new, best_range)) / move
            elif d_new > best_range:
                score -= ADVANCE_VALUE
        # until _refine_moves asks the geometry: exposed to every enemy in range, a hint of
        # cover where the grid shows an obstacle towards the nearest enemy
        score -= EXPOSED_PENALTY * self._threats(d, to)
        if self._covered(d, unit, action.to, enemy, move):
            score += GRID_COVER_HINT
        return score

    def _refine_moves(self, d: _Decision, actions: list[Action], scores: np.ndarray) -> None:
        """Ask the geometry about the REFINE best moves: stand the unit there (place), look from
        the nearest enemies (sight: hidden, covered or in the open, BOW §2.4.2), put it back."""
        moves = [i for i, a in enumerate(actions) if isinstance(a, Move) and a.to != d.units[a.unit].cell]
        if not moves:
            return
        top = sorted(moves, key=lambda i: -scores[i])[:REFINE]
        geometry = d.game.geometry
        for i in top:
            action = actions[i]
            unit = d.units[action.unit]
            if unit.position is None:
                continue
            to = (action.to[0] + 0.5, action.to[1] + 0.5)
            shooters = self._shooters(d, to)
            if not shooters:
                continue
            geometry.place(unit.id, to, action.facing)
            try:
                value = sum(self._exposure(geometry.sight(enemy, unit.id)) for enemy in shooters)
            finally:
                geometry.place(unit.id, unit.position, unit.facing)
            grid = GRID_COVER_HINT if self._covered(d, unit, action.to, d.nearest_enemy(to)[1], self._move_of(d, unit)) \
                else 0.0
            scores[i] += value - grid + EXPOSED_PENALTY * self._threats(d, to)

    @staticmethod
    def _exposure(report: Any) -> float:
        if not report.visible:
            return HIDDEN_VALUE
        return COVER_VALUE if report.covered else -EXPOSED_PENALTY

    def _move_of(self, d: _Decision, unit: Any) -> int:
        return max(1, int(_value(d.sheet(unit.sheet), "move", 1)))

    def _shooters(self, d: _Decision, point: tuple[float, float]) -> list[str]:
        """The (at most SHOOTERS) nearest enemies with a ranged weapon that reaches `point`."""
        band = d.game.ctx.range_band
        found = []
        for enemy, position in zip(d.enemies, d.enemy_positions):
            if position is None or enemy.aboard is not None:
                continue
            weapon = d.game.ctx.weapon(enemy.sheet, enemy.weapon)
            if weapon is None or _value(weapon, "kind", "ranged") != "ranged":
                continue
            bricks = int(_value(d.sheet(enemy.sheet), "attack")) + int(_value(weapon, "damage"))
            distance = math.dist(position, point)
            if distance <= band * bricks:
                found.append((distance, enemy.id))
        return [enemy for _, enemy in sorted(found)[:SHOOTERS]]

    def _facing_gain(self, d: _Decision, unit: Any, facing: float) -> bool:
        """Turning on the spot is worth it when the nearest enemy is behind the unit (front arc, §2.4.2)."""
        _, enemy = d.nearest_enemy(unit.position)
        if enemy is None or unit.position is None:
            return False
        bearing = math.degrees(math.atan2(enemy[1] - unit.position[1], enemy[0] - unit.position[0]))
        now = abs((bearing - unit.facing + 180) % 360 - 180)
        new = abs((bearing - facing + 180) % 360 - 180)
        return now > 90 and new < now

    def _medic_beside(self, d: _Decision, unit: Any, point: tuple[float, float]) -> bool:
        """A friend who can still treat this unit this round stands within touch of `point`."""
        colour = _value(d.sheet(unit.sheet), "hp_colour", "red")
        for friend in d.units.values():
            if friend.side != self.side or friend.id == unit.id or friend.played or not friend.in_play:
                continue
            sheet = d.sheet(friend.sheet)
            if int(_value(sheet, "treat")) > 0 and _value(sheet, "treat_colour", "red") == colour \
                    and friend.position is not None and math.dist(friend.position, point) <= 1.5:
                return True
        return False

    def _wounded_friend(self, d: _Decision, unit: Any, sheet: Any) -> tuple[float, float] | None:
        """The nearest wounded friend this unit could treat (colour match, §2.4.4), if it is a medic."""
        if int(_value(sheet, "treat")) <= 0 or unit.position is None:
            return None
        colour = _value(sheet, "treat_colour", "red")
        best, where = math.inf, None
        for friend in d.units.values():
            if friend.side != self.side or friend.id == unit.id or not friend.in_play or friend.damage <= 0:
                continue
            if _value(d.sheet(friend.sheet), "hp_colour", "red") != colour:
                continue
            position = d.position_of(friend.id)
            if position is not None and math.dist(position, unit.position) < best:
                best, where = math.dist(position, unit.position), position
        return where

    def _covered(self, d: _Decision, unit: Any, cell: tuple[int, int], enemy: tuple[float, float],
                 move: int) -> bool:
        """Grid cover: the neighbour of `cell` towards the enemy is blocked (not walkable)."""
        step = (int(np.sign(enemy[0] - cell[0] - 0.5)), int(np.sign(enemy[1] - cell[1] - 0.5)))
        if step == (0, 0):
            return False
        reach = d.game.reachable(unit.id, move + 1)
        start = unit.cell
        for neighbour in {(cell[0] + step[0], cell[1] + step[1]), (cell[0] + step[0], cell[1]),
                          (cell[0], cell[1] + step[1])} - {cell}:
            near = max(abs(neighbour[0] - start[0]), abs(neighbour[1] - start[1])) <= move + 1
            if near and neighbour not in reach and neighbour != start:
                return True
        return False

    def _threats(self, d: _Decision, point: tuple[float, float]) -> int:
        """Enemies whose ranged weapon would still have bricks at this distance (§2.4.2)."""
        band = d.game.ctx.range_band
        count = 0
        for enemy, position in zip(d.enemies, d.enemy_positions):
            if position is None:
                continue
            weapon = d.game.ctx.weapon(enemy.sheet, enemy.weapon)
            if weapon is None or _value(weapon, "kind", "ranged") != "ranged":
                continue
            bricks = int(_value(d.sheet(enemy.sheet), "attack")) + int(_value(weapon, "damage"))
            if math.dist(position, point) <= band * bricks:
                count += 1
        return count

    # -- pilots --------------------------------------------------------------------------
    def _vehicle_of(self, d: _Decision, unit_id: str) -> Any:
        return d.vehicles[d.units[unit_id].aboard]

    def _speed(self, d: _Decision, action: ChangeSpeed) -> float:
        vehicle = self._vehicle_of(d, action.unit)
        if action.speed == vehicle.speed:
            return -1.0
        if vehicle.moved:  # after the compulsory move: slow down when enemies are near, else keep going
            return 0.05 if action.speed < vehicle.speed and d.nearest_enemy(vehicle.position)[0] < 15 else -0.2
        return self._drive(d, vehicle, vehicle.facing, action.speed) - self._drive(d, vehicle, vehicle.facing,
                                                                                   vehicle.speed) - 0.02

    def _direction(self, d: _Decision, action: ChangeDirection) -> float:
        vehicle = self._vehicle_of(d, action.unit)
        if vehicle.position is None:
            return -1.0
        _, enemy = d.nearest_enemy(vehicle.position)
        if enemy is None:
            return -1.0
        bearing = math.degrees(math.atan2(enemy[1] - vehicle.position[1], enemy[0] - vehicle.position[0]))
        now = abs((bearing - vehicle.facing + 180) % 360 - 180)
        new = abs((bearing - vehicle.facing - action.delta_deg + 180) % 360 - 180)
        return (now - new) / 45.0 * 0.3 - 0.02

    def _drive(self, d: _Decision, vehicle: Any, facing: float, speed: int) -> float:
        """Value of the straight move at `speed` along `facing`: studs gained, minus a crash (§3.6.2)."""
        if speed <= 0 or vehicle.position is None:
            return 0.0
        distance = speed * 5.0
        contact = d.game.geometry.sweep(vehicle.id, distance)
        if contact is not None and contact.kind in ("decor", "edge", "ground"):
            return -CRASH_PENALTY
        travelled = distance if contact is None else contact.distance_studs
        rad = math.radians(facing)
        end = (vehicle.position[0] + travelled * math.cos(rad), vehicle.position[1] + travelled * math.sin(rad))
        gain = d.nearest_enemy(vehicle.position)[0] - d.nearest_enemy(end)[0]
        bonus = 0.5 if contact is not None and contact.kind == "unit" and contact.other in \
            {u.id for u in d.enemies} else 0.0
        return DRIVE_VALUE * gain / 5.0 + bonus
