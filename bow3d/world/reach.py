"""Touch: how far a hand or a weapon must reach from one body to another, in 3D, not through walls.

Layer: world. Units: LDU inside (the World method answers in studs). BOW §2.4.2: a melee weapon
"must be able to touch the targeted unit"; §2.3.2, §2.3.3 and §2.4.4: "close" is "can touch with one
of his hands". The world measures; the ruleset compares with a weapon's reach or with "close".

The measure: from the reaching body's box (its model's box as it stands: arms and what it holds
included) to the touched body's real surface (its fixed surface samples, bow3d.world.bodies), the
shortest straight segment that no decor part (stand-in studs aside), closed door or obstacle cuts.
A wall between the two cuts every segment lower than its top; a target on a tower is as far as its
feet are from the reacher's box, up the tower's side. Reaching up or down: the height between the
bodies counts like any other distance (a minifig reaches a unit standing one brick higher as on the
level, since their boxes overlap in height; one standing on a 5-brick wall is a brick above his
head). Overlapping bodies (an occupant and his vehicle) touch: 0.
"""

from __future__ import annotations

import math

import numpy as np

from bow3d.units import LDU_PER_STUD as STUD
from bow3d.world.raycast import cast_bodies

REACH_SEARCH_STUDS = 8.0   # farther than this nothing is looked at: the gap is inf
STANDOFF_LDU = 0.05        # a segment stops this short of the surface point it goes to
BLOCKING_KINDS = ("door", "obstacle")  # bodies that stop a hand like a wall (units and vehicles do not)


def _box_points(world, row: int, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For world points (N, 3): the nearest point of a body's box (N, 3), and the distance (N,)."""
    pose = world.poses[row]
    box = world._rows[row].template.shape.box.astype(np.float64)
    local = (points - pose[:3, 3]) @ pose[:3, :3]
    nearest = np.clip(local, box[0], box[1])
    gap = np.linalg.norm(local - nearest, axis=1)
    return nearest @ pose[:3, :3].T + pose[:3, 3], gap


def touch_gap(world, a: str, b: str, search_ldu: float = REACH_SEARCH_STUDS * STUD) -> float:
    """See World.touch_gap_studs (LDU here)."""
    ra, rb = world.body(a).index, world.body(b).index
    if ra == rb:
        return 0.0
    target = world._rows[rb]
    pose = world.poses[rb]
    points = target.template.samples.astype(np.float64) @ pose[:3, :3].T + pose[:3, 3]
    starts, gaps = _box_points(world, ra, points)
    if float(gaps.min()) <= 1e-6:
        return 0.0
    keep = np.flatnonzero(gaps <= search_ldu)
    if keep.size == 0:
        return math.inf
    keep = keep[np.argsort(gaps[keep], kind="stable")]
    starts, ends, gaps = starts[keep], points[keep], gaps[keep]
    dirs = ((ends - starts) / gaps[:, None]).astype(np.float32)
    origins = np.ascontiguousarray(starts, np.float32)
    tfar = np.maximum(gaps - STANDOFF_LDU, 0.0).astype(np.float32)
    t, _ = world.decor_scene.first_hit(origins, dirs, tfar)
    clear = ~np.isfinite(t)
    walls = np.array([world.active[r.index] and r.kind in BLOCKING_KINDS for r in world._rows], bool)
    walls[[ra, rb]] = False
    if walls.any() and clear.any():
        rows = np.flatnonzero(clear)
        t_body, _, _ = cast_bodies(origins[rows], dirs[rows], tfar[rows], world._shapes, world.poses, walls)
        clear[rows[np.isfinite(t_body)]] = False
    return float(gaps[clear].min()) if clear.any() else math.inf
