"""Activation by cards (Activation & Movement): the deck, rounds, whose turn, what starts a turn,
and how the game ends.

Layer: rulesets (Blaze of Glory). Each figure has 2 cards at level 1 or 2, 3 at level 3 and 4 at
level 4, so the more heroic act more often and "a figure can be active several times a round".
A round: the cards of every figure still on the table are shuffled (one recorded `Shuffle`
throw, by the Goodies' player), then turned one at a time; the figure on the card is Active and
takes its turn. Cards of figures gone since the shuffle are turned and put aside. When the deck
is out the round ends and the next is shuffled.

More: docs/modules/rulesets-blaze-of-glory.md#cards.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from bow3d.i18n import _
from bow3d.rules.chance import ChanceRequest, Dice, Shuffle
from bow3d.rules.events import Event
from bow3d.rules.refusal import Reason, Refusal
from bow3d.rulesets.blaze_of_glory import flow, status
from bow3d.rulesets.blaze_of_glory.actions import Action, EndTurn
from bow3d.rulesets.blaze_of_glory.book import CARDS_BY_LEVEL, COME_ROUND_MAX, HERO_PER_LEVEL
from bow3d.rulesets.blaze_of_glory.context import Context
from bow3d.rulesets.blaze_of_glory.nerve import distance_in
from bow3d.rulesets.blaze_of_glory.rolls import test
from bow3d.rulesets.blaze_of_glory.state import (
    ACTED,
    BREAKING,
    DONE,
    ENGAGED,
    KNOCKED_DOWN,
    MOVE,
    MOVED,
    RAN,
    RUNNING,
    SHUFFLE,
    STANDING,
    UNCONSCIOUS,
    WOUNDED,
    BlazeReason,
    FigureState,
    GameState,
    Turn,
    replace,
)
from bow3d.rulesets.blaze_of_glory.terrain import footing

if TYPE_CHECKING:
    from bow3d.rules.game import Game

PLAYER_PHASES = (ENGAGED, MOVE, MOVED, RUNNING, RAN, ACTED, BREAKING)
MAX_SKIPS = 10_000   # a guard: turns that end at once, in a row, before a player is asked again


def card_names(figure: FigureState) -> list[str]:
    """A figure's cards: 'marshal#1', 'marshal#2', ..."""
    return [f"{figure.id}#{k}" for k in range(1, CARDS_BY_LEVEL[figure.level] + 1)]


def card_owner(card: str) -> str:
    return card.rsplit("#", 1)[0]


# -- set-up -----------------------------------------------------------------------------------
def initial_state(ctx: Context) -> GameState:
    """The figures where the scene puts them, facing as it says, Hero Points double their level."""
    state = GameState()
    for u in ctx.scene.units:
        sheet = ctx.sheet(u.sheet)
        state.figures[u.id] = FigureState(u.id, u.side, u.sheet, int(sheet.level),
                                          (float(u.position[0]), float(u.position[1])), float(u.facing or 0) % 360,
                                          hero=HERO_PER_LEVEL * int(sheet.level))
    return state


def place_bodies(g: Game) -> None:
    """Every figure on the table placed; the ground under each read once (its story)."""
    for figure in g.state.figures.values():
        if figure.on_table:
            g.geometry.place(figure.id, figure.position, figure.facing)
            z, _surface = footing(g, figure.position)
            g.state.figures[figure.id] = replace(figure, z=z if z > -1e30 else 0.0)
        else:
            g.geometry.remove(figure.id)


def begin(g: Game) -> list[Event]:
    events = [g.event("game_started", sides=list(g.ctx.sides), goodies=g.ctx.goodies, baddies=g.ctx.baddies)]
    events += check_end(g)
    if g.state.over:
        return events
    return events + start_round(g)


# -- rounds and cards -------------------------------------------------------------------------
def start_round(g: Game) -> list[Event]:
    state = g.state
    if g.ctx.max_rounds is not None and state.round >= g.ctx.max_rounds:
        return _finish_by_survivors(g)
    state.round += 1
    cards = [card for f in state.figures.values() if f.on_table for card in card_names(f)]
    state.turn = Turn(phase=SHUFFLE)
    state.deck, state.drawn = (), 0
    events = [g.event("round_started", cards=len(cards))]
    flow.push(g, {"do": "shuffle", "cards": tuple(cards)})
    return events + flow.run(g)


@flow.step("shuffle")
def _shuffle(g: Game, task: dict[str, Any]) -> list[Event]:
    side = g.ctx.goodies or g.ctx.sides[0]
    return flow.ask(g, task, [ChanceRequest(side, Shuffle(task["cards"]), "deck", {"round": g.state.round})])


@flow.answer("shuffle")
def _shuffled(g: Game, task: dict[str, Any], outcome: tuple[Any, ...]) -> list[Event]:
    g.state.deck, g.state.drawn = tuple(outcome[0]), 0
    return next_turn(g)


def next_turn(g: Game) -> list[Event]:
    """An interrupting Blaze of Glory first, else the next card (a new round when the deck is out)."""
    state = g.state
    events: list[Event] = []
    if state.interrupts:
        unit, state.interrupts = state.interrupts[0], state.interrupts[1:]
        return events + start_turn(g, unit, None, frenzy=True)
    while state.drawn < len(state.deck):
        card = state.deck[state.drawn]
        state.drawn += 1
        unit = card_owner(card)
        if state.figures[unit].on_table:
            return events + start_turn(g, unit, card)
        events.append(g.event("card_turned", card=card, unit=unit, skipped=True))
    events.append(g.event("round_ended"))
    return events + start_round(g)


def start_turn(g: Game, unit: str, card: str | None, frenzy: bool = False) -> list[Event]:
    state = g.state
    figure = state.figures[unit]
    state.turn = Turn(unit=unit, card=card, phase=SHUFFLE, frenzy=frenzy)
    state.activations += 1
    events = []
    if card is not None:
        events.append(g.event("card_turned", card=card, unit=unit, skipped=False))
    events.append(g.event("turn_started", unit=unit, card=card, frenzy=frenzy, state=figure.status))
    if frenzy:
        enemies = [f for f in state.figures.values() if f.side != figure.side and f.in_fight]
        if figure.status != STANDING or figure.engaged or not enemies:
            state.turn.phase = DONE
            return events
        state.turn.frenzy_enemy = min(enemies, key=lambda f: (distance_in(figure, f), f.id)).id
        state.turn.phase = MOVE
        return events
    flow.push(g, {"do": "turn_checks", "unit": unit})
    return events + flow.run(g)


@flow.step("turn_checks")
def _turn_checks(g: Game, task: dict[str, Any]) -> list[Event]:
    unit = task["unit"]
    figure = g.state.figures[unit]
    if figure.status == UNCONSCIOUS:
        flow.push(g, {"do": "come_round", "unit": unit})
    elif figure.status == WOUNDED:
        flow.push(g, {"do": "recover", "unit": unit})
    else:
        flow.push(g, {"do": "nerve_activation", "unit": unit}, {"do": "turn_ready", "unit": unit})
    return []


@flow.step("come_round")
def _ask_come_round(g: Game, task: dict[str, Any]) -> list[Event]:
    side = g.state.figures[task["unit"]].side
    return flow.ask(g, task, [ChanceRequest(side, Dice(1, 6), "come_round", {"unit": task["unit"]})])


@flow.answer("come_round")
def _came_round(g: Game, task: dict[str, Any], outcome: tuple[Any, ...]) -> list[Event]:
    """Fisticuffs: "in further turns roll a 1-2 to come round": he comes round knocked down, and
    gets up (a Nerve test) on a later turn (a reading)."""
    unit, die = task["unit"], outcome[0][0]
    g.state.turn.phase = DONE
    if die > COME_ROUND_MAX:
        return [g.event("came_round", unit=unit, die=die, woke=False)]
    figure = g.state.figures[unit]
    g.state.figures[unit] = replace(figure, status=KNOCKED_DOWN, needs_nerve=True)
    return [g.event("came_round", unit=unit, die=die, woke=True)]


@flow.step("turn_ready")
def _turn_ready(g: Game, task: dict[str, Any]) -> list[Event]:
    unit = task["unit"]
    figure = g.state.figures[unit]
    if not figure.in_fight:
        g.state.turn.phase = DONE
    elif figure.engaged:
        g.state.turn.phase = ENGAGED
    elif figure.status == KNOCKED_DOWN:
        if figure.needs_nerve:
            flow.push(g, test(unit, "nerve", "get_up", "got_up"))
            return []
        return _got_up(g, {"unit": unit}, True)
    else:
        g.state.turn.phase = MOVE
    return []


@flow.then("got_up")
def _got_up(g: Game, task: dict[str, Any], passed: bool) -> list[Event]:
    unit = task["unit"]
    if not passed:
        g.state.turn.phase = DONE
        return [g.event("stayed_down", unit=unit)]
    g.state.turn.stood_up = True
    g.state.turn.phase = RAN   # standing up takes the move (a reading); he may still act
    return status.stand_up(g, unit)


def _finish_by_survivors(g: Game) -> list[Event]:
    counts = {side: sum(1 for f in g.state.figures.values() if f.side == side and f.in_fight) for side in g.ctx.sides}
    best = max(counts.values())
    top = [side for side, n in counts.items() if n == best]
    events = [g.event("round_limit", fighting=counts)]
    return events + _finish(g, top[0] if len(top) == 1 else None, "survivors" if len(top) == 1 else "draw")


def _finish(g: Game, winner: str | None, result: str) -> list[Event]:
    state = g.state
    state.over, state.winner, state.result = True, winner, result
    state.pending, state.tasks = None, []
    return [g.event("game_over", winner=winner, result=result)]


def check_end(g: Game) -> list[Event]:
    """A side with no figure left in the fight has lost."""
    if g.state.over:
        return []
    fighting = [side for side in g.ctx.sides if any(f.in_fight for f in g.state.figures.values() if f.side == side)]
    if len(fighting) <= 1 and len(g.ctx.sides) > 1:
        return _finish(g, fighting[0] if fighting else None, "win" if fighting else "draw")
    return []


def after_record(g: Game) -> list[Event]:
    """After every record: the end of the game, the end of a turn, the next cards until a player
    must choose."""
    state = g.state
    events: list[Event] = []
    for _skip in range(MAX_SKIPS):
        events += check_end(g)
        if state.over or state.pending is not None or state.tasks:
            return events
        turn = state.turn
        if turn.phase == SHUFFLE:
            return events
        unit = turn.unit
        if unit is not None and turn.phase != DONE and _turn_lost(state.figures[unit], turn.phase):
            turn.phase = DONE
        if turn.phase != DONE:
            return events
        if unit is not None:
            events.append(g.event("turn_ended", unit=unit))
        state.turn = Turn(phase=SHUFFLE)
        events += next_turn(g)
    return events


def _turn_lost(figure: FigureState, phase: str) -> bool:
    """The active figure went down or off the table during its own turn: the turn is over."""
    if not figure.on_table:
        return True
    if phase == ENGAGED:
        return not figure.in_fight
    return figure.status != STANDING


# -- the checks every action shares -----------------------------------------------------------
def check_active(g: Game, unit: str, phases: tuple[str, ...]) -> Refusal | None:
    """The unit is the active figure and the turn is in one of `phases`."""
    state = g.state
    if unit not in state.figures:
        return Refusal(Reason.UNKNOWN, _("no figure '{unit}'").format(unit=unit))
    if state.turn.unit != unit:
        if state.turn.unit:
            return Refusal(BlazeReason.NOT_ACTIVE, _("{unit} is not active ({who}'s card is turned)").format(
                unit=unit, who=state.turn.unit))
        return Refusal(BlazeReason.NOT_ACTIVE, _("{unit} is not active (nobody's card is turned)").format(unit=unit))
    if state.turn.phase not in phases:
        return Refusal(BlazeReason.WRONG_PHASE, _("not now: {unit}'s turn is at '{phase}' (this needs {needs})")
                       .format(unit=unit, phase=state.turn.phase, needs=", ".join(phases)))
    return None


def check_end_turn(g: Game, action: EndTurn) -> Refusal | None:
    refusal = check_active(g, action.unit, (MOVE, MOVED, RAN, ACTED, ENGAGED))
    if refusal is None and g.state.turn.away_from and g.state.turn.phase == MOVED:
        return Refusal(Reason.NOT_ALLOWED, _("pulling out of a fight, the figure must run as well (Fisticuffs)"))
    if refusal is None and g.state.turn.frenzy and g.state.turn.phase in (MOVE, MOVED):
        return Refusal(Reason.NOT_ALLOWED, _("a Blaze of Glory moves and runs towards the enemy first"))
    if refusal is None and g.state.turn.phase == ENGAGED:
        return Refusal(Reason.NOT_ALLOWED, _("in a fistfight: fight on or try to pull out (Fisticuffs)"))
    return refusal


def apply_end_turn(g: Game, action: EndTurn) -> list[Event]:
    g.state.turn.phase = DONE
    return []


def candidates(g: Game) -> Iterator[Action]:
    if g.state.turn.unit is not None and g.state.turn.phase in PLAYER_PHASES:
        yield EndTurn(g.state.turn.unit)

