"""Top studs of a model: which are covered by another part (never seen), and low-poly stand-ins.

Layer: ldraw (numpy only). Units: LDU, world frame. A top stud primitive's frame has its base centre
at the origin and grows along its LDraw -Y (`Model.studs()`); the LDraw stud is a cylinder of radius
STUD_RADIUS and height STUD_HEIGHT. The renderer draws low-poly studs where nothing covers them
(bow3d.view.graph.batches) and the world puts stand-in studs in its sight geometry (bow3d.world.studs).
"""

from __future__ import annotations

import numpy as np

from bow3d.ldraw.model import Model

STUD_RADIUS, STUD_HEIGHT = 6.0, 4.0  # LDU (the LDraw stud primitive)


def covered_studs(model: Model, studs: np.ndarray, owners: np.ndarray) -> np.ndarray:
    """(S,) bool: studs sitting inside another part's bottom slab (so never seen).

    A part's bottom slab is the box of its own non-stud geometry within one plate of its
    lowest point, taken only for parts turned by multiples of 90 degrees about the vertical
    (then the box is exact). Studs are hashed on the stud grid: no loop per stud.
    """
    if studs.shape[0] == 0:
        return np.zeros(0, bool)
    base = studs[:, :3, 3].astype(np.float64)
    boxes, box_owner = [], []
    for key, idx in model.groups().items():
        part = model.parts[key]
        keep = ~part.tri_detail
        if not keep.any():
            continue
        points = part.positions[np.unique(part.triangles[keep])].astype(np.float64)
        mats = model.world_transforms(idx)
        rot = mats[:, :3, :3]
        axis_aligned = np.all(np.isclose(np.abs(rot), np.round(np.abs(rot)), atol=1e-4), axis=(1, 2))
        if not axis_aligned.any():
            continue
        world = np.einsum("nij,vj->nvi", rot[axis_aligned], points) + mats[axis_aligned, None, :3, 3]
        zmin = world[:, :, 2].min(axis=1, keepdims=True)
        slab = world[:, :, 2] <= zmin + 8.0
        inf = np.where(slab[..., None], world, np.inf)
        ninf = np.where(slab[..., None], world, -np.inf)
        box = np.concatenate([inf.min(axis=1), ninf.max(axis=1)], axis=1)
        box[:, 5] = zmin[:, 0] + 8.0  # the slab is one plate thick whatever its vertices are
        boxes.append(box)
        box_owner.append(idx[axis_aligned])
    if not boxes:
        return np.zeros(studs.shape[0], bool)
    return _inside_any(base + np.array([0.0, 0.0, 1.0]), owners, np.concatenate(boxes), np.concatenate(box_owner))


def _inside_any(points: np.ndarray, owners: np.ndarray, boxes: np.ndarray, box_owner: np.ndarray) -> np.ndarray:
    """Points strictly inside a box of another owner; boxes binned on a 20 LDU grid."""
    cell = 20.0
    lo = np.floor(boxes[:, :2] / cell).astype(np.int64)
    hi = np.floor((boxes[:, 3:5] - 1e-6) / cell).astype(np.int64)
    counts = (hi[:, 0] - lo[:, 0] + 1) * (hi[:, 1] - lo[:, 1] + 1)
    box_id = np.repeat(np.arange(boxes.shape[0]), counts)
    local = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
    width = (hi[:, 0] - lo[:, 0] + 1)[box_id]
    gx = lo[box_id, 0] + local % width
    gy = lo[box_id, 1] + local // width
    point_cells = np.floor(points[:, :2] / cell).astype(np.int64)
    def key(x, y):
        return (x + 2**20) * 2**21 + (y + 2**20)
    cell_keys = key(gx, gy)
    order = np.argsort(cell_keys, kind="stable")
    sorted_keys = cell_keys[order]
    pkeys = key(point_cells[:, 0], point_cells[:, 1])
    left = np.searchsorted(sorted_keys, pkeys, "left")
    right = np.searchsorted(sorted_keys, pkeys, "right")
    hits = right - left
    pair_point = np.repeat(np.arange(points.shape[0]), hits)
    pair_box = box_id[order[np.repeat(left, hits) + (np.arange(hits.sum()) - np.repeat(np.cumsum(hits) - hits, hits))]]
    b = boxes[pair_box]
    p = points[pair_point]
    inside = np.all((p > b[:, :3]) & (p < b[:, 3:]), axis=1) & (box_owner[pair_box] != owners[pair_point])
    result = np.zeros(points.shape[0], bool)
    result[pair_point[inside]] = True
    return result


def stud_template(sides: int, radius: float = STUD_RADIUS) -> np.ndarray:
    """(T, 3, 3) low-poly stud (a prism of `sides` sides with its top, corners `radius` from its axis) in
    the stud primitive's own frame (base at 0, up = LDraw -Y), outward-facing windings."""
    angle = np.linspace(0.0, 2 * np.pi, sides, endpoint=False)
    ring = np.stack([radius * np.cos(angle), np.zeros(sides), radius * np.sin(angle)], axis=1)
    top = ring + [0.0, -STUD_HEIGHT, 0.0]
    nxt = np.roll(np.arange(sides), -1)
    i = np.arange(sides)
    walls = np.concatenate([np.stack([ring[i], top[i], top[nxt]], axis=1),
                            np.stack([ring[i], top[nxt], ring[nxt]], axis=1)])
    fan = np.stack([top[np.zeros(sides - 2, int)], top[np.arange(2, sides)], top[np.arange(1, sides - 1)]], axis=1)
    tris = np.concatenate([walls, fan])
    normals = np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0])
    outward = np.einsum("ij,ij->i", normals, tris.mean(axis=1) - [0.0, -STUD_HEIGHT / 2, 0.0]) > 0
    tris[~outward] = tris[~outward][:, [0, 2, 1]]
    return tris
