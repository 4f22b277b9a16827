"""Treat/Repair actions (BOW §2.4.4).

Layer: rulesets (BOW). The colours must match (red treat -> red HP life forms, yellow repair -> yellow
HP machines; vehicles are yellow), never oneself, in contact (geometry.is_close; from inside the
same vehicle counts as contact), on a damaged unit or vehicle still in play. The treater rolls
its Treat/Repair bricks, an opponent rolls as many bricks as the target's damage points;
success (treat > resist) removes 1 damage point, or the difference with the optional rule
`treat_removes_difference`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from bow3d.i18n import _
from bow3d.rules import pending as answers
from bow3d.rules.events import Event
from bow3d.rules.pending import Pending
from bow3d.rules.refusal import Reason, Refusal
from bow3d.rulesets.bow.actions import Action, Treat
from bow3d.rulesets.bow.chance import RollRequest
from bow3d.rulesets.bow.context import sheet_value
from bow3d.rulesets.bow.queries import CLOSE_STUDS, actors, geo_id, within
from bow3d.rulesets.bow.resolvers import resolves
from bow3d.rulesets.bow.state import replace
from bow3d.rulesets.bow.turns import check_actor, spend

if TYPE_CHECKING:
    from bow3d.rules.game import Game


def hp_colour(g: Game, target: str) -> str:
    """'red' (life form) or 'yellow' (mechanical; every vehicle)."""
    if target in g.state.vehicles:
        return "yellow"
    return str(sheet_value(g.ctx.sheet(g.state.units[target].sheet), "hp_colour", "red"))


def check_treat(g: Game, action: Treat) -> Refusal | None:
    refusal = check_actor(g, action.unit)
    if refusal is not None:
        return refusal
    state = g.state
    unit = state.units[action.unit]
    sheet = g.ctx.sheet(unit.sheet)
    ability = int(sheet_value(sheet, "treat", 0))
    if ability <= 0:
        return Refusal(Reason.NOT_ALLOWED, _("{id} has no Treat/Repair ability").format(id=unit.id))
    if action.target == unit.id:
        return Refusal(Reason.NOT_ALLOWED, _("a unit cannot treat or repair itself (BOW §2.4.4)"))
    target = state.units.get(action.target) or state.vehicles.get(action.target)
    if target is None:
        return Refusal(Reason.UNKNOWN, _("no unit or vehicle '{target}'").format(target=action.target))
    if not target.in_play:
        return Refusal(Reason.BAD_TARGET, _("{target} is dead or destroyed and cannot be "
                                            "treated/repaired").format(target=action.target))
    colour, needed = str(sheet_value(sheet, "treat_colour", "red")), hp_colour(g, action.target)
    if colour != needed:
        return Refusal(Reason.NOT_ALLOWED, _("{id}'s {colour} Treat/Repair does not match {target}'s "
                                             "{needed} HP (BOW §2.4.4)")
                                           .format(id=unit.id, colour=colour, target=action.target, needed=needed))
    if target.damage <= 0:
        return Refusal(Reason.BAD_TARGET, _("{target} has no damage point").format(target=action.target))
    own, other = geo_id(g, unit.id), (action.target if action.target in state.vehicles else geo_id(g, action.target))
    if own != other and not within(g, own, other, CLOSE_STUDS):
        return Refusal(Reason.OUT_OF_REACH, _("{target} is not in contact with {id}")
                                            .format(target=action.target, id=unit.id))
    return None


def apply_treat(g: Game, action: Treat) -> list[Event]:
    state = g.state
    unit = state.units[action.unit]
    target = state.units.get(action.target) or state.vehicles[action.target]
    ability = int(sheet_value(g.ctx.sheet(unit.sheet), "treat", 0))
    events = spend(g, action.unit)
    events.append(g.event("treat", unit=action.unit, target=action.target, treat_bricks=ability,
                          resist_bricks=target.damage, repair=hp_colour(g, action.target) == "yellow"))
    return events + answers.request(g, "treat", [
        RollRequest(unit.side, ability, "treat", g.ctx.p, unit=action.unit, target=action.target),
        RollRequest(g.ctx.opponent_of(unit.side), target.damage, "damage_points", g.ctx.p, target=action.target)],
        unit=action.unit, target=action.target)


@resolves("treat")
def _resolve_treat(g: Game, pending: Pending) -> list[Event]:
    unit, target_id = pending.data["unit"], pending.data["target"]
    t, r = pending.rolls
    state = g.state
    target = state.units.get(target_id) or state.vehicles[target_id]
    healed = 0
    if t > r:
        healed = min(target.damage, (t - r) if g.ctx.treat_removes_difference else 1)
    new = replace(target, damage=target.damage - healed)
    (state.units if target_id in state.units else state.vehicles)[target_id] = new
    return [g.event("treat_result", unit=unit,
                    target=target_id, treat=t, resist=r, healed=healed, damage=new.damage)]


def candidates(g: Game) -> Iterator[Action]:
    state = g.state
    for unit_id in actors(g):
        if int(sheet_value(g.ctx.sheet(state.units[unit_id].sheet), "treat", 0)) <= 0:
            continue
        for other in list(state.units.values()) + list(state.vehicles.values()):
            if other.damage > 0 and other.id != unit_id:
                yield Treat(unit_id, other.id)
