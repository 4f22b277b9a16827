"""One way to open a replay: its header, its scene (found and checked), its world, its re-simulation.

Layer: replay. `open_replay(path)` is what verify, the battle log, the viewer and the film share:
the file is read (bow3d.replay.format), the ruleset its header names is found in the registry,
the scene named in the header is located (beside the replay, else from the working folder, or
where `scene=` says), checked against the header's scene digest (bow3d.replay.digest: its meaning,
or for version-2 replays its bytes) and loaded with its ruleset's schema, and the world is built
with the LDraw library the header names. A pack (`.bowpack`, bow3d.replay.pack) opens the same
way: its replay, with its own scene (unless `scene=` says otherwise) and, when it carries them,
its own LDraw library files, compared with the library the header names (the bundled one, or
the external one here when there is one): parts that differ are refused, naming them, unless
the pack's library is allowed by name (`allow_library`, --allow-library). Nothing is kept in module globals: an `OpenReplay` holds what it has
built.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from bow3d.errors import Bow3dError, ReplayError, RulesError
from bow3d.i18n import _
from bow3d.replay.digest import check_scene_digest, differing_geometry
from bow3d.replay.format import Replay, library_named, read_replay, resolve_scene
from bow3d.replay.pack import PackContents, differing_parts, is_pack, library_name, open_pack
from bow3d.replay.session import prepare_geometry
from bow3d.rules import Game
from bow3d.rules.events import Event
from bow3d.rules.ruleset import RULESETS, Ruleset, UnknownRuleset
from bow3d.scene.model import DEFAULT_RULESET

LEGACY_SIGHT_METHOD = "surface-samples-1"  # bow3d.world.sight.LEGACY_SIGHT_METHOD (the world is imported lazily)


def short(value: Any, limit: int = 160) -> str:
    """A record or value in one short line."""
    import json

    text = json.dumps(value, separators=(", ", ": "), default=str)
    return text if len(text) <= limit else text[: limit - 3] + "..."


@dataclass(frozen=True)
class PartsCheck:
    """How a pack's own LDraw parts compare with the library its header names."""

    name: str                    # the pack's library, by name (bow3d.replay.pack.library_name)
    files: int                   # library files the pack carries
    against: str | None          # the library compared with ('bundled', or the external one's folders); None: none here
    differ: tuple[str, ...] = ()  # library paths whose bytes are not that library's (allowed by name, else refused)
    recorded: bool = False       # the replay records its parts' geometry (checked when the scene is opened)

    def words(self) -> str:
        """One clause for verify, the report and the film: which parts decided the world."""
        if self.against is None and self.recorded:
            return _("on the pack's own LDraw parts ({files} library files, the geometry the game recorded; the external "
                     "LDraw library it was played on is not here to compare them with)").format(files=self.files)
        if self.against is None:
            return _("on the pack's own LDraw parts ({files} library files, not checked: the game was played on an "
                     "external LDraw library and there is none here; set LDRAWDIR to check them)").format(files=self.files)
        if self.differ:
            return _("on the pack's own LDraw parts ({files} library files; {count} differ from {against}, allowed "
                     "by --allow-library {name})").format(files=self.files, count=len(self.differ),
                                                          against=self.against, name=self.name)
        return _("on the pack's own LDraw parts ({files} library files, the same as {against})").format(
            files=self.files, against=self.against)

    def short(self) -> str:
        """A few words for the film's opening caption."""
        if self.against is None:
            return (_("on the pack's own LDraw parts, as the game recorded them") if self.recorded
                    else _("on the pack's own LDraw parts, not checked"))
        if self.differ:
            return _("on the pack's own LDraw parts: {count} differ from the library, allowed").format(
                count=len(self.differ))
        return _("on the pack's own LDraw parts, the same as the library's")


@dataclass
class OpenReplay:
    """A replay file with what it needs to be re-played (see the module docstring)."""

    replay: Replay
    ruleset: Ruleset
    scene_override: Path | None = None
    pack: PackContents | None = None  # when the replay came in a .bowpack
    parts: PartsCheck | None = None   # when that pack carries its own LDraw parts
    _scene: Any = field(default=None, repr=False)
    _world: Any = field(default=None, repr=False)

    @property
    def path(self) -> Path:
        return self.replay.path

    @property
    def header(self) -> Any:
        return self.replay.header

    @property
    def entries(self) -> list[Any]:
        return self.replay.entries

    def scene_path(self) -> Path:
        """Where the scene is: `scene=` when given, else the pack's, else beside the replay, else from the
        working folder."""
        if self.scene_override is not None:
            if not self.scene_override.is_file():
                raise ReplayError(_("{scene_override}: no such scene file").format(scene_override=self.scene_override))
            return self.scene_override
        if self.pack is not None:
            return self.pack.scene
        return resolve_scene(self.path, self.header.scene)

    def scene(self) -> Any:
        """The header's scene, checked against its digest and loaded with the ruleset's schema."""
        if self._scene is None:
            from bow3d.rulesets import load_scene

            path = self.scene_path()
            scene = load_scene(path)
            library = self._names_library()
            found: dict[str, str] | None = {} if self.header.parts is not None else None
            problem = check_scene_digest(self.header.scene_digest, scene, path, library, found)
            if problem is not None:
                fix = (_("give the scene it was played on with --scene (its header names {scene}, played with "
                         "{ruleset})").format(scene=self.header.scene, ruleset=self.header.ruleset.get("name", "?"))
                       if self.scene_override is not None else
                       _("the scene file changed since the game: give the one it was played on with --scene"))
                raise ReplayError(_("{path}: the replay is of another scene: {problem}; {fix}")
                                  .format(path=self.path, problem=problem, fix=fix))
            if found is not None:
                self._check_parts(found, library)
            self._scene = scene
        return self._scene

    def _check_parts(self, found: dict[str, str], library: Any) -> None:
        """The library parts the scene's models place, as this library has them, against the header's record
        (`parts`): a part whose geometry is not the game's would re-play another world. ReplayError naming them."""
        differ = differing_geometry(self.header.parts or {}, found)
        if differ:
            more = _(" and {count} more").format(count=len(differ) - 3) if len(differ) > 3 else ""
            raise ReplayError(_("{path}: the LDraw parts {parts}{more} of the library here ({library}) are not those "
                                "the game was played on (their geometry differs from the replay's record); the "
                                "world would not be the game's: use the library it names ({kind}), or a pack of it "
                                "made with --with-parts").format(
                path=self.path, parts=", ".join(differ[:3]), more=more, library=library.describe(),
                kind=self.header.library or "?"))

    def _names_library(self) -> Any:
        """A library to resolve the scene's LDraw names with (the digest stands library parts by their names,
        so the replay's own library is only preferred)."""
        from bow3d.ldraw import Library

        try:
            return self.library()
        except ReplayError:
            return Library.from_env()

    def library(self) -> Any:
        """The LDraw library the replay's world was built with: the pack's own files when it carries them,
        else the bundled starter library when the header says 'bundled' (whatever $LDRAWDIR says), else the
        usual one ($LDRAWDIR)."""
        from bow3d.ldraw import Library

        if self.pack is not None and self.pack.library is not None:
            return Library([self.pack.library])
        library = library_named(self.header.library)
        if self.header.library == "external" and library.is_bundled:
            # the units' parts decide every line of sight: another library would replay another game
            hint = "; or ask for a pack made with --with-parts" if self.pack is not None else ""
            raise ReplayError(_("{path}: played with an external LDraw library ($LDRAWDIR) and "
                                "LDRAWDIR is not set here; point LDRAWDIR at that library to verify or "
                                "film it{hint}").format(path=self.path, hint=hint))
        return library

    @property
    def sight_method(self) -> str:
        """The sight method that refereed the game: the header's, else the one replays were refereed
        with before methods had names (bow3d.world.sight.LEGACY_SIGHT_METHOD)."""
        return self.header.sight or LEGACY_SIGHT_METHOD

    @property
    def revision(self) -> int:
        """The ruleset's revision the game was played with (its readings): the header's `ruleset.revision`,
        else 1 (replays written before rulesets had revisions)."""
        recorded = self.header.ruleset.get("revision", 1) if isinstance(self.header.ruleset, dict) else 1
        if isinstance(recorded, bool) or not isinstance(recorded, int) or not 1 <= recorded <= self.ruleset.revision:
            raise ReplayError(_("{path}: played with revision {recorded!r} of {name}; this bow3d knows "
                                "revisions 1 to {revision} of its readings")
                              .format(path=self.path, recorded=recorded, name=self.ruleset.name, revision=self.ruleset.revision))
        return recorded

    def world(self) -> Any:
        """The 3D world the game was played on, its sight measured by the header's method (built once;
        the rules put units back with place())."""
        if self._world is None:
            from bow3d.errors import UserInputError
            from bow3d.world import World

            scene, library = self.scene(), self.library()
            try:
                self._world = World.from_scene(scene, library, sight_method=self.sight_method)
            except UserInputError as error:
                if "unknown sight method" not in str(error):
                    raise
                raise ReplayError(_("{path}: refereed with the sight method {sight_method!r}, which "
                                    "this bow3d does not know ({value}): it cannot re-play the game as "
                                    "it was played")
                                  .format(path=self.path, sight_method=self.sight_method, value=str(error).split('(', 1)[-1].rstrip(')'))) from None
        return self._world

    def start(self, geometry: Any = None) -> Game:
        """A fresh game of the replay's scene on `geometry` (default its world), as the header set it up:
        its round limit and the ruleset's revision it was played with."""
        geometry = self.world() if geometry is None else geometry
        scene = self.scene()
        options: dict[str, Any] = {"max_rounds": self.header.max_rounds}
        if self.revision != self.ruleset.revision:
            options["revision"] = self.revision
        return Game.start(scene, prepare_geometry(scene, geometry), ruleset=self.ruleset, **options)

    def replay_entries(self, game: Game, before: Callable[[Any, Game, Any], None] | None = None
                       ) -> Iterator[tuple[Any, Any, list[Event]]]:
        """Apply the recorded entries to `game` (fresh from `start`) through the engine's one loop
        (Game.replay); `before(entry, game, action)` looks first and may raise to stop. Yields
        (entry, action, events). ReplayError (one line, with the entry and its line) for a record
        the rules do not understand or refuse."""
        entries = self.entries
        look = (lambda index, record, action: before(entries[index], game, action)) if before is not None else None
        steps = game.replay((entry.record for entry in entries), look)
        done = 0
        while True:
            try:
                index, action, events = next(steps)
            except StopIteration:
                return
            except (Bow3dError, ValueError, KeyError, TypeError) as error:
                entry = entries[done]
                where = f"{self.path}: entry {entry.n} (line {entry.n + 1})"
                if isinstance(error, RulesError) and hasattr(error, "reason"):
                    raise ReplayError(_("{where}: illegal record {value}: {error}")
                                      .format(where=where, value=short(entry.record, 120), error=error)) from None
                if isinstance(error, ReplayError):
                    raise
                raise ReplayError(_("{where}: record not understood: {value}: {error}")
                                  .format(where=where, value=short(entry.record, 120), error=error)) from None
            done = index + 1
            yield entries[index], action, events

    def resimulate(self, geometry: Any = None) -> Iterator[tuple[int, Game, Any, list[Event]]]:
        """A fresh game re-played entry by entry: yields (entry number, the game once the record is
        applied, the record's action, its events)."""
        game = self.start(geometry)
        for entry, action, events in self.replay_entries(game):
            yield entry.n, game, action, events

    def narrator(self, language: str | None = None) -> Any:
        return self.ruleset.narrator(language)


def open_replay(path: str | os.PathLike, scene: str | os.PathLike | None = None, *,
                allow_library: Collection[str] = ()) -> OpenReplay:
    """Read a replay (or the replay in a .bowpack) and find its ruleset; the scene and the world are
    built when first asked for. `allow_library`: pack libraries (by name) allowed to differ from the
    library the header names.

    ReplayError for an unreadable file or pack, or a ruleset this bow3d does not know."""
    import bow3d.rulesets  # noqa: F401  (registers the built-in rulesets)

    pack = open_pack(path) if is_pack(path) else None
    replay = read_replay(path) if pack is None else _read_packed(pack)
    parts = _check_pack_parts(pack, replay, allow_library) if pack is not None else None
    name = (replay.header.ruleset.get("name", DEFAULT_RULESET) if isinstance(replay.header.ruleset, dict)
            else DEFAULT_RULESET)
    try:
        ruleset = RULESETS.get(str(name))
    except UnknownRuleset as error:
        raise ReplayError(_("{path}: {error}").format(path=replay.path, error=error)) from None
    return OpenReplay(replay, ruleset, Path(scene) if scene is not None else None, pack, parts)


def _reference_library(replay: Replay) -> tuple[list[Path], str] | None:
    """The library the header names, as found here: (its roots, its name in words); None when the game was
    played on an external library and only the bundled one is here."""
    from bow3d.ldraw import LibraryError

    try:
        library = library_named(replay.header.library)
    except LibraryError:
        return None
    if replay.header.library == "bundled":
        return list(library.roots), _("the bundled library")
    if library.is_bundled or not library.exists():
        return None
    return list(library.roots), _("the LDraw library here ({roots})").format(roots=", ".join(map(str, library.roots)))


def _check_pack_parts(pack: PackContents, replay: Replay, allow_library: Collection[str]) -> PartsCheck | None:
    """A pack's own parts against the library its header names, byte for byte (bow3d.replay.pack.differing_parts):
    the parts decide every line of sight. ReplayError naming those that differ, unless the pack's library is
    allowed by name."""
    if pack.library is None:
        return None
    name = library_name(pack.manifest)
    files = len(pack.manifest.library_files)
    reference = _reference_library(replay)
    recorded = replay.header.parts is not None
    if reference is None:
        return PartsCheck(name, files, None, recorded=recorded)
    roots, against = reference
    differ = tuple(differing_parts(pack.manifest.part_digests, roots))
    if differ and name not in allow_library:
        more = _(" and {count} more").format(count=len(differ) - 3) if len(differ) > 3 else ""
        raise ReplayError(_("{pack}: its LDraw parts {parts}{more} are not those of {against}, which the game names; "
                            "refused as a forgery: the parts decide every line of sight. If you trust this pack's "
                            "parts, add --allow-library {name}")
                          .format(pack=pack.pack, parts=", ".join(differ[:3]), more=more, against=against, name=name))
    return PartsCheck(name, files, against, differ, recorded)


def _read_packed(pack: PackContents) -> Replay:
    """The replay in a pack, named by the pack in what it says (pack.bowpack[game.bowreplay]:12: ...)."""
    name = f"{pack.pack}[{pack.manifest.replay}]"
    try:
        replay = read_replay(pack.replay)
    except ReplayError as error:
        raise ReplayError(str(error).replace(str(pack.replay), name)) from None
    truncation = replay.truncation.replace(str(pack.replay), name) if replay.truncation else None
    return replace(replay, path=Path(pack.pack), truncation=truncation)
