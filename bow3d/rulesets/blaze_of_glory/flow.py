"""What is still to resolve: a queue of small steps, each finishing with a throw or a decision or
nothing, so that a shot, a fall or a chain of Nerve tests unfolds one recorded answer at a time.

Layer: rulesets (Blaze of Glory). A step is a plain dict (`{"do": name, ...}`, immutable values) in
`state.tasks`; `run(g)` takes steps from the front until one waits for an answer (the engine's
pending request, kind "blaze"); the answer goes to the step's answer handler, which may queue more
steps (at the front: they happen first), then the queue runs on. Modules register their steps
with `@step`, their answer handlers with `@answer` and the continuations of a characteristic test
with `@then` (bow3d.rulesets.blaze_of_glory.rolls). Everything is in the records: a replay
re-plays the same steps.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from bow3d.rules import pending as answers
from bow3d.rules.events import Event
from bow3d.rules.pending import Pending

if TYPE_CHECKING:
    from bow3d.rules.game import Game

KIND = "blaze"   # the engine's pending kind of every Blaze of Glory request

STEPS: dict[str, Callable[..., list[Event]]] = {}
ANSWERS: dict[str, Callable[..., list[Event]]] = {}
THEN: dict[str, Callable[..., list[Event]]] = {}


def _register(table: dict[str, Callable], name: str) -> Callable[[Callable], Callable]:
    def wrap(fn: Callable) -> Callable:
        if name in table:
            raise ValueError(f"two handlers for {name!r}")
        table[name] = fn
        return fn
    return wrap


def step(name: str) -> Callable[[Callable], Callable]:
    """Decorator: the function (g, task) -> events that carries out a step `{"do": name, ...}`."""
    return _register(STEPS, name)


def answer(name: str) -> Callable[[Callable], Callable]:
    """Decorator: the function (g, task, answers) -> events called with the answers a step asked for."""
    return _register(ANSWERS, name)


def then(name: str) -> Callable[[Callable], Callable]:
    """Decorator: the function (g, task, passed) -> events that follows a characteristic test."""
    return _register(THEN, name)


def push(g: Game, *tasks: dict[str, Any], front: bool = True) -> None:
    """Queue steps: at the front (they happen next, in the order given) or at the back."""
    if front:
        g.state.tasks[0:0] = list(tasks)
    else:
        g.state.tasks.extend(tasks)


def run(g: Game) -> list[Event]:
    """Carry out queued steps until one waits for an answer or none is left."""
    events: list[Event] = []
    while g.state.pending is None and g.state.tasks and not g.state.over:
        task = g.state.tasks.pop(0)
        events += STEPS[task["do"]](g, task)
    return events


def ask(g: Game, task: dict[str, Any], requests: Sequence[Any]) -> list[Event]:
    """Wait for the throws or decisions `requests`; their answers go to ANSWERS[task['do']]."""
    return answers.request(g, KIND, list(requests), task=task)


def resolve(g: Game, pending: Pending) -> list[Event]:
    """The engine's resolver for KIND: the step's answer handler, then the rest of the queue."""
    task = pending.data["task"]
    events = ANSWERS[task["do"]](g, task, pending.answers)
    return events + run(g)
