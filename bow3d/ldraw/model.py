"""Load an LDraw model: resolve references, flatten each distinct part once, instance it.

Layer: ldraw. This is where LDraw's frame becomes the world frame (Z up, LDU;
world (x, y, z) = LDraw (X, Z, -Y), design.md), and nowhere else. Sub-models (MPD
blocks, .ldr files) are walked with their transforms; every part reached is a
`PartInstance`; the merged `Mesh` is built on first use of `Model.mesh`.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np

from bow3d.errors import LDrawError
from bow3d.ldraw.cache import PartCache, content_hash
from bow3d.ldraw.colours import ColourTable, substitute_main_colour
from bow3d.ldraw.flatten import MAX_DEPTH, FlatPart, Flattener, missing_part, ref_matrices
from bow3d.ldraw.library import Library, UnsafeReference
from bow3d.ldraw.mesh import LDRAW_TO_WORLD, Mesh, PartInstance
from bow3d.ldraw.parse import (Diagnostic, LDrawDocument, LDrawFile, SubfileRef, normalise_name, parse_document,
                               parse_file)

STREAM_ABOVE_BYTES = 8 * 1024 * 1024
MAX_FILE_BYTES = 64 * 1024 * 1024  # 200x the 5,000-part battlefield; memory grows with geometry  # larger than any real model; refuse rather than exhaust memory
LOOSE = "(loose geometry)"


@dataclass
class Model:
    """A loaded model: its part instances, the distinct parts, colours and diagnostics."""

    path: str
    library: Library
    colours: ColourTable
    instances: list[PartInstance] = field(default_factory=list)
    instance_part: list[str] = field(default_factory=list)  # part key per instance
    parts: dict[str, FlatPart] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    meta: list[tuple[str, int, str, tuple[str, ...]]] = field(default_factory=list)  # file, line, text, submodels
    load_seconds: float = 0.0
    cache_hits: int = 0

    @property
    def missing_parts(self) -> list[PartInstance]:
        return [i for i in self.instances if i.missing]

    def unique_part_names(self) -> list[str]:
        return sorted({i.name for i in self.instances})

    def triangle_count(self) -> int:
        """Triangles at full detail, without building the merged mesh."""
        counts = {key: part.triangle_count for key, part in self.parts.items()}
        return sum(counts[key] for key in self.instance_part)

    def groups(self) -> dict[str, np.ndarray]:
        """Part key -> indices of its instances (int64), in first-seen order."""
        keys = np.asarray(self.instance_part, dtype=object)
        return {key: np.flatnonzero(keys == key) for key in dict.fromkeys(self.instance_part)}

    def world_transforms(self, indices: np.ndarray) -> np.ndarray:
        """(N, 4, 4) float64 world transforms of the given instances."""
        return np.stack([self.instances[i].transform for i in indices]) if len(indices) else np.zeros((0, 4, 4))

    @cached_property
    def mesh(self) -> Mesh:
        """All instances merged into one world-frame mesh (vectorised per distinct part)."""
        return build_mesh(self, range(len(self.instances)))

    def studs(self) -> tuple[np.ndarray, np.ndarray]:
        """World placements of every top stud: ((S, 4, 4) float32 matrices, (S,) int32 instance index).

        A stud primitive's frame has its base centre at the origin and grows along its LDraw -Y,
        so in the world its up direction is `-M[:3, 1]` (the matrix's second column, negated).
        """
        mats, owners = [], []
        for key, idx in self.groups().items():
            studs = self.parts[key].studs
            if studs.shape[0] == 0:
                continue
            world = self.world_transforms(idx).astype(np.float32)
            mats.append(np.matmul(world[:, None], studs[None]).reshape(-1, 4, 4))
            owners.append(np.repeat(idx.astype(np.int32), studs.shape[0]))
        if not mats:
            return np.zeros((0, 4, 4), np.float32), np.zeros(0, np.int32)
        return np.concatenate(mats), np.concatenate(owners)

    def bounds(self) -> np.ndarray:
        """(2, 3) world-frame box of every instance's geometry (without merging the mesh), exact."""
        lows, highs = [], []
        for key, idx in self.groups().items():
            part = self.parts[key]
            if part.positions.shape[0] == 0:
                continue
            mats = self.world_transforms(idx)
            # A part's box corners bound it exactly when every instance is turned by quarter turns;
            # any other turn needs its shape points, or the box grows.
            rows = np.count_nonzero(np.abs(mats[:, :3, :3]) > 1e-6, axis=2)
            points = _box_corners(*part.extent()) if np.all(rows == 1) else part.shape_points().astype(np.float64)
            moved = np.einsum("nij,cj->nci", mats[:, :3, :3], points) + mats[:, None, :3, 3]
            lows.append(moved.min(axis=(0, 1)))
            highs.append(moved.max(axis=(0, 1)))
        if not lows:
            return np.zeros((2, 3))
        return np.stack([np.min(lows, axis=0), np.max(highs, axis=0)])


def _box_corners(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    return np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])],
                    dtype=np.float64)


def build_mesh(model: Model, selection) -> Mesh:
    """Merge the selected instances (indices into model.instances) into one world mesh.

    Output arrays are allocated once and filled per distinct part with one batched
    matrix product over all of that part's instances.
    """
    chosen = np.zeros(len(model.instances), bool)
    chosen[list(selection)] = True
    groups = [(model.parts[key], idx[chosen[idx]]) for key, idx in model.groups().items()]
    groups = [(part, idx) for part, idx in groups if len(idx)]
    if not groups:
        return Mesh.empty()

    def total(attr: str) -> int:
        return sum(getattr(part, attr).shape[0] * len(idx) for part, idx in groups)

    nv, nt, ne, no = total("positions"), total("triangles"), total("edges"), total("optional_edges")
    out = Mesh(
        positions=np.empty((nv, 3), np.float32), triangles=np.empty((nt, 3), np.int32),
        tri_colour=np.empty(nt, np.int32), tri_rgba=np.empty((nt, 4), np.uint8),
        tri_instance=np.empty(nt, np.int32), tri_certified=np.empty(nt, bool), tri_detail=np.empty(nt, bool),
        edges=np.empty((ne, 2), np.int32), edge_colour=np.empty(ne, np.int32),
        optional_edges=np.empty((no, 4), np.int32))
    v0 = t0 = e0 = o0 = 0
    codes = []
    instance_colour = np.asarray([i.colour for i in model.instances], dtype=np.int32)
    for part, idx in groups:
        n, v, t, e, o = len(idx), *(getattr(part, a).shape[0] for a in
                                    ("positions", "triangles", "edges", "optional_edges"))
        mats = model.world_transforms(idx).astype(np.float32)
        pos = out.positions[v0: v0 + n * v].reshape(n, v, 3)
        np.matmul(part.positions[None], mats[:, :3, :3].transpose(0, 2, 1), out=pos)
        pos += mats[:, None, :3, 3]
        offsets = (v0 + np.arange(n, dtype=np.int32) * v)[:, None, None]
        colours = instance_colour[idx][:, None]
        tri = slice(t0, t0 + n * t)
        placed = part.triangles[None] + offsets
        inverted = np.asarray([model.instances[i].inverted for i in idx], dtype=bool)
        flips = (np.linalg.det(mats[:, :3, :3].astype(np.float64)) < 0) ^ inverted
        if flips.any():
            placed[flips] = placed[flips][:, :, [0, 2, 1]]
        out.triangles[tri] = placed.reshape(-1, 3)
        out.tri_colour[tri] = substitute_main_colour(part.tri_colour[None], colours).reshape(-1)
        out.tri_instance[tri] = np.repeat(idx.astype(np.int32), t)
        out.tri_certified[tri] = np.tile(part.tri_certified, n)
        out.tri_detail[tri] = np.tile(part.tri_detail, n)
        out.edges[e0: e0 + n * e] = (part.edges[None] + offsets).reshape(-1, 2)
        out.edge_colour[e0: e0 + n * e] = substitute_main_colour(part.edge_colour[None], colours).reshape(-1)
        out.optional_edges[o0: o0 + n * o] = (part.optional_edges[None] + offsets).reshape(-1, 4)
        codes.append(substitute_main_colour(np.unique(part.tri_colour)[None], np.unique(colours)[:, None]))
        v0, t0, e0, o0 = v0 + n * v, t0 + n * t, e0 + n * e, o0 + n * o
    # Per-triangle RGBA through a small palette of the codes that can occur: one searchsorted.
    distinct = np.unique(np.concatenate([c.reshape(-1) for c in codes]))
    out.tri_rgba[:] = model.colours.rgba(distinct)[np.searchsorted(distinct, out.tri_colour)]
    return out


class _Loader:
    """One load: documents by path, MPD blocks, the flattener and the instance walk."""

    def __init__(self, library: Library, strict: bool, cache: PartCache | None):
        self.library = library
        self.strict = strict
        self.cache = cache
        self.documents: dict[str, LDrawDocument] = {}
        self.blocks: dict[str, dict[str, LDrawFile]] = {}  # source -> MPD blocks by name
        self.fingerprints: dict[str, tuple[int, int, str]] = {}  # path -> (size, mtime_ns, hash) as read
        self.resolved: dict[tuple[str, str], tuple[LDrawFile | None, str, frozenset[str]]] = {}
        self.diagnostics: list[Diagnostic] = []
        self.flattener = Flattener(self.resolve, strict)
        self.colours = ColourTable(self._ldconfig())
        self.context = f"{[str(r) for r in library.roots]}|{library.resolution}"
        self.root_prefixes = tuple(str(root) + os.sep for root in library.roots)

    def _ldconfig(self):
        path = self.library.ldconfig()
        if path is None:
            self.diagnostics.append(Diagnostic(self.library.describe(), 0,
                                               "no LDConfig.ldr found: only a few basic colours are known"))
            return None
        return parse_document(path.read_bytes(), str(path)).main.colours

    def read(self, path: Path) -> LDrawDocument:
        key = str(path)
        if key not in self.documents:
            size = path.stat().st_size
            if size > MAX_FILE_BYTES:
                raise LDrawError(f"{path}: {size // 2**20} MiB is larger than any LDraw model bow3d reads "
                                 f"({MAX_FILE_BYTES // 2**20} MiB)")
            stat = path.stat()
            if stat.st_size > STREAM_ABOVE_BYTES:  # big models: stream, never hold the whole text
                doc = parse_file(key, strict=self.strict)
            else:
                data = path.read_bytes()
                if self.cache is not None:
                    self.fingerprints[key] = (stat.st_size, stat.st_mtime_ns, content_hash(data))
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
        memo_key = (parent.source, name)
        found = self.resolved.get(memo_key)
        if found is None:
            found = self.resolved[memo_key] = self._resolve(name, parent)
        return found

    def _resolve(self, name: str, parent: LDrawFile) -> tuple[LDrawFile | None, str, frozenset[str]]:
        norm = normalise_name(name)
        for source in (parent.source, self.main_source):
            block = self.blocks.get(source, {}).get(norm)
            if block is not None:
                return block, f"{source}#{norm}", frozenset()
        local = Path(os.path.dirname(parent.source)) if not self._in_library(parent.source) else None
        path = self.library.find(name, local)
        if path is None:
            return None, f"missing:{norm}", frozenset()
        doc = self.read(path)
        return doc.main, str(path), frozenset([str(path)])

    def _in_library(self, source: str) -> bool:
        return source.startswith(self.root_prefixes)

    def flat_part(self, f: LDrawFile, key: str, deps: frozenset[str]) -> tuple[FlatPart, bool]:
        """The flattened part, from the disk cache when its files are unchanged."""
        if self.cache is None or not deps:
            return self.flattener.flatten(f, key, deps), False
        path = next(iter(deps))
        known = self.fingerprints.get(path)
        part_hash = known[2] if known else content_hash(Path(path).read_bytes())
        cache_key = self.cache.key(part_hash, path, self.context)
        cached = self.cache.get(cache_key)
        if cached is not None:
            return cached, True
        part = self.flattener.flatten(f, key, deps)
        if key not in self.flattener.incomplete:
            self.cache.put(cache_key, part, self.fingerprints)
        return part, False


def load_model(path: str | os.PathLike[str], library: Library | None = None, *, strict: bool = False,
               cache: PartCache | None | bool = True) -> Model:
    """Load an LDraw file (.ldr, .mpd, .dat) into a `Model`.

    Lenient: problems become `Model.diagnostics` (missing parts are magenta boxes); with
    `strict=True` the first problem raises `LDrawError`. Raises `LDrawError` when the file
    itself cannot be read.
    """
    started = time.perf_counter()
    library = library or Library.from_env()
    part_cache = PartCache() if cache is True else (cache or None)
    file_path = Path(path)
    if not file_path.is_file():
        raise LDrawError(f"{path}: no such LDraw file" + (" (it is a folder)" if file_path.is_dir() else ""))
    loader = _Loader(library, strict, part_cache)
    try:
        doc = loader.read(file_path.resolve())
    except OSError as error:
        raise LDrawError(f"{path}: cannot be read ({error.strerror or error})") from None
    loader.main_source = str(file_path.resolve())
    model = Model(path=str(path), library=library, colours=loader.colours)
    walk = _Walk(loader, model)
    main = doc.main
    if main.is_part:
        walk.add_part(main, loader.main_source, frozenset([loader.main_source]), 16, np.eye(4),
                      SubfileRef(16, (0,) * 3 + (1, 0, 0, 0, 1, 0, 0, 0, 1), main.name, 0, False, True), ())
    else:
        walk.submodel(main, f"{loader.main_source}#{normalise_name(main.name)}", np.eye(4), 16, ())
    model.diagnostics = loader.diagnostics + loader.flattener.diagnostics + _unknown_colours(model)
    model.cache_hits = walk.hits
    model.load_seconds = time.perf_counter() - started
    return model


def _unknown_colours(model: Model) -> list[Diagnostic]:
    """One diagnostic per colour code nobody defined, at the first instance that uses it."""
    found: dict[int, Diagnostic] = {}
    for key, idx in model.groups().items():
        part_codes = np.unique(model.parts[key].tri_colour).tolist()
        for i in idx:
            instance = model.instances[i]
            for code in {instance.colour, *(c for c in part_codes if c not in (16, 24))}:
                if code not in found and code not in (16, 24) and code not in model.colours:
                    found[code] = Diagnostic(instance.file, instance.line,
                                             f"unknown colour {code} on {instance.name}: drawn magenta; "
                                             "define it with 0 !COLOUR or fix the code", "warning")
    return list(found.values())


def _short(key: str) -> str:
    """'village.mpd#house.ldr' -> 'house.ldr'; '/lib/parts/x.dat' -> 'x.dat'."""
    return key.rsplit("#", 1)[-1] if "#" in key else Path(key).name


class _Walk:
    """Walks sub-models from the main model, placing part instances in the world frame."""

    def __init__(self, loader: _Loader, model: Model):
        self.loader = loader
        self.model = model
        self.stack: list[str] = []
        self.hits = 0

    def submodel(self, f: LDrawFile, key: str, transform: np.ndarray, colour: int, path: tuple[str, ...],
                 inverted: bool = False) -> None:
        self.stack.append(key)
        path = path + (f.name,)
        for line, text in f.meta:
            self.model.meta.append((f.source, line, text, path))
        if f.triangles.shape[0] or f.edges.shape[0]:
            self._loose(f, key, transform, colour, path)
        mats = ref_matrices(f.refs) if f.refs else np.zeros((0, 4, 4))
        for ref, local in zip(f.refs, mats):
            self._reference(f, ref, transform @ local, colour, path, inverted)
        self.stack.pop()

    def _reference(self, parent: LDrawFile, ref: SubfileRef, transform: np.ndarray, colour: int,
                   path: tuple[str, ...], inverted: bool) -> None:
        ref_colour = colour if ref.colour == 16 else ref.colour
        inverted ^= ref.invert
        try:
            child, key, deps = self.loader.resolve(ref.name, parent)
        except UnsafeReference as error:
            self.loader.flattener.diagnose(parent.source, ref.line, f"{error}; reference skipped", "error")
            return
        except OSError as error:
            self.loader.flattener.diagnose(parent.source, ref.line, f"'{ref.name}' cannot be read: {error}", "error")
            return
        if child is None:
            self.loader.flattener.diagnose(parent.source, ref.line,
                                           f"missing part '{ref.name}': drawn as a magenta box", "error")
            self._instance("missing:" + ref.name, missing_part(), ref, transform, ref_colour, parent, path,
                           missing=True)
        elif child.is_part:
            self.add_part(child, key, deps, ref_colour, transform, ref, path, parent, inverted)
        elif key in self.stack:
            cycle = " -> ".join(_short(k) for k in self.stack[self.stack.index(key):] + [key])
            self.loader.flattener.diagnose(parent.source, ref.line,
                                           f"sub-model reference cycle {cycle}; reference skipped", "error")
        elif len(self.stack) >= MAX_DEPTH:
            self.loader.flattener.diagnose(parent.source, ref.line,
                                           f"sub-models nested deeper than {MAX_DEPTH}; reference skipped", "error")
        else:
            self.submodel(child, key, transform, ref_colour, path, inverted)

    def add_part(self, f: LDrawFile, key: str, deps: frozenset[str], colour: int, transform: np.ndarray,
                 ref: SubfileRef, path: tuple[str, ...], parent: LDrawFile | None = None,
                 inverted: bool = False) -> None:
        part = self.model.parts.get(key)
        if part is None:
            part, hit = self.loader.flat_part(f, key, deps)
            self.hits += hit
        self._instance(key, part, ref, transform, colour, parent or f, path, inverted=inverted)

    def _instance(self, key: str, part: FlatPart, ref: SubfileRef, transform: np.ndarray, colour: int,
                  parent: LDrawFile, path: tuple[str, ...], missing: bool = False, inverted: bool = False) -> None:
        self.model.parts[key] = part
        self.model.instance_part.append(key)
        self.model.instances.append(PartInstance(
            name=normalise_name(ref.name).rsplit("/", 1)[-1], colour=colour,
            colour_name=self.model.colours.name(colour), transform=LDRAW_TO_WORLD @ transform,
            file=os.path.basename(parent.source), line=ref.line,
            submodel_path=path, missing=missing, inverted=inverted))

    def _loose(self, f: LDrawFile, key: str, transform: np.ndarray, colour: int, path: tuple[str, ...]) -> None:
        """Lines of type 2-5 written straight into a model become one pseudo-part."""
        loose = LDrawFile(name=f"{f.name} {LOOSE}", source=f.source, triangles=f.triangles,
                          tri_colour=f.tri_colour, tri_certified=f.tri_certified, edges=f.edges,
                          edge_colour=f.edge_colour, optional_edges=f.optional_edges,
                          optional_colour=f.optional_colour)
        part = self.loader.flattener.flatten(loose, key + LOOSE)
        ref = SubfileRef(16, (0,) * 12, loose.name, f.first_line, False, True)
        self._instance(key + LOOSE, part, ref, transform, colour, f, path)

