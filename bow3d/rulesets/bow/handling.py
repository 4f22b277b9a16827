"""Actions without a brick roll on foot (BOW §2.3): move, grab, throw, give, switch, doors.

Layer: rulesets (BOW). Each costs one action of the budget; any order, repeatable. Cells are stud-grid
cells; "close" for objects on the ground and doors is a cell at most one step away (8-connected)
from the unit's cell; between units the hands can touch (within 1 stud: bow3d.rulesets.bow.queries.within,
reading `reach`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING

from bow3d.i18n import _
from bow3d.rules.events import Event
from bow3d.rules.geometry import Cell
from bow3d.rules.refusal import Reason, Refusal
from bow3d.rulesets.bow.actions import Action, Door, Give, Grab, Move, SwitchWeapon, Throw
from bow3d.rulesets.bow.context import sheet_value
from bow3d.rulesets.bow.queries import CLOSE_STUDS, actors, within
from bow3d.rulesets.bow.state import UnitState, cell_centre, replace
from bow3d.rulesets.bow.turns import check_actor, spend

if TYPE_CHECKING:
    from bow3d.rules.game import Game

COMPASS = tuple(float(a) for a in range(0, 360, 45))


def _on_foot(g: Game, action: Move | Grab | Throw | Give | Door, cost: int = 1) -> UnitState | Refusal:
    """The acting unit, on foot; else why it cannot act."""
    refusal = check_actor(g, action.unit, cost)
    if refusal is not None:
        return refusal
    unit = g.state.units[action.unit]
    if unit.aboard is not None or unit.position is None:
        return Refusal(Reason.NOT_ALLOWED, _("{id} is aboard {aboard}: get off first")
                                           .format(id=unit.id, aboard=unit.aboard))
    return unit


def _near(a: Cell | None, b: Cell) -> bool:
    return a is not None and max(abs(a[0] - b[0]), abs(a[1] - b[1])) <= 1


def move_studs(g: Game, unit: UnitState) -> int:
    return int(sheet_value(g.ctx.sheet(unit.sheet), "move", 0))


# -- move (BOW §2.3.1) --------------------------------------------------------------------
def check_move(g: Game, action: Move) -> Refusal | None:
    """Within Move studs around obstacles; reorienting only as part of a move (own cell ok)."""
    unit = _on_foot(g, action)
    if isinstance(unit, Refusal):
        return unit
    if not isinstance(action.facing, int | float) or not math.isfinite(action.facing):
        return Refusal(Reason.NOT_ALLOWED, _("facing {facing!r} is not a number of degrees")
                                           .format(facing=action.facing))
    to = tuple(action.to)
    if to != unit.cell and to not in g.ask("reachable_cells", unit.id, move_studs(g, unit)):
        return Refusal(Reason.OUT_OF_REACH, _("{id} cannot reach cell {to} within {value} studs")
                                            .format(id=unit.id, to=to, value=move_studs(g, unit)))
    return None


def apply_move(g: Game, action: Move) -> list[Event]:
    unit = g.state.units[action.unit]
    to = (int(action.to[0]), int(action.to[1]))
    path = [] if to == unit.cell else list(g.geometry.path(unit.id, to, move_studs(g, unit)) or [to])
    position, facing = cell_centre(to), float(action.facing) % 360
    events = spend(g, unit.id)
    g.state.units[unit.id] = replace(g.state.units[unit.id], position=position, facing=facing)
    g.geometry.place(unit.id, position, facing)
    return events + [g.event("moved", unit=unit.id, **{"from": unit.cell}, to=to, path=[list(c) for c in path],
                             facing=facing)]


def _facing_towards(g: Game, unit: UnitState, cell: Cell) -> float:
    """Facing from the cell centre to the nearest enemy on the field (else the current facing)."""
    x, y = cell_centre(cell)
    best, facing = math.inf, unit.facing
    enemies = [u.position for u in g.state.units.values() if u.side != unit.side and u.in_play and u.position]
    enemies += [v.position for v in g.state.vehicles.values() if v.side != unit.side and v.in_play and v.position]
    for ex, ey in enemies:
        d = (ex - x) ** 2 + (ey - y) ** 2
        if 0 < d < best:
            best, facing = d, round(math.degrees(math.atan2(ey - y, ex - x)) % 360, 1)
    return facing


def move_candidates(g: Game, unit: UnitState) -> Iterator[Move]:
    """One Move per reachable cell facing the nearest enemy, plus the 8 compass facings on the spot."""
    for cell in g.ask("reachable_cells", unit.id, move_studs(g, unit)):
        yield Move(unit.id, cell, _facing_towards(g, unit, cell))
    if unit.cell is not None:
        for facing in COMPASS:
            yield Move(unit.id, unit.cell, facing)


# -- objects and weapons (BOW §2.3.2) ------------------------------------------------------
def check_grab(g: Game, action: Grab) -> Refusal | None:
    unit = _on_foot(g, action)
    if isinstance(unit, Refusal):
        return unit
    if not any(name == action.item and _near(unit.cell, cell) for name, cell in g.state.ground_items):
        return Refusal(Reason.OUT_OF_REACH, _("no {item} lying close to {id}").format(item=action.item, id=unit.id))
    return None


def _take(unit: UnitState, item: str) -> UnitState:
    """Into the hand when it is free, else into the bag."""
    if unit.weapon is None:
        return replace(unit, weapon=item)
    return replace(unit, items=unit.items + (item,))


def _drop(unit: UnitState, item: str) -> UnitState:
    if unit.weapon == item:
        return replace(unit, weapon=None)
    items = list(unit.items)
    items.remove(item)
    return replace(unit, items=tuple(items))


def apply_grab(g: Game, action: Grab) -> list[Event]:
    unit = g.state.units[action.unit]
    ground = list(g.state.ground_items)
    index = next(i for i, (name, cell) in enumerate(ground) if name == action.item and _near(unit.cell, cell))
    _unused, cell = ground.pop(index)
    events = spend(g, unit.id)
    g.state.ground_items = tuple(ground)
    g.state.units[unit.id] = _take(g.state.units[unit.id], action.item)
    return events + [g.event("grabbed", unit=unit.id, item=action.item, cell=list(cell))]


def _carries(unit: UnitState, item: str) -> bool:
    return unit.weapon == item or item in unit.items


def check_throw(g: Game, action: Throw) -> Refusal | None:
    """Within 2 x Move studs and not through walls (BOW §2.3.2)."""
    unit = _on_foot(g, action)
    if isinstance(unit, Refusal):
        return unit
    if not _carries(unit, action.item):
        return Refusal(Reason.UNKNOWN, _("{id} carries no {item}").format(id=unit.id, item=action.item))
    reach = 2 * move_studs(g, unit)
    if not g.geometry.can_throw(unit.id, tuple(action.to), reach):
        return Refusal(Reason.OUT_OF_REACH, _("{id} cannot throw to {value} (more than {reach} studs "
                                              "or through a wall)")
                                            .format(id=unit.id, value=tuple(action.to), reach=reach))
    return None


def apply_throw(g: Game, action: Throw) -> list[Event]:
    to = (int(action.to[0]), int(action.to[1]))
    events = spend(g, action.unit)
    g.state.units[action.unit] = _drop(g.state.units[action.unit], action.item)
    g.state.ground_items = g.state.ground_items + ((action.item, to),)
    return events + [g.event("thrown", unit=action.unit, item=action.item, to=list(to))]


def check_give(g: Game, action: Give) -> Refusal | None:
    """To a close friendly unit on foot (an enemy cannot be made to accept an object)."""
    unit = _on_foot(g, action)
    if isinstance(unit, Refusal):
        return unit
    if not _carries(unit, action.item):
        return Refusal(Reason.UNKNOWN, _("{id} carries no {item}").format(id=unit.id, item=action.item))
    receiver = g.state.units.get(action.receiver)
    if receiver is None or receiver.id == unit.id or not receiver.in_play or receiver.position is None:
        return Refusal(Reason.BAD_TARGET, _("{receiver} cannot receive an object").format(receiver=action.receiver))
    if receiver.side != unit.side:
        return Refusal(Reason.NOT_ALLOWED, _("{receiver} is an enemy and does not accept the {item}")
                                           .format(receiver=action.receiver, item=action.item))
    if not within(g, unit.id, receiver.id, CLOSE_STUDS):
        return Refusal(Reason.OUT_OF_REACH, _("{receiver} is not close to {id}")
                                            .format(receiver=action.receiver, id=unit.id))
    return None


def apply_give(g: Game, action: Give) -> list[Event]:
    events = spend(g, action.unit)
    g.state.units[action.unit] = _drop(g.state.units[action.unit], action.item)
    g.state.units[action.receiver] = _take(g.state.units[action.receiver], action.item)
    return events + [g.event("given", unit=action.unit, item=action.item, receiver=action.receiver)]


def check_switch(g: Game, action: SwitchWeapon) -> Refusal | None:
    """A weapon from the bag into the hand, the one in hand into the bag (BOW §2.3.2)."""
    refusal = check_actor(g, action.unit)
    if refusal is not None:
        return refusal
    unit = g.state.units[action.unit]
    if action.weapon not in unit.items:
        return Refusal(Reason.UNKNOWN, _("{id} has no {weapon} in its bag").format(id=unit.id, weapon=action.weapon))
    return None


def apply_switch(g: Game, action: SwitchWeapon) -> list[Event]:
    events = spend(g, action.unit)
    unit = g.state.units[action.unit]
    items = [i for i in unit.items if i != action.weapon] + ([unit.weapon] if unit.weapon else [])
    g.state.units[unit.id] = replace(unit, weapon=action.weapon, items=tuple(items))
    damage = sheet_value(g.ctx.weapon(unit.sheet, action.weapon), "damage", 0)
    return events + [g.event("switched", unit=unit.id, weapon=action.weapon, damage=damage)]


# -- doors (BOW §2.3.3) --------------------------------------------------------------------
def check_door(g: Game, action: Door) -> Refusal | None:
    unit = _on_foot(g, action)
    if isinstance(unit, Refusal):
        return unit
    if action.door not in g.state.doors:
        return Refusal(Reason.UNKNOWN, _("no door '{door}'").format(door=action.door))
    if g.state.doors[action.door] == bool(action.open):
        return Refusal(Reason.NOT_ALLOWED, _("{door} is already {value}")
                                           .format(door=action.door, value='open' if action.open else 'closed'))
    if not _near(unit.cell, g.ctx.door_cells[action.door]):
        return Refusal(Reason.OUT_OF_REACH, _("{door} is not close to {id}").format(door=action.door, id=unit.id))
    return None


def apply_door(g: Game, action: Door) -> list[Event]:
    events = spend(g, action.unit)
    g.state.doors[action.door] = bool(action.open)
    g.geometry.set_door(action.door, g.ctx.door_cells[action.door], bool(action.open))
    return events + [g.event("door", unit=action.unit, door=action.door, open=bool(action.open))]


def candidates(g: Game) -> Iterator[Action]:
    for unit_id in actors(g):
        unit = g.state.units[unit_id]
        if unit.aboard is None and unit.position is not None:
            yield from move_candidates(g, unit)
            for name, cell in g.state.ground_items:
                if _near(unit.cell, cell):
                    yield Grab(unit_id, name)
            for door, is_open in g.state.doors.items():
                yield Door(unit_id, door, not is_open)
            carried = ([unit.weapon] if unit.weapon else []) + list(unit.items)
            for other in g.state.units.values():
                if other.side == unit.side and other.id != unit_id and other.position is not None:
                    for item in carried:
                        yield Give(unit_id, item, other.id)
        for weapon in unit.items:
            yield SwitchWeapon(unit_id, weapon)
