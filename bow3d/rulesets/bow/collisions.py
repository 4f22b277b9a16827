"""Straight vehicle moves and their collisions (BOW §3.3, §3.6).

Layer: rulesets (BOW).

Also cites BOW 1.3 §3.6.1, §3.6.2, §3.5, §3.6.3. More: docs/modules/rulesets-bow.md#collisions.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from bow3d.rules import pending as answers
from bow3d.rules.events import Event
from bow3d.rules.pending import Pending
from bow3d.rulesets.bow.chance import RollRequest
from bow3d.rulesets.bow.combat import damage_unit, damage_vehicle, dodge_armor
from bow3d.rulesets.bow.context import STUDS_PER_SPEED, sheet_value
from bow3d.rulesets.bow.resolvers import resolves
from bow3d.rulesets.bow.state import cell_centre, replace

if TYPE_CHECKING:
    from bow3d.rules.game import Game


def collision_sector(g: Game, contact) -> str | None:
    """BOW §3.6.3 "which side of the hit vehicle the moving vehicle comes from" (bow3d.sectors): the
    geometry's sector at the mover's centre, or at the contact point (reading `sector_from`)."""
    if g.ctx.readings.sector_from == "contact":
        return getattr(contact, "contact_sector", contact.sector)
    return contact.sector


def relative_speed(sector: str | None, mover_speed: int, hit_speed: int) -> int:
    """BOW §3.6.3: front sector -> sum, side -> the mover's speed, back -> the difference."""
    if sector == "front":
        return mover_speed + hit_speed
    if sector == "back":
        return abs(mover_speed - hit_speed)
    return mover_speed


def drive(g: Game, vehicle_id: str, distance: float | None = None, hit: tuple[str, ...] = ()) -> list[Event]:
    """Move the vehicle straight (speed x 5 studs by default) and resolve what it runs into."""
    state = g.state
    vehicle = state.vehicles[vehicle_id]
    if distance is None:
        distance = float(vehicle.speed * STUDS_PER_SPEED)
    contact = g.geometry.sweep(vehicle_id, distance) if distance > 0 else None
    travelled = distance if contact is None else max(0.0, float(contact.distance_studs))
    a = math.radians(vehicle.facing)
    x, y = vehicle.position
    position = (x + math.cos(a) * travelled, y + math.sin(a) * travelled)
    state.vehicles[vehicle_id] = vehicle = replace(vehicle, position=position, moved=True)
    g.geometry.place(vehicle_id, position, vehicle.facing)
    events = [g.event("vehicle_moved", vehicle=vehicle_id, **{"from": [x, y]}, to=list(position), distance=travelled)]
    if contact is None:
        return events
    kind, other = contact.kind, contact.other
    if kind == "edge":
        return events + _leave_field(g, vehicle_id)
    opponent, p = g.ctx.opponent_of, g.ctx.p
    if kind in ("decor", "ground") or other is None:
        events.append(g.event("collision", vehicle=vehicle_id, kind=kind, other=None, sector=None,
                              relative_speed=vehicle.speed))
        return events + answers.request(g, "crash", [
            RollRequest(opponent(vehicle.side), vehicle.speed, "crash_speed", p, vehicle=vehicle_id),
            RollRequest(vehicle.side, dodge_armor(g, vehicle_id), "dodge", p, target=vehicle_id)],
            vehicle=vehicle_id)
    if kind == "unit":
        unit = state.units[other]
        if other in hit:
            return events + [g.event("stopped", vehicle=vehicle_id, against=other)]
        events.append(g.event("collision", vehicle=vehicle_id, kind="unit", other=other, sector=None,
                              relative_speed=vehicle.speed))
        return events + answers.request(g, "run_over", [
            RollRequest(opponent(unit.side, vehicle.side), vehicle.speed, "collision_speed", p, vehicle=vehicle_id),
            RollRequest(unit.side, dodge_armor(g, other), "dodge", p, target=other)],
            vehicle=vehicle_id, unit=other, remaining=distance - travelled, hit=list(hit) + [other])
    hit_vehicle = state.vehicles[other]
    sector = collision_sector(g, contact)
    speed = relative_speed(sector, vehicle.speed, hit_vehicle.speed)
    events.append(g.event("collision", vehicle=vehicle_id, kind="vehicle", other=other, sector=sector,
                          relative_speed=speed))
    return events + answers.request(g, "vehicle_collision", [
        RollRequest(opponent(vehicle.side, hit_vehicle.side), speed, "relative_speed", p, vehicle=vehicle_id),
        RollRequest(vehicle.side, dodge_armor(g, vehicle_id), "dodge", p, target=vehicle_id),
        RollRequest(opponent(hit_vehicle.side, vehicle.side), speed, "relative_speed", p, vehicle=other),
        RollRequest(hit_vehicle.side, dodge_armor(g, other), "dodge", p, target=other)],
        vehicle=vehicle_id, other=other)


def _leave_field(g: Game, vehicle_id: str) -> list[Event]:
    vehicle = g.state.vehicles[vehicle_id]
    for unit_id in vehicle.occupants:
        g.state.units[unit_id] = replace(g.state.units[unit_id], left_field=True)
    g.state.vehicles[vehicle_id] = replace(vehicle, left_field=True, speed=0)
    g.geometry.remove(vehicle_id)
    return [g.event("left_field", vehicle=vehicle_id, occupants=list(vehicle.occupants))]


def stop(g: Game, vehicle_id: str) -> list[Event]:
    """BOW §3.6.2: a vehicle that survives a crash stops (speed 0); a flying one lands."""
    vehicle = g.state.vehicles[vehicle_id]
    if not vehicle.in_play:
        return []
    g.state.vehicles[vehicle_id] = replace(vehicle, speed=0)
    events = [g.event("stopped", vehicle=vehicle_id, against=None)]
    if sheet_value(g.ctx.sheet(vehicle.sheet), "flying", False):
        events.append(g.event("landed", vehicle=vehicle_id))
    return events


def _damage(a: int, d: int) -> int:
    return a - d if a > d else 0


@resolves("crash")
def _resolve_crash(g: Game, pending: Pending) -> list[Event]:
    vehicle_id = pending.data["vehicle"]
    damage = _damage(*pending.rolls)
    return damage_vehicle(g, vehicle_id, damage) + stop(g, vehicle_id)


@resolves("run_over")
def _resolve_run_over(g: Game, pending: Pending) -> list[Event]:
    vehicle_id, unit_id = pending.data["vehicle"], pending.data["unit"]
    events = damage_unit(g, unit_id, _damage(*pending.rolls))
    unit = g.state.units[unit_id]
    if unit.alive:
        cells = g.geometry.free_cells_near(vehicle_id)
        if cells:
            cell = min(cells, key=lambda c: _aside_key(g, vehicle_id, unit.position, c))
            position = cell_centre(cell)
            g.state.units[unit_id] = replace(unit, position=position)
            g.geometry.place(unit_id, position, unit.facing)
            events.append(g.event("placed", unit=unit_id, position=list(position), reason="pushed_aside"))
    if g.state.vehicles[vehicle_id].in_play and pending.data["remaining"] > 0:
        events += drive(g, vehicle_id, pending.data["remaining"], tuple(pending.data["hit"]))
    return events


def _aside_key(g: Game, vehicle_id: str, was: tuple[float, float], cell: tuple[int, int]) -> tuple:
    """Beside the vehicle (not ahead in its way) first, then nearest to where the unit stood."""
    vehicle = g.state.vehicles[vehicle_id]
    a = math.radians(vehicle.facing)
    dx, dy = cell[0] + 0.5 - vehicle.position[0], cell[1] + 0.5 - vehicle.position[1]
    ahead = dx * math.cos(a) + dy * math.sin(a) > abs(-dx * math.sin(a) + dy * math.cos(a))
    return (ahead, round(math.hypot(cell[0] + 0.5 - was[0], cell[1] + 0.5 - was[1]), 9), cell)


@resolves("vehicle_collision")
def _resolve_vehicles(g: Game, pending: Pending) -> list[Event]:
    mover, other = pending.data["vehicle"], pending.data["other"]
    r = pending.rolls
    events = damage_vehicle(g, mover, _damage(r[0], r[1])) + damage_vehicle(g, other, _damage(r[2], r[3]))
    return events + stop(g, mover) + stop(g, other)
