"""`bow3d simulate SCENE --games N`: AI against AI on the scene's real 3D world."""

from __future__ import annotations

import argparse
import json
import os

from bow3d.errors import UserInputError

NAME = "simulate"
ORDER = 45
HELP = "play AI-against-AI games on a scene: wins per side, average rounds, games per second"
DESCRIPTION = """Play N games of a scene, the AI playing every side, with line of sight, cover and
movement answered by the scene's real 3D world (built once per worker process). Game i is
played from seed S + i, so every game is reproducible: with --replays DIR each game's replay
is written there (existing files are kept; a free name is picked), ready for
'bow3d replay verify' or 'bow3d replay FILE --video out.mp4'.

Prints wins per side, draws, average rounds and games per second (world building excluded with
one worker; with several workers it is inside the time). A game that reaches --max-rounds ends
on the rules' round limit.

examples:
  bow3d simulate scenes/village.yaml --games 50
  bow3d simulate scenes/village.yaml --games 1 --seed 1 --replays replays/
  bow3d simulate scenes/los-gallery.yaml --games 20 --workers 2 --json"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("scene", help="a scene file (.yaml, format bow3d-scene/1)")
    parser.add_argument("--games", type=int, default=10, metavar="N", help="number of games (default 10)")
    parser.add_argument("--seed", type=int, default=1, metavar="S", help="seed of the first game (default 1)")
    parser.add_argument("--replays", metavar="DIR", help="write each game's replay into this folder")
    parser.add_argument("--workers", type=int, default=None, metavar="W",
                        help="processes playing in parallel (default: 2 from 8 games on, where 2 cores exist)")
    parser.add_argument("--max-rounds", type=int, default=30, metavar="R",
                        help="end a game after this round (default 30)")
    parser.add_argument("--json", action="store_true", help="print JSON for scripts (with each game's result)")


def run(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from bow3d.replay.dice import check_seed
    from bow3d.replay.simulate import MAX_GAMES, MAX_WORKERS, simulate

    if not 1 <= args.games <= MAX_GAMES:
        raise UserInputError(f"--games {args.games}: give 1 to {MAX_GAMES:,} games (at a few games a second, "
                             f"{MAX_GAMES:,} already take days)")
    if not 1 <= args.max_rounds <= 10_000:
        raise UserInputError(f"--max-rounds must be 1 to 10,000, got {args.max_rounds}")
    check_seed(args.seed)
    check_seed(args.seed + args.games - 1, "--seed + --games")
    workers = args.workers
    if workers is None:
        workers = 2 if args.games >= 8 and (os.cpu_count() or 1) >= 2 else 1
    if not 1 <= workers <= MAX_WORKERS:
        raise UserInputError(f"--workers must be 1 to {MAX_WORKERS}, got {workers}")
    with tqdm(total=args.games, unit="game", desc="simulating", disable=None, leave=False) as bar:
        summary = simulate(args.scene, args.games, seed=args.seed, replays_dir=args.replays, workers=workers,
                           max_rounds=args.max_rounds, progress=lambda result: bar.update(1))
    if args.json:
        print(json.dumps(summary.as_dict(), indent=2))
        return 0
    print(f"{summary.scene}: {summary.games} games, seeds {args.seed}..{args.seed + args.games - 1}, "
          f"{summary.workers} worker{'s' if summary.workers > 1 else ''}")
    for side, wins in summary.wins.items():
        print(f"  {side:<12} {wins:>5} wins ({wins / summary.games:.0%})")
    print(f"  {'draws':<12} {summary.draws:>5}")
    print(f"average rounds {summary.average_rounds:.1f}; {summary.games_per_second:.2f} games/s "
          f"({summary.seconds:.2f} s of play, {summary.setup_seconds:.2f} s to build the world)")
    if summary.replays:
        print(f"wrote {len(summary.replays)} replay{'s' if len(summary.replays) > 1 else ''}: "
              + (summary.replays[0] if len(summary.replays) == 1 else f"{summary.replays[0]} ..."))
    return 0
