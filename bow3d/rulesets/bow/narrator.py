"""BOW 1.3's words: the battle-log line of every event, in English.

Layer: rulesets (BOW). Words at the edges: events hold facts only (bow3d.rulesets.bow.events),
and this narrator turns them into the lines a player reads in `replay show`, the play UI's log
and the film's captions. Rewording a line here changes no replay and no verification.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from bow3d.i18n import (
    N_,
    _,
    current,
    decimal,
    ngettext,
    speaking,
    term,
    whole_percent as percent,  # imported by los_picture too
)
from bow3d.rules.events import Event, Narrator
from bow3d.rulesets.bow.context import STUDS_PER_SPEED

QUIET_KINDS = frozenset({"roll_requested"})  # the roll itself ('rolled') says it all in a log


def bricks(n: int) -> str:
    """'1 brick' / '3 bricks' ('1 brique' / '3 briques')."""
    return ngettext("{n} brick", "{n} bricks", n).format(n=n)


def studs(distance: float) -> str:
    """'22.4 studs' ('22,4 tenons')."""
    return _("{distance} studs").format(distance=decimal(float(distance)))


def band_words(radius: float, penalty: int) -> str:
    """A range band's ring (§2.4.2): '15 studs', '30 studs: -1 brick'."""
    reach = _("{distance} studs").format(distance=f"{radius:g}")
    return _("{distance}: {penalty}").format(distance=reach, penalty=f"-{bricks(penalty)}") if penalty else reach


def _cell(value: Sequence[Any]) -> str:
    return f"({value[0]}, {value[1]})"


def purpose_words(purpose: str, about: dict[str, Any]) -> str:
    """What a throw is for, in words ('attack/damage: blue-3 on red-2')."""
    names = {"unit": about.get("unit"), "target": about.get("target"), "vehicle": about.get("vehicle")}
    words = {
        "starting_player": lambda: _("starting player"),
        "attack": lambda: _("attack/damage: {unit} on {target}"),
        "dodge": lambda: _("dodge/armor: {target}"),
        "dispute_sees": lambda: _("visibility dispute: {unit} sees {target}"),
        "dispute_hidden": lambda: _("visibility dispute: {target} is hidden"),
        "treat": lambda: _("treat/repair: {unit} on {target}"),
        "damage_points": lambda: _("damage points of {target}"),
        "crash_speed": lambda: _("crash speed of {vehicle}"),
        "collision_speed": lambda: _("collision speed of {vehicle}"),
        "relative_speed": lambda: _("relative speed against {vehicle}"),
    }
    say = words.get(purpose)
    return say().format(**names) if say is not None else purpose.replace("_", " ")


def _spec_words(spec: dict[str, Any]) -> str:
    if spec.get("kind") == "bricks":
        return bricks(int(spec.get("n", 0)))
    if spec.get("kind") == "dice":
        return f"{spec.get('count')}d{spec.get('sides')}"
    return str(spec.get("kind", "?"))


def _outcome_words(spec: dict[str, Any], outcome: Any) -> str:
    if spec.get("kind") == "bricks":
        return _("{edges} on edge").format(edges=outcome)
    return str(outcome)


def _attack(e: Event) -> str:
    d = e.data
    if d.get("melee"):
        text = _("{unit} strikes {target} with its {weapon}").format(unit=d["unit"], target=d["target"],
                                                                      weapon=d["weapon"])
    else:
        how = [studs(d["distance"])] + ([f"-{bricks(d['range_penalty'])}"] if d["range_penalty"] else [])
        how += [_("covered")] if d["covered"] else []
        text = _("{unit} fires its {weapon} at {target} ({how})").format(unit=d["unit"], weapon=d["weapon"],
                                                                         target=d["target"], how=", ".join(how))
    return text + _(": {attack} attack against {dodge} dodge").format(attack=d["attack_bricks"],
                                                                       dodge=d["dodge_bricks"])


def _attack_result(e: Event, following: Sequence[Event]) -> str:
    d = e.data
    result = _("{damage} damage").format(damage=d["damage"]) if d["damage"] else _("no effect")
    for later in following:
        if later.kind == "destroyed" and later.get("vehicle") == d["target"]:
            result += _(", {target} is destroyed").format(target=d["target"])
            break
        if later.kind == "died" and later.get("unit") == d["target"]:
            result += _(", {target} dies").format(target=d["target"])
            break
    return _("{unit} on {target}: {attack} attack bricks on edge vs {dodge} dodge: {result}").format(
        unit=d["unit"], target=d["target"], attack=d["attack"], dodge=d["dodge"], result=result)


def _collision(e: Event) -> str:
    d = e.data
    if d["kind"] in ("decor", "ground") or d.get("other") is None:
        what = _("the decor") if d["kind"] == "decor" else _("the ground") if d["kind"] == "ground" else d["kind"]
        return _("{vehicle} crashes into {what} at speed {speed}").format(vehicle=d["vehicle"], what=what,
                                                                          speed=d["relative_speed"])
    if d["kind"] == "unit":
        return _("{vehicle} hits {other} at speed {speed}").format(vehicle=d["vehicle"], other=d["other"],
                                                                   speed=d["relative_speed"])
    return _("{vehicle} hits {other} ({sector} sector): relative speed {speed}").format(
        vehicle=d["vehicle"], other=d["other"], sector=sector_words(d["sector"]), speed=d["relative_speed"])


def sector_words(sector: str) -> str:
    """A vehicle's sector (§3.6.3) in words: 'front', 'side', 'back' ('avant', 'côté', 'arrière')."""
    names = {"front": lambda: _("front"), "side": lambda: _("side"), "back": lambda: _("back")}
    say = names.get(str(sector))
    return say() if say is not None else str(sector)


def _placed(e: Event) -> str:
    cell = _cell([math.floor(v) for v in e.data["position"]])
    if e.data.get("reason") == "thrown_out":
        return _("{unit} is thrown out at {cell}").format(unit=e.data["unit"], cell=cell)
    return _("{unit} is pushed aside to {cell}").format(unit=e.data["unit"], cell=cell)


def _moved(e: Event) -> str:
    d = e.data
    if not d["path"]:
        return _("{unit} turns to {facing} degrees").format(unit=d["unit"], facing=f"{float(d['facing']):.0f}")
    # English says "1 studs", as the version-1 logs did (tests/replay/test_version1.py); French agrees in number
    return ngettext("{unit} moves {n} studs to {cell}, facing {facing}", "{unit} moves {n} studs to {cell}, facing {facing}",
                    len(d["path"])).format(unit=d["unit"], n=len(d["path"]), cell=_cell(d["to"]),
                                           facing=f"{float(d['facing']):.0f}")


def _treat_result(e: Event) -> str:
    d = e.data
    healed = d["healed"]
    result = (ngettext("{n} damage point removed", "{n} damage points removed", healed).format(n=healed)
              if healed else _("no effect"))
    return _("{unit} on {target}: {treat} against {resist} on edge: {result}").format(
        unit=d["unit"], target=d["target"], treat=d["treat"], resist=d["resist"], result=result)


def _rolled(e: Event, announced: bool = False) -> str:
    d = e.data
    words = {"side": d["side"], "spec": _spec_words(d["spec"]), "purpose": purpose_words(d["purpose"], d["about"])}
    if announced:
        return _("{side} rolls {spec} ({purpose})").format(**words)
    return _("{side} rolls {spec} ({purpose}): {outcome}").format(**words,
                                                                  outcome=_outcome_words(d["spec"], d["outcome"]))


def _decision(e: Event, decided: bool) -> str:
    d = e.data
    what = d["decision"].replace("_", " ")
    if decided:
        return _("{side} decides ({decision}): {choice}").format(side=d["side"], decision=what, choice=d["choice"])
    return _("{side} decides ({decision})").format(side=d["side"], decision=what)


RESULT_WORDS = {"win": N_("win"), "draw": N_("draw"), "points": N_("points")}   # game_over's result (turns.py)


def _game_over(e: Event) -> str:
    d = e.data
    result = term(RESULT_WORDS, d["result"])
    if d["winner"]:
        return _("game over: {winner} wins ({result})").format(winner=d["winner"], result=result)
    return _("game over: draw ({result})").format(result=result)


def _seat(e: Event) -> str:
    d = e.data
    seat = _("pilot's seat") if d["seat"] == 0 else _("seat {n}").format(n=d["seat"])
    return _("{unit} gets on {vehicle} ({seat})").format(unit=d["unit"], vehicle=d["vehicle"], seat=seat)


def _speed(e: Event) -> str:
    d = e.data
    return _("{vehicle} goes from speed {previous} to {speed} ({distance})").format(
        vehicle=d["vehicle"], previous=d["previous"], speed=d["speed"],
        distance=_("{distance} studs").format(distance=f"{d['speed'] * STUDS_PER_SPEED:g}"))


def _left(e: Event) -> str:
    d = e.data
    if d["occupants"]:
        return _("{vehicle} leaves the battlefield with {occupants}").format(vehicle=d["vehicle"],
                                                                            occupants=", ".join(d["occupants"]))
    return _("{vehicle} leaves the battlefield").format(vehicle=d["vehicle"])


def _dispute(e: Event) -> str:
    d = e.data
    if d["won"]:
        text = _("visibility dispute {attacker} against {defender}: {target} counts as visible (and covered)")
    else:
        text = _("visibility dispute {attacker} against {defender}: {target} stays hidden: the attack is lost")
    return text.format(attacker=d["attacker_edges"], defender=d["defender_edges"], target=d["target"])


def _treat(e: Event) -> str:
    d = e.data
    points = int(d["resist_bricks"])
    text = (ngettext("{unit} repairs {target}: {bricks} against {points} damage point",
                     "{unit} repairs {target}: {bricks} against {points} damage points", points) if d["repair"] else
            ngettext("{unit} treats {target}: {bricks} against {points} damage point",
                     "{unit} treats {target}: {bricks} against {points} damage points", points))
    return text.format(unit=d["unit"], target=d["target"], bricks=bricks(d["treat_bricks"]), points=d["resist_bricks"])


LINES: dict[str, Callable[[Event], str]] = {
    "game_started": lambda e: _("Game starts: {sides}").format(sides=", ".join(e.data["sides"])),
    "roll_requested": lambda e: _rolled(e, announced=True),
    "rolled": _rolled,
    "decision_requested": lambda e: _decision(e, False),
    "decided": lambda e: _decision(e, True),
    "starting_tie": lambda e: _("tie at {edges} between {sides}: roll again").format(
        edges=e.data["edges"], sides=", ".join(e.data["sides"])),
    "starting_player": lambda e: _("{side} starts ({edges} on edge)").format(side=e.data["side"],
                                                                            edges=e.data["edges"]),
    "round_started": lambda e: _("{starter} starts; played units {marking} a marking brick").format(
        starter=e.data["starter"], marking=marking_words(e.data["marking"])),
    "turn_started": lambda e: _("{unit}'s turn").format(unit=e.data["unit"]),
    "turn_ended": lambda e: ngettext("{unit} ends its turn ({n} actions)", "{unit} ends its turn ({n} actions)",
                                     e.data["actions"]).format(unit=e.data["unit"], n=e.data["actions"]),
    "round_ended": lambda e: _("round {n} is over").format(n=e.round),
    "game_over": _game_over,
    "round_limit": lambda e: _("round limit reached; cost points in play: {points}").format(points=", ".join(
        f"{side} {value}" for side, value in e.data["points"].items())),
    "moved": _moved,
    "grabbed": lambda e: _("{unit} grabs the {item}").format(unit=e.data["unit"], item=e.data["item"]),
    "thrown": lambda e: _("{unit} throws the {item} to {cell}").format(unit=e.data["unit"], item=e.data["item"],
                                                                       cell=_cell(e.data["to"])),
    "given": lambda e: _("{unit} gives the {item} to {receiver}").format(unit=e.data["unit"], item=e.data["item"],
                                                                         receiver=e.data["receiver"]),
    "switched": lambda e: _("{unit} takes its {weapon} in hand (damage {damage})").format(
        unit=e.data["unit"], weapon=e.data["weapon"], damage=e.data["damage"]),
    "door": lambda e: (_("{unit} opens {door}") if e.data["open"] else _("{unit} closes {door}")).format(
        unit=e.data["unit"], door=e.data["door"]),
    "got_on": _seat,
    "got_off": lambda e: _("{unit} gets off {vehicle} at {cell}").format(unit=e.data["unit"],
                                                                         vehicle=e.data["vehicle"],
                                                                         cell=_cell(e.data["to"])),
    "speed_changed": _speed,
    "landed": lambda e: _("{vehicle} lands").format(vehicle=e.data["vehicle"]),
    "turned": lambda e: _("{vehicle} turns {delta} degrees to {facing}").format(
        vehicle=e.data["vehicle"], delta=f"{float(e.data['delta_deg']):g}", facing=f"{float(e.data['facing']):.0f}"),
    "vehicle_moved": lambda e: _("{vehicle} moves {distance}").format(vehicle=e.data["vehicle"],
                                                                     distance=studs(e.data["distance"])),
    "collision": _collision,
    "stopped": lambda e: (_("{vehicle} stops against {against}") if e.data.get("against") else
                          _("{vehicle} stops")).format(vehicle=e.data["vehicle"], against=e.data.get("against")),
    "left_field": _left,
    "attack": _attack,
    "dispute_result": _dispute,
    "damaged": lambda e: _("{id} takes {amount} damage ({damage}/{hp})").format(**e.data),
    "died": lambda e: _("{unit} dies").format(unit=e.data["unit"]),
    "destroyed": lambda e: _("{vehicle} is destroyed").format(vehicle=e.data["vehicle"]),
    "placed": _placed,
    "treat": _treat,
    "treat_result": _treat_result,
}


def marking_words(marking: str) -> str:
    """What the units played do with a marking brick this round (§2.2): 'add' / 'remove'."""
    names = {"add": lambda: _("add"), "remove": lambda: _("remove")}
    say = names.get(str(marking))
    return say() if say is not None else str(marking)


class BowNarrator(Narrator):
    """BOW 1.3's battle log in `language` (English: the words of the English edition; French: the
    words of the French rule book, bow3d/locale/fr)."""

    quiet_kinds = QUIET_KINDS  # a battle log leaves these out

    results = RESULT_WORDS

    def __init__(self, language: str | None = None):
        self.language = language or current()

    def line(self, event: Event, following: Sequence[Event] = ()) -> str | None:
        with speaking(self.language):
            if event.kind == "attack_result":
                return _attack_result(event, following)
            say = LINES.get(event.kind)
            return say(event) if say is not None else f"{event.kind.replace('_', ' ')}"



class EnglishNarrator(BowNarrator):
    """BOW 1.3's battle log in English, whatever the language spoken."""

    def __init__(self):
        super().__init__("en")


# -- the referee's sentence on a line of sight (bow3d los) -------------------------------------------
VERDICT_BLOCKERS = 3   # blockers named in a verdict; the rest are summed up


def _blocker_words(blocker: Any) -> str:
    """'3004.dat, Light_Bluish_Grey, village.ldr line 212' or 'unit red-1'."""
    if blocker.kind == "decor":
        where = (_(", {file} line {line}").format(file=blocker.file, line=blocker.line)
                 if getattr(blocker, "file", None) else "")
        return f"{blocker.part}, {blocker.colour}{where}"
    kinds = {"unit": lambda: _("unit"), "vehicle": lambda: _("vehicle")}
    say = kinds.get(blocker.kind)
    return f"{say() if say is not None else blocker.kind} {blocker.id}"


def sight_sentence(report: Any, verdict: Any, language: str | None = None) -> str:
    """BOW's verdict on a line of sight in one paragraph, as a referee would say it (§2.4.2), in
    `language` (default: the language spoken)."""
    with speaking(language or current()):
        return _sight_sentence(report, verdict)


def _sight_sentence(report: Any, verdict: Any) -> str:
    by_share = getattr(report, "blockers_by_share", None)  # the biggest share first
    blockers = tuple(by_share) if by_share is not None else sorted(report.blockers, key=lambda b: -b.share)
    named = [f"{_blocker_words(b)} ({percent(b.share)})" for b in blockers[:VERDICT_BLOCKERS]]
    rest = blockers[VERDICT_BLOCKERS:]
    if rest:
        named.append(_("{n} more ({share})").format(n=len(rest), share=percent(sum(b.share for b in rest))))
    hiders = ", ".join(named)
    penalty = verdict.range_penalty
    rng = _("{distance}: {penalty}").format(distance=studs(report.distance_studs),
                                            penalty=f"-{bricks(penalty)}" if penalty else _("no range penalty"))
    arc = _("in front arc") if report.in_front_arc else _("NOT in front arc (behind the firer)")
    who = {"firer": report.firer, "target": report.target}
    if not getattr(verdict, "visible", report.visible):
        why = _("hidden by {hiders}").format(hiders=hiders) if hiders else _("no part of it faces the firer")
        return _("{firer} cannot see {target}: {why}; {range}, {arc}.").format(**who, why=why, range=rng, arc=arc)
    hidden = 1.0 - report.visible_fraction
    seen = _("{share} visible").format(share=percent(report.visible_fraction))
    glass = float(getattr(verdict, "through_glass", 0.0) or 0.0)
    if glass > 0.0:  # BOW revision 2: glass hides nothing (seen through it) but covers (counted as hidden)
        seen += _(" and {share} through glass").format(share=percent(glass))
    threshold = percent(verdict.cover_threshold)
    if verdict.covered:
        cover = _("covered ({hidden} hidden by {hiders}; cover from {threshold})").format(
            hidden=percent(hidden), hiders=hiders, threshold=threshold)
    elif hiders:
        cover = _("not covered ({hidden} hidden by {hiders}, under {threshold})").format(
            hidden=percent(hidden), hiders=hiders, threshold=threshold)
    else:
        cover = _("not covered (nothing in the way)")
    return _("{firer} can see {target}: {seen}, {cover}, {range}, {arc}.").format(**who, seen=seen, cover=cover,
                                                                                   range=rng, arc=arc)
