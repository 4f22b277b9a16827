"""Exact odds of attacks (BOW §2.4.2) and treatments/repairs (§2.4.4): binomial brick rolls.

Layer: rulesets (BOW). Each of n 2x2 bricks lands on its edge with probability p (BOW §2.1, default
0.262), so a roll is Binomial(n, p). An attack succeeds when attack edges > dodge edges and
deals the difference; a treatment succeeds when treat edges > damage-point edges and removes
1 damage point (or the difference, capped at the damage points, with the optional rule).
No Monte Carlo: sums of products of binomial probabilities. The viewer, the AI and
`bow3d odds` use these functions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bow3d.i18n import _, current, ngettext, semicolon
from bow3d.rules.chance import binomial
from bow3d.rulesets.bow.chance import DEFAULT_P

if TYPE_CHECKING:
    from bow3d.rules.game import Game
    from bow3d.rules.records import Action


@dataclass(frozen=True)
class Odds:
    """Chance of success and distribution of the effect (damage dealt, or damage points removed)."""

    success: float
    damage_distribution: dict[int, float] = field(default_factory=dict)   # effect -> probability (0 = failure)
    expected_damage: float = 0.0
    bricks: int = 0            # the performer's bricks (attack or treat)
    resist_bricks: int = 0     # the resisting bricks (dodge/armor or damage points)
    p: float = DEFAULT_P

    def to_dict(self) -> dict[str, Any]:
        return {"bricks": self.bricks, "resist_bricks": self.resist_bricks, "p": self.p,
                "success": self.success, "expected_damage": self.expected_damage,
                "damage_distribution": {str(k): v for k, v in sorted(self.damage_distribution.items())}}


def _difference(a_bricks: int, d_bricks: int, p: float) -> dict[int, float]:
    """Distribution of max(0, A - D) with A ~ B(a_bricks, p), D ~ B(d_bricks, p)."""
    pa, pd = binomial(a_bricks, p), binomial(d_bricks, p)
    dist: dict[int, float] = dict.fromkeys(range(a_bricks + 1), 0.0)
    for a, qa in enumerate(pa):
        for d, qd in enumerate(pd):
            dist[max(0, a - d)] += qa * qd
    return dist


def attack_odds(attack_bricks: int, dodge_bricks: int, p: float = DEFAULT_P) -> Odds:
    """BOW §2.4.2: success = P(A > D); damage k with probability P(A - D = k); 0 = failure."""
    dist = _difference(attack_bricks, dodge_bricks, p)
    success = math.fsum(v for k, v in dist.items() if k > 0)
    expected = math.fsum(k * v for k, v in dist.items())
    return Odds(success, dist, expected, attack_bricks, dodge_bricks, p)


def treat_odds(treat_bricks: int, damage_points: int, p: float = DEFAULT_P, *,
               removes_difference: bool = False) -> Odds:
    """BOW §2.4.4: the opponent rolls the damage points; success removes 1 point (or the difference,
    at most the damage points, with the optional rule)."""
    diff = _difference(treat_bricks, damage_points, p)
    dist: dict[int, float] = {}
    for k, v in diff.items():
        healed = 0 if k == 0 else (min(k, damage_points) if removes_difference else min(1, damage_points))
        dist[healed] = dist.get(healed, 0.0) + v
    success = math.fsum(v for k, v in diff.items() if k > 0)
    expected = math.fsum(k * v for k, v in dist.items())
    return Odds(success, dict(sorted(dist.items())), expected, treat_bricks, damage_points, p)


def odds_of(game: Game, action: Action) -> Odds | None:
    """The odds of a legal Attack or Treat in this game (range, cover and ruleset applied);
    None for another action or an illegal one. A visibility dispute is not counted in."""
    from bow3d.rulesets.bow.actions import Attack, Treat
    from bow3d.rulesets.bow.combat import attack_plan
    if game.check(action) is not None:
        return None
    if isinstance(action, Attack):
        plan, _unused = attack_plan(game, action)
        assert plan is not None  # checked above
        return attack_odds(plan["attack"], plan["dodge"], game.ctx.p)
    if isinstance(action, Treat):
        from bow3d.rulesets.bow.context import sheet_value
        unit = game.state.units[action.unit]
        target = game.state.units.get(action.target) or game.state.vehicles[action.target]
        return treat_odds(int(sheet_value(game.ctx.sheet(unit.sheet), "treat", 0)), target.damage, game.ctx.p,
                          removes_difference=game.ctx.treat_removes_difference)
    return None


# -- `bow3d odds` for BOW 1.3 (the command asks each ruleset for its options and its answer) -----------
MAX_BRICKS = 1000   # far beyond any sheet; exact binomials stay within floating point


def add_odds_arguments(group: Any) -> None:
    """BOW's options of `bow3d odds` (the shared --cover, --json and --ruleset are the command's)."""
    group.add_argument("bricks", type=int, nargs="?", metavar="ATTACK",
                       help="bow-1.3: Attack/Damage bricks (with --treat: Treat/Repair)")
    group.add_argument("resist", type=int, nargs="?", metavar="DODGE",
                       help="bow-1.3: Dodge/Armor bricks (with --treat: the target's damage points)")
    group.add_argument("--treat", action="store_true", help="bow-1.3: a treat/repair roll: TREAT DAMAGE_POINTS")
    group.add_argument("--difference", action="store_true", help="bow-1.3: with --treat, the optional rule "
                       "removing the difference (BOW §2.4.4)")
    group.add_argument("--range", type=float, metavar="STUDS", dest="range_studs",
                       help="bow-1.3: head-to-head distance in studs: -1 attack brick per 15 studs beyond the first 15")
    group.add_argument("--band", type=float, default=None, metavar="STUDS", help="bow-1.3: range band (default 15)")
    group.add_argument("--p", type=float, default=None, metavar="P",
                       help="bow-1.3: probability that one brick lands on its edge (default 0.262)")


def odds_report(args: Any) -> tuple[list[str], dict[str, Any]]:
    """The odds `bow3d odds` prints for BOW (lines) and its JSON; UserInputError for bad options."""
    from bow3d.errors import UserInputError
    from bow3d.rulesets.bow.context import DEFAULT_RANGE_BAND
    from bow3d.rulesets.bow.sight import range_penalty

    p = DEFAULT_P if args.p is None else args.p
    band = DEFAULT_RANGE_BAND if args.band is None else args.band
    if args.bricks is None or args.resist is None:
        raise UserInputError(_("bow-1.3 odds need two numbers: ATTACK DODGE (or with --treat: TREAT "
                               "DAMAGE_POINTS)"))
    if not 0 <= args.bricks <= MAX_BRICKS or not 0 <= args.resist <= MAX_BRICKS:
        raise UserInputError(_("brick counts must be 0 to {MAX_BRICKS} (got {bricks} and {resist})")
                             .format(MAX_BRICKS=MAX_BRICKS, bricks=args.bricks, resist=args.resist))
    if not 0.0 < p < 1.0:
        raise UserInputError(_("--p {p}: a probability strictly between 0 and 1 is needed (BOW: 0.262)").format(p=p))
    if args.range_studs is not None and not (math.isfinite(args.range_studs) and args.range_studs >= 0):
        raise UserInputError(_("--range {range_studs}: a distance of 0 or more studs is needed")
                             .format(range_studs=args.range_studs))
    if not (math.isfinite(band) and band > 0):
        raise UserInputError(_("--band {band}: a positive number of studs is needed").format(band=band))
    if args.cover not in (None, "yes"):
        raise UserInputError(_("--cover {cover}: in BOW a target is covered or not: give --cover alone")
                             .format(cover=args.cover))
    if args.treat and (args.cover or args.range_studs is not None):
        raise UserInputError(_("--cover and --range are for attacks, not with --treat"))
    if args.difference and not args.treat:
        raise UserInputError(_("--difference is the treat/repair optional rule: use it with --treat"))
    notes: list[str] = []   # in English, for the JSON; `said`: the same in the language spoken
    said: list[str] = []
    if args.treat:
        odds, kind = treat_odds(args.bricks, args.resist, p, removes_difference=args.difference), "treat"
    else:
        attack, dodge = args.bricks, args.resist
        if args.range_studs is not None:
            penalty = range_penalty(args.range_studs, band)
            if attack - penalty <= 0:
                raise UserInputError(_("at {range_studs:g} studs the attack loses {penalty} bricks and "
                                       "falls to {value}: the firer cannot attack (BOW §2.4.2)")
                                     .format(range_studs=args.range_studs, penalty=penalty, value=attack - penalty))
            attack -= penalty
            notes.append(f"{args.range_studs:g} studs: -{penalty}")
            said.append(_("{distance} studs: -{penalty}").format(distance=_number(args.range_studs), penalty=penalty))
        if args.cover:
            dodge += 1
            notes.append("covered: +1 dodge")
            said.append(_("covered: +1 dodge"))
        odds, kind = attack_odds(attack, dodge, p), "attack"
    return odds_lines(kind, odds, said), {"kind": kind, **odds.to_dict(), "notes": notes}


def _number(value: float, digits: int | None = None) -> str:
    """`value` as `:g` (digits None) or with `digits` decimals, written the language's way."""
    text = f"{value:g}" if digits is None else f"{value:.{digits}f}"
    return text.replace(".", ",") if current() == "fr" else text


def odds_lines(kind: str, odds: Any, said: list[str]) -> list[str]:
    """The table `bow3d odds` prints, in the language spoken ('success          39.27 %')."""
    if kind == "attack":
        head = _("attack {bricks} bricks against dodge {resist} bricks").format(bricks=odds.bricks,
                                                                              resist=odds.resist_bricks)
        effect = _("damage")
    else:
        head = ngettext("treat {bricks} bricks against {resist} damage point",
                        "treat {bricks} bricks against {resist} damage points", odds.resist_bricks).format(
            bricks=odds.bricks, resist=odds.resist_bricks)
        effect = _("removed")
    rows = [(_("success"), f"{_number(100 * odds.success, 2):>6} %")]
    rows += [(f"{effect} {value}", f"{_number(100 * prob, 2):>6} %") for value, prob in
             sorted(odds.damage_distribution.items())]
    rows.append((_("expected {effect}").format(effect=effect), f" {_number(odds.expected_damage, 4)}"))
    width = max(16, max(len(label) for label, _value in rows))
    return [f"{head} (p = {_number(odds.p)}{semicolon() + ', '.join(said) if said else ''})"] + [
        f"{label:<{width}} {value}" for label, value in rows]
