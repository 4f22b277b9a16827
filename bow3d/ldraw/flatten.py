"""Flatten an LDraw file and everything it references into one array mesh, in its own frame.

Layer: ldraw. Each distinct file is flattened once per load (memoised) and placed by
transforming its arrays for all references to it at once: no Python loop per triangle or
per reference. Colour 16 stays symbolic so a part is built once for every colour. BFC:
winding is normalised to CCW at parse time; a reference whose matrix mirrors (negative
determinant) or that follows INVERTNEXT swaps its triangles' corners (both cancel).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Callable

import numpy as np

from bow3d.errors import LDrawError
from bow3d.ldraw.colours import substitute_main_colour
from bow3d.ldraw.parse import Diagnostic, LDrawFile, SubfileRef

MAX_DEPTH = 64
MISSING_COLOUR = 0x2FF00FF  # direct magenta: placeholders for missing files stand out
_DETAIL = re.compile(r"^(?:stud|stug|stu\d)")  # stud and anti-stud tube primitives
# Leaf stud primitives that sit on top of a part (the rest of the stud* family are the tubes
# and solid pins underneath). Their placements are kept so a renderer can draw them at any
# level of detail, or not at all where another part covers them.
_UNDERSIDE = re.compile(r"^stud(?:3|4|12|16|17|18|21|22)")
_STUD_GROUP = re.compile(r"^stug")
WELD_QUANTUM = 1.0 / 256.0  # LDU; corners closer than this are one vertex


def is_detail_primitive(name: str) -> bool:
    """Studs, stud groups and the tubes under bricks: level-of-detail fodder, not silhouette."""
    return bool(_DETAIL.match(PurePosixPath(name.lower()).name))


def is_top_stud(name: str) -> bool:
    """A single stud on top of a part (stud.dat, stud2.dat, ...), not a group nor a tube."""
    base = PurePosixPath(name.lower()).name
    return base.startswith("stud") and not _UNDERSIDE.match(base) and not _STUD_GROUP.match(base)


@dataclass
class FlatPart:
    """A file flattened: shapes as in `bow3d.ldraw.mesh.Mesh`, in the file's own LDraw frame.

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
    dependencies: frozenset[str] = field(default_factory=frozenset)

    @property
    def triangle_count(self) -> int:
        return int(self.triangles.shape[0])

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


# resolve(ref_name, referencing file) -> (LDrawFile or None, identity key, disk dependencies)
Resolver = Callable[[str, LDrawFile], "tuple[LDrawFile | None, str, frozenset[str]]"]


class Flattener:
    """Flattens files through a resolver; memoises per file identity within one load."""

    def __init__(self, resolve: Resolver, strict: bool = False):
        self.resolve = resolve
        self.strict = strict
        self.memo: dict[str, _Soup] = {}
        self.diagnostics: list[Diagnostic] = []
        # Files whose flat mesh stands in for something that could not be read (a missing or
        # unsafe reference, a cycle): not for the disk cache, whose key cannot see the gap.
        self.incomplete: set[str] = set()
        self._stack: list[str] = []

    def diagnose(self, file: str, line: int, message: str, severity: str = "warning") -> None:
        if self.strict:
            raise LDrawError(f"{file}:{line}: {message}")
        self.diagnostics.append(Diagnostic(file, line, message, severity))
        if severity == "error":
            self.incomplete.update(self._stack)

    def flatten(self, f: LDrawFile, key: str, deps: frozenset[str] = frozenset()) -> FlatPart:
        """The welded flat mesh of `f` (a part, in its own frame)."""
        return _weld(self._soup(f, key, deps))

    def _soup(self, f: LDrawFile, key: str, deps: frozenset[str]) -> _Soup:
        if key in self.memo:
            return self.memo[key]
        self._stack.append(key)
        pieces = [_own_geometry(f, deps)]
        groups: dict[str, list[SubfileRef]] = {}
        for ref in f.refs:
            groups.setdefault(ref.name.lower(), []).append(ref)
        for refs in groups.values():
            piece = self._place_group(f, refs)
            if piece is not None:
                pieces.append(piece)
        self._stack.pop()
        soup = _concat(pieces)
        self.memo[key] = soup
        return soup

    def _place_group(self, parent: LDrawFile, refs: list[SubfileRef]) -> _Soup | None:
        first = refs[0]
        try:
            child, child_key, child_deps = self.resolve(first.name, parent)
        except ValueError as error:  # UnsafeReference and friends
            self.diagnose(parent.source, first.line, f"{error}; reference skipped", "error")
            return None
        if child is None:
            for ref in refs:
                self.diagnose(parent.source, ref.line, f"missing file '{ref.name}': drawn as a magenta box",
                              "error")
            return _place(_missing_box(), refs)
        if child_key in self._stack:
            cycle = " -> ".join(self._stack[self._stack.index(child_key):] + [child_key])
            self.diagnose(parent.source, first.line, f"reference cycle {cycle}; reference skipped", "error")
            return None
        if len(self._stack) >= MAX_DEPTH:
            self.diagnose(parent.source, first.line, f"references nested deeper than {MAX_DEPTH}; skipped", "error")
            return None
        soup = self._soup(child, child_key, child_deps)
        if child_key in self.incomplete:
            self.incomplete.update(self._stack)
        if is_detail_primitive(first.name):
            studs = np.eye(4)[None] if is_top_stud(first.name) else soup.studs
            soup = _Soup(soup.tris, soup.colour, soup.certified, np.ones_like(soup.detail), soup.edges,
                         soup.edge_colour, soup.opts, soup.opt_colour, soup.deps, studs)
        return _place(soup, refs)


def _own_geometry(f: LDrawFile, deps: frozenset[str]) -> _Soup:
    return _Soup(f.triangles, f.tri_colour, f.tri_certified, np.zeros(f.triangles.shape[0], bool),
                 f.edges, f.edge_colour, f.optional_edges, f.optional_colour, deps)


def ref_matrices(refs: list[SubfileRef]) -> np.ndarray:
    """(k, 4, 4) float64 LDraw matrices of type 1 lines."""
    m = np.asarray([r.matrix for r in refs], dtype=np.float64).reshape(-1, 12)
    out = np.zeros((m.shape[0], 4, 4))
    out[:, :3, :3] = m[:, 3:].reshape(-1, 3, 3)
    out[:, :3, 3] = m[:, :3]
    out[:, 3, 3] = 1.0
    return out


def _place(child: _Soup, refs: list[SubfileRef]) -> _Soup:
    """`child` placed by every ref at once: (k refs) x (child primitives), vectorised."""
    mats = ref_matrices(refs)
    rot, shift = mats[:, :3, :3], mats[:, :3, 3]
    k = len(refs)
    colours = np.asarray([r.colour for r in refs], dtype=np.int32)
    certified = np.asarray([r.certified for r in refs], dtype=bool)
    flip = (np.linalg.det(rot) < 0) ^ np.asarray([r.invert for r in refs], dtype=bool)

    def move(points: np.ndarray) -> np.ndarray:  # (n, c, 3) -> (k, n, c, 3), one batched product
        n, c = points.shape[:2]
        moved = np.matmul(points.reshape(1, -1, 3), rot.transpose(0, 2, 1)) + shift[:, None, :]
        return moved.reshape(k, n, c, 3)

    tris = move(child.tris)
    if flip.any():
        tris[flip] = tris[flip][:, :, [0, 2, 1], :]
    t = child.tris.shape[0]
    return _Soup(
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
    )


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
    )


def _weld(soup: _Soup) -> FlatPart:
    """Merge corners closer than WELD_QUANTUM into shared vertices (one sort, vectorised)."""
    corners = np.concatenate([soup.tris.reshape(-1, 3), soup.edges.reshape(-1, 3), soup.opts.reshape(-1, 3)])
    if corners.shape[0] == 0:
        positions = np.zeros((0, 3), np.float32)
        inverse = np.zeros(0, np.int64)
    else:
        q = np.round(corners / WELD_QUANTUM).astype(np.int64)
        q -= q.min(axis=0)
        span = int(q.max()) + 1
        keys = (q[:, 0] * span + q[:, 1]) * span + q[:, 2] if span < 2**20 else None
        if keys is not None:
            _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        else:
            _, first, inverse = np.unique(q, axis=0, return_index=True, return_inverse=True)
        inverse = inverse.reshape(-1)
        positions = corners[first].astype(np.float32)
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
        dependencies=soup.deps,
    )


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
                 frozenset())


def missing_part() -> FlatPart:
    """The placeholder drawn for a part that cannot be found."""
    return _weld(_missing_box())


def file_dependency(path: Path) -> str:
    return str(path)
