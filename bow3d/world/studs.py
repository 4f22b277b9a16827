"""Stand-in studs for the decor's sight geometry (sight method silhouette-1).

Layer: world. Units: LDU, world frame. A stud can hide part of a minifig (a 3-brick wall just in
front of a firer's eye hides twice as much of the target with its studs as without), so sight must
see them; the official stud primitive is a 16-sided cylinder of 48 triangles, and the tubes under
bricks (the rest of LDraw's stud family) are hidden inside the bricks. The stand-in: every top stud
that no other part covers (bow3d.ldraw.studs.covered_studs) becomes a closed hexagonal prism of the
stud's height whose mean width equals the stud's diameter (corners STANDIN_RADIUS_LDU from its
axis), 16 triangles.

More: docs/modules/world.md#studs.
"""

from __future__ import annotations

import math

import numpy as np

from bow3d.ldraw import Model
from bow3d.ldraw.studs import STUD_RADIUS, covered_studs, stud_template
from bow3d.world.raycast import SightMesh

STANDIN_SIDES = 6
# A convex prism's mean width is its perimeter / pi; the stud's is its diameter (2 r).
STANDIN_RADIUS_LDU = math.pi * STUD_RADIUS / (STANDIN_SIDES * math.sin(math.pi / STANDIN_SIDES))


def standin_studs(model: Model) -> SightMesh:
    """The model's uncovered top studs as stand-in prisms: tri_instance = the part instance each stud
    belongs to (so a stud that hides is named with its part)."""
    studs, owners = model.studs()
    if studs.shape[0]:
        keep = ~covered_studs(model, studs, owners)
        studs, owners = studs[keep].astype(np.float64), owners[keep]
    template = stud_template(STANDIN_SIDES, STANDIN_RADIUS_LDU)   # (T, 3, 3): 12 walls, 4 top
    if studs.shape[0] == 0:
        return SightMesh(np.zeros((0, 3), np.float32), np.zeros((0, 3), np.int32), np.zeros(0, np.int32))
    verts, index = np.unique(np.round(template.reshape(-1, 3), 6), axis=0, return_inverse=True)
    index = index.reshape(-1, 3).astype(np.int32)                         # the prism, indexed: V = 16
    placed = np.einsum("sij,vj->svi", studs[:, :3, :3], verts) + studs[:, None, :3, 3]
    offsets = (np.arange(studs.shape[0], dtype=np.int32) * verts.shape[0])[:, None, None]
    return SightMesh(np.ascontiguousarray(placed.reshape(-1, 3), np.float32),
                     np.ascontiguousarray((index[None] + offsets).reshape(-1, 3), np.int32),
                     np.repeat(owners.astype(np.int32), index.shape[0]))
