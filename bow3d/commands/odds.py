"""`bow3d odds ATTACK DODGE`: exact odds of a BOW attack or treatment (binomial brick rolls)."""

from __future__ import annotations

import argparse
import json
import math

from bow3d.errors import UserInputError
from bow3d.rulesets.bow.chance import DEFAULT_P
from bow3d.rulesets.bow.context import DEFAULT_RANGE_BAND
from bow3d.rulesets.bow.odds import Odds, attack_odds, treat_odds
from bow3d.rulesets.bow.sight import range_penalty

MAX_BRICKS = 1000   # far beyond any sheet; exact binomials stay within floating point

NAME = "odds"
ORDER = 60
HELP = "exact odds of an attack or a treatment (success, each damage value, expected damage)"
DESCRIPTION = """Exact probabilities of a BOW 1.3 brick roll duel (no simulation): each 2x2 brick
lands on its edge with probability P (BOW §2.1, default 0.262). An attack (§2.4.2) succeeds when
the attack bricks on edge outnumber the dodge bricks on edge and deals the difference; --range
removes 1 attack brick per 15 studs beyond the first 15, --cover adds 1 dodge brick. With
--treat the two numbers are the Treat/Repair ability and the target's damage points (§2.4.4):
success removes 1 damage point (--difference: the optional rule, removes the difference).

examples:
  bow3d odds 3 2                      # Attack/Damage 3 against Dodge/Armor 2
  bow3d odds 3 2 --range 22 --cover   # 22 studs (-1 brick) on a covered target
  bow3d odds 3 2 --p 0.3 --json
  bow3d odds --treat 2 1              # a medic with Treat 2 on a unit with 1 damage point
  bow3d odds 3 2 --ruleset bow-1.3    # the ruleset (today: bow-1.3, the default)"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("bricks", type=int, metavar="ATTACK", help="Attack/Damage bricks (with --treat: Treat/Repair)")
    parser.add_argument("resist", type=int, metavar="DODGE", help="Dodge/Armor bricks (with --treat: the target's "
                        "damage points)")
    parser.add_argument("--treat", action="store_true", help="a treat/repair roll: TREAT DAMAGE_POINTS")
    parser.add_argument("--difference", action="store_true", help="with --treat: the optional rule removing the "
                        "difference (BOW §2.4.4)")
    parser.add_argument("--cover", action="store_true", help="the target is covered: +1 dodge brick (BOW §2.4.2)")
    parser.add_argument("--range", type=float, metavar="STUDS", dest="range_studs",
                        help="head-to-head distance in studs: -1 attack brick per 15 studs beyond the first 15")
    parser.add_argument("--band", type=float, default=DEFAULT_RANGE_BAND, metavar="STUDS",
                        help="range band in studs (default 15)")
    parser.add_argument("--p", type=float, default=DEFAULT_P, metavar="P",
                        help="probability that one brick lands on its edge (default 0.262)")
    parser.add_argument("--ruleset", default="bow-1.3", metavar="NAME",
                        help="the ruleset whose odds to compute (default bow-1.3; `bow3d rulesets` lists them)")
    parser.add_argument("--json", action="store_true", help="print JSON for scripts")


def _validate(args: argparse.Namespace) -> None:
    from bow3d.rulesets import get

    ruleset = get(args.ruleset)  # an unknown name: one line listing the known ones
    if ruleset.name != "bow-1.3":
        raise UserInputError(f"--ruleset {ruleset.name}: odds for this ruleset are not available yet")
    if not 0 <= args.bricks <= MAX_BRICKS or not 0 <= args.resist <= MAX_BRICKS:
        raise UserInputError(f"brick counts must be 0 to {MAX_BRICKS} (got {args.bricks} and {args.resist})")
    if not 0.0 < args.p < 1.0:
        raise UserInputError(f"--p {args.p}: a probability strictly between 0 and 1 is needed (BOW: 0.262)")
    if args.range_studs is not None and not (math.isfinite(args.range_studs) and args.range_studs >= 0):
        raise UserInputError(f"--range {args.range_studs}: a distance of 0 or more studs is needed")
    if not (math.isfinite(args.band) and args.band > 0):
        raise UserInputError(f"--band {args.band}: a positive number of studs is needed")
    if args.treat and (args.cover or args.range_studs is not None):
        raise UserInputError("--cover and --range are for attacks, not with --treat")
    if args.difference and not args.treat:
        raise UserInputError("--difference is the treat/repair optional rule: use it with --treat")


def run(args: argparse.Namespace) -> int:
    _validate(args)
    notes = []
    if args.treat:
        odds = treat_odds(args.bricks, args.resist, args.p, removes_difference=args.difference)
        kind = "treat"
    else:
        attack, dodge = args.bricks, args.resist
        if args.range_studs is not None:
            penalty = range_penalty(args.range_studs, args.band)
            if attack - penalty <= 0:
                raise UserInputError(f"at {args.range_studs:g} studs the attack loses {penalty} bricks and falls to "
                                     f"{attack - penalty}: the firer cannot attack (BOW §2.4.2)")
            attack -= penalty
            notes.append(f"{args.range_studs:g} studs: -{penalty}")
        if args.cover:
            dodge += 1
            notes.append("covered: +1 dodge")
        odds = attack_odds(attack, dodge, args.p)
        kind = "attack"
    if args.json:
        print(json.dumps({"kind": kind, **odds.to_dict(), "notes": notes}, indent=2))
        return 0
    _print(kind, odds, notes)
    return 0


def _print(kind: str, odds: Odds, notes: list[str]) -> None:
    if kind == "attack":
        head = f"attack {odds.bricks} bricks against dodge {odds.resist_bricks} bricks"
        effect = "damage"
    else:
        head = f"treat {odds.bricks} bricks against {odds.resist_bricks} damage points"
        effect = "removed"
    print(f"{head} (p = {odds.p:g}{'; ' + ', '.join(notes) if notes else ''})")
    print(f"success          {100 * odds.success:6.2f} %")
    for value, prob in sorted(odds.damage_distribution.items()):
        print(f"{effect} {value:<{15 - len(effect)}} {100 * prob:6.2f} %")
    print(f"expected {effect:<7}  {odds.expected_damage:.4f}")
