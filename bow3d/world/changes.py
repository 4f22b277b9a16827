"""Rules-driven changes to the decor: obstacles added and removed, decor parts destroyed and restored.

Layer: world. Units: studs at the API (footprints, cells), LDU for heights. The rules keep the
record and undo by calling the symmetrical call (add <-> remove, remove_decor <-> restore_decor),
as they do with `set_door`; every call is idempotent.

- Obstacles (a fallen body, a wreck, a barricade) are bodies of kind 'obstacle', like closed doors:
  a block standing on the decor under it, `height_ldu` high, with a material. They block sight
  (named as blockers), moves (the stud grid, when higher than a plate) and vehicle sweeps (decor
  contacts); `place`-like, no rebuild.
- Removed decor parts (destroyed cover) are hidden from every ray of the decor scene (sight, ground
  heights, throws, sweeps): no Embree rebuild (0.6 s on battlefield-5k); rays that meet a removed
  part go on past it (bow3d.world.raycast.TriangleScene.hide), which costs only the rays concerned.
  The stud grid's heights are measured again under the parts changed; bodies settle on what is left.
"""

from __future__ import annotations

import math

import numpy as np

from bow3d.errors import UserInputError
from bow3d.i18n import _
from bow3d.units import LDU_PER_STUD as STUD
from bow3d.world import plan
from bow3d.world.bodies import BodySpec, body_pose, template_from_mesh
from bow3d.world.materials import check_material
from bow3d.world.raycast import box_mesh, merge_meshes

OBSTACLE = "obstacle"
RECTANGLE_TOLERANCE = 1e-3  # |cos| between a footprint's two sides: above this it is no rectangle


def obstacle_shape(footprint, cells, height_ldu: float):
    """(mesh in the body frame, centre (x, y) studs, facing deg) of an obstacle: a box over a rectangle
    ((4, 2) corners, studs, in order) or one box per stud cell [(i, j), ...]."""
    if not height_ldu > 0:
        raise UserInputError(_("an obstacle needs a height above 0 LDU, got {height_ldu!r}")
                             .format(height_ldu=height_ldu))
    if cells is not None:
        cells = np.asarray(cells, np.float64).reshape(-1, 2)
        if cells.shape[0] == 0:
            raise UserInputError(_("an obstacle needs at least one cell"))
        centre = (cells.min(axis=0) + cells.max(axis=0) + 1.0) / 2.0
        boxes = [box_mesh(((i - centre[0]) * STUD, (j - centre[1]) * STUD, 0.0),
                          ((i + 1 - centre[0]) * STUD, (j + 1 - centre[1]) * STUD, height_ldu)) for i, j in cells]
        return merge_meshes(*boxes), (float(centre[0]), float(centre[1])), 270.0
    corners = np.asarray(footprint, np.float64)
    if corners.shape != (4, 2):
        raise UserInputError(_("an obstacle's footprint is 4 corners (x, y) in studs, in order; got "
                               "{footprint!r}").format(footprint=footprint))
    across, along = corners[1] - corners[0], corners[3] - corners[0]
    width, depth = float(np.linalg.norm(across)), float(np.linalg.norm(along))
    if min(width, depth) <= 0 or abs(across @ along) > RECTANGLE_TOLERANCE * width * depth or \
            not np.allclose(corners[2], corners[1] + along, atol=1e-6 * max(width, depth)):
        raise UserInputError(_("an obstacle's footprint must be a rectangle, corners in order; got "
                               "{footprint!r}").format(footprint=footprint))
    half = np.array([width, depth]) * STUD / 2.0
    mesh = box_mesh((-half[0], -half[1], 0.0), (half[0], half[1], height_ldu))
    centre = corners.mean(axis=0)
    facing = math.degrees(math.atan2(across[1], across[0])) + 270.0  # the body's +X along the first side
    return mesh, (float(centre[0]), float(centre[1])), facing % 360.0


def add_obstacle(world, id: str, footprint, height_ldu: float, material: str, cells=None) -> None:
    """See World.add_obstacle. The same id again: put back (a new shape or material replaces the old)."""
    material = check_material(material, f"obstacle {id}")
    mesh, centre, facing = obstacle_shape(footprint, cells, float(height_ldu))
    key = f"obstacle:{id}"
    body = world.bodies.get(id)
    if body is not None and body.kind != OBSTACLE:
        raise UserInputError(_("{id} is a {kind}, not an obstacle: pick another id").format(id=id, kind=body.kind))
    if body is None or not _same_shape(body.template.shape.scene.mesh, mesh):
        template = template_from_mesh(key, mesh)
        world.templates[key] = template
        if body is None:
            world._add_bodies([(BodySpec(id, key, None, facing, OBSTACLE, material=material), template)])
            body = world.bodies[id]
        else:
            body.template, world._shapes[body.index] = template, template.shape
            world._base_local[body.index] = template.footprint
    body.material = world.material_table.body_material(OBSTACLE, id, material)
    world.place(id, centre, facing)


def _same_shape(a, b) -> bool:
    return a.positions.shape == b.positions.shape and np.allclose(a.positions - a.positions.min(axis=0),
                                                                  b.positions - b.positions.min(axis=0))


def remove_obstacle(world, id: str) -> None:
    """See World.remove_obstacle."""
    body = world.body(id, placed=False)
    if body.kind != OBSTACLE:
        raise UserInputError(_("{id} is a {kind}, not an obstacle (remove units and vehicles with "
                               "remove)").format(id=id, kind=body.kind))
    if world.active[body.index]:
        world.remove(id)


def select_decor(world, instances=None, region=None, materials=None) -> np.ndarray:
    """(R,) int64 decor instance indices: those given, or those whose box centre lies in `region`
    ((P, 2) convex polygon, studs), keeping only the given materials (None: any)."""
    count = world.decor_boxes.shape[0]
    if instances is not None:
        chosen = np.unique(np.asarray(instances, np.int64).reshape(-1))
        bad = chosen[(chosen < 0) | (chosen >= count)]
        if bad.size:
            raise UserInputError(_("no decor part {value}: decor instances are 0..{value2}")
                                 .format(value=int(bad[0]), value2=count - 1))
    elif region is not None:
        boxes = world.decor_boxes
        centre = (boxes[:, 0, :2] + boxes[:, 1, :2]) / 2.0
        ok = np.isfinite(centre).all(axis=1)
        chosen = np.flatnonzero(ok)[plan.contains(np.asarray(region, np.float64) * STUD, centre[ok])]
    else:
        raise UserInputError(_("remove_decor needs instance indices or a region"))
    if materials is not None:
        wanted = [materials] if isinstance(materials, str) else list(materials)
        chosen = chosen[np.isin(world.decor_materials[chosen], wanted)]
    return chosen


def remove_decor(world, instances=None, region=None, materials=None) -> np.ndarray:
    """See World.remove_decor."""
    chosen = select_decor(world, instances, region, materials)
    newly = chosen[~world.removed_decor[chosen]]
    if newly.size:
        world.removed_decor[newly] = True
        world.hide_decor(newly)
        _decor_changed(world, newly)
    return newly


def restore_decor(world, instances) -> None:
    """See World.restore_decor."""
    chosen = select_decor(world, instances)
    back = chosen[world.removed_decor[chosen]]
    if back.size:
        world.removed_decor[back] = False
        world.hide_decor(back, hidden=False)
        _decor_changed(world, back)


def _decor_changed(world, instances: np.ndarray) -> None:
    """The ground changed under these parts: the grid's heights there again, bodies settle on what is
    under them."""
    boxes = world.decor_boxes[instances]
    boxes = boxes[np.isfinite(boxes).all(axis=(1, 2))]  # parts with triangles only
    if world._grid is not None and len(boxes):
        world._grid.refresh(world, boxes[:, 0, :2].min(axis=0), boxes[:, 1, :2].max(axis=0))
    for body in world._rows:  # a loop over bodies (a handful of rays each), not over rays
        if world.active[body.index] and body.seat is None:
            pose = body_pose(body.position[0], body.position[1], body.facing, 0.0)
            world.poses[body.index, 2, 3] = world.rest_height(body.template, pose)
    world.settle_occupants()
    world._version += 1
