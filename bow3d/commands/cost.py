"""`bow3d cost SCENE`: cost points of every unit and vehicle and of each army (BOW 1.3 Annex A.4, §1.4.3)."""

from __future__ import annotations

import argparse
import json

from bow3d.errors import UserInputError
from bow3d.i18n import _, ngettext
from bow3d.rules.points import imbalance_pct
from bow3d.rulesets import load_scene, ruleset_of

NAME = "cost"
ORDER = 41
HELP = "cost points of each unit and army (BOW Annex A.4) and a warning when the sides are unbalanced"
DESCRIPTION = """Compute the cost points (CP) of every unit and vehicle of a scene, and of each army,
with the formulas of BOW 1.3 Annex A.4:
  minifig, melee weapon:      (Action Budget + Move + Dodge/Armor + Attack/Damage + Treat/Repair) x HP
  minifig, long-range weapon: the same x Damage
  vehicle:                    [(Speed x 5) + Dodge/Armor + all weapons' Damage] x HP
A warning line says when the armies differ by more than the tolerance (BOW §1.4.3 balanced armies).

examples:
  bow3d cost scenes/village.yaml
  bow3d cost scenes/village.yaml --tolerance 5
  bow3d cost scenes/village.yaml --json"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("scene", help="a scene file (.yaml)")
    parser.add_argument("--json", action="store_true", help="print JSON for scripts")
    parser.add_argument("--tolerance", type=float, default=None, metavar="PCT",
                        help="how far apart the armies may be, in %% of the dearest (default: the ruleset's; BOW "
                        "§1.4.3: 10)")
    parser.add_argument("--library", metavar="DIR", help="LDraw library folder for the battlefield check "
                        "(default: $LDRAWDIR, else the bundled starter library)")


def run(args: argparse.Namespace) -> int:
    if args.tolerance is not None and not 0 <= args.tolerance <= 100:
        raise UserInputError(_("--tolerance {tolerance:g}: give a percentage from 0 to 100")
                             .format(tolerance=args.tolerance))
    from bow3d.ldraw import Library

    scene = load_scene(args.scene, battlefield=True, library=Library.from_env(args.library))
    ruleset = ruleset_of(scene)
    lines, totals = ruleset.cost_lines(scene), ruleset.army_costs(scene)
    if lines is None or totals is None:
        raise UserInputError(_("{scene}: the ruleset {name} ({title}) counts no cost points")
                             .format(scene=args.scene, name=ruleset.name, title=ruleset.title))
    tolerance = args.tolerance if args.tolerance is not None else ruleset.balance_tolerance_pct or 0.0
    warning = ruleset.balance_warning(totals, tolerance)
    if args.json:
        print(json.dumps({"scene": args.scene, "units": [line.__dict__ for line in lines], "sides": totals,
                          "imbalance_pct": round(imbalance_pct(totals), 2), "tolerance_pct": tolerance,
                          "balanced": warning is None}, indent=2))
        return 0
    headers = (_("id"), _("side"), _("sheet"), _("weapon"), _("CP"), _("formula (BOW A.4)"))
    rows = [(line.id, line.side, line.sheet, line.weapon, str(line.cost_points), line.formula) for line in lines]
    widths = [max(len(h), *(len(r[k]) for r in rows)) if rows else len(h) for k, h in enumerate(headers)]
    print("  ".join(h.ljust(w) for h, w in zip(headers, widths)).rstrip())
    for row in rows:
        print("  ".join((v.rjust(w) if k == 4 else v.ljust(w)) for k, (v, w) in enumerate(zip(row, widths))).rstrip())
    print()
    for side in scene.sides:
        count = len(scene.units_of(side.id)) + len(scene.vehicles_of(side.id))
        print(ngettext("{side}: {points} CP ({n} unit and vehicle)", "{side}: {points} CP ({n} units and vehicles)",
                       count).format(side=side.id, points=totals[side.id], n=count))
    print(warning if warning else _("the sides are balanced (within {tolerance} %)").format(
        tolerance=f"{tolerance:g}"))
    return 0
