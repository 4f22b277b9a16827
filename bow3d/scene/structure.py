"""The sub-model tree of a loaded LDraw model: which placement of which sub-model each part came through.

Layer: scene (reads bow3d.ldraw). `bow3d.ldraw.load_model` flattens a model into part instances
and keeps, per instance, the names of the sub-models it came through, but not *which placement*
of a sub-model placed twice. This module walks the same documents in the same order as the
loader (loose geometry first, then type-1 lines in file order) and hangs every instance under
its sub-model placement (`Placement`), with the type-1 line that placed it and the `0` meta lines
written just before that line (where `0 !BOW UNIT ...` goes). The walk is checked against the
loader's instances (same part name and line, one by one).
"""

from __future__ import annotations

import io
import os
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import numpy as np

from bow3d.errors import SceneError
from bow3d.i18n import _, integer
from bow3d.ldraw import LDRAW_TO_WORLD, Library, Model
from bow3d.ldraw.budget import MAX_FILE_BYTES
from bow3d.ldraw.files import open_capped, read_capped
from bow3d.ldraw.flatten import MAX_DEPTH, group_rows, ref_matrices
from bow3d.ldraw.library import UnsafeReference
from bow3d.ldraw.parse import LDrawFile, normalise_name, parse_document


@dataclass
class Slot:
    """One part instance of the model as the walk reached it (index into Model.instances)."""

    index: int
    source: str  # file holding the line that placed it
    line: int
    name: str
    title: str  # the part's description (first line of its file), '' when unknown
    meta_before: list[tuple[int, str]]  # `0` lines between the previous type-1 line and this one


@dataclass
class Placement:
    """A placement of a sub-model (or the main model, the root): a node of the sub-model tree."""

    name: str  # sub-model name as referenced, normalised ('blue-rifleman.ldr')
    file: LDrawFile
    parent: Placement | None
    source: str  # the file holding the type-1 line that placed it ('' for the root)
    line: int  # that line (0 for the root)
    transform: np.ndarray  # (4, 4) LDraw-frame matrix of the sub-model in the main model (world_transform())
    meta_before: list[tuple[int, str]] = field(default_factory=list)
    slots: list[Slot] = field(default_factory=list)  # parts placed directly in it
    children: list[Placement] = field(default_factory=list)

    def all_slots(self) -> list[Slot]:
        """Every part instance under this placement, at any depth (its own parts first, then its sub-models')."""
        out = list(self.slots)
        for child in self.children:
            out += child.all_slots()
        return out

    def descendants(self) -> list[Placement]:
        out = []
        for child in self.children:
            out += [child] + child.descendants()
        return out

    def depth(self) -> int:
        return 0 if self.parent is None else 1 + self.parent.depth()

    @property
    def own_meta(self) -> list[tuple[int, str]]:
        return list(self.file.meta)


class _Walker:
    main_source: str  # the main file's path, set by model_structure before the walk

    def __init__(self, model: Model, library: Library):
        self.model = model
        self.library = library
        self.documents: dict[str, list[LDrawFile]] = {}
        self.blocks: dict[str, dict[str, LDrawFile]] = {}
        self.headers: dict[str, tuple[bool, str]] = {}  # library path -> (is_part, title)
        self.roots = tuple(str(r) + os.sep for r in library.roots)
        self.slots: list[Slot] = []
        self.stack: list[str] = []
        self.resolved: dict[tuple[str, str], tuple] = {}
        # per sub-model key: (rows of its type 1 lines the loader skips, sub-model placements beneath it)
        self.plans: dict[str, tuple[frozenset[int], int]] = {}
        self.local_sources: list[str] = []  # files outside the library that the model reaches

    def read(self, path: Path) -> LDrawFile:
        key = str(path)
        if key not in self.documents:
            doc = parse_document(read_capped(path, MAX_FILE_BYTES, "the model"), key)  # a plain file, capped
            self.documents[key] = doc.files
            self.blocks[key] = doc.submodels() if len(doc.files) > 1 else {}
            if not key.startswith(self.roots):
                self.local_sources.append(key)
        return self.documents[key][0]

    def header(self, path: Path, name: str) -> tuple[bool, str]:
        """(is a part, title) of a library file from its header lines (read as the loader reads them),
        without parsing the geometry."""
        key = str(path)
        if key not in self.headers:
            lines = []
            stream, _unused = open_capped(path, MAX_FILE_BYTES, "the part")  # a plain file: a FIFO never hangs
            with io.TextIOWrapper(stream, encoding="utf-8-sig", errors="replace") as handle:
                for number, raw in enumerate(handle):
                    words = raw.split()
                    if number > 40 or (words and words[0] != "0"):
                        break
                    lines.append(raw.rstrip("\r\n"))
            probe = parse_document(lines, key).main
            self.headers[key] = (self.library.is_part_file(probe, name), probe.title.strip())
        return self.headers[key]

    def resolve(self, name: str, parent: LDrawFile) -> tuple[str, LDrawFile | None, str, str]:
        """(kind 'submodel' | 'part' | 'missing' | 'unsafe', file, key, title) the way the loader resolves."""
        memo = (parent.source, name)
        if memo not in self.resolved:
            self.resolved[memo] = self._resolve(name, parent)
        return self.resolved[memo]

    def _resolve(self, name: str, parent: LDrawFile) -> tuple[str, LDrawFile | None, str, str]:
        norm = normalise_name(name)
        for source in (parent.source, self.main_source):
            block = self.blocks.get(source, {}).get(norm)
            if block is not None:
                kind = "part" if self.library.is_part_file(block, name) else "submodel"
                return kind, block, f"{source}#{norm}", block.title
        local = Path(os.path.dirname(parent.source)) if not parent.source.startswith(self.roots) else None
        try:
            path = self.library.find(name, local)
        except UnsafeReference:
            return "unsafe", None, "", ""
        if path is None:
            return "missing", None, f"missing:{norm}", ""
        if str(path).startswith(self.roots):
            is_part, title = self.header(path, name)
            if is_part:
                return "part", None, str(path), title
        main = self.read(path)
        return ("part" if self.library.is_part_file(main, name) else "submodel"), main, str(path), main.title

    def plan(self, f: LDrawFile, key: str) -> int:
        """The loader's first depth-first walk (bow3d.ldraw.expand), repeated: each sub-model planned once,
        its distinct names in order of first use, a reference back into the walk's stack (a cycle) or one
        nested deeper than MAX_DEPTH cut. The tree walk then cuts those same lines on every path, so
        it places exactly the loader's instances (which the load budget bounds) instead of
        re-deciding per path, which on a line-shuffled MPD multiplies out without end.
        Returns the sub-model placements beneath `key`."""
        self.stack.append(key)
        cut: set[int] = set()
        placements = 0
        for rows in group_rows(f.ref_name):
            kind, child, child_key, _unused = self.resolve(f.ref_names[f.ref_name[rows[0]]], f)
            if kind != "submodel":
                continue
            if child_key in self.stack or len(self.stack) >= MAX_DEPTH:
                cut.update(rows.tolist())
                continue
            assert child is not None  # a sub-model is always read
            if child_key not in self.plans:
                self.plan(child, child_key)
            placements += len(rows) * (1 + self.plans[child_key][1])
        self.stack.pop()
        self.plans[key] = (frozenset(cut), placements)
        return placements

    def walk(self, node: Placement, key: str) -> None:
        f = node.file
        cut = self.plans[key][0]
        if f.triangles.shape[0] or f.edges.shape[0]:
            self._slot(node, f.source, f.first_line, f"{f.name} (loose geometry)", "", [])
        mats = ref_matrices(f.refs) if f.refs else np.zeros((0, 4, 4))
        metas = sorted(f.meta)
        m = 0  # metas[m:] come after the previous type 1 line (lines are in file order: one pass)
        for row, (ref, local) in enumerate(zip(f.refs, mats)):
            start = m
            while m < len(metas) and metas[m][0] < ref.line:
                m += 1
            before = metas[start:m]
            kind, child, child_key, title = self.resolve(ref.name, f)
            if kind in ("part", "missing"):
                self._slot(node, f.source, ref.line, ref.name, title, before)
            elif kind == "submodel" and row not in cut:
                assert child is not None  # a sub-model is always read
                sub = Placement(name=normalise_name(ref.name), file=child, parent=node, source=f.source,
                                line=ref.line, transform=node.transform @ local, meta_before=before)
                node.children.append(sub)
                self.walk(sub, child_key)

    def _slot(self, node: Placement, source: str, line: int, name: str, title: str, before) -> None:
        slot = Slot(len(self.slots), source, line, normalise_name(name).rsplit("/", 1)[-1], title, before)
        self.slots.append(slot)
        node.slots.append(slot)


@dataclass
class Structure:
    """The sub-model tree of a model and the files it was read from."""

    root: Placement
    slots: list[Slot]
    documents: dict[str, list[LDrawFile]]
    local_sources: list[str]
    main_source: str

    def placements(self) -> list[Placement]:
        return [self.root] + self.root.descendants()


def model_structure(model: Model, library: Library) -> Structure:
    """Walk `model`'s documents into a sub-model tree aligned with `model.instances`.

    Raises SceneError when the walk and the loader disagree (it would be a bug; the message says so).
    """
    walker = _Walker(model, library)
    path = Path(model.path).resolve()
    walker.main_source = str(path)
    main = walker.read(path)
    if library.is_part_file(main, main.name if len(walker.documents[str(path)]) > 1 else path.name):
        raise SceneError(_("{path}: is a single part, not a model with minifigs; give the battlefield "
                           "model").format(path=model.path))
    root = Placement(name=normalise_name(PurePosixPath(main.name).name), file=main, parent=None, source="", line=0,
                     transform=np.eye(4))
    key = f"{walker.main_source}#{normalise_name(main.name)}"
    placements = walker.plan(main, key)
    allowed = library.budget.max_instances
    if placements + len(model.instances) > allowed:
        raise SceneError(_("{path}: places its sub-models {placements} times and its parts {value} "
                           "times, more than the load budget of {allowed} instances; split the "
                           "battlefield or simplify its sub-models")
                         .format(path=model.path, placements=integer(placements), value=integer(len(model.instances)),
                                 allowed=integer(allowed)))
    walker.walk(root, key)
    instances = model.instances
    if len(walker.slots) != len(instances) or any(
            s.line != i.line or (s.name != i.name and "(loose geometry)" not in s.name)
            for s, i in zip(walker.slots, instances)):
        raise SceneError(_("{path}: the scene builder lost track of the sub-models ({value} parts "
                           "walked, {value2} loaded); please report this model")
                         .format(path=model.path, value=len(walker.slots), value2=len(instances)))
    return Structure(root, walker.slots, walker.documents, walker.local_sources, walker.main_source)


def world_transform(placement: Placement) -> np.ndarray:
    """(4, 4) world transform (Z up) of a sub-model placement's own LDraw frame."""
    return LDRAW_TO_WORLD @ placement.transform


def meta_commands(lines: list[tuple[int, str]], command: str) -> list[tuple[int, dict[str, str]]]:
    """`!BOW <command> key=value ...` lines among (line, text) meta lines -> (line, {key: value})."""
    found = []
    for number, text in lines:
        words = text.split()
        if len(words) >= 2 and words[0].upper() == "!BOW" and words[1].upper() == command.upper():
            values = {}
            for word in words[2:]:
                if "=" in word:
                    key, value = word.split("=", 1)
                    values[key.strip().lower()] = value.strip().strip('"')
            found.append((number, values))
    return found


__all__ = ["Placement", "Slot", "Structure", "meta_commands", "model_structure", "world_transform"]
