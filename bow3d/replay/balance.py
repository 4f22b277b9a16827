"""Is a scenario fair? Win rates with confidence intervals, what each unit and sheet is worth
against its cost points, and a change of the armies that brings the sides closer, measured.

Layer: replay (plays through bow3d.replay.simulate's GameJob on any bow3d.batch executor; cost
points from the scene's ruleset, so this works for every ruleset that counts points, and without
points for the others).

More: docs/modules/replay.md#balance.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from bow3d.i18n import _, percent
from bow3d.replay.variants import RemoveUnit, SceneEdit, SwapSheet, apply_edits, describe_edits

Z95 = 1.959963984540054   # the normal quantile of a two-sided 95 % interval
FAIR_MARGIN = 0.05        # fair: every side's score within 1/k ± this


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (successes of n), clipped to [0, 1]; (0, 1) for n = 0."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def unit_costs(scene: Any) -> dict[str, float] | None:
    """Cost points per unit and vehicle id from the scene's ruleset (None: its book counts none)."""
    from bow3d.rulesets import ruleset_of

    lines = ruleset_of(scene).cost_lines(scene)
    return None if lines is None else {line.id: float(line.cost_points) for line in lines}


def army_costs(scene: Any) -> dict[str, float] | None:
    costs = unit_costs(scene)
    if costs is None:
        return None
    totals = {side.id: 0.0 for side in scene.sides}
    for unit in [*scene.units, *scene.vehicles]:
        totals[unit.side] += costs.get(unit.id, 0.0)
    return totals


@dataclass
class UnitTally:
    id: str
    side: str
    sheet: str
    cost: float | None
    kills: int = 0
    deaths: int = 0
    cost_taken: float = 0.0   # cost points of what it took out, summed over the games

    def as_dict(self, games: int) -> dict[str, Any]:
        return {"id": self.id, "side": self.side, "sheet": self.sheet, "cost": self.cost, "kills": self.kills,
                "deaths": self.deaths, "kills_per_game": round(self.kills / max(games, 1), 4),
                "survival": round(1 - self.deaths / max(games, 1), 4),
                "cp_taken_per_game": round(self.cost_taken / max(games, 1), 3)}


@dataclass
class BalanceRun:
    """The statistics of one batch of games of one variant of a scene (gathered by `add`)."""

    scene: Any
    edits: tuple[SceneEdit, ...] = ()
    first_seed: int = 1
    games: int = 0
    wins: dict[str, int] = field(default_factory=dict)
    draws: int = 0
    rounds: int = 0
    units: dict[str, UnitTally] = field(default_factory=dict)
    interrupted: bool = False
    seconds: float = 0.0
    words: str | None = None   # the edits in words, said of the scene they were applied to (a removed
                               # unit is not in `scene` any more: it cannot describe its own edits)

    def __post_init__(self) -> None:
        costs = unit_costs(self.scene) or {}
        self.wins = {side.id: 0 for side in self.scene.sides}
        for unit in [*self.scene.units, *self.scene.vehicles]:
            self.units[unit.id] = UnitTally(unit.id, unit.side, unit.sheet, costs.get(unit.id))

    @property
    def sides(self) -> list[str]:
        return list(self.wins)

    def add(self, record: Any) -> None:
        """Count one GameRecord (bow3d.replay.simulate)."""
        self.games += 1
        self.rounds += record.rounds
        if record.winner is None:
            self.draws += 1
        else:
            self.wins[record.winner] = self.wins.get(record.winner, 0) + 1
        for gone in record.fallen:
            if gone in self.units:
                self.units[gone].deaths += 1
        for by, gone in record.kills:
            if by in self.units and gone in self.units and self.units[by].side != self.units[gone].side:
                self.units[by].kills += 1
                self.units[by].cost_taken += self.units[gone].cost or 0.0

    # -- sides ------------------------------------------------------------------------------------
    def score(self, side: str) -> float:
        """Wins plus the draws shared between the sides, as a share of the games."""
        if not self.games:
            return 0.0
        return (self.wins[side] + self.draws / len(self.wins)) / self.games

    def interval(self, side: str) -> tuple[float, float]:
        return wilson(self.score(side) * self.games, self.games)

    @property
    def target(self) -> float:
        return 1.0 / len(self.wins)

    @property
    def favoured(self) -> str:
        return max(self.sides, key=self.score)

    @property
    def underdog(self) -> str:
        return min(self.sides, key=self.score)

    @property
    def imbalance(self) -> float:
        """How far the favoured side's score is from an even share."""
        return self.score(self.favoured) - self.target

    def is_fair(self, margin: float = FAIR_MARGIN) -> bool:
        return all(abs(self.score(side) - self.target) <= margin + 1e-12 for side in self.sides)

    def verdict(self) -> str:
        if self.games == 0:
            return _("no verdict: no game finished")
        fav = self.favoured
        low, high = self.interval(fav)
        share = _("{side} scores {score} (95 % CI {low}-{high}) over {games} games").format(
            side=fav, score=percent(self.score(fav), 1), low=percent(low, 1), high=percent(high, 1), games=self.games)
        band = f"{percent(self.target - FAIR_MARGIN)}-{percent(self.target + FAIR_MARGIN)}"
        if self.is_fair():
            if not low <= self.target <= high:
                note = _("but the interval excludes an even share: more games would tell")
            elif low < self.target - FAIR_MARGIN or high > self.target + FAIR_MARGIN:
                note = _("the interval holds an even share but is wider than the band: more games would narrow it")
            else:
                note = _("the whole interval inside the band")
            return _("fair: every side within {band}; {share}, {note}").format(band=band, share=share, note=note)
        return _("unfair: {share}, outside {band}").format(share=share, band=band)

    # -- units and sheets ---------------------------------------------------------------------------
    def sheets(self) -> dict[str, dict[str, Any]]:
        """Per sheet: units, cost per unit, kills and CP taken per unit and game, survival, value per CP."""
        out: dict[str, dict[str, Any]] = {}
        for tally in self.units.values():
            entry = out.setdefault(tally.sheet, {"sheet": tally.sheet, "units": 0, "cost": tally.cost, "kills": 0,
                                                 "deaths": 0, "cp_taken": 0.0})
            entry["units"] += 1
            entry["kills"] += tally.kills
            entry["deaths"] += tally.deaths
            entry["cp_taken"] += tally.cost_taken
        games = max(self.games, 1)
        for entry in out.values():
            per = games * entry["units"]
            entry["kills_per_game"] = round(entry["kills"] / per, 4)
            entry["survival"] = round(1 - entry["deaths"] / per, 4)
            entry["cp_taken_per_game"] = round(entry["cp_taken"] / per, 3)
            cost = entry["cost"]
            entry["value_per_cp"] = round(entry["cp_taken"] / per / cost, 4) if cost else None
            entry["cp_taken"] = round(entry["cp_taken"], 3)
        return out

    def as_dict(self) -> dict[str, Any]:
        costs = army_costs(self.scene)
        sides = {}
        for side in self.sides:
            low, high = self.interval(side)
            sides[side] = {"wins": self.wins[side], "win_rate": round(self.wins[side] / max(self.games, 1), 4),
                           "score": round(self.score(side), 4), "ci95": [round(low, 4), round(high, 4)],
                           "cost_points": costs.get(side) if costs else None}
        return {"games": self.games, "first_seed": self.first_seed, "interrupted": self.interrupted,
                "edits": (self.words or describe_edits(self.scene, self.edits)) if self.edits else None,
                "sides": sides, "draws": self.draws,
                "average_rounds": round(self.rounds / max(self.games, 1), 3), "fair": self.is_fair(),
                "verdict": self.verdict(), "units": [t.as_dict(self.games) for t in self.units.values()],
                "sheets": list(self.sheets().values()), "seconds": round(self.seconds, 2)}


# -- candidate changes ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Candidate:
    """A change of the armies, with what the measured sheet values predict it does."""

    edits: tuple[SceneEdit, ...]
    cp_change: dict[str, float]      # side -> change of its army's cost points
    predicted_shift: float           # estimated change of the favoured side's strength (value index), < 0 helps


def _sheet_kind(sheet: Any) -> str:
    return str(sheet.get("kind", "minifig") if isinstance(sheet, dict) else getattr(sheet, "kind", "minifig"))


def _movable_units(scene: Any, side: str) -> list[Any]:
    """Units of a side standing on the battlefield (a crew member aboard a vehicle is left alone)."""
    aboard = {o for v in scene.vehicles for o in v.occupants}
    return [u for u in scene.units_of(side) if u.position is not None and u.id not in aboard]


def candidates(scene: Any, run: BalanceRun, limit: int = 6) -> list[Candidate]:
    """Single changes that move the favoured side towards an even share, most promising first.

    A sheet's strength index is its measured cost points taken per unit and game (its value);
    each change's predicted shift is the change it makes to (favoured value - underdog value). The
    shifts wanted are about the present gap in value scaled by how far the score is from even; the
    list keeps changes near that shift first, of every kind, so that screening sees a spread."""
    fav, dog = run.favoured, run.underdog
    sheets = run.sheets()
    value = {name: entry["cp_taken_per_game"] for name, entry in sheets.items()}
    minifig_sheets = [name for name, sheet in scene.sheets.items() if _sheet_kind(sheet) == "minifig"
                      and name in value]
    costs = unit_costs(scene) or {}

    def sheet_cost(unit: Any, sheet: str) -> float:
        if not costs:
            return 0.0
        try:
            return (unit_costs(apply_edits(scene, (SwapSheet(unit.id, sheet),))) or {}).get(unit.id, 0.0)
        except Exception:  # noqa: BLE001 (a sheet this unit cannot play: left out)
            return math.nan

    found: list[Candidate] = []
    for unit in _movable_units(scene, fav):
        own = value.get(unit.sheet, 0.0)
        found.append(Candidate((RemoveUnit(unit.id),), {fav: -costs.get(unit.id, 0.0)}, -own))
        for sheet in minifig_sheets:
            if sheet != unit.sheet and value[sheet] < own:
                cost = sheet_cost(unit, sheet)
                if not math.isnan(cost):
                    found.append(Candidate((SwapSheet(unit.id, sheet),), {fav: cost - costs.get(unit.id, 0.0)},
                                           value[sheet] - own))
    for unit in _movable_units(scene, dog):
        own = value.get(unit.sheet, 0.0)
        for sheet in minifig_sheets:
            if sheet != unit.sheet and value[sheet] > own:
                cost = sheet_cost(unit, sheet)
                if not math.isnan(cost):
                    found.append(Candidate((SwapSheet(unit.id, sheet),), {dog: cost - costs.get(unit.id, 0.0)},
                                           own - value[sheet]))
    wanted = wanted_shift(run)
    found.sort(key=lambda c: (abs(c.predicted_shift - wanted), abs(sum(c.cp_change.values()))))
    return spread(found, limit)


def wanted_shift(run: BalanceRun) -> float:
    """The value shift (favoured minus underdog) that an even share would need, on a linear index:
    today's value gap times the share of the score gap to close (at least a small step)."""
    fav, dog = run.favoured, run.underdog
    by_side = {fav: 0.0, dog: 0.0}
    for tally in run.units.values():
        if tally.side in by_side:
            by_side[tally.side] += tally.cost_taken / max(run.games, 1)
    gap = by_side[fav] - by_side[dog]
    total = max(by_side[fav] + by_side[dog], 1e-9)
    if gap <= 0:  # the favoured side takes no more than it loses: scale by its score gap alone
        return -run.imbalance * total
    return -gap


def spread(found: list[Candidate], limit: int) -> list[Candidate]:
    """At most `limit` candidates, the best first, no two changing the same unit in the same way."""
    kept: list[Candidate] = []
    if limit <= 0:
        return kept
    seen_units: set[tuple[str, str]] = set()
    for candidate in found:
        key = (type(candidate.edits[0]).__name__, getattr(candidate.edits[0], "unit", ""))
        if key in seen_units:
            continue
        seen_units.add(key)
        kept.append(candidate)
        if len(kept) >= limit:
            break
    return kept


def closeness(run: BalanceRun) -> float:
    """How far a run is from even (0 = every side at its share)."""
    return max(abs(run.score(side) - run.target) for side in run.sides)


def combine(first: Candidate, second: Candidate) -> Candidate:
    changes = dict(first.cp_change)
    for side, delta in second.cp_change.items():
        changes[side] = changes.get(side, 0.0) + delta
    return Candidate(first.edits + second.edits, changes, first.predicted_shift + second.predicted_shift)


def compatible(a: Candidate, b: Candidate) -> bool:
    units_a = {getattr(e, "unit", None) for e in a.edits}
    return not any(getattr(e, "unit", None) in units_a for e in b.edits)


def describe(scene: Any, candidate: Candidate) -> str:
    """In words: 'take 11 points from red: swap red-rifle-2's sheet rifleman for spearman'."""
    parts = []
    for side, delta in candidate.cp_change.items():
        if delta < 0:
            parts.append(_("take {points} points from {side}").format(points=f"{-delta:g}", side=side))
        elif delta > 0:
            parts.append(_("give {side} {points} points").format(side=side, points=f"{delta:g}"))
    points = _(" and ").join(parts) or _("no change of points")
    return f"{points}: {describe_edits(scene, candidate.edits)}"


def merge_counts(runs: Iterable[BalanceRun]) -> int:
    return sum(run.games for run in runs)
