"""Many AI-against-AI games on one scene: wins per side, average rounds, games per second.

Layer: replay. The work goes through the batch executor (bow3d.batch: local processes or Ray) as a
`GameJob`: the scene's path (its sha256 checked where it is read), the LDraw library, the rounds
limit and the players, never a world. Each worker opens the job once (scene loaded, 3D world
built) and reuses the world for every game (the rules put units back with place() at the start of
a game). Game i is played from seed `seed + i`, so a game is the same whichever worker plays it,
on whatever engine, however many workers there are; results come back in seed order and are
counted as they come (and streamed to a file on disk when kept), so memory stays flat however
many games are asked for.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from bow3d.batch import Executor, Job, Spool, open_executor
from bow3d.errors import SceneError, UserInputError
from bow3d.i18n import _, integer
from bow3d.paths import free_path, make_folder
from bow3d.replay.format import SUFFIX, ReplayWriter, file_sha256, library_kind, sight_method
from bow3d.replay.opponents import header_word
from bow3d.replay.session import DEFAULT_MAX_ROUNDS, play_game, prepare_geometry, ruleset_for, side_ids
from bow3d.replay.variants import SceneEdit, apply_edits

GeometryFactory = Callable[[Any], Any]
PlayersFactory = Callable[[Any, int], dict]     # (scene, seed) -> {side: player}; picklable (module level)
MAX_GAMES = 1_000_000_000  # weeks of games even on a cluster: more is a typo
MAX_WORKERS = 1024


@dataclass(frozen=True)
class GameRecord:
    """One game's result: how it ended, and who fell to whom (ids, in the order they fell)."""

    seed: int
    winner: str | None
    rounds: int
    records: int
    ended: str
    replay: str | None = None
    fallen: tuple[str, ...] = ()                  # units and vehicles out of the game
    kills: tuple[tuple[str, str], ...] = ()       # (by, fallen) where an attack did it
    mishaps: tuple[tuple[str | None, str], ...] = ()  # (side, 'friendly_run_over' | 'crash') of piloted vehicles

    def as_dict(self) -> dict[str, Any]:
        out = {"seed": self.seed, "winner": self.winner, "rounds": self.rounds, "records": self.records,
               "ended": self.ended}
        if self.replay:
            out["replay"] = self.replay
        return out

    def to_line(self) -> dict[str, Any]:
        """Everything, for the spool on disk."""
        return {**self.as_dict(), "replay": self.replay, "fallen": list(self.fallen),
                "kills": [list(k) for k in self.kills], "mishaps": [list(m) for m in self.mishaps]}

    @classmethod
    def from_line(cls, data: dict[str, Any]) -> GameRecord:
        return cls(data["seed"], data["winner"], data["rounds"], data["records"], data["ended"], data.get("replay"),
                   tuple(data.get("fallen", ())), tuple(tuple(k) for k in data.get("kills", ())),
                   tuple(tuple(m) for m in data.get("mishaps", ())))


def free_replay_path(folder: Path, stem: str) -> Path:
    """folder/stem.bowreplay, or stem-2, stem-3, ... when taken (a user's file is never overwritten)."""
    return free_path(folder, stem, SUFFIX)


def library_choice(override: str | None = None) -> str:
    """What a job names as its LDraw library: 'bundled', or the folder chosen here (--library, LDRAWDIR,
    the installed one), so that every worker builds the same world whatever its own environment."""
    from bow3d.ldraw.library import BUNDLED_LIBRARY, choose_library

    root, _unused = choose_library(override)
    return "bundled" if root.resolve() == BUNDLED_LIBRARY.resolve() else str(root.resolve())


def open_library(choice: str | None) -> Any:
    from bow3d.ldraw import Library
    from bow3d.ldraw.library import BUNDLED_LIBRARY

    if choice is None:
        return Library.from_env()
    return Library.from_env(BUNDLED_LIBRARY if choice == "bundled" else choice)


def default_geometry(scene: Any) -> Any:
    """The scene's 3D world, with the usual LDraw library ($LDRAWDIR, else the bundled one)."""
    from bow3d.world import World

    return World.from_scene(scene, open_library(None))


def _library_of(geometry: Any) -> str | None:
    """What to write in a replay's header about the geometry's LDraw library (None: not a world)."""
    inner = getattr(geometry, "inner", geometry)
    library = getattr(inner, "library", None)
    return library_kind(library) if library is not None else None


class Tally:
    """on_record hook: who fell, and to whose attack (the last attack_result of the same record); and the
    ruleset's mishaps (`mishaps`: its tally's (side, kind) pairs; BOW's piloted vehicles, §3.6)."""

    def __init__(self, sides: dict[str, str] | None = None, mishaps: Any = None) -> None:
        self.fallen: list[str] = []
        self.kills: list[tuple[str, str]] = []
        self.sides = sides or {}          # unit or vehicle id -> side
        self._mishaps = mishaps           # the ruleset's on_record hook with .mishaps, or None

    @property
    def mishaps(self) -> list[tuple[str | None, str]]:
        return list(self._mishaps.mishaps) if self._mishaps is not None else []

    def __call__(self, action: Any, events: list) -> None:
        if self._mishaps is not None:
            self._mishaps(action, events)
        attacker = None
        for event in events:
            if event.kind in ("attack", "attack_result"):
                attacker = event.data.get("unit", attacker)
            elif event.kind in ("died", "destroyed"):
                gone = event.data.get("unit", event.data.get("vehicle"))
                if gone is None:
                    continue
                self.fallen.append(gone)
                by = event.data.get("by") or attacker
                if by is not None and by != gone:
                    self.kills.append((by, gone))


def body_sides(scene: Any) -> dict[str, str]:
    """Unit and vehicle id -> side id."""
    return {body.id: body.side for body in [*scene.units, *getattr(scene, "vehicles", [])]}


@dataclass(frozen=True)
class GameJob(Job):
    """Games of one scene (a variant: `edits`), one per seed; see the module docstring."""

    scene: str                                    # the scene file's path (absolute)
    scene_sha256: str | None = None               # checked where the job is opened
    library: str | None = None                    # library_choice(); None: the worker's own environment
    max_rounds: int = DEFAULT_MAX_ROUNDS
    replays_dir: str | None = None
    edits: tuple[SceneEdit, ...] = ()
    geometry_factory: GeometryFactory | None = None
    players: PlayersFactory | None = None         # None: the ruleset's AI on every side

    @classmethod
    def of(cls, scene_path: str | os.PathLike, **options: Any) -> GameJob:
        path = Path(scene_path).resolve()
        return cls(str(path), file_sha256(path), **options)

    def open(self) -> GameTable:
        return GameTable(self)


class GameTable:
    """One worker's scene and world for a GameJob, built once."""

    def __init__(self, job: GameJob) -> None:
        from bow3d.rulesets import load_scene
        from bow3d.world import World

        if job.scene_sha256 is not None and Path(job.scene).is_file() and file_sha256(job.scene) != job.scene_sha256:
            raise SceneError(_("{scene}: this worker's scene file differs from the one the batch was "
                               "started with; give every worker the same files").format(scene=job.scene))
        self.job = job
        self.scene = apply_edits(load_scene(job.scene), job.edits)
        geometry = (job.geometry_factory(self.scene) if job.geometry_factory is not None
                    else World.from_scene(self.scene, open_library(job.library)))
        self.geometry = prepare_geometry(self.scene, geometry)  # one memo for every game of this worker

    def run(self, seed: int) -> GameRecord:
        job, scene = self.job, self.scene
        players = job.players(scene, seed) if job.players is not None else None
        sides = body_sides(scene)
        tally = Tally(sides, ruleset_for(scene).mishap_tally(sides))
        if job.replays_dir is None:
            result = play_game(scene, self.geometry, players, seed, max_rounds=job.max_rounds, on_record=tally)
            out = None
        else:
            out = free_replay_path(Path(job.replays_dir), f"{Path(job.scene).stem}-seed{seed}")
            names = dict.fromkeys(side_ids(scene), "ai") if players is None else \
                {side: header_word(p) for side, p in players.items()}
            with ReplayWriter(out, scene, seed, names, max_rounds=job.max_rounds, sight=sight_method(self.geometry),
                              library=_library_of(self.geometry)) as writer:
                result = play_game(scene, self.geometry, players, seed, writer=writer, max_rounds=job.max_rounds,
                                   on_record=tally)
        return GameRecord(result.seed, result.winner, result.rounds, result.records, result.ended,
                          None if out is None else str(out), tuple(tally.fallen), tuple(tally.kills),
                          tuple(tally.mishaps))


@dataclass
class SimulationSummary:
    """What `simulate` reports: counts as the games came, the games themselves on disk (`results`)."""

    scene: str
    games: int                         # asked for
    wins: dict[str, int]
    draws: int = 0
    played: int = 0                    # finished (fewer than `games` when interrupted)
    rounds_total: int = 0
    seconds: float = 0.0               # wall clock of the whole batch, the workers' world building included
    workers: int = 1
    engine: str = "local"
    interrupted: bool = False
    results: Any = field(default_factory=list)   # a Spool of GameRecord (or a list), in seed order
    replays: list[str] = field(default_factory=list)
    first_seed: int = 1

    @property
    def setup_seconds(self) -> float:
        return 0.0

    @property
    def average_rounds(self) -> float:
        return self.rounds_total / self.played if self.played else 0.0

    @property
    def games_per_second(self) -> float:
        return self.played / self.seconds if self.seconds > 0 else float("inf")

    def count(self, record: GameRecord) -> None:
        self.played += 1
        self.rounds_total += record.rounds
        if record.winner is None:
            self.draws += 1
        else:
            self.wins[record.winner] = self.wins.get(record.winner, 0) + 1

    def head(self) -> dict[str, Any]:
        """Everything but the per-game results."""
        return {"scene": self.scene, "games": self.played, "asked": self.games, "interrupted": self.interrupted,
                "first_seed": self.first_seed, "wins": self.wins, "draws": self.draws,
                "average_rounds": round(self.average_rounds, 3), "seconds": round(self.seconds, 3),
                "games_per_second": round(self.games_per_second, 3), "engine": self.engine, "workers": self.workers,
                "replays": len(self.replays)}

    def as_dict(self) -> dict[str, Any]:
        return {**self.head(), "replays": self.replays, "results": [r.as_dict() for r in self.results]}

    def write_json(self, out: IO[str]) -> None:
        """as_dict() as indented JSON, the results streamed from disk one by one (flat memory)."""
        head = json.dumps({**self.head(), "replays": self.replays}, indent=2)
        out.write(head[:-2] + ',\n  "results": [')
        for index, record in enumerate(self.results):
            out.write(("," if index else "") + "\n    " + json.dumps(record.as_dict()))
        out.write("\n  ]\n}\n")


def games_of(executor: Executor, job: GameJob, seeds: range, *, label: str | None = None,
             progress: bool = True) -> Iterator[GameRecord]:
    """Play `job` on every seed of `seeds` on `executor`: GameRecords in seed order, as they come."""
    return executor.map(job, seeds, total=len(seeds), label=_("simulating") if label is None else label,
                        unit=_("game"), progress=progress)


def check_games(games: int, seed: int) -> None:
    from bow3d.replay.dice import check_seed

    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise UserInputError(_("--games {games}: give 1 to {max_games} games (even at a thousand "
                               "games a second on a cluster, {max_games} take eleven days)")
                             .format(games=games, max_games=integer(MAX_GAMES)))
    check_seed(seed)
    check_seed(seed + games - 1, "--seed + --games")


def simulate(scene_path: str | os.PathLike, games: int, seed: int = 1, replays_dir: str | os.PathLike | None = None,
             workers: int | None = 1, max_rounds: int = DEFAULT_MAX_ROUNDS,
             geometry_factory: GeometryFactory | None = None,
             progress: Callable[[GameRecord], None] | None = None, *, engine: str = "local",
             address: str | None = None, executor: Executor | None = None, keep_results: bool = True,
             results_file: str | os.PathLike | None = None, force: bool = False, progress_bar: bool = False,
             library: str | None = None, edits: tuple[SceneEdit, ...] = (),
             players: PlayersFactory | None = None) -> SimulationSummary:
    """Play `games` games of a scene from seeds seed, seed + 1, ...; see the module docstring.

    `replays_dir` (created when missing) receives one replay per game. `engine` and `workers` (or a
    ready `executor`) choose where the games are played (workers None with Ray: every CPU it has). `geometry_factory(scene)` replaces the
    real 3D world (tests use the flat geometry). The per-game results go to `results_file` (JSON
    lines; refused if it exists, unless `force`), else to a temporary file when `keep_results`; a batch that
    fails before its first game (Ray not reached, a worker's error) removes the results file it opened.
    Ctrl+C stops the batch: the summary says `interrupted` and counts the games that finished.
    """
    check_games(games, seed)
    from bow3d.rulesets import load_scene

    library = library if library is not None else (None if geometry_factory is not None else library_choice())
    # fail early, in this process, with the scene's own message; on the real world a unit off the
    # battlefield is named here with its line, not by a worker's grid without one
    real = geometry_factory is None
    scene = apply_edits(load_scene(scene_path, battlefield=real, library=open_library(library) if real else None),
                        edits)
    if replays_dir is not None:
        replays_dir = str(make_folder(replays_dir, "--replays").resolve())
    job = GameJob.of(scene_path, library=library,
                     max_rounds=max_rounds, replays_dir=replays_dir, edits=tuple(edits),
                     geometry_factory=geometry_factory, players=players)
    spool = None
    if results_file is not None or keep_results:
        spool = Spool(GameRecord.to_line, GameRecord.from_line, results_file, force=force)
    summary = SimulationSummary(str(scene_path), games, dict.fromkeys(side_ids(scene), 0),
                                results=spool if spool is not None else [], first_seed=seed)
    own = executor is None
    start = time.perf_counter()
    try:
        if executor is None:
            if engine == "local":
                workers = max(1, min(workers or 1, games))
            executor = open_executor(engine, workers, address)
    except BaseException:
        if spool is not None:
            spool.discard_if_empty()   # no game played: no empty results file left behind
        raise
    summary.workers, summary.engine = executor.workers, executor.engine
    try:
        for record in games_of(executor, job, range(seed, seed + games), progress=progress_bar):
            summary.count(record)
            if spool is not None:
                spool.append(record)
            if record.replay:
                summary.replays.append(record.replay)
            if progress is not None:
                progress(record)
    except KeyboardInterrupt:
        summary.interrupted = True
    except BaseException:
        if spool is not None:
            spool.discard_if_empty()   # a batch that failed before its first game leaves no empty file
        raise
    finally:
        if own:
            executor.close()
        if spool is not None:
            spool.finish()
    summary.seconds = time.perf_counter() - start
    return summary


def library_folder(choice: str | None) -> str | None:
    """The --library folder a library_choice() stands for on this machine (None: the environment's)."""
    if choice != "bundled":
        return choice
    from bow3d.ldraw.library import BUNDLED_LIBRARY

    return str(BUNDLED_LIBRARY)
