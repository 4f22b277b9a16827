"""The replay file (`*.bowreplay`): JSON Lines, header first, one entry per applied record.

Layer: replay (below view, above rules). No geometry, no rules here: this module reads and
writes the file and knows nothing of what the records mean.

More: docs/modules/replay.md#format.
"""

from __future__ import annotations

import datetime
import json
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bow3d.errors import ReplayError, UserInputError
from bow3d.i18n import _
from bow3d.paths import open_exclusive
from bow3d.replay import upgrade_v1
from bow3d.replay.digest import (
    file_sha256,  # noqa: F401  (bow3d.replay re-exports it from here)
    scene_digest as digest_of_scene,
    scene_identity,
)
from bow3d.scene.pydantic_words import problem
from bow3d.textformats import load_json_line

FORMAT = "bow3d-replay"
VERSION = 4
SUFFIX = ".bowreplay"
MAX_LINE_BYTES = 16 * 1024 * 1024   # one entry; a real one is a few kB

Upgrade = Callable[[dict[str, Any], list[Any]], tuple[dict[str, Any], list[Any]]]


def upgrade_v2(header: dict[str, Any], entries: list[Any]) -> tuple[dict[str, Any], list[Any]]:
    """Version 2 -> 3: the scene's sha256 (of the file's bytes) becomes a scene digest of that method."""
    header = dict(header)
    if "scene_sha256" in header:  # else the header model names what is missing
        header["scene_digest"] = {"method": "file-bytes", "sha256": header.pop("scene_sha256")}
    return header, entries


def upgrade_v3(header: dict[str, Any], entries: list[Any]) -> tuple[dict[str, Any], list[Any]]:
    """Version 3 -> 4: `parts` (the library parts' geometry) was not recorded: it stays absent (None, not checked)."""
    return dict(header), entries


# UPGRADES[v] turns a version-v header and its raw entries into version v + 1.
UPGRADES: dict[int, Upgrade] = {1: upgrade_v1.upgrade, 2: upgrade_v2, 3: upgrade_v3}


class ChanceSource(BaseModel):
    """How the outcomes of chance were produced: a seeded generator, or entered by the players."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    mode: Literal["seeded", "entered"]
    generator: str | None = Field(None, description="seeded: the generator (numpy-pcg64)")
    seed: list[int] | None = Field(None, description="seeded: the generator's seed sequence")


class SceneDigest(BaseModel):
    """How the header names its scene: the method (bow3d.replay.digest) and the sha256 it gave."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    method: Literal["bow3d-scene-meaning/1", "file-bytes"] = Field(
        description="'bow3d-scene-meaning/1': the scene's meaning and its models' geometry; 'file-bytes': the "
                    "scene file's bytes (version-2 replays)")
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")


class ReplayHeader(BaseModel):
    """Line 1 of a replay: what was played, on which scene, with which seed."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    format: str = FORMAT
    version: int = VERSION
    scene: str = Field(description="the scene file, relative to the replay's folder when it was written")
    scene_digest: SceneDigest
    ruleset: dict[str, Any] = Field(description="the ruleset's name and parameters, as the scene gives them")
    seed: int = Field(ge=0, lt=2 ** 63, description="the game's seed (the AI players' tie-break streams)")
    chance: ChanceSource
    players: dict[str, str] = Field(description="side id -> 'ai' (the ruleset's AI on its seeded stream) or "
                                    "another word (a human, a script...)")
    ai: str | None = Field(None, description="which AI played the 'ai' sides (the ruleset's ai_version)")
    sight: str | None = Field(None, description="how the world measured sight (World.SIGHT_METHOD); None: no world")
    created: str
    max_rounds: int | None = Field(None, ge=1, description="the game ends after this round (None: no limit)")
    library: str | None = Field(None, description="the LDraw library the world was built with: 'bundled' (the "
                                "starter library in ldraw_library/), 'external' ($LDRAWDIR) or None (not recorded)")
    parts: dict[str, Annotated[str, Field(pattern=r"^[0-9a-f]{16}$")]] | None = Field(
        None, description="each library part the scene's models place, by name (lower case) -> the first 16 hex "
                          "digits of the sha256 of its flattened geometry as the game's library had it "
                          "(bow3d.replay.digest.library_parts); None: not recorded (no world, or an older replay)")


class ReplayEntry(BaseModel):
    """One applied record (an action or a brick roll) and the events it produced."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    n: int = Field(ge=1)
    record: dict[str, Any]
    events: list[dict[str, Any]]


class GameEnd(BaseModel):
    """How the game ended, as the end record says."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    entries: int = Field(ge=0)
    round: int = Field(ge=0)
    winner: str | None
    result: str


class ReplayEnd(BaseModel):
    """The last line of a finished game."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    end: GameEnd


@dataclass(frozen=True)
class Replay:
    """A replay as read: the header, the entries kept, the end record (None: the game did not
    finish in the file), and whether the last line was cut short."""

    path: Path
    header: ReplayHeader
    entries: list[ReplayEntry]
    truncated: bool = False
    truncation: str | None = None  # one line saying where, when truncated
    end: GameEnd | None = None

    def scene_path(self) -> Path:
        """The scene file named in the header: beside the replay first, else from the working folder."""
        return resolve_scene(self.path, self.header.scene)


def seeded_chance(seed: int) -> dict[str, Any]:
    """The chance source of the seeded stream of a game's seed (bow3d.replay.dice.SeededDice)."""
    return {"mode": "seeded", "generator": upgrade_v1.GENERATOR, "seed": [int(seed), 0]}


def _ai_version(scene: Any) -> str | None:
    """The ai_version of the scene's ruleset (None when none is registered under its name)."""
    from bow3d.rules.ruleset import RULESETS

    name = getattr(getattr(scene, "ruleset", None), "name", None)
    return RULESETS.get(name).ai_version if isinstance(name, str) and name in RULESETS else None


def _revision(scene: Any) -> int | None:
    """The revision of the readings of the scene's ruleset (Ruleset.revision; None when unregistered)."""
    from bow3d.rules.ruleset import RULESETS

    name = getattr(getattr(scene, "ruleset", None), "name", None)
    return RULESETS.get(name).revision if isinstance(name, str) and name in RULESETS else None


def sight_method(geometry: Any) -> str | None:
    """What a replay's header says about the geometry's sight method (World.SIGHT_METHOD; None: not a world)."""
    return getattr(getattr(geometry, "inner", geometry), "SIGHT_METHOD", None)


def library_kind(library: Any) -> str:
    """'bundled' for the starter library in ldraw_library/, else 'external' (a bow3d.ldraw.Library)."""
    return "bundled" if getattr(library, "is_bundled", False) else "external"


def library_named(kind: str | None) -> Any:
    """The LDraw library a header's `library` names, as found here (and as verify rebuilds the world with it):
    the bundled starter library for 'bundled', whatever $LDRAWDIR says; else the usual one ($LDRAWDIR)."""
    from bow3d.ldraw import BUNDLED_LIBRARY, Library

    return Library([BUNDLED_LIBRARY]) if kind == "bundled" else Library.from_env()


def resolve_scene(replay_path: Path, scene: str) -> Path:
    """Resolve the header's scene path relative to the replay file's folder, else the working folder."""
    beside = Path(os.path.normpath(Path(replay_path).parent / scene))
    if beside.is_file():
        return beside
    here = Path(scene)
    if here.is_file():
        return here
    raise ReplayError(_("{replay_path}: scene file {scene!r} not found beside the replay ({beside}) "
                        "nor from the working folder; give it with --scene FILE, or run from its folder")
                      .format(replay_path=replay_path, scene=scene, beside=beside))


def _as_record(item: Any) -> dict[str, Any]:
    """A rules value (with to_record()) or an already plain dict, as a JSON-ready dict."""
    record = item.to_record() if hasattr(item, "to_record") else item
    if not isinstance(record, Mapping):
        raise TypeError(f"cannot record {item!r}: it has no to_record()")
    return dict(record)


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), allow_nan=False)  # ASCII: a cut never splits a character


class ReplayWriter:
    """Writes a replay as the game goes: header at once, then one flushed line per record.

    Never overwrites: an existing `path` is refused (ReplayError). Use as a context manager.
    `scene` is a bow3d.scene.Scene (its `path` and `ruleset` are read); `scene_path` overrides
    the file named in the header (default `scene.path`). `library` names the LDraw library the
    world was built with (library_kind()): the units' and the battlefield's parts come from it,
    so it decides every line of sight, and verify rebuilds the world with the same one. `chance`
    says how outcomes of chance are produced (bow3d.replay.dice: `dice.source()`; default: the
    seeded stream of `seed`). `ai` names the AI that plays the 'ai' sides (the ruleset's ai_version)
    and `sight` the world's sight method (World.SIGHT_METHOD; None for a flat test geometry): verify
    re-derives the AI's choices only for the same AI. `revision` (default: the ruleset's current
    Ruleset.revision) is written as `ruleset.revision`: the readings the game is played with, which
    its re-play uses (a header without one: revision 1). `scene_digest` names the scene in the header
    (default: bow3d.replay.digest.scene_digest of `scene`, its meaning) and, with a `library`, `parts` the
    geometry of each library part its models place (default: read from that library, as verify rebuilds the
    world). `end(game)` writes the end record of a finished game.
    """

    def __init__(self, path: str | os.PathLike, scene: Any, seed: int, players: Mapping[str, str],
                 scene_path: str | os.PathLike | None = None, max_rounds: int | None = None,
                 library: str | None = None, chance: Mapping[str, Any] | None = None, ai: str | None = None,
                 sight: str | None = None, scene_digest: Mapping[str, str] | None = None,
                 revision: int | None = None, parts: Mapping[str, str] | None = None) -> None:
        self.path = Path(path)
        source = Path(scene_path if scene_path is not None else scene.path)
        try:
            relative = os.path.relpath(source.resolve(), self.path.resolve().parent)
        except ValueError:  # another drive (Windows): keep the absolute path
            relative = str(source.resolve())
        ruleset = scene.ruleset.model_dump(mode="json") if hasattr(scene.ruleset, "model_dump") else dict(scene.ruleset)
        revision = _revision(scene) if revision is None else int(revision)
        if revision is not None:
            ruleset["revision"] = revision
        chance = dict(chance) if chance is not None else seeded_chance(int(seed))
        if ai is None and "ai" in players.values():
            ai = _ai_version(scene)
        if scene_digest is None and library is not None and parts is None:
            scene_digest, parts = scene_identity(scene, library_named(library))
        elif scene_digest is None:
            scene_digest = digest_of_scene(scene)
        self.header = ReplayHeader(
            scene=Path(relative).as_posix(), scene_digest=SceneDigest(**scene_digest), ruleset=ruleset, seed=int(seed),
            chance=ChanceSource(**chance), players=dict(players), ai=ai, sight=sight,
            created=datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            max_rounds=max_rounds, library=library, parts=dict(parts) if parts is not None else None)
        try:  # created exclusively, never through a link; flushed line by line (a crash keeps the lines)
            self._file: IO[str] | None = open_exclusive(self.path, "w")
        except UserInputError as error:
            raise ReplayError(_("{error}; bow3d never overwrites a replay").format(error=error)) from None
        self.entries_written = 0
        self._starts: list[int] = []  # where each record's line begins (take_back cuts the file there)
        self._line(self.header.model_dump(mode="json"))

    @classmethod
    def reopen(cls, path: str | os.PathLike) -> ReplayWriter:
        """Go on writing an unfinished replay in place (a server restarted after a crash): its header and
        entries are read as written (read_replay), a last line cut short by the crash is cut off, and new
        records are appended after the last whole one. ReplayError for a finished or unreadable replay."""
        replay = read_replay(path)
        if replay.end is not None:
            raise ReplayError(_("{path}: that game is over; its replay takes no more records").format(path=path))
        writer = cls.__new__(cls)
        writer.path, writer.header = Path(path), replay.header
        data = writer.path.read_bytes()
        kept = 1 + len(replay.entries)  # the lines read_replay kept: the header and the entries
        starts, offset = [], 0
        for chunk in data.split(b"\n")[:kept]:
            starts.append(offset)
            offset += len(chunk) + 1
        fd = os.open(writer.path, os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
        writer._file = os.fdopen(fd, "w", encoding="utf-8", buffering=1)
        whole = min(offset, len(data))
        writer._file.truncate(whole)  # a cut-short last line goes
        writer._file.seek(whole)
        if whole < offset:  # the last kept line lost only its newline
            writer._file.write("\n")
            writer._file.flush()
        writer.entries_written = len(replay.entries)
        writer._starts = starts[1:1 + len(replay.entries)]
        return writer

    def _line(self, obj: Mapping[str, Any]) -> None:
        assert self._file is not None, "the replay writer is closed"
        self._file.write(_dumps(obj) + "\n")
        self._file.flush()

    def write(self, record: Any, events: Iterable[Any]) -> None:
        """Append one applied record (action or brick roll) and its events; flushed at once."""
        assert self._file is not None, "the replay writer is closed"
        self._starts.append(self._file.tell())
        self.entries_written += 1
        self._line({"n": self.entries_written, "record": _as_record(record),
                    "events": [_as_record(event) for event in events]})

    def take_back(self) -> None:
        """Remove the last record's line (a move taken back): the file is cut where the line began."""
        if not self._starts or self._file is None:
            raise ReplayError(_("{path}: no record to take back").format(path=self.path))
        self._file.seek(self._starts.pop())
        self._file.truncate()
        self._file.flush()
        self.entries_written -= 1

    def end(self, *, round: int, winner: str | None, result: str) -> None:
        """The end record of a finished game (the last line; verify checks it against the rules)."""
        self._line({"end": {"entries": self.entries_written, "round": int(round), "winner": winner,
                            "result": str(result)}})

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> ReplayWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _field_error(path: Path, line: int, error: ValidationError) -> ReplayError:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "line"
    return ReplayError(f"{path}:{line}: {where}: {problem(first)}")   # pydantic's words in the language spoken


def parse_header(path: Path, raw: Any) -> tuple[dict[str, Any], int]:
    """Check format and version of a raw header before anything else; return it and its version."""
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise ReplayError(_("{path}:1: not a bow3d replay (the first line must be a header with "
                            '"format": "{FORMAT}")').format(path=path, FORMAT=FORMAT))
    version = raw.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise ReplayError(_("{path}:1: version must be a whole number, got {version!r}")
                          .format(path=path, version=version))
    if version > VERSION:
        raise ReplayError(_("{path}: written by a newer bow3d (version {version}); this bow3d reads up "
                            "to {VERSION}: upgrade bow3d to read it")
                          .format(path=path, version=version, VERSION=VERSION))
    return raw, version


def upgrade(header: dict[str, Any], entries: list[dict[str, Any]], version: int,
            path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Walk the upgrade chain from `version` to VERSION, one step at a time."""
    while version < VERSION:
        step = UPGRADES.get(version)
        if step is None:
            raise ReplayError(_("{path}: version {version} replays cannot be read by this bow3d (no "
                                "upgrade from version {version}); replay it with the bow3d that wrote "
                                "it").format(path=path, version=version))
        header, entries = step(header, entries)
        version += 1
        header = {**header, "version": version}
    return header, entries


def _json_line(chunk: bytes, path: Path, number: int) -> Any:
    """One line as JSON, strict and bounded (bow3d.textformats: size, nesting, integer length and
    duplicate keys checked), errors naming the file and the line."""
    if len(chunk) > MAX_LINE_BYTES:
        raise ReplayError(_("{path}:{number}: line of {value:,} bytes, more than a replay line can "
                            "hold ({MAX_LINE_BYTES:,}); the replay is corrupted")
                          .format(path=path, number=number, value=len(chunk), MAX_LINE_BYTES=MAX_LINE_BYTES))
    return load_json_line(chunk, str(path), number, error=ReplayError)


def read_replay(path: str | os.PathLike) -> Replay:
    """Read and validate a replay (strict). A cut-short last line is dropped and reported.

    Raises ReplayError naming the file and line: not a replay, newer version, invalid JSON or
    fields, entry numbers out of order, an end record that is not the last line.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ReplayError(_("{path}: no such replay file").format(path=path)) from None
    except IsADirectoryError:
        raise ReplayError(_("{path}: is a folder, not a replay file").format(path=path)) from None
    except OSError as error:
        raise ReplayError(_("{path}: cannot read the replay: {strerror}").format(path=path, strerror=error.strerror)) from None
    chunks = data.split(b"\n")
    ends_with_newline = chunks[-1] == b""
    if ends_with_newline:
        chunks.pop()
    if not chunks or not chunks[0].strip():
        raise ReplayError(_("{path}: empty file, not a bow3d replay").format(path=path))
    raws: list[Any] = []
    truncation = None
    for number, chunk in enumerate(chunks, start=1):
        try:
            raws.append(_json_line(chunk, path, number))
        except ReplayError:
            # the writer ends every line with a newline: a last line without one is a write cut short
            if number == len(chunks) and not ends_with_newline and number > 1:
                truncation = (f"{path}:{number}: the last line is cut short ({len(chunk)} bytes, "
                              f"not complete JSON); kept the {number - 2} entries before it")
                break
            raise
    header_raw, version = parse_header(path, raws[0])
    lines = raws[1:]
    end_raw = None
    for index, raw in enumerate(lines, start=2):
        if isinstance(raw, dict) and "end" in raw:
            if index != len(raws) or truncation is not None:
                raise ReplayError(_("{path}:{index}: an end record must be the last line; the replay "
                                    "is corrupted").format(path=path, index=index))
            end_raw = lines.pop()
    header_raw, entry_raws = upgrade(header_raw, lines, version, path)
    try:
        header = ReplayHeader.model_validate(header_raw)
    except ValidationError as error:
        raise _field_error(path, 1, error) from None
    entries = []
    for index, raw in enumerate(entry_raws, start=1):
        try:
            entry = ReplayEntry.model_validate(raw)
        except ValidationError as error:
            raise _field_error(path, index + 1, error) from None
        if entry.n != index:
            raise ReplayError(_("{path}:{value}: entry number {n}, expected {index} (entries are "
                                "numbered from 1 without gaps)")
                              .format(path=path, value=index + 1, n=entry.n, index=index))
        if "type" not in entry.record:
            raise ReplayError(_('{path}:{value}: record has no "type"').format(path=path, value=index + 1))
        entries.append(entry)
    end = None
    if end_raw is not None:
        try:
            end = ReplayEnd.model_validate(end_raw).end
        except ValidationError as error:
            raise _field_error(path, len(entries) + 2, error) from None
        if end.entries != len(entries):
            raise ReplayError(_("{path}:{value}: the end record counts {entries} entries, the file "
                                "holds {value2}; the replay is corrupted")
                              .format(path=path, value=len(entries) + 2, entries=end.entries, value2=len(entries)))
    return Replay(path, header, entries, truncated=truncation is not None, truncation=truncation, end=end)
