"""Sub-models -> part instances, counted before they are built, each sub-model expanded once.

Layer: ldraw. Three passes over the graph of sub-models (MPD blocks and .ldr files):
  1. walk it depth first from the main model, resolving every distinct reference once and
     counting each sub-model's instances in integer arithmetic (a sub-model used k times costs
     k times its count, nothing is multiplied out); a reference back into the walk's own stack
     is a cycle and is skipped with a diagnostic, as is one nested deeper than MAX_DEPTH;
  2. check the count against the budget, flatten each distinct part once, check triangles;
  3. expand bottom-up: a sub-model's instances are its own rows plus, per sub-model it uses,
     that sub-model's rows placed by all its references in one batched matrix product;
     an expansion is dropped once its last user has taken it.
So a DAG costs its distinct nodes plus the instances it really places (which the budget bounds),
and the instances come out in the reading order of a plain depth-first walk: a sub-model's
loose geometry first, then its type 1 lines in file order.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from bow3d.ldraw.budget import LoadBudget
from bow3d.ldraw.colours import substitute_main_colour
from bow3d.ldraw.files import UnsafeReference
from bow3d.ldraw.flatten import MAX_DEPTH, FlatPart, group_rows, missing_part, placed_reach, ref_matrices
from bow3d.ldraw.instances import LOOSE, InstanceTable, Origins, Paths
from bow3d.ldraw.mesh import LDRAW_TO_WORLD
from bow3d.ldraw.parse import MAX_COORDINATE_LDU, LDrawFile

PART, MISSING, SUB, SKIP = 0, 1, 2, 3
MAIN_COLOUR = 16
_CHUNK = 65536  # instances converted to the world frame per step (bounded scratch memory)


@dataclass
class _Node:
    """One sub-model: what each of its type 1 lines became, and what it costs."""

    file: LDrawFile
    key: str
    kind: np.ndarray  # (R,) int8: PART, MISSING, SUB or SKIP
    target: np.ndarray  # (R,) int32: part index (PART, MISSING) or node index (SUB)
    loose: int  # part index of its loose geometry, -1 when it has none
    origin: int  # Origins base id
    count: int = 0  # instances, through every sub-model (Python int: never overflows)
    triangles: int = 0
    users: int = 0  # distinct sub-models that use it (its expansion is freed after the last)


@dataclass
class _Rows:
    """A sub-model expanded in its own LDraw frame (columns as in InstanceTable; path is local)."""

    part: np.ndarray
    matrix: np.ndarray
    colour: np.ndarray
    inverted: np.ndarray
    origin: np.ndarray
    path: np.ndarray  # index into `paths`
    paths: np.ndarray  # Paths cell ids


class Expander:
    """Walks, counts and expands the sub-models of one load (see the module docstring)."""

    def __init__(self, loader, budget: LoadBudget, model_file: str):
        self.loader = loader
        self.budget = budget
        self.model_file = model_file
        self.nodes: list[_Node] = []
        self.node_of: dict[str, int] = {}
        self.part_keys: list[str] = []
        self.part_of: dict[str, int] = {}
        self.part_source: list[tuple] = []  # per part: ("part", file, deps) | ("missing",) | ("loose", file)
        self.origins, self.paths = Origins(), Paths()
        self.stack: list[str] = []
        self.names: list[str] = []
        self.meta: list[tuple[str, int, str, tuple[str, ...]]] = []
        self.order: list[int] = []  # nodes in the order they were finished (users after what they use)
        self.hits = 0  # parts from the disk cache
        self.part_files: dict[str, bool] = {}  # file key -> is one part

    def diagnose(self, f: LDrawFile, line: int, message: str) -> None:
        self.loader.flattener.diagnose(f.source, line, message, "error")

    def _part(self, key: str, source: tuple) -> int:
        index = self.part_of.get(key)
        if index is None:
            index = self.part_of[key] = len(self.part_keys)
            self.part_keys.append(key)
            self.part_source.append(source)
        return index

    # -- pass 1: walk and count -------------------------------------------------------------

    def visit(self, f: LDrawFile, key: str) -> int:
        """Walk one sub-model (not yet visited, not on the stack); returns its node index."""
        index = len(self.nodes)
        self.node_of[key] = index
        self.stack.append(key)
        self.names.append(f.name)
        for line, text in f.meta:
            self.meta.append((f.source, line, text, tuple(self.names)))
        if f.ref_count and (f.ref_texmap >= 0).any():  # parts are instanced, each built once for every placement
            self.loader.flattener.diagnose(f.source, int(f.ref_line[np.argmax(f.ref_texmap >= 0)]),
                                           "a !TEXMAP block round parts or sub-models placed in a model is not "
                                           "drawn (textures are drawn inside parts); they keep their colours")
        kind = np.full(f.ref_count, SKIP, np.int8)
        target = np.zeros(f.ref_count, np.int32)
        loose = -1
        if f.triangles.shape[0] or f.edges.shape[0]:
            loose = self._part(key + LOOSE, ("loose", f))
        node = _Node(f, key, kind, target, loose, self.origins.add(f))
        self.nodes.append(node)
        for rows in group_rows(f.ref_name):
            self._classify(f, rows, kind, target)
        subs = target[kind == SUB]
        children, uses = np.unique(subs, return_counts=True)
        node.count = (loose >= 0) + int(np.count_nonzero(kind <= MISSING)) + sum(
            self.nodes[c].count * u for c, u in zip(children.tolist(), uses.tolist()))
        for c in children.tolist():
            self.nodes[c].users += 1
        self.stack.pop()
        self.names.pop()
        self.order.append(index)
        return index

    def _classify(self, f: LDrawFile, rows: np.ndarray, kind: np.ndarray, target: np.ndarray) -> None:
        """Resolve the file one group of type 1 lines names and say what they are."""
        name = f.ref_names[f.ref_name[rows[0]]]
        line = int(f.ref_line[rows[0]])
        try:
            child, key, deps = self.loader.resolve_placed(name, f)
        except UnsafeReference as error:  # out of bounds, not a plain file, unreadable
            self.diagnose(f, line, f"{error}; reference skipped")
            return
        if child is None:
            self.loader.flattener.add_missing(name, f)
            for ref_line in f.ref_line[rows].tolist():
                self.diagnose(f, ref_line, _missing(name))
            kind[rows], target[rows] = MISSING, self._part("missing:" + name, ("missing",))
        elif self._is_part(child, key, name):
            kind[rows], target[rows] = PART, self._part(key, ("part", child, deps))
        elif key in self.stack:
            cycle = " -> ".join(short_key(k) for k in self.stack[self.stack.index(key):] + [key])
            self.diagnose(f, line, f"sub-model reference cycle {cycle}; reference skipped")
        elif len(self.stack) >= MAX_DEPTH:
            self.diagnose(f, line, f"sub-models nested deeper than {MAX_DEPTH}; reference skipped")
        else:
            node = self.node_of.get(key)
            kind[rows], target[rows] = SUB, self.visit(child, key) if node is None else node

    def _is_part(self, child: LDrawFile, key: str, name: str) -> bool:
        """One part or a sub-model (Library.is_part_file), decided once per file."""
        known = self.part_files.get(key)
        if known is None:
            known = self.part_files[key] = self.loader.library.is_part_file(child, name)
        return known

    def walk(self, main: LDrawFile, key: str) -> _Node:
        """Pass 1 from the main model; BudgetExceeded when it would place too many instances."""
        root = self.nodes[self.visit(main, key)]
        self.budget.check("max_instances", root.count, self.model_file, self._heaviest(root, "count"))
        return root

    def _heaviest(self, node: _Node, measure: str) -> tuple[str, ...]:
        """The chain of sub-models (with use counts) that holds most of `measure`, from `node` down;
        for instances, ending with the part placed most often when that part holds most of them."""
        chain = [short_key(node.key)]
        while True:
            children, uses = np.unique(node.target[node.kind == SUB], return_counts=True)
            weights = [getattr(self.nodes[c], measure) * u for c, u in zip(children.tolist(), uses.tolist())]
            if weights and max(weights) * 2 >= getattr(node, measure):
                best = int(np.argmax(weights))
                node = self.nodes[int(children[best])]
                chain.append(f"{short_key(node.key)} (x{int(uses[best]):,})")
                continue
            direct = node.target[node.kind <= MISSING]
            if measure == "count" and direct.size and direct.size * 2 >= node.count:
                parts, uses = np.unique(direct, return_counts=True)
                best = int(np.argmax(uses))
                chain.append(f"{short_key(self.part_keys[parts[best]])} (x{int(uses[best]):,})")
            return tuple(chain)

    # -- pass 2: parts and triangles --------------------------------------------------------

    def flatten_parts(self, root: _Node) -> dict[str, FlatPart]:
        parts: dict[str, FlatPart] = {}
        box = missing_part()  # one magenta box for every missing part
        primitives = 0
        for key, source in zip(self.part_keys, self.part_source):
            if source[0] == "part":
                parts[key], hit = self.loader.flat_part(source[1], key, source[2])
                self.hits += hit
            elif source[0] == "loose":
                parts[key] = self.loader.flatten_loose(source[1], key)
            else:
                parts[key] = box
                continue
            primitives += parts[key].primitive_count
            self.budget.check("max_distinct_primitives", primitives, self.model_file, (short_key(key),))
        tris = np.asarray([parts[k].triangle_count for k in self.part_keys], np.int64)
        for index in self.order:
            node = self.nodes[index]
            direct = node.kind <= MISSING
            node.triangles = int(tris[node.target[direct]].sum()) + (int(tris[node.loose]) if node.loose >= 0 else 0)
            node.triangles += sum(self.nodes[c].triangles for c in node.target[node.kind == SUB].tolist())
        self.budget.check("max_triangles", root.triangles, self.model_file, self._heaviest(root, "triangles"))
        return parts

    # -- pass 3: expand ---------------------------------------------------------------------

    def expand(self, root: _Node) -> _Rows:
        done: dict[int, _Rows] = {}
        left = {i: n.users for i, n in enumerate(self.nodes)}
        for index in self.order:
            node = self.nodes[index]
            done[index] = self._expand(node, done)
            for c in np.unique(node.target[node.kind == SUB]).tolist():
                left[c] -= 1
                if left[c] == 0:
                    del done[c]
        return done[self.node_of[root.key]]

    def _expand(self, node: _Node, done: dict[int, _Rows]) -> _Rows:
        f, kind, target = node.file, node.kind, node.target
        sizes = np.zeros(f.ref_count + 1, np.int64)
        sizes[0] = node.loose >= 0
        direct = np.flatnonzero(kind <= MISSING)
        subs = np.flatnonzero(kind == SUB)
        sizes[1 + direct] = 1
        sizes[1 + subs] = [self.nodes[c].count for c in target[subs].tolist()]
        start = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        out = _Rows(np.empty(node.count, np.int32), np.empty((node.count, 4, 4)), np.empty(node.count, np.int32),
                    np.empty(node.count, bool), np.empty(node.count, np.int32), np.zeros(node.count, np.int32),
                    self.paths.add(f.name, np.array([-1])))
        if node.loose >= 0:
            out.part[0], out.matrix[0], out.colour[0] = node.loose, np.eye(4), MAIN_COLOUR
            out.inverted[0], out.origin[0] = False, node.origin
        rows = start[1 + direct]
        out.part[rows], out.colour[rows], out.inverted[rows] = target[direct], f.ref_colour[direct], f.ref_invert[direct]
        for lo in range(0, len(direct), _CHUNK):
            out.matrix[rows[lo:lo + _CHUNK]] = ref_matrices(f.ref_numbers[direct[lo:lo + _CHUNK]])
        out.origin[rows] = node.origin + 1 + direct
        paths = [out.paths]
        children = np.unique(target[subs])
        if subs.size and sum(self.nodes[c].count for c in children.tolist()) <= _CHUNK:
            self._place_all(out, [done[c] for c in children.tolist()], f, subs, np.searchsorted(children, target[subs]),
                            start, paths)
        else:  # big sub-models: placed one at a time, never copied together
            for group in group_rows(target[subs]):
                self._place(out, done[int(target[subs[group[0]]])], f, subs[group], start, paths)
        out.paths = np.concatenate(paths)
        return out

    def _place_all(self, out: _Rows, children: list[_Rows], f: LDrawFile, refs: np.ndarray, which: np.ndarray,
                   start: np.ndarray, paths: list[np.ndarray]) -> None:
        """`_place` for every sub-model reference of a node at once (small sub-models: one batch, few numpy calls).

        children: the distinct sub-models' rows; refs: rows of f's type 1 lines; which: (k,) index into children."""
        base = sum(len(p) for p in paths)
        for child in children:  # path cells of each distinct sub-model under this one
            cells = self.paths.add(f.name, child.paths)
            paths.append(cells)
        local = np.cumsum([base] + [len(child.paths) for child in children])[:-1]
        cat = [np.concatenate(arrays) for arrays in zip(*((c.part, c.matrix, c.colour, c.inverted, c.origin,
                                                           c.path + local[i]) for i, c in enumerate(children)))]
        sizes = np.array([c.part.shape[0] for c in children], np.int64)
        first = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        m = sizes[which]
        ref_of_row = np.repeat(np.arange(len(refs)), m)
        within = np.arange(int(m.sum())) - np.repeat(np.cumsum(m) - m, m)
        src = np.repeat(first[which], m) + within
        dest = np.repeat(start[1 + refs], m) + within
        mats, colour, invert = ref_matrices(f.ref_numbers[refs]), f.ref_colour[refs], f.ref_invert[refs]
        for lo in range(0, len(dest), _CHUNK):  # a slice of rows at a time: bounded scratch memory
            to, at, by = dest[lo:lo + _CHUNK], src[lo:lo + _CHUNK], ref_of_row[lo:lo + _CHUNK]
            with np.errstate(over="ignore", invalid="ignore"):
                out.matrix[to] = np.matmul(mats[by], cat[1][at])
            out.colour[to] = substitute_main_colour(cat[2][at], colour[by])
            out.inverted[to] = cat[3][at] ^ invert[by]
            out.part[to], out.origin[to], out.path[to] = cat[0][at], cat[4][at], cat[5][at]

    def _place(self, out: _Rows, child: _Rows, f: LDrawFile, refs: np.ndarray, start: np.ndarray,
               paths: list[np.ndarray]) -> None:
        """Write `child` placed by each of `refs` (rows of f's type 1 lines) into its slots of `out`."""
        k, m = len(refs), child.part.shape[0]
        if m == 0:
            return
        dest = (start[1 + refs][:, None] + np.arange(m)).reshape(-1)
        with np.errstate(over="ignore", invalid="ignore"):
            out.matrix[dest] = np.matmul(ref_matrices(f.ref_numbers[refs])[:, None], child.matrix[None]).reshape(-1, 4, 4)
        colour = f.ref_colour[refs][:, None]
        out.colour[dest] = substitute_main_colour(child.colour[None], colour).reshape(-1)
        out.inverted[dest] = (child.inverted[None] ^ f.ref_invert[refs][:, None]).reshape(-1)
        out.part[dest] = np.tile(child.part, k)
        out.origin[dest] = np.tile(child.origin, k)
        base = sum(len(p) for p in paths)
        paths.append(self.paths.add(f.name, child.paths))
        out.path[dest] = np.tile(child.path + base, k)

    def single_part(self, main: LDrawFile, source: str, colour_name) -> tuple[InstanceTable, dict[str, FlatPart]]:
        """A part file loaded on its own: one instance of it, at the origin."""
        part, hit = self.loader.flat_part(main, source, frozenset([source]))
        self.hits += hit
        self.budget.check("max_triangles", part.triangle_count, self.model_file, (short_key(source),))
        placer = LDrawFile(name=main.name, source=main.source, ref_line=np.zeros(1, np.int32),
                           ref_name=np.zeros(1, np.int32), ref_names=[main.name])
        self._part(source, ("part", main, frozenset([source])))
        one = np.zeros(1, np.int32)
        rows = _Rows(one, np.eye(4)[None], np.full(1, MAIN_COLOUR, np.int32), np.zeros(1, bool),
                     one + self.origins.add(placer) + 1, one, np.array([-1], np.int32))
        return self.table(rows, {source: part}, colour_name), {source: part}

    def table(self, rows: _Rows, parts: dict[str, FlatPart], colour_name) -> InstanceTable:
        """The world-frame InstanceTable; instances placed out of reach are left out, with a diagnostic."""
        reach = np.asarray([float(np.abs(parts[k].positions).max(initial=0.0)) for k in self.part_keys])
        far = np.zeros(len(rows.part), bool)
        for lo in range(0, len(rows.part), _CHUNK):  # a slice at a time: bounded scratch memory
            m = rows.matrix[lo:lo + _CHUNK]
            numbers = np.concatenate([m[:, :3, 3], m[:, :3, :3].reshape(-1, 9)], axis=1)
            far[lo:lo + _CHUNK] = placed_reach(numbers, reach[rows.part[lo:lo + _CHUNK]]) > MAX_COORDINATE_LDU
            with np.errstate(over="ignore", invalid="ignore"):
                rows.matrix[lo:lo + _CHUNK] = np.matmul(LDRAW_TO_WORLD, m)  # LDraw -> world, in place
        missing = np.asarray([s[0] == "missing" for s in self.part_source] or [False], bool)
        table = InstanceTable(rows.part, rows.matrix, rows.colour, rows.inverted, missing[rows.part], rows.origin,
                              rows.paths[rows.path], self.part_keys, self.origins, self.paths, colour_name)
        if not far.any():
            return table
        first = int(np.argmax(far))
        k = int(np.searchsorted(self.origins.bases, rows.origin[first], side="right")) - 1
        _, line, name = self.origins.where(int(rows.origin[first]))
        more = int(far.sum()) - 1
        self.diagnose(self.origins.files[k], line, f"'{name}' placed here lands beyond ±{MAX_COORDINATE_LDU:,.0f} LDU; "
                      "left out" + (f" (and {more} more instances that far)" if more else ""))
        return table.keep(~far)


def short_key(key: str) -> str:
    """'village.mpd#house.ldr' -> 'house.ldr'; '/lib/parts/x.dat' -> 'x.dat'; 'missing:x.dat' -> 'x.dat'."""
    if key.startswith("missing:"):
        return key[len("missing:"):]
    return key.rsplit("#", 1)[-1] if "#" in key else os.path.basename(key)


def _missing(name: str) -> str:
    """The diagnostic of a reference found nowhere, with where it was looked for and what to do."""
    if name.lower().endswith((".ldr", ".mpd")):
        return (f"missing sub-model '{name}': no 0 FILE of that name in the model, no such file beside it or in "
                "the library; drawn as a magenta box")
    return (f"missing part '{name}': neither in the library nor beside the model (an unofficial or a newer "
            "part? put its file beside the model, or install a newer library: bow3d library install); drawn as "
            "a magenta box")
