"""`bow3d odds`: exact odds of one attack (or treatment...) in any ruleset, with that ruleset's options."""

from __future__ import annotations

import argparse
import json

from bow3d.scene.model import DEFAULT_RULESET

NAME = "odds"
ORDER = 60
HELP = "exact odds of an attack or a treatment in a ruleset (no simulation)"
DESCRIPTION = """Exact probabilities of one attack (or treatment) by enumeration, no simulation, with the
options of the ruleset chosen by --ruleset (default bow-1.3; `bow3d rulesets` lists them). Each
ruleset's options are listed below under its name; --cover and --json are shared.

bow-1.3: a brick roll duel: each 2x2 brick lands on its edge with probability P (BOW §2.1,
default 0.262). An attack (§2.4.2) succeeds when the attack bricks on edge outnumber the dodge
bricks on edge and deals the difference; --range removes 1 attack brick per 15 studs beyond the
first 15, --cover adds 1 dodge brick. With --treat the two numbers are the Treat/Repair ability
and the target's damage points (§2.4.4): success removes 1 damage point (--difference: the
optional rule, removes the difference).

examples:
  bow3d odds 3 2                      # BOW: Attack/Damage 3 against Dodge/Armor 2
  bow3d odds 3 2 --range 22 --cover   # 22 studs (-1 brick) on a covered target
  bow3d odds 3 2 --p 0.3 --json
  bow3d odds --treat 2 1              # a medic with Treat 2 on a unit with 1 damage point"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from bow3d.rulesets import known

    parser.add_argument("--ruleset", default=DEFAULT_RULESET, metavar="NAME",
                        help="the ruleset whose odds to compute (default bow-1.3; `bow3d rulesets` lists them)")
    parser.add_argument("--cover", nargs="?", const="yes", metavar="LEVEL",
                        help="the target's cover: in bow-1.3 the flag alone (+1 dodge brick); other rulesets name "
                        "their level")
    parser.add_argument("--json", action="store_true", help="print JSON for scripts")
    added = set()
    for ruleset in known():
        add = getattr(ruleset, "add_odds_arguments", None)
        if add is not None and add.__func__ not in added:   # an edition of a game (bow-1.3-fr) shares its options
            added.add(add.__func__)
            add(parser.add_argument_group(f"{ruleset.name} ({ruleset.title})"))


def run(args: argparse.Namespace) -> int:
    from bow3d.rulesets import get

    ruleset = get(args.ruleset)  # an unknown name: one line listing the known ones
    lines, data = ruleset.odds(args)
    if args.json:
        print(json.dumps({"ruleset": ruleset.name, **data}, indent=2))
    else:
        print("\n".join(lines))
    return 0
