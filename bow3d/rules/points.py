"""Points: how far apart two armies' totals are (the balance check of the rulesets that cost their units).

Layer: rules (pure Python). The totals (side -> points) and the tolerance come from the ruleset
(`Ruleset.army_costs`, `Ruleset.balance_tolerance_pct`), the warning's words too (`Ruleset.balance_warning`).
"""

from __future__ import annotations

from collections.abc import Mapping


def imbalance_pct(totals: Mapping[str, int]) -> float:
    """How far the cheapest army is below the dearest, in % of the dearest (0 for one side or all zero)."""
    values = list(totals.values())
    if len(values) < 2 or max(values) == 0:
        return 0.0
    return 100.0 * (max(values) - min(values)) / max(values)
