"""The 3D world of a scene: line of sight and cover, distances, arcs, reach, the stud grid,
vehicle sweeps and collision sectors (contract C2, implemented structurally).

Layer: world (imports ldraw and scene; never rules, replay, view or panda3d). Units: LDU inside,
studs at the API; world frame Z up (design.md).

    world = World.from_scene(load_scene("scenes/village.yaml"))
    report = world.sight("blue-3", "red-2")       # SightReport: visible, visible_fraction, blockers, ...
    report.distance("cm"); report.blockers[0].material   # facts only: the ruleset judges cover
    world.reachable_cells("blue-3", 5); world.sweep("blue-jeep", 20)

The world answers facts; rulesets judge (design.md). A SightReport carries the visible fraction,
the blockers along the line of fire (nearest first: share, material, distance, top and height over
the target's feet), the heights of target and firer, the distance in any unit (`distance("cm")`) and
whether every LDraw part was found (`complete`, `missing_parts`). Materials: bow3d.world.materials
(a documented table, per-scene overrides). Queries for the rulesets: `measure` (heads, bases,
front_edge, bodies, centres), `base`, `bodies_within`, `bodies_in_cone`, `bodies_in_template`,
`bodies_along`, `sweep_all`; rules-driven decor changes: `add_obstacle`/`remove_obstacle`,
`remove_decor`/`restore_decor` (bow3d.world.changes). Lengths: bow3d.units.

Conventions (measured on battlefield-5k, 5.2 M triangles; see benchmarks/RESULTS.md):
- Engine: Embree through embreex, one static scene for the decor, robust mode. Bodies (units,
  vehicles) are software instances: one small Embree scene per distinct model in its own frame;
  rays are moved into a body's frame only for bodies whose bounding sphere they pass near.
  `place()` changes a pose: no rebuild.
- Collision mesh for sight: the triangles of stud and anti-stud/tube primitives (LDraw's
  `tri_detail`) are dropped. Studs stand 4 LDU proud of a brick top and the tubes are inside the
  bricks; on battlefield-5k this takes 5.22 M triangles to 0.87 M and the Embree build from 3.3 s
  to 0.7 s (same run, benchmarks/bench_world.py), and changes 0.41 % of blocked/unblocked answers
  on 262,144 random sight lines. `World.from_scene(..., keep_studs=True)` keeps them.
- Big batches (heatmaps) whose segments pass near many bodies cast the bodies through one merged
  Embree scene instead, rebuilt on first use after a move (MERGED_BATCH_RAYS, MERGED_NEAR_SHARE).
- No back-face culling: LDraw parts are not watertight and windings are not always certified.
- Grazing (sight lines at exact brick-top heights), Embree robust mode: a ray through the shared
  edge of two triangles never slips between them (blocked); a ray lying in the plane of a top
  face, touching only its edge, grazes it and passes (seen); 0.01 LDU lower it is blocked. Tested.
- A sight line is the segment from the firer's eye to a sample, stopped SAMPLE_STANDOFF_LDU
  short of it; the firer's and the target's own triangles never block (a segment that ends on a
  surface would count as blocked in every engine).
- Head point: the centre of the box of the minifig head part (3626*); without one, the centre
  of the body's box, half a brick below its top. Eye = head point.
- Samples: 1024 fixed points per model, area-weighted and stratified, seeded by the model name,
  moved with the body (so a 1 LDU move changes the fraction a little). Those facing the firer
  are the ones the firer would see with nothing else in the way (a ray test against the target's
  own mesh: no trust in windings). Visible fraction = unblocked / facing.
- Walkability: see bow3d.world.grid. Vehicles: see bow3d.world.vehicles.
- Blockers: one per decor part instance or body; `distance_studs` is the eye to its nearest hit on a
  sight line; `top_ldu` the top of its box (decor: its sight triangles, studs dropped).
- Removed decor (destroyed cover) is hidden, not rebuilt: rays go on past it (bow3d.world.raycast).
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
