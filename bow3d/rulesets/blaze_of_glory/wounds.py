"""Wounding: rolls on the two wound tables, the lucky shot, unconsciousness (Wounding, Fisticuffs,
Hero Points, Skills).

Layer: rulesets (Blaze of Glory). A wound roll is a d6 (two dice keeping the lowest for DEAD EYE,
"roll two dice to wound and choose best result", never with a shotgun) read on the shooting table
or the fisticuffs table with its modifier ("a 6 is always treated as a 6").

More: docs/modules/rulesets-blaze-of-glory.md#wounds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bow3d.rules.chance import ChanceRequest, Dice
from bow3d.rules.events import Event
from bow3d.rules.pending import DecisionRequest
from bow3d.rulesets.blaze_of_glory import flow, status
from bow3d.rulesets.blaze_of_glory.book import (
    DUCK_AND_DIVE,
    FISTICUFFS_TABLE,
    KNOCKED_DOWN,
    LUCKY_OBJECTS,
    OUT_OF_ACTION,
    SHOOTING_TABLE,
    UNCONSCIOUS_MAX,
    table_result,
)
from bow3d.rulesets.blaze_of_glory.rolls import can_use_hero, hero_test

if TYPE_CHECKING:
    from bow3d.rules.game import Game

TABLES = {"shooting": SHOOTING_TABLE, "fisticuffs": FISTICUFFS_TABLE}


def wound_roll(target: str, table: str, modifier: int, by: str | None, source: str, *, mods: tuple[str, ...] = (),
               dead_eye: bool = False, then: str | None = None, **data: Any) -> dict[str, Any]:
    """A step: roll on `table` ('shooting' or 'fisticuffs') for `target`, wounded by `by` (None: a
    fall); `source` is 'shot', 'fight', 'free' (a free roll on a figure pulling out of a fight) or
    'fall'. THEN[then](g, task, result) follows when given."""
    return {"do": "wound_roll", "target": target, "table": table, "modifier": int(modifier), "by": by,
            "source": source, "mods": tuple(mods), "dead_eye": bool(dead_eye), "then": then, **data}


@flow.step("wound_roll")
def _roll(g: Game, task: dict[str, Any]) -> list[Event]:
    if not g.state.figures[task["target"]].on_table:
        return _continue(g, task, "no_effect")
    thrower = task["by"] if task["by"] is not None else task["target"]
    spec = Dice(2, 6, "lowest") if task["dead_eye"] else Dice(1, 6)
    request = ChanceRequest(g.state.figures[thrower].side, spec, "wound",
                            {"unit": thrower, "target": task["target"], "table": task["table"]})
    return flow.ask(g, task, [request])


@flow.answer("wound_roll")
def _rolled(g: Game, task: dict[str, Any], outcome: tuple[Any, ...]) -> list[Event]:
    dice = tuple(outcome[0])
    die = min(dice)
    result = table_result(TABLES[task["table"]], die, task["modifier"])
    event = g.event("wound_roll", unit=task["target"], by=task["by"], table=task["table"], die=die,
                    dice=list(dice), modifier=task["modifier"], modifiers=list(task["mods"]), result=result)
    target = g.state.figures[task["target"]]
    sheet = g.ctx.sheet(target.sheet)
    if task["source"] == "fight" and sheet.has(DUCK_AND_DIVE) and not task.get("rerolled"):
        flow.push(g, {"do": "duck_and_dive", "task": {**task, "rerolled": True}, "result": result})
        return [event]
    return [event] + _after_roll(g, task, result)


@flow.step("duck_and_dive")
def _offer_reroll(g: Game, task: dict[str, Any]) -> list[Event]:
    target = g.state.figures[task["task"]["target"]]
    return flow.ask(g, task, [DecisionRequest(target.side, "duck_and_dive", (True, False),
                                              {"unit": target.id, "result": task["result"]})])


@flow.answer("duck_and_dive")
def _reroll_answered(g: Game, task: dict[str, Any], choice: tuple[Any, ...]) -> list[Event]:
    if choice[0]:
        flow.push(g, task["task"])
        return [g.event("reroll", unit=task["task"]["target"], skill=DUCK_AND_DIVE, purpose="wound")]
    return _after_roll(g, task["task"], task["result"])


def _after_roll(g: Game, task: dict[str, Any], result: str) -> list[Event]:
    if result == OUT_OF_ACTION and task["source"] != "fall" and can_use_hero(g, task["target"]):
        flow.push(g, {"do": "lucky_offer", "task": task})
        return []
    return _out_or_apply(g, task, result)


@flow.step("lucky_offer")
def _offer_lucky(g: Game, task: dict[str, Any]) -> list[Event]:
    target = g.state.figures[task["task"]["target"]]
    return flow.ask(g, task, [DecisionRequest(target.side, "hero_point", (True, False),
                                              {"unit": target.id, "use": "lucky"})])


@flow.answer("lucky_offer")
def _lucky_answered(g: Game, task: dict[str, Any], choice: tuple[Any, ...]) -> list[Event]:
    wound = task["task"]
    if choice[0]:
        flow.push(g, hero_test(wound["target"], "lucky", "_lucky", wound=wound))
        return []
    return _out_or_apply(g, wound, OUT_OF_ACTION)


@flow.then("_lucky")
def _lucky(g: Game, task: dict[str, Any], passed: bool) -> list[Event]:
    wound = task["wound"]
    target = wound["target"]
    events = [g.event("hero_point", unit=target, use="lucky", passed=passed)]
    if not passed:
        return events + _out_or_apply(g, wound, OUT_OF_ACTION)
    figure = g.state.figures[target]
    thing = LUCKY_OBJECTS[(figure.hero + g.state.round + len(target)) % len(LUCKY_OBJECTS)]
    events.append(g.event("lucky", unit=target, object=thing, by=wound["by"]))
    return events + _continue(g, wound, KNOCKED_DOWN, status.knock_down(g, target, wound["by"], False))


def _out_or_apply(g: Game, task: dict[str, Any], result: str) -> list[Event]:
    if result == OUT_OF_ACTION and task["table"] == "fisticuffs":
        flow.push(g, {"do": "unconscious_roll", "task": task})
        return []
    return _continue(g, task, result, status.apply_result(g, task["target"], result, task["by"]))


@flow.step("unconscious_roll")
def _ask_unconscious(g: Game, task: dict[str, Any]) -> list[Event]:
    target = g.state.figures[task["task"]["target"]]
    return flow.ask(g, task, [ChanceRequest(target.side, Dice(1, 6), "unconscious", {"unit": target.id})])


@flow.answer("unconscious_roll")
def _unconscious(g: Game, task: dict[str, Any], outcome: tuple[Any, ...]) -> list[Event]:
    wound = task["task"]
    die = outcome[0][0]
    if die <= UNCONSCIOUS_MAX:
        return _continue(g, wound, OUT_OF_ACTION, status.unconscious(g, wound["target"], wound["by"]))
    return _continue(g, wound, OUT_OF_ACTION, status.out_of_action(g, wound["target"], wound["by"]))


def _continue(g: Game, task: dict[str, Any], result: str, events: list[Event] | None = None) -> list[Event]:
    events = list(events or [])
    if task.get("then"):
        events += flow.THEN[task["then"]](g, task, result)
    return events
