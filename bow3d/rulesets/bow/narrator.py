"""BOW 1.3's words: the battle-log line of every event, in English.

Layer: rulesets (BOW). Words at the edges: events hold facts only (bow3d.rulesets.bow.events),
and this narrator turns them into the lines a player reads in `replay show`, the play UI's log
and the film's captions. Rewording a line here changes no replay and no verification.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from bow3d.rules.events import Event, Narrator
from bow3d.rulesets.bow.context import STUDS_PER_SPEED

QUIET_KINDS = frozenset({"roll_requested"})  # the roll itself ('rolled') says it all in a log


def bricks(n: int) -> str:
    """'1 brick' / '3 bricks'."""
    return f"{n} brick" if n == 1 else f"{n} bricks"


def _cell(value: Sequence[Any]) -> str:
    return f"({value[0]}, {value[1]})"


def purpose_words(purpose: str, about: dict[str, Any]) -> str:
    """What a throw is for, in words ('attack/damage: blue-3 on red-2')."""
    unit, target, vehicle = about.get("unit"), about.get("target"), about.get("vehicle")
    words = {
        "starting_player": "starting player",
        "attack": f"attack/damage: {unit} on {target}",
        "dodge": f"dodge/armor: {target}",
        "dispute_sees": f"visibility dispute: {unit} sees {target}",
        "dispute_hidden": f"visibility dispute: {target} is hidden",
        "treat": f"treat/repair: {unit} on {target}",
        "damage_points": f"damage points of {target}",
        "crash_speed": f"crash speed of {vehicle}",
        "collision_speed": f"collision speed of {vehicle}",
        "relative_speed": f"relative speed against {vehicle}",
    }
    return words.get(purpose, purpose.replace("_", " "))


def _spec_words(spec: dict[str, Any]) -> str:
    if spec.get("kind") == "bricks":
        return bricks(int(spec.get("n", 0)))
    if spec.get("kind") == "dice":
        return f"{spec.get('count')}d{spec.get('sides')}"
    return str(spec.get("kind", "?"))


def _outcome_words(spec: dict[str, Any], outcome: Any) -> str:
    if spec.get("kind") == "bricks":
        return f"{outcome} on edge"
    return str(outcome)


def _attack(e: Event) -> str:
    d = e.data
    if d.get("melee"):
        text = f"{d['unit']} strikes {d['target']} with its {d['weapon']}"
    else:
        how = [f"{float(d['distance']):.1f} studs"] + ([f"-{bricks(d['range_penalty'])}"] if d["range_penalty"] else [])
        how += ["covered"] if d["covered"] else []
        text = f"{d['unit']} fires its {d['weapon']} at {d['target']} ({', '.join(how)})"
    return text + f": {d['attack_bricks']} attack against {d['dodge_bricks']} dodge"


def _attack_result(e: Event, following: Sequence[Event]) -> str:
    d = e.data
    result = f"{d['damage']} damage" if d["damage"] else "no effect"
    for later in following:
        if later.kind == "destroyed" and later.get("vehicle") == d["target"]:
            result += f", {d['target']} is destroyed"
            break
        if later.kind == "died" and later.get("unit") == d["target"]:
            result += f", {d['target']} dies"
            break
    return f"{d['unit']} on {d['target']}: {d['attack']} attack bricks on edge vs {d['dodge']} dodge: {result}"


def _collision(e: Event) -> str:
    d = e.data
    if d["kind"] in ("decor", "ground") or d.get("other") is None:
        return f"{d['vehicle']} crashes into the {d['kind']} at speed {d['relative_speed']}"
    if d["kind"] == "unit":
        return f"{d['vehicle']} hits {d['other']} at speed {d['relative_speed']}"
    return f"{d['vehicle']} hits {d['other']} ({d['sector']} sector): relative speed {d['relative_speed']}"


def _placed(e: Event) -> str:
    cell = _cell([math.floor(v) for v in e.data["position"]])
    verb = "is thrown out at" if e.data.get("reason") == "thrown_out" else "is pushed aside to"
    return f"{e.data['unit']} {verb} {cell}"


def _moved(e: Event) -> str:
    d = e.data
    if not d["path"]:
        return f"{d['unit']} turns to {float(d['facing']):.0f} degrees"
    return f"{d['unit']} moves {len(d['path'])} studs to {_cell(d['to'])}, facing {float(d['facing']):.0f}"


def _treat_result(e: Event) -> str:
    d = e.data
    healed = d["healed"]
    result = f"{healed} damage point{'s' if healed != 1 else ''} removed" if healed else "no effect"
    return f"{d['unit']} on {d['target']}: {d['treat']} against {d['resist']} on edge: {result}"


LINES: dict[str, Callable[[Event], str]] = {
    "game_started": lambda e: f"Game starts: {', '.join(e.data['sides'])}",
    "roll_requested": lambda e: (f"{e.data['side']} rolls {_spec_words(e.data['spec'])} "
                                 f"({purpose_words(e.data['purpose'], e.data['about'])})"),
    "rolled": lambda e: (f"{e.data['side']} rolls {_spec_words(e.data['spec'])} "
                         f"({purpose_words(e.data['purpose'], e.data['about'])}): "
                         f"{_outcome_words(e.data['spec'], e.data['outcome'])}"),
    "decision_requested": lambda e: f"{e.data['side']} decides ({e.data['decision'].replace('_', ' ')})",
    "decided": lambda e: f"{e.data['side']} decides ({e.data['decision'].replace('_', ' ')}): {e.data['choice']}",
    "starting_tie": lambda e: f"tie at {e.data['edges']} between {', '.join(e.data['sides'])}: roll again",
    "starting_player": lambda e: f"{e.data['side']} starts ({e.data['edges']} on edge)",
    "round_started": lambda e: f"{e.data['starter']} starts; played units {e.data['marking']} a marking brick",
    "turn_started": lambda e: f"{e.data['unit']}'s turn",
    "turn_ended": lambda e: f"{e.data['unit']} ends its turn ({e.data['actions']} actions)",
    "round_ended": lambda e: f"round {e.round} is over",
    "game_over": lambda e: (f"game over: {e.data['winner'] + ' wins' if e.data['winner'] else 'draw'} "
                            f"({e.data['result']})"),
    "round_limit": lambda e: "round limit reached; cost points in play: " + ", ".join(
        f"{side} {value}" for side, value in e.data["points"].items()),
    "moved": _moved,
    "grabbed": lambda e: f"{e.data['unit']} grabs the {e.data['item']}",
    "thrown": lambda e: f"{e.data['unit']} throws the {e.data['item']} to {_cell(e.data['to'])}",
    "given": lambda e: f"{e.data['unit']} gives the {e.data['item']} to {e.data['receiver']}",
    "switched": lambda e: f"{e.data['unit']} takes its {e.data['weapon']} in hand (damage {e.data['damage']})",
    "door": lambda e: f"{e.data['unit']} {'opens' if e.data['open'] else 'closes'} {e.data['door']}",
    "got_on": lambda e: (f"{e.data['unit']} gets on {e.data['vehicle']} "
                         f"({'pilot' + chr(39) + 's seat' if e.data['seat'] == 0 else 'seat ' + str(e.data['seat'])})"),
    "got_off": lambda e: f"{e.data['unit']} gets off {e.data['vehicle']} at {_cell(e.data['to'])}",
    "speed_changed": lambda e: (f"{e.data['vehicle']} goes from speed {e.data['previous']} to {e.data['speed']} "
                                f"({e.data['speed'] * STUDS_PER_SPEED} studs)"),
    "landed": lambda e: f"{e.data['vehicle']} lands",
    "turned": lambda e: f"{e.data['vehicle']} turns {float(e.data['delta_deg']):g} degrees to {float(e.data['facing']):.0f}",
    "vehicle_moved": lambda e: f"{e.data['vehicle']} moves {float(e.data['distance']):.1f} studs",
    "collision": _collision,
    "stopped": lambda e: f"{e.data['vehicle']} stops" + (f" against {e.data['against']}" if e.data.get("against")
                                                          else ""),
    "left_field": lambda e: f"{e.data['vehicle']} leaves the battlefield" + (
        f" with {', '.join(e.data['occupants'])}" if e.data["occupants"] else ""),
    "attack": _attack,
    "dispute_result": lambda e: (f"visibility dispute {e.data['attacker_edges']} against {e.data['defender_edges']}: "
                                 f"{e.data['target']} " + ("counts as visible (and covered)" if e.data["won"]
                                                           else "stays hidden: the attack is lost")),
    "damaged": lambda e: f"{e.data['id']} takes {e.data['amount']} damage ({e.data['damage']}/{e.data['hp']})",
    "died": lambda e: f"{e.data['unit']} dies",
    "destroyed": lambda e: f"{e.data['vehicle']} is destroyed",
    "placed": _placed,
    "treat": lambda e: (f"{e.data['unit']} {'repairs' if e.data['repair'] else 'treats'} {e.data['target']}: "
                        f"{bricks(e.data['treat_bricks'])} against {e.data['resist_bricks']} damage points"),
    "treat_result": _treat_result,
}


class EnglishNarrator(Narrator):
    """BOW 1.3's battle log in English (the words of the rule book's English edition)."""

    language = "en"

    def line(self, event: Event, following: Sequence[Event] = ()) -> str | None:
        if event.kind == "attack_result":
            return _attack_result(event, following)
        say = LINES.get(event.kind)
        return say(event) if say is not None else f"{event.kind.replace('_', ' ')}"

    def log_line(self, event: Event, following: Sequence[Event] = ()) -> str | None:
        """The line for a battle log: None for the announcements a roll repeats (QUIET_KINDS)."""
        return None if event.kind in QUIET_KINDS else self.line(event, following)


# -- the referee's sentence on a line of sight (bow3d los) -------------------------------------------
VERDICT_BLOCKERS = 3   # blockers named in a verdict; the rest are summed up


def percent(fraction: float) -> str:
    """'62%'-style words that never round a little to nothing: '<1%' and '>99%' at the ends."""
    if 0.0 < fraction < 0.005:
        return "<1%"
    if 0.995 <= fraction < 1.0:
        return ">99%"
    return f"{fraction:.0%}"


def _blocker_words(blocker: Any) -> str:
    """'3004.dat, Light_Bluish_Grey, village.ldr line 212' or 'unit red-1'."""
    if blocker.kind == "decor":
        where = f", {blocker.file} line {blocker.line}" if getattr(blocker, "file", None) else ""
        return f"{blocker.part}, {blocker.colour}{where}"
    return f"{blocker.kind} {blocker.id}"


def sight_sentence(report: Any, verdict: Any) -> str:
    """BOW's verdict on a line of sight in one paragraph, as a referee would say it (§2.4.2)."""
    by_share = getattr(report, "blockers_by_share", None)  # the biggest share first
    blockers = tuple(by_share) if by_share is not None else sorted(report.blockers, key=lambda b: -b.share)
    named = [f"{_blocker_words(b)} ({percent(b.share)})" for b in blockers[:VERDICT_BLOCKERS]]
    rest = blockers[VERDICT_BLOCKERS:]
    if rest:
        named.append(f"{len(rest)} more ({percent(sum(b.share for b in rest))})")
    hiders = ", ".join(named)
    penalty = verdict.range_penalty
    rng = f"{report.distance_studs:.1f} studs: " + (f"-{bricks(penalty)}" if penalty else "no range penalty")
    arc = "in front arc" if report.in_front_arc else "NOT in front arc (behind the firer)"
    if not getattr(verdict, "visible", report.visible):
        why = f"hidden by {hiders}" if hiders else "no part of it faces the firer"
        return f"{report.firer} cannot see {report.target}: {why}; {rng}, {arc}."
    hidden = 1.0 - report.visible_fraction
    seen = f"{percent(report.visible_fraction)} visible"
    glass = float(getattr(verdict, "through_glass", 0.0) or 0.0)
    if glass > 0.0:  # BOW revision 2: glass hides nothing (seen through it) but covers (counted as hidden)
        seen += f" and {percent(glass)} through glass"
    if verdict.covered:
        cover = f"covered ({percent(hidden)} hidden by {hiders}; cover from {verdict.cover_threshold:.0%})"
    elif hiders:
        cover = f"not covered ({percent(hidden)} hidden by {hiders}, under {verdict.cover_threshold:.0%})"
    else:
        cover = "not covered (nothing in the way)"
    return f"{report.firer} can see {report.target}: {seen}, {cover}, {rng}, {arc}."
