"""An arena: named opponents play each other on one scene, every pairing on both seatings.

Layer: replay. Each pairing (a, b) plays `games` games through the batch executor (bow3d.batch, the
same GameJob as `simulate`): half with a on the scene's first side and b on the second, half the
other way round, on the same seeds (the same throws meet both seatings, so the side's advantage
cancels). A player's score in a pairing is its wins plus half the draws, with its 95 % Wilson
interval (bow3d.replay.balance.wilson). The Elo-like ratings are the Bradley-Terry fit of every
game (draws as half a win), with one virtual draw per pairing so that a clean sweep stays finite,
on the Elo scale (400 points = 10 to 1 odds), the first player anchored at ANCHOR.

Mishaps of piloted vehicles (a friend run over, a crash, BOW §3.6) are counted per player from the
games' records (bow3d.replay.simulate.Tally).
"""

from __future__ import annotations

import copy
import itertools
import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bow3d.batch import Job, open_executor
from bow3d.errors import UserInputError
from bow3d.i18n import _
from bow3d.replay.balance import wilson
from bow3d.replay.opponents import NamedPlayers, check_opponents
from bow3d.replay.session import DEFAULT_MAX_ROUNDS, ruleset_for, side_ids
from bow3d.replay.simulate import GameJob, GameRecord, GameTable, check_games, library_choice

ANCHOR = 1000.0        # the first player's rating
ELO_SCALE = 400.0      # rating points for odds of 10 to 1
FIT_ROUNDS = 2000      # Bradley-Terry minorize-maximize iterations (converges long before)


@dataclass
class Seating:
    """The games of one pairing with `first` on the scene's first side."""

    first: str
    second: str
    games: int = 0
    wins: int = 0        # of `first`
    losses: int = 0
    draws: int = 0

    @property
    def score(self) -> float:
        """`first`'s wins plus half the draws."""
        return self.wins + 0.5 * self.draws


@dataclass
class Pairing:
    """Two players, both seatings."""

    a: str
    b: str
    seatings: list[Seating] = field(default_factory=list)

    @property
    def games(self) -> int:
        return sum(s.games for s in self.seatings)

    def score_of(self, player: str) -> float:
        """Wins plus half the draws of `player` over both seatings."""
        return sum(s.score if s.first == player else s.games - s.score for s in self.seatings)

    def rate(self, player: str) -> float:
        return self.score_of(player) / self.games if self.games else 0.0

    def interval(self, player: str) -> tuple[float, float]:
        return wilson(self.score_of(player), self.games)

    def as_dict(self) -> dict[str, Any]:
        low, high = self.interval(self.a)
        return {"a": self.a, "b": self.b, "games": self.games, "score_a": self.score_of(self.a),
                "rate_a": round(self.rate(self.a), 4), "interval_a": [round(low, 4), round(high, 4)],
                "seatings": [{"first": s.first, "second": s.second, "games": s.games, "first_wins": s.wins,
                              "second_wins": s.losses, "draws": s.draws} for s in self.seatings]}


@dataclass
class ArenaResult:
    scene: str
    players: list[str]
    games: int                               # asked per pairing
    sides: tuple[str, str]
    pairings: list[Pairing] = field(default_factory=list)
    mishaps: dict[str, dict[str, int]] = field(default_factory=dict)   # player -> kind -> count
    seconds: float = 0.0
    workers: int = 1
    engine: str = "local"
    first_seed: int = 1
    interrupted: bool = False

    def ratings(self) -> dict[str, float]:
        return elo_ratings(self.players, self.pairings)

    def as_dict(self) -> dict[str, Any]:
        return {"scene": self.scene, "players": self.players, "games_per_pairing": self.games,
                "sides": list(self.sides), "first_seed": self.first_seed, "interrupted": self.interrupted,
                "pairings": [p.as_dict() for p in self.pairings],
                "ratings": {k: round(v, 1) for k, v in self.ratings().items()},
                "mishaps": self.mishaps, "seconds": round(self.seconds, 3), "engine": self.engine,
                "workers": self.workers}


def elo_ratings(players: Sequence[str], pairings: Sequence[Pairing]) -> dict[str, float]:
    """Bradley-Terry strengths of every game (see the module docstring), on the Elo scale."""
    index = {p: i for i, p in enumerate(players)}
    k = len(players)
    wins = np.zeros((k, k))      # wins[i, j]: i's score against j, one virtual draw per pairing
    for pairing in pairings:
        i, j = index[pairing.a], index[pairing.b]
        wins[i, j] += pairing.score_of(pairing.a) + 0.5
        wins[j, i] += pairing.score_of(pairing.b) + 0.5
    played = wins + wins.T
    strength = np.ones(k)
    for _unused in range(FIT_ROUNDS):
        denominator = (played / (strength[:, None] + strength[None, :])).sum(axis=1)
        strength = np.where(denominator > 0, wins.sum(axis=1) / np.maximum(denominator, 1e-300), strength)
        strength /= strength[0]
    rating = ANCHOR + ELO_SCALE * np.log10(strength)
    return {p: float(rating[index[p]]) for p in players}


def check_players(names: Sequence[str]) -> list[str]:
    players = [n.strip() for n in names if n.strip()]
    if len(players) < 2:
        raise UserInputError(_("--players {value}: name at least two opponents, e.g. --players "
                               "greedy,ai").format(value=','.join(names)))
    if len(set(players)) != len(players):
        raise UserInputError(_("--players {value}: each opponent once").format(value=','.join(names)))
    return players


def play_arena(scene_path: str | os.PathLike, players: Sequence[str], games: int, seed: int = 1, *,
               workers: int | None = 1, engine: str = "local", address: str | None = None,
               max_rounds: int = DEFAULT_MAX_ROUNDS, geometry_factory: Callable[[Any], Any] | None = None,
               progress_bar: bool = False, library: str | None = None) -> ArenaResult:
    """Every pairing of `players` for `games` games each (half per seating, seeds seed, seed + 1, ...)."""
    from bow3d.rulesets import load_scene

    players = check_players(players)
    if games < 2:
        raise UserInputError(_("--games {games}: give at least 2 (one per seating)").format(games=games))
    check_games(games, seed)
    scene = load_scene(scene_path)
    sides = side_ids(scene)
    if len(sides) != 2:
        raise UserInputError(_("{scene_path}: the arena seats two players; this scene has {value} sides")
                             .format(scene_path=scene_path, value=len(sides)))
    for name in players:
        check_opponents(scene, {sides[0]: name}, "--players {name}")
    result = ArenaResult(str(scene_path), players, games, (sides[0], sides[1]), first_seed=seed,
                         mishaps={p: dict.fromkeys(ruleset_for(scene).mishap_kinds, 0) for p in players})
    library = library if library is not None else (None if geometry_factory is not None else library_choice())
    start = time.perf_counter()
    executor = open_executor(engine, workers, address)
    result.workers, result.engine = executor.workers, executor.engine
    try:
        for a, b in itertools.combinations(players, 2):
            pairing = Pairing(a, b, [Seating(a, b), Seating(b, a)])
            result.pairings.append(pairing)
            seats = [{sides[0]: s.first, sides[1]: s.second} for s in pairing.seatings]
            job = ArenaJob(tuple(GameJob.of(scene_path, library=library, max_rounds=max_rounds,
                                            geometry_factory=geometry_factory, players=NamedPlayers.of(seat))
                                 for seat in seats))
            # the seatings alternate seed by seed: a run cut short stays balanced between them
            items = [(k, s) for s in range(seed, seed + math.ceil(games / 2)) for k in (0, 1)
                     if k == 0 or s < seed + games // 2]
            label = _("{a} v {b}").format(a=a, b=b)
            for (k, _unused), record in zip(items, executor.map(job, items, total=len(items), label=label,
                                                                unit=_("game"), progress=progress_bar)):
                _count(result, pairing.seatings[k], record, seats[k])
    except KeyboardInterrupt:
        result.interrupted = True
    finally:
        executor.close()
    result.seconds = time.perf_counter() - start
    return result


@dataclass(frozen=True)
class ArenaJob(Job):
    """Both seatings of a pairing as one batch job: item (seating, seed); one world per worker."""

    seatings: tuple[GameJob, ...]

    def open(self) -> ArenaTable:
        return ArenaTable(self)


class ArenaTable:
    def __init__(self, job: ArenaJob) -> None:
        first = GameTable(job.seatings[0])
        self.tables = [first]
        for seating in job.seatings[1:]:   # the same scene and world, another pair of players
            table = copy.copy(first)
            table.job = seating
            self.tables.append(table)

    def run(self, item: tuple[int, int]) -> GameRecord:
        seating, seed = item
        return self.tables[seating].run(seed)


def _count(result: ArenaResult, seating: Seating, record: GameRecord, seated: dict[str, str]) -> None:
    seating.games += 1
    if record.winner is None:
        seating.draws += 1
    elif seated.get(record.winner) == seating.first:
        seating.wins += 1
    else:
        seating.losses += 1
    for side, kind in record.mishaps:
        if side in seated:
            result.mishaps[seated[side]][kind] = result.mishaps[seated[side]].get(kind, 0) + 1
