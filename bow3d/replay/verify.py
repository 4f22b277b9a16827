"""Verify a replay by re-simulation: no RNG, the recorded brick rolls are replayed as they are.

Layer: replay. The scene named in the header is found beside the replay (else from the working
folder) and its sha256 checked; a fresh Game on a fresh geometry (the real 3D World of the scene,
or any Geometry a caller passes) applies every recorded record in order and the events it
produces are compared with the recorded ones. The first difference is reported with its entry
number (the replay's line is entry + 1); an illegal record is reported with the rules' reason.
"""

from __future__ import annotations

import json
import os
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bow3d.errors import Bow3dError, ReplayError, RulesError
from bow3d.replay.format import Replay, file_sha256, read_replay
from bow3d.replay.session import prepare_geometry
from bow3d.rules import Game, action_from_record

GeometryFactory = Callable[[Any], Any]  # scene -> a Geometry (fresh, units where the scene puts them)


@dataclass(frozen=True)
class VerifyResult:
    """The outcome of a verification: `ok`, or the first problem in one line."""

    ok: bool
    entries: int                      # entries checked (all of them when ok)
    first_divergence: str | None      # one line: entry number, expected vs got, or the illegal record's reason
    entry: int | None = None          # the entry number of the problem
    kind: str | None = None           # 'divergence' | 'illegal'
    truncated: bool = False
    truncation: str | None = None
    winner: str | None = None         # after the last entry, when the game is over
    rounds: int = 0


def _plain(record: Any) -> Any:
    """A value as it reads back from JSON (tuples become lists, and so on)."""
    return json.loads(json.dumps(record, allow_nan=False))


def _short(value: Any, limit: int = 160) -> str:
    text = json.dumps(value, separators=(", ", ": "))
    return text if len(text) <= limit else text[: limit - 3] + "..."


def load_replay_scene(replay: Replay) -> Any:
    """The header's scene, located and checked against its sha256 (ReplayError on mismatch).

    The scene remembers the replay's LDraw library: world_geometry(scene) builds that world."""
    from bow3d.scene import load_scene

    path = replay.scene_path()
    digest = file_sha256(path)
    if digest != replay.header.scene_sha256:
        raise ReplayError(f"{replay.path}: the replay is of another scene: {path} has sha256 {digest[:12]}..., "
                          f"the replay was written for {replay.header.scene_sha256[:12]}... "
                          "(the scene file changed since, or this is not its scene)")
    scene = load_scene(path)
    if len(_REPLAY_LIBRARIES) > 32:
        _REPLAY_LIBRARIES.clear()
    _REPLAY_LIBRARIES[id(scene)] = (weakref.ref(scene), replay)
    return scene


def replay_library(replay: Replay) -> Any:
    """The LDraw library a replay's world was built with: the bundled starter library when the
    header says 'bundled' (whatever $LDRAWDIR says), else the usual one ($LDRAWDIR, else bundled)."""
    from bow3d.ldraw import BUNDLED_LIBRARY, Library

    if replay.header.library == "bundled":
        return Library([BUNDLED_LIBRARY])
    library = Library.from_env()
    if replay.header.library == "external" and library.is_bundled:
        # the units' parts decide every line of sight: another library would replay another game
        raise ReplayError(f"{replay.path}: played with an external LDraw library ($LDRAWDIR) and LDRAWDIR is not "
                          "set here; point LDRAWDIR at that library to verify or film it")
    return library


# Scenes loaded for a replay remember that replay, so that a caller who builds the world from
# the scene alone (world_geometry(scene)) still gets the replay's world (its LDraw library).
_REPLAY_LIBRARIES: dict[int, tuple[Any, Any]] = {}


def world_geometry(scene: Any, library: Any = None) -> Any:
    """The real 3D world of a scene (built once; the rules put units back with place()).

    Without `library`: the library of the replay the scene was loaded for (load_replay_scene),
    else the usual one ($LDRAWDIR, else the bundled starter library)."""
    from bow3d.world import World

    if library is None:
        ref, replay = _REPLAY_LIBRARIES.get(id(scene), (None, None))
        library = replay_library(replay) if ref is not None and ref() is scene else None
    return World.from_scene(scene, library)


def replay_geometry(replay: Replay, scene: Any) -> Any:
    """The world a replay was played on: its scene, built with the library its header names."""
    return world_geometry(scene, replay_library(replay))


def _diff_events(expected: list[dict], got: list[dict]) -> str:
    for index, (want, have) in enumerate(zip(expected, got)):
        if want != have:
            if isinstance(want, dict) and isinstance(have, dict):
                keys = [k for k in dict.fromkeys([*want, *have]) if want.get(k) != have.get(k) and k != "text"]
                keys = keys or ["text"]
                diffs = "; ".join(f"{k}: expected {_short(want.get(k), 60)}, got {_short(have.get(k), 60)}"
                                  for k in keys[:3])
                return f"event {index + 1} ({want.get('type', '?')}): {diffs}"
            return f"event {index + 1}: expected {_short(want)}, got {_short(have)}"
    if len(expected) > len(got):
        return f"expected {len(expected)} events, got {len(got)}: missing {_short(expected[len(got)])}"
    return f"expected {len(expected)} events, got {len(got)}: extra {_short(got[len(expected)])}"


def replay_games(replay: Replay, scene: Any, geometry: Any) -> Iterator[tuple[int, Game, list[Any]]]:
    """Apply the recorded records one by one; yield (entry number, game, events).

    Raises ReplayError (one line, with the entry number) for a record the rules do not know or
    refuse. Used by verify and by the viewers that step through a replay.
    """
    game = Game.start(scene, prepare_geometry(scene, geometry), max_rounds=replay.header.max_rounds)
    for entry in replay.entries:
        where = f"{replay.path}: entry {entry.n} (line {entry.n + 1})"
        try:
            action = action_from_record(entry.record)
        except (Bow3dError, ValueError, KeyError, TypeError) as error:
            raise ReplayError(f"{where}: record not understood: {_short(entry.record, 120)}: {error}") from None
        try:
            events = game.apply(action)
        except RulesError as error:
            raise ReplayError(f"{where}: illegal record {_short(entry.record, 120)}: {error}") from None
        yield entry.n, game, events


def verify_replay(path: str | os.PathLike, geometry: Any = None,
                  geometry_factory: GeometryFactory | None = None) -> VerifyResult:
    """Re-simulate a replay and compare every event; return ok or the first divergence.

    `geometry` (reused as is) or `geometry_factory(scene)` supplies the battlefield; default the
    real World of the scene, built with the LDraw library the header names (replay_geometry). Raises ReplayError for files that cannot be read or are of another
    scene. An illegal record is a result (kind 'illegal'), not an exception.
    """
    replay = read_replay(path)
    scene = load_replay_scene(replay)
    if geometry is None:
        geometry = geometry_factory(scene) if geometry_factory is not None else replay_geometry(replay, scene)
    base = dict(truncated=replay.truncated, truncation=replay.truncation)
    checked = 0
    game = None
    try:
        for (n, game, events), entry in zip(replay_games(replay, scene, geometry), replay.entries):
            got = [_plain(event.to_record()) for event in events]
            if got != entry.events:
                line = f"entry {n} (line {n + 1}, {_short(entry.record, 80)}): {_diff_events(entry.events, got)}"
                return VerifyResult(False, checked, line, entry=n, kind="divergence", **base)
            checked = n
    except ReplayError as error:
        message = str(error).removeprefix(f"{replay.path}: ")
        return VerifyResult(False, checked, message, entry=checked + 1, kind="illegal", **base)
    winner = game.winner if game is not None and game.is_over else None
    rounds = game.state.round if game is not None else 0
    return VerifyResult(True, checked, None, winner=winner, rounds=rounds, **base)


def replay_scene_path(path: str | os.PathLike) -> Path:
    """Where the scene of a replay file is (for the viewers)."""
    return read_replay(path).scene_path()
