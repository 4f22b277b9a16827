"""Load an LDraw model: read files safely, resolve references, flatten each part once, instance it.

Layer: ldraw. `load_model` reads the main file and everything it references through one
`_Loader` (documents by path, MPD blocks, the part flattener, the disk cache), then hands
the sub-models to `bow3d.ldraw.expand`, which counts before it builds. Every file is read
through `bow3d.ldraw.files` (plain files only, at most MAX_FILE_BYTES each) and counted
against the load's `LoadBudget` (`max_bytes_read`); a referenced file that cannot be read
is a diagnostic, the main file an `LDrawError`.
"""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

from bow3d.errors import LDrawError
from bow3d.i18n import _
from bow3d.ldraw.budget import MAX_FILE_BYTES, BudgetExceeded, LoadBudget
from bow3d.ldraw.cache import PartCache, content_hash
from bow3d.ldraw.colours import ColourTable
from bow3d.ldraw.expand import Expander
from bow3d.ldraw.files import UnsafeReference, file_kind, open_capped, read_capped
from bow3d.ldraw.flatten import FlatPart, Flattener
from bow3d.ldraw.instances import LOOSE
from bow3d.ldraw.library import Library
from bow3d.ldraw.model import Model, unknown_colours
from bow3d.ldraw.parse import (
    Diagnostic,
    LDrawDocument,
    LDrawFile,
    check_readable,
    iter_lines,
    normalise_name,
    parse_document,
    parse_stream,
)
from bow3d.ldraw.textures import find_textures

STREAM_ABOVE_BYTES = 8 * 1024 * 1024  # larger files are parsed line by line, never held whole


_LDCONFIGS: dict[tuple[str, str], tuple] = {}   # (path, content hash) -> its colours: read once a process
_LDCONFIGS_KEPT = 8


def _ldconfig_colours(data: bytes, path: str) -> list:
    """The colour definitions of an LDConfig.ldr's bytes (frozen ColourDefinitions), parsed once per content:
    every load reads the file (its bytes count against the budget) and parsed all 420 colours again."""
    key = (path, content_hash(data))
    found = _LDCONFIGS.get(key)
    if found is None:
        if len(_LDCONFIGS) >= _LDCONFIGS_KEPT:
            _LDCONFIGS.clear()
        found = _LDCONFIGS[key] = tuple(parse_document(data, path).main.colours)
    return list(found)


class _Loader:
    """One load: documents by path, MPD blocks, the flattener and the bytes read."""

    def __init__(self, library: Library, strict: bool, cache: PartCache | None, budget: LoadBudget, model: str):
        self.library = library
        self.strict = strict
        self.cache = cache
        self.budget = budget
        self.model_file = model
        self.main_source = ""
        self.documents: dict[str, LDrawDocument] = {}
        self.blocks: dict[str, dict[str, LDrawFile]] = {}  # source -> MPD blocks by name
        self.fingerprints: dict[str, tuple[int, int, str]] = {}  # path -> (size, mtime_ns, hash) as read
        self.resolved: dict[tuple[str, str], tuple[LDrawFile | None, str, frozenset[str]] | UnsafeReference] = {}
        self.placed: dict[tuple[str, str], tuple[LDrawFile | None, str, frozenset[str]] | UnsafeReference] = {}
        self.probes: dict[str, LDrawFile | None] = {}  # library path -> its header alone (resolve_placed)
        self.sizes: dict[str, int] = {}
        self.folders: dict[Path, dict[str, Path]] = {}  # listings of model folders, for this load only
        self.diagnostics: list[Diagnostic] = []
        self.flattener = Flattener(self.resolve, strict, budget)
        self.flattener.model_file = model
        self.colours = ColourTable(self._ldconfig())
        self.context = f"{[str(r) for r in library.roots]}|{library.resolution}"
        self.root_prefixes = tuple(str(root) + os.sep for root in library.roots)

    def _ldconfig(self):
        path = self.library.ldconfig()
        problem = "no LDConfig.ldr found"
        if path is not None:
            try:
                real = self.library.allows(path)
                data = read_capped(real, MAX_FILE_BYTES, "LDConfig.ldr")
                self._count(str(real), len(data))
                return _ldconfig_colours(data, str(real))
            except BudgetExceeded:
                raise
            except (UnsafeReference, LDrawError) as error:
                problem = f"LDConfig.ldr cannot be used ({error})"
        self.diagnostics.append(Diagnostic(self.library.describe(), 0, f"{problem}: only a few basic colours are known"))
        return None

    def _count(self, path: str, size: int) -> None:
        """Add a file's bytes to the load's total; BudgetExceeded names the biggest files read."""
        self.sizes[path] = size
        total = sum(self.sizes.values())
        if total > self.budget.max_bytes_read:
            biggest = sorted(self.sizes.items(), key=lambda item: -item[1])[:3]
            self.budget.check("max_bytes_read", total, self.model_file,
                              tuple(f"{os.path.basename(p)} ({s / 2**20:.1f} MiB)" for p, s in biggest))

    def read(self, path: Path) -> LDrawDocument:
        key = str(path)
        if key not in self.documents:
            stream, info = open_capped(path, MAX_FILE_BYTES, "this LDraw file")
            with stream:
                self._count(key, info.st_size)
                if info.st_size > STREAM_ABOVE_BYTES:  # big models: stream, never hold the whole text
                    doc = parse_stream(stream, key, strict=self.strict)
                else:
                    data = stream.read()
                    if self.cache is not None:
                        self.fingerprints[key] = (len(data), info.st_mtime_ns, content_hash(data))
                    doc = parse_document(data, key, strict=self.strict)
            self.documents[key] = doc
            self.blocks[key] = doc.submodels() if len(doc.files) > 1 else {}
            for f in doc.files:
                self.diagnostics.extend(f.diagnostics)
                for colour in f.colours:  # a model's local !COLOUR overrides LDConfig
                    self.colours.define(colour)
        return self.documents[key]

    def resolve(self, name: str, parent: LDrawFile) -> tuple[LDrawFile | None, str, frozenset[str]]:
        """A reference -> (file, identity key, disk dependencies). Raises UnsafeReference."""
        return self._memo(self.resolved, name, parent, self._resolve)

    def resolve_placed(self, name: str, parent: LDrawFile) -> tuple[LDrawFile | None, str, frozenset[str]]:
        """`resolve` for a reference a model places (bow3d.ldraw.expand): a library part comes back as its
        header alone (`probe`) when the disk cache may hold it, and is read whole only when flattened."""
        if self.cache is None or self.strict or (parent.source, name) in self.resolved:
            return self.resolve(name, parent)
        return self._memo(self.placed, name, parent, self._resolve_placed)

    @staticmethod
    def _memo(memo: dict, name: str, parent: LDrawFile, how) -> tuple[LDrawFile | None, str, frozenset[str]]:
        memo_key = (parent.source, name)
        found = memo.get(memo_key)
        if found is None:
            try:
                found = how(name, parent)
            except UnsafeReference as error:  # remembered: a bad file is tried once per referencing file
                found = error
            memo[memo_key] = found
        if isinstance(found, UnsafeReference):
            raise found
        return found

    def _resolve_placed(self, name: str, parent: LDrawFile) -> tuple[LDrawFile | None, str, frozenset[str]]:
        norm = normalise_name(name)
        if any(norm in self.blocks.get(source, {}) for source in (parent.source, self.main_source)):
            return self._resolve(name, parent)
        local = Path(os.path.dirname(parent.source)) if not self._in_library(parent.source) else None
        path = self.library.find(name, local, self.folders)
        if path is None or str(path) in self.documents or not self._in_library(str(path)):
            return self._resolve(name, parent)
        header = self.probe(path)
        if header is None or not self.library.is_part_file(header, name):
            return self._resolve(name, parent)
        return header, str(path), frozenset([str(path)])

    def probe(self, path: Path) -> LDrawFile | None:
        """The header of a library file (its lines before the first line that is not a comment), read
        and fingerprinted whole; None when the header holds more than a part's header does (0 FILE, !COLOUR)."""
        key = str(path)
        if key not in self.probes:
            try:
                data = read_capped(path, MAX_FILE_BYTES, "this LDraw file")
            except (LDrawError, OSError) as error:
                raise UnsafeReference(_("'{name}' cannot be read as LDraw ({error})")
                                      .format(name=path.name, error=error)) from None
            self._count(key, len(data))
            self.fingerprints[key] = (len(data), os.stat(path).st_mtime_ns, content_hash(data))
            lines: list[str] = []
            plain = True  # False: the header holds more than a part's header does
            for line in iter_lines(data):
                words = line.split()
                if words and words[0] != "0":
                    break
                if len(words) > 1 and words[1].upper() in ("FILE", "NOFILE", "!COLOUR", "!DATA"):
                    plain = False
                    break
                lines.append(line)
            self.probes[key] = parse_document(lines, key).main if plain else None
        return self.probes[key]

    def _resolve(self, name: str, parent: LDrawFile) -> tuple[LDrawFile | None, str, frozenset[str]]:
        norm = normalise_name(name)
        for source in (parent.source, self.main_source):
            block = self.blocks.get(source, {}).get(norm)
            if block is not None:
                return block, f"{source}#{norm}", frozenset()
        local = Path(os.path.dirname(parent.source)) if not self._in_library(parent.source) else None
        path = self.library.find(name, local, self.folders)
        if path is None:
            return None, f"missing:{norm}", frozenset()
        try:
            doc = self.read(path)
        except BudgetExceeded:
            raise
        except (LDrawError, OSError) as error:
            raise UnsafeReference(_("'{name}' cannot be read as LDraw ({error})").format(name=name, error=error)) from None
        return doc.main, str(path), frozenset([str(path)])

    def _in_library(self, source: str) -> bool:
        return source.startswith(self.root_prefixes)

    def flat_part(self, f: LDrawFile, key: str, deps: frozenset[str]) -> tuple[FlatPart, bool]:
        """The flattened part, from the disk cache when its files are unchanged. A part known by its
        header alone (`probe`) is read whole on a miss, or on a hit whose file said something when read
        (diagnostics: the cache entry remembers), so warm and cold loads report the same."""
        if self.cache is None or not deps:
            return self.flattener.flatten(f, key, deps), False
        path = next(iter(deps))
        known = self.fingerprints.get(path)
        part_hash = known[2] if known else content_hash(read_capped(path, MAX_FILE_BYTES, "this part"))
        cache_key = self.cache.key(part_hash, path, self.context)
        cached = self.cache.get_entry(cache_key)
        if cached is not None:
            if cached[1] and path not in self.documents:
                self.read(Path(path))
            return cached[0], True
        if path not in self.documents:
            f = self.read(Path(path)).main
        part = self.flattener.flatten(f, key, deps)
        if key not in self.flattener.incomplete:
            doc = self.documents.get(path)  # its !DATA images are read from the file, not the cache
            said = any(g.diagnostics or g.colours for g in doc.files) or bool(doc.data) if doc is not None else True
            self.cache.put(cache_key, part, self.fingerprints, reparse=said)
        return part, False

    def flatten_loose(self, f: LDrawFile, key: str) -> FlatPart:
        """Lines of type 2-5 written straight into a model: one pseudo-part."""
        loose = LDrawFile(name=f"{f.name} {LOOSE}", source=f.source, triangles=f.triangles,
                          tri_colour=f.tri_colour, tri_certified=f.tri_certified, edges=f.edges,
                          edge_colour=f.edge_colour, optional_edges=f.optional_edges,
                          optional_colour=f.optional_colour, texmaps=f.texmaps, tri_texmap=f.tri_texmap)
        return self.flattener.flatten(loose, key)


def _main_file(path: str | os.PathLike[str]) -> Path:
    """The main model file, resolved; LDrawError when it is missing, a folder, a pipe or a device."""
    try:
        info = os.stat(path)
    except OSError:
        raise LDrawError(_("{path}: no such LDraw file").format(path=path)) from None
    if stat.S_ISDIR(info.st_mode):
        raise LDrawError(_("{path}: no such LDraw file (it is a folder)").format(path=path))
    if not stat.S_ISREG(info.st_mode):
        raise LDrawError(_("{path}: is {value}, not a file; give a plain LDraw file")
                         .format(path=path, value=file_kind(info.st_mode)))
    return Path(path).resolve()


def load_model(path: str | os.PathLike[str], library: Library | None = None, *, strict: bool = False,
               cache: PartCache | None | bool = True, budget: LoadBudget | None = None) -> Model:
    """Load an LDraw file (.ldr, .mpd, .dat) into a `Model`.

    Lenient: problems become `Model.diagnostics` (missing parts are magenta boxes); with
    `strict=True` the first problem raises `LDrawError`. Raises `LDrawError` when the file
    itself cannot be read, and `BudgetExceeded` when it would cost more than `budget`
    (default: the library's, see `bow3d.ldraw.budget`).
    """
    started = time.perf_counter()
    library = library or Library.from_env()
    budget = budget or library.budget
    part_cache = PartCache() if cache is True else (cache or None)
    main_path = _main_file(path)
    loader = _Loader(library, strict, part_cache, budget, str(path))
    doc = loader.read(main_path)
    check_readable(doc)
    loader.main_source = str(main_path)
    expander = Expander(loader, budget, str(path))
    main = doc.main
    if library.is_part_file(main, main.name if len(doc.files) > 1 else main_path.name):
        table, parts = expander.single_part(main, loader.main_source, loader.colours.name)
    else:
        root = expander.walk(main, f"{loader.main_source}#{normalise_name(main.name)}")
        parts = expander.flatten_parts(root)
        table = expander.table(expander.expand(root), parts, loader.colours.name)
    model = Model(path=str(path), library=library, colours=loader.colours, table=table, parts=parts,
                  meta=expander.meta, missing_files=sorted({normalise_name(n) for n in loader.flattener.missing}),
                  cache_hits=expander.hits, budget=budget)
    model.textures, texture_diagnostics = find_textures(parts, loader.documents, library, main_path.parent,
                                                        loader.folders)
    model.diagnostics = loader.diagnostics + loader.flattener.diagnostics + texture_diagnostics + unknown_colours(model)
    model.load_seconds = time.perf_counter() - started
    return model
