"""`strong`: greedy's plan, with targets weighed by what they are worth and the unit's turn searched.

Layer: rulesets (BOW; no world, view or replay import).

Also cites BOW 1.3 Annex A.4, §2.4.2, §2.2, §3.3, §3.6, §2.4.4. More:
docs/modules/rulesets-bow.md#strong.
"""

from __future__ import annotations

import math
from typing import Any

from bow3d.rulesets.bow.actions import Action, Attack, Move, Treat
from bow3d.rulesets.bow.ai import AIPlayer
from bow3d.rulesets.bow.combat import attack_plan
from bow3d.rulesets.bow.context import sheet_value
from bow3d.rulesets.bow.cost import unit_cost, vehicle_cost
from bow3d.rulesets.bow.greedy import GreedyPlayer
from bow3d.rulesets.bow.odds import attack_odds
from bow3d.rulesets.bow.queries import actors, body, owes_compulsory_move
from bow3d.rulesets.bow.state import cell_centre

STRONG_VERSION = "bow-strong-3"
SECOND_STRONG_VERSION = "bow-strong-2"
UNPLAYED = 1.5        # a target still to play this round is worth this much more (its action is lost too)
WOUND_SHARE = 0.3     # damage short of a kill, per hit point, at this share of the target's cost
CLOSE_IN = 1.6        # a step first when the best attack from where it ends is worth this many times more
CLOSE_IN_STEPS = 3    # the steps ending nearest the target that are searched


class StrongPlayer(GreedyPlayer):
    """Plays one side as the module docstring says (STRONG_VERSION)."""

    name = "strong"
    version = STRONG_VERSION

    def __init__(self, side: str, rng: Any) -> None:
        super().__init__(side, rng)
        self.ai = AIPlayer(side, rng)   # the pilots' and riders' choices when no attack comes first (choose)

    def choose(self, game: Any) -> Action:
        if self._vehicle_to_steer(game):
            return self.ai.choose(game)
        legal = game.legal_actions()
        attacks = [a for a in legal if isinstance(a, Attack)]
        if attacks:
            return self._close_in(game, max(attacks, key=lambda a: self.weigh(game, a)), legal)
        if self._pilot_to_play(game):
            return self.ai.choose(game)
        treats = [a for a in legal if isinstance(a, Treat) and body(game, a.target).side == self.side]
        return treats[0] if treats else super().choose(game)

    @staticmethod
    def _pilot_to_play(game: Any) -> bool:
        """Has a unit of the side aboard a vehicle yet to play (its choice is the AI's, §3.3)?"""
        units, state = actors(game), game.state
        return bool(units) and state.phase == "play" and any(state.units[u].aboard is not None for u in units)

    @staticmethod
    def _vehicle_to_steer(game: Any) -> bool:
        """Does a pilot of the side still owe his moving vehicle's compulsory move (§3.3)? Its course is
        the AI's to check past friends and walls (§3.6) before anyone acts: a shot first can leave the
        pilot no action to turn or slow down with."""
        return any(owes_compulsory_move(game, u) for u in actors(game))

    def weigh(self, game: Any, action: Attack) -> float:
        """Annex A.4 cost points the attack is expected to take off the field (-1 when refused)."""
        plan, _unused = attack_plan(game, action)
        if plan is None:
            return -1.0
        state = game.state
        target = body(game, action.target)
        sheet = game.ctx.sheet(target.sheet)
        if action.target in state.vehicles:
            cost = vehicle_cost(sheet)
        else:   # the weapon in hand may be one picked up (the scene's catalogue), not the sheet's
            cost = unit_cost(sheet, game.ctx.weapon(target.sheet, target.weapon))
        hp = max(1, int(sheet_value(sheet, "hp", 1)))
        left = max(1, hp - int(target.damage))
        odds = attack_odds(int(plan["attack"]), int(plan["dodge"]), game.ctx.p)
        kill = math.fsum(p for k, p in odds.damage_distribution.items() if k >= left)
        wound = WOUND_SHARE * math.fsum(k * p for k, p in odds.damage_distribution.items() if k < left) / hp
        return cost * (UNPLAYED if getattr(target, "played", True) is False else 1.0) * (kill + wound)

    def _close_in(self, game: Any, attack: Attack, legal: list) -> Action:
        """The attack, or a step first when the search finds a much better attack from there (docstring)."""
        state = game.state
        unit = state.units[attack.unit]
        if int(sheet_value(game.ctx.sheet(unit.sheet), "action_budget", 1)) - unit.actions_used < 2:
            return attack
        target = body(game, attack.target)
        aboard = getattr(target, "aboard", None)
        at = state.vehicles[aboard].position if aboard is not None else target.position
        if at is None:
            return attack
        steps = sorted((m for m in legal if isinstance(m, Move) and m.unit == unit.id and m.to != unit.cell),
                       key=lambda m: math.dist(cell_centre(m.to), at))
        best, bar = None, CLOSE_IN * self.weigh(game, attack)
        for step in steps[:CLOSE_IN_STEPS]:
            game.apply(step)
            try:
                then = max((self.weigh(game, a) for a in game.legal_actions()
                            if isinstance(a, Attack) and a.unit == unit.id), default=-1.0)
            finally:
                game.pop()
            if then > bar:
                best, bar = step, then
        return best or attack


class SecondStrongPlayer(StrongPlayer):
    """`strong` as its second version played (SECOND_STRONG_VERSION), kept so that the replays it played
    still re-derive their choices: while a unit aboard a vehicle had yet to play, the AI chose the side's
    action even when an attack was on."""

    version = SECOND_STRONG_VERSION

    def choose(self, game: Any) -> Action:
        return self.ai.choose(game) if self._pilot_to_play(game) else super().choose(game)
