"""Read-only questions on a BOW game state that every other BOW module asks.

Layer: rulesets (BOW). Nothing here changes the state; the modules that act (turns, combat,
vehicles...) import these, never each other in a circle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bow3d.rulesets.bow.state import VehicleState

CLOSE_STUDS = 1.0   # design.md: "close" = the hands can touch, within 1 stud, body to body

if TYPE_CHECKING:
    from bow3d.rules.game import Game


def body(g: Game, id: str):
    """The unit or vehicle called `id` (its state)."""
    return g.state.units.get(id) or g.state.vehicles[id]


def eligible(g: Game, side: str) -> list[str]:
    """Units of the side still to play this round (in play, not played), in scene order (BOW §2.2)."""
    return [u.id for u in g.state.units.values() if u.side == side and u.in_play and not u.played]


def actors(g: Game) -> list[str]:
    """The units that may act now: the unit in its turn, else the side's unplayed units."""
    state = g.state
    if state.phase != "play" or state.pending is not None:
        return []
    if state.active_unit is not None:
        return [state.active_unit]
    return eligible(g, state.side_to_play) if state.side_to_play else []


def geo_id(g: Game, unit_id: str) -> str:
    """The id the geometry knows a unit by: itself, or its vehicle while aboard when occupants are not
    bodies of their own (reading `occupant_bodies` off, revision 1)."""
    unit = g.state.units[unit_id]
    if unit.aboard is not None and not g.ctx.readings.occupant_bodies:
        return unit.aboard
    return unit_id


def seat_of(g: Game, unit_id: str) -> int | None:
    """The seat a unit sits in (0 = the pilot's), or None when it is not aboard."""
    unit = g.state.units[unit_id]
    if unit.aboard is None:
        return None
    seats = g.state.vehicles[unit.aboard].seats
    return seats.index(unit_id) if unit_id in seats else None


def within(g: Game, a: str, b: str, studs: float) -> bool:
    """BOW §2.4.2 melee reach, §2.3.2 and §2.3.3 "close", §2.4.4 "in contact": can a hand or a weapon of
    geometry body `a` reach `b` within `studs`? Reading `reach` 'touch' (revision 2): in 3D, body to
    body, not through walls (geometry.touch_gap_studs); 'footprints' (revision 1): the gap between
    footprints seen from above (geometry.within_reach, geometry.is_close for 1 stud)."""
    if g.ctx.readings.reach == "touch":
        return g.ask("touch_gap_studs", a, b) <= studs + 1e-6
    if studs == CLOSE_STUDS:
        return g.geometry.is_close(a, b)
    return g.geometry.within_reach(a, b, studs)


def is_exposed(g: Game, vehicle_id: str) -> bool:
    """BOW §3.5: may the vehicle's occupants be attacked? Its sheet says, else the reading `exposed_occupants`."""
    value = getattr(g.ctx.sheet(g.state.vehicles[vehicle_id].sheet), "exposed_occupants", None)
    return g.ctx.readings.exposed_occupants if value is None else bool(value)


def piloted(g: Game, unit_id: str) -> VehicleState | None:
    """The vehicle the unit pilots (it sits in seat 0), or None."""
    unit = g.state.units[unit_id]
    if unit.aboard is None:
        return None
    vehicle = g.state.vehicles[unit.aboard]
    return vehicle if vehicle.pilot == unit_id else None


def owes_compulsory_move(g: Game, unit_id: str) -> str | None:
    """BOW §3.3: the id of the pilot's moving vehicle that has not done its compulsory move yet."""
    vehicle = piloted(g, unit_id)
    if vehicle is not None and vehicle.in_play and vehicle.speed > 0 and not vehicle.moved:
        return vehicle.id
    return None


def drifting_vehicles(g: Game) -> list[str]:
    """Moving vehicles in play with no living pilot that have not moved this round (BOW §3.3)."""
    return [v.id for v in g.state.vehicles.values()
            if v.in_play and v.speed > 0 and not v.moved and v.pilot is None]
