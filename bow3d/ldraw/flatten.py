"""Flatten an LDraw file and everything it references into one array mesh, in its own frame.

Layer: ldraw. Each distinct file is flattened once per load (memoised) and placed by
transforming its arrays for all references to it at once: no Python loop per triangle or
per reference. Colour 16 stays symbolic so a part is built once for every colour. BFC:
winding is normalised to CCW at parse time; a reference whose matrix mirrors (negative
determinant) or that follows INVERTNEXT swaps its triangles' corners (both cancel).

Bounded: before a reference is placed, the rows it would add (triangles, lines, studs) are
counted against `LoadBudget.max_part_primitives`, and its coordinates against
MAX_COORDINATE_LDU (from the child's extent and the matrix, without building anything), so
ten files each using the next ten times are refused, not multiplied out.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import numpy as np

from bow3d.errors import LDrawError
from bow3d.i18n import _
from bow3d.ldraw.budget import BudgetExceeded, LoadBudget
from bow3d.ldraw.colours import substitute_main_colour
from bow3d.ldraw.files import UnsafeReference
from bow3d.ldraw.parse import (
    MAX_COORDINATE_LDU,
    MAX_DIAGNOSTICS_PER_FILE,
    Diagnostic,
    LDrawFile,
    SubfileRef,
    normalise_name,
)
from bow3d.ldraw.texmap import triangle_coords

MAX_DEPTH = 64
MISSING_COLOUR = 0x2FF00FF  # direct magenta: placeholders for missing files stand out
# The stud family of LDraw primitives (p/stud*.dat, p/stug*.dat; LDraw Primitives Reference), by role:
# - top studs: one whole, full-size stud (stud, studa, stud2, stud2a, stud9 open with small holes,
#   logo studs, their 8/ and 48/ versions). Their triangles are level-of-detail fodder (`tri_detail`) and their placements are
#   kept (`FlatPart.studs`), so a renderer may draw them low-poly, or not where another part covers
#   them. Only a placement that is a pure turn (no scaling) counts: a stud primitive stretched into
#   something else is geometry.
_TOP_STUD = re.compile(r"^stud(?:2?a?|9)(?:-logo\d*)?(?:\.dat)?$")
# - hidden tubes: the tubes and pins inside the underside of bricks and plates (Stud Tube Solid,
#   Stud Tube Open, with or without base edges or fillets). Level-of-detail fodder, no placement.
_HIDDEN_TUBE = re.compile(r"^stud(?:3a?|4a?|4f\d+[a-z]*)(?:\.dat)?$")
# - everything else keeps its geometry at every level of detail: sliced, sloped, truncated and
#   curved studs and tubes (stud2s, stud2s2, stud4s, stud6, stud10, stud13, stud15, stud23,
#   stud25, stud28...), tubes without an outer cylinder (stud4o, stud4od: a hole in a surface),
#   Duplo and Quatro studs (another size). Stud groups (stug*) are judged by the studs inside.
_STUD_SCALE_TOLERANCE = 1e-3
WELD_QUANTUM = 1.0 / 256.0  # LDU; corners closer than this are one vertex
_WELD_SLICE = 1 << 16  # corners keyed at once (bounded scratch memory)


def is_detail_primitive(name: str) -> bool:
    """A top stud or a hidden underside tube: level-of-detail fodder, not silhouette."""
    base = PurePosixPath(name.lower().replace("\\", "/")).name
    return bool(_TOP_STUD.match(base) or _HIDDEN_TUBE.match(base))


def is_top_stud(name: str) -> bool:
    """A whole, full-size stud on a part (stud.dat, stud2.dat, stud2a.dat, stud9.dat, logo studs; any folder)."""
    return bool(_TOP_STUD.match(PurePosixPath(name.lower().replace("\\", "/")).name))


@dataclass
class FlatPart:
    """A file flattened: shapes as in `bow3d.ldraw.mesh.Mesh`, in the file's own LDraw frame.

    Textures (!TEXMAP): `tri_texture` (T,) int32 indexes `textures` (image names, normalised; -1
    untextured) and `tex_uv` (X, 3, 2) float32 holds the image coordinates (u right, v down,
    `bow3d.ldraw.texmap`) of the X textured triangles' corners, in triangle order.
    `dependencies` are the files on disk whose content went into it (for the disk cache).
    """

    positions: np.ndarray  # (V, 3) float32
    triangles: np.ndarray  # (T, 3) int32
    tri_colour: np.ndarray  # (T,) int32, 16 = the placing reference's colour
    tri_certified: np.ndarray  # (T,) bool
    tri_detail: np.ndarray  # (T,) bool
    edges: np.ndarray  # (E, 2) int32
    edge_colour: np.ndarray  # (E,) int32
    optional_edges: np.ndarray  # (O, 4) int32
    optional_colour: np.ndarray  # (O,) int32
    studs: np.ndarray  # (S, 4, 4) float32 placements of top stud primitives (base centre, -Y up)
    stud_colour: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))  # (S,) int32, 16 = placer's
    dependencies: frozenset[str] = field(default_factory=frozenset)
    tri_texture: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))  # (T,) int32, -1 untextured
    tex_uv: np.ndarray = field(default_factory=lambda: np.zeros((0, 3, 2), np.float32))  # (X, 3, 2) float32
    textures: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.stud_colour.shape[0] != self.studs.shape[0]:  # built by hand without colours: the placer's
            self.stud_colour = np.full(self.studs.shape[0], 16, np.int32)
        if self.tri_texture.shape[0] != self.triangles.shape[0]:  # built by hand: untextured
            self.tri_texture = np.full(self.triangles.shape[0], -1, np.int32)
            self.tex_uv = np.zeros((0, 3, 2), np.float32)

    @property
    def is_textured(self) -> bool:
        return bool(self.tex_uv.shape[0])

    @property
    def triangle_count(self) -> int:
        return int(self.triangles.shape[0])

    @property
    def primitive_count(self) -> int:
        """Triangles, lines and studs: what the part budgets count."""
        return int(self.triangles.shape[0] + self.edges.shape[0] + self.optional_edges.shape[0]
                   + self.studs.shape[0])

    def shape_points(self) -> np.ndarray:
        """(P, 3) the vertices of triangles, edges and optional-line ends.

        An optional line's two control points only steer when it is drawn and lie off the
        part by design, so they are left out.
        """
        used = np.concatenate([self.triangles.ravel(), self.edges.ravel(), self.optional_edges[:, :2].ravel()])
        keep = np.zeros(self.positions.shape[0], dtype=bool)
        keep[used] = True
        return self.positions[keep]

    def extent(self) -> np.ndarray:
        """(2, 3) box of the part's shape (`shape_points`); zeros when it has none."""
        points = self.shape_points()
        if points.shape[0] == 0:
            return np.zeros((2, 3), dtype=np.float32)
        return np.stack([points.min(axis=0), points.max(axis=0)])


@dataclass
class _Soup:
    """Unwelded geometry while flattening: corners per primitive, float64."""

    tris: np.ndarray  # (T, 3, 3)
    colour: np.ndarray  # (T,)
    certified: np.ndarray  # (T,)
    detail: np.ndarray  # (T,)
    edges: np.ndarray  # (E, 2, 3)
    edge_colour: np.ndarray
    opts: np.ndarray  # (O, 4, 3)
    opt_colour: np.ndarray
    deps: frozenset[str]
    studs: np.ndarray = field(default_factory=lambda: np.zeros((0, 4, 4)))  # (S, 4, 4)
    stud_colour: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))  # (S,)
    reach: float = 0.0  # LDU: no coordinate lies farther than this from the origin along any axis
    texture: np.ndarray | None = None  # (T,) int32 index into `textures`, -1 untextured; None: nothing textured
    uv: np.ndarray | None = None  # (T, 3, 2) float32 image coordinates (rows of untextured triangles unused)
    textures: tuple[str, ...] = ()

    @property
    def rows(self) -> int:
        """Triangles, lines and studs: what the part budget counts."""
        return self.tris.shape[0] + self.edges.shape[0] + self.opts.shape[0] + self.studs.shape[0]


# resolve(ref_name, referencing file) -> (LDrawFile or None, identity key, disk dependencies)
Resolver = Callable[[str, LDrawFile], "tuple[LDrawFile | None, str, frozenset[str]]"]


class Flattener:
    """Flattens files through a resolver; memoises per file identity within one load."""

    def __init__(self, resolve: Resolver, strict: bool = False, budget: LoadBudget | None = None):
        self.resolve = resolve
        self.strict = strict
        self.budget = budget or LoadBudget()
        self.memo: dict[str, _Soup] = {}
        self.diagnostics: list[Diagnostic] = []
        # Files whose flat mesh stands in for something that could not be read (a missing or
        # unsafe reference, a cycle): not for the disk cache, whose key cannot see the gap.
        self.incomplete: set[str] = set()
        self.missing: set[str] = set()  # names of files that could not be found, as written
        self.model_file = ""  # named in budget messages
        self._stack: list[str] = []
        self._names: list[str] = []  # file names along the stack, for budget messages
        self._said: dict[str, int] = {}  # diagnostics per file

    def diagnose(self, file: str, line: int, message: str, severity: str = "warning") -> None:
        """Report a problem (at most MAX_DIAGNOSTICS_PER_FILE per file); strict: raise LDrawError."""
        if self.strict:
            raise LDrawError(_("{file}:{line}: {message}").format(file=file, line=line, message=message))
        if severity == "error":
            self.incomplete.update(self._stack)
        said = self._said[file] = self._said.get(file, 0) + 1
        if said <= MAX_DIAGNOSTICS_PER_FILE:
            self.diagnostics.append(Diagnostic(file, line, message, severity))
        elif said == MAX_DIAGNOSTICS_PER_FILE + 1:
            self.diagnostics.append(Diagnostic(file, line, "too many problems; the rest are not listed", severity))

    def add_missing(self, name: str, parent: LDrawFile) -> None:
        """Note a file found nowhere; BudgetExceeded past `max_missing_parts` distinct names (each costs a
        search of the library, its diagnostics and, in a model, a part of its own: 10^6 of them took minutes)."""
        self.missing.add(name)
        if len(self.missing) > self.budget.max_missing_parts:
            raise BudgetExceeded(self.model_file, "max_missing_parts", len(self.missing), self.budget.max_missing_parts,
                                 (), f"(found so far; {PurePosixPath(parent.source).name} names "
                                     f"{len(parent.ref_names):,} distinct files)")

    def flatten(self, f: LDrawFile, key: str, deps: frozenset[str] = frozenset()) -> FlatPart:
        """The welded flat mesh of `f` (a part, in its own frame)."""
        return _weld(self._soup(f, key, deps))

    def _soup(self, f: LDrawFile, key: str, deps: frozenset[str]) -> _Soup:
        if key in self.memo:
            return self.memo[key]
        self._stack.append(key)
        self._names.append(PurePosixPath(f.source).name if "#" not in key else f.name)
        pieces = [_own_geometry(f, deps)]
        rows = pieces[0].rows
        for refs in _groups(f):
            piece = self._place_group(f, refs, rows)
            if piece is not None:
                pieces.append(piece)
                rows += piece.rows
        self._stack.pop()
        self._names.pop()
        soup = _concat(pieces)
        self.memo[key] = soup
        return soup

    def _place_group(self, parent: LDrawFile, refs: np.ndarray, rows: int) -> _Soup | None:
        """Every reference of `parent` to one file (rows `refs` of its type 1 arrays), placed."""
        first = int(refs[0])
        name, line = parent.ref_names[parent.ref_name[first]], int(parent.ref_line[first])
        try:
            child, child_key, child_deps = self.resolve(name, parent)
        except UnsafeReference as error:  # out of bounds, not a plain file, unreadable
            self.diagnose(parent.source, line, f"{error}; reference skipped", "error")
            return None
        if child is None:
            self.add_missing(name, parent)
            for ref_line in parent.ref_line[refs].tolist():
                self.diagnose(parent.source, ref_line, f"missing file '{name}': drawn as a magenta box", "error")
            soup = _missing_box()
        elif child_key in self._stack:
            cycle = " -> ".join(self._stack[self._stack.index(child_key):] + [child_key])
            self.diagnose(parent.source, line, f"reference cycle {cycle}; reference skipped", "error")
            return None
        elif len(self._stack) >= MAX_DEPTH:
            self.diagnose(parent.source, line, f"references nested deeper than {MAX_DEPTH}; skipped", "error")
            return None
        else:
            soup = self._soup(child, child_key, child_deps)
            if child_key in self.incomplete:
                self.incomplete.update(self._stack)
        refs = self._within_reach(parent, refs, soup.reach)
        self.budget.check("max_part_primitives", rows + len(refs) * soup.rows, self.model_file or self._names[0],
                          tuple(self._names) + (f"{name} (x{len(refs):,})",))
        if not len(refs):
            return None
        if child is None or not is_detail_primitive(name):
            return _place(soup, parent, refs)
        detail = _as_detail(soup, is_top_stud(name))
        if not is_top_stud(name):
            return _place(detail, parent, refs)
        turned = _is_turn(parent.ref_numbers[refs])  # a stretched stud primitive is geometry, not a stud
        pieces = [_place(detail, parent, refs[turned])] if turned.any() else []
        pieces += [_place(soup, parent, refs[~turned])] if not turned.all() else []
        return _concat(pieces)

    def _within_reach(self, parent: LDrawFile, refs: np.ndarray, reach: float) -> np.ndarray:
        """The references whose placed geometry stays inside MAX_COORDINATE_LDU; the others skipped."""
        far = placed_reach(parent.ref_numbers[refs], reach) > MAX_COORDINATE_LDU
        if far.any():
            row, more = int(refs[np.argmax(far)]), int(far.sum()) - 1
            self.diagnose(parent.source, int(parent.ref_line[row]),
                          f"placing '{parent.ref_names[parent.ref_name[row]]}' here puts it beyond "
                          f"±{MAX_COORDINATE_LDU:,.0f} LDU; reference skipped"
                          + (f" (and {more} more such references)" if more else ""), "error")
        return refs[~far]


def _as_detail(soup: _Soup, top_stud: bool) -> _Soup:
    """`soup` (a stud primitive) as level-of-detail fodder; a top stud keeps its own placement."""
    studs = np.eye(4)[None] if top_stud else soup.studs
    colour = np.full(1, 16, np.int32) if top_stud else soup.stud_colour
    return _Soup(soup.tris, soup.colour, soup.certified, np.ones_like(soup.detail), soup.edges, soup.edge_colour,
                 soup.opts, soup.opt_colour, soup.deps, studs, colour, soup.reach, soup.texture, soup.uv, soup.textures)


def _is_turn(numbers: np.ndarray) -> np.ndarray:
    """(k,) bool: the 3x3 of each (k, 12) type 1 row is a turn, mirrored or not (columns of length 1, square)."""
    rot = numbers[:, 3:].reshape(-1, 3, 3)
    gram = np.matmul(rot.transpose(0, 2, 1), rot)
    return np.all(np.abs(gram - np.eye(3)) <= _STUD_SCALE_TOLERANCE, axis=(1, 2))


def placed_reach(numbers: np.ndarray, reach: float | np.ndarray) -> np.ndarray:
    """(k,) how far from the origin geometry within `reach` lands when placed by (k, 12) type 1 numbers.

    An upper bound per axis (|R| row sums times the reach, plus the shift); inf/NaN become inf.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        rot = np.abs(numbers[:, 3:]).reshape(-1, 3, 3).sum(axis=2)
        far = (rot * np.asarray(reach)[..., None] + np.abs(numbers[:, :3])).max(axis=1)
    return np.where(np.isnan(far), np.inf, far)


def _groups(f: LDrawFile) -> list[np.ndarray]:
    """Rows of `f`'s type 1 lines grouped by the file they name (case-insensitive), first use first.

    `ref_names` are in order of first use, so group numbers given in that order are too.
    """
    if f.ref_count == 0:
        return []
    lower: dict[str, int] = {}
    group_of = np.asarray([lower.setdefault(n.lower(), len(lower)) for n in f.ref_names], np.int64)[f.ref_name]
    return group_rows(group_of)


def group_rows(keys: np.ndarray) -> list[np.ndarray]:
    """Row indices grouped by equal `keys`, groups in increasing key order (one stable sort, no quadratic step)."""
    if keys.shape[0] == 0:
        return []
    order = np.argsort(keys, kind="stable")
    return np.split(order, np.flatnonzero(np.diff(keys[order])) + 1)


def _own_geometry(f: LDrawFile, deps: frozenset[str]) -> _Soup:
    reach = max((float(np.abs(a).max()) for a in (f.triangles, f.edges, f.optional_edges) if a.size), default=0.0)
    soup = _Soup(f.triangles, f.tri_colour, f.tri_certified, np.zeros(f.triangles.shape[0], bool),
                 f.edges, f.edge_colour, f.optional_edges, f.optional_colour, deps, reach=reach)
    if f.texmaps and f.triangles.shape[0] and (f.tri_texmap >= 0).any():
        _apply_texmaps(soup, f, f.tri_texmap)
    return soup


def _apply_texmaps(soup: _Soup, f: LDrawFile, texmap_of: np.ndarray) -> None:
    """Project `f.texmaps` onto the soup's triangles (in `f`'s frame): triangle i takes texmap_of[i]
    (-1 none) unless it already has a texture of its own (from a file nearer to it). In place."""
    names = list(soup.textures)
    if soup.texture is None:
        soup.texture = np.full(soup.tris.shape[0], -1, np.int32)
        soup.uv = np.zeros((soup.tris.shape[0], 3, 2), np.float32)
    assert soup.uv is not None  # texture and uv are set together
    for index in np.unique(texmap_of[texmap_of >= 0]).tolist():
        rows = np.flatnonzero((texmap_of == index) & (soup.texture < 0))
        if not rows.size:
            continue
        texmap = f.texmaps[index]
        name = normalise_name(texmap.image)
        if name not in names:
            names.append(name)
        soup.uv[rows] = triangle_coords(texmap, soup.tris[rows])
        soup.texture[rows] = names.index(name)
    soup.textures = tuple(names)


def ref_matrices(refs: list[SubfileRef] | np.ndarray) -> np.ndarray:
    """(k, 4, 4) float64 LDraw matrices of type 1 lines (SubfileRefs, or (k, 12) numbers)."""
    if isinstance(refs, np.ndarray):
        m = refs.reshape(-1, 12)
    else:
        m = np.asarray([r.matrix for r in refs], dtype=np.float64).reshape(-1, 12)
    out = np.zeros((m.shape[0], 4, 4))
    out[:, :3, :3] = m[:, 3:].reshape(-1, 3, 3)
    out[:, :3, 3] = m[:, :3]
    out[:, 3, 3] = 1.0
    return out


def _place(child: _Soup, parent: LDrawFile, refs: np.ndarray) -> _Soup:
    """`child` placed by every reference (rows of `parent`'s type 1 arrays) at once, vectorised."""
    numbers = parent.ref_numbers[refs]
    mats = ref_matrices(numbers)
    rot, shift = mats[:, :3, :3], mats[:, :3, 3]
    k = len(refs)
    colours = parent.ref_colour[refs]
    certified = parent.ref_certified[refs]
    flip = (np.linalg.det(rot) < 0) ^ parent.ref_invert[refs]

    def move(points: np.ndarray) -> np.ndarray:  # (n, c, 3) -> (k, n, c, 3), one batched product
        n, c = points.shape[:2]
        moved = np.matmul(points.reshape(1, -1, 3), rot.transpose(0, 2, 1)) + shift[:, None, :]
        return moved.reshape(k, n, c, 3)

    tris = move(child.tris)
    if flip.any():
        tris[flip] = tris[flip][:, :, [0, 2, 1], :]
    t = child.tris.shape[0]
    texture = uv = None
    if child.texture is not None:
        assert child.uv is not None  # texture and uv are set together
        texture = np.tile(child.texture, k)
        uv = np.broadcast_to(child.uv, (k, *child.uv.shape)).copy()
        if flip.any():  # the corners were swapped: their coordinates go with them
            uv[flip] = uv[flip][:, :, [0, 2, 1], :]
        uv = uv.reshape(-1, 3, 2)
    placed = _Soup(
        tris=tris.reshape(-1, 3, 3),
        colour=substitute_main_colour(child.colour[None, :], colours[:, None]).reshape(-1),
        certified=(child.certified[None, :] & certified[:, None]).reshape(-1),
        detail=np.broadcast_to(child.detail, (k, t)).reshape(-1),
        edges=move(child.edges).reshape(-1, 2, 3),
        edge_colour=substitute_main_colour(child.edge_colour[None, :], colours[:, None]).reshape(-1),
        opts=move(child.opts).reshape(-1, 4, 3),
        opt_colour=substitute_main_colour(child.opt_colour[None, :], colours[:, None]).reshape(-1),
        deps=child.deps,
        studs=np.matmul(mats[:, None], child.studs[None]).reshape(-1, 4, 4),
        stud_colour=substitute_main_colour(child.stud_colour[None, :], colours[:, None]).reshape(-1),
        reach=float(placed_reach(numbers, child.reach).max()),
        texture=texture, uv=uv, textures=child.textures,
    )
    texmap_of = parent.ref_texmap[refs]
    if t and (texmap_of >= 0).any():  # placed inside the parent's !TEXMAP block: its projection, in its frame
        _apply_texmaps(placed, parent, np.repeat(texmap_of, t))
    return placed


def _concat(pieces: list[_Soup]) -> _Soup:
    if len(pieces) == 1:
        return pieces[0]
    return _Soup(
        tris=np.concatenate([p.tris for p in pieces]),
        colour=np.concatenate([p.colour for p in pieces]).astype(np.int32),
        certified=np.concatenate([p.certified for p in pieces]),
        detail=np.concatenate([p.detail for p in pieces]),
        edges=np.concatenate([p.edges for p in pieces]),
        edge_colour=np.concatenate([p.edge_colour for p in pieces]).astype(np.int32),
        opts=np.concatenate([p.opts for p in pieces]),
        opt_colour=np.concatenate([p.opt_colour for p in pieces]).astype(np.int32),
        deps=frozenset().union(*(p.deps for p in pieces)),
        studs=np.concatenate([p.studs for p in pieces]),
        stud_colour=np.concatenate([p.stud_colour for p in pieces]).astype(np.int32),
        reach=max(p.reach for p in pieces),
        **_concat_textures(pieces),
    )


def _concat_textures(pieces: list[_Soup]) -> dict:
    """The texture fields of pieces put one after another (texture names merged, indices renumbered)."""
    if all(p.texture is None for p in pieces):
        return {}
    names: list[str] = []
    textures, uvs = [], []
    for p in pieces:
        t = p.tris.shape[0]
        if p.texture is None:
            textures.append(np.full(t, -1, np.int32))
            uvs.append(np.zeros((t, 3, 2), np.float32))
            continue
        for name in p.textures:
            if name not in names:
                names.append(name)
        renumber = np.asarray([names.index(n) for n in p.textures] + [-1], np.int32)
        textures.append(renumber[p.texture])  # -1 picks the last entry: still -1
        assert p.uv is not None  # texture and uv are set together
        uvs.append(p.uv)
    return {"texture": np.concatenate(textures), "uv": np.concatenate(uvs), "textures": tuple(names)}


def _weld(soup: _Soup) -> FlatPart:
    """Merge corners closer than WELD_QUANTUM into shared vertices (one sort, vectorised).

    Corners are keyed where they lie (triangles, lines, optional lines) a slice at a time, one int64
    per corner, without first copying them all into one array: a 48 x 48 baseplate's million corners
    cost their keys (8 bytes each), not three more float and integer copies."""
    sources = [soup.tris.reshape(-1, 3), soup.edges.reshape(-1, 3), soup.opts.reshape(-1, 3)]
    sizes = [src.shape[0] for src in sources]
    if sum(sizes) == 0:
        positions = np.zeros((0, 3), np.float32)
        inverse = np.zeros(0, np.int64)
    else:
        lo = np.min([np.rint(src.min(axis=0) / WELD_QUANTUM) for src in sources if src.shape[0]], axis=0)
        hi = np.max([np.rint(src.max(axis=0) / WELD_QUANTUM) for src in sources if src.shape[0]], axis=0)
        spans = [int(h - low) + 1 for low, h in zip(lo, hi)]
        if spans[0] * spans[1] * spans[2] < 2**62:  # one int64 key per corner, in x, y, z order
            keys = np.empty(sum(sizes), np.int64)
            at = 0
            for src in sources:
                for start in range(0, src.shape[0], _WELD_SLICE):
                    q = (np.rint(src[start:start + _WELD_SLICE] / WELD_QUANTUM) - lo).astype(np.int64)
                    keys[at:at + q.shape[0]] = (q[:, 0] * spans[1] + q[:, 1]) * spans[2] + q[:, 2]
                    at += q.shape[0]
            _unused, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
            del keys
        else:
            q = (np.rint(np.concatenate(sources) / WELD_QUANTUM) - lo).astype(np.int64)
            first, inverse = _unique_rows(q)
            del q
        inverse = inverse.reshape(-1)
        positions = np.empty((first.shape[0], 3), np.float32)
        bounds = np.cumsum([0] + sizes)
        for src, begin, finish in zip(sources, bounds[:-1], bounds[1:]):  # each vertex from where it lies
            inside = (first >= begin) & (first < finish)
            positions[inside] = src[first[inside] - begin]
    t, e = soup.tris.shape[0], soup.edges.shape[0]
    return FlatPart(
        positions=positions,
        triangles=inverse[: 3 * t].reshape(-1, 3).astype(np.int32),
        tri_colour=np.ascontiguousarray(soup.colour, dtype=np.int32),
        tri_certified=np.ascontiguousarray(soup.certified, dtype=bool),
        tri_detail=np.ascontiguousarray(soup.detail, dtype=bool),
        edges=inverse[3 * t: 3 * t + 2 * e].reshape(-1, 2).astype(np.int32),
        edge_colour=np.ascontiguousarray(soup.edge_colour, dtype=np.int32),
        optional_edges=inverse[3 * t + 2 * e:].reshape(-1, 4).astype(np.int32),
        optional_colour=np.ascontiguousarray(soup.opt_colour, dtype=np.int32),
        studs=soup.studs.astype(np.float32),
        stud_colour=np.ascontiguousarray(soup.stud_colour, dtype=np.int32),
        dependencies=soup.deps,
        **_flat_textures(soup),
    )


def _flat_textures(soup: _Soup) -> dict:
    """FlatPart's texture fields: only the textured triangles' coordinates are kept."""
    if soup.texture is None or not (soup.texture >= 0).any():
        return {}
    textured = soup.texture >= 0
    assert soup.uv is not None  # texture and uv are set together
    return {"tri_texture": np.ascontiguousarray(soup.texture, np.int32),
            "tex_uv": np.ascontiguousarray(soup.uv[textured], np.float32), "textures": soup.textures}


def _unique_rows(q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(first index of each distinct row, row -> distinct row) for (n, 3) int64, rows in x, y, z order
    (as np.unique(q, axis=0, return_index=True, return_inverse=True), with one stable lexsort)."""
    order = np.lexsort((q[:, 2], q[:, 1], q[:, 0]))
    ordered = q[order]
    new = np.ones(len(q), bool)
    new[1:] = (ordered[1:] != ordered[:-1]).any(axis=1)
    inverse = np.empty(len(q), np.int64)
    inverse[order] = np.cumsum(new) - 1
    return order[new], inverse


def _missing_box() -> _Soup:
    """A 1x1 brick-sized box (LDraw frame, -Y up), magenta, certified CCW."""
    x0, x1, y0, y1, z0, z1 = -10.0, 10.0, -24.0, 0.0, -10.0, 10.0
    c = np.array([[x0, y0, z0], [x1, y0, z0], [x1, y1, z0], [x0, y1, z0],
                  [x0, y0, z1], [x1, y0, z1], [x1, y1, z1], [x0, y1, z1]])
    faces = np.array([[0, 1, 2], [0, 2, 3], [5, 4, 7], [5, 7, 6], [4, 0, 3], [4, 3, 7],
                      [1, 5, 6], [1, 6, 2], [4, 5, 1], [4, 1, 0], [3, 2, 6], [3, 6, 7]])
    tris = c[faces]
    normals = np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0])
    outward = np.einsum("ij,ij->i", normals, tris.mean(axis=1) - c.mean(axis=0)) > 0
    tris[~outward] = tris[~outward][:, [0, 2, 1]]
    n = tris.shape[0]
    return _Soup(tris, np.full(n, MISSING_COLOUR, np.int32), np.ones(n, bool), np.zeros(n, bool),
                 np.zeros((0, 2, 3)), np.zeros(0, np.int32), np.zeros((0, 4, 3)), np.zeros(0, np.int32),
                 frozenset(), reach=24.0)


def missing_part() -> FlatPart:
    """The placeholder drawn for a part that cannot be found."""
    return _weld(_missing_box())


def file_dependency(path: Path) -> str:
    return str(path)
