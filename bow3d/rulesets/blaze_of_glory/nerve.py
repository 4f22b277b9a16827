"""Nerve tests and the Blood Brother's roll (Nerve, Skills: NERVE SKILLS).

Layer: rulesets (Blaze of Glory). A Nerve test is taken:
- by every friend within 12 inches and in line of sight when a figure goes OUT OF ACTION
  (unconsciousness included);
- by every friend within 6 inches and in line of sight of someone failing such a test (only
  failures of the first kind start this: "for the above reason");
- by a figure when its card is turned, within 6 inches and in line of sight of a WOUNDED friend
  (NERVES OF STEEL ignores these) or 12 inches and in line of sight of a dead one (out of action
  or unconscious).

More: docs/modules/rulesets-blaze-of-glory.md#nerve.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from bow3d.rules.chance import ChanceRequest, Dice
from bow3d.rules.events import Event
from bow3d.rulesets.blaze_of_glory import flow, status
from bow3d.rulesets.blaze_of_glory.book import (
    BLOOD_BROTHER_TABLE,
    LEVELS_HIGHER,
    NERVE_DEAD_IN,
    NERVE_FAILER_IN,
    NERVE_OUT_OF_ACTION_IN,
    NERVE_WOUNDED_IN,
    NERVES_OF_STEEL,
    inches,
)
from bow3d.rulesets.blaze_of_glory.rolls import test
from bow3d.rulesets.blaze_of_glory.sight import NONE, judge_cover
from bow3d.rulesets.blaze_of_glory.state import OUT_OF_ACTION, UNCONSCIOUS, WOUNDED, FigureState, replace
from bow3d.rulesets.blaze_of_glory.terrain import sees_spot
from bow3d.units import LDU_PER_STUD

if TYPE_CHECKING:
    from bow3d.rules.game import Game

COVER_ENEMIES = 2   # the nearest standing enemies asked whether they see the tester in the open


def distance_in(a: FigureState, b: FigureState) -> float:
    """Inches between two figures, 3D, feet to feet."""
    dz = (a.z - b.z) / LDU_PER_STUD
    return inches(math.sqrt((a.position[0] - b.position[0]) ** 2 + (a.position[1] - b.position[1]) ** 2 + dz * dz))


def _subject(figure: FigureState) -> bool:
    """Takes Nerve tests of the casualty kinds: in the fight, not fearless, no vengeance to take."""
    return figure.in_fight and not figure.fearless and figure.vengeance is None


def in_cover(g: Game, unit: str) -> bool:
    """Nerve: "+1 if the character is in cover": the nearest standing enemies see him in cover or not at all."""
    me = g.state.figures[unit]
    enemies = sorted((f for f in g.state.figures.values() if f.side != me.side and f.status == "standing"),
                     key=lambda f: (distance_in(me, f), f.id))[:COVER_ENEMIES]
    for enemy in enemies:
        report = g.ask("sight", enemy.id, unit)
        if report.visible and judge_cover(report, g.ctx.partial_cover, g.ctx.opening_cover,
                                          g.ctx.full_cover).cover == NONE:
            return False
    return True


def _sees_casualty(g: Game, tester: FigureState, casualty: FigureState) -> bool:
    return sees_spot(g, tester.id, casualty.position, casualty.z)


def visible_casualties(g: Game, tester: FigureState, wounded_too: bool = True) -> list[FigureState]:
    """Friends of the tester he sees down: wounded within 6 inches, out of action within 12."""
    seen = []
    for other in g.state.figures.values():
        if other.id == tester.id or other.side != tester.side:
            continue
        if other.status in (OUT_OF_ACTION, UNCONSCIOUS):
            reach = NERVE_DEAD_IN
        elif other.status == WOUNDED and wounded_too:
            reach = NERVE_WOUNDED_IN
        else:
            continue
        if distance_in(tester, other) <= reach + 1e-9 and _sees_casualty(g, tester, other):
            seen.append(other)
    return seen


def modifiers(g: Game, tester: FigureState, casualties: list[FigureState]) -> tuple[int, tuple[str, ...]]:
    """Nerve's modifiers (all cumulative) and their words."""
    total, words = 0, []
    if any(c.level - tester.level >= LEVELS_HIGHER for c in casualties):
        total -= 1
        words.append("-1 casualty 2 or more levels higher")
    extra = max(0, len(casualties) - 1)
    if extra:
        total -= extra
        words.append(f"-{extra} for {extra} more casualt{'y' if extra == 1 else 'ies'}")
    if in_cover(g, tester.id):
        total += 1
        words.append("+1 in cover")
    return total, tuple(words)


@flow.step("nerve_casualty")
def _casualty(g: Game, task: dict[str, Any]) -> list[Event]:
    """A friend went out of action: every friend within 12 inches in line of sight tests."""
    casualty = g.state.figures[task["unit"]]
    testers = sorted((f for f in g.state.figures.values() if f.side == casualty.side and f.id != casualty.id
                      and _subject(f) and distance_in(f, casualty) <= NERVE_OUT_OF_ACTION_IN + 1e-9),
                     key=lambda f: (distance_in(f, casualty), f.id))
    tests = []
    for tester in testers:
        if not _sees_casualty(g, tester, casualty):
            continue
        seen = visible_casualties(g, tester)
        if casualty.id not in {c.id for c in seen}:
            seen.append(casualty)
        modifier, words = modifiers(g, tester, seen)
        tests.append(test(tester.id, "nerve", "nerve_casualty", "nerve_outcome", modifier, words,
                          casualty=casualty.id, chain=True))
    flow.push(g, *tests)
    return []


@flow.then("nerve_outcome")
def _outcome(g: Game, task: dict[str, Any], passed: bool) -> list[Event]:
    unit = task["unit"]
    if passed or not g.state.figures[unit].on_table:
        return []
    if task.get("chain"):  # within 6 inches and in sight of someone failing: they test too (before he goes)
        failer = g.state.figures[unit]
        tests = []
        for friend in sorted(g.state.figures.values(), key=lambda f: (distance_in(f, failer), f.id)):
            if friend.side != failer.side or friend.id == unit or not _subject(friend):
                continue
            if distance_in(friend, failer) > NERVE_FAILER_IN + 1e-9 or not g.ask("sight", friend.id, unit).visible:
                continue
            modifier, words = modifiers(g, friend, visible_casualties(g, friend) or [failer])
            tests.append(test(friend.id, "nerve", "nerve_failer", "nerve_outcome", modifier, words,
                              casualty=unit, chain=False))
        flow.push(g, *tests)
    return status.flee(g, unit, task.get("casualty"))


@flow.step("nerve_activation")
def _activation(g: Game, task: dict[str, Any]) -> list[Event]:
    """When his card is turned: near a wounded friend or in sight of a dead one, he tests."""
    tester = g.state.figures[task["unit"]]
    if not _subject(tester):
        return []
    steel = g.ctx.sheet(tester.sheet).has(NERVES_OF_STEEL)
    seen = visible_casualties(g, tester, wounded_too=not steel)
    if not seen:
        return []
    modifier, words = modifiers(g, tester, seen)
    flow.push(g, test(tester.id, "nerve", "nerve_activation", "nerve_outcome", modifier, words,
                      casualty=min(seen, key=lambda c: (distance_in(tester, c), c.id)).id, chain=False))
    return []


# -- BLOOD BROTHER --------------------------------------------------------------------------------
@flow.step("brother_casualty")
def _brothers(g: Game, task: dict[str, Any]) -> list[Event]:
    rolls = []
    for brother, friend in sorted(g.ctx.brothers.items()):
        figure = g.state.figures.get(brother)
        if friend == task["unit"] and figure is not None and figure.in_fight:
            rolls.append({"do": "brother_roll", "unit": brother, "friend": friend, "by": task["by"]})
    flow.push(g, *rolls)
    return []


@flow.step("brother_roll")
def _ask_brother(g: Game, task: dict[str, Any]) -> list[Event]:
    if not g.state.figures[task["unit"]].in_fight:
        return []
    side = g.state.figures[task["unit"]].side
    return flow.ask(g, task, [ChanceRequest(side, Dice(1, 6), "blood_brother", {"unit": task["unit"]})])


@flow.answer("brother_roll")
def _brother_rolled(g: Game, task: dict[str, Any], outcome: tuple[Any, ...]) -> list[Event]:
    unit, die = task["unit"], outcome[0][0]
    result = BLOOD_BROTHER_TABLE[die]
    killer = task["by"]
    if result == "marked_man" and (killer is None or not g.state.figures[killer].on_table
                                   or g.state.figures[killer].side == g.state.figures[unit].side):
        result = "hold_a_grudge"
    events = [g.event("blood_brother", unit=unit, friend=task["friend"], die=die, result=result,
                      killer=killer if result == "marked_man" else None)]
    figure = g.state.figures[unit]
    if result == "blaze_of_glory":
        g.state.figures[unit] = replace(figure, fearless=True)
        if unit not in g.state.interrupts:
            g.state.interrupts = g.state.interrupts + (unit,)
    elif result == "marked_man":
        g.state.figures[unit] = replace(figure, vengeance=killer)
    elif result == "yellow_dog":
        events += status.flee(g, unit, task["friend"])
    return events
