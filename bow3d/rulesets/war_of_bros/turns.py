"""Starting the game, rounds, turns and each unit's steps (Unit Placement, First Turn, Order Of Operation).

Layer: rulesets (War of Bros). The book, and how it is read here:
- "Unit Placement": each player rolls a die (a d6; ties roll again) for the order of placement;
  the players then place one unit each in turn until all are placed (a player with none left is
  passed over: "remaining units are placed ... at the end"); "the closest units between any two
  players must be at least 60cm" (bases apart, seen from above). Units inside a Mechanized unit
  (its crew) are not placed.
- Capture The Frag: each player then selects its Primary Target (a decision, in placement order).
- "First Turn": each player rolls a die (a d6; ties again) "to determine who will take their first
  movement"; that order holds for the whole encounter. In the first round nobody attacks and each
  unit takes only its First Movement Step.

More: docs/modules/rulesets-war-of-bros.md#turns.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from bow3d.i18n import _, decimal
from bow3d.rules import pending as answers
from bow3d.rules.chance import ChanceRequest, Dice
from bow3d.rules.events import Event
from bow3d.rules.pending import Pending
from bow3d.rules.refusal import Reason, Refusal
from bow3d.rulesets.war_of_bros import field, plan
from bow3d.rulesets.war_of_bros.actions import Action, EndStep, EndTurn, Place
from bow3d.rulesets.war_of_bros.blocking import blocked_by
from bow3d.rulesets.war_of_bros.context import Context
from bow3d.rulesets.war_of_bros.state import GameState, UnitState, WobReason, replace
from bow3d.rulesets.war_of_bros.tables import reward

if TYPE_CHECKING:
    from bow3d.rules.game import Game

ORDER_DIE = Dice(1, 6)   # "Each player will roll a die": a d6


# -- set-up -------------------------------------------------------------------------------------------
def initial_state(ctx: Context) -> GameState:
    state = GameState()
    aboard = {crew: mech for mech, crews in ctx.crews.items() for crew in crews}
    for item in (*ctx.scene.units, *(getattr(ctx.scene, "vehicles", None) or [])):
        state.units[item.id] = UnitState(item.id, item.side, item.sheet, None, float(item.facing) % 360.0,
                                         aboard=aboard.get(item.id))
    if ctx.params.mode == "capture-the-frag":
        state.frags = dict.fromkeys(ctx.sides, ctx.params.frag_tokens)
        state.primary = dict.fromkeys(ctx.sides)
    return state


def place_bodies(g: Game) -> None:
    """Nothing is on the battlefield before Unit Placement (a reused geometry is cleaned first)."""
    field.clean_start(g)
    for unit in g.state.units.values():
        g.geometry.remove(unit.id)


def begin(g: Game) -> list[Event]:
    events = [g.event("game_started", sides=list(g.ctx.sides), mode=g.ctx.params.mode)]
    return events + order_roll(g, "placement_order", [list(g.ctx.sides)], [])


# -- order rolls (placement and first turn) -------------------------------------------------------------
def order_roll(g: Game, purpose: str, groups: list[list[str]], ordered: list[str]) -> list[Event]:
    """Roll for the next group of sides still tied (one side alone is ordered at once)."""
    while groups and len(groups[0]) == 1:
        ordered = ordered + groups[0]
        groups = groups[1:]
    if not groups:
        return ordered_sides(g, purpose, ordered)
    requests = [ChanceRequest(side, ORDER_DIE, purpose, {"side": side}) for side in groups[0]]
    return answers.request(g, "order", requests, purpose=purpose, groups=groups, ordered=ordered)


def resolve_order(g: Game, pending: Pending) -> list[Event]:
    data = pending.data
    group = data["groups"][0]
    values = {side: faces[0] for side, faces in zip(group, pending.answers)}
    g.state.rolls.update(values)
    split = [[s for s in group if values[s] == v] for v in sorted(set(values.values()), reverse=True)]
    events = [g.event("order_tie", purpose=data["purpose"], sides=s, value=values[s[0]]) for s in split if len(s) > 1]
    return events + order_roll(g, data["purpose"], split + data["groups"][1:], data["ordered"])


def ordered_sides(g: Game, purpose: str, ordered: list[str]) -> list[Event]:
    event = g.event("order", purpose=purpose, sides=list(ordered), rolls={s: g.state.rolls.get(s, 0) for s in ordered})
    if purpose == "placement_order":
        g.state.placing = list(ordered)
        g.state.phase = "placement"
        g.state.side_to_play = ordered[0]
        return [event] + _next_placer(g, first=True)
    g.state.order = list(ordered)
    return [event] + start_round(g)


# -- Unit Placement ---------------------------------------------------------------------------------------
def to_place(g: Game, side: str) -> list[str]:
    """The side's units still to place, in scene order (not its crews)."""
    return [u.id for u in g.state.units.values() if u.side == side and u.alive and not u.placed and u.aboard is None]


def _next_placer(g: Game, first: bool = False) -> list[Event]:
    state = g.state
    order = state.placing
    start = order.index(state.side_to_play) + (0 if first else 1)
    for k in range(len(order)):
        side = order[(start + k) % len(order)]
        if to_place(g, side):
            state.side_to_play = side
            return []
    return _placement_done(g)


def _placement_done(g: Game) -> list[Event]:
    state = g.state
    state.phase = "ready"
    state.side_to_play = None
    if g.ctx.params.mode == "capture-the-frag":
        state.tasks = state.tasks + tuple(("primary", side) for side in state.placing)
    state.tasks = state.tasks + (("first_turn_roll",),)
    return []


def place_refusal(g: Game, action: Place) -> Refusal | None:
    state = g.state
    unit = state.units.get(action.unit)
    if unit is None:
        return Refusal(Reason.UNKNOWN, _("no unit '{unit}'").format(unit=action.unit))
    if state.phase != "placement":
        return Refusal(WobReason.WRONG_STEP, _("units are placed only during Unit Placement"))
    if unit.side != state.side_to_play:
        return Refusal(Reason.NOT_YOUR_TURN, _("{placing} places now, not {side}").format(
            placing=state.side_to_play, side=unit.side))
    if unit.placed or unit.aboard is not None:
        return Refusal(Reason.CANNOT_ACT, (_("{unit} is placed already") if unit.placed else
                                           _("{unit} is inside {vehicle}")).format(unit=unit.id, vehicle=unit.aboard))
    corners = g.ctx.corners(unit.id, (action.x, action.y), action.facing)
    blocked = blocked_by(g, unit.id, corners)
    if blocked:
        return Refusal(WobReason.BLOCKED, _("{unit} cannot stand there: {why}").format(unit=unit.id, why=blocked))
    least = g.ctx.params.start_distance_cm
    for other in state.units.values():
        if other.on_field and other.side != unit.side:
            apart = plan.cm(plan.gap(corners, g.ctx.corners(other.id, other.position, other.facing)))
            if apart < least - 1e-9:
                return Refusal(WobReason.START_DISTANCE, _("{unit} would stand {apart} cm from {other}; the closest "
                                                                "units of two players must be at least {least} cm "
                                                                "apart (Unit Placement)").format(
                    unit=unit.id, apart=decimal(apart), other=other.id, least=f"{least:g}"))
    return None


def apply_place(g: Game, action: Place) -> list[Event]:
    facing = float(action.facing) % 360.0
    position = (float(action.x), float(action.y))
    g.state.units[action.unit] = replace(g.state.units[action.unit], position=position, facing=facing, placed=True)
    g.geometry.place(action.unit, position, facing)
    event = g.event("placed", unit=action.unit, position=list(position), facing=facing, reason="placement")
    return [event] + _next_placer(g)


# -- rounds, turns, activations -------------------------------------------------------------------------------
def start_round(g: Game) -> list[Event]:
    state = g.state
    if g.ctx.max_rounds is not None and state.round >= g.ctx.max_rounds:
        return finish_by_power(g)
    state.round += 1
    state.phase = "play"
    state.active, state.step, state.called = None, None, frozenset()
    for uid, unit in state.units.items():
        state.units[uid] = replace(unit, activated=False, moved_cm=0.0, penalised=False)
    state.side_to_play = state.order[0]
    events = [g.event("round_started", order=list(state.order), first_turn=state.first_turn)]
    burning = tuple(("burn", u.id) for u in state.units.values() if u.on_field and u.burning > 0)
    state.tasks = state.tasks + burning
    if not activatable(g, state.side_to_play):
        events += next_side(g)
    return events


def activatable(g: Game, side: str | None) -> list[str]:
    """Units of the side that may still take their steps this turn, in scene order."""
    return [u.id for u in g.state.units.values() if u.side == side and u.on_field and not u.activated]


def next_side(g: Game) -> list[Event]:
    """The side after this one (in the turn order) with units to move; the round ends after the last."""
    state = g.state
    order = state.order
    k = order.index(state.side_to_play) + 1 if state.side_to_play in order else 0
    while k < len(order):
        if activatable(g, order[k]):
            state.side_to_play = order[k]
            return [g.event("turn_started", side=order[k])]
        k += 1
    return [g.event("round_ended")] + start_round(g)


def check_actor(g: Game, unit_id: str) -> Refusal | None:
    """The unit may act now: its side's turn, alive on the field, and no other unit in its activation."""
    state = g.state
    unit = state.units.get(unit_id)
    if unit is None:
        return Refusal(Reason.UNKNOWN, _("no unit '{unit}'").format(unit=unit_id))
    if state.phase != "play":
        return Refusal(Reason.NOT_YOUR_TURN, _("no unit moves now ({phase})").format(phase=state.phase))
    if not unit.on_field:
        return Refusal(Reason.CANNOT_ACT, (_("{unit} is dead") if not unit.alive else
                                           _("{unit} is not on the battlefield")).format(unit=unit_id))
    if unit.side != state.side_to_play:
        return Refusal(Reason.NOT_YOUR_TURN, _("it is {playing}'s turn, not {side}'s").format(
            playing=state.side_to_play, side=unit.side))
    if state.active is not None and state.active != unit_id:
        return Refusal(Reason.NOT_YOUR_TURN, _("{unit} is taking its steps (Order Of Operation)").format(
            unit=state.active))
    if unit.activated:
        return Refusal(Reason.CANNOT_ACT, _("{unit} has taken its steps this turn").format(unit=unit_id))
    return None


def activate(g: Game, unit_id: str) -> list[Event]:
    """Start the unit's activation if it is not started (the First Movement Step)."""
    state = g.state
    if state.active == unit_id:
        return []
    state.active, state.step, state.called = unit_id, "first", frozenset()
    return [g.event("activation_started", unit=unit_id)]


def end_activation(g: Game) -> list[Event]:
    state = g.state
    unit_id = state.active
    if unit_id is None:
        return []
    unit = state.units[unit_id]
    state.units[unit_id] = replace(unit, activated=True)
    state.active, state.step, state.called = None, None, frozenset()
    events = [g.event("activation_ended", unit=unit_id, moved_cm=round(unit.moved_cm, 3))]
    if not activatable(g, state.side_to_play):
        events += next_side(g)
    return events


def check_end_step(g: Game, action: EndStep) -> Refusal | None:
    return check_actor(g, action.unit)


def apply_end_step(g: Game, action: EndStep) -> list[Event]:
    """First Movement Step done: to the Final Movement Step (the first turn: the activation ends);
    Final Movement Step done: the activation ends."""
    events = activate(g, action.unit)
    state = g.state
    if state.step == "first" and not state.first_turn and not state.units[action.unit].penalised:
        state.step = "final"
        return events + [g.event("step", unit=action.unit, step="final")]
    return events + end_activation(g)


def check_end_turn(g: Game, action: EndTurn) -> Refusal | None:
    state = g.state
    if state.phase != "play":
        return Refusal(Reason.NOT_YOUR_TURN, _("no turn to end now ({phase})").format(phase=state.phase))
    if action.side != state.side_to_play:
        return Refusal(Reason.NOT_YOUR_TURN, _("it is {playing}'s turn").format(playing=state.side_to_play))
    return None


def apply_end_turn(g: Game, action: EndTurn) -> list[Event]:
    state = g.state
    events = end_activation(g) if state.active is not None else []
    if state.side_to_play != action.side or state.phase != "play":
        return events
    for uid in activatable(g, action.side):
        state.units[uid] = replace(state.units[uid], activated=True)
    return events + [g.event("turn_ended", side=action.side)] + next_side(g)


# -- ending -----------------------------------------------------------------------------------------------------
def sides_in_play(g: Game) -> list[str]:
    """Sides still in the encounter: units in play (and frag tokens left, in Capture The Frag)."""
    state = g.state
    alive = [s for s in g.ctx.sides if any(u.in_play for u in state.units.values() if u.side == s)]
    if g.ctx.params.mode == "capture-the-frag":
        alive = [s for s in alive if state.frags.get(s, 0) > 0]
    return alive


def starting_power(g: Game) -> dict[str, int]:
    """Unit power each player brought (crews are paid within their Mechanized unit's price)."""
    power = dict.fromkeys(g.ctx.sides, 0)
    for unit in g.state.units.values():
        if unit.aboard is None or unit.aboard not in g.ctx.crews:
            power[unit.side] += g.ctx.profile(unit.id).unit_power
    return power


def power_in_play(g: Game) -> dict[str, int]:
    power = dict.fromkeys(g.ctx.sides, 0)
    for unit in g.state.units.values():
        if unit.in_play and unit.aboard is None:
            power[unit.side] += g.ctx.profile(unit.id).unit_power
    return power


def finish(g: Game, winner: str | None, result: str) -> list[Event]:
    """"Ending An Encounter" and "A Reward Is Given": each player's maximum unit power gained, by the tier
    of the lowest unit power among the players."""
    state = g.state
    state.phase, state.winner, state.result = "over", winner, result
    state.active, state.step, state.tasks, state.side_to_play = None, None, (), None
    lowest = min(starting_power(g).values(), default=1) or 1
    state.rewards = {side: reward(lowest, side == winner, len(g.ctx.sides)) for side in g.ctx.sides}
    return [g.event("game_over", winner=winner, result=result, rewards=dict(state.rewards))]


def finish_by_power(g: Game) -> list[Event]:
    power = power_in_play(g)
    best = max(power.values())
    top = [side for side, value in power.items() if value == best]
    events = [g.event("round_limit", power=power)]
    return events + finish(g, top[0] if len(top) == 1 else None, "power" if len(top) == 1 else "draw")


def check_end(g: Game) -> list[Event]:
    if g.state.phase not in ("play", "ready"):
        return []
    alive = sides_in_play(g)
    if len(alive) <= 1 and len(g.ctx.sides) > 1:
        return finish(g, alive[0] if alive else None, "win" if alive else "draw")
    return []


def candidates(g: Game) -> Iterator[Action]:
    state = g.state
    if state.phase == "placement":
        for uid in to_place(g, state.side_to_play):
            spot = g.ctx.start.get(uid)
            if spot is not None:
                yield Place(uid, spot[0][0], spot[0][1], spot[1])
        return
    if state.phase != "play" or state.pending is not None:
        return
    units = [state.active] if state.active else activatable(g, state.side_to_play)
    for uid in units:
        yield EndStep(uid)
    if state.side_to_play:
        yield EndTurn(state.side_to_play)
