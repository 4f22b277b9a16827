"""The Attack Step: Check, Impact, Cover, Accuracy, Shield, Armor and Vitality Steps, as one "strike".

Layer: rulesets (War of Bros). A strike is a plain mapping carried from throw to throw in the
pending answer (`Pending.data`): who attacks with what, its targets, the step it is at, the
attacker's result in that step. Every attack goes through it: the unit's own Attack, an Attack Of
Opportunity, Reactive Armor's counter-attack, a trample, a Piercing shot going on, the burning of
an Incendiary munition (bow3d.rulesets.war_of_bros.reactions starts those).

More: docs/modules/rulesets-war-of-bros.md#combat.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from bow3d.i18n import _, decimal
from bow3d.rules import pending as answers
from bow3d.rules.chance import ChanceRequest
from bow3d.rules.events import Event
from bow3d.rules.pending import DecisionRequest, Pending
from bow3d.rules.refusal import Reason, Refusal
from bow3d.rulesets.war_of_bros import cover as covers, measures
from bow3d.rulesets.war_of_bros.actions import Attack
from bow3d.rulesets.war_of_bros.death import perish
from bow3d.rulesets.war_of_bros.dice import DiceRoll, needed_dice
from bow3d.rulesets.war_of_bros.profile import WeaponProfile
from bow3d.rulesets.war_of_bros.saves import (
    FAIL_WORD,
    SAVE_WORD,
    attack_dice,
    fixed_damage,
    next_step,
    reactive_armor_active,
    reactive_shield_active,
    save_of,
)
from bow3d.rulesets.war_of_bros.state import WobReason, replace
from bow3d.rulesets.war_of_bros.tables import (
    GUIDED_SLACK_CM,
    INCENDIARY_DAMAGE,
    INCENDIARY_ROUNDS,
    TRAMPLE_ACCURACY,
    TRAMPLE_DAMAGE,
)
from bow3d.rulesets.war_of_bros.turns import activate, check_actor

if TYPE_CHECKING:
    from bow3d.rules.game import Game

COVER_DIE = DiceRoll(1, 0)             # "roll a d4 to determine if the attacking projectile makes it through cover"
TRAMPLE = WeaponProfile("trample", needed_dice(TRAMPLE_DAMAGE), needed_dice(TRAMPLE_ACCURACY), 0.0, role="melee")
PROJECTILES = ("attack", "opportunity", "pierce")   # strikes that can set off Reactive Armor (not melee)
COUNTER_ATTACKS = ("opportunity", "reactive")       # "a movement penalty this turn as result of a counter-attack"


# -- the Check Step -----------------------------------------------------------------------------------
def attack_plan(g: Game, action: Attack) -> tuple[dict[str, Any] | None, Refusal | None]:
    refusal = check_actor(g, action.unit)
    if refusal is not None:
        return None, refusal
    state = g.state
    if state.first_turn:
        return None, Refusal(WobReason.FIRST_TURN, _("no attacks in the first turn (First Turn)"))
    if state.active == action.unit and state.step != "first":
        return None, Refusal(WobReason.WRONG_STEP, _("{unit} has passed its Attack Step (Order Of Operation)")
                             .format(unit=action.unit))
    target = state.units.get(action.target)
    if target is None:
        return None, Refusal(Reason.UNKNOWN, _("no unit '{unit}'").format(unit=action.target))
    if not target.on_field:
        return None, Refusal(Reason.BAD_TARGET, _("{target} is not on the battlefield").format(target=action.target))
    if target.side == state.units[action.unit].side:
        return None, Refusal(Reason.BAD_TARGET, _("{target} is on {unit}'s own side").format(target=action.target,
                                                                                                   unit=action.unit))
    profile = g.ctx.profile(action.unit)
    weapon = profile.weapon(action.weapon)
    if weapon is None:
        known = ", ".join(w.name for w in profile.weapons) or "none"
        return None, Refusal(Reason.UNKNOWN, _("{unit} has no weapon '{weapon}' (its weapons: {known})").format(
            unit=action.unit, weapon=action.weapon, known=known))
    if profile.airborne and weapon.melee:
        return None, Refusal(Reason.NOT_ALLOWED, _("airborne units cannot make melee attacks (Light Airborne)"))
    slack = GUIDED_SLACK_CM if weapon.guided else 0.0
    distance = measures.arc_distance_cm(g, action.unit, measures.corners(g, action.target), slack)
    if distance is None:
        return None, Refusal(Reason.NOT_VISIBLE, _("{target} is not within {unit}'s Line of Sight (the arc of its "
                                                         "indicator) (Check Step)").format(target=action.target,
                                                                                           unit=action.unit))
    reach = measures.weapon_reach_cm(g, action.unit, action.target, weapon.range_cm)
    if not weapon.rail_driven and distance > reach + 1e-9:
        return None, Refusal(Reason.TOO_FAR, _("{target} is {distance} cm away; the {weapon} reaches {reach} cm (Check "
                                                     "Step)").format(target=action.target, distance=decimal(distance),
                                                                     weapon=weapon.name, reach=f"{max(reach, 0):g}"))
    return {"distance": distance, "reach": reach, "weapon": weapon}, None


def check_attack(g: Game, action: Attack) -> Refusal | None:
    return attack_plan(g, action)[1]


def apply_attack(g: Game, action: Attack) -> list[Event]:
    plan, _refusal = attack_plan(g, action)
    assert plan is not None  # the attack was checked before it is applied
    events = activate(g, action.unit)
    g.state.step = "final"   # the attack closes the First Movement Step; the Final Movement Step follows
    weapon = plan["weapon"]
    events.append(g.event("attack", unit=action.unit, target=action.target, weapon=weapon.name, melee=weapon.melee,
                          kind="attack", distance_cm=round(plan["distance"], 3), range_cm=round(plan["reach"], 3)))
    strike = new_strike(g, "attack", action.unit, weapon.name, action.target, "impact")
    g.state.tasks = (("strike", strike),) + g.state.tasks
    return events


# -- strikes ------------------------------------------------------------------------------------------
def new_strike(g: Game, kind: str, by: str | None, weapon: str, target: str, step: str, **extra: Any) -> dict:
    strike = {"kind": kind, "by": by, "weapon": weapon, "primary": target, "targets": [target], "step": step,
              "cover": "none", "vital": False, "value": None, "queue": [], "passed": [], "results": {},
              "intercepted": False, **extra}
    if by is not None and kind in ("attack", "opportunity", "pierce"):
        part = measures.part_hit(g, target, by)
        profile = g.ctx.profile(target)
        strike["vital"] = part == "back" and not reactive_shield_active(profile, weapon_of(g, strike), part)
    return strike


def weapon_of(g: Game, strike: dict) -> WeaponProfile | None:
    kind = strike["kind"]
    if kind == "burn":
        return None
    if kind == "trample":
        return TRAMPLE
    profile = g.ctx.profile(strike["by"])
    if kind == "reactive":
        return profile.reactive_weapon
    return profile.weapon(strike["weapon"])


def _dice_of(g: Game, strike: dict):
    if strike["kind"] == "burn":
        return fixed_damage(INCENDIARY_DAMAGE)
    by = g.ctx.profile(strike["by"]) if strike["kind"] == "opportunity" else None
    weapon = weapon_of(g, strike)
    assert weapon is not None  # a strike other than a burn has its weapon
    return attack_dice(weapon, vital=strike["vital"], opportunity_by=by)


def _side(g: Game, unit_id: str) -> str:
    return g.state.units[unit_id].side


def _alive(g: Game, ids) -> list[str]:
    return [t for t in ids if g.state.units[t].on_field]


def run_strike(g: Game, strike: dict) -> list[Event]:
    """Go on with a strike from its step until it needs a throw or a decision, or ends."""
    events: list[Event] = []
    if strike["step"] == "start":
        strike = {**strike, "step": "impact" if strike["kind"] in ("attack", "opportunity", "pierce") else
                  ("shield" if strike["kind"] == "burn" else "accuracy")}
        events.append(_attack_event(g, strike))
    step = strike["step"]
    if step == "impact":
        return events + _impact(g, strike)
    if step == "cover":
        return events + _cover(g, strike)
    return events + _attack_roll(g, strike)


def _attack_event(g: Game, strike: dict) -> Event:
    if strike["kind"] == "burn":
        unit = g.state.units[strike["primary"]]
        return g.event("burn", unit=strike["primary"], damage=INCENDIARY_DAMAGE, rounds_left=unit.burning)
    weapon = weapon_of(g, strike)
    assert weapon is not None  # a strike other than a burn has its weapon
    return g.event("attack", unit=strike["by"], target=strike["primary"], weapon=weapon.name, melee=weapon.melee,
                   kind=strike["kind"], distance_cm=None, range_cm=None)


def _impact(g: Game, strike: dict) -> list[Event]:
    by, target = strike["by"], strike["primary"]
    if not g.state.units[by].on_field or not g.state.units[target].on_field:
        return finish_strike(g, {**strike, "targets": []})
    if g.ctx.profile(by).airborne or g.ctx.profile(target).airborne:
        event = g.event("impact", unit=by, target=target, visible=True, hidden=0.0, cover="none", given_by=None,
                        material=None, airborne=True)
        return [event] + run_strike(g, {**strike, "step": "accuracy"})
    if strike["kind"] == "attack" and not strike["intercepted"]:
        other = first_unit_on_line(g, by, target)
        if other is not None:
            request = DecisionRequest(_side(g, by), "intercepted", ("attack", "cancel"),
                                      {"unit": by, "target": target, "other": other})
            return answers.request(g, "intercept", [request], strike=strike, other=other)
    report = g.ask("sight", by, target)
    verdict = covers.judge(report, g.ctx.params)
    weapon = weapon_of(g, strike)
    cover = verdict.cover
    if weapon is not None and (weapon.rail_driven or weapon.guided and cover == "light"):
        cover = "none"
    given = verdict.given_by
    event = g.event("impact", unit=by, target=target, visible=verdict.visible, hidden=round(verdict.hidden_fraction, 4),
                    cover=cover, given_by=given.what if given and cover != "none" else None,
                    material=given.material if given and cover != "none" else None, airborne=False)
    if not verdict.visible:
        return [event] + finish_strike(g, {**strike, "results": {target: "terrain"}, "targets": []})
    return [event] + run_strike(g, {**strike, "step": "cover", "cover": cover})


def first_unit_on_line(g: Game, by: str, target: str) -> str | None:
    """The first living unit the line of fire (eye to eye, through the models) meets, not the two ends."""
    for crossing in g.ask("bodies_along", by, target, ("unit", "vehicle")):
        other = g.state.units.get(getattr(crossing, "id", None))
        if other is not None and other.on_field and other.id not in (by, target):
            return other.id
    return None


def resolve_intercept(g: Game, pending: Pending) -> list[Event]:
    strike, other = pending.data["strike"], pending.data["other"]
    by, target = strike["by"], strike["primary"]
    if pending.answers[0] == "cancel":
        event = g.event("attack_cancelled", unit=by, target=target, other=other)
        return [event] + finish_strike(g, {**strike, "results": {target: "cancelled"}, "targets": []}, quiet=True)
    event = g.event("intercepted", unit=by, target=target, other=other)
    new = new_strike(g, strike["kind"], by, strike["weapon"], other, "impact", intercepted=True)
    return [event] + run_strike(g, new)


def _cover(g: Game, strike: dict) -> list[Event]:
    cover = strike["cover"]
    if cover == "none":
        return run_strike(g, {**strike, "step": "accuracy"})
    if cover == "total":
        event = g.event("cover_roll", unit=strike["by"], target=strike["primary"], cover=cover, roll=None, missed=True)
        return [event] + finish_strike(g, {**strike, "results": {strike["primary"]: "cover"}, "targets": []})
    request = ChanceRequest(_side(g, strike["by"]), COVER_DIE.spec(), "cover",
                            {"unit": strike["by"], "target": strike["primary"], "cover": cover})
    return answers.request(g, "strike_cover", [request], strike=strike)


def resolve_cover(g: Game, pending: Pending) -> list[Event]:
    strike = pending.data["strike"]
    roll = COVER_DIE.value(pending.answers[0])
    missed = roll <= covers.MISS_ON[strike["cover"]]
    event = g.event("cover_roll", unit=strike["by"], target=strike["primary"], cover=strike["cover"], roll=roll,
                    missed=missed)
    if missed:
        return [event] + finish_strike(g, {**strike, "results": {strike["primary"]: "cover"}, "targets": []})
    return [event] + run_strike(g, {**strike, "step": "accuracy"})


def _save(g: Game, strike: dict, target: str):
    part = measures.part_hit(g, target, strike["by"]) if strike["by"] else "front"
    return save_of(g.ctx.profile(target), strike["step"], part, weapon_of(g, strike)), part


def _attack_roll(g: Game, strike: dict) -> list[Event]:
    """The attacker's roll for this step (one for all targets), unless no target saves in it."""
    step = strike["step"]
    targets = _alive(g, strike["targets"])
    if step == "accuracy" and strike["kind"] not in ("burn",) and strike["primary"] in targets:
        weapon = weapon_of(g, strike)
        if weapon is not None and weapon.splash_cm > 0 and not strike.get("splashed"):
            extra = measures.splashed(g, strike["by"], strike["primary"], weapon.splash_cm)
            targets = targets + [t for t in extra if t not in targets]
            strike = {**strike, "splashed": True}
    strike = {**strike, "targets": targets}
    if not targets:
        return finish_strike(g, strike)
    saving = [t for t in targets if _save(g, strike, t)[0] is not None]
    dice = _dice_of(g, strike)
    if not saving:
        return _after_step(g, {**strike, "passed": targets, "queue": []})
    roll = dice.roll(step)
    if roll is None:   # a fixed damage (Incendiary)
        return _saves(g, {**strike, "value": dice.value(step, None), "queue": saving,
                          "passed": [t for t in targets if t not in saving]})
    request = ChanceRequest(_side(g, strike["by"]), roll.spec(), "accuracy" if step == "accuracy" else "damage",
                            {"unit": strike["by"], "target": strike["primary"], "step": step})
    return answers.request(g, "strike_roll", [request], strike={**strike, "queue": saving,
                                                                "passed": [t for t in targets if t not in saving]})


def resolve_attack_roll(g: Game, pending: Pending) -> list[Event]:
    strike = pending.data["strike"]
    value = _dice_of(g, strike).value(strike["step"], pending.answers[0])
    event = g.event("attack_roll", unit=strike["by"], target=strike["primary"], step=strike["step"],
                    value=float(value))
    return [event] + _saves(g, {**strike, "value": value})


def _saves(g: Game, strike: dict) -> list[Event]:
    """Each target's save in turn; a save that cannot win is not rolled ("Multiple Die Saves")."""
    events: list[Event] = []
    queue, passed = list(strike["queue"]), list(strike["passed"])
    while queue:
        target = queue[0]
        save, _part = _save(g, strike, target)
        if save is not None and save.can_win(strike["value"]):
            request = ChanceRequest(_side(g, target), save.dice.spec(), f"{SAVE_WORD[strike['step']]}_save",
                                    {"unit": strike["by"], "target": target, "step": strike["step"]})
            return events + answers.request(g, "strike_save", [request],
                                            strike={**strike, "queue": queue, "passed": passed})
        events.append(g.event("save_skipped", target=target, step=strike["step"], value=float(strike["value"]),
                              highest=save.highest if save is not None else None))
        passed.append(queue.pop(0))
    return events + _after_step(g, {**strike, "queue": [], "passed": passed})


def resolve_save(g: Game, pending: Pending) -> list[Event]:
    strike = pending.data["strike"]
    target = strike["queue"][0]
    save, part = _save(g, strike, target)
    value = save.value(pending.answers[0])
    held = Fraction(value) > strike["value"]
    event = g.event("save", target=target, step=strike["step"], value=value, against=float(strike["value"]),
                    held=held)
    rest = {**strike, "queue": strike["queue"][1:]}
    if not held:
        return [event] + _saves(g, {**rest, "passed": strike["passed"] + [target]})
    results = {**strike["results"], target: FAIL_WORD[strike["step"]]}
    if strike["step"] == "armor" and strike["kind"] in PROJECTILES and \
            reactive_armor_active(g.ctx.profile(target), weapon_of(g, strike), part):
        counter = new_strike(g, "reactive", target, "reactive armor", strike["by"], "start")
        g.state.tasks = g.state.tasks + (("strike", counter),)
    return [event] + _saves(g, {**rest, "results": results})


def _after_step(g: Game, strike: dict) -> list[Event]:
    """The targets beaten in this step go on to the next one; those beaten in their last one perish."""
    step, events = strike["step"], []
    passed = _alive(g, strike["passed"])
    if step == "accuracy":
        events += _hit(g, strike, passed)
    going, results = [], dict(strike["results"])
    for target in passed:
        if next_step(step, g.ctx.profile(target)) is None:
            results[target] = "perished"
            events += perish(g, target, strike["by"], trampled=strike["kind"] == "trample")
        else:
            going.append(target)
    follow = next_step(step, g.ctx.profile(going[0])) if going else None
    strike = {**strike, "results": results, "targets": going, "passed": [], "queue": [], "value": None}
    if not going:
        return events + finish_strike(g, strike)
    return events + run_strike(g, {**strike, "step": follow})


def _hit(g: Game, strike: dict, hit: list[str]) -> list[Event]:
    """What a hit does beyond the steps: a counter-attack costs the unit its Final Movement Step; an
    Incendiary munition sets it burning."""
    weapon = weapon_of(g, strike)
    events = []
    for target in hit:
        unit = g.state.units[target]
        if strike["kind"] in COUNTER_ATTACKS and not unit.penalised:
            g.state.units[target] = unit = replace(unit, penalised=True)
        if weapon is not None and weapon.incendiary:
            g.state.units[target] = replace(unit, burning=INCENDIARY_ROUNDS)
            events.append(g.event("burning", unit=target, rounds=INCENDIARY_ROUNDS))
    return events


def finish_strike(g: Game, strike: dict, quiet: bool = False) -> list[Event]:
    """The results, and what follows: a Piercing shot goes on; a trampled unit that evaded escapes."""
    events = []
    results = strike["results"]
    if strike["kind"] == "burn":
        outcome = results.get(strike["primary"], "gone")
        return [g.event("burn_result", unit=strike["primary"], outcome=outcome)]
    for target, outcome in sorted(results.items(), key=lambda kv: kv[0] != strike["primary"]):
        events.append(g.event("attack_result", unit=strike["by"], target=target, damage=int(outcome == "perished"),
                              outcome=outcome, cover=strike["cover"] if target == strike["primary"] else "none",
                              kind=strike["kind"]))
    if not results and not quiet:
        events.append(g.event("attack_result", unit=strike["by"], target=strike["primary"], damage=0,
                              outcome="gone", cover=strike["cover"], kind=strike["kind"]))
    weapon = weapon_of(g, strike)
    if weapon is not None and weapon.piercing and results.get(strike["primary"]) == "perished" and strike["by"] \
            and g.state.units[strike["by"]].on_field:
        further = measures.beyond(g, strike["by"], strike["primary"])
        if further:
            g.state.tasks = (("strike", new_strike(g, "pierce", strike["by"], strike["weapon"], further[0], "start")),
                             ) + g.state.tasks
    if strike["kind"] == "trample" and results.get(strike["primary"]) == "evaded":
        g.state.tasks = (("escape", strike["primary"], strike["by"], strike.get("repeat", 0)),) + g.state.tasks
    return events


RESOLVERS = {"intercept": resolve_intercept, "strike_cover": resolve_cover, "strike_roll": resolve_attack_roll,
             "strike_save": resolve_save}
