"""Turn a loaded model into draw batches: numpy only, no Panda3D (so it is testable anywhere).

Layer: view. Static geometry is grouped into spatial chunks (so culling still works) and,
inside a chunk, into one batch per kind (opaque certified, opaque two-sided, transparent):
a colour is a vertex attribute, so a 5,000-part battlefield is a few hundred draw calls.

More: docs/modules/view.md#batches.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bow3d.ldraw import Model
from bow3d.ldraw.colours import substitute_main_colour
from bow3d.ldraw.flatten import FlatPart, group_rows
from bow3d.ldraw.studs import STUD_HEIGHT, STUD_RADIUS, covered_studs, stud_template  # noqa: F401 (re-exported)
from bow3d.view.camera.choices import QUALITIES
from bow3d.view.graph.normals import face_normals, smooth_normals

CHUNK_LDU = 480.0  # 24 studs: culling granularity vs draw-call count
LOW_STUD_SIDES = 6
FAR_CELL_LDU = 16.0  # far level of detail: vertices closer than this merge (a tree keeps its outline)
SIMPLIFY_ABOVE = 200  # parts with fewer triangles (bricks, plates, baseplates) are kept exact
BOX_FACE_LDU = 0.05  # far level: vertices this close to a face of their part's box stay where they are
NEAR_LDU = 1600.0  # chunks nearer than this (80 studs) at LOD scale 1 are drawn with studs and full silhouettes
SHINES = ("solid", "metal", "chrome")  # Batch.finish by shine level 0, 1, 2
FINISH_SHINE = {"chrome": 2, "metal": 1, "matte_metallic": 1, "pearlescent": 1}  # LDConfig finishes; others 0


@dataclass
class Batch:
    """One draw call: unindexed triangles (3 vertices each) with normals and colours per corner.

    positions (N, 3) float32, normals (N, 3) float32, colours (N, 4) uint8, N = 3 * triangles.
    """

    positions: np.ndarray
    normals: np.ndarray
    colours: np.ndarray
    transparent: bool
    two_sided: bool
    chunk: tuple[int, int]
    lod: int = 0  # 0 always drawn; 1 near the camera only; 2 far only
    finish: str = "solid"  # "solid", "metal" (metallic, pearlescent) or "chrome": how shiny (FINISH_SHINE)
    texture: str = ""  # a decal of this image (Model.textures), drawn over the triangles it repeats
    uvs: np.ndarray | None = None  # (N, 2) float32 texture coordinates, v upwards (1 - the image's v)


    @property
    def triangle_count(self) -> int:
        return self.positions.shape[0] // 3


@dataclass
class EdgeBatch:
    """Edge lines of one chunk: (M, 3) float32 positions (2 per line), (M, 4) uint8 colours.

    Conditional (type 5) lines also carry `controls` (M, 3, 3) float32: for each end, the line's other
    end and its two control points (drawn only where both control points fall on one side of the line).
    """

    positions: np.ndarray
    colours: np.ndarray
    controls: np.ndarray | None = None


def build_batches(model: Model, quality: str = "default", chunk_ldu: float = CHUNK_LDU) -> list[Batch]:
    """All static geometry of `model` as draw batches at the given quality.

    "default" gives two levels per chunk (Batch.lod 1 near, 2 far) for a distance switch.
    """
    if quality not in QUALITIES:
        raise ValueError(f"quality must be one of {QUALITIES}, not {quality!r}")
    if quality == "full":
        corners, rgba, certified, anchor, normals, shine = placed_triangles(model, "full", looks=True)
        decals = textured_batches(model, quality, chunk_ldu)
        return _group(corners, rgba, certified, anchor, chunk_ldu, lod=0, normals=normals, shine=shine) + decals
    corners, rgba, certified, anchor, normals, shine = placed_triangles(model, "far", looks=True)
    far = _group(corners, rgba, certified, anchor, chunk_ldu, lod=2 if quality == "default" else 0, normals=normals,
                 shine=shine)
    if quality == "draft":
        return far
    corners, rgba, certified, anchor, normals, shine = placed_triangles(model, "near", looks=True)
    stud_corners, stud_rgba, stud_anchor = low_poly_studs(model)
    stud_normals = np.repeat(face_normals(stud_corners)[:, None], 3, axis=1).astype(np.float32)
    near = _group(np.concatenate([corners, stud_corners]), np.concatenate([rgba, stud_rgba]),
                  np.concatenate([certified, np.ones(stud_corners.shape[0], bool)]),
                  np.concatenate([anchor, stud_anchor]), chunk_ldu, lod=1,
                  normals=np.concatenate([normals, stud_normals]),
                  shine=np.concatenate([shine, np.zeros(stud_corners.shape[0], np.int8)]))
    return near + far + textured_batches(model, quality, chunk_ldu)


def textured_batches(model: Model, quality: str = "default", chunk_ldu: float = CHUNK_LDU) -> list[Batch]:
    """Decals of the textured triangles whose images were found (see the module's docstring)."""
    if quality == "draft" or not model.textures:
        return []
    level = "full" if quality == "full" else "near"
    corner_parts: list[np.ndarray] = []
    normal_parts: list[np.ndarray] = []
    uv_parts: list[np.ndarray] = []
    name_parts: list[np.ndarray] = []
    anchor_parts: list[np.ndarray] = []
    for key, idx in model.groups().items():
        part = model.parts[key]
        if not part.is_textured:
            continue
        keep = np.ones(part.triangle_count, bool) if level == "full" else ~part.tri_detail
        kept_texture = part.tri_texture[keep]
        textured = kept_texture >= 0
        textured &= np.isin(kept_texture, [i for i, n in enumerate(part.textures) if n in model.textures])
        if not textured.any():
            continue
        tris = part.positions[part.triangles[keep][textured]].astype(np.float64)
        smooth = part_normals(part, level, part.positions[part.triangles[keep]].astype(np.float64))[textured]
        uv = part.tex_uv[np.cumsum(part.tri_texture >= 0)[keep][textured] - 1].astype(np.float32)
        uv[..., 1] = 1.0 - uv[..., 1]  # image rows run down, texture coordinates up
        mats = model.world_transforms(idx)
        det = np.linalg.det(mats[:, :3, :3])
        flip = (det < 0) ^ model.table.inverted[idx]
        placed = _turn(mats[:, :3, :3], tris) + mats[:, None, None, :3, 3]
        placed_uv = np.broadcast_to(uv, (len(idx), *uv.shape)).copy()
        if flip.any():
            placed[flip] = placed[flip][:, :, [0, 2, 1]]
            placed_uv[flip] = placed_uv[flip][:, :, [0, 2, 1]]
        corner_parts.append(placed.reshape(-1, 3, 3).astype(np.float32))
        normal_parts.append(_placed_normals(smooth, mats[:, :3, :3], flip))
        uv_parts.append(placed_uv.reshape(-1, 3, 2))
        name_parts.append(np.tile(np.asarray(part.textures, dtype=object)[kept_texture[textured]], len(idx)))
        anchor_parts.append(np.repeat(mats[:, :2, 3], tris.shape[0], axis=0))
    if not corner_parts:
        return []
    corners, normals, uvs = np.concatenate(corner_parts), np.concatenate(normal_parts), np.concatenate(uv_parts)
    anchor, names = np.concatenate(anchor_parts), np.concatenate(name_parts)
    image, image_of = np.unique(names.astype(str), return_inverse=True)
    chunk = np.floor(anchor / chunk_ldu).astype(np.int64)
    keys = np.stack([chunk[:, 0], chunk[:, 1], image_of.reshape(-1)], axis=1)
    _, group = np.unique(keys, axis=0, return_inverse=True)
    batches = []
    for rows in group_rows(group.reshape(-1)):  # one draw call per chunk and image
        x, y, k = keys[rows[0]]
        batches.append(Batch(
            positions=np.ascontiguousarray(corners[rows].reshape(-1, 3)), normals=np.ascontiguousarray(
                normals[rows].reshape(-1, 3)), colours=np.full((rows.shape[0] * 3, 4), 255, np.uint8),
            transparent=True, two_sided=True, chunk=(int(x), int(y)), lod=0 if quality == "full" else 1,
            texture=str(image[k]), uvs=np.ascontiguousarray(uvs[rows].reshape(-1, 2), np.float32)))
    return batches


def part_template(part: FlatPart, level: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One distinct part at a level of detail, in its own frame: corners (t, 3, 3), codes, certified.

    "full": everything; "near": without stud and tube primitives; "far": "near" simplified by
    vertex clustering on a `FAR_CELL_LDU` grid (shapes keep their size, fine detail melts; the
    part's outline on its box's faces, where it meets its neighbours, stays exact: no cracks).
    """
    keep = np.ones(part.triangle_count, bool) if level == "full" else ~part.tri_detail
    triangles = part.triangles[keep]
    codes, certified = part.tri_colour[keep], part.tri_certified[keep]
    if level != "far" or triangles.shape[0] < SIMPLIFY_ABOVE:
        return part.positions[triangles].astype(np.float64), codes, certified
    return _cluster(part.positions.astype(np.float64), triangles, codes, certified, FAR_CELL_LDU)


def _cluster(positions, triangles, codes, certified, cell):
    """Vertex-clustering simplification: merge vertices per grid cell, drop collapsed triangles.

    Vertices on a face of the part's box (within BOX_FACE_LDU) are not merged: parts meet their neighbours
    there (roof slopes side by side, wall panels), and moved, they would open cracks between parts."""
    used = positions[np.unique(triangles)]
    lo, hi = used.min(axis=0), used.max(axis=0)
    on_box = ((np.abs(positions - lo) <= BOX_FACE_LDU) | (np.abs(positions - hi) <= BOX_FACE_LDU)).any(axis=1)
    q = np.floor(positions / cell).astype(np.int64)
    _, cluster, counts = np.unique(q, axis=0, return_inverse=True, return_counts=True)
    cluster = cluster.reshape(-1)
    centre = np.zeros((counts.shape[0], 3))
    np.add.at(centre, cluster, positions)
    centre /= counts[:, None]
    kept = np.flatnonzero(on_box)  # each its own cluster, at its own place
    cluster[kept] = counts.shape[0] + np.arange(kept.shape[0])
    centre = np.concatenate([centre, positions[kept]])
    ids = cluster[triangles]
    alive = (ids[:, 0] != ids[:, 1]) & (ids[:, 1] != ids[:, 2]) & (ids[:, 0] != ids[:, 2])
    ids, codes, certified = ids[alive], codes[alive], certified[alive]
    key = np.concatenate([np.sort(ids, axis=1), codes[:, None]], axis=1)
    _, first = np.unique(key, axis=0, return_index=True)
    first = np.sort(first)
    return centre[ids[first]], codes[first], certified[first]


def placed_triangles(model: Model, level: str, *, looks: bool = False) -> tuple[np.ndarray, ...]:
    """Every instance's template placed in the world.

    Returns (T, 3, 3) float32 corners, (T, 4) uint8 RGBA, (T,) certified, and (T, 2) the
    anchor of each triangle (its instance's origin, x and y) so a part never straddles chunks;
    `looks` adds (T, 3, 3) float32 smooth corner normals (bow3d.view.graph.normals) and (T,) int8 shine
    (FINISH_SHINE of each triangle's colour).
    """
    corners: list[np.ndarray] = []
    code_parts: list[np.ndarray] = []
    certified: list[np.ndarray] = []
    anchors: list[np.ndarray] = []
    normals: list[np.ndarray] = []
    for key, idx in model.groups().items():
        part = model.parts[key]
        tris, part_codes, part_certified = part_template(part, level)
        if tris.shape[0] == 0:
            continue
        mats = model.world_transforms(idx)
        placed = _turn(mats[:, :3, :3], tris) + mats[:, None, None, :3, 3]
        inverted = np.asarray([model.instances[i].inverted for i in idx], dtype=bool)
        det = np.linalg.det(mats[:, :3, :3])
        flip = (det < 0) ^ inverted
        if looks:
            normals.append(_placed_normals(part_normals(part, level, tris), mats[:, :3, :3], flip))
        if flip.any():
            placed[flip] = placed[flip][:, :, [0, 2, 1]]
        colours = np.asarray([model.instances[i].colour for i in idx], np.int32)[:, None]
        corners.append(placed.reshape(-1, 3, 3).astype(np.float32))
        code_parts.append(substitute_main_colour(part_codes[None], colours).reshape(-1))
        certified.append(np.tile(part_certified, len(idx)))
        anchors.append(np.repeat(mats[:, :2, 3], tris.shape[0], axis=0))
    if not corners:
        extra = (np.zeros((0, 3, 3), np.float32), np.zeros(0, np.int8)) if looks else ()
        return np.zeros((0, 3, 3), np.float32), np.zeros((0, 4), np.uint8), np.zeros(0, bool), np.zeros((0, 2)), *extra
    codes = np.concatenate(code_parts)
    distinct = np.unique(codes)
    rgba = model.colours.rgba(distinct)[np.searchsorted(distinct, codes)]
    placed = np.concatenate(corners), rgba, np.concatenate(certified), np.concatenate(anchors)
    if not looks:
        return placed
    shines = np.asarray([_shine(model.colours.get(int(c))) for c in distinct], np.int8)
    return *placed, np.concatenate(normals), shines[np.searchsorted(distinct, codes)]


def _shine(colour) -> int:
    return FINISH_SHINE.get(colour.finish, 0) if colour is not None else 0


def part_normals(part: FlatPart, level: str, corners: np.ndarray) -> np.ndarray:
    """Smooth corner normals (t, 3, 3) of `part_template(part, level)`'s `corners`, in the part's frame.

    The part's own edge lines keep their sides hard; the far level's melted shapes have none that still fit.
    """
    melted = level == "far" and int((~part.tri_detail).sum()) >= SIMPLIFY_ABOVE
    return smooth_normals(corners, None if melted else part.positions[part.edges])


def _turn(matrices: np.ndarray, points: np.ndarray) -> np.ndarray:
    """(n, 3, 3) matrices times (t, 3, 3) points -> (n, t, 3, 3): one matmul per call (faster than einsum)."""
    flat = points.reshape(1, -1, 3)
    return np.matmul(flat, matrices.transpose(0, 2, 1)).reshape(matrices.shape[0], *points.shape)


def _placed_normals(normals: np.ndarray, rotations: np.ndarray, flip: np.ndarray) -> np.ndarray:
    """Template normals (t, 3, 3) carried by each placement (n, 3, 3) onto the drawn faces: (n*t, 3, 3) float32.

    A normal goes by the inverse transpose, taken here as the cofactor matrix (the inverse transpose times
    the determinant, whose size the normalising drops): it exists for a singular placement too (a part
    flattened to zero thickness, `1 16 0 0 0 10 0 0 0 0 0 0 0 10 4-4disc.dat`), where the inverse does not.
    A mirror turns the geometric face, a swapped winding turns it back: the inverse transpose turned by the
    mirror (det < 0) and by the winding is the cofactor (det's sign already in it) turned by the winding alone.
    """
    c0, c1, c2 = rotations[:, :, 0], rotations[:, :, 1], rotations[:, :, 2]
    cofactor = np.stack([np.cross(c1, c2), np.cross(c2, c0), np.cross(c0, c1)], axis=2)
    cofactor *= np.where(flip, -1.0, 1.0)[:, None, None]
    placed = _turn(cofactor.astype(np.float32), normals.astype(np.float32))
    if flip.any():
        placed[flip] = placed[flip][:, :, [0, 2, 1]]
    placed /= np.maximum(np.linalg.norm(placed, axis=-1, keepdims=True), 1e-12)
    return placed.reshape(-1, 3, 3).astype(np.float32)


def _group(corners: np.ndarray, rgba: np.ndarray, certified: np.ndarray, anchor: np.ndarray, chunk_ldu: float,
           lod: int = 0, normals: np.ndarray | None = None, shine: np.ndarray | None = None) -> list[Batch]:
    """Triangles into batches per chunk and kind (transparency, sidedness, `shine` (T,) 0-2: a finish);
    `normals` (T, 3, 3) per corner, else flat faces."""
    if corners.shape[0] == 0:
        return []
    if normals is None:
        normals = np.repeat(face_normals(corners)[:, None], 3, axis=1)
    cx = np.floor(anchor[:, 0] / chunk_ldu).astype(np.int64)
    cy = np.floor(anchor[:, 1] / chunk_ldu).astype(np.int64)
    transparent = rgba[:, 3] < 255
    kind = transparent.astype(np.int64) * 2 + (~certified).astype(np.int64)
    if shine is not None:
        kind += shine.astype(np.int64) * 4
    order = np.lexsort((kind, cy, cx))
    keys = np.stack([cx, cy, kind], axis=1)[order]
    starts = np.flatnonzero(np.r_[True, (keys[1:] != keys[:-1]).any(axis=1)])
    ends = np.r_[starts[1:], order.shape[0]]
    batches = []
    for start, end in zip(starts, ends):  # one iteration per draw call, not per triangle
        rows = order[start:end]
        x, y, k = keys[start]
        batches.append(Batch(
            positions=np.ascontiguousarray(corners[rows].reshape(-1, 3), dtype=np.float32),
            normals=np.ascontiguousarray(normals[rows].reshape(-1, 3), dtype=np.float32),
            colours=np.ascontiguousarray(np.repeat(rgba[rows], 3, axis=0)),
            transparent=bool(k & 2), two_sided=bool(k & 1), chunk=(int(x), int(y)), lod=lod, finish=SHINES[k >> 2]))
    return batches


def low_poly_studs(model: Model, sides: int = LOW_STUD_SIDES) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Visible studs as low-poly solids: (T, 3, 3) float32 corners, (T, 4) uint8 colours, (T, 2) anchors."""
    studs, owners = model.studs()
    visible = ~covered_studs(model, studs, owners)
    studs, owners = studs[visible].astype(np.float64), owners[visible]
    template = stud_template(sides)
    flip = np.linalg.det(studs[:, :3, :3]) < 0
    corners = np.einsum("sij,tcj->stci", studs[:, :3, :3], template) + studs[:, None, None, :3, 3]
    if flip.any():
        corners[flip] = corners[flip][:, :, [0, 2, 1]]
    colour_codes = np.asarray([model.instances[i].colour for i in range(len(model.instances))], np.int32)
    distinct = np.unique(colour_codes) if colour_codes.size else np.zeros(0, np.int32)
    palette = model.colours.rgba(distinct)
    rgba = palette[np.searchsorted(distinct, colour_codes[owners])] if owners.size else np.zeros((0, 4), np.uint8)
    origins = np.asarray([i.transform[:2, 3] for i in model.instances]).reshape(-1, 2)
    anchor = np.repeat(origins[owners], template.shape[0], axis=0)
    return corners.reshape(-1, 3, 3).astype(np.float32), np.repeat(rgba, template.shape[0], axis=0), anchor


def conditional_lines(model: Model) -> EdgeBatch:
    """Type 5 conditional lines, dark grey like the edges, each end carrying the other and the controls."""
    mesh = model.mesh
    points = mesh.positions[mesh.optional_edges].astype(np.float32)  # (O, 4, 3): ends, then controls
    ends = points[:, :2].reshape(-1, 3)
    controls = np.stack([points[:, [1, 0]], np.repeat(points[:, 2:3], 2, axis=1),
                         np.repeat(points[:, 3:4], 2, axis=1)], axis=2).reshape(-1, 3, 3)
    colours = np.tile(np.array([[40, 40, 40, 255]], np.uint8), (ends.shape[0], 1))
    return EdgeBatch(np.ascontiguousarray(ends), colours, np.ascontiguousarray(controls))


def edge_lines(model: Model, quality: str = "default") -> EdgeBatch:
    """Type 2 edge lines (not on studs at default quality), in dark grey unless coloured."""
    mesh = model.mesh
    ends = mesh.positions[mesh.edges].reshape(-1, 3)
    colours = np.tile(np.array([[40, 40, 40, 255]], np.uint8), (ends.shape[0], 1))
    return EdgeBatch(np.ascontiguousarray(ends, np.float32), colours)
