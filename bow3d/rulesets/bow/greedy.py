"""`greedy`: the fixed reference opponent of issue 21, a baseline every better BOW player must beat.

Layer: rulesets (BOW; no world, view or replay import). Twelve lines of play, kept as they are so
that figures measured against it stay comparable: among the actions the rules accept now, shoot
(or strike) with the best odds (expected damage, BOW §2.4.2), else step the unit that gains most
towards its nearest enemy (§2.3.1), else do what is owed (a pilot's compulsory move, §3.3) or end
the turn. It never draws from its generator: a game is a function of the dice alone. Change its
behaviour and you change the yardstick: give it a new version instead (GREEDY_VERSION).
"""

from __future__ import annotations

import math
from typing import Any

from bow3d.rulesets.bow.actions import Action, Attack, CompulsoryMove, EndTurn, Move
from bow3d.rulesets.bow.combat import attack_plan
from bow3d.rulesets.bow.odds import attack_odds

GREEDY_VERSION = "bow-greedy-1"


def expected_damage(game: Any, action: Attack) -> float:
    """BOW §2.4.2: the attack's expected damage with the rules' own brick counts (0 when refused)."""
    plan, _ = attack_plan(game, action)
    return 0.0 if plan is None else attack_odds(int(plan["attack"]), int(plan["dodge"]), game.ctx.p).expected_damage


class GreedyPlayer:
    """Shoot the best odds, else step towards the nearest enemy (see the module docstring)."""

    name = "greedy"
    version = GREEDY_VERSION

    def __init__(self, side: str, rng: Any = None) -> None:
        self.side = side

    def choose(self, game: Any) -> Action:
        legal = game.legal_actions()
        attacks = [a for a in legal if isinstance(a, Attack)]
        if attacks:
            return max(attacks, key=lambda a: expected_damage(game, a))
        units, enemies = game.state.units, self._enemies(game)
        steps = [(self._gap(m.to, enemies) - self._gap(units[m.unit].cell, enemies), m) for m in legal
                 if isinstance(m, Move) and m.to != units[m.unit].cell]
        best = min(steps, key=lambda s: s[0], default=(0.0, None))
        if best[1] is not None and best[0] < 0:
            return best[1]
        owed: list[Action] = [a for a in legal if isinstance(a, CompulsoryMove)]
        return (owed or [a for a in legal if isinstance(a, EndTurn)] or legal)[0]

    def _enemies(self, game: Any) -> list[tuple[float, float]]:
        state = game.state
        return [body.position for body in (*state.units.values(), *state.vehicles.values())
                if body.side != self.side and body.in_play and body.position is not None]

    @staticmethod
    def _gap(cell: Any, enemies: list[tuple[float, float]]) -> float:
        return min((math.dist((cell[0] + 0.5, cell[1] + 0.5), e) for e in enemies), default=0.0)
