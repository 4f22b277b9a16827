"""`bow3d simulate SCENE --games N`: AI against AI on the scene's real 3D world, on this machine or on Ray."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from bow3d.errors import UserInputError
from bow3d.i18n import _, decimal, integer, ngettext, percent

if TYPE_CHECKING:
    from bow3d.replay.opponents import NamedPlayers

NAME = "simulate"
ORDER = 45
HELP = "play AI-against-AI games on a scene: wins per side, average rounds, games per second"
DESCRIPTION = """Play N games of a scene, the AI playing every side, with line of sight, cover and
movement answered by the scene's real 3D world (built once per worker). Game i is played from seed
S + i, so every game is reproducible and the results are the same on any engine and any number of
workers: with --replays DIR each game's replay is written there (existing files are kept; a free
name is picked), ready for 'bow3d replay verify' or 'bow3d replay FILE --video out.mp4'.

--engine local (default) plays on processes of this machine; --engine ray on Ray: a local Ray
instance, or the cluster at --address (pip install 'bow3d[ray]'; docs/ray-cluster.md). Results
are counted as they come and, with --json or --results FILE, streamed to disk: memory stays flat
however many games are asked for. A progress bar on stderr shows games done, the rate and the time
left (--no-progress hides it). Ctrl+C stops cleanly: the games that finished are counted and
printed (and kept in --results), exit code 130.

Prints wins per side, draws, average rounds and games per second (world building included). A game
that reaches --max-rounds ends on the rules' round limit.

--blue NAME and --red NAME (or --player SIDE=NAME for other side ids) choose each side's opponent.
BOW has greedy (the fixed baseline: shoot the best odds, else step towards the nearest enemy), ai
(the default) and strong (greedy's plan with targets weighed by their cost, the unit's turn
searched); War of Bros and Blaze of Glory have their ai ('bow3d rulesets' lists each ruleset's
opponents). 'bow3d arena' ranks them. A side named twice is refused.

examples:
  bow3d simulate scenes/village.yaml --games 50
  bow3d simulate scenes/village.yaml --games 20 --blue greedy --red ai
  bow3d simulate scenes/village.yaml --games 1 --seed 1 --replays my-replays/
  bow3d simulate scenes/village.yaml --games 40 --seed 1 --engine ray --json
  bow3d simulate scenes/village.yaml --games 100000 --engine ray --address auto --results village.jsonl"""


def add_engine_arguments(parser: argparse.ArgumentParser, workers_default: str) -> None:
    """--engine, --address, --workers: where batch work runs (shared by simulate, balance, heatmap, replay films)."""
    group = parser.add_argument_group("where the work runs")
    group.add_argument("--engine", choices=("local", "ray"), default="local",
                       help="local processes (default) or Ray (pip install 'bow3d[ray]')")
    group.add_argument("--address", metavar="ADDR", help="with --engine ray: the cluster to join ('auto' on one of "
                       "its nodes, or ray://HEAD:10001); default a private local Ray instance")
    group.add_argument("--workers", type=int, default=None, metavar="W",
                       help=f"workers in parallel (default: {workers_default})")
    group.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


def add_opponent_arguments(parser: argparse.ArgumentParser) -> None:
    """--blue NAME, --red NAME, --player SIDE=NAME: each side's named opponent (default ai)."""
    group = parser.add_argument_group("who plays each side")
    for side in ("blue", "red"):
        group.add_argument(f"--{side}", metavar="NAME", help=f"the opponent that plays {side}: ai (default); "
                           "BOW also has greedy and strong")
    group.add_argument("--player", action="append", default=[], metavar="SIDE=NAME",
                       help="the opponent that plays a side of another name (repeat for several)")


def chosen_opponents(args: argparse.Namespace) -> dict[str, str]:
    """side -> name as given on the command line (--blue, --red, --player SIDE=NAME); checked later
    against the scene (bow3d.replay.opponents.check_opponents)."""
    chosen = {side: getattr(args, side) for side in ("blue", "red") if getattr(args, side, None)}
    for item in getattr(args, "player", []):
        side, sep, name = item.partition("=")
        if not sep or not side or not name:
            raise UserInputError(_("--player {item}: give SIDE=NAME, e.g. --player green=greedy").format(item=item))
        if side in chosen and chosen[side] != name:   # which one was meant? say so rather than pick one
            raise UserInputError(_("--player {item}: {side} is already played by {other}; name each side once")
                                 .format(item=item, side=side, other=chosen[side]))
        chosen[side] = name
    return chosen


def scene_opponents(args: argparse.Namespace) -> tuple[dict[str, str], NamedPlayers | None]:
    """The scene's side -> opponent name (checked), and the players factory for the batch (None: all ai)."""
    from bow3d.replay.opponents import NamedPlayers, check_opponents
    from bow3d.rulesets import load_scene

    chosen = chosen_opponents(args)
    if not chosen:
        return {}, None
    option = "--{side} {name}" if set(chosen) <= {"blue", "red"} else "--player {side}={name}"
    names = check_opponents(load_scene(args.scene), chosen, option)
    return names, NamedPlayers.of(names)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("scene", help="a scene file (.yaml, format bow3d-scene/1)")
    parser.add_argument("--games", type=int, default=10, metavar="N", help="number of games (default 10)")
    parser.add_argument("--seed", type=int, default=1, metavar="S", help="seed of the first game (default 1)")
    parser.add_argument("--replays", metavar="DIR", help="write each game's replay into this folder")
    parser.add_argument("--max-rounds", type=int, default=30, metavar="R",
                        help="end a game after this round (default 30)")
    parser.add_argument("--results", metavar="FILE.jsonl", help="stream each game's result to this file (JSON lines)")
    parser.add_argument("--force", action="store_true", help="replace the --results file if it exists")
    parser.add_argument("--json", action="store_true", help="print JSON for scripts (with each game's result)")
    add_opponent_arguments(parser)
    add_engine_arguments(parser, "every core from 8 games on; with Ray, every CPU of the cluster")


def engine_workers(args: argparse.Namespace, games: int) -> int | None:
    """The --workers to ask for: the user's, else the cores (local, from 8 items on), else Ray's CPUs (None)."""
    from bow3d.batch import check_workers, default_workers

    check_workers(args.workers)
    if args.engine == "local" and args.address:
        raise UserInputError(_("--address goes with --engine ray (the Ray cluster to run on)"))
    if args.workers is not None:
        return args.workers
    if args.engine == "ray":
        return None
    return max(1, min(default_workers(), games)) if games >= 8 else 1


def run(args: argparse.Namespace) -> int:
    from bow3d.replay.simulate import check_games, simulate

    check_games(args.games, args.seed)
    if not 1 <= args.max_rounds <= 10_000:
        raise UserInputError(_("--max-rounds must be 1 to 10,000, got {max_rounds}")
                             .format(max_rounds=args.max_rounds))
    workers = engine_workers(args, args.games)
    names, players = scene_opponents(args)
    summary = simulate(args.scene, args.games, seed=args.seed, replays_dir=args.replays, workers=workers,
                       max_rounds=args.max_rounds, engine=args.engine, address=args.address,
                       keep_results=args.json, results_file=args.results, force=args.force,
                       progress_bar=not args.no_progress, players=players)
    if summary.interrupted:
        print(_("interrupted: {played} of {games} games finished; their results follow")
              .format(played=integer(summary.played), games=integer(summary.games))
              + (_(" (and are in {results})").format(results=args.results) if args.results else ""), file=sys.stderr)
    if args.json:
        summary.write_json(sys.stdout)
        return 130 if summary.interrupted else 0
    print_summary(summary, names, args.seed)
    if summary.replays:
        print(ngettext("wrote {n} replay: {first}", "wrote {n} replays: {first}", len(summary.replays))
              .format(n=len(summary.replays), first=summary.replays[0] if len(summary.replays) == 1
                      else f"{summary.replays[0]} ..."))
    if args.results:
        print(_("wrote {results}: one line per game").format(results=args.results))
    return 130 if summary.interrupted else 0


def workers_phrase(workers: int) -> str:
    """'1 worker', '2 workers' in the language spoken (the first line of simulate's and arena's reports)."""
    return ngettext("{n} worker", "{n} workers", workers).format(n=workers)


def print_summary(summary, names: dict[str, str], seed: int) -> None:
    """The games' counts in the language spoken: wins per side, draws, average rounds, games per second."""
    last = seed + max(summary.played, 1) - 1
    seeds = _("seed {seed}").format(seed=seed) if last == seed else _("seeds {first}..{last}").format(
        first=seed, last=last)
    print(_("{scene}: {games}, {seeds}, {engine} engine, {workers}").format(
        scene=summary.scene, games=ngettext("{n} game", "{n} games", summary.played).format(n=integer(summary.played)),
        seeds=seeds, engine=summary.engine,
        workers=workers_phrase(summary.workers)))
    for side, wins in summary.wins.items():
        who = f" ({names[side]})" if names else ""
        share = percent(wins / max(summary.played, 1))
        print(f"  {side + who:<12} " + ngettext("{wins:>5} win  ({share})", "{wins:>5} wins ({share})", wins)
              .format(wins=wins, share=share))
    draws = _("draws")
    print(f"  {draws:<12} {summary.draws:>5}")
    print(_("average rounds {rounds}; {rate} games/s ({seconds} s, world building included)").format(
        rounds=decimal(summary.average_rounds), rate=decimal(summary.games_per_second, 2),
        seconds=decimal(summary.seconds, 2)))
