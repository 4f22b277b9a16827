"""What happens between the players' actions: Attacks Of Opportunity, tramples and escapes, Reactive
Armor, burning, Primary Targets, the first-turn roll: the game's queue of tasks.

Layer: rulesets (War of Bros). After every record the queue runs (first in, first out) until a
task waits for a throw or a decision.

More: docs/modules/rulesets-war-of-bros.md#reactions.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from bow3d.rules import pending as answers
from bow3d.rules.events import Event
from bow3d.rules.pending import DecisionRequest, Pending
from bow3d.rulesets.war_of_bros import measures, plan
from bow3d.rulesets.war_of_bros.blocking import blocked_by
from bow3d.rulesets.war_of_bros.combat import new_strike, run_strike
from bow3d.rulesets.war_of_bros.saves import reactive_shield_active
from bow3d.rulesets.war_of_bros.state import replace
from bow3d.rulesets.war_of_bros.tables import TRAMPLE_ESCAPE_CM
from bow3d.rulesets.war_of_bros.turns import order_roll

if TYPE_CHECKING:
    from bow3d.rules.game import Game
    from bow3d.rulesets.war_of_bros.movement import MovePlan

REACTION_SAMPLE_CM = 1.0   # a move is looked at every cm for units entering a threat range
TRAMPLE_REPEATS = 10
ESCAPE_HEADINGS = tuple(range(0, 360, 45))


def run_tasks(g: Game) -> list[Event]:
    """Run queued tasks until one waits for an answer (or none is left)."""
    events: list[Event] = []
    state = g.state
    while state.pending is None and state.tasks and state.phase != "over":
        task, state.tasks = state.tasks[0], state.tasks[1:]
        events += TASKS[task[0]](g, *task[1:])
    return events


# -- Attack Of Opportunity ------------------------------------------------------------------------------------
def opportunity_weapon(g: Game, reactor: str):
    """The sidearm if it has one (the longest reach), else its melee weapon; None: none."""
    weapons = g.ctx.profile(reactor).opportunity_weapons
    return max(weapons, key=lambda w: (w.role == "sidearm", w.range_cm, w.name), default=None)


def threatened(g: Game, reactor: str, mover: str, position, facing) -> bool:
    """The mover's base (at `position`) inside the reactor's arc, within its threat range."""
    reach = g.ctx.profile(reactor).threat_cm
    base = g.ctx.corners(mover, position, facing)
    distance = measures.arc_distance_cm(g, reactor, base)
    return distance is not None and distance <= reach + 1e-9


def path_points(move: MovePlan, every_cm: float = REACTION_SAMPLE_CM) -> list[tuple[float, float]]:
    """Centres along the straight part of a move, every `every_cm` and the end."""
    a, b = move.turned_to, move.centre
    length = plan.cm(math.dist(a, b))
    n = max(1, math.ceil(length / every_cm))
    return [(a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n) for k in range(1, n + 1)]


def opportunities(g: Game, mover: str, move: MovePlan) -> list[str]:
    """The enemies whose threat range the mover entered during this segment, who may call it out."""
    state = g.state
    if state.first_turn or g.ctx.profile(mover).airborne:
        return []
    side = state.units[mover].side
    found = []
    for reactor in state.units.values():
        profile = g.ctx.profile(reactor.id)
        if reactor.side == side or not reactor.on_field or profile.airborne or profile.threat_cm <= 0:
            continue
        weapon = opportunity_weapon(g, reactor.id)
        if weapon is None or (reactor.id, mover) in state.called:
            continue
        sizes = math.hypot(*g.ctx.bases[reactor.id]) / 2 + math.hypot(*g.ctx.bases[mover]) / 2
        if plan.point_segment_gap(reactor.position, move.start, move.centre) - sizes > plan.studs(profile.threat_cm):
            continue   # too far to be reached on this way
        if reactive_shield_active(g.ctx.profile(mover), weapon):
            continue
        if threatened(g, reactor.id, mover, move.start, move.start_facing):
            continue   # already inside: it did not enter
        if any(threatened(g, reactor.id, mover, p, move.facing) for p in (move.turned_to, *path_points(move))):
            found.append(reactor.id)
    return found


def _opportunity(g: Game, reactor: str, mover: str) -> list[Event]:
    state = g.state
    if not (state.units[reactor].on_field and state.units[mover].on_field):
        return []
    state.called = state.called | {(reactor, mover)}
    request = DecisionRequest(state.units[reactor].side, "opportunity", (True, False),
                              {"unit": reactor, "target": mover})
    return answers.request(g, "opportunity", [request], reactor=reactor, mover=mover)


def resolve_opportunity(g: Game, pending: Pending) -> list[Event]:
    reactor, mover = pending.data["reactor"], pending.data["mover"]
    if not pending.answers[0]:
        return []
    weapon = opportunity_weapon(g, reactor)
    event = g.event("opportunity", unit=reactor, target=mover, weapon=weapon.name)
    return [event] + run_strike(g, new_strike(g, "opportunity", reactor, weapon.name, mover, "start"))


# -- trampling ------------------------------------------------------------------------------------------------
def _under(g: Game, unit: str, mech: str) -> bool:
    state = g.state
    if not (state.units[unit].on_field and state.units[mech].on_field):
        return False
    return plan.overlaps(measures.corners(g, unit), measures.corners(g, mech), 1e-6)


def _trample(g: Game, mech: str, unit: str, repeat: int) -> list[Event]:
    state = g.state
    if not (state.units[mech].on_field and state.units[unit].on_field):
        return []
    if repeat and not _under(g, unit, mech):
        return []
    return run_strike(g, new_strike(g, "trample", mech, "trample", unit, "start", repeat=repeat))


def escape_options(g: Game, unit: str, mech: str) -> tuple[int, ...]:
    """Headings (degrees) in which the unit can move 6 cm: on the battlefield, clear of what it cannot cross
    and of other bases (the Mechanized unit it escapes from excepted)."""
    state = g.state
    me = state.units[unit]
    options = []
    for heading in ESCAPE_HEADINGS:
        fx, fy = plan.unit_vector(heading)
        step = plan.studs(TRAMPLE_ESCAPE_CM)
        centre = (me.position[0] + fx * step, me.position[1] + fy * step)
        end = g.ctx.corners(unit, centre, me.facing)
        why = blocked_by(g, unit, end)
        if why is None or why == f"the base of {mech}":
            options.append(heading)
    return tuple(options)


def _escape(g: Game, unit: str, mech: str, repeat: int) -> list[Event]:
    state = g.state
    if not (state.units[unit].on_field and state.units[mech].on_field):
        return []
    options = escape_options(g, unit, mech)
    if not options:
        return _again(g, unit, mech, repeat)
    request = DecisionRequest(state.units[unit].side, "escape", options, {"unit": unit, "vehicle": mech})
    return answers.request(g, "escape", [request], unit=unit, mech=mech, repeat=repeat)


def resolve_escape(g: Game, pending: Pending) -> list[Event]:
    unit, mech, repeat = pending.data["unit"], pending.data["mech"], pending.data["repeat"]
    heading = float(pending.answers[0])
    me = g.state.units[unit]
    fx, fy = plan.unit_vector(heading)
    step = plan.studs(TRAMPLE_ESCAPE_CM)
    centre = (me.position[0] + fx * step, me.position[1] + fy * step)
    g.state.units[unit] = replace(me, position=centre)
    g.geometry.place(unit, centre, me.facing)
    event = g.event("placed", unit=unit, position=list(centre), facing=me.facing, reason="escape")
    return [event] + _again(g, unit, mech, repeat)


def _again(g: Game, unit: str, mech: str, repeat: int) -> list[Event]:
    if _under(g, unit, mech) and repeat + 1 < TRAMPLE_REPEATS:
        g.state.tasks = (("trample", mech, unit, repeat + 1),) + g.state.tasks
    return []


# -- Primary Targets, the first-turn roll, burning ------------------------------------------------------------------
def _primary(g: Game, side: str) -> list[Event]:
    state = g.state
    units = tuple(u.id for u in state.units.values() if u.side == side and u.on_field)
    if not units or state.frags.get(side, 0) <= 0:
        return []
    request = DecisionRequest(side, "primary_target", units, {"side": side})
    return answers.request(g, "primary", [request], side=side)


def resolve_primary(g: Game, pending: Pending) -> list[Event]:
    side = pending.data["side"]
    g.state.primary[side] = pending.answers[0]
    return [g.event("primary_target", side=side, unit=pending.answers[0], tokens=g.state.frags.get(side, 0))]


def _first_turn_roll(g: Game) -> list[Event]:
    return order_roll(g, "first_turn", [list(g.ctx.sides)], [])


def _burn(g: Game, unit: str) -> list[Event]:
    me = g.state.units[unit]
    if not me.on_field or me.burning <= 0:
        return []
    g.state.units[unit] = replace(me, burning=me.burning - 1)
    return run_strike(g, new_strike(g, "burn", None, "incendiary", unit, "start"))


def _strike(g: Game, strike: dict) -> list[Event]:
    return run_strike(g, strike)


TASKS: dict[str, Callable[..., list[Event]]] = {"strike": _strike, "opportunity": _opportunity, "trample": _trample, "escape": _escape,
         "primary": _primary, "first_turn_roll": _first_turn_roll, "burn": _burn}
RESOLVERS = {"opportunity": resolve_opportunity, "escape": resolve_escape, "primary": resolve_primary}
