"""Level of detail by size on screen: the near level (studs, full silhouettes) is drawn wherever a stud
would be at least STUD_PIXELS_NEAR pixels across, whatever the picture's size or the lens.

Layer: view. The LODNodes switch at fixed distances (bow3d.view.graph.batches.NEAR_LDU for the battlefield's
chunks, scene_nodes.UNIT_NEAR_LDU for units and vehicles); the camera's LOD scale, a multiplier Panda3D
applies to the squared distance it measures to every LODNode (Panda3D 1.10 LODNode::compute_child:
a scale of 4 makes everything seem twice as far), is set here from the picture's height and the lens's
vertical field of view, so a still of a whole model close enough to see its studs draws them, and a small or wide
view does not draw what would be sub-pixel. Both levels of a chunk cover the same parts, so a chunk
switching never opens a crack between chunks (the far level melts shapes inside a part, never
between two).
"""

from __future__ import annotations

import math

from bow3d.ldraw.studs import STUD_RADIUS
from bow3d.view.graph.batches import NEAR_LDU

STUD_PIXELS_NEAR = 4.0  # px: a stud this wide on screen or more is drawn; smaller ones melt into the far level


def near_distance_ldu(height_px: int, fov_deg: float, stud_pixels: float = STUD_PIXELS_NEAR) -> float:
    """How far (LDU) a stud stays at least `stud_pixels` across in a picture `height_px` high seen through a
    lens of vertical field of view `fov_deg` (1280 x 720 at 40 degrees: 2,967 LDU, 148 studs)."""
    focal_px = (height_px / 2.0) / math.tan(math.radians(fov_deg) / 2.0)
    return 2.0 * STUD_RADIUS * focal_px / stud_pixels


def set_detail_by_size(camera, height_px: int, fov_deg: float) -> float:
    """Set the LOD scale of `camera` (a NodePath of a Camera, or of a node holding one: ShowBase's
    `camera`) for size on screen; returns the scale."""
    from panda3d.core import Camera

    scale = (NEAR_LDU / near_distance_ldu(height_px, fov_deg)) ** 2  # Panda3D scales the squared distance
    lenses = [camera] if isinstance(camera.node(), Camera) else list(camera.find_all_matches("**/+Camera"))
    for path in lenses:
        path.node().set_lod_scale(scale)
    return scale
