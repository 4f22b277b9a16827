"""A loaded LDraw model: part instances (as arrays), the distinct parts, colours, diagnostics.

Layer: ldraw. Instances are in the world frame (Z up, LDU; world (x, y, z) = LDraw (X, Z, -Y),
design.md; the conversion happens once, in `bow3d.ldraw.expand`). The merged `Mesh` is built
on first use of `Model.mesh`. Every whole-model query here is vectorised per distinct part
(or a sort over instances): nothing is quadratic in instances or in missing parts. What drawing
it or a world of it would hold is checked against its `LoadBudget` before building
(`check_drawing`, `check_sight`).
Loading lives in `bow3d.ldraw.loader` (`load_model`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from bow3d.ldraw.budget import DRAW_BYTES_PER_LINE, DRAW_BYTES_PER_TRIANGLE, SIGHT_BYTES_PER_TRIANGLE, LoadBudget
from bow3d.ldraw.colours import EDGE_OF, ColourTable, substitute_main_colour
from bow3d.ldraw.expand import short_key
from bow3d.ldraw.flatten import FlatPart, group_rows
from bow3d.ldraw.instances import InstanceTable
from bow3d.ldraw.library import Library
from bow3d.ldraw.mesh import Mesh, PartInstance
from bow3d.ldraw.parse import INVALID_COLOUR, Diagnostic

_SCRATCH_ROWS = 1 << 20  # points moved at once by bounds(): bounded scratch memory


@dataclass(eq=False)
class Model:
    """A loaded model: its part instances, the distinct parts, colours and diagnostics.

    `instances` is a sequence of `PartInstance` (built on demand from `table`, whose columns
    are for vectorised use); `instance_part[i]` is the key in `parts` of instance i.
    """

    path: str
    library: Library
    colours: ColourTable
    table: InstanceTable
    parts: dict[str, FlatPart] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    meta: list[tuple[str, int, str, tuple[str, ...]]] = field(default_factory=list)  # file, line, text, first path
    missing_files: list[str] = field(default_factory=list)  # sorted names that could not be found, anywhere
    load_seconds: float = 0.0
    cache_hits: int = 0
    textures: dict = field(default_factory=dict)  # image name -> bow3d.ldraw.textures.TextureImage (found ones)
    budget: LoadBudget = field(default_factory=LoadBudget)  # the one it was loaded under; bounds what is built of it

    @property
    def instances(self) -> InstanceTable:
        return self.table

    @cached_property
    def instance_part(self) -> list[str]:
        return np.asarray(self.table.keys, dtype=object)[self.table.part].tolist() if len(self.table) else []

    @property
    def missing_parts(self) -> list[PartInstance]:
        """The instances drawn as magenta boxes because their part could not be found."""
        return [self.table[i] for i in np.flatnonzero(self.table.missing).tolist()]

    @property
    def is_complete(self) -> bool:
        """True when every reference was found and drawn: no missing part or sub-file, nothing
        skipped (unsafe, unreadable, cyclic, too deep or too far): no error diagnostic."""
        return not any(d.severity == "error" for d in self.diagnostics)

    def unique_part_names(self) -> list[str]:
        ids, names = self.table.name_ids()
        return sorted({names[i] for i in np.unique(ids).tolist()})

    def _per_key(self, count) -> np.ndarray:
        return np.asarray([count(self.parts[k]) for k in self.table.keys], np.int64)

    def instance_counts(self) -> np.ndarray:
        """(K,) int64 instances of each key of `table.keys`."""
        return np.bincount(self.table.part, minlength=len(self.table.keys)).astype(np.int64)

    def triangle_count(self) -> int:
        """Triangles at full detail, without building the merged mesh."""
        if not len(self.table):
            return 0
        return int(self.instance_counts() @ self._per_key(lambda p: p.triangles.shape[0]))

    def placed_total(self, count) -> tuple[int, tuple[str, ...]]:
        """(sum over instances of `count(part)`, the part holding most of it as ('3024.dat (x1,000)',)),
        without placing anything."""
        if not len(self.table):
            return 0, ()
        uses = self.instance_counts()
        each = uses * self._per_key(count)
        top = int(np.argmax(each))
        return int(each.sum()), (f"{short_key(self.table.keys[top])} (x{int(uses[top]):,})",)

    def check_drawing(self, edges: bool = False) -> None:
        """BudgetExceeded (max_build_mib) when drawing every triangle (and edge line) would not fit:
        checked before a renderer builds anything, at any quality (the default one builds two levels)."""
        triangles, heaviest = self.placed_total(lambda p: p.triangles.shape[0])
        nbytes, purpose = triangles * DRAW_BYTES_PER_TRIANGLE, f"to draw {triangles:,} triangles"
        if edges:
            lines = self.placed_total(lambda p: p.edges.shape[0] + p.optional_edges.shape[0])[0]
            nbytes += lines * DRAW_BYTES_PER_LINE
            purpose += f" and {lines:,} edge lines"
        self.budget.check_build(self.path, purpose, nbytes, heaviest)

    def check_sight(self, keep_studs: bool = False) -> None:
        """BudgetExceeded (max_build_mib) when the world's sight geometry of this model (its triangles,
        studs and tubes left out unless `keep_studs`, as bow3d.world.raycast.sight_mesh) would not fit."""
        triangles, heaviest = self.placed_total(
            lambda p: p.triangles.shape[0] if keep_studs else int(np.count_nonzero(~p.tri_detail)))
        self.budget.check_build(self.path, f"to build its world ({triangles:,} sight triangles)",
                                triangles * SIGHT_BYTES_PER_TRIANGLE, heaviest)

    def groups(self) -> dict[str, np.ndarray]:
        """Part key -> indices of its instances (int64, increasing), in order of first instance."""
        groups = sorted(group_rows(self.table.part), key=lambda g: int(g[0]))
        return {self.table.keys[int(self.table.part[g[0]])]: g.astype(np.int64) for g in groups}

    def world_transforms(self, indices: np.ndarray) -> np.ndarray:
        """(N, 4, 4) float64 world transforms of the given instances."""
        return self.table.transform[np.asarray(indices, dtype=np.int64).reshape(-1)]

    @cached_property
    def mesh(self) -> Mesh:
        """All instances merged into one world-frame mesh (vectorised per distinct part)."""
        return build_mesh(self, range(len(self.table)))

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

    def stud_colours(self) -> np.ndarray:
        """(S,) int32 LDraw colour code of each stud of `studs()`, in the same order: the stud's own
        colour inside its part, 16 in it replaced by the colour its instance is placed in."""
        codes = []
        for key, idx in self.groups().items():
            part = self.parts[key]
            if part.studs.shape[0]:
                codes.append(substitute_main_colour(part.stud_colour[None], self.table.colour[idx][:, None]).reshape(-1))
        return np.concatenate(codes).astype(np.int32) if codes else np.zeros(0, np.int32)

    def bounds(self) -> np.ndarray:
        """(2, 3) world-frame box of every instance's geometry (without merging the mesh), exact."""
        lows, highs = [], []
        for key, idx in self.groups().items():
            part = self.parts[key]
            if part.positions.shape[0] == 0:
                continue
            (lo_box, hi_box), shape = part.extent().astype(np.float64), None
            step = max(1, _SCRATCH_ROWS // max(8, part.positions.shape[0]))
            for lo in range(0, len(idx), step):  # bounded scratch memory, however many instances
                mats = self.table.transform[idx[lo:lo + step]]
                rot, shift = mats[:, :3, :3], mats[:, :3, 3]
                if np.all(np.count_nonzero(np.abs(rot) > 1e-6, axis=2) == 1):
                    # Quarter turns: each world axis takes one part axis, so the part's box maps
                    # exactly onto the instance's box (the same products as turning its corners).
                    a, b = rot @ lo_box, rot @ hi_box
                    lows.append((np.minimum(a, b) + shift).min(axis=0))
                    highs.append((np.maximum(a, b) + shift).max(axis=0))
                    continue
                # Any other turn needs the shape points, or the box grows.
                shape = part.shape_points().astype(np.float64) if shape is None else shape
                moved = np.einsum("nij,cj->nci", rot, shape) + shift[:, None]
                lows.append(moved.min(axis=(0, 1)))
                highs.append(moved.max(axis=(0, 1)))
        if not lows:
            return np.zeros((2, 3))
        return np.stack([np.min(lows, axis=0), np.max(highs, axis=0)])


def build_mesh(model: Model, selection) -> Mesh:
    """Merge the selected instances (indices into model.instances) into one world mesh.

    Output arrays are allocated once and filled per distinct part with one batched
    matrix product over all of that part's instances.
    """
    chosen = np.zeros(len(model.table), bool)
    chosen[np.fromiter(selection, dtype=np.int64)] = True
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
    instance_colour = model.table.colour
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
        inverted = model.table.inverted[idx]
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


def unknown_colours(model: Model) -> list[Diagnostic]:
    """One diagnostic per colour code nobody defined, at the first instance that uses it
    (placed in that colour, or a part that has it inside). INVALID_COLOUR was reported when read."""
    first: dict[int, int] = {}
    codes, where = np.unique(model.table.colour, return_index=True)
    for code, i in zip(codes.tolist(), where.tolist()):
        if code > 0 and code & EDGE_OF:  # a part placed in 24 inside a sub-model placed in `code`: say `code`
            code = code & ~EDGE_OF
        first[code] = min(first.get(code, i), i)
    inside: dict[int, list[int]] = {}  # codes used inside each distinct part (missing parts share one)
    for key, idx in model.groups().items():
        part = model.parts[key]
        used = inside.get(id(part))
        if used is None:
            used = inside[id(part)] = np.unique(part.tri_colour).tolist()
        for code in used:
            first[code] = min(first.get(code, idx[0]), int(idx[0]))
    out = []
    for code, i in sorted(first.items(), key=lambda item: item[1]):
        if code in (16, 24, INVALID_COLOUR) or code in model.colours:
            continue
        instance = model.table[i]
        out.append(Diagnostic(instance.file, instance.line, f"{model.colours.describe_unknown(code)} "
                              f"(on {instance.name}): drawn magenta; define it with 0 !COLOUR or fix the code",
                              "warning"))
    return out
