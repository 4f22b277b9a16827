"""Vehicle moves: straight sweeps of the footprint, turns on the spot, collision sectors.

Layer: world. Units: studs in and out, LDU inside. Design.md: a vehicle's footprint is its
model's box seen from above; a compulsory move (speed x 5 studs, BOW §3) sweeps it in a straight
line and the first contact with decor, a unit or another vehicle stops it. The collision sector
of the vehicle hit (BOW §3.6.3) has one definition, bow3d.sectors (shared with the flat test
geometry): the wedge of the hit vehicle's footprint diagonals holding a point. A contact gives it
for the moving vehicle's centre at the moment of contact (`sector`, "the side the moving vehicle
comes from") and for the contact point (`contact_sector`, the reading of BOW revision 1).
A vehicle's seated occupants move with it: its sweeps pass them by, and a sweep that meets another
vehicle's occupant meets that vehicle.

More: docs/modules/world.md#vehicles.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from bow3d.i18n import _
from bow3d.sectors import sector_in_frame
from bow3d.units import LDU_PER_PLATE as PLATE_LDU, LDU_PER_STUD as STUD
from bow3d.world.bodies import footprint_corners
from bow3d.world.raycast import CONTINUE_LDU, cast_bodies
from bow3d.world.report import Contact

RAY_SPACING_LDU = 4.0
RAY_LAYER_LDU = 6.0
START_INSIDE_LDU = 0.5
TURN_STEP_DEG = 2.0
TURN_CHUNKS = (2, 8)   # a turn's steps are cast in ranges ending here (then the rest): stop at the first hit
MAX_SWEEP_ROUNDS = 256  # sweep_all: surfaces a ray of the fan goes on past (then it stops)


def _spread(lo: float, hi: float, spacing: float) -> np.ndarray:
    n = max(int(math.ceil((hi - lo) / spacing)) + 1, 2)
    return np.linspace(lo, hi, n)


def _clearance(body) -> float:
    return 0.5 if body.flying else PLATE_LDU + 1.0


def _first_contacts(world, body, origins: np.ndarray, dirs: np.ndarray, tfar: np.ndarray):
    """Decor and bodies (not the moving one): t (N,), kind code (-1 decor, body index, -2 none), prim."""
    t_decor, prim = world.decor_scene.first_hit(origins, dirs, tfar)
    active = world.active.copy()
    active[body.index] = False
    for occupant in world.occupants(body.id):  # they ride along
        active[world.bodies[occupant].index] = False
    t_body, hit_body, _unused = cast_bodies(origins, dirs, tfar, world._shapes, world.poses, active)
    decor_first = t_decor <= t_body
    t = np.where(decor_first, t_decor, t_body)
    who = np.where(decor_first, -1, hit_body)
    who = np.where(np.isfinite(t), who, -2)
    return t, who, prim


def _contact(world, body, who: int, prim: int, point: np.ndarray, distance: float,
             mover_xy: np.ndarray | None = None) -> Contact:
    """The contact with what `who` names (-1 decor, else a body row) at `point`; `mover_xy` the moving
    vehicle's footprint centre at that moment (for the sector of a vehicle hit)."""
    x, y, z = (round(float(v), 3) for v in point)
    point_t = (x, y, z)
    if who == -1:
        inst = int(world.decor.tri_instance[prim]) if prim >= 0 else -1
        described = world.instances[inst].describe() if 0 <= inst < len(world.instances) else "decor"
        kind = "ground" if body.flying and point[2] <= world.poses[body.index, 2, 3] + PLATE_LDU else "decor"
        material = str(world.decor_materials[inst]) if inst >= 0 else world.material_table.default
        return Contact(kind, None, distance, None, point_t, described, material, inst if inst >= 0 else None)
    other = world._rows[who]
    if other.seat is not None:  # an occupant sticking out of its vehicle: the vehicle is hit
        other = world.bodies[other.seat[0]]
    if other.kind == "door":  # a closed door is part of the decor for a vehicle (BOW §3.6.2: a crash)
        return Contact("decor", None, distance, None, point_t, f"door {other.id}", other.material)
    if other.kind == "obstacle":  # decor added by the rules: a crash too
        return Contact("decor", other.id, distance, None, point_t, f"obstacle {other.id}", other.material)
    if other.kind != "vehicle":
        return Contact(other.kind, other.id, distance, None, point_t, material=other.material)
    mover = point[:2] if mover_xy is None else mover_xy
    return Contact(other.kind, other.id, distance, collision_sector(world, other.id, mover), point_t,
                   material=other.material, contact_sector=collision_sector(world, other.id, point[:2]))


def collision_sector(world, vehicle: str, point_xy: np.ndarray) -> str:
    """'front' | 'side' | 'back' (bow3d.sectors): the sector of the vehicle's footprint holding a point."""
    body = world.body(vehicle)
    pose = world.poses[body.index]
    local = (np.asarray(point_xy, float) - pose[:2, 3]) @ pose[:2, :2]
    x0, x1, y0, y1 = body.template.footprint
    rel = local - [(x0 + x1) / 2, (y0 + y1) / 2]
    return sector_in_frame(-rel[1], rel[0], (y1 - y0) / 2, (x1 - x0) / 2)   # the model faces its -Y


def _centre(world, body, forward: np.ndarray | None = None, travelled: float = 0.0) -> np.ndarray:
    """(2,) the footprint's centre (world XY, LDU), moved `travelled` LDU along `forward`."""
    centre = footprint_corners(body.template, world.poses[body.index]).mean(axis=0)
    return centre if forward is None else centre + np.asarray(forward[:2], float) * travelled


def _fan(world, body) -> tuple[np.ndarray, np.ndarray]:
    """The sweep's rays: origins (N, 3) float32 across the footprint's leading face, and the
    forward direction (3,) float64 (the model faces its -Y)."""
    pose = world.poses[body.index]
    x0, x1, y0, y1 = body.template.footprint
    xs = _spread(x0 + 0.5, x1 - 0.5, RAY_SPACING_LDU)
    zs = _spread(_clearance(body), body.template.height - 0.5, RAY_LAYER_LDU)
    gx, gz = np.meshgrid(xs, zs, indexing="ij")
    local = np.column_stack([gx.ravel(), np.full(gx.size, y0 + START_INSIDE_LDU), gz.ravel()])
    origins = (local @ pose[:3, :3].T + pose[:3, 3]).astype(np.float32)
    return origins, pose[:3, :3] @ np.array([0.0, -1.0, 0.0])


def _vehicle(world, vehicle: str):
    body = world.body(vehicle)
    if body.kind != "vehicle":
        from bow3d.errors import UserInputError
        raise UserInputError(_("{vehicle} is a {kind}, not a vehicle: only vehicles sweep")
                             .format(vehicle=vehicle, kind=body.kind))
    return body


def sweep(world, vehicle: str, distance_studs: float) -> Contact | None:
    """Move the footprint straight ahead `distance_studs`; the first contact, or None if the way is free."""
    body = _vehicle(world, vehicle)
    pose = world.poses[body.index]
    origins, forward = _fan(world, body)
    dirs = np.broadcast_to(forward.astype(np.float32), origins.shape).copy()
    reach = distance_studs * STUD + START_INSIDE_LDU
    t, who, prim = _first_contacts(world, body, origins, dirs, np.full(len(origins), reach, np.float32))
    edge = _edge_distance(world, footprint_corners(body.template, pose), forward[:2])
    k = int(np.argmin(t))
    travelled = max(float(t[k]) - START_INSIDE_LDU, 0.0) if np.isfinite(t[k]) else math.inf
    if edge < min(travelled, distance_studs * STUD):
        return Contact("edge", None, edge / STUD, None)
    if not np.isfinite(t[k]):
        return None
    point = origins[k].astype(np.float64) + t[k] * forward
    return _contact(world, body, int(who[k]), int(prim[k]), point, travelled / STUD,
                    _centre(world, body, forward, travelled))


def sweep_all(world, vehicle: str, distance_studs: float) -> tuple[Contact, ...]:
    """Every contact of a straight move of `distance_studs`, nearest first, one per thing met (a decor
    part, a unit, a vehicle, a door, an obstacle), as if the vehicle went through them all; the move
    ends at the battlefield's edge (an 'edge' contact, last; nothing beyond it counts). The first
    contact is `sweep`'s. The rays of the fan go on past each surface they meet, in rounds
    (vectorised over the rays still going)."""
    body = _vehicle(world, vehicle)
    pose = world.poses[body.index]
    origins, forward = _fan(world, body)
    dirs = np.broadcast_to(forward.astype(np.float32), origins.shape).copy()
    edge = _edge_distance(world, footprint_corners(body.template, pose), forward[:2])
    reach = min(distance_studs * STUD, edge) + START_INSIDE_LDU
    first: dict[tuple[int, int], tuple[float, int, int]] = {}  # (who, decor instance) -> (t, ray, prim)
    start = np.zeros(len(origins), np.float32)
    rows = np.arange(len(origins))
    for _unused in range(MAX_SWEEP_ROUNDS):
        o = np.ascontiguousarray(origins[rows] + start[rows, None] * dirs[rows], np.float32)
        t, who, prim = _first_contacts(world, body, o, dirs[rows], (reach - start[rows]).astype(np.float32))
        hit = np.isfinite(t)
        rows, t, who, prim = rows[hit], t[hit] + start[rows[hit]], who[hit], prim[hit]
        if rows.size == 0:
            break
        inst = np.where(who == -1, world.decor.tri_instance[np.maximum(prim, 0)], -1)
        order = np.lexsort((t, inst, who))             # per distinct thing, its nearest hit first
        things = np.column_stack([who, inst])[order]
        for k in order[np.concatenate([[True], (things[1:] != things[:-1]).any(axis=1)])]:  # one per thing met
            key = (int(who[k]), int(inst[k]))
            if key not in first or t[k] < first[key][0]:
                first[key] = (float(t[k]), int(rows[k]), int(prim[k]))
        start[rows] = t + CONTINUE_LDU
        rows = rows[start[rows] < reach]
        if rows.size == 0:
            break
    contacts = []
    for (who, _unused), (t, ray, prim) in first.items():
        travelled = max(t - START_INSIDE_LDU, 0.0)
        contacts.append(_contact(world, body, who, prim, origins[ray].astype(np.float64) + t * forward,
                                 travelled / STUD, _centre(world, body, forward, travelled)))
    contacts.sort(key=lambda c: (c.distance_studs, c.other or "", c.instance if c.instance is not None else -1))
    if edge < distance_studs * STUD:
        contacts.append(Contact("edge", None, edge / STUD, None))
    return tuple(contacts)


def _edge_distance(world, corners: np.ndarray, forward: np.ndarray) -> float:
    """LDU the footprint can travel along `forward` before a corner leaves the battlefield's box."""
    lo, hi = world.bounds[0, :2], world.bounds[1, :2]
    limits = []
    for axis in range(2):
        f = forward[axis]
        if abs(f) < 1e-12:
            continue
        room = (hi[axis] - corners[:, axis]) / f if f > 0 else (lo[axis] - corners[:, axis]) / f
        limits.append(float(room.min()))
    return max(min(limits), 0.0) if limits else math.inf


def _step_chunks(steps: int) -> list[tuple[int, int]]:
    """Ranges of a turn's steps cast together, first ones small: a ray's answer does not depend on the
    others cast with it, so the first contact is the same as casting every step at once."""
    bounds = [0] + [b for b in TURN_CHUNKS if b < steps] + [steps]
    return list(itertools.pairwise(bounds))


def turn_contacts(world, vehicle: str, delta_deg: float) -> Contact | None:
    """Turn on the spot by `delta_deg` (positive = counter-clockwise); the first contact, or None.

    Points on the footprint's outline, at several heights, move along their arcs in steps of
    TURN_STEP_DEG; each step's chord is a ray. The first step with a hit gives the contact.
    """
    body = world.body(vehicle)
    pose = world.poses[body.index]
    steps = max(int(math.ceil(abs(delta_deg) / TURN_STEP_DEG)), 1)
    angles = np.linspace(0.0, math.radians(delta_deg), steps + 1)
    outline = _outline(body.template.footprint) @ pose[:2, :2].T           # relative to the centre, at rest
    c, s = np.cos(angles), np.sin(angles)
    rot = np.stack([np.stack([c, -s], -1), np.stack([s, c], -1)], -2)      # (A + 1, 2, 2)
    moved = np.einsum("aij,pj->api", rot, outline) + pose[:2, 3]           # (A + 1, P, 2)
    zs = pose[2, 3] + _spread(_clearance(body), body.template.height - 0.5, RAY_LAYER_LDU)
    start, end = moved[:-1], moved[1:]                                     # (A, P, 2) chords
    chord = end - start
    length = np.linalg.norm(chord, axis=2)
    n_a, n_p, n_z = start.shape[0], start.shape[1], len(zs)
    origins = np.concatenate([np.repeat(start[:, :, None, :], n_z, axis=2),
                              np.broadcast_to(zs[None, None, :, None], (n_a, n_p, n_z, 1))], axis=3)
    dirs2 = chord / np.maximum(length, 1e-9)[..., None]
    dirs = np.concatenate([np.repeat(dirs2[:, :, None, :], n_z, axis=2), np.zeros((n_a, n_p, n_z, 1))], axis=3)
    tfar = np.repeat(length[:, :, None], n_z, axis=2)
    origins, dirs, tfar = origins.reshape(-1, 3), dirs.reshape(-1, 3), tfar.reshape(-1)
    per_step = n_p * n_z
    for lo, hi in _step_chunks(n_a):   # most contacts come in the first steps: cast those first
        rays = slice(lo * per_step, hi * per_step)
        t, who, prim = _first_contacts(world, body, origins[rays].astype(np.float32), dirs[rays].astype(np.float32),
                                       tfar[rays].astype(np.float32))
        hit = np.isfinite(t)
        if hit.any():
            break
    else:
        return None
    step_of = np.repeat(np.arange(lo, hi), per_step)
    order = np.lexsort((t, step_of))                 # earliest step, then nearest along its chord
    first = order[hit[order]][0]
    point = origins[rays][first] + t[first] * dirs[rays][first]
    first_step = step_of[first]
    radius = float(np.hypot(*(point[:2] - pose[:2, 3])))
    travelled = abs(float(angles[first_step])) + float(t[first]) / max(radius, 1e-9)
    return _contact(world, body, int(who[first]), int(prim[first]), point, radius * travelled / STUD, _centre(world, body))


def _outline(footprint: np.ndarray) -> np.ndarray:
    """(P, 2) points every RAY_SPACING_LDU along a footprint's edges, in the body frame."""
    x0, x1, y0, y1 = footprint
    xs, ys = _spread(x0, x1, RAY_SPACING_LDU), _spread(y0, y1, RAY_SPACING_LDU)
    return np.concatenate([np.column_stack([xs, np.full(len(xs), y0)]), np.column_stack([xs, np.full(len(xs), y1)]),
                           np.column_stack([np.full(len(ys) - 2, x0), ys[1:-1]]),
                           np.column_stack([np.full(len(ys) - 2, x1), ys[1:-1]])])


def _inside(points: np.ndarray, corners: np.ndarray) -> np.ndarray:
    inside = np.ones(len(points), bool)
    for k in range(4):
        a, b = corners[k], corners[(k + 1) % 4]
        inside &= (b[0] - a[0]) * (points[:, 1] - a[1]) - (b[1] - a[1]) * (points[:, 0] - a[0]) >= -1e-9
    return inside
