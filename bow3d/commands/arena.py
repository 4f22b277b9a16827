"""`bow3d arena SCENE --players greedy,ai,strong --games N`: named opponents ranked against each other."""

from __future__ import annotations

import argparse
import json
import sys

from bow3d.commands.simulate import add_engine_arguments, engine_workers, workers_phrase
from bow3d.i18n import _, decimal, ngettext, percent, semicolon

NAME = "arena"
ORDER = 47
HELP = "rank named opponents (greedy, ai, strong): every pairing on both seatings, win rates and ratings"
DESCRIPTION = """Play every pairing of the named opponents on a scene of two sides, N games per pairing:
half with the first of the pair on the scene's first side, half with the sides swapped, on the same
seeds (the same throws meet both seatings, so the first side's advantage cancels). The games run
through the batch executor (--engine local or ray, --workers), with a progress bar per seating.

Opponents (BOW): greedy (a fixed baseline: shoot the best odds, else step towards the nearest enemy),
ai (the default AI) and strong (greedy's plan with targets weighed by their cost, the unit's turn
searched); see 'bow3d simulate --blue NAME --red NAME' to watch one of them. A ruleset with one
opponent only (War of Bros, Blaze of Glory: their ai) has no pairing to rank: 'bow3d rulesets'
lists each ruleset's opponents.

Prints, per pairing, the score of the first of the pair (wins plus half the draws) with its 95 %
Wilson interval and each seating's result; an Elo-like rating of every player (the Bradley-Terry fit
of every game, the first player at 1000, 400 points = odds of 10 to 1); and the mishaps of piloted
vehicles per player (friends run over, crashes into walls or off the field, BOW 3.6).

On the village a game between greedy and ai takes about 2 s of one core, one between ai and strong
about as long (strong decides in about a hundredth of a second; the AI takes longer): 200 games of a
pairing, about 2.5 minutes on 2 workers (benchmarks/RESULTS.md).

examples:
  bow3d arena scenes/village.yaml --players greedy,ai --games 4
  bow3d arena scenes/village.yaml --players greedy,ai,strong --games 2 --max-rounds 3 --json
  bow3d arena scenes/village.yaml --players greedy,ai --games 200 --workers 2"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("scene", help="a scene file of two sides (.yaml)")
    parser.add_argument("--players", required=True, metavar="A,B[,C...]",
                        help="the opponents, comma separated (greedy, ai, strong); the first anchors the ratings")
    parser.add_argument("--games", type=int, default=20, metavar="N",
                        help="games per pairing, over both seatings (default 20)")
    parser.add_argument("--seed", type=int, default=1, metavar="S", help="seed of each seating's first game (default 1)")
    parser.add_argument("--max-rounds", type=int, default=30, metavar="R", help="end a game after this round (default 30)")
    parser.add_argument("--json", action="store_true", help="print JSON for scripts")
    add_engine_arguments(parser, "every core from 8 games on; with Ray, every CPU of the cluster")


def run(args: argparse.Namespace) -> int:
    from bow3d.errors import UserInputError
    from bow3d.replay.arena import play_arena

    if not 1 <= args.max_rounds <= 10_000:
        raise UserInputError(_("--max-rounds must be 1 to 10,000, got {max_rounds}")
                             .format(max_rounds=args.max_rounds))
    workers = engine_workers(args, args.games)
    result = play_arena(args.scene, args.players.split(","), args.games, args.seed, workers=workers,
                        engine=args.engine, address=args.address, max_rounds=args.max_rounds,
                        progress_bar=not args.no_progress)
    if result.interrupted:
        print(_("interrupted: the games that finished are counted below"), file=sys.stderr)
    if args.json:
        print(json.dumps(result.as_dict(), indent=2))
        return 130 if result.interrupted else 0
    for line in arena_lines(result):
        print(line)
    return 130 if result.interrupted else 0


def arena_lines(result) -> list[str]:
    """The arena's table in the language spoken."""
    first, second = result.sides
    lines = [_("{scene}: {players} players, {pairings} x {games} games, both seatings ({first} first, then "
               "{second}), {engine} engine, {workers}, {seconds} s").format(
        scene=result.scene, players=len(result.players),
        pairings=ngettext("{n} pairing", "{n} pairings", len(result.pairings)).format(n=len(result.pairings)),
        games=result.games, first=first, second=second, engine=result.engine,
        workers=workers_phrase(result.workers),
        seconds=decimal(result.seconds))]
    for pairing in result.pairings:
        low, high = pairing.interval(pairing.a)
        seats = semicolon().join(_("{player} as {side}: {wins}-{losses}").format(
            player=s.first, side=first, wins=s.wins, losses=s.losses)
            + (_("-{draws} drawn").format(draws=s.draws) if s.draws else "") for s in pairing.seatings)
        lines.append("  " + _("{a} v {b}: {a} scores {rate} of {games} [95 % {low}..{high}]  ({seats})").format(
            a=pairing.a, b=pairing.b, rate=percent(pairing.rate(pairing.a), 1), games=pairing.games,
            low=percent(low, 1), high=percent(high, 1), seats=seats))
    ratings = result.ratings()
    lines.append(_("ratings (Elo-like, {player} = 1000): ").format(player=result.players[0])
                 + ", ".join(f"{p} {ratings[p]:.0f}" for p in sorted(ratings, key=lambda p: -ratings[p])))
    lines.append(_("piloted vehicles: ") + semicolon().join(
        f"{p} " + ngettext("{n} friend run over", "{n} friends run over", m.get("friendly_run_over", 0)).format(
            n=m.get("friendly_run_over", 0)) + ", "
        + ngettext("{n} crash", "{n} crashes", m.get("crash", 0)).format(n=m.get("crash", 0))
        for p, m in result.mishaps.items()))
    return lines
