"""Rounds and turns (BOW §2.2): starting player, alternating turns, marking bricks, game end.

Layer: rulesets (BOW). The starting player is decided by a 6-brick roll each, ties re-rolled. Sides
alternate choosing one unplayed unit (the unit's first action, or EndTurn to pass, starts its
turn); a side without unplayed units is skipped, so the other plays the rest in a row; the side
that finished first starts the next round. Played units get a marking brick in odd rounds and
lose it in even rounds. The game ends when at most one side has units in play (winner), or
after `max_rounds` (result by the cost points of the survivors, BOW Annex A.4).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from bow3d.i18n import _
from bow3d.rules import pending as answers
from bow3d.rules.events import Event
from bow3d.rules.geometry import Cell
from bow3d.rules.pending import Pending
from bow3d.rules.refusal import Reason, Refusal
from bow3d.rulesets.bow.actions import Action, EndTurn
from bow3d.rulesets.bow.chance import RollRequest
from bow3d.rulesets.bow.context import STARTING_ROLL_BRICKS, Context, sheet_value
from bow3d.rulesets.bow.queries import actors, drifting_vehicles, eligible, owes_compulsory_move
from bow3d.rulesets.bow.resolvers import resolves
from bow3d.rulesets.bow.state import BowReason, GameState, UnitState, VehicleState, replace

if TYPE_CHECKING:
    from bow3d.rules.game import Game


# -- set-up -------------------------------------------------------------------------------
def initial_state(ctx: Context, doors: Iterable[tuple[str, Cell, bool]]) -> GameState:
    """Units and vehicles as the scene places them; the first weapon of a sheet in hand
    (or the unit's `weapon`), the others in the bag."""
    state = GameState()
    aboard: dict[str, str] = {}
    for v in getattr(ctx.scene, "vehicles", None) or []:
        sheet = ctx.sheet(v.sheet)
        occupants = list(v.occupants or [])
        seats = max(int(sheet_value(sheet, "seats", 1)), len(occupants))
        state.vehicles[v.id] = VehicleState(
            v.id, v.side, v.sheet, (float(v.position[0]), float(v.position[1])), float(v.facing or 0) % 360,
            speed=int(v.speed or 0), seats=tuple(occupants + [None] * (seats - len(occupants))))
        aboard.update(dict.fromkeys(occupants, v.id))
    for u in ctx.scene.units:
        names = [w.name for w in getattr(ctx.sheet(u.sheet), "weapons", None) or []]
        hand = getattr(u, "weapon", None) or (names[0] if names else None)
        position = None if u.id in aboard or u.position is None else (float(u.position[0]), float(u.position[1]))
        state.units[u.id] = UnitState(u.id, u.side, u.sheet, position, float(u.facing or 0) % 360,
                                      weapon=hand, items=tuple(n for n in names if n != hand),
                                      aboard=aboard.get(u.id))
    state.doors = {door_id: bool(is_open) for door_id, _cell, is_open in doors}
    return state


def place_bodies(g: Game) -> None:
    """Put the geometry in step with the state: units on foot and vehicles placed, units aboard a
    vehicle seated in it (reading `occupant_bodies`, §3.1, §3.5) or taken off the field (a geometry
    used for an earlier game may still hold them)."""
    for unit in g.state.units.values():
        if unit.position is not None:
            g.geometry.place(unit.id, unit.position, unit.facing)
        elif unit.aboard is not None:
            g.geometry.remove(unit.id)
    for vehicle in g.state.vehicles.values():
        if vehicle.position is not None:
            g.geometry.place(vehicle.id, vehicle.position, vehicle.facing)
        if g.ctx.readings.occupant_bodies and vehicle.in_play:
            for seat, unit in enumerate(vehicle.seats):
                if unit is not None and g.state.units[unit].in_play:
                    g.geometry.seat(unit, vehicle.id, seat)
    for door, is_open in g.state.doors.items():
        g.geometry.set_door(door, g.ctx.door_cells[door], is_open)


def begin(g: Game) -> list[Event]:
    """BOW §2.2: each side rolls 6 bricks, the higher result starts."""
    events = [g.event("game_started", sides=list(g.ctx.sides))]
    if len(g.ctx.sides) < 2:
        return events + after_record(g)
    return events + _starting_rolls(g, g.ctx.sides)


def _starting_rolls(g: Game, sides: list[str]) -> list[Event]:
    requests = [RollRequest(side, STARTING_ROLL_BRICKS, "starting_player", g.ctx.p) for side in sides]
    g.state.pending = Pending("start", tuple(requests), (), {"sides": list(sides)})
    return answers.advance(g)


@resolves("start")
def _resolve_start(g: Game, pending: Pending) -> list[Event]:
    results = dict(zip(pending.data["sides"], pending.rolls))
    g.state.start_rolls.update(results)
    best = max(results.values())
    top = [side for side, edges in results.items() if edges == best]
    if len(top) > 1:
        event = g.event("starting_tie", sides=top, edges=best)
        return [event] + _starting_rolls(g, top)
    g.state.phase = "play"
    event = g.event("starting_player", side=top[0], edges=best)
    return [event] + start_round(g, top[0])


# -- rounds and turns ---------------------------------------------------------------------
def start_round(g: Game, starter: str) -> list[Event]:
    state = g.state
    if g.ctx.max_rounds is not None and state.round >= g.ctx.max_rounds:
        return _finish_by_points(g)
    state.round += 1
    for uid, unit in state.units.items():
        state.units[uid] = replace(unit, played=False, actions_used=0)
    for vid, vehicle in state.vehicles.items():
        state.vehicles[vid] = replace(vehicle, moved=False)
    state.round_starter = starter
    state.finished_first = None
    state.active_unit = None
    state.phase = "play"
    state.side_to_play = starter
    marking = "add" if state.round % 2 == 1 else "remove"
    events = [g.event("round_started", starter=starter, marking=marking)]
    if not eligible(g, starter):
        events += _next_side(g)
    return events


def check_actor(g: Game, unit_id: str, cost: int = 1) -> Refusal | None:
    """The unit may act now for `cost` actions of its budget (BOW §2.2)."""
    state = g.state
    unit = state.units.get(unit_id)
    if unit is None:
        return Refusal(Reason.UNKNOWN, _("no unit '{unit_id}'").format(unit_id=unit_id))
    if state.phase != "play":
        return Refusal(Reason.NOT_YOUR_TURN, _("no unit plays now ({phase})").format(phase=state.phase))
    if not unit.in_play:
        return Refusal(Reason.CANNOT_ACT, _("{unit_id} is {value}")
                                          .format(unit_id=unit_id, value='dead' if not unit.alive else 'off the battlefield'))
    if unit.side != state.side_to_play:
        return Refusal(Reason.NOT_YOUR_TURN, _("it is {side_to_play}'s turn, not {side}'s")
                                             .format(side_to_play=state.side_to_play, side=unit.side))
    if state.active_unit is not None and state.active_unit != unit_id:
        return Refusal(Reason.NOT_YOUR_TURN, _("it is {active_unit}'s turn").format(active_unit=state.active_unit))
    if unit.played:
        return Refusal(Reason.CANNOT_ACT, _("{unit_id} has already played this round").format(unit_id=unit_id))
    budget = int(sheet_value(g.ctx.sheet(unit.sheet), "action_budget", 0))
    if unit.actions_used + cost > budget:
        return Refusal(Reason.NO_ACTION_LEFT, _("{unit_id} has used its {budget} actions")
                                              .format(unit_id=unit_id, budget=budget))
    return None


def spend(g: Game, unit_id: str, cost: int = 1) -> list[Event]:
    """Start the unit's turn if needed and count `cost` actions of its budget."""
    state = g.state
    events = []
    if state.active_unit is None:
        state.active_unit = unit_id
        events.append(g.event("turn_started", unit=unit_id))
    unit = state.units[unit_id]
    state.units[unit_id] = replace(unit, actions_used=unit.actions_used + cost)
    return events


def check_end_turn(g: Game, action: EndTurn) -> Refusal | None:
    refusal = check_actor(g, action.unit, cost=0)
    if refusal is not None:
        return refusal
    vehicle = owes_compulsory_move(g, action.unit)
    if vehicle is not None:
        return Refusal(BowReason.COMPULSORY_MOVE, _("{vehicle} must do its compulsory move first (BOW "
                                                    "§3.3)").format(vehicle=vehicle))
    return None


def apply_end_turn(g: Game, action: EndTurn) -> list[Event]:
    return spend(g, action.unit, 0) + _finish_turn(g, action.unit)


def _finish_turn(g: Game, unit_id: str) -> list[Event]:
    state = g.state
    unit = state.units[unit_id]
    marking = 1 if state.round % 2 == 1 else 0
    state.units[unit_id] = replace(unit, played=True, actions_used=0, marking_bricks=marking)
    state.active_unit = None
    state.turns_played += 1
    events = [g.event("turn_ended", unit=unit_id, actions=unit.actions_used)]
    return events + _next_side(g)


def _next_side(g: Game) -> list[Event]:
    """The next side in order that has units to play; none left: the round ends."""
    state = g.state
    sides = g.ctx.sides
    start = sides.index(state.side_to_play) if state.side_to_play in sides else 0
    order = sides[start:] + sides[:start]
    for side in order:
        if state.finished_first is None and not eligible(g, side):
            state.finished_first = side
    for side in order[1:] + order[:1]:
        if eligible(g, side):
            state.side_to_play = side
            return []
    return _end_round(g)


def _end_round(g: Game) -> list[Event]:
    state = g.state
    drifting = drifting_vehicles(g)
    if drifting:
        state.phase = "drift"
        state.side_to_play = state.vehicles[drifting[0]].side
        return []
    events = [g.event("round_ended")]
    return events + start_round(g, state.finished_first or state.round_starter or g.ctx.sides[0])


def after_record(g: Game) -> list[Event]:
    """After every record: game end, the end of a dead unit's turn, the end of the drift phase."""
    state = g.state
    if state.phase == "over":
        return []
    in_play = [side for side in g.ctx.sides if any(u.in_play for u in state.units.values() if u.side == side)]
    if len(in_play) <= 1:
        return _finish(g, in_play[0] if in_play else None, "win" if in_play else "draw")
    if state.pending is not None:
        return []
    if state.phase == "play" and state.active_unit is not None and not state.units[state.active_unit].in_play:
        return _finish_turn(g, state.active_unit)
    if state.phase == "play" and state.active_unit is None and not eligible(g, state.side_to_play):
        return _next_side(g)
    if state.phase == "drift":
        drifting = drifting_vehicles(g)
        if drifting:
            state.side_to_play = state.vehicles[drifting[0]].side
            return []
        return _end_round(g)
    return []


def _finish(g: Game, winner: str | None, result: str) -> list[Event]:
    state = g.state
    state.phase, state.winner, state.result = "over", winner, result
    state.pending, state.active_unit = None, None
    return [g.event("game_over", winner=winner, result=result)]


def army_points(g: Game) -> dict[str, int]:
    """Cost points (BOW Annex A.4, bow3d.scene.cost) of each side's units and vehicles in play."""
    from bow3d.rulesets.bow.cost import unit_cost, vehicle_cost
    points = dict.fromkeys(g.ctx.sides, 0)
    for unit in g.state.units.values():
        if unit.in_play:
            weapon = g.ctx.weapon(unit.sheet, unit.weapon)
            points[unit.side] += unit_cost(g.ctx.sheet(unit.sheet), weapon)
    for vehicle in g.state.vehicles.values():
        if vehicle.in_play:
            points[vehicle.side] += vehicle_cost(g.ctx.sheet(vehicle.sheet))
    return points


def _finish_by_points(g: Game) -> list[Event]:
    points = army_points(g)
    best = max(points.values())
    top = [side for side, value in points.items() if value == best]
    events = [g.event("round_limit", points=points)]
    return events + _finish(g, top[0] if len(top) == 1 else None, "points" if len(top) == 1 else "draw")


def candidates(g: Game) -> Iterator[Action]:
    for unit_id in actors(g):
        yield EndTurn(unit_id)
