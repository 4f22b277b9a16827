"""bow3d balance: Wilson intervals, per-unit and per-sheet statistics, a suggestion whose effect is
measured by playing it, the report (Markdown, JSON, chart) and the changed village."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bow3d.batch import open_executor
from bow3d.replay.balance import BalanceRun, wilson
from bow3d.replay.balance_search import format_markdown, search
from bow3d.replay.simulate import GameJob, GameRecord
from bow3d.replay.variants import RemoveUnit, SwapSheet, apply_edits
from bow3d.rulesets import load_scene

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("k, n, low, high", [
    (50, 100, 0.4038, 0.5962),      # the textbook values (z = 1.96)
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (140, 200, 0.6332, 0.7593),
])
def test_wilson_interval(k, n, low, high):
    got = wilson(k, n)
    assert got == pytest.approx((low, high), abs=1e-4)


def test_a_run_counts_sides_units_and_sheets(scene_path):
    scene = load_scene(scene_path)
    run = BalanceRun(scene)
    run.add(GameRecord(1, "red", 3, 90, "win", fallen=("blue-1", "blue-3"), kills=(("red-1", "blue-1"),
                                                                                   ("red-1", "blue-3"))))
    run.add(GameRecord(2, None, 6, 200, "draw", fallen=("red-2",), kills=(("blue-4", "red-2"),)))
    assert run.games == 2 and run.wins == {"blue": 0, "red": 1} and run.draws == 1
    assert run.score("red") == 0.75 and run.score("blue") == 0.25 and run.favoured == "red"
    red1 = run.units["red-1"]
    assert (red1.kills, red1.deaths, red1.cost_taken) == (2, 0, 22 + 11)  # rifleman 22 CP, medic 11 CP
    sheets = run.sheets()
    assert sheets["rifleman"]["units"] == 4 and sheets["rifleman"]["kills"] == 2
    assert sheets["medic"]["survival"] == 0.5
    data = run.as_dict()
    assert data["sides"]["red"]["ci95"] == [round(v, 4) for v in wilson(1.5, 2)] and not data["fair"]


def test_edits_change_the_scene_and_are_checked(scene_path):
    scene = load_scene(scene_path)
    edited = apply_edits(scene, (SwapSheet("red-3", "medic"), RemoveUnit("red-2")))
    assert edited.unit("red-3").sheet == "medic" and [u.id for u in edited.units_of("red")] == ["red-1", "red-3"]
    assert edited.path == scene.path and apply_edits(scene, ()) is scene
    from bow3d.errors import SceneError

    with pytest.raises(SceneError, match="no sheet 'dragon'"):
        apply_edits(scene, (SwapSheet("red-3", "dragon"),))
    with pytest.raises(SceneError, match="no unit 'red-9'"):
        apply_edits(scene, (RemoveUnit("red-9"),))


def test_the_suggestion_is_measured_by_playing_it(lopsided_scene):
    """Red is favoured (blue lacks a rifleman): the chosen change is re-played on all the seeds and the
    report's suggestion gives that measured score; the same study gives the same report on 1 or 2 workers."""
    from tests.replay.test_session import flat

    # today's AI (bow-ai-2): one sheet swap overshoots the other way, three candidates a stage find the
    # change that helps (red-3 leaves)
    job = GameJob.of(lopsided_scene, max_rounds=6, geometry_factory=flat)
    reports = []
    for workers in (1, 2):
        with open_executor("local", workers) as executor:
            reports.append(search(str(lopsided_scene), 40, 1, executor, job=job, screen_games=20,
                                  candidates_per_stage=3, stages=2, progress=False))
    report = reports[1]
    assert not report.base.is_fair() and report.base.favoured == "red"
    assert report.screened and all(run.games == 20 for _, run in report.screened)
    assert report.chosen is not None and report.confirmed is not None
    assert report.confirmed.games == 40 and report.confirmed.edits == report.chosen.edits
    assert report.confirmed.first_seed == report.base.first_seed  # the same seeds: the change, not luck
    text = report.suggestion()
    assert text.startswith("Suggestion: ") and "Measured effect, re-played on the same 40 seeds" in text
    assert f"{report.confirmed.score('red'):.1%}" in text
    data = report.as_dict()
    assert data["games_played"] == 40 + 20 * len(report.screened) + 40
    assert json.loads(json.dumps(data)) == data
    one, two = (r.as_dict() for r in reports)
    for key in ("base", "confirmed"):
        one[key]["seconds"] = two[key]["seconds"] = 0
    for key in ("base", "confirmed", "screened", "chosen", "suggestion"):
        assert one[key] == two[key], key
    markdown = format_markdown(data, "chart.png")
    for heading in ("## As it is", "### Units", "### Sheets: value against cost points", "## Suggestion",
                    "## With the suggestion", "![balance chart](chart.png)"):
        assert heading in markdown



class _StopAfter:
    """An executor that plays the real games on one worker, then Ctrl+C after `games` of a batch."""

    def __init__(self, executor, games: int, on_batch: int) -> None:
        self.executor, self.games, self.on_batch, self.batches = executor, games, on_batch, 0

    def describe(self):
        return self.executor.describe()

    def map(self, job, items, **kwargs):
        self.batches += 1
        for done, result in enumerate(self.executor.map(job, items, **kwargs)):
            if self.batches == self.on_batch and done == self.games:
                raise KeyboardInterrupt
            yield result


@pytest.mark.parametrize("on_batch", [1, 2])
def test_ctrl_c_keeps_the_games_that_finished(lopsided_scene, on_batch):
    """Ctrl+C while the scene as it is plays (batch 1) keeps its finished games as the base; while a
    candidate is screened (batch 2) keeps the whole base and suggests nothing unmeasured."""
    from tests.replay.test_session import flat

    job = GameJob.of(lopsided_scene, max_rounds=6, geometry_factory=flat)
    with open_executor("local", 1) as executor:
        report = search(str(lopsided_scene), 12, 1, _StopAfter(executor, 5, on_batch), job=job, screen_games=6,
                        candidates_per_stage=2, stages=1, progress=False)
    assert report.interrupted and report.confirmed is None
    assert report.base.games == (5 if on_batch == 1 else 12)
    assert report.base.first_seed == 1 and sum(report.base.wins.values()) + report.base.draws == report.base.games
    assert "no game" not in report.base.verdict()
    assert report.suggestion() == ("No suggestion: interrupted while the scene as it is was played." if on_batch == 1
                                   else "No suggestion: the search for a change was interrupted (0 candidate "
                                   "changes screened to the end).")
    data = report.as_dict()
    assert data["interrupted"] and data["base"]["games"] == report.base.games



def test_no_candidates_asked_means_no_search(lopsided_scene):
    """--candidates 0: the scene is measured and nothing else is played."""
    from tests.replay.test_session import flat

    job = GameJob.of(lopsided_scene, max_rounds=6, geometry_factory=flat)
    with open_executor("local", 1) as executor:
        report = search(str(lopsided_scene), 8, 1, executor, job=job, screen_games=4, candidates_per_stage=0,
                        progress=False)
    assert not report.base.is_fair() and report.screened == [] and report.chosen is None
    assert report.games_played == 8 and report.suggestion() == "No change looked for (--candidates 0)."

def test_a_run_with_no_game_gives_no_verdict(scene_path):
    run = BalanceRun(load_scene(scene_path))
    assert run.verdict() == "no verdict: no game finished" and not run.is_fair()


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bow3d", *args], capture_output=True, text=True, timeout=600, cwd=ROOT)


@pytest.mark.slow
def test_balance_command_writes_the_report_the_chart_and_the_changed_scene(tmp_path):
    scene_dir = tmp_path / "scenes"
    import shutil

    shutil.copytree(ROOT / "scenes", scene_dir, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    report = tmp_path / "report"
    result = run_cli("balance", str(scene_dir / "los-gallery.yaml"), "--games", "6", "--screen-games", "3",
                     "--candidates", "1", "--report", str(report), "--write-scene", str(scene_dir / "fairer.yaml"))
    assert result.returncode == 0, result.stderr
    assert "score" in result.stdout and "95 % CI" in result.stdout and "wrote" in result.stdout
    data = json.loads(report.with_suffix(".json").read_text())
    assert data["base"]["games"] == 6 and set(data["base"]["sides"]) == {"blue", "red"}
    assert report.with_suffix(".png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "## As it is" in report.with_suffix(".md").read_text()
    if data["chosen"] is not None:  # the changed scene reads back and carries the change
        changed = load_scene(scene_dir / "fairer.yaml")
        assert len(changed.units) <= len(load_scene(scene_dir / "los-gallery.yaml").units)
    again = run_cli("balance", str(scene_dir / "los-gallery.yaml"), "--games", "2", "--report", str(report))
    assert again.returncode == 2 and "already exists" in again.stderr  # nothing the user has is overwritten



def test_balance_help_examples_parse_and_name_scenes_that_are_here():
    """Every example of `bow3d balance --help` is a command line the parser takes as it is printed, its
    scene is a file of the repository and the files it writes do not exist yet (it runs as printed)."""
    import shlex

    from bow3d.cli import build_parser
    from bow3d.commands.balance import DESCRIPTION

    examples = [line.strip() for line in DESCRIPTION.split("examples", 1)[1].splitlines()
                if line.strip().startswith("bow3d balance ")]
    assert len(examples) >= 4 and any("--engine ray" in e for e in examples)
    parser = build_parser("balance")
    for example in examples:
        args = parser.parse_args(shlex.split(example)[1:])
        assert (ROOT / args.scene).is_file(), example
        assert all(not (ROOT / out).exists() for out in
                   ([args.write_scene] if args.write_scene else []) +
                   ([f"{args.report}.{ext}" for ext in ("md", "json", "png")] if args.report else [])), example
        assert 1 <= args.games <= 10_000 and (args.screen_games or 1) <= args.games, example


@pytest.mark.parametrize("args, message", [
    (["--games", "0"], "--games 0: give 1 to"),
    (["--games", "10", "--screen-games", "20"], "--screen-games must be 1 to --games"),
    (["--write-scene", "out.txt"], "give it a .yaml name"),
    (["--candidates", "-1"], "--candidates must be 0 to 50"),
])
def test_balance_bad_input_is_one_line(args, message):
    result = run_cli("balance", "scenes/los-gallery.yaml", *args)
    assert result.returncode == 2 and message in result.stderr and "Traceback" not in result.stderr


def _edits_of(chosen: dict) -> tuple:
    kinds = {"SwapSheet": SwapSheet, "RemoveUnit": RemoveUnit}
    return tuple(kinds[e["kind"]](**{k: v for k, v in e.items() if k != "kind"}) for e in chosen["edits"])


def _armies(scene) -> list[tuple[str, str, str]]:
    return sorted((u.id, u.side, u.sheet) for u in scene.units)


@pytest.mark.parametrize("report_name, before, after", [
    ("balance-village", "village.yaml", "village-balanced.yaml"),
])
def test_each_committed_changed_village_carries_its_reports_suggestion(report_name, before, after):
    """docs/REPORT.json's suggestion applied to scenes/BEFORE gives exactly the armies of scenes/AFTER."""
    path = ROOT / "docs" / f"{report_name}.json"
    if not path.is_file():
        pytest.skip(f"{path.name} is not here")
    report = json.loads(path.read_text())
    assert Path(report["scene"]).name == before
    assert report["base"]["fair"] is False and report["chosen"] is not None, report["suggestion"]
    scene = load_scene(ROOT / "scenes" / before)
    changed = load_scene(ROOT / "scenes" / after)
    assert _armies(apply_edits(scene, _edits_of(report["chosen"]))) == _armies(changed)
    assert _armies(changed) != _armies(scene)


@pytest.mark.parametrize("report_name, searched", [("balance-village-balanced", "balance-village")])
def test_each_changed_village_is_measured_again_on_new_seeds(report_name, searched):
    """The changed scene's own report was played on seeds its search did not use, on enough games for a
    95 % interval about 8 points wide, and its verdict says what its scores say."""
    path = ROOT / "docs" / f"{report_name}.json"
    if not path.is_file():
        pytest.skip(f"{path.name} is not here")
    check = json.loads(path.read_text())
    search_report = json.loads((ROOT / "docs" / f"{searched}.json").read_text())
    base = check["base"]
    assert not base["interrupted"] and base["games"] >= 400
    assert base["first_seed"] > search_report["base"]["first_seed"] + search_report["base"]["games"] - 1
    within = all(0.45 <= side["score"] <= 0.55 for side in base["sides"].values())
    assert base["fair"] is within and base["verdict"].startswith("fair:" if within else "unfair:")
    for side in base["sides"].values():
        low, high = side["ci95"]
        assert low <= side["score"] <= high and high - low < 0.085


def test_a_variant_run_describes_its_edits_of_the_scene_they_were_applied_to(scene_path):
    """Was: a screened candidate that takes a unit out ended the search with KeyError ('no unit'): its run
    described the edits against the edited scene, where that unit no longer is (and said 'swap red-3's
    sheet medic for medic' of a swap)."""
    from bow3d.replay.balance_search import play_variant
    from tests.replay.test_session import flat

    scene = load_scene(scene_path)
    edits = (RemoveUnit("red-2"), SwapSheet("red-3", "medic"))
    with open_executor("local", 1) as executor:
        run = play_variant(executor, GameJob.of(scene_path, max_rounds=2, geometry_factory=flat), scene, edits,
                           range(1, 3), "test", progress=False)
    assert run.as_dict()["edits"] == "take red-2 (rifleman) out; swap red-3's sheet hero for medic"


def test_a_changed_scene_is_written_only_where_it_can_read_its_files(tmp_path):
    """Issue 32: --write-scene into another folder wrote '../scenes/village.ldr', which a scene may not read (its
    files lie in its folder or below): the scene written did not load. Now refused before any game is played."""
    from bow3d.cli import main
    from bow3d.replay.variants import relocated, unreadable_from
    from bow3d.scene.io import format_scene

    (tmp_path / "other").mkdir()
    out = tmp_path / "other" / "fair.yaml"
    code = main(["balance", str(ROOT / "scenes" / "village.yaml"), "--games", "2", "--screen-games", "1",
                 "--candidates", "1", "--max-rounds", "2", "--no-progress", "--write-scene", str(out)])
    assert code == 2 and not out.exists()
    copy = tmp_path / "copy"
    shutil.copytree(ROOT / "scenes", copy / "scenes", ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    scene = load_scene(copy / "scenes" / "village.yaml")
    assert unreadable_from(scene, tmp_path / "other")[:2] == ["village.ldr", "figures/blue-swordsman.ldr"]
    assert unreadable_from(scene, copy) == [] and unreadable_from(scene, copy / "scenes") == []
    (copy / "fair.yaml").write_text(format_scene(relocated(scene, copy)))   # a folder above: it loads
    assert load_scene(copy / "fair.yaml").battlefield == "scenes/village.ldr"


def test_the_refusal_names_the_files_and_the_way_out(tmp_path, capsys):
    from bow3d.cli import main

    main(["balance", str(ROOT / "scenes" / "village.yaml"), "--games", "2", "--write-scene", str(tmp_path / "f.yaml")])
    err = capsys.readouterr().err
    assert "could not read village.ldr" in err and str(ROOT / "scenes") in err and "BOW3D_ALLOW_PATHS" in err
