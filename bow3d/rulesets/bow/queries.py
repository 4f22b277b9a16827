"""Read-only questions on a BOW game state that every other BOW module asks.

Layer: rulesets (BOW). Nothing here changes the state; the modules that act (turns, combat,
vehicles...) import these, never each other in a circle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bow3d.rulesets.bow.state import VehicleState

if TYPE_CHECKING:
    from bow3d.rules.game import Game


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
    """The id the geometry knows: the unit, or its vehicle while aboard."""
    unit = g.state.units[unit_id]
    return unit.aboard if unit.aboard is not None else unit_id


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
