"""Many AI-against-AI games on one scene: wins per side, average rounds, games per second.

Layer: replay. Each process builds the scene's 3D world once and reuses it for every game (the
rules put units back with place() at the start of a game). Game i is played from seed
`seed + i`, so a game is the same whichever worker plays it and however many workers there are.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bow3d.errors import UserInputError
from bow3d.paths import free_path
from bow3d.replay.format import SUFFIX, ReplayWriter, library_kind, sight_method
from bow3d.replay.session import DEFAULT_MAX_ROUNDS, GameResult, play_game, prepare_geometry, side_ids

GeometryFactory = Callable[[Any], Any]
MAX_GAMES = 1_000_000   # about two days of games at 5 games/s; results are kept in memory
MAX_WORKERS = 256


@dataclass(frozen=True)
class SimulationSummary:
    """What `simulate` reports."""

    scene: str
    games: int
    wins: dict[str, int]
    draws: int
    average_rounds: float
    seconds: float                     # wall clock of the games (with more than one worker, the
    setup_seconds: float               # workers' world building is inside `seconds`, setup is 0)
    workers: int
    results: list[GameResult] = field(default_factory=list)
    replays: list[str] = field(default_factory=list)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    def as_dict(self) -> dict[str, Any]:
        return {"scene": self.scene, "games": self.games, "wins": self.wins, "draws": self.draws,
                "average_rounds": round(self.average_rounds, 3), "seconds": round(self.seconds, 3),
                "setup_seconds": round(self.setup_seconds, 3), "games_per_second": round(self.games_per_second, 3),
                "workers": self.workers, "replays": self.replays,
                "results": [{"seed": r.seed, "winner": r.winner, "rounds": r.rounds, "records": r.records,
                             "ended": r.ended} for r in self.results]}


def free_replay_path(folder: Path, stem: str) -> Path:
    """folder/stem.bowreplay, or stem-2, stem-3, ... when taken (a user's file is never overwritten)."""
    return free_path(folder, stem, SUFFIX)


def default_geometry(scene: Any) -> Any:
    """The scene's 3D world, with the usual LDraw library ($LDRAWDIR, else the bundled one)."""
    from bow3d.ldraw import Library
    from bow3d.world import World

    return World.from_scene(scene, Library.from_env())


def _library_of(geometry: Any) -> str | None:
    """What to write in a replay's header about the geometry's LDraw library (None: not a world)."""
    inner = getattr(geometry, "inner", geometry)
    library = getattr(inner, "library", None)
    return library_kind(library) if library is not None else None


class _Table:
    """One process's scene and world, built once."""

    def __init__(self, scene_path: str, geometry_factory: GeometryFactory | None) -> None:
        from bow3d.rulesets import load_scene

        self.scene = load_scene(scene_path)
        # one world and one memo for every game of this process (the games start alike)
        self.geometry = prepare_geometry(self.scene, (geometry_factory or default_geometry)(self.scene))

    def play(self, seed: int, replays_dir: str | None, max_rounds: int) -> tuple[GameResult, str | None]:
        players = {side: "ai" for side in side_ids(self.scene)}
        if replays_dir is None:
            return play_game(self.scene, self.geometry, None, seed, max_rounds=max_rounds), None
        out = free_replay_path(Path(replays_dir), f"{Path(self.scene.path).stem}-seed{seed}")
        with ReplayWriter(out, self.scene, seed, players, max_rounds=max_rounds, sight=sight_method(self.geometry),
                          library=_library_of(self.geometry)) as writer:
            result = play_game(self.scene, self.geometry, None, seed, writer=writer, max_rounds=max_rounds)
        return result, str(out)


_WORKER: _Table | BaseException | None = None


def _init_worker(scene_path: str, geometry_factory: GeometryFactory | None) -> None:
    """Build this worker's world; a failure is kept and raised by the first game (a pool whose
    initializer raises would start new workers forever)."""
    global _WORKER
    try:
        _WORKER = _Table(scene_path, geometry_factory)
    except Exception as error:  # noqa: BLE001 (handed to the parent through the first game)
        _WORKER = error


def _play_in_worker(job: tuple[int, str | None, int]) -> tuple[GameResult, str | None]:
    if isinstance(_WORKER, BaseException):
        raise _WORKER
    assert _WORKER is not None
    return _WORKER.play(*job)


def _results(scene_path: str, jobs: Iterable[tuple[int, str | None, int]], workers: int,
             geometry_factory: GeometryFactory | None) -> Iterator[tuple[GameResult, str | None] | float]:
    """Yield the setup time first, then each game's result as it finishes."""
    start = time.perf_counter()
    if workers <= 1:
        table = _Table(scene_path, geometry_factory)
        yield time.perf_counter() - start
        for job in jobs:
            yield table.play(*job)
        return
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    with context.Pool(workers, _init_worker, (scene_path, geometry_factory)) as pool:
        # the pool builds its worlds lazily; the setup time is what the first results wait for
        yield 0.0
        yield from pool.imap_unordered(_play_in_worker, jobs, chunksize=1)


def simulate(scene_path: str | os.PathLike, games: int, seed: int = 1, replays_dir: str | os.PathLike | None = None,
             workers: int = 1, max_rounds: int = DEFAULT_MAX_ROUNDS,
             geometry_factory: GeometryFactory | None = None,
             progress: Callable[[GameResult], None] | None = None) -> SimulationSummary:
    """Play `games` AI-against-AI games of a scene from seeds seed, seed + 1, ...

    `replays_dir` (created when missing) receives one replay per game. `workers` > 1 plays in
    that many processes, each building its world once. `geometry_factory(scene)` replaces the
    real 3D world (tests use the flat geometry).
    """
    if not 1 <= games <= MAX_GAMES:
        raise UserInputError(f"--games {games}: give 1 to {MAX_GAMES:,} games")
    from bow3d.rulesets import load_scene

    scene = load_scene(scene_path)  # fail early, in this process, with the scene's own message
    if replays_dir is not None:
        folder = Path(replays_dir)
        if folder.exists() and not folder.is_dir():
            raise UserInputError(f"{folder} exists and is not a folder; choose another --replays")
        folder.mkdir(parents=True, exist_ok=True)
    jobs = ((seed + i, None if replays_dir is None else str(replays_dir), max_rounds) for i in range(games))
    workers = max(1, min(workers, games))
    results: list[GameResult] = []
    replays: list[str] = []
    stream = _results(str(scene_path), jobs, workers, geometry_factory)
    setup = next(stream)
    t_games = time.perf_counter()
    for result, replay in stream:  # type: ignore[misc]
        results.append(result)
        if replay:
            replays.append(replay)
        if progress is not None:
            progress(result)
    seconds = time.perf_counter() - t_games
    results.sort(key=lambda r: r.seed)
    wins = {side: sum(1 for r in results if r.winner == side) for side in side_ids(scene)}
    return SimulationSummary(
        scene=str(scene_path), games=games, wins=wins, draws=sum(1 for r in results if r.winner is None),
        average_rounds=sum(r.rounds for r in results) / len(results), seconds=seconds,
        setup_seconds=setup, workers=workers,
        results=results, replays=sorted(replays))
