"""The BOW AI's pilots (BOW §3.3, §3.6): speed, direction and the compulsory move of their vehicle.

Layer: rulesets (BOW). A mixin of the AI (ai.py): the first version looks along the vehicle's
course as it is (`_piloting`); today's weighs every course it can still set, judged where the
vehicle will face (`_steering`, courses.py), and gets off a vehicle that every course crashes.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from bow3d.rulesets.bow.actions import Action, ChangeDirection, ChangeSpeed, CompulsoryMove, DriftMove, EndTurn, GetOff
from bow3d.rulesets.bow.ai_board import _bearing, _Board, _turn_between
from bow3d.rulesets.bow.context import sheet_value
from bow3d.rulesets.bow.courses import courses
from bow3d.rulesets.bow.queries import piloted
from bow3d.rulesets.bow.vehicles import allowed_speeds

DRIVE_VALUE = 0.4           # pilots: per 5 studs gained towards the nearest enemy
CRASH_PENALTY = 2.0         # pilots: a straight move that ends against the decor or off the field
RUN_OVER_PENALTY = 6.0      # pilots: a course over a friend (§3.6.1): worse than any shot is good
DISMOUNT_VALUE = 0.35       # a stopped pilot whose every course is blocked gets off (§2.3.3)


class Pilots:
    """The pilot's options of an AIPlayer (its `side`, `plans_courses`, `dismounts`)."""

    side: str
    plans_courses: bool
    dismounts: bool

    # -- pilots ----------------------------------------------------------------------------
    def _piloting(self, b: _Board, unit: Any) -> list[tuple[float, Action]]:
        """Speed, direction and the compulsory move of the pilot's vehicle (§3.3)."""
        vehicle = piloted(b.game, unit.id)
        if vehicle is None or vehicle.position is None:
            return []
        options: list[tuple[float, Action]] = [(0.01, CompulsoryMove(unit.id))]
        distance, enemy = b.nearest_enemy(vehicle.position)
        if enemy is None:
            return options
        standoff = self._standoff(b, unit, vehicle)
        current = self._drive(b, vehicle, vehicle.speed, distance, standoff)
        for speed in allowed_speeds(b.game, vehicle):
            if speed == vehicle.speed:
                continue
            if vehicle.moved:  # after the move: stop once within the standoff (the gunner shoots better)
                score = 0.05 if speed < vehicle.speed and distance <= standoff + 5 else -0.2
            else:
                score = self._drive(b, vehicle, speed, distance, standoff) - current - 0.02
            options.append((score, ChangeSpeed(unit.id, speed)))
        now = _turn_between(vehicle.facing, _bearing(vehicle.position, tuple(enemy)))
        for delta in (-45.0, -22.5, 22.5, 45.0):
            new = _turn_between((vehicle.facing + delta) % 360, _bearing(vehicle.position, tuple(enemy)))
            options.append(((now - new) / 45.0 * 0.3 - 0.02, ChangeDirection(unit.id, delta)))
        return options

    def _is_friend(self, b: _Board, id: str) -> bool:
        body = b.units.get(id) or b.vehicles.get(id)
        return body is not None and body.side == self.side

    def _standoff(self, b: _Board, pilot: Any, vehicle: Any) -> float:
        """The distance a pilot keeps from the nearest enemy: the best range band of the vehicle's
        ranged weapon (keeping 2 bricks, §2.4.2), or 0 (charge) for a vehicle without one."""
        skill = int(sheet_value(b.sheet(pilot.sheet), "attack"))
        bricks = [skill + int(sheet_value(w, "damage")) for w in sheet_value(b.sheet(vehicle.sheet), "weapons", [])
                  if sheet_value(w, "kind", "ranged") == "ranged"]
        return b.game.ctx.range_band * max(1, max(bricks) - 1) if bricks else 0.0

    def _first_contact(self, b: _Board, vehicle: Any, distance: float) -> Any:
        """The first contact of a straight move of `distance` studs: one sweep at the top speed per
        choice, cut to the distance (the sweep follows the same line whatever its length)."""
        key = ("sweep", vehicle.id)
        if key not in b.memo:
            top = max(allowed_speeds(b.game, vehicle)) * 5.0
            b.memo[key] = (top, b.game.geometry.sweep(vehicle.id, top))
        top, contact = b.memo[key]
        if distance > top:
            return b.game.geometry.sweep(vehicle.id, distance)
        return contact if contact is not None and contact.distance_studs <= distance else None

    def _drive(self, b: _Board, vehicle: Any, speed: int, distance: float, standoff: float = 0.0) -> float:
        """Value of the straight move at `speed`: studs gained towards the standoff distance from
        the nearest enemy, minus a crash into the decor or off the field (§3.6.2)."""
        if speed <= 0 or vehicle.moved:
            return 0.0
        contact = self._first_contact(b, vehicle, speed * 5.0)
        if contact is not None and contact.kind in ("decor", "edge", "ground"):
            return -CRASH_PENALTY
        if contact is not None and contact.other is not None and self._is_friend(b, contact.other):
            return -CRASH_PENALTY  # never run over one's own side (§3.6.1)
        travelled = speed * 5.0 if contact is None else contact.distance_studs
        rad = math.radians(vehicle.facing)
        end = (vehicle.position[0] + travelled * math.cos(rad), vehicle.position[1] + travelled * math.sin(rad))
        hit_enemy = contact is not None and contact.kind == "unit" and contact.other in {e.id for e in b.enemies}
        after = b.nearest_enemy(end)[0]
        return DRIVE_VALUE * (abs(distance - standoff) - abs(after - standoff)) / 5.0 + (0.5 if hit_enemy else 0.0)

    # -- pilots, planning every course (plans_courses) ---------------------------------------------
    def _steering(self, b: _Board, unit: Any, options: list[tuple[float, Action]]) -> list[tuple[float, Action]]:
        """§3.3: every course the pilot can still set before the compulsory move, each judged where the
        vehicle will face (courses.py). A steering action is worth the best course it begins over the
        course as it is; an action that steers nothing (a shot, the move itself) the best course the
        actions left after it can still set. A stopped pilot whose every course is blocked gets off."""
        vehicle = piloted(b.game, unit.id)
        if vehicle is None or vehicle.position is None or vehicle.moved:
            return options + (self._piloting(b, unit) if vehicle is not None else [])
        distance, enemy = b.nearest_enemy(vehicle.position)
        budget = int(sheet_value(b.sheet(unit.sheet), "action_budget", 1)) - unit.actions_used
        standoff = self._standoff(b, unit, vehicle) if enemy is not None else 0.0
        plans = [(self._course_value(b, vehicle, c, distance, standoff), c) for c in courses(b.game, vehicle, budget)]
        stay = max((v for v, c in plans if c.actions == 0), default=0.0)
        after_one = max((v for v, c in plans if c.actions <= budget - 1), default=stay)
        steered = [(score + after_one - stay, action) if not isinstance(action, (EndTurn, DriftMove)) else
                   (score, action) for score, action in options]
        steered.append((0.01, CompulsoryMove(unit.id)))
        firsts: dict[tuple[str, float], float] = {}
        for value, course in plans:
            if course.first is not None:
                firsts[course.first] = max(firsts.get(course.first, -math.inf), value)
        for (kind, x), value in firsts.items():
            action = ChangeDirection(unit.id, x) if kind == "turn" else ChangeSpeed(unit.id, int(x))
            steered.append((value - stay - 0.02, action))
        if self.dismounts and vehicle.speed == 0 and unit.weapon is not None and \
                max((v for v, c in plans if c.speed > 0), default=0.0) <= 0.0:
            steered += self._getting_off(b, unit, vehicle)
        return steered

    def _course_value(self, b: _Board, vehicle: Any, course: Any, distance: float, standoff: float) -> float:
        """Studs gained towards the standoff distance; a crash (§3.6.2) or a friend run over (§3.6.1)
        costs more than any shot is worth."""
        if course.speed <= 0:
            return 0.0
        if any(c.other is not None and self._is_friend(b, c.other) for c in course.contacts):
            return -RUN_OVER_PENALTY
        if any(c.kind in ("decor", "edge", "ground") for c in course.contacts):
            return -CRASH_PENALTY
        enemies = {e.id for e in b.enemies}
        run_over = sum(1 for c in course.contacts if c.kind == "unit" and c.other in enemies)
        rad = math.radians(course.facing)
        end = (vehicle.position[0] + course.travelled * math.cos(rad),
               vehicle.position[1] + course.travelled * math.sin(rad))
        after = b.nearest_enemy(end)[0]
        if not math.isfinite(after):
            return 0.0
        return DRIVE_VALUE * (abs(distance - standoff) - abs(after - standoff)) / 5.0 + 0.5 * run_over

    def _getting_off(self, b: _Board, unit: Any, vehicle: Any) -> list[tuple[float, Action]]:
        """§2.3.3: off the stuck vehicle, onto the free cell by its door nearest the enemy."""
        cells = b.game.ask("free_cells_near", vehicle.id)
        if not cells or not len(b.enemy_xy):
            return []
        centres = np.array(cells, float) + 0.5
        gaps = np.hypot(centres[:, None, 0] - b.enemy_xy[None, :, 0], centres[:, None, 1] - b.enemy_xy[None, :, 1])
        best = cells[int(np.argmin(gaps.min(axis=1)))]
        return [(DISMOUNT_VALUE, GetOff(unit.id, (int(best[0]), int(best[1]))))]
