"""`bow3d balance SCENE --games N`: is the scenario fair, what is each unit worth, what change evens it."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bow3d.commands.simulate import add_engine_arguments, engine_workers
from bow3d.errors import UserInputError
from bow3d.i18n import _, decimal, integer, ngettext, percent, speaking

NAME = "balance"
ORDER = 46
HELP = "win rates with confidence intervals, each unit's and sheet's value against its points, and a measured fix"
DESCRIPTION = """Play N AI-against-AI games of a scene (seeds S..S+N-1, on this machine or on Ray) and
report, for scenario designers:
  - each side's score (wins plus half the draws) with its 95 % confidence interval (Wilson), and
    whether the scenario is fair (every side within 45-55 %);
  - average rounds; per unit its kills, deaths and survival; per sheet its value (the cost points
    of the enemies it takes out per game) against its cost points (BOW Annex A.4, or the
    ruleset's own points);
  - a suggestion: which side to give or take how many points, by which unit playing another sheet
    of the scene or leaving, with its effect measured: candidate changes are played on the first
    --screen-games seeds, the best (combined with a second change when one is not enough) is played
    again on all N seeds, and the report gives that measured score.

--report NAME writes NAME.md (Markdown), NAME.json and NAME.png (a chart); --write-scene FILE.yaml
writes the scene with the suggestion applied (its files named relative to the new place). Existing
files are refused unless --force. Ctrl+C stops cleanly and reports the games that finished.

examples (a village game takes about 0.6 s of one core):
  bow3d balance scenes/village.yaml --games 200
  bow3d balance scenes/village.yaml --games 200 --screen-games 100 --candidates 3 --report village-balance --write-scene village-fair.yaml
  bow3d balance scenes/village-balanced.yaml --games 600 --seed 1001 --candidates 0
  bow3d balance scenes/village.yaml --games 100 --engine ray --json
  # on a node of a running Ray cluster (docs/ray-cluster.md):
  bow3d balance scenes/village.yaml --games 5000 --engine ray --address auto --json"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("scene", help="a scene file (.yaml)")
    parser.add_argument("--games", type=int, default=200, metavar="N", help="games per full run (default 200)")
    parser.add_argument("--seed", type=int, default=1, metavar="S", help="seed of the first game (default 1)")
    parser.add_argument("--screen-games", type=int, default=None, metavar="M",
                        help="games per candidate change while searching (default N/2)")
    parser.add_argument("--candidates", type=int, default=4, metavar="K",
                        help="candidate changes tried per step (default 4; 0: no suggestion)")
    parser.add_argument("--max-rounds", type=int, default=30, metavar="R", help="end a game after this round")
    parser.add_argument("--report", metavar="NAME", help="write NAME.md, NAME.json and the chart NAME.png")
    parser.add_argument("--write-scene", metavar="FILE.yaml", help="write the scene with the suggestion applied")
    parser.add_argument("--force", action="store_true", help="replace existing report files or scene")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    add_engine_arguments(parser, "every core; with Ray, every CPU of the cluster")


def _outputs(args: argparse.Namespace) -> list[Path]:
    """Every file this run will write, checked before the long work (bow3d.paths.check_new)."""
    from bow3d.paths import check_new

    outs = []
    if args.report:
        base = Path(args.report)
        if base.suffix.lower() in (".md", ".json", ".png"):
            base = base.with_suffix("")
        outs += [base.with_suffix(".md"), base.with_suffix(".json"), base.with_suffix(".png")]
    if args.write_scene:
        scene_out = Path(args.write_scene)
        if scene_out.suffix.lower() not in (".yaml", ".yml"):
            raise UserInputError(_("{scene_out}: --write-scene writes a scene file: give it a .yaml "
                                   "name").format(scene_out=scene_out))
        outs.append(scene_out)
    for out in outs:
        check_new(out, force=args.force)
    if args.write_scene and Path(args.write_scene).resolve() == Path(args.scene).resolve():
        raise UserInputError(_("{write_scene}: is the scene being measured; write the changed scene "
                               "elsewhere").format(write_scene=args.write_scene))
    return outs


def _check_readable_there(scene, out: Path) -> None:
    """Refuse, before any game, a --write-scene whose folder would not let the scene written there read
    its own files (a scene reads its folder and below, bow3d.scene.paths): it would not load."""
    from bow3d.replay.variants import unreadable_from

    outside = unreadable_from(scene, out.parent)
    if outside:
        raise UserInputError(_("{out}: a scene written there could not read {files} (a scene reads only files in "
                               "its own folder or below it); write it in {folder} or a folder above the files, or "
                               "allow their folder with BOW3D_ALLOW_PATHS")
                             .format(out=out, files=", ".join(outside[:3]), folder=scene.path.parent))


def _side_colours(scene) -> dict[str, tuple[int, int, int]]:
    try:
        from bow3d.view.graph.markers import ldraw_rgba
    except ImportError:
        return {}
    return {side.id: ldraw_rgba(side.colour)[:3] for side in scene.sides if getattr(side, "colour", None)}


def run(args: argparse.Namespace) -> int:
    from bow3d.batch import open_executor
    from bow3d.replay.balance_search import format_markdown, search
    from bow3d.replay.simulate import GameJob, check_games, library_choice
    from bow3d.rulesets import load_scene

    check_games(args.games, args.seed)
    screen = args.screen_games if args.screen_games is not None else max(1, args.games // 2)
    if not 1 <= screen <= args.games:
        raise UserInputError(_("--screen-games must be 1 to --games ({games}), got {screen}")
                             .format(games=args.games, screen=screen))
    if not 0 <= args.candidates <= 50:
        raise UserInputError(_("--candidates must be 0 to 50, got {candidates}").format(candidates=args.candidates))
    if not 1 <= args.max_rounds <= 10_000:
        raise UserInputError(_("--max-rounds must be 1 to 10,000, got {max_rounds}")
                             .format(max_rounds=args.max_rounds))
    scene = load_scene(args.scene)
    outs = _outputs(args)
    if args.write_scene:
        _check_readable_there(scene, Path(args.write_scene))
    workers = engine_workers(args, args.games)
    job = GameJob.of(args.scene, library=library_choice(), max_rounds=args.max_rounds)
    with open_executor(args.engine, workers, args.address) as executor:
        report = search(args.scene, args.games, args.seed, executor, job=job, screen_games=screen,
                        candidates_per_stage=args.candidates, progress=not args.no_progress)
    with speaking("en"):   # JSON and files for scripts stay English
        data = report.as_dict()
    words = report.as_dict()   # the report's sentences in the language spoken
    if args.report:
        from bow3d.paths import write_new
        from bow3d.view.output.balance_chart import draw_balance_chart

        md, js, png = outs[:3]
        draw_balance_chart(words, png, _side_colours(scene), force=args.force)
        write_new(js, json.dumps(data, indent=2) + "\n", force=args.force)
        write_new(md, format_markdown(words, png.name), force=args.force)
    if args.write_scene and report.chosen is not None:
        from bow3d.paths import write_new
        from bow3d.replay.variants import apply_edits, relocated
        from bow3d.scene.io import format_scene

        changed = relocated(apply_edits(scene, report.chosen.edits), Path(args.write_scene).parent)
        header = (f"# {Path(args.scene).name} with bow3d balance's suggestion applied: "
                  f"{data['chosen']['words']}\n")
        write_new(args.write_scene, header + format_scene(changed), force=args.force)
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        _print_summary(report, words)
        if args.report:
            print(_("wrote {files}").format(files=', '.join(str(p) for p in outs[:3])))
        if args.write_scene:
            print(_("wrote {files}").format(files=args.write_scene) if report.chosen is not None else
                  _("{scene_out} not written: no change suggested").format(scene_out=args.write_scene))
    if report.interrupted:
        print(ngettext("interrupted: the report counts the {n} game that finished",
                       "interrupted: the report counts the {n} games that finished", report.games_played)
              .format(n=integer(report.games_played)), file=sys.stderr)
        return 130
    return 0


def _print_summary(report, data: dict) -> None:
    base = data["base"]
    print(_("{scene}: {games} games, {engine} engine, {workers} workers, {played} games in all ({seconds} s)").format(
        scene=data["scene"], games=base["games"], engine=data["engine"]["engine"], workers=data["engine"]["workers"],
        played=data["games_played"], seconds=f"{data['seconds']:.0f}"))
    for side, entry in base["sides"].items():
        low, high = entry["ci95"]
        cp = "" if entry["cost_points"] is None else _(", {points} CP").format(points=f"{entry['cost_points']:g}")
        score = percent(entry["score"], 1).rjust(6)
        print(f"  {side:<10} " + _("score {score} (95 % CI {low}-{high}), {wins} wins{cp}").format(
            score=score, low=percent(low, 1), high=percent(high, 1), wins=entry["wins"], cp=cp))
    print("  " + _("draws {draws}, average rounds {rounds}").format(draws=base["draws"],
                                                                   rounds=decimal(base["average_rounds"])))
    print(base["verdict"])
    print(data["suggestion"])
