"""TESTs: a d6 rolled against a characteristic ("1 always passes, 6 always fails"), and Hero tests.

Layer: rulesets (Blaze of Glory). `test(...)` makes a step that asks the figure's side to throw
Dice(1, 6) (two dice keeping the lowest for a TRUE GRIT Nerve test, Skills), says the outcome
as a `test` event, and hands the result to a continuation registered with `flow.then`. On a failed
REFLEX or NERVE test the player may spend a Hero Point to ignore it (Hero Points: "A character
may use a HERO point to ignore the affects of failed REFLEX or NERVE roll. Again a successful test
must be made"): a decision of the figure's side, then a Hero test. NIMBLE re-rolls a failed R test
when jumping (Skills). A Hero test passes on a d6 at most the current HERO value and costs one
point, passed or failed; one Hero Point a turn (Hero Points: "Only one HERO POINT may be used a turn",
read as one per figure during each turn, whoever's card was turned).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bow3d.rules.chance import ChanceRequest, Dice
from bow3d.rules.events import Event
from bow3d.rules.pending import DecisionRequest
from bow3d.rulesets.blaze_of_glory import flow
from bow3d.rulesets.blaze_of_glory.book import LETTERS, TRUE_GRIT, passes
from bow3d.rulesets.blaze_of_glory.state import replace

if TYPE_CHECKING:
    from bow3d.rules.game import Game

D6 = Dice(1, 6)
TWO_D6_BEST = Dice(2, 6, "lowest")
IGNORABLE = ("reflexes", "nerve")   # Hero Points: failed REFLEX or NERVE rolls may be ignored


def characteristic(g: Game, unit: str, what: str) -> int:
    """The figure's current S, F, R or N (its sheet less what recovering from wounds took off), or
    its Hero Points left."""
    figure = g.state.figures[unit]
    if what == "hero":
        return figure.hero
    index = ("shoot", "fisticuffs", "reflexes", "nerve").index(what)
    return int(getattr(g.ctx.sheet(figure.sheet), what)) - figure.losses[index]


def can_use_hero(g: Game, unit: str) -> bool:
    """A Hero Point left and none used by this figure this turn."""
    figure = g.state.figures[unit]
    return figure.hero > 0 and unit not in g.state.turn.hero_used and figure.on_table


def mark_hero_used(g: Game, unit: str) -> None:
    g.state.turn.hero_used = g.state.turn.hero_used + (unit,)


def test(unit: str, what: str, purpose: str, then: str, modifier: int = 0, mods: tuple[str, ...] = (),
         ignorable: bool | None = None, reroll: bool = False, **data: Any) -> dict[str, Any]:
    """A step testing `what` (shoot, fisticuffs, reflexes, nerve or hero) of `unit` with a modifier
    (its words in `mods`), for `purpose`; THEN[then](g, task, passed) follows. `ignorable`: a Hero
    Point may cancel a failure (default: R and N tests); `reroll`: NIMBLE's second try."""
    return {"do": "test", "unit": unit, "what": what, "purpose": purpose, "then": then, "modifier": int(modifier),
            "mods": tuple(mods), "ignorable": (what in IGNORABLE) if ignorable is None else bool(ignorable),
            "reroll": bool(reroll), **data}


def hero_test(unit: str, purpose: str, then: str, **data: Any) -> dict[str, Any]:
    """A Hero test (Hero Points) for `purpose`."""
    return test(unit, "hero", purpose, then, ignorable=False, **data)


def _spec(g: Game, task: dict[str, Any]) -> Dice:
    sheet = g.ctx.sheet(g.state.figures[task["unit"]].sheet)
    return TWO_D6_BEST if task["what"] == "nerve" and sheet.has(TRUE_GRIT) else D6


@flow.step("test")
def _ask_test(g: Game, task: dict[str, Any]) -> list[Event]:
    unit = task["unit"]
    figure = g.state.figures[unit]
    if task["what"] == "hero":  # the point is spent whatever the result; the test is against the value before
        mark_hero_used(g, unit)
        task = {**task, "value": figure.hero}
        g.state.figures[unit] = replace(figure, hero=figure.hero - 1)
    else:
        task = {**task, "value": characteristic(g, unit, task["what"]) + task["modifier"]}
    request = ChanceRequest(figure.side, _spec(g, task), f"{task['what']}_test",
                            {"unit": unit, "purpose": task["purpose"]})
    return flow.ask(g, task, [request])


@flow.answer("test")
def _tested(g: Game, task: dict[str, Any], outcome: tuple[Any, ...]) -> list[Event]:
    dice = tuple(outcome[0])
    die = min(dice)
    passed = passes(die, task["value"])
    event = g.event("test", unit=task["unit"], test=LETTERS[task["what"]], value=task["value"], die=die,
                    dice=list(dice), passed=passed, purpose=task["purpose"], modifiers=list(task["mods"]))
    if not passed and task["reroll"] and not task.get("rerolled"):
        flow.push(g, {**task, "rerolled": True})
        return [event, g.event("reroll", unit=task["unit"], skill="nimble", purpose=task["purpose"])]
    if not passed and task["ignorable"] and can_use_hero(g, task["unit"]):
        flow.push(g, {"do": "hero_offer", "unit": task["unit"], "use": f"ignore_{task['what']}", "test": task})
        return [event]
    return [event] + flow.THEN[task["then"]](g, {**task, "die": die}, passed)


@flow.step("hero_offer")
def _offer(g: Game, task: dict[str, Any]) -> list[Event]:
    """Hero Points: the figure's side decides whether to spend a point on this (a test decides it)."""
    figure = g.state.figures[task["unit"]]
    request = DecisionRequest(figure.side, "hero_point", (True, False), {"unit": task["unit"], "use": task["use"]})
    return flow.ask(g, task, [request])


@flow.answer("hero_offer")
def _offered(g: Game, task: dict[str, Any], choice: tuple[Any, ...]) -> list[Event]:
    failed = task["test"]
    if choice[0]:
        flow.push(g, hero_test(task["unit"], task["use"], "_hero_ignores", failed=failed))
        return []
    return flow.THEN[failed["then"]](g, failed, False)


@flow.then("_hero_ignores")
def _hero_ignores(g: Game, task: dict[str, Any], passed: bool) -> list[Event]:
    failed = task["failed"]
    events = [g.event("hero_point", unit=task["unit"], use=task["purpose"], passed=passed)]
    return events + flow.THEN[failed["then"]](g, failed, passed)


def offer(g: Game, unit: str, use: str, then: str, **data: Any) -> dict[str, Any]:
    """A step asking the figure's side whether to spend a Hero Point on `use` (a Hero test follows a
    yes); THEN[then](g, task, spent_and_passed) follows either way."""
    return {"do": "hero_use", "unit": unit, "use": use, "then": then, **data}


@flow.step("hero_use")
def _offer_use(g: Game, task: dict[str, Any]) -> list[Event]:
    if not can_use_hero(g, task["unit"]):
        return flow.THEN[task["then"]](g, task, False)
    figure = g.state.figures[task["unit"]]
    return flow.ask(g, task, [DecisionRequest(figure.side, "hero_point", (True, False),
                                              {"unit": task["unit"], "use": task["use"]})])


@flow.answer("hero_use")
def _use_answered(g: Game, task: dict[str, Any], choice: tuple[Any, ...]) -> list[Event]:
    if choice[0]:
        flow.push(g, hero_test(task["unit"], task["use"], "_hero_used", offered=task))
        return []
    return flow.THEN[task["then"]](g, task, False)


@flow.then("_hero_used")
def _hero_used(g: Game, task: dict[str, Any], passed: bool) -> list[Event]:
    offered = task["offered"]
    events = [g.event("hero_point", unit=task["unit"], use=task["purpose"], passed=passed)]
    return events + flow.THEN[offered["then"]](g, offered, passed)
