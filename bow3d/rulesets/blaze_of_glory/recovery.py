"""Recovering from a wound with a Hero Point (Hero Points).

Layer: rulesets (Blaze of Glory). "When a character is wounded he may try to recover the next time
it is activated. Make a hero test if the test is passed, the figure recovers treat him as if he
was wounded requiring a NERVE test to get up and fight on. If the test is failed then he remains
wounded. A character may try to recover as many times as he has Hero Points left, after those
attempts are used if he is still wounded he goes OUT OF ACTION. A character recovering from a
wound rolls a d6 and takes the score off his various attributes ... If any attribute is reduced
to 0 he goes Out Of Action."

Readings: "treat him as if he was wounded requiring a NERVE test to get up" is read as knocked
down with the Nerve test to get up (taken on a later turn); the points come off S, F, R and N as
his player chooses (a decision among every split); a wounded figure whose Hero Points are spent
(or who has none) goes out of action when his card is turned; recovering is his whole turn.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from bow3d.rules.chance import ChanceRequest, Dice
from bow3d.rules.events import Event
from bow3d.rules.pending import DecisionRequest
from bow3d.rulesets.blaze_of_glory import flow, status
from bow3d.rulesets.blaze_of_glory.book import CHARACTERISTICS
from bow3d.rulesets.blaze_of_glory.rolls import characteristic, offer
from bow3d.rulesets.blaze_of_glory.state import DONE, KNOCKED_DOWN, WOUNDED, replace

if TYPE_CHECKING:
    from bow3d.rules.game import Game


def splits(points: int) -> tuple[tuple[int, int, int, int], ...]:
    """Every way to take `points` off S, F, R and N."""
    every = itertools.product(range(points + 1), range(points + 1), range(points + 1), range(points + 1))
    return tuple(s for s in every if sum(s) == points)


@flow.step("recover")
def _recover(g: Game, task: dict[str, Any]) -> list[Event]:
    unit = task["unit"]
    g.state.turn.phase = DONE
    figure = g.state.figures[unit]
    if figure.status != WOUNDED:
        return []
    if figure.hero <= 0:
        return [g.event("recovery", unit=unit, outcome="spent")] + status.out_of_action(g, unit, figure.by)
    flow.push(g, offer(g, unit, "recover", "recover_tried"))
    return []


@flow.then("recover_tried")
def _tried(g: Game, task: dict[str, Any], passed: bool) -> list[Event]:
    unit = task["unit"]
    figure = g.state.figures[unit]
    if passed:
        flow.push(g, {"do": "recovery_roll", "unit": unit})
        return []
    if figure.hero <= 0:   # the last attempt failed
        return [g.event("recovery", unit=unit, outcome="spent")] + status.out_of_action(g, unit, figure.by)
    return [g.event("recovery", unit=unit, outcome="still_wounded")]


@flow.step("recovery_roll")
def _roll(g: Game, task: dict[str, Any]) -> list[Event]:
    side = g.state.figures[task["unit"]].side
    return flow.ask(g, task, [ChanceRequest(side, Dice(1, 6), "recovery", {"unit": task["unit"]})])


@flow.answer("recovery_roll")
def _rolled(g: Game, task: dict[str, Any], outcome: tuple[Any, ...]) -> list[Event]:
    unit, points = task["unit"], outcome[0][0]
    side = g.state.figures[unit].side
    flow.push(g, {"do": "recovery_split", "unit": unit, "points": points, "side": side})
    return []


@flow.step("recovery_split")
def _ask_split(g: Game, task: dict[str, Any]) -> list[Event]:
    request = DecisionRequest(task["side"], "attribute_loss", splits(task["points"]),
                              {"unit": task["unit"], "points": task["points"]})
    return flow.ask(g, task, [request])


@flow.answer("recovery_split")
def _split(g: Game, task: dict[str, Any], choice: tuple[Any, ...]) -> list[Event]:
    unit = task["unit"]
    split = tuple(int(v) for v in choice[0])
    figure = g.state.figures[unit]
    losses = tuple(a + b for a, b in zip(figure.losses, split))
    g.state.figures[unit] = figure = replace(figure, losses=losses)
    left = {name: characteristic(g, unit, name) for name in CHARACTERISTICS}
    events = [g.event("recovery", unit=unit, outcome="recovered")]
    events.append(g.event("attributes_lost", unit=unit, points=task["points"], split=list(split),
                          left={k: int(v) for k, v in left.items()}))
    if min(left.values()) <= 0:
        return events + status.out_of_action(g, unit, figure.by)
    g.state.figures[unit] = replace(figure, status=KNOCKED_DOWN, needs_nerve=True)
    return events + [g.event("down", unit=unit, state=KNOCKED_DOWN, posture="on_back", needs_nerve=True, by=None)]
