"""`strong`: the AI's best options searched to the end of the unit's turn, every throw weighed exactly.

Layer: rulesets (BOW; no world, view or replay import). An expectimax over the engine's own
check-then-apply and `pop()` (bow3d.rules.Game): the candidates are the AI's best-weighed options
(bow3d.rulesets.bow.ai); each is played on the game, every brick roll it asks for is answered with
every outcome in turn, weighted by its exact probability (BOW §2.1: Binomial(n, p)), the unit's next
actions of the same turn are searched the same way (the AI's best few), another player's decision is
the AI's, and the leaves are judged by the material on the field: each unit and vehicle worth its
cost points (BOW Annex A.4) times the share of its hit points left. The AI's own score of the first
action (cover, range band, charge) is kept as a prior, so what search cannot see is not forgotten.
Everything played is taken back: the game leaves the search as it came in.

A time budget per decision (BUDGET_S, wall clock) bounds the search: candidates are searched best
first; once the budget is spent no candidate is begun and every node still open is judged as it
stands (the choice is then the best searched so far), so the choices depend on the clock: a replay verifies its choices for legality, not by re-deriving them
(Ruleset.is_reproducible).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from bow3d.rules.chance import ChanceRequest
from bow3d.rulesets.bow.actions import Action
from bow3d.rulesets.bow.ai import AIPlayer
from bow3d.rulesets.bow.cost import unit_cost, vehicle_cost

STRONG_VERSION = "bow-strong-1"
BUDGET_S = 0.25          # seconds of search per decision (the bar: under 1 s per action)
CANDIDATES = 5           # the AI's best options searched at the root
FOLLOWING = 3            # the AI's best next actions of the same unit searched at each later step
DEPTH = 1                # later actions of the unit's turn searched after the first
PRIOR = 0.5              # weight of the AI's own score of an option (what the material cannot see)
MATERIAL = 0.11          # per cost point: a 22-point rifleman killed is worth about the AI's kill (2.5)
WIN = 100.0              # a game won (or lost) in the search
UNLIKELY = 1e-4          # outcomes of a throw less likely than this are not searched


class StrongPlayer:
    """Plays one side with the search above; `budget_s` seconds per decision."""

    name = "strong"
    version = STRONG_VERSION

    def __init__(self, side: str, rng: Any, budget_s: float = BUDGET_S,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.side = side
        self.ai = AIPlayer(side, rng)
        self.inner = AIPlayer(side, rng)     # inside the search: no follow-up shots asked (the search plays them)
        self.inner.follow_up = False
        self.budget_s = budget_s
        self.clock = clock
        self._deadline = 0.0
        self._models: dict[str, AIPlayer] = {}
        self._worth: dict[tuple[str, str | None], tuple[float, int]] = {}

    def choose(self, game: Any) -> Action:
        if game.pending is not None or game.state.phase != "play":
            return self.ai.choose(game)
        options = self._legal_best(game, self.ai, CANDIDATES)
        if len(options) <= 1:
            return options[0][1] if options else self.ai.choose(game)
        self._deadline = self.clock() + self.budget_s
        best_value, best = None, options[0][1]
        for score, action in options:
            if best_value is not None and self.clock() > self._deadline:
                break
            value = PRIOR * score + self._after(game, action, DEPTH)
            if best_value is None or value > best_value:
                best_value, best = value, action
        return best

    # -- the search ------------------------------------------------------------------------------
    def _legal_best(self, game: Any, player: AIPlayer, k: int) -> list[tuple[float, Action]]:
        """The player's k best-weighed options that the rules accept now (best first, distinct)."""
        found: list[tuple[float, Action]] = []
        seen: set = set()
        for score, action in sorted(player.options(game), key=lambda o: -o[0]):
            if action not in seen and game.refusal(action) is None:
                seen.add(action)
                found.append((score, action))
                if len(found) == k:
                    break
        return found

    def _after(self, game: Any, action: Any, depth: int) -> float:
        """The expected value once `action` is played (then taken back)."""
        unit = getattr(action, "unit", None)
        game.apply(action)
        try:
            return self._node(game, depth, unit)
        finally:
            game.pop()

    def _node(self, game: Any, depth: int, unit: str | None) -> float:
        if game.is_over:
            return WIN if game.winner == self.side else -WIN if game.winner is not None else 0.0
        request = game.pending
        if self.clock() > self._deadline:   # the budget is spent: what stands now is the estimate
            return self._material(game)
        if isinstance(request, ChanceRequest):
            fixed = request.spec.fixed()
            if fixed is not None:
                return self._after(game, request.answer(fixed), depth)
            total = value = 0.0
            for outcome, p in request.spec.probabilities().items():
                if p >= UNLIKELY:
                    total += p
                    value += p * self._after(game, request.answer(outcome), depth)
            return value / total if total > 0 else self._material(game)
        if request is not None:   # another player's decision in the middle of the turn: the AI's
            return self._after(game, self._model(request.side).choose(game), depth)
        state = game.state
        if depth > 0 and unit is not None and state.active_unit == unit and state.side_to_play == self.side \
                and self.clock() < self._deadline:
            following = self._legal_best(game, self.inner, FOLLOWING)
            if following:
                return max(PRIOR * score + self._after(game, action, depth - 1) for score, action in following)
        return self._material(game)

    def _model(self, side: str) -> AIPlayer:
        if side == self.side:
            return self.ai
        return self._models.setdefault(side, AIPlayer(side, self.ai.rng))

    def _material(self, game: Any) -> float:
        """§A.4 cost points of what stands on the field, own side minus the others, by hit points left."""
        ctx, state = game.ctx, game.state
        total = 0.0
        for body in (*state.units.values(), *state.vehicles.values()):
            if not body.in_play:
                continue
            key = (body.sheet, getattr(body, "weapon", None))
            if key not in self._worth:
                sheet = ctx.sheet(body.sheet)
                worth = vehicle_cost(sheet) if body.id in state.vehicles else unit_cost(sheet, key[1])
                self._worth[key] = (float(worth), max(1, int(getattr(sheet, "hp", 1) or 1)))
            worth, hp = self._worth[key]
            share = max(0.0, (hp - int(body.damage)) / hp)
            total += (1 if body.side == self.side else -1) * worth * share
        return MATERIAL * total
