"""Exact odds of a volley (Shooting, Multiple Shots & Ammunition, Two Pistols, Scatter Guns, Wounding):
the chance to hit, the wound table's outcomes, the target's state after the shots, running dry.

Layer: rulesets (Blaze of Glory). No sampling: a TEST passes on the faces of a d6 at most the value
(1 always, 6 never), a wound roll is read on the shooting table with the weapon's modifier ("a 6
is always a 6"; DEAD EYE keeps the better of two dice), every shot at the same target moves its
state (standing -> knocked down -> wounded -> out of action: a wounded figure wounded again goes
out of action, a knock down leaves a wounded figure wounded), and the weapon runs dry on any double
among the to-hit dice of two or three shots from one weapon. Hero Points (the lucky shot) and
other skills are left out. The AI and `bow3d odds --ruleset blaze-of-glory` use these functions.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

from bow3d.i18n import N_, _, current, ngettext
from bow3d.rulesets.blaze_of_glory.book import (
    KNOCKED_DOWN,
    KNOCKED_DOWN_NERVE,
    NO_EFFECT,
    OUT_OF_ACTION,
    SHOOTING_TABLE,
    WEAPONS,
    WOUNDED,
    passes,
    table_result,
)
from bow3d.rulesets.blaze_of_glory.modifier_words import say

STATES = ("standing", "knocked_down", "wounded", "out_of_action")
RESULTS = (OUT_OF_ACTION, WOUNDED, KNOCKED_DOWN_NERVE, KNOCKED_DOWN, NO_EFFECT)
WOUND_WORDS = {OUT_OF_ACTION: N_("out of action"), WOUNDED: N_("wounded"), KNOCKED_DOWN_NERVE: N_("knocked down nerve"),
               KNOCKED_DOWN: N_("knocked down"), NO_EFFECT: N_("no effect")}
FACES = range(1, 7)



def _pct(fraction: float, width: int = 6, digits: int = 2) -> str:
    """100 x `fraction` with `digits` decimals, right-aligned in `width`, the language's way."""
    text = f"{100 * fraction:{width}.{digits}f}" if width else f"{100 * fraction:.{digits}f}"
    return text.replace(".", ",") if current() == "fr" else text

def p_pass(value: int) -> float:
    """A TEST against `value`: the share of d6 faces that pass."""
    return sum(1 for d in FACES if passes(d, value)) / 6.0


def wound_distribution(modifier: int, dead_eye: bool = False, table: dict[int, str] = SHOOTING_TABLE
                       ) -> dict[str, float]:
    """Result -> probability of one wound roll (the best of two dice with DEAD EYE)."""
    out = dict.fromkeys(set(table.values()), 0.0)
    if dead_eye:
        for a, b in itertools.product(FACES, repeat=2):
            out[table_result(table, min(a, b), modifier)] += 1 / 36
    else:
        for d in FACES:
            out[table_result(table, d, modifier)] += 1 / 6
    return out


def next_state(state: str, result: str) -> str:
    """The target's state after one wound result (the readings of bow3d...status)."""
    if state == "out_of_action" or result == NO_EFFECT:
        return state
    if result == OUT_OF_ACTION:
        return "out_of_action"
    if result == WOUNDED:
        return "out_of_action" if state == "wounded" else "wounded"
    return "knocked_down" if state == "standing" else state   # a knock down


def p_doubles(n: int) -> float:
    """Any two of n d6 equal."""
    return 0.0 if n < 2 else 1.0 - math.perm(6, n) / 6 ** n if n <= 6 else 1.0


@dataclass(frozen=True)
class Volley:
    """The odds of a volley at one target."""

    values: tuple[int, ...]                 # the modified S of each shot
    p_hit: tuple[float, ...]                # each shot
    wound: dict[str, float]                 # one hit: result -> probability
    hits: dict[int, float]                  # number of hits -> probability
    final: dict[str, float]                 # the target's state after the volley -> probability
    p_out_of_ammo: float

    @property
    def p_any_hit(self) -> float:
        return 1.0 - self.hits.get(0, 0.0)

    @property
    def expected_hits(self) -> float:
        return math.fsum(k * p for k, p in self.hits.items())

    def to_dict(self) -> dict[str, Any]:
        return {"values": list(self.values), "p_hit": self.p_hit[0] if len(set(self.p_hit)) == 1 else list(self.p_hit),
                "p_hit_each": list(self.p_hit), "p_any_hit": self.p_any_hit, "expected_hits": self.expected_hits,
                "hits": {str(k): v for k, v in sorted(self.hits.items())},
                "wound_table": {r: self.wound.get(r, 0.0) for r in RESULTS},
                "p_out_of_action": self.final["out_of_action"], "p_wounded": self.final["wounded"],
                "p_knocked_down": self.final["knocked_down"], "p_unhurt": self.final["standing"],
                "p_out_of_ammo": self.p_out_of_ammo}


def volley(values: tuple[int, ...], wound_modifier: int = 0, dead_eye: bool = False, runs_dry: bool = False,
           start: str = "standing") -> Volley:
    """Exact odds of shots with these modified S values at one target (independent dice)."""
    p_hit = tuple(p_pass(v) for v in values)
    wound = wound_distribution(wound_modifier, dead_eye)
    hits = {0: 1.0}
    final = dict.fromkeys(STATES, 0.0)
    final[start] = 1.0
    for p in p_hit:
        hits = _convolve(hits, p)
        after = dict.fromkeys(STATES, 0.0)
        for state, q in final.items():
            after[state] += q * (1.0 - p)
            for result, r in wound.items():
                after[next_state(state, result)] += q * p * r
        final = after
    return Volley(values, p_hit, wound, hits, final, p_doubles(len(values)) if runs_dry else 0.0)


def _convolve(hits: dict[int, float], p: float) -> dict[int, float]:
    out: dict[int, float] = {}
    for k, q in hits.items():
        out[k] = out.get(k, 0.0) + q * (1.0 - p)
        out[k + 1] = out.get(k + 1, 0.0) + q * p
    return out


def modified_values(shoot: int, *, weapon: str = "pistol", shots: int = 1, aimed: bool = False,
                    point_blank: bool = False, cover: str | None = None, half_range: bool = False,
                    ran: bool = False, stood_up: bool = False, two_pistols: bool = False) -> tuple[tuple[int, ...],
                                                                                                   list[str]]:
    """The modified S of each shot and the modifiers in words (Shooting; Scatter Guns; Two Pistols)."""
    kind = WEAPONS[weapon]
    words: list[str] = []
    total = 0
    if kind.template:
        if cover in ("partial", "full"):
            total -= 1
            words.append("-1 cover (all cover counts as partial)")
    else:
        for flag, amount, word in ((aimed, 1, "+1 aiming"), (point_blank, 1, "+1 point blank"),
                                   (cover == "partial", -1, "-1 partial cover"), (cover == "full", -2, "-2 full cover"),
                                   (half_range, -1, "-1 over half range")):
            if flag:
                total += amount
                words.append(word)
    for flag, word in ((ran, "-1 ran"), (stood_up, "-1 stood up this turn")):
        if flag:
            total -= 1
            words.append(word)
    if two_pistols:
        words.insert(0, f"S split: {(shoot + 1) // 2} and {shoot // 2}")
        return ((shoot + 1) // 2 + total, shoot // 2 + total), words
    if shots == 2:
        total -= 1
        words.append("-1 each of two shots")
    elif shots == 3:
        total -= 2
        words.append("-2 each of three shots")
    return (shoot + total,) * shots, words


# -- `bow3d odds` for Blaze of Glory (the command asks each ruleset for its options and its answer) ----
def add_odds_arguments(group: Any) -> None:
    """Blaze of Glory's options of `bow3d odds` (the shared --cover, --json and --ruleset are the command's)."""
    group.add_argument("--shoot", type=int, metavar="S", help="blaze-of-glory: the shooter's SHOOT value")
    group.add_argument("--weapon", choices=("pistol", "rifle", "shotgun", "bow", "thrown"), default=None,
                       help="blaze-of-glory: the weapon (default pistol); rifle and shotgun wound at -1")
    group.add_argument("--shots", type=int, default=None, metavar="N",
                       help="blaze-of-glory: shots at the target (pistol up to 3, rifle 2)")
    group.add_argument("--aimed", action="store_true", help="blaze-of-glory: +1, the shooter did not move")
    group.add_argument("--point-blank", action="store_true", help="blaze-of-glory: +1, under 3 inches")
    group.add_argument("--half-range", action="store_true", help="blaze-of-glory: -1, over half range")
    group.add_argument("--ran", action="store_true", help="blaze-of-glory: -1, the shooter ran")
    group.add_argument("--stood-up", action="store_true", help="blaze-of-glory: -1, stood up this turn (one shot)")
    group.add_argument("--two-pistols", action="store_true", help="blaze-of-glory: one shot from each pistol, S split")
    group.add_argument("--dead-eye", action="store_true", help="blaze-of-glory: DEAD EYE, the best of two dice to "
                       "wound (not with a shotgun)")


def odds_report(args: Any) -> tuple[list[str], dict[str, Any]]:
    """The odds `bow3d odds --ruleset blaze-of-glory` prints (lines) and its JSON; UserInputError for bad options."""
    from bow3d.errors import UserInputError

    if getattr(args, "bricks", None) is not None or getattr(args, "resist", None) is not None:
        raise UserInputError(_("blaze-of-glory odds take no ATTACK DODGE numbers: give --shoot S and "
                               "the modifiers"))
    if args.shoot is None:
        raise UserInputError(_("blaze-of-glory odds need --shoot S (the shooter's SHOOT value, 0 to 10)"))
    if not 0 <= args.shoot <= 10:
        raise UserInputError(_("--shoot {shoot}: a SHOOT value is 0 to 10").format(shoot=args.shoot))
    weapon = args.weapon or "pistol"
    kind = WEAPONS[weapon]
    if args.cover not in (None, "partial", "full"):
        raise UserInputError(_("--cover {cover}: name the level, partial or full (Shooting)").format(cover=args.cover))
    most = 1 if (args.stood_up or kind.template) else kind.max_shots
    if args.two_pistols:
        if weapon != "pistol" or args.shots not in (None, 2) or args.stood_up:
            raise UserInputError(_("--two-pistols fires one pistol shot from each hand (2 shots), not "
                                   "after standing up"))
        shots = 2
    else:
        shots = 1 if args.shots is None else args.shots
        if not 1 <= shots <= most:
            raise UserInputError(_("--shots {shots}: the {weapon} fires 1 to {most} shot(s) here "
                                   "(Multiple Shots & Ammunition; one after standing up)")
                                 .format(shots=shots, weapon=weapon, most=most))
    if kind.template and (args.aimed or args.point_blank or args.half_range):
        raise UserInputError(_("a scatter gun takes only the running, standing up and cover modifiers "
                               "(Scatter Guns)"))
    if kind.template and args.dead_eye:
        raise UserInputError(_("DEAD EYE may not be used with a shotgun (Skills)"))
    values, words = modified_values(args.shoot, weapon=weapon, shots=shots, aimed=args.aimed,
                                    point_blank=args.point_blank, cover=args.cover, half_range=args.half_range,
                                    ran=args.ran, stood_up=args.stood_up, two_pistols=args.two_pistols)
    result = volley(values, kind.wound_modifier, args.dead_eye, kind.runs_dry and not args.two_pistols)
    head = ngettext("S {shoot} with a {weapon}: {n} shot at {values}", "S {shoot} with a {weapon}: {n} shots at {values}",
                    len(values)).format(shoot=args.shoot, weapon=weapon, n=len(values),
                                        values=", ".join(str(v) for v in values)) + (
        f" ({'; '.join(say(w) for w in words)})" if words else "")
    def row(label, value):
        return f"{_(label):<20} {value}"
    lines = [head, row(N_("to hit (each)"), ", ".join(f"{_pct(p, 0)} %" for p in result.p_hit)),
             row(N_("at least one hit"), f"{_pct(result.p_any_hit)} %"),
             row(N_("expected hits"), _pct(result.expected_hits / 100, width=0, digits=4)),
             _("a hit on the wound table") + (f" ({kind.wound_modifier:+d} {weapon})" if kind.wound_modifier else "")
             + (" (DEAD EYE)" if args.dead_eye else "") + ":"]
    lines += ["  " + row(WOUND_WORDS.get(r, r.replace("_", " ")), f"{_pct(result.wound.get(r, 0.0))} %")
              for r in RESULTS]
    lines += [_("the target after the shots:"),
              "  " + row(N_("out of action"), f"{_pct(result.final['out_of_action'])} %"),
              "  " + row(N_("wounded"), f"{_pct(result.final['wounded'])} %"),
              "  " + row(N_("knocked down"), f"{_pct(result.final['knocked_down'])} %"),
              "  " + row(N_("unhurt"), f"{_pct(result.final['standing'])} %"),
              row(N_("out of ammo"), f"{_pct(result.p_out_of_ammo)} %")]
    data = {"kind": "shoot", "weapon": weapon, "shoot": args.shoot, "shots": len(values), "modifiers": words,
            **result.to_dict()}
    return lines, data
