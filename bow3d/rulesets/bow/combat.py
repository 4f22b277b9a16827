"""Attacks (BOW §2.4.2), damage points and death (§2.4.3), vehicle damage and its sharing (§3.5).

Layer: rulesets (BOW). Attack/Damage bricks = attack skill + weapon damage; Dodge/Armor bricks = dodge +
armor. Melee: target in the front arc (180) and within the weapon's reach (reading `reach`: 3D, body to
body, not through walls). Long range: target seen (bow3d.rulesets.bow.sight: glass per `glass_hides`),
in the weapon's arc (180 in hand; the vehicle weapon's arc), -1 attack brick per `range_band_studs` (15)
of head-to-head distance beyond the first band, refused at 0 bricks; +1 dodge brick when covered (a
won visibility dispute covers only with `dispute_covers`). Aboard a vehicle (§3.1, §3.4): one of its
weapons, fired from its own seat (`weapon_seats`), one weapon per Attack action. An occupant (§3.5)
may be attacked when its vehicle's occupants are exposed, seen for itself (`occupant_bodies`).
Success when attack edges > dodge edges; damage = the difference.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from bow3d.i18n import _
from bow3d.rules import pending as answers
from bow3d.rules.events import Event
from bow3d.rules.pending import Pending
from bow3d.rules.refusal import Reason, Refusal
from bow3d.rulesets.bow.actions import Action, Attack
from bow3d.rulesets.bow.chance import RollRequest
from bow3d.rulesets.bow.context import DISPUTE_BRICKS, sheet_value, weapon_arc, weapon_kind, weapon_reach
from bow3d.rulesets.bow.queries import actors, body, geo_id, is_exposed, seat_of, within
from bow3d.rulesets.bow.resolvers import resolves
from bow3d.rulesets.bow.sight import is_covered, range_penalty, sees
from bow3d.rulesets.bow.state import UnitState, replace
from bow3d.rulesets.bow.turns import check_actor, spend

if TYPE_CHECKING:
    from bow3d.rules.game import Game


def dodge_armor(g: Game, target: str) -> int:
    """Dodge/Armor bricks of a unit or vehicle (dodge skill + armor)."""
    sheet = g.ctx.sheet(body(g, target).sheet)
    return int(sheet_value(sheet, "dodge", 0)) + int(sheet_value(sheet, "armor", 0))


def weapon_seat(weapon: Any) -> int:
    """BOW §3.1: the seat whose occupant fires a vehicle weapon (the sheet's `seat`; none given: the pilot's)."""
    seat = getattr(weapon, "seat", None)
    return 0 if seat is None else int(seat)


def attack_weapon(g: Game, unit: UnitState, name: str) -> tuple[Any | None, bool]:
    """(weapon, is a vehicle weapon) the unit can use now, or (None, False): the one in hand, or a weapon
    of the vehicle it is aboard (with the reading `weapon_seats`, only one of its own seat's, §3.1, §3.4);
    aboard a vehicle whose occupants are not exposed, only the vehicle's (§3.5)."""
    if unit.aboard is not None:
        vsheet = g.ctx.sheet(g.state.vehicles[unit.aboard].sheet)
        for weapon in getattr(vsheet, "weapons", None) or []:
            if weapon.name == name and (not g.ctx.readings.weapon_seats or weapon_seat(weapon) == seat_of(g, unit.id)):
                return weapon, True
        if not is_exposed(g, unit.aboard):
            return None, False
    if unit.weapon == name:
        return g.ctx.weapon(unit.sheet, name), False
    return None, False


def _weapon_refusal(g: Game, unit: UnitState, name: str) -> Refusal:
    """Why the unit cannot use the weapon called `name` now."""
    if unit.aboard is not None and g.ctx.readings.weapon_seats:
        for weapon in getattr(g.ctx.sheet(g.state.vehicles[unit.aboard].sheet), "weapons", None) or []:
            if weapon.name == name:
                return Refusal(Reason.NOT_ALLOWED, _("the {name} of {aboard} is fired from seat "
                                                     "{value}; {id} sits in seat {value2} (BOW §3.1: "
                                                     "which gunner controls which weapon)")
                                                   .format(name=name, aboard=unit.aboard, value=weapon_seat(weapon), id=unit.id, value2=seat_of(g, unit.id)))
    return Refusal(Reason.UNKNOWN, _("{id} cannot use a '{name}' now (not in hand)").format(id=unit.id, name=name))


def _target_refusal(g: Game, unit: UnitState, target: str) -> Refusal | None:
    state = g.state
    if target in state.units:
        other = state.units[target]
        if not other.in_play:
            return Refusal(Reason.BAD_TARGET, _("{target} is dead or gone").format(target=target))
        if other.aboard is not None and not is_exposed(g, other.aboard):
            return Refusal(Reason.NOT_VISIBLE, _("{target} is inside {aboard}, out of sight (BOW §3.5)")
                                               .format(target=target, aboard=other.aboard))
        side = other.side
    elif target in state.vehicles:
        if not state.vehicles[target].in_play:
            return Refusal(Reason.BAD_TARGET, _("{target} is destroyed or gone").format(target=target))
        side = state.vehicles[target].side
    else:
        return Refusal(Reason.UNKNOWN, _("no unit or vehicle '{target}'").format(target=target))
    if side == unit.side:
        return Refusal(Reason.BAD_TARGET, _("{target} is on {id}'s own side").format(target=target, id=unit.id))
    return None


def attack_plan(g: Game, action: Attack) -> tuple[dict[str, Any] | None, Refusal | None]:
    """Check an attack and work out its brick counts: (plan, None) or (None, refusal)."""
    refusal = check_actor(g, action.unit)
    if refusal is not None:
        return None, refusal
    unit = g.state.units[action.unit]
    weapon, mounted = attack_weapon(g, unit, action.weapon)
    if weapon is None:
        return None, _weapon_refusal(g, unit, action.weapon)
    refusal = _target_refusal(g, unit, action.target)
    if refusal is not None:
        return None, refusal
    if action.extra_to:
        occupants = g.state.vehicles[action.target].occupants if action.target in g.state.vehicles else ()
        if len(set(action.extra_to)) != len(action.extra_to) or not set(action.extra_to) <= set(occupants):
            return None, Refusal(Reason.BAD_TARGET, _("extra_to {value} must name distinct occupants "
                                                      "of {target} (aboard: {value2})")
                                                    .format(value=list(action.extra_to), target=action.target, value2=', '.join(occupants) or 'none'))
    firer = geo_id(g, unit.id)
    target = geo_id(g, action.target) if action.target in g.state.units else action.target
    attack = int(sheet_value(g.ctx.sheet(unit.sheet), "attack", 0)) + int(sheet_value(weapon, "damage", 0))
    plan = {"unit": unit.id, "target": action.target, "weapon": weapon.name, "kind": weapon_kind(weapon),
            "attack": attack, "dodge": dodge_armor(g, action.target), "penalty": 0, "covered": False,
            "distance": None, "dispute": bool(action.dispute), "extra_to": list(action.extra_to)}
    if weapon_kind(weapon) == "melee":
        if action.dispute:
            return None, Refusal(Reason.NOT_ALLOWED, _("a visibility dispute is for long-range attacks"))
        if not g.geometry.in_front_arc(firer, target, 180.0):
            return None, Refusal(Reason.NOT_IN_FRONT, _("{target} is not in front of {id}")
                                                      .format(target=action.target, id=unit.id))
        if not within(g, firer, target, weapon_reach(weapon)):
            return None, Refusal(Reason.OUT_OF_REACH, _("{target} is out of the {name}'s reach "
                                                        "({value:g} studs)")
                                                      .format(target=action.target, name=weapon.name, value=weapon_reach(weapon)))
        return plan, None
    return _ranged_plan(g, action, plan, firer, target, weapon, mounted)


def _ranged_plan(g: Game, action: Attack, plan: dict[str, Any], firer: str, target: str, weapon: Any,
                 mounted: bool) -> tuple[dict[str, Any] | None, Refusal | None]:
    sight = g.ask("sight", firer, target)
    arc = weapon_arc(weapon) if mounted else 180.0
    in_arc = True if arc >= 360 else (sight.in_front_arc if arc == 180 else g.geometry.in_front_arc(firer, target, arc))
    if not in_arc:
        return None, Refusal(Reason.NOT_IN_FRONT, _("{target} is outside the {name}'s {arc:g}-degree "
                                                    "arc").format(target=action.target, name=weapon.name, arc=arc))
    read = g.ctx.readings
    seen = sees(sight, read.glass_hides)
    if action.dispute:
        if not g.ctx.visibility_dispute:
            return None, Refusal(Reason.NOT_ALLOWED, _("the visibility dispute option is off in this "
                                                       "ruleset"))
        if seen:
            return None, Refusal(Reason.NOT_ALLOWED, _("{target} is visible: nothing to dispute")
                                                     .format(target=action.target))
    elif not seen:
        return None, Refusal(Reason.NOT_VISIBLE, _("{target} is hidden from {value}")
                                                 .format(target=action.target, value=plan['unit']))
    penalty = range_penalty(sight.distance_studs, g.ctx.range_band, read.range_edge)
    if plan["attack"] - penalty <= 0:
        return None, Refusal(Reason.TOO_FAR, _("{target} is {distance_studs:.1f} studs away: "
                                               "-{penalty} bricks leaves {value} of {value2} (BOW "
                                               "§2.4.2)")
                                             .format(target=action.target, distance_studs=sight.distance_studs, penalty=penalty, value=plan['attack'] - penalty, value2=plan['attack']))
    # §2.4.2: a won dispute makes the target visible; with `dispute_covers` (revision 1) it also covers it
    covered = is_covered(sight, g.ctx.cover_threshold, read.glass_hides) or (bool(action.dispute) and
                                                                             read.dispute_covers)
    plan.update(attack=plan["attack"] - penalty, penalty=penalty, covered=covered,
                dodge=plan["dodge"] + (1 if covered else 0), distance=float(sight.distance_studs))
    return plan, None


def check_attack(g: Game, action: Attack) -> Refusal | None:
    return attack_plan(g, action)[1]


def apply_attack(g: Game, action: Attack) -> list[Event]:
    plan, _unused = attack_plan(g, action)
    assert plan is not None  # the attack was checked before it is applied
    events = spend(g, action.unit)
    events.append(g.event("attack", unit=action.unit, target=action.target, weapon=plan["weapon"],
                          attack_bricks=plan["attack"], dodge_bricks=plan["dodge"], range_penalty=plan["penalty"],
                          covered=plan["covered"], distance=plan["distance"], melee=plan["kind"] == "melee"))
    attacker, defender = g.state.units[action.unit].side, body(g, action.target).side
    if plan["dispute"]:
        return events + answers.request(g, "dispute", [
            RollRequest(attacker, DISPUTE_BRICKS, "dispute_sees", g.ctx.p, unit=action.unit, target=action.target),
            RollRequest(defender, DISPUTE_BRICKS, "dispute_hidden", g.ctx.p, target=action.target)], plan=plan)
    return events + _attack_rolls(g, plan)


def _attack_rolls(g: Game, plan: dict[str, Any]) -> list[Event]:
    attacker, defender = g.state.units[plan["unit"]].side, body(g, plan["target"]).side
    return answers.request(g, "attack", [
        RollRequest(attacker, plan["attack"], "attack", g.ctx.p, unit=plan["unit"], target=plan["target"]),
        RollRequest(defender, plan["dodge"], "dodge", g.ctx.p, target=plan["target"])], plan=plan)


@resolves("dispute")
def _resolve_dispute(g: Game, pending: Pending) -> list[Event]:
    plan = pending.data["plan"]
    seen = pending.rolls[0] > pending.rolls[1]
    event = g.event("dispute_result", won=seen, unit=plan["unit"], target=plan["target"],
                    attacker_edges=pending.rolls[0], defender_edges=pending.rolls[1])
    return [event] + (_attack_rolls(g, plan) if seen else [])


@resolves("attack")
def _resolve_attack(g: Game, pending: Pending) -> list[Event]:
    plan = pending.data["plan"]
    a, d = pending.rolls
    damage = a - d if a > d else 0
    effects = inflict(g, plan["target"], damage, plan.get("extra_to", ())) if damage else []
    return [g.event("attack_result", unit=plan["unit"], target=plan["target"], attack=a, dodge=d,
                    damage=damage)] + effects


# -- damage (BOW §2.4.3, §3.5) -------------------------------------------------------------
def inflict(g: Game, target: str, amount: int, extra_to: Sequence[str] = ()) -> list[Event]:
    """Damage points to a unit or a vehicle (the vehicle first, then its occupants, §3.5)."""
    if target in g.state.vehicles:
        return damage_vehicle(g, target, amount, extra_to)
    return damage_unit(g, target, amount)


def damage_unit(g: Game, unit_id: str, amount: int) -> list[Event]:
    """BOW §2.4.3: as much damage as HP -> dead, removed from the battlefield."""
    unit = g.state.units[unit_id]
    if amount <= 0 or not unit.alive:
        return []
    hp = int(sheet_value(g.ctx.sheet(unit.sheet), "hp", 1))
    damage = min(hp, unit.damage + amount)
    events = [g.event("damaged", id=unit_id, amount=amount, damage=damage, hp=hp)]
    if damage < hp:
        g.state.units[unit_id] = replace(unit, damage=damage)
        return events
    if unit.aboard is not None:
        vehicle = g.state.vehicles[unit.aboard]
        seats = tuple(None if s == unit_id else s for s in vehicle.seats)
        g.state.vehicles[vehicle.id] = replace(vehicle, seats=seats)
        if g.ctx.readings.occupant_bodies:
            g.geometry.remove(unit_id)
    elif unit.position is not None:
        g.geometry.remove(unit_id)
    g.state.units[unit_id] = replace(unit, damage=damage, alive=False, aboard=None)
    return events + [g.event("died", unit=unit_id)]


def share_excess(excess: int, occupants: int) -> list[int]:
    """BOW §3.5: excess damage shared fairly; the extra points go to the first seats (pilot first)."""
    if occupants <= 0:
        return []
    base, extra = divmod(max(0, excess), occupants)
    return [base + (1 if i < extra else 0) for i in range(occupants)]


def _spiral(cell: tuple[int, int], n: int) -> Iterator[tuple[int, int]]:
    yield cell
    ring = 1
    while True:
        for di in range(-ring, ring + 1):
            for dj in range(-ring, ring + 1):
                if max(abs(di), abs(dj)) == ring:
                    yield (cell[0] + di, cell[1] + dj)
        ring += 1


def damage_vehicle(g: Game, vehicle_id: str, amount: int, extra_to: Sequence[str] = ()) -> list[Event]:
    """BOW §3.5: damage to the vehicle first; destroyed at its HP, the excess shared by the occupants,
    who are put at its former place. The odd extra points go to `extra_to` first (the attacker's
    choice), then in seat order (pilot first)."""
    vehicle = g.state.vehicles[vehicle_id]
    if amount <= 0 or not vehicle.in_play:
        return []
    hp = int(sheet_value(g.ctx.sheet(vehicle.sheet), "hp", 1))
    left = hp - vehicle.damage
    damage = min(hp, vehicle.damage + amount)
    events = [g.event("damaged", id=vehicle_id, amount=amount, damage=damage, hp=hp)]
    if amount < left:
        g.state.vehicles[vehicle_id] = replace(vehicle, damage=damage)
        return events
    chosen = [u for u in extra_to if u in vehicle.occupants]
    occupants = tuple(chosen) + tuple(u for u in vehicle.occupants if u not in chosen)
    g.state.vehicles[vehicle_id] = replace(vehicle, damage=hp, destroyed=True, speed=0, seats=tuple(
        None for _unused in vehicle.seats))
    g.geometry.remove(vehicle_id)
    events.append(g.event("destroyed", vehicle=vehicle_id))
    taken = {u.cell for u in g.state.units.values() if u.in_play and u.aboard is None and u.position is not None}
    cells = (c for c in _spiral((math.floor(vehicle.position[0]), math.floor(vehicle.position[1])), 0)
             if c not in taken)
    for unit_id, share in zip(occupants, share_excess(amount - left, len(occupants))):
        cell = next(cells)
        position = (cell[0] + 0.5, cell[1] + 0.5)
        unit = g.state.units[unit_id]
        g.state.units[unit_id] = replace(unit, aboard=None, position=position, facing=vehicle.facing)
        g.geometry.place(unit_id, position, vehicle.facing)
        events.append(g.event("placed", unit=unit_id, position=list(position), reason="thrown_out"))
        events += damage_unit(g, unit_id, share)
    return events


def candidates(g: Game) -> Iterator[Action]:
    state = g.state
    for unit_id in actors(g):
        unit = state.units[unit_id]
        weapons = [unit.weapon] if unit.weapon else []
        if unit.aboard is not None:
            weapons += [w.name for w in getattr(g.ctx.sheet(state.vehicles[unit.aboard].sheet), "weapons", None) or []
                        if not g.ctx.readings.weapon_seats or weapon_seat(w) == seat_of(g, unit_id)]
        targets = [u.id for u in state.units.values() if u.side != unit.side and u.in_play]
        targets += [v.id for v in state.vehicles.values() if v.side != unit.side and v.in_play]
        for weapon in weapons:
            for target in targets:
                yield Attack(unit_id, target, weapon)
                if g.ctx.visibility_dispute:
                    yield Attack(unit_id, target, weapon, dispute=True)
