"""Shooting, Multiple Shots & Ammunition, Two Pistols, Scatter Guns and the shooting skills.

Layer: rulesets (Blaze of Glory). To hit, a d6 at most the modified SHOOT value ("1 always
passes, 6 always fails"). Modifiers, all cumulative (Shooting): +1 aiming (did not move, did not
run, did not stand up), +1 point blank (under 3 inches), -1 partial cover, -2 full cover
(bow3d.rulesets.blaze_of_glory.sight), -1 over half range (SHARPSHOOTER who did not move ignores
it), -1 shooter ran, -1 stood up this turn (and no multiple shots), -1 each shot when two are
fired, -2 each when three are. Ranges (Weapon Ranges): pistol 12, rifle 30, bow 24, thrown 6
inches, head to head in 3D; the target must be seen (some of it).

More: docs/modules/rulesets-blaze-of-glory.md#shooting.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from bow3d.i18n import _, decimal
from bow3d.rules.chance import ChanceRequest, Dice
from bow3d.rules.events import Event
from bow3d.rules.pending import DecisionRequest
from bow3d.rules.refusal import Reason, Refusal
from bow3d.rulesets.blaze_of_glory import flow
from bow3d.rulesets.blaze_of_glory.actions import Action, Reload, Shoot
from bow3d.rulesets.blaze_of_glory.book import (
    DEAD_EYE,
    DODGE_AND_WEAVE,
    MULTI_TARGET_IN,
    POINT_BLANK_IN,
    QUICK_DRAW,
    QUICK_DRAW_HIT,
    SEVERITY,
    SHARPSHOOTER,
    SHOTGUN_LENGTH_IN,
    SHOTGUN_WIDTH_IN,
    WEAPONS,
    WeaponKind,
    passes,
)
from bow3d.rulesets.blaze_of_glory.cards import check_active
from bow3d.rulesets.blaze_of_glory.nerve import distance_in
from bow3d.rulesets.blaze_of_glory.rolls import can_use_hero, characteristic, hero_test, test
from bow3d.rulesets.blaze_of_glory.sight import FULL, NONE, PARTIAL, judge_cover
from bow3d.rulesets.blaze_of_glory.state import ACTED, DONE, MOVE, MOVED, RAN, STANDING, BlazeReason, replace
from bow3d.rulesets.blaze_of_glory.terrain import bearing, in_template
from bow3d.rulesets.blaze_of_glory.wounds import wound_roll

if TYPE_CHECKING:
    from bow3d.rules.game import Game

PISTOLS = "pistols"   # both pistols at once (Two Pistols)
MAIN_PHASES = (MOVE, MOVED, RAN)


def kind_of(slot: str) -> WeaponKind:
    """The weapon of a slot ('pistol-2' is a pistol; 'pistols' both)."""
    return WEAPONS["pistol" if slot == PISTOLS else slot.split("-")[0]]


def slots_of(g: Game, unit: str) -> list[str]:
    return g.ctx.sheet(g.state.figures[unit].sheet).weapon_slots


def loaded(g: Game, unit: str, slot: str) -> bool:
    figure = g.state.figures[unit]
    if slot == PISTOLS:
        return "pistol" not in figure.empty and "pistol-2" not in figure.empty
    return slot not in figure.empty


def firearms(g: Game, unit: str) -> list[str]:
    """The slots (and 'pistols') the figure can shoot with, loaded or not."""
    sheet = g.ctx.sheet(g.state.figures[unit].sheet)
    slots = [s for s in sheet.weapon_slots if kind_of(s).ranged]
    return slots + ([PISTOLS] if sheet.two_pistols else [])


def max_shots(g: Game, unit: str, slot: str) -> int:
    if slot == PISTOLS:
        return 2
    return 1 if g.state.turn.stood_up else kind_of(slot).max_shots


def aimed(g: Game) -> bool:
    """Shooting: "+1 aiming. Character did not move" (nor ran, nor stood up)."""
    turn = g.state.turn
    return turn.moved_in <= 1e-9 and not turn.ran and not turn.stood_up


def shot_value(g: Game, unit: str, slot: str, target: str, shots: int, index: int = 0) -> dict[str, Any] | Refusal:
    """The modified S of one shot (Shooting's modifiers) with their words, or why it cannot be fired."""
    kind = kind_of(slot)
    report = g.ask("sight", unit, target)
    if not report.visible:
        return Refusal(Reason.NOT_VISIBLE, _("{unit} cannot see {target}").format(unit=unit, target=target))
    verdict = judge_cover(report, g.ctx.partial_cover, g.ctx.opening_cover, g.ctx.full_cover)
    distance = verdict.distance_in
    if kind.range_in is not None and distance > kind.range_in + 1e-9:
        return Refusal(Reason.TOO_FAR, _("{target} is {distance} inches away; the {weapon} reaches {reach} (Weapon "
                                             "Ranges)").format(target=target, distance=decimal(distance),
                                                               weapon=kind.name, reach=f"{kind.range_in:g}"))
    turn = g.state.turn
    value = characteristic(g, unit, "shoot")
    mods: list[str] = []
    if slot == PISTOLS:
        value = (value + 1) // 2 if index == 0 else value // 2
        mods.append(f"S split between two pistols: {value}")
    total = 0
    sharpshooter = g.ctx.sheet(g.state.figures[unit].sheet).has(SHARPSHOOTER)
    if not kind.template:
        if aimed(g):
            total, mods = total + 1, mods + ["+1 aiming"]
        if distance < POINT_BLANK_IN:
            total, mods = total + 1, mods + ["+1 point blank"]
        if verdict.cover == PARTIAL:
            total, mods = total - 1, mods + ["-1 partial cover"]
        elif verdict.cover == FULL:
            total, mods = total - 2, mods + ["-2 full cover"]
        if kind.range_in is not None and distance > kind.range_in / 2 + 1e-9 and not (sharpshooter and aimed(g)):
            total, mods = total - 1, mods + ["-1 over half range"]
    elif verdict.cover != NONE:
        total, mods = total - 1, mods + ["-1 cover (a scatter gun counts all cover as partial)"]
    if turn.ran:
        total, mods = total - 1, mods + ["-1 ran"]
    if turn.stood_up:
        total, mods = total - 1, mods + ["-1 stood up this turn"]
    if slot != PISTOLS and shots == 2:
        total, mods = total - 1, mods + ["-1 two shots"]
    elif slot != PISTOLS and shots == 3:
        total, mods = total - 2, mods + ["-2 three shots"]
    over_half = kind.range_in is not None and not kind.template and distance > kind.range_in / 2 + 1e-9
    return {"target": target, "value": value + total, "mods": tuple(mods), "distance_in": round(distance, 4),
            "cover": verdict.cover, "over_half": over_half}


def plan_shots(g: Game, action: Shoot) -> tuple[list[dict[str, Any]] | None, Refusal | None]:
    """Check a Shoot action and work out each shot: (shots, None) or (None, refusal)."""
    turn = g.state.turn
    refusal = check_active(g, action.unit, (ACTED,) if action.hero else MAIN_PHASES)
    if refusal is not None:
        return None, refusal
    if action.hero and (turn.extra or not can_use_hero(g, action.unit)):
        return None, Refusal(BlazeReason.NO_HERO, _("{unit} has no Hero Point to use this turn").format(
            unit=action.unit))
    if action.weapon not in firearms(g, action.unit):
        return None, Refusal(Reason.UNKNOWN, _("{unit} has no {weapon} to shoot with").format(unit=action.unit,
                                                                                                 weapon=action.weapon))
    if not loaded(g, action.unit, action.weapon):
        return None, Refusal(BlazeReason.OUT_OF_AMMO, _("{unit}'s {weapon} is out of ammo: reload it").format(
            unit=action.unit, weapon=action.weapon))
    kind, targets = kind_of(action.weapon), action.targets
    most = 1 if kind.template else max_shots(g, action.unit, action.weapon)
    if action.weapon == PISTOLS and g.state.turn.stood_up:
        return None, Refusal(Reason.NOT_ALLOWED, _("stood up this turn: no multiple shots, not with two pistols"))
    if not 1 <= len(targets) <= most or (action.weapon == PISTOLS and len(targets) != 2):
        return None, Refusal(Reason.NOT_ALLOWED, _("the {weapon} fires {shots} shot(s) now, not {n}").format(
            weapon=action.weapon, shots="2" if action.weapon == PISTOLS else _("1 to {most}").format(most=most),
            n=len(targets)))
    if turn.frenzy and len(targets) != most:
        return None, Refusal(Reason.NOT_ALLOWED, _("a Blaze of Glory fires all he can: {most} shot(s)").format(
            most=most))
    figures = g.state.figures
    for target in targets:
        other = figures.get(target)
        if other is None or not other.on_table or target == action.unit:
            return None, Refusal(Reason.BAD_TARGET, _("{target} is not a figure on the table to shoot at").format(
                target=target))
        if other.side == figures[action.unit].side and not kind.template:
            return None, Refusal(Reason.BAD_TARGET, _("{target} is a friend").format(target=target))
    first = figures[targets[0]]
    for target in targets[1:]:
        if distance_in(first, figures[target]) > MULTI_TARGET_IN + 1e-9:
            return None, Refusal(Reason.TOO_FAR, _("{target} is more than {most} inches from {first}, the first target "
                                                       "(Multiple Shots)").format(
                target=target, most=f"{MULTI_TARGET_IN:g}", first=first.id))
    if kind.template:
        return _template_shots(g, action.unit, targets[0])
    shots = []
    for index, target in enumerate(targets):
        shot = shot_value(g, action.unit, action.weapon, target, len(targets), index)
        if isinstance(shot, Refusal):
            return None, shot
        shots.append(shot)
    return shots, None


def _template_shots(g: Game, unit: str, aim: str) -> tuple[list[dict[str, Any]] | None, Refusal | None]:
    """Scatter Guns: everyone under the template whom the shooter sees."""
    me = g.state.figures[unit]
    if distance_in(me, g.state.figures[aim]) > SHOTGUN_LENGTH_IN + 1e-9:
        return None, Refusal(Reason.TOO_FAR, _("{aim} is beyond the 8-inch template").format(aim=aim))
    heading = bearing(me.position, g.state.figures[aim].position)
    under = in_template(g, unit, heading, SHOTGUN_LENGTH_IN, SHOTGUN_WIDTH_IN)
    shots = []
    for target in under:
        if target not in g.state.figures or not g.state.figures[target].on_table:
            continue
        shot = shot_value(g, unit, "shotgun", target, 1)
        if not isinstance(shot, Refusal):
            shots.append({**shot, "along_in": round(float(under[target]), 4)})
    if aim not in {s["target"] for s in shots}:
        return None, Refusal(Reason.NOT_VISIBLE, _("{aim} is not under the template in sight of {unit}").format(
            aim=aim, unit=unit))
    return shots, None


def check_shoot(g: Game, action: Shoot) -> Refusal | None:
    return plan_shots(g, action)[1]


def apply_shoot(g: Game, action: Shoot) -> list[Event]:
    shots, _refusal = plan_shots(g, action)
    assert shots is not None  # the shot was checked before it is applied
    turn = g.state.turn
    if action.hero:
        turn.extra = True
        flow.push(g, hero_test(action.unit, "shoot", "hero_shoot", weapon=action.weapon, shots=tuple(shots)))
    else:
        turn.acted = True
        turn.phase = ACTED
        flow.push(g, {"do": "volley", "unit": action.unit, "weapon": action.weapon, "shots": tuple(shots)})
    return flow.run(g)


@flow.then("hero_shoot")
def _hero_shoot(g: Game, task: dict[str, Any], passed: bool) -> list[Event]:
    events = [g.event("hero_point", unit=task["unit"], use="shoot", passed=passed)]
    if passed:
        flow.push(g, {"do": "volley", "unit": task["unit"], "weapon": task["weapon"], "shots": task["shots"]})
    return events


@flow.step("volley")
def _volley(g: Game, task: dict[str, Any]) -> list[Event]:
    unit, shots = task["unit"], task["shots"]
    g.state.figures[unit] = replace(g.state.figures[unit], facing=round(bearing(
        g.state.figures[unit].position, g.state.figures[shots[0]["target"]].position), 3))
    g.geometry.place(unit, g.state.figures[unit].position, g.state.figures[unit].facing)
    event = g.event("shots", unit=unit, weapon=task["weapon"], targets=[s["target"] for s in shots],
                    values=[s["value"] for s in shots], template=kind_of(task["weapon"]).template)
    request = ChanceRequest(g.state.figures[unit].side, Dice(len(shots), 6), "shoot",
                            {"unit": unit, "weapon": task["weapon"]})
    return [event] + flow.ask(g, task, [request])


@flow.answer("volley")
def _volley_rolled(g: Game, task: dict[str, Any], outcome: tuple[Any, ...]) -> list[Event]:
    faces = tuple(outcome[0])
    unit, weapon = task["unit"], task["weapon"]
    kind = kind_of(weapon)
    steps = [{"do": "shot", "unit": unit, "weapon": weapon, "shot": shot, "die": die, "k": k + 1}
             for k, (shot, die) in enumerate(zip(task["shots"], faces))]
    if weapon != PISTOLS and kind.runs_dry and len(faces) > 1 and len(set(faces)) < len(faces):
        steps.append({"do": "out_of_ammo", "unit": unit, "weapon": weapon})
    targets = []
    for shot in task["shots"]:
        if shot["target"] not in targets:
            targets.append(shot["target"])
    steps += [{"do": "quick_draw", "unit": t, "shooter": unit} for t in targets]
    flow.push(g, *steps)
    return []


@flow.step("shot")
def _shot(g: Game, task: dict[str, Any]) -> list[Event]:
    shot, die, unit = task["shot"], task["die"], task["unit"]
    hit = passes(die, shot["value"])
    event = g.event("attack", unit=unit, target=shot["target"], melee=False, weapon=task["weapon"], shot=task["k"],
                    value=shot["value"], modifiers=list(shot["mods"]), die=die, hit=hit,
                    distance_in=shot["distance_in"], cover=shot["cover"])
    if not g.state.figures[shot["target"]].on_table:
        return [event]
    if not hit:
        return [event, _result(g, unit, shot["target"], "miss", 0)]
    target = g.state.figures[shot["target"]]
    shooter_sheet = g.ctx.sheet(g.state.figures[unit].sheet)
    if shot["over_half"] and g.ctx.sheet(target.sheet).has(DODGE_AND_WEAVE) and target.status == STANDING \
            and not shooter_sheet.has(SHARPSHOOTER):
        flow.push(g, test(target.id, "reflexes", "dodge", "dodged", shot_task=task))
        return [event]
    flow.push(g, _wound(g, task))
    return [event]


def _wound(g: Game, task: dict[str, Any]) -> dict[str, Any]:
    kind = kind_of(task["weapon"])
    dead_eye = g.ctx.sheet(g.state.figures[task["unit"]].sheet).has(DEAD_EYE) and not kind.template
    mods = (f"{kind.wound_modifier} {kind.name}",) if kind.wound_modifier else ()
    return wound_roll(task["shot"]["target"], "shooting", kind.wound_modifier, task["unit"], "shot", mods=mods,
                      dead_eye=dead_eye, then="shot_wounded", shooter=task["unit"])


@flow.then("dodged")
def _dodged(g: Game, task: dict[str, Any], passed: bool) -> list[Event]:
    shot_task = task["shot_task"]
    if passed:
        return [_result(g, shot_task["unit"], shot_task["shot"]["target"], "dodged", 0)]
    flow.push(g, _wound(g, shot_task))
    return []


@flow.then("shot_wounded")
def _shot_wounded(g: Game, task: dict[str, Any], result: str) -> list[Event]:
    return [_result(g, task["shooter"], task["target"], result, SEVERITY.get(result, 0))]


def _result(g: Game, unit: str, target: str, result: str, damage: int) -> Event:
    return g.event("attack_result", unit=unit, target=target, damage=damage, result=result,
                   state=g.state.figures[target].status)


@flow.step("out_of_ammo")
def _out_of_ammo(g: Game, task: dict[str, Any]) -> list[Event]:
    figure = g.state.figures[task["unit"]]
    if task["weapon"] not in figure.empty:
        g.state.figures[figure.id] = replace(figure, empty=figure.empty + (task["weapon"],))
    return [g.event("out_of_ammo", unit=task["unit"], weapon=task["weapon"])]


# -- QUICK DRAW ------------------------------------------------------------------------------------
def countershot_weapon(g: Game, unit: str, shooter: str) -> str | None:
    """The loaded weapon a quick-drawing target fires back with (the first that reaches the shooter)."""
    figure = g.state.figures[unit]
    if figure.status != STANDING or not g.state.figures[shooter].on_table:
        return None
    report = g.ask("sight", unit, shooter)
    if not report.visible:
        return None
    distance = judge_cover(report).distance_in
    for slot in firearms(g, unit):
        kind = kind_of(slot)
        if slot != PISTOLS and loaded(g, unit, slot) and kind.range_in is not None \
                and distance <= kind.range_in + 1e-9:
            return slot
    return None


@flow.step("quick_draw")
def _quick_draw(g: Game, task: dict[str, Any]) -> list[Event]:
    unit = task["unit"]
    figure = g.state.figures[unit]
    if figure.side == g.state.figures[task["shooter"]].side or not g.ctx.sheet(figure.sheet).has(QUICK_DRAW):
        return []
    weapon = countershot_weapon(g, unit, task["shooter"])
    if weapon is None:
        return []
    distance = round(distance_in(figure, g.state.figures[task["shooter"]]), 4)
    return flow.ask(g, {**task, "weapon": weapon, "distance_in": distance}, [DecisionRequest(
        figure.side, "countershot", (True, False), {"unit": unit, "target": task["shooter"], "weapon": weapon})])


@flow.answer("quick_draw")
def _quick_draw_decided(g: Game, task: dict[str, Any], choice: tuple[Any, ...]) -> list[Event]:
    if not choice[0]:
        return []
    side = g.state.figures[task["unit"]].side
    flow.push(g, {"do": "countershot", "unit": task["unit"], "shooter": task["shooter"], "weapon": task["weapon"],
                  "distance_in": task["distance_in"]})
    return [g.event("countershot", unit=task["unit"], target=task["shooter"], weapon=task["weapon"], side=side)]


@flow.step("countershot")
def _countershot(g: Game, task: dict[str, Any]) -> list[Event]:
    side = g.state.figures[task["unit"]].side
    return flow.ask(g, task, [ChanceRequest(side, Dice(1, 6), "countershot",
                                            {"unit": task["unit"], "target": task["shooter"]})])


@flow.answer("countershot")
def _countershot_rolled(g: Game, task: dict[str, Any], outcome: tuple[Any, ...]) -> list[Event]:
    die = outcome[0][0]
    hit = die <= QUICK_DRAW_HIT
    shot = {"target": task["shooter"], "value": QUICK_DRAW_HIT, "mods": ("quick draw: a straight 1 or 2",),
            "distance_in": task["distance_in"], "cover": NONE, "over_half": False}
    event = g.event("attack", unit=task["unit"], target=task["shooter"], melee=False, weapon=task["weapon"], shot=1,
                    value=QUICK_DRAW_HIT, modifiers=list(shot["mods"]), die=die, hit=hit,
                    distance_in=task["distance_in"], cover=NONE)
    if not hit:
        return [event, _result(g, task["unit"], task["shooter"], "miss", 0)]
    flow.push(g, _wound(g, {"unit": task["unit"], "weapon": task["weapon"], "shot": shot}))
    return [event]


# -- reloading ----------------------------------------------------------------------------------------
def check_reload(g: Game, action: Reload) -> Refusal | None:
    turn = g.state.turn
    phases = (MOVE, MOVED, RAN, ACTED) if action.hero else (MOVE,)
    refusal = check_active(g, action.unit, phases)
    if refusal is not None:
        return refusal
    if not action.hero and (turn.moved_in > 0 or turn.stood_up or turn.ran):
        return Refusal(Reason.NOT_ALLOWED, _("reloading is the whole turn, and nothing else (a Hero Point reloads "
                                             "as the extra action)"))
    if action.hero and (turn.extra or not can_use_hero(g, action.unit)):
        return Refusal(BlazeReason.NO_HERO, _("{unit} has no Hero Point to use this turn").format(unit=action.unit))
    figure = g.state.figures[action.unit]
    slots = ("pistol", "pistol-2") if action.weapon == PISTOLS else (action.weapon,)
    if action.weapon not in firearms(g, action.unit) or not any(s in figure.empty for s in slots):
        return Refusal(Reason.NOT_ALLOWED, _("{unit}'s {weapon} does not need reloading").format(
            unit=action.unit, weapon=action.weapon))
    return None


def apply_reload(g: Game, action: Reload) -> list[Event]:
    if action.hero:
        g.state.turn.extra = True
        flow.push(g, hero_test(action.unit, "reload", "hero_reload", weapon=action.weapon))
        return flow.run(g)
    g.state.turn.phase = DONE
    return _reloaded(g, action.unit, action.weapon)


def _reloaded(g: Game, unit: str, weapon: str) -> list[Event]:
    figure = g.state.figures[unit]
    slots = ("pistol", "pistol-2") if weapon == PISTOLS else (weapon,)
    g.state.figures[unit] = replace(figure, empty=tuple(s for s in figure.empty if s not in slots))
    return [g.event("reloaded", unit=unit, weapon=weapon)]


@flow.then("hero_reload")
def _hero_reload(g: Game, task: dict[str, Any], passed: bool) -> list[Event]:
    events = [g.event("hero_point", unit=task["unit"], use="reload", passed=passed)]
    return events + (_reloaded(g, task["unit"], task["weapon"]) if passed else [])


def candidates(g: Game) -> Iterator[Action]:
    """Single shots at every enemy with every loaded weapon, the most shots at each, reloads."""
    turn = g.state.turn
    unit = turn.unit
    if unit is None or turn.phase not in (*MAIN_PHASES, ACTED):
        return
    hero = turn.phase == ACTED
    me = g.state.figures[unit]
    enemies = [f.id for f in g.state.figures.values() if f.side != me.side and f.on_table]
    for slot in firearms(g, unit):
        if not loaded(g, unit, slot):
            yield Reload(unit, slot, hero=hero or turn.phase != MOVE)
            continue
        most = 1 if kind_of(slot).template else max_shots(g, unit, slot)
        for enemy in enemies:
            if slot == PISTOLS:
                yield Shoot(unit, slot, (enemy, enemy), hero)
            else:
                yield Shoot(unit, slot, (enemy,), hero)
                if most > 1:
                    yield Shoot(unit, slot, (enemy,) * most, hero)


__all__ = ["PISTOLS", "aimed", "firearms", "kind_of", "loaded", "max_shots", "plan_shots", "shot_value"]
