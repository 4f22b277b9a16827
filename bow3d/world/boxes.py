"""Worlds made of boxes, built from raw meshes: for tests and benchmarks, no LDraw library needed.

Layer: world. Units: LDU, world frame.
"""

from __future__ import annotations

from bow3d.world.bodies import template_from_mesh
from bow3d.world.raycast import SightMesh, box_mesh, merge_meshes
from bow3d.world.world import BodySpec, World

GROUND = box_mesh((0, 0, -8), (1280, 1280, 0))  # a 64 x 64 stud slab, top at z = 0


def box_world(decor: list[SightMesh], bodies: list[BodySpec], shapes: dict | None = None, materials=None) -> World:
    """A world of boxes: a 64 x 64 stud ground slab plus `decor`; body templates are boxes too.

    Templates: 'fig' a 1 x 2 stud, 4 brick tall post (head box on top); 'car' 4 studs wide,
    6 studs long, 30 LDU high; more may be given in `shapes` (name -> SightMesh in the model frame).
    Decor instance k + 1 is decor[k] (0 is the ground); `materials` as for World.
    """
    fig_body, fig_head = box_mesh((-20, -10, 0), (20, 10, 72)), box_mesh((-10, -10, 72), (10, 10, 96))
    fig = merge_meshes(fig_body, fig_head)
    templates = {"fig": template_from_mesh("fig", fig, head_mask=fig.tri_instance == 1),
                 "car": template_from_mesh("car", box_mesh((-40, -60, 0), (40, 60, 30)))}
    for name, mesh in (shapes or {}).items():
        templates[name] = template_from_mesh(name, mesh)
    return World(merge_meshes(GROUND, *decor), templates, bodies, materials=materials)
