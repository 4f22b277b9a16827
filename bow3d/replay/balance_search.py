"""`bow3d balance`'s work: play the scene, look for a change that evens it, measure that change.

Layer: replay. Every batch goes through one executor (bow3d.batch: local processes or Ray) as a
GameJob of the scene's path plus the variant's edits; see bow3d.replay.balance for the statistics
and the candidates. The report is a plain mapping (JSON) and Markdown; the chart is drawn by
bow3d.view.output.balance_chart.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from typing import Any

from bow3d.batch import Executor
from bow3d.i18n import _, decimal, percent
from bow3d.replay.balance import BalanceRun, Candidate, army_costs, candidates, closeness, combine, compatible, describe
from bow3d.replay.simulate import GameJob
from bow3d.replay.variants import SceneEdit, apply_edits, describe_edits


@dataclass
class BalanceReport:
    """The base run, the candidates screened (each with its run), the chosen change and its full run."""

    scene_path: str
    base: BalanceRun
    engine: dict[str, Any]
    screened: list[tuple[Candidate, BalanceRun]] = field(default_factory=list)
    screen_base: BalanceRun | None = None   # the scene as it is, on the screening seeds only
    chosen: Candidate | None = None
    confirmed: BalanceRun | None = None
    seconds: float = 0.0
    interrupted: bool = False
    searched: bool = True   # False: no candidate was asked for

    @property
    def games_played(self) -> int:
        screened = sum(run.games for _unused, run in self.screened)
        return self.base.games + screened + (self.confirmed.games if self.confirmed else 0)

    def suggestion(self) -> str:
        """The suggestion in one paragraph, with its measured effect (or why there is none)."""
        base = self.base
        if base.games == 0:
            return _("No suggestion: no game of the scene as it is finished.")
        if base.is_fair():
            return _("No change suggested: the scenario is fair as it is.")
        if self.chosen is None and self.interrupted and base.interrupted:
            return _("No suggestion: interrupted while the scene as it is was played.")
        if self.chosen is None and self.interrupted:
            return _("No suggestion: the search for a change was interrupted ({n} candidate changes screened to "
                     "the end).").format(n=len(self.screened))
        if self.chosen is None and not self.searched:
            return _("No change looked for (--candidates 0).")
        if self.chosen is None:
            return _("No change found that brings the sides closer among those tried ({n} screened); try more "
                     "--candidates or more --screen-games.").format(n=len(self.screened))
        fav = base.favoured
        words = describe(base.scene, self.chosen)
        if self.confirmed is None or self.confirmed.games == 0:
            return _("Suggestion: {words}. Not measured on the full batch (the run was interrupted).").format(
                words=words)
        after = self.confirmed
        low, high = after.interval(fav)
        return _("Suggestion: {words}. Measured effect, re-played on the same {games} seeds: {side} {before} -> "
                 "{after} (95 % CI {low}-{high}); {verdict}.").format(
            words=words, games=after.games, side=fav, before=percent(base.score(fav), 1),
            after=percent(after.score(fav), 1), low=percent(low, 1), high=percent(high, 1), verdict=after.verdict())

    def as_dict(self) -> dict[str, Any]:
        return {"scene": self.scene_path, "engine": self.engine, "seconds": round(self.seconds, 2),
                "games_played": self.games_played, "interrupted": self.interrupted,
                "base": self.base.as_dict(), "suggestion": self.suggestion(),
                "chosen": None if self.chosen is None else {
                    "edits": [dataclasses.asdict(e) | {"kind": type(e).__name__} for e in self.chosen.edits],
                    "words": describe(self.base.scene, self.chosen), "cp_change": self.chosen.cp_change},
                "confirmed": None if self.confirmed is None else self.confirmed.as_dict(),
                "screen_base_score": None if self.screen_base is None or not self.screen_base.games else
                round(self.screen_base.score(self.base.favoured), 4),
                "screened": [{"words": describe(self.base.scene, c), "games": run.games,
                              "favoured_score": round(run.score(self.base.favoured), 4), "fair": run.is_fair(),
                              "predicted_shift": round(c.predicted_shift, 3)} for c, run in self.screened]}


def play_variant(executor: Executor, job: GameJob, scene: Any, edits: tuple[SceneEdit, ...], seeds: range,
                 label: str, progress: bool = True, first: BalanceRun | None = None, first_count: int = 0
                 ) -> BalanceRun:
    """Play `seeds` of a variant; KeyboardInterrupt is re-raised after marking the run interrupted.
    `first` (optional) also counts the games of the first `first_count` seeds (the screening base)."""
    run = BalanceRun(apply_edits(scene, edits), edits, seeds.start, words=describe_edits(scene, edits) if edits else None)
    started = time.perf_counter()
    try:
        for record in executor.map(dataclasses.replace(job, edits=edits), seeds, total=len(seeds), label=label,
                                   unit=_("game"), progress=progress):
            run.add(record)
            if first is not None and record.seed < seeds.start + first_count:
                first.add(record)
    except KeyboardInterrupt as stop:
        run.interrupted = True
        run.seconds = time.perf_counter() - started
        raise Interrupted(run) from stop
    run.seconds = time.perf_counter() - started
    return run


class Interrupted(KeyboardInterrupt):
    """Ctrl+C during play_variant, carrying the run of the games that finished."""

    def __init__(self, run: BalanceRun) -> None:
        super().__init__(f"interrupted after {run.games} games")
        self.run = run


def search(scene_path: str, games: int, seed: int, executor: Executor, *, job: GameJob, screen_games: int,
           candidates_per_stage: int = 4, stages: int = 3, progress: bool = True) -> BalanceReport:
    """The whole balance study (see the module docstring); Ctrl+C ends it with what finished."""
    from bow3d.rulesets import load_scene

    scene = load_scene(scene_path)
    started = time.perf_counter()
    seeds = range(seed, seed + games)
    screen_seeds = range(seed, seed + min(screen_games, games))
    screen_base = BalanceRun(scene, (), seed)
    report = BalanceReport(scene_path, BalanceRun(scene, (), seed), executor.describe(), screen_base=screen_base)
    stage_of_run = "base"
    try:
        report.base = play_variant(executor, job, scene, (), seeds, _("balance: the scene as it is"), progress,
                                   first=screen_base, first_count=len(screen_seeds))
        if report.base.is_fair():
            return report
        if candidates_per_stage <= 0:
            report.searched = False
            return report
        best: tuple[Candidate, BalanceRun] | None = None
        reference = screen_base
        for stage in range(stages):
            tried = _screen(executor, job, scene, reference, best, screen_seeds, candidates_per_stage, stage,
                            progress, report)
            if not tried:
                break
            stage_best = min(tried, key=lambda cr: rank(cr[0], cr[1]))
            if best is not None and rank(*stage_best) >= rank(*best):
                break  # a further change makes it no better
            best = stage_best
            if best[1].is_fair():
                break  # fair on the screening seeds: measure it on all of them
            reference = best[1]  # the next change starts from this one (the other side may be favoured now)
        if best is None or closeness(best[1]) >= closeness(screen_base):
            return report
        report.chosen = best[0]
        stage_of_run = "confirmed"
        report.confirmed = play_variant(executor, job, scene, best[0].edits, seeds,
                                        _("balance: the suggestion, measured"), progress)
    except KeyboardInterrupt as stop:
        report.interrupted = True
        run = getattr(stop, "run", None)
        if run is not None and stage_of_run == "base" and report.base.games == 0:
            report.base = run  # the games of the scene as it is that finished count
        elif run is not None and stage_of_run == "confirmed":
            report.confirmed = run
    finally:
        report.seconds = time.perf_counter() - started
    return report


def rank(candidate: Candidate, run: BalanceRun) -> tuple[float, int, float]:
    """Closest to even first; then fewer changes; then fewer points moved."""
    return round(closeness(run), 6), len(candidate.edits), sum(abs(v) for v in candidate.cp_change.values())


def _screen(executor: Executor, job: GameJob, scene: Any, reference: BalanceRun,
            best: tuple[Candidate, BalanceRun] | None, seeds: range, limit: int, stage: int, progress: bool,
            report: BalanceReport) -> list[tuple[Candidate, BalanceRun]]:
    """Play each candidate of this stage on the screening seeds (stage 2 adds to the best so far)."""
    if best is None:
        found = candidates(scene, reference, limit)
    else:
        varied = apply_edits(scene, best[0].edits)
        found = [combine(best[0], c) for c in candidates(varied, reference, limit * 2) if compatible(best[0], c)]
        found = found[:limit]
    tried = []
    for index, candidate in enumerate(found, 1):
        label = _("balance: try {stage}.{index}/{count}").format(stage=stage + 1, index=index, count=len(found))
        run = play_variant(executor, job, scene, candidate.edits, seeds, label, progress)
        tried.append((candidate, run))
        report.screened.append((candidate, run))
    return tried


def army_points(scene: Any, edits: tuple[SceneEdit, ...] = ()) -> dict[str, float] | None:
    return army_costs(apply_edits(scene, edits))


def _sides_table(run: dict[str, Any]) -> list[str]:
    lines = [_("| side | cost points | wins | win rate | score | 95 % CI |"), "|---|---:|---:|---:|---:|---|"]
    for side, data in run["sides"].items():
        low, high = data["ci95"]
        cp = "" if data.get("cost_points") is None else f"{data['cost_points']:g}"
        lines.append(f"| {side} | {cp} | {data['wins']} | {percent(data['win_rate'], 1)} | {percent(data['score'], 1)} | "
                     f"{percent(low, 1)}-{percent(high, 1)} |")
    lines.append("\n" + _("Draws: {draws}; average rounds: {rounds}; seeds {first}..{last}.").format(
        draws=run["draws"], rounds=decimal(run["average_rounds"]), first=run["first_seed"],
        last=run["first_seed"] + run["games"] - 1))
    return lines


def format_markdown(report: dict[str, Any], chart: str | None = None) -> str:
    """The report (BalanceReport.as_dict(), its words in the language spoken) as Markdown in the language
    spoken: verdict, sides, units, sheets, the suggestion."""
    base, after = report["base"], report.get("confirmed")
    engine = report["engine"]
    out = [_("# Balance of {scene}").format(scene=report["scene"]), "",
           _("{games} AI-against-AI games in {seconds} s on the {engine} engine ({workers} workers). Score = wins "
             "plus half the draws; intervals are 95 % Wilson intervals; fair = every side within 45-55 % (two "
             "sides).").format(games=report["games_played"], seconds=f"{report['seconds']:.0f}",
                               engine=engine.get("engine"), workers=engine.get("workers")), ""]
    if report.get("interrupted"):
        out += [_("**Interrupted**: the figures count the games that finished."), ""]
    if chart:
        out += [_("![balance chart]({chart})").format(chart=chart), ""]
    out += [_("## As it is"), "", f"**{base['verdict']}**", ""] + _sides_table(base)
    out += ["", _("### Units"), "", _("| unit | side | sheet | CP | kills per game | survival | CP taken per game |"),
            "|---|---|---|---:|---:|---:|---:|"]
    for unit in base["units"]:
        cost = "" if unit["cost"] is None else f"{unit['cost']:g}"
        kills = decimal(unit["kills_per_game"], 2)
        out.append(f"| {unit['id']} | {unit['side']} | {unit['sheet']} | {cost} | {kills} | "
                   f"{percent(unit['survival'], 1)} | {decimal(unit['cp_taken_per_game'])} |")
    out += ["", _("### Sheets: value against cost points"), "",
            _("Value = cost points of the enemies a unit of the sheet takes out per game; per CP = value / its cost."),
            "", _("| sheet | units | CP | kills per game | survival | value (CP taken per game) | value per CP |"),
            "|---|---:|---:|---:|---:|---:|---:|"]
    for sheet in sorted(base["sheets"], key=lambda s: -(s.get("value_per_cp") or 0.0)):
        cost = "" if sheet["cost"] is None else f"{sheet['cost']:g}"
        per = "" if sheet.get("value_per_cp") is None else decimal(sheet["value_per_cp"], 2)
        out.append(f"| {sheet['sheet']} | {sheet['units']} | {cost} | {decimal(sheet['kills_per_game'], 2)} | "
                   f"{percent(sheet['survival'], 1)} | {decimal(sheet['cp_taken_per_game'])} | {per} |")
    out += ["", _("## Suggestion"), "", report["suggestion"], ""]
    if report["screened"]:
        fav = max(base["sides"], key=lambda s: base["sides"][s]["score"])
        out += [_("Changes tried on the first {games} seeds ({side}'s score on them; the scene as it is scores "
                  "{score} there):").format(games=report["screened"][0]["games"], side=fav,
                                            score=percent(report.get("screen_base_score") or base["sides"][fav]["score"], 1)),
                "", _("| change | {side}'s score | fair |").format(side=fav), "|---|---:|---|"]
        for tried in report["screened"]:
            fair = _("yes") if tried["fair"] else _("no")
            out.append(f"| {tried['words']} | {percent(tried['favoured_score'], 1)} | {fair} |")
    if after:
        out += ["", _("## With the suggestion"), "", f"**{after['verdict']}**", ""] + _sides_table(after)
    return "\n".join(out) + "\n"
