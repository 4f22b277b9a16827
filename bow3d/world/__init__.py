"""The 3D world of a scene: line of sight and cover, distances, arcs, reach, the stud grid,
vehicle sweeps and collision sectors (contract C2, implemented structurally).

Layer: world (imports ldraw and scene; never rules, replay, view or panda3d). Units: LDU inside,
studs at the API; world frame Z up (design.md).

    world = World.from_scene(load_scene("scenes/village.yaml"))
    report = world.sight("blue-3", "red-2")       # SightReport: visible, visible_fraction, blockers, ...
    report.distance("cm"); report.blockers[0].material   # facts only: the ruleset judges cover
    world.reachable_cells("blue-3", 5); world.sweep("blue-jeep", 20)

More: docs/modules/world.md#world.
"""

from bow3d.world.bodies import SAMPLES_PER_BODY, Template, body_pose, template_from_mesh, template_from_model
from bow3d.world.materials import DEFAULT_MATERIAL, DEFAULT_RULES, MATERIALS, MaterialRule, MaterialTable
from bow3d.world.raycast import SightMesh, TriangleScene, sight_mesh
from bow3d.world.report import Blocker, Contact, Crossing, SightReport
from bow3d.world.world import Body, BodySpec, World

__all__ = [
    "Blocker", "Body", "BodySpec", "Contact", "Crossing", "DEFAULT_MATERIAL", "DEFAULT_RULES",
    "MATERIALS", "MaterialRule", "MaterialTable", "SAMPLES_PER_BODY", "SightMesh", "SightReport",
    "Template", "TriangleScene", "World", "body_pose", "sight_mesh", "template_from_mesh",
    "template_from_model",
]
