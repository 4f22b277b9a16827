"""Figure states and what follows them: knocked down, wounded, unconscious, out of action, fled.

Layer: rulesets (Blaze of Glory). Wounding: "If a figure is WOUNDED lay it on its front, KNOCKED
DOWN on its back and if it goes OUT OF ACTION replace it with a DEAD counter" (off the table: the
geometry forgets it); Fisticuffs: an unconscious figure lies on his front with a dead marker beside
him (still on the table); Nerve: a figure failing a Nerve test "is removed from play and may not
return". Every change is said by a `down`, `died` or `fled` event with the posture the film shows.

Readings: a wounded figure wounded again goes out of action; a knock down leaves a wounded figure
wounded; figures no longer fighting (wounded, unconscious, gone) leave their fistfights; a friend
going out of action (unconsciousness included: "Out of Action (unconscious)") triggers the Nerve
tests of his friends and the Blood Brother's roll (bow3d.rulesets.blaze_of_glory.nerve), and so
does a Blood Brother's friend being wounded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bow3d.rules.events import Event
from bow3d.rulesets.blaze_of_glory import flow
from bow3d.rulesets.blaze_of_glory.book import KNOCKED_DOWN_NERVE, NO_EFFECT, OUT_OF_ACTION, WOUNDED
from bow3d.rulesets.blaze_of_glory.state import (
    FLED,
    KNOCKED_DOWN,
    OUT_OF_ACTION as GONE,
    STANDING,
    UNCONSCIOUS,
    WOUNDED as LYING_WOUNDED,
    FigureState,
    replace,
)

if TYPE_CHECKING:
    from bow3d.rules.game import Game


def _leave_fights(g: Game, unit: str) -> None:
    figure = g.state.figures[unit]
    for other in figure.engaged:
        o = g.state.figures[other]
        g.state.figures[other] = replace(o, engaged=tuple(e for e in o.engaged if e != unit))
    g.state.figures[unit] = replace(g.state.figures[unit], engaged=())


def _down_event(g: Game, figure: FigureState, by: str | None) -> Event:
    return g.event("down", unit=figure.id, state=figure.status, posture=figure.posture,
                   needs_nerve=figure.needs_nerve, by=by)


def knock_down(g: Game, unit: str, by: str | None, needs_nerve: bool) -> list[Event]:
    """Knock Down (with or without the Nerve test to get up); a lying figure stays as he is."""
    figure = g.state.figures[unit]
    if figure.status == STANDING:
        figure = replace(figure, status=KNOCKED_DOWN, needs_nerve=needs_nerve, by=by)
    elif figure.status == KNOCKED_DOWN:
        figure = replace(figure, needs_nerve=figure.needs_nerve or needs_nerve, by=by)
    else:
        return []
    g.state.figures[unit] = figure
    return [_down_event(g, figure, by)]


def wound(g: Game, unit: str, by: str | None) -> list[Event]:
    """WOUNDED: on his front; a wounded figure wounded again goes out of action."""
    figure = g.state.figures[unit]
    if figure.status == LYING_WOUNDED:
        return out_of_action(g, unit, by)
    if figure.status not in (STANDING, KNOCKED_DOWN):
        return []
    g.state.figures[unit] = figure = replace(figure, status=LYING_WOUNDED, needs_nerve=False, by=by)
    _leave_fights(g, unit)
    flow.push(g, {"do": "brother_casualty", "unit": unit, "by": by}, front=False)
    return [_down_event(g, figure, by)]


def unconscious(g: Game, unit: str, by: str | None) -> list[Event]:
    """Out of action in a fistfight but only unconscious: on his front, a dead marker beside him."""
    figure = g.state.figures[unit]
    if not figure.on_table or figure.status == UNCONSCIOUS:
        return []
    g.state.figures[unit] = figure = replace(figure, status=UNCONSCIOUS, needs_nerve=False, by=by)
    _leave_fights(g, unit)
    _casualty(g, unit, by)
    return [_down_event(g, figure, by)]


def out_of_action(g: Game, unit: str, by: str | None) -> list[Event]:
    """OUT OF ACTION: replaced by a dead counter (off the table)."""
    figure = g.state.figures[unit]
    if not figure.on_table:
        return []
    was_unconscious = figure.status == UNCONSCIOUS
    _leave_fights(g, unit)
    g.state.figures[unit] = figure = replace(g.state.figures[unit], status=GONE, by=by or figure.by)
    g.geometry.remove(unit)
    events = [g.event("died", unit=unit, by=by)]
    for other in g.state.figures.values():   # Marked Man: vengeance gained
        if other.vengeance == unit:
            g.state.figures[other.id] = replace(other, vengeance=None)
            events.append(g.event("vengeance", unit=other.id, killer=unit))
    if not was_unconscious:  # an unconscious figure finished off was counted already
        _casualty(g, unit, by)
    return events


def flee(g: Game, unit: str, because: str | None) -> list[Event]:
    """Nerve: "throws down his weapons and surrenders, hides in a corner and says 'wibble' or runs like
    the cowardly cur that he is": removed from play."""
    figure = g.state.figures[unit]
    if not figure.on_table:
        return []
    _leave_fights(g, unit)
    g.state.figures[unit] = replace(g.state.figures[unit], status=FLED)
    g.geometry.remove(unit)
    return [g.event("fled", unit=unit, because=because)]


def _casualty(g: Game, unit: str, by: str | None) -> None:
    """A friend goes out of action: his friends' Nerve tests and his Blood Brother's roll follow."""
    flow.push(g, {"do": "nerve_casualty", "unit": unit}, {"do": "brother_casualty", "unit": unit, "by": by},
              front=False)


def apply_result(g: Game, unit: str, result: str, by: str | None) -> list[Event]:
    """A wound table's result on a figure (OUT_OF_ACTION here is final: the unconscious roll and the
    lucky shot come before)."""
    if result == NO_EFFECT:
        return []
    if result == OUT_OF_ACTION:
        return out_of_action(g, unit, by)
    if result == WOUNDED:
        return wound(g, unit, by)
    if result == KNOCKED_DOWN_NERVE:
        return knock_down(g, unit, by, True)
    return knock_down(g, unit, by, False)   # KNOCKED_DOWN (a headlock is the fight's business)


def stand_up(g: Game, unit: str) -> list[Event]:
    figure = g.state.figures[unit]
    g.state.figures[unit] = replace(figure, status=STANDING, needs_nerve=False)
    return [g.event("stood_up", unit=unit)]
