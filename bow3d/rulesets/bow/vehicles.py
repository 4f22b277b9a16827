"""Vehicles (BOW §2.3.3, §3.1-§3.3): getting on/off, piloting, compulsory and drifting moves.

Layer: rulesets (BOW). Occupants are units played on their own turns (§3.1); seat 0 is the pilot's.
Speeds are steps of 5 studs (§3.2); a flying vehicle with a minimum speed can only be at 0
(landed) or between its minimum and maximum speed. The pilot's vehicle, when its speed is not
zero, owes one free straight compulsory move of speed x 5 studs during the pilot's turn, before
or after his piloting actions (§3.3): EndTurn is refused until it is done. Changing speed sets
any allowed value; changing direction turns the vehicle on the spot by at most 45 degrees.
A moving vehicle without a living pilot drifts: any unit of its side may move it once per round
during its turn (free), else it moves at the end of the round, until it crashes or leaves.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING

from bow3d.i18n import _
from bow3d.rules.events import Event
from bow3d.rules.refusal import Reason, Refusal
from bow3d.rulesets.bow.actions import (
    Action,
    ChangeDirection,
    ChangeSpeed,
    CompulsoryMove,
    DriftMove,
    GetOff,
    GetOn,
)
from bow3d.rulesets.bow.collisions import drive
from bow3d.rulesets.bow.context import MAX_TURN_DEG, sheet_value
from bow3d.rulesets.bow.queries import CLOSE_STUDS, actors, drifting_vehicles, owes_compulsory_move, piloted, within
from bow3d.rulesets.bow.state import VehicleState, cell_centre, replace
from bow3d.rulesets.bow.turns import check_actor, spend

if TYPE_CHECKING:
    from bow3d.rules.game import Game


# -- getting on and off (BOW §2.3.3) -------------------------------------------------------
def check_get_on(g: Game, action: GetOn) -> Refusal | None:
    refusal = check_actor(g, action.unit)
    if refusal is not None:
        return refusal
    unit = g.state.units[action.unit]
    vehicle = g.state.vehicles.get(action.vehicle)
    if unit.aboard is not None:
        return Refusal(Reason.NOT_ALLOWED, _("{id} is already aboard {aboard}").format(id=unit.id, aboard=unit.aboard))
    if vehicle is None or not vehicle.in_play:
        return Refusal(Reason.UNKNOWN, _("no vehicle '{vehicle}' on the battlefield").format(vehicle=action.vehicle))
    if vehicle.side != unit.side:
        return Refusal(Reason.NOT_ALLOWED, _("{id} belongs to {side}").format(id=vehicle.id, side=vehicle.side))
    if not isinstance(action.seat, int) or not 0 <= action.seat < len(vehicle.seats):
        return Refusal(Reason.NOT_ALLOWED, _("{id} has seats 0..{value}")
                                           .format(id=vehicle.id, value=len(vehicle.seats) - 1))
    if vehicle.seats[action.seat] is not None:
        taken_by = vehicle.seats[action.seat]
        return Refusal(Reason.NOT_ALLOWED, _("seat {seat} of {id} is taken by {taken_by}")
                                           .format(seat=action.seat, id=vehicle.id, taken_by=taken_by))
    if not within(g, unit.id, vehicle.id, CLOSE_STUDS):
        return Refusal(Reason.OUT_OF_REACH, _("{id} is not close to {id2}'s door").format(id=unit.id, id2=vehicle.id))
    return None


def apply_get_on(g: Game, action: GetOn) -> list[Event]:
    events = spend(g, action.unit)
    vehicle = g.state.vehicles[action.vehicle]
    seats = list(vehicle.seats)
    seats[action.seat] = action.unit
    g.state.vehicles[vehicle.id] = replace(vehicle, seats=tuple(seats))
    g.state.units[action.unit] = replace(g.state.units[action.unit], aboard=vehicle.id, position=None)
    if g.ctx.readings.occupant_bodies:   # BOW §3.1, §3.5: a body in its seat
        g.geometry.seat(action.unit, vehicle.id, action.seat)
    else:
        g.geometry.remove(action.unit)
    return events + [g.event("got_on", unit=action.unit, vehicle=vehicle.id, seat=action.seat)]


def check_get_off(g: Game, action: GetOff) -> Refusal | None:
    refusal = check_actor(g, action.unit)
    if refusal is not None:
        return refusal
    unit = g.state.units[action.unit]
    if unit.aboard is None:
        return Refusal(Reason.NOT_ALLOWED, _("{id} is not aboard a vehicle").format(id=unit.id))
    to = (int(action.to[0]), int(action.to[1])) if len(action.to) == 2 else None
    if to is None or to not in g.ask("free_cells_near", unit.aboard):
        return Refusal(Reason.OUT_OF_REACH, _("{value} is not a free cell by {aboard}'s door")
                                            .format(value=tuple(action.to), aboard=unit.aboard))
    return None


def apply_get_off(g: Game, action: GetOff) -> list[Event]:
    events = spend(g, action.unit)
    unit = g.state.units[action.unit]
    vehicle = g.state.vehicles[unit.aboard]
    g.state.vehicles[vehicle.id] = replace(vehicle, seats=tuple(None if s == unit.id else s for s in vehicle.seats))
    position = cell_centre((int(action.to[0]), int(action.to[1])))
    g.state.units[unit.id] = replace(unit, aboard=None, position=position, facing=vehicle.facing)
    g.geometry.place(unit.id, position, vehicle.facing)
    return events + [g.event("got_off", unit=unit.id, vehicle=vehicle.id, to=list(action.to))]


# -- piloting (BOW §3.3) -------------------------------------------------------------------
def _pilot_refusal(g: Game, unit_id: str, cost: int = 1) -> VehicleState | Refusal:
    """The vehicle `unit_id` pilots; else why it cannot act."""
    refusal = check_actor(g, unit_id, cost)
    if refusal is not None:
        return refusal
    vehicle = piloted(g, unit_id)
    if vehicle is None:
        return Refusal(Reason.NOT_ALLOWED, _("{unit_id} is not the pilot of a vehicle").format(unit_id=unit_id))
    return vehicle


def _piloting(g: Game, unit_id: str) -> VehicleState:
    """The vehicle `unit_id` pilots, once its check has found one."""
    vehicle = piloted(g, unit_id)
    assert vehicle is not None  # the action's check refused a unit that pilots nothing
    return vehicle


def allowed_speeds(g: Game, vehicle: VehicleState) -> list[int]:
    """0 (stopped / landed) and min_speed..speed (BOW §3.2)."""
    sheet = g.ctx.sheet(vehicle.sheet)
    low = max(1, int(sheet_value(sheet, "min_speed", 0)))
    return [0] + list(range(low, int(sheet_value(sheet, "speed", 0)) + 1))


def check_speed(g: Game, action: ChangeSpeed) -> Refusal | None:
    vehicle = _pilot_refusal(g, action.unit)
    if isinstance(vehicle, Refusal):
        return vehicle
    if action.speed == vehicle.speed:
        return Refusal(Reason.NOT_ALLOWED, _("{id} already goes at speed {speed}")
                                           .format(id=vehicle.id, speed=vehicle.speed))
    if action.speed not in allowed_speeds(g, vehicle) or isinstance(action.speed, bool):
        return Refusal(Reason.NOT_ALLOWED, _("{id} can go at speeds {value}, not {speed!r}")
                                           .format(id=vehicle.id, value=allowed_speeds(g, vehicle), speed=action.speed))
    return None


def apply_speed(g: Game, action: ChangeSpeed) -> list[Event]:
    events = spend(g, action.unit)
    vehicle = _piloting(g, action.unit)
    g.state.vehicles[vehicle.id] = replace(vehicle, speed=int(action.speed))
    events.append(g.event("speed_changed", vehicle=vehicle.id, speed=action.speed, previous=vehicle.speed))
    if action.speed == 0 and sheet_value(g.ctx.sheet(vehicle.sheet), "flying", False):
        events.append(g.event("landed", vehicle=vehicle.id))
    return events


def check_direction(g: Game, action: ChangeDirection) -> Refusal | None:
    vehicle = _pilot_refusal(g, action.unit)
    if isinstance(vehicle, Refusal):
        return vehicle
    delta = action.delta_deg
    if not isinstance(delta, int | float) or not math.isfinite(delta) or not 0 < abs(delta) <= MAX_TURN_DEG:
        return Refusal(Reason.NOT_ALLOWED, _("a change of direction is 0 to {MAX_TURN_DEG:g} degrees, "
                                             "not {delta!r}").format(MAX_TURN_DEG=MAX_TURN_DEG, delta=delta))
    contact = g.ask("turn_contacts", vehicle.id, float(delta))
    if contact is not None:
        return Refusal(Reason.OUT_OF_REACH, _("{id} cannot turn {delta:g} degrees: it would hit {value}")
                                            .format(id=vehicle.id, delta=delta, value=contact.other or contact.kind))
    return None


def apply_direction(g: Game, action: ChangeDirection) -> list[Event]:
    events = spend(g, action.unit)
    vehicle = _piloting(g, action.unit)
    facing = (vehicle.facing + float(action.delta_deg)) % 360
    g.state.vehicles[vehicle.id] = replace(vehicle, facing=facing)
    g.geometry.place(vehicle.id, vehicle.position, facing)
    return events + [g.event("turned", vehicle=vehicle.id, delta_deg=float(action.delta_deg), facing=facing)]


def check_compulsory(g: Game, action: CompulsoryMove) -> Refusal | None:
    vehicle = _pilot_refusal(g, action.unit, cost=0)
    if isinstance(vehicle, Refusal):
        return vehicle
    if owes_compulsory_move(g, action.unit) is None:
        why = "is stopped" if vehicle.speed == 0 else "has already moved this round"
        return Refusal(Reason.NOT_ALLOWED, _("{id} {why}").format(id=vehicle.id, why=why))
    return None


def apply_compulsory(g: Game, action: CompulsoryMove) -> list[Event]:
    vehicle = _piloting(g, action.unit)
    return spend(g, action.unit, 0) + drive(g, vehicle.id)


def check_drift(g: Game, action: DriftMove) -> Refusal | None:
    state = g.state
    if action.vehicle not in drifting_vehicles(g):
        return Refusal(Reason.NOT_ALLOWED, _("{vehicle} is not a moving vehicle without pilot still to "
                                             "move").format(vehicle=action.vehicle))
    side = state.vehicles[action.vehicle].side
    if state.phase == "drift":
        if action.unit is not None or side != state.side_to_play:
            return Refusal(Reason.NOT_YOUR_TURN, _("end of round: {side_to_play} moves its drifting "
                                                   "vehicles").format(side_to_play=state.side_to_play))
        return None
    if action.unit is None:
        return Refusal(Reason.NOT_YOUR_TURN, _("a drifting vehicle moves in a unit's turn or at the "
                                               "end of the round"))
    refusal = check_actor(g, action.unit, cost=0)
    if refusal is not None:
        return refusal
    if state.units[action.unit].side != side:
        return Refusal(Reason.NOT_ALLOWED, _("{vehicle} is {side}'s").format(vehicle=action.vehicle, side=side))
    return None


def apply_drift(g: Game, action: DriftMove) -> list[Event]:
    events = spend(g, action.unit, 0) if action.unit is not None else []
    return events + drive(g, action.vehicle)


def candidates(g: Game) -> Iterator[Action]:
    state = g.state
    if state.phase == "drift":
        for vid in drifting_vehicles(g):
            yield DriftMove(None, vid)
        return
    for unit_id in actors(g):
        unit = state.units[unit_id]
        for vid in drifting_vehicles(g):
            yield DriftMove(unit_id, vid)
        if unit.aboard is None:
            for vehicle in state.vehicles.values():
                for seat, occupant in enumerate(vehicle.seats):
                    if occupant is None:
                        yield GetOn(unit_id, vehicle.id, seat)
            continue
        for cell in g.ask("free_cells_near", unit.aboard)[:8]:
            yield GetOff(unit_id, cell)
        vehicle = piloted(g, unit_id)
        if vehicle is not None:
            yield CompulsoryMove(unit_id)
            for speed in allowed_speeds(g, vehicle):
                yield ChangeSpeed(unit_id, speed)
            for full in (45.0, -45.0):   # the full 45 degrees; half of it when the full turn is blocked
                yield ChangeDirection(unit_id, full)
                if g.ask("turn_contacts", vehicle.id, full) is not None:
                    yield ChangeDirection(unit_id, full / 2)
