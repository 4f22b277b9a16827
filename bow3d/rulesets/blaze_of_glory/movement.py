"""Moving, running, climbing, jumping and falling (Activation & Movement, Climbing/Fall).

Layer: rulesets (Blaze of Glory). A Move is up to 4 inches, measured exactly along its path
(bow3d.rulesets.blaze_of_glory.terrain); after it the player may Run: a d6, then a RunMove of up
to that many inches (a Hero Point buys a second run roll). Each level change along a path (a climb
or a jump down over an inch, a roof leap of at most three inches) asks one R test per story; at
most three a turn. NIMBLE re-rolls a failed R test when jumping (jumps down and leaps). A failed
test (not ignored with a Hero Point) is a fall: the figure drops from the higher of the two levels
to the foot, and tests R less one per story fallen; failing that too, he rolls on the Hand to Hand
(fisticuffs) wound table less one per story. A fall ends his movement (he may still act if he is
standing). Pulling out of a fistfight, the figure moves and runs away from his opponents (in his
rear arc, not past them); a Blood Brother in a Blaze of Glory moves and runs towards the nearest
enemy.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from bow3d.i18n import _
from bow3d.rules.chance import ChanceRequest, Dice
from bow3d.rules.events import Event
from bow3d.rules.refusal import Reason, Refusal
from bow3d.rulesets.blaze_of_glory import flow
from bow3d.rulesets.blaze_of_glory.actions import Action, Move, Run, RunMove
from bow3d.rulesets.blaze_of_glory.book import MAX_LEVEL_CHANGES, MOVE_IN, NIMBLE, RUN_DIE, studs
from bow3d.rulesets.blaze_of_glory.cards import check_active
from bow3d.rulesets.blaze_of_glory.rolls import can_use_hero, hero_test, test
from bow3d.rulesets.blaze_of_glory.state import BREAKING, DONE, MOVE, MOVED, RAN, RUNNING, BlazeReason, replace
from bow3d.rulesets.blaze_of_glory.terrain import PathPlan, plan_distance, plan_path
from bow3d.rulesets.blaze_of_glory.wounds import wound_roll

if TYPE_CHECKING:
    from bow3d.rules.game import Game

CANDIDATE_DIRECTIONS = 8   # straight moves offered by candidates() (the AI builds its own)


def plan_for(g: Game, unit: str, path: tuple, allowance_in: float) -> tuple[PathPlan | None, Refusal | None]:
    """Check a path against the rules of movement: the plan, or why it cannot be walked."""
    plan = plan_path(g, unit, path, allowance_in)
    if plan.problem is not None:
        return None, Refusal(BlazeReason.BLOCKED, _("{unit} cannot move there: {why}").format(unit=unit,
                                                                                                  why=plan.problem))
    if g.state.turn.level_changes + plan.tests > MAX_LEVEL_CHANGES:
        return None, Refusal(BlazeReason.BLOCKED, _("{unit} would make {n} level changes this turn; at most {most} "
                                                        "(Climbing/Fall)").format(
            unit=unit, n=g.state.turn.level_changes + plan.tests, most=MAX_LEVEL_CHANGES))
    turn = g.state.turn
    start = g.state.figures[unit].position
    if turn.away_from:
        for other in turn.away_from:
            o = g.state.figures[other].position
            ahead = (plan.end[0] - start[0]) * (o[0] - start[0]) + (plan.end[1] - start[1]) * (o[1] - start[1])
            if ahead > 1e-9 or plan_distance(plan.end, o) < plan_distance(start, o) - 1e-9:
                return None, Refusal(Reason.NOT_ALLOWED, _("pulling out of the fight, {unit} must move away from "
                                                           "{other}, in his rear arc (Fisticuffs)").format(
                    unit=unit, other=other))
    if turn.frenzy and turn.frenzy_enemy is not None:
        enemy = g.state.figures[turn.frenzy_enemy]
        if enemy.on_table and plan_distance(plan.end, enemy.position) >= plan_distance(start, enemy.position) - 1e-9 \
                and plan.length_in > 0:
            return None, Refusal(Reason.NOT_ALLOWED, _("a Blaze of Glory goes towards {enemy}, the nearest "
                                                       "enemy").format(enemy=enemy.id))
    return plan, None


def check_move(g: Game, action: Move) -> Refusal | None:
    refusal = check_active(g, action.unit, (MOVE, BREAKING))
    return refusal or plan_for(g, action.unit, action.path, MOVE_IN)[1]


def apply_move(g: Game, action: Move) -> list[Event]:
    plan, _refusal = plan_for(g, action.unit, action.path, MOVE_IN)
    assert plan is not None  # the move was checked before it is applied
    breaking = g.state.turn.phase == BREAKING
    return _walk_plan(g, action.unit, plan, run=False, breaking=breaking)


def check_run_move(g: Game, action: RunMove) -> Refusal | None:
    refusal = check_active(g, action.unit, (RUNNING,))
    return refusal or plan_for(g, action.unit, action.path, g.state.turn.run_in)[1]


def apply_run_move(g: Game, action: RunMove) -> list[Event]:
    plan, _refusal = plan_for(g, action.unit, action.path, g.state.turn.run_in)
    assert plan is not None  # the move was checked before it is applied
    return _walk_plan(g, action.unit, plan, run=True, breaking=bool(g.state.turn.away_from))


def _walk_plan(g: Game, unit: str, plan: PathPlan, run: bool, breaking: bool) -> list[Event]:
    changes = tuple({"kind": c.kind, "along_in": c.along_in, "at": c.at, "tests": c.tests, "foot": c.foot,
                     "foot_z": c.foot_z, "falls": tuple(c.fall_stories(k) for k in range(1, c.tests + 1)),
                     "from_z": c.from_z, "to_z": c.to_z, "top": c.top_story, "bottom": c.foot_story}
                    for c in plan.changes)
    flow.push(g, {"do": "walk", "unit": unit, "points": plan.points, "length_in": plan.length_in, "end_z": plan.end_z,
                  "facing": plan.facing, "changes": changes, "i": 0, "k": 1, "run": run, "breaking": breaking})
    return flow.run(g)


@flow.step("walk")
def _walk(g: Game, task: dict[str, Any]) -> list[Event]:
    changes, i, k = task["changes"], task["i"], task["k"]
    if i >= len(changes):
        return _arrive(g, task)
    change = changes[i]
    events = []
    if k == 1:
        events.append(g.event("level_change", unit=task["unit"], kind=change["kind"], at=list(change["at"]),
                              from_story=change["bottom"] if change["kind"] == "climb" else change["top"],
                              to_story=change["top"] if change["kind"] == "climb" else change["bottom"],
                              tests=change["tests"]))
    g.state.turn.level_changes += 1
    jumping = change["kind"] in ("drop", "leap")
    nimble = jumping and g.ctx.sheet(g.state.figures[task["unit"]].sheet).has(NIMBLE)
    flow.push(g, test(task["unit"], "reflexes", change["kind"], "walked", reroll=nimble, walk=task))
    return events


@flow.then("walked")
def _walked(g: Game, task: dict[str, Any], passed: bool) -> list[Event]:
    walk = task["walk"]
    change = walk["changes"][walk["i"]]
    if passed:
        nxt = (walk["i"], walk["k"] + 1) if walk["k"] < change["tests"] else (walk["i"] + 1, 1)
        flow.push(g, {**walk, "i": nxt[0], "k": nxt[1]})
        return []
    return _fall(g, walk, change, change["falls"][walk["k"] - 1])


def _place(g: Game, unit: str, position: tuple[float, float], z: float, facing: float) -> None:
    figure = g.state.figures[unit]
    g.state.figures[unit] = replace(figure, position=(float(position[0]), float(position[1])), z=float(z),
                                    facing=float(facing) % 360)
    g.geometry.place(unit, g.state.figures[unit].position, g.state.figures[unit].facing)


def _arrive(g: Game, task: dict[str, Any]) -> list[Event]:
    unit = task["unit"]
    start = g.state.figures[unit].position
    _place(g, unit, task["points"][-1], task["end_z"], task["facing"])
    turn = g.state.turn
    turn.moved_in += task["length_in"]
    if task["run"]:
        turn.ran = True
        turn.phase = DONE if task["breaking"] else RAN
    else:
        turn.phase = MOVED
    event = g.event("moved", unit=unit, **{"from": list(start)}, to=list(task["points"][-1]),
                    path=[list(p) for p in task["points"][1:]], facing=round(task["facing"], 3),
                    distance_in=round(task["length_in"], 4), run=task["run"])
    return [event]


def _fall(g: Game, walk: dict[str, Any], change: dict[str, Any], stories: int) -> list[Event]:
    """Climbing/Fall: he falls from the higher level to the foot, then tests R less the stories."""
    unit = walk["unit"]
    start = g.state.figures[unit].position
    _place(g, unit, change["foot"], change["foot_z"], walk["facing"])
    turn = g.state.turn
    turn.moved_in += change["along_in"]
    turn.ran = turn.ran or walk["run"]
    turn.phase = DONE if walk["breaking"] else RAN
    events = [g.event("moved", unit=unit, **{"from": list(start)}, to=list(change["foot"]),
                      path=[list(change["at"]), list(change["foot"])], facing=round(walk["facing"], 3),
                      distance_in=round(change["along_in"], 4), run=walk["run"]),
              g.event("fell", unit=unit, stories=stories, at=list(change["foot"]), kind=change["kind"])]
    flow.push(g, test(unit, "reflexes", "fall", "fall_tested", -stories,
                      (f"-{stories} for {stories} stor{'y' if stories == 1 else 'ies'} fallen",) if stories else (),
                      stories=stories))
    return events


@flow.then("fall_tested")
def _fall_tested(g: Game, task: dict[str, Any], passed: bool) -> list[Event]:
    if passed:
        return [g.event("landed", unit=task["unit"], hurt=False)]
    stories = task["stories"]
    flow.push(g, wound_roll(task["unit"], "fisticuffs", -stories, None, "fall",
                            mods=(f"-{stories} for the fall",) if stories else ()))
    return [g.event("landed", unit=task["unit"], hurt=True)]


# -- running ------------------------------------------------------------------------------------
def check_run(g: Game, action: Run) -> Refusal | None:
    turn = g.state.turn
    if not action.hero:
        refusal = check_active(g, action.unit, (MOVED,))
        if refusal is None and turn.ran:
            return Refusal(Reason.NOT_ALLOWED, _("{unit} has run this turn").format(unit=action.unit))
        return refusal
    refusal = check_active(g, action.unit, (RAN,))
    if refusal is None and (not turn.ran or turn.extra or turn.acted or turn.away_from):
        return Refusal(Reason.NOT_ALLOWED, _("a second run roll comes right after the first run (Hero Points)"))
    if refusal is None and not can_use_hero(g, action.unit):
        return Refusal(BlazeReason.NO_HERO, _("{unit} has no Hero Point to use this turn").format(unit=action.unit))
    return refusal


def apply_run(g: Game, action: Run) -> list[Event]:
    if action.hero:
        g.state.turn.extra = True
        flow.push(g, hero_test(action.unit, "run", "hero_run"))
    else:
        flow.push(g, {"do": "run_roll", "unit": action.unit})
    return flow.run(g)


@flow.then("hero_run")
def _hero_run(g: Game, task: dict[str, Any], passed: bool) -> list[Event]:
    events = [g.event("hero_point", unit=task["unit"], use="run", passed=passed)]
    if passed:
        flow.push(g, {"do": "run_roll", "unit": task["unit"]})
    return events


@flow.step("run_roll")
def _ask_run(g: Game, task: dict[str, Any]) -> list[Event]:
    side = g.state.figures[task["unit"]].side
    return flow.ask(g, task, [ChanceRequest(side, Dice(1, RUN_DIE), "run", {"unit": task["unit"]})])


@flow.answer("run_roll")
def _ran(g: Game, task: dict[str, Any], outcome: tuple[Any, ...]) -> list[Event]:
    inches = outcome[0][0]
    g.state.turn.run_in = float(inches)
    g.state.turn.phase = RUNNING
    return [g.event("run", unit=task["unit"], inches=inches)]


def candidates(g: Game) -> Iterator[Action]:
    """A few straight moves (8 directions, the whole allowance and half of it) and runs."""
    turn = g.state.turn
    unit = turn.unit
    if unit is None:
        return
    if turn.phase in (MOVE, BREAKING, RUNNING):
        figure = g.state.figures[unit]
        allowance = turn.run_in if turn.phase == RUNNING else MOVE_IN
        cls = RunMove if turn.phase == RUNNING else Move
        yield cls(unit, (figure.position,))
        for share in (1.0, 0.5):
            reach = studs(allowance * share) - 0.01
            for k in range(CANDIDATE_DIRECTIONS):
                a = 2 * math.pi * k / CANDIDATE_DIRECTIONS
                yield cls(unit, ((round(figure.position[0] + reach * math.cos(a), 3),
                                  round(figure.position[1] + reach * math.sin(a), 3)),))
    if turn.phase == MOVED:
        yield Run(unit)
    if turn.phase == RAN:
        yield Run(unit, hero=True)
