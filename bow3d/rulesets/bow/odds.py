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
    dist: dict[int, float] = {k: 0.0 for k in range(a_bricks + 1)}
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
        plan, _ = attack_plan(game, action)
        return attack_odds(plan["attack"], plan["dodge"], game.ctx.p)
    if isinstance(action, Treat):
        from bow3d.rulesets.bow.context import sheet_value
        unit = game.state.units[action.unit]
        target = game.state.units.get(action.target) or game.state.vehicles[action.target]
        return treat_odds(int(sheet_value(game.ctx.sheet(unit.sheet), "treat", 0)), target.damage, game.ctx.p,
                          removes_difference=game.ctx.treat_removes_difference)
    return None
