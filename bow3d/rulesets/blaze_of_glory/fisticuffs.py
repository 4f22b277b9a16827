"""Fisticuffs: strike order, the fisticuffs table, persistence, pulling out, finishing off, and the
fisticuffs skills.

Layer: rulesets (Blaze of Glory). A figure in contact with an enemy may fight him as its action.
All the figures of a fistfight (everyone engaged with everyone, through each other) fight each time
any of them is active, in R order (the highest first; equal R: the active figure first); a
knocked-down figure goes last unless he has LOWBLOW. Each striker makes a FISTICUFFS test (+1
when his opponent is on the floor, -1 when he stood up this turn) and on a pass rolls on the
fisticuffs table: +1 with no close combat weapon (a knife, a club), -1 on a knocked-down opponent,
"a 6 is always a 6". A figure knocked off his feet (knocked down, wounded, out of action) cannot
fight back that turn, COUNTER PUNCH excepted; a HEADLOCK (5) asks the victim for an R test or no
fight back.

More: docs/modules/rulesets-blaze-of-glory.md#fisticuffs.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from bow3d.i18n import _
from bow3d.rules.events import Event
from bow3d.rules.pending import DecisionRequest
from bow3d.rules.refusal import Reason, Refusal
from bow3d.rulesets.blaze_of_glory import flow, status
from bow3d.rulesets.blaze_of_glory.actions import Action, Disengage, Fight, FightOn, Finish
from bow3d.rulesets.blaze_of_glory.book import (
    COUNTER_PUNCH,
    HEADLOCK,
    KNOCKED_DOWN as KNOCK_DOWN_RESULT,
    KNOCKED_DOWN_NERVE,
    LOWBLOW,
    NO_WEAPON_BONUS,
    OUT_OF_ACTION,
    PUGILIST,
    SEVERITY,
    WEAPONS,
    WOUNDED,
)
from bow3d.rulesets.blaze_of_glory.cards import check_active
from bow3d.rulesets.blaze_of_glory.rolls import characteristic, test
from bow3d.rulesets.blaze_of_glory.state import (
    BREAKING,
    DONE,
    ENGAGED,
    KNOCKED_DOWN,
    MOVE,
    MOVED,
    RAN,
    STANDING,
    UNCONSCIOUS,
    WOUNDED as LYING_WOUNDED,
    replace,
)
from bow3d.rulesets.blaze_of_glory.terrain import in_contact
from bow3d.rulesets.blaze_of_glory.wounds import wound_roll

if TYPE_CHECKING:
    from bow3d.rules.game import Game

OFF_FEET = (KNOCK_DOWN_RESULT, KNOCKED_DOWN_NERVE, WOUNDED, OUT_OF_ACTION)


def close_weapon(g: Game, unit: str) -> str | None:
    """His close combat weapon (a knife, a club), None for fists."""
    sheet = g.ctx.sheet(g.state.figures[unit].sheet)
    return next((w for w in sheet.weapons if WEAPONS[w].close_combat), None)


def melee_group(g: Game, unit: str) -> list[str]:
    """Everyone in the fistfight `unit` is in (engaged, directly or through others)."""
    seen, todo = [unit], [unit]
    while todo:
        for other in g.state.figures[todo.pop()].engaged:
            if other not in seen:
                seen.append(other)
                todo.append(other)
    return seen


def strike_order(g: Game, group: list[str], active: str) -> tuple[str, ...]:
    """R order (the active figure first on equal R); knocked-down figures last, unless LOWBLOW."""
    order = g.ctx.order

    def key(unit: str) -> tuple:
        figure = g.state.figures[unit]
        last = figure.status == KNOCKED_DOWN and not g.ctx.sheet(figure.sheet).has(LOWBLOW)
        return (last, -characteristic(g, unit, "reflexes"), unit != active, order.index(unit))
    return tuple(sorted(group, key=key))


# -- Fight, FightOn -----------------------------------------------------------------------------------
def check_fight(g: Game, action: Fight) -> Refusal | None:
    refusal = check_active(g, action.unit, (MOVE, MOVED, RAN))
    if refusal is not None:
        return refusal
    me, other = g.state.figures[action.unit], g.state.figures.get(action.target)
    if other is None or not other.on_table or other.side == me.side:
        return Refusal(Reason.BAD_TARGET, _("{target} is not an enemy on the table").format(target=action.target))
    if other.status in (LYING_WOUNDED, UNCONSCIOUS):
        return Refusal(Reason.NOT_ALLOWED, (_("{target} is lying wounded: a Baddy may finish him off with his "
                                              "whole turn, a Goody would not assault him (Fisticuffs)")
                                            if other.status == LYING_WOUNDED else
                                            _("{target} is unconscious: a Baddy may finish him off with his whole "
                                              "turn, a Goody would not assault him (Fisticuffs)")).format(
            target=action.target))
    if not in_contact(g, action.unit, action.target):
        return Refusal(Reason.OUT_OF_REACH, _("{target} is not in contact with {id}").format(target=action.target,
                                                                                             id=action.unit))
    return None


def _engage(g: Game, a: str, b: str) -> None:
    fa, fb = g.state.figures[a], g.state.figures[b]
    if b not in fa.engaged:
        g.state.figures[a] = replace(fa, engaged=fa.engaged + (b,))
    if a not in fb.engaged:
        g.state.figures[b] = replace(fb, engaged=fb.engaged + (a,))


def apply_fight(g: Game, action: Fight) -> list[Event]:
    _engage(g, action.unit, action.target)
    g.state.turn.acted, g.state.turn.phase = True, DONE
    events = [g.event("engaged", unit=action.unit, target=action.target)]
    flow.push(g, _round(g, action.unit))
    return events + flow.run(g)


def check_fight_on(g: Game, action: FightOn) -> Refusal | None:
    return check_active(g, action.unit, (ENGAGED,))


def apply_fight_on(g: Game, action: FightOn) -> list[Event]:
    g.state.turn.acted, g.state.turn.phase = True, DONE
    flow.push(g, _round(g, action.unit))
    return flow.run(g)


def _round(g: Game, active: str) -> dict[str, Any]:
    return {"do": "melee", "order": strike_order(g, melee_group(g, active), active), "i": 0, "off_feet": (),
            "active": active, "struck": ()}


@flow.step("melee")
def _melee(g: Game, task: dict[str, Any]) -> list[Event]:
    """The next striker of the round, or the end of the round."""
    order, i = task["order"], task["i"]
    if i >= len(order):
        return [g.event("fight_round", units=list(order))]
    unit = order[i]
    figure = g.state.figures[unit]
    opponents = [o for o in figure.engaged if g.state.figures[o].in_fight and o not in task["struck"]]
    nxt = {**task, "i": i + 1, "struck": ()}
    if not figure.in_fight or not [o for o in figure.engaged if g.state.figures[o].in_fight]:
        flow.push(g, nxt)
        return []
    counter = g.ctx.sheet(figure.sheet).has(COUNTER_PUNCH)
    risen = task.get("risen") == unit   # he stood up to strike (on the floor, or COUNTER PUNCH)
    if unit in task["off_feet"] and not risen and not (counter and figure.status == KNOCKED_DOWN):
        flow.push(g, nxt)
        return [g.event("no_fight_back", unit=unit)]
    if figure.status == KNOCKED_DOWN:   # on the floor, survived so far: stands up and fights at -1
        if figure.needs_nerve:
            flow.push(g, test(unit, "nerve", "get_up", "melee_got_up", melee=task))
            return []
        flow.push(g, {**task, "risen": unit})
        return status.stand_up(g, unit)
    if not opponents:
        flow.push(g, nxt)
        return []
    pugilist = g.ctx.sheet(figure.sheet).has(PUGILIST)
    if len(opponents) == 1 or pugilist:
        flow.push(g, _strike(g, task, unit, opponents[0]))
        return []
    return flow.ask(g, task, [DecisionRequest(figure.side, "fist_target", tuple(sorted(opponents)), {"unit": unit})])


@flow.answer("melee")
def _target_chosen(g: Game, task: dict[str, Any], choice: tuple[Any, ...]) -> list[Event]:
    flow.push(g, _strike(g, task, task["order"][task["i"]], str(choice[0])))
    return []


@flow.then("melee_got_up")
def _melee_got_up(g: Game, task: dict[str, Any], passed: bool) -> list[Event]:
    melee = task["melee"]
    unit = task["unit"]
    if not passed:
        flow.push(g, {**melee, "i": melee["i"] + 1, "struck": ()})
        return [g.event("stayed_down", unit=unit)]
    flow.push(g, {**melee, "risen": unit})
    return status.stand_up(g, unit)


def _strike(g: Game, task: dict[str, Any], unit: str, opponent: str) -> dict[str, Any]:
    other = g.state.figures[opponent]
    modifier = 0
    mods: list[str] = []
    if other.status == KNOCKED_DOWN:
        modifier, mods = modifier + 1, mods + ["+1 opponent on the floor"]
    stood = task.get("risen") == unit or (unit == g.state.turn.unit and g.state.turn.stood_up)
    if stood:
        modifier, mods = modifier - 1, mods + ["-1 stood up this turn"]
    return test(unit, "fisticuffs", "strike", "struck", modifier, tuple(mods), melee=task, opponent=opponent)


@flow.then("struck")
def _struck(g: Game, task: dict[str, Any], passed: bool) -> list[Event]:
    unit, opponent, melee = task["unit"], task["opponent"], task["melee"]
    weapon = close_weapon(g, unit)
    event = g.event("attack", unit=unit, target=opponent, melee=True, weapon=weapon or "fists", shot=1,
                    value=task["value"], modifiers=list(task["mods"]), die=task.get("die", 0), hit=passed, distance_in=0.0,
                    cover="none")
    if not passed:
        flow.push(g, _after_strike(g, melee, unit, opponent))
        return [event, g.event("attack_result", unit=unit, target=opponent, damage=0, result="miss",
                               state=g.state.figures[opponent].status)]
    modifier = 0
    mods: list[str] = []
    if weapon is None:
        modifier, mods = modifier + NO_WEAPON_BONUS, mods + ["+1 no close combat weapon"]
    if g.state.figures[opponent].status == KNOCKED_DOWN:
        modifier, mods = modifier - 1, mods + ["-1 opponent on the floor"]
    flow.push(g, wound_roll(opponent, "fisticuffs", modifier, unit, "fight", mods=tuple(mods), then="fist_wounded",
                            melee=melee, striker=unit))
    return [event]


@flow.then("fist_wounded")
def _fist_wounded(g: Game, task: dict[str, Any], result: str) -> list[Event]:
    unit, opponent, melee = task["striker"], task["target"], task["melee"]
    events = [g.event("attack_result", unit=unit, target=opponent, damage=SEVERITY.get(result, 0), result=result,
                      state=g.state.figures[opponent].status)]
    if result in OFF_FEET:
        melee = {**melee, "off_feet": melee["off_feet"] + (opponent,)}
    if result == HEADLOCK and g.state.figures[opponent].in_fight:
        events.append(g.event("headlock", unit=unit, target=opponent))
        flow.push(g, test(opponent, "reflexes", "headlock", "headlock_tested", melee=melee, striker=unit))
        return events
    flow.push(g, _after_strike(g, melee, unit, opponent))
    return events


@flow.then("headlock_tested")
def _headlock_tested(g: Game, task: dict[str, Any], passed: bool) -> list[Event]:
    melee = task["melee"]
    if not passed:
        melee = {**melee, "off_feet": melee["off_feet"] + (task["unit"],)}
    flow.push(g, _after_strike(g, melee, task["striker"], task["unit"]))
    return []


def _after_strike(g: Game, melee: dict[str, Any], unit: str, opponent: str) -> dict[str, Any]:
    """A PUGILIST strikes his next opponent; everyone else hands on to the next striker."""
    if melee.get("free"):   # a free attack on a figure failing to pull out: nothing follows
        return {"do": "noop"}
    figure = g.state.figures[unit]
    if g.ctx.sheet(figure.sheet).has(PUGILIST) and figure.in_fight:
        struck = melee["struck"] + (opponent,)
        left = [o for o in figure.engaged if g.state.figures[o].in_fight and o not in struck]
        if left:
            return {**melee, "struck": struck}
    return {**melee, "i": melee["i"] + 1, "struck": (), "risen": melee.get("risen")}


@flow.step("noop")
def _noop(g: Game, task: dict[str, Any]) -> list[Event]:
    return []


# -- pulling out -------------------------------------------------------------------------------
def check_disengage(g: Game, action: Disengage) -> Refusal | None:
    return check_active(g, action.unit, (ENGAGED,))


def apply_disengage(g: Game, action: Disengage) -> list[Event]:
    g.state.turn.acted = True
    flow.push(g, test(action.unit, "reflexes", "disengage", "disengage_tested"))
    return flow.run(g)


@flow.then("disengage_tested")
def _disengage_tested(g: Game, task: dict[str, Any], passed: bool) -> list[Event]:
    unit = task["unit"]
    opponents = tuple(o for o in g.state.figures[unit].engaged if g.state.figures[o].in_fight)
    if passed:
        for other in g.state.figures[unit].engaged:
            o = g.state.figures[other]
            g.state.figures[other] = replace(o, engaged=tuple(e for e in o.engaged if e != unit))
        g.state.figures[unit] = replace(g.state.figures[unit], engaged=())
        g.state.turn.away_from, g.state.turn.phase = opponents, BREAKING
        return [g.event("disengaged", unit=unit, pulled_out=True)]
    g.state.turn.phase = DONE
    steps = []
    for other in opponents:   # "a free unmodified roll on the Wound table, and then ... his own Fisticuffs attack"
        free = {"do": "noop", "i": 0, "struck": (), "off_feet": (), "order": (), "free": True}
        steps.append(wound_roll(unit, "fisticuffs", 0, other, "free", then="free_wounded", striker=other,
                                melee=free))
        steps.append({"do": "free_attack", "unit": other, "target": unit})
    flow.push(g, *steps)
    return [g.event("disengaged", unit=unit, pulled_out=False)]


@flow.then("free_wounded")
def _free_wounded(g: Game, task: dict[str, Any], result: str) -> list[Event]:
    return [g.event("attack_result", unit=task["striker"], target=task["target"], damage=SEVERITY.get(result, 0),
                    result=result, state=g.state.figures[task["target"]].status)]


@flow.step("free_attack")
def _free_attack(g: Game, task: dict[str, Any]) -> list[Event]:
    striker, target = g.state.figures[task["unit"]], g.state.figures[task["target"]]
    if not striker.in_fight or striker.status != STANDING or not target.in_fight:
        return []
    free = {"do": "noop", "i": 0, "struck": (), "off_feet": (), "order": (), "free": True}
    flow.push(g, _strike(g, free, striker.id, target.id))
    return []


# -- finishing off a wounded figure -----------------------------------------------------------------
def check_finish(g: Game, action: Finish) -> Refusal | None:
    refusal = check_active(g, action.unit, (MOVE,))
    if refusal is not None:
        return refusal
    me, other = g.state.figures[action.unit], g.state.figures.get(action.target)
    if other is None or other.side == me.side or other.status not in (LYING_WOUNDED, UNCONSCIOUS):
        return Refusal(Reason.BAD_TARGET, _("{target} is not a wounded enemy").format(target=action.target))
    if not in_contact(g, action.unit, action.target):
        return Refusal(Reason.OUT_OF_REACH, _("{target} is not in contact with {id}").format(target=action.target,
                                                                                             id=action.unit))
    if g.ctx.is_goody(me.side) and me.hero < 1:
        return Refusal(Reason.NOT_ALLOWED, _("a Goody must give up a Hero Point to assault a wounded figure, "
                                             "and {unit} has none").format(unit=action.unit))
    return None


def apply_finish(g: Game, action: Finish) -> list[Event]:
    me = g.state.figures[action.unit]
    goody = g.ctx.is_goody(me.side)
    if goody:
        g.state.figures[action.unit] = replace(me, hero=me.hero - 1)
    g.state.turn.acted, g.state.turn.phase = True, DONE
    events = [g.event("finished_off", unit=action.unit, target=action.target, hero_given=goody)]
    events += status.out_of_action(g, action.target, action.unit)
    return events + flow.run(g)


def candidates(g: Game) -> Iterator[Action]:
    turn = g.state.turn
    unit = turn.unit
    if unit is None:
        return
    if turn.phase == ENGAGED:
        yield FightOn(unit)
        yield Disengage(unit)
        return
    if turn.phase in (MOVE, MOVED, RAN):
        me = g.state.figures[unit]
        for other in g.state.figures.values():
            if other.side != me.side and other.on_table:
                yield Fight(unit, other.id)
                if turn.phase == MOVE:
                    yield Finish(unit, other.id)


__all__ = ["check_fight", "close_weapon", "melee_group", "strike_order"]
