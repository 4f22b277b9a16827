"""Dice thrown with Bullet physics, landing on the recorded face.

Layer: view (panda3d.bullet, no window). As with the 2x2 bricks (bow3d.view.throws.brick_physics) the
result is the replay's, never the simulation's: one die is thrown alone (seeded pose, speed and
spin) onto a flat tray until it lies still on a face; whatever face it shows, the whole flight is
then turned by one of the die's own symmetries (bow3d.view.throws.dice.symmetry) so that it shows the
recorded one. The solid looks the same under that turn, so the flight is still the one Bullet
computed; only the numbers have moved (and, so the number reads upright to the tray's camera,
the whole flight may be turned about the vertical a little: as good a flight on a flat tray).
Units: LDU (Bullet works in centimetres), seconds, Z up.

Where Bullet is missing, or no throw comes to rest in time, the keyframed throw is used.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from bow3d.view.throws.dice import (
    STEP_S,
    DieThrow,
    axis_angle,
    die_shape,
    is_polyhedral,
    keyframed_throw,
    read_value,
    symmetry,
)
from bow3d.view.throws.tray_physics import CM_PER_LDU, GRAVITY_CM, bullet_available

FLIGHT_S = 2.4  # simulated seconds of one throw
SUBSTEPS = 32  # per frame: a die falling 1 m/s sinks at most 0.3 mm into the tray in one substep
SETTLED_BY_S = 1.7  # a throw still moving after this is not used (the film reads the dice soon after)
MAX_TRIES = 12
MAX_YAW_DEG = 45.0  # a flight is turned at most this much about the vertical, to read its number upright
TILT_DEG = 15.0  # ... give or take this much
STILL_LDU = 0.05  # a frame moves less than this (and turns less than STILL_DEG): the die lies still
STILL_DEG = 0.2


def _simulate(sides: int, seed: int) -> tuple[np.ndarray, np.ndarray, bool]:
    """(centres (F, 3) LDU, rotations (F, 3, 3), at rest flat on a face) of one seeded throw."""
    from panda3d.bullet import BulletConvexHullShape, BulletPlaneShape, BulletRigidBodyNode, BulletWorld
    from panda3d.core import LPoint3, NodePath, Vec3

    shape = die_shape(sides)
    rng = np.random.default_rng(seed)
    world = BulletWorld()
    world.set_gravity(Vec3(0, 0, -GRAVITY_CM))
    root = NodePath("die-throw")
    ground = BulletRigidBodyNode("tray")
    ground.add_shape(BulletPlaneShape(Vec3(0, 0, 1), 0))
    ground.set_friction(0.8)
    ground.set_restitution(0.3)
    world.attach_rigid_body(ground)
    root.attach_new_node(ground)
    hull = BulletConvexHullShape()
    for x, y, z in shape.vertices * CM_PER_LDU:
        hull.add_point(LPoint3(float(x), float(y), float(z)))
    hull.set_margin(0.004)
    body = BulletRigidBodyNode("die")
    body.set_mass(3.0)  # grams
    body.add_shape(hull)
    body.set_friction(0.6)
    body.set_restitution(0.4)
    body.set_linear_damping(0.05)
    body.set_angular_damping(0.1)
    die = root.attach_new_node(body)
    die.set_pos(-8.0 + rng.uniform(-0.5, 0.5), rng.uniform(-1.0, 1.0), 5.0 + rng.uniform(0, 1.0))
    die.set_hpr(*rng.uniform(-180, 180, 3))
    body.set_linear_velocity(Vec3(rng.uniform(30, 40), rng.uniform(-3, 3), rng.uniform(0, 6)))
    body.set_angular_velocity(Vec3(*rng.uniform(-30, 30, 3)))
    world.attach_rigid_body(body)
    frames = int(FLIGHT_S / STEP_S) + 1
    centres, rotations = np.zeros((frames, 3)), np.zeros((frames, 3, 3))
    for k in range(frames):
        if k:
            world.do_physics(STEP_S, SUBSTEPS, STEP_S / SUBSTEPS)
        mat = die.get_mat()  # Panda3D rows: the body's axes in the world, then its position
        rotations[k] = np.array([[mat.get_cell(r, c) for c in range(3)] for r in range(3)]).T
        centres[k] = tuple(die.get_pos())
    resting = body.get_linear_velocity().length() < 0.5 and body.get_angular_velocity().length() < 0.5
    return centres / CM_PER_LDU, rotations, bool(resting and read_value(shape, rotations[-1])[1] > 0.995)


def _settle_s(centres: np.ndarray, rotations: np.ndarray) -> float:
    """Seconds after which the flight no longer moves."""
    moved = np.linalg.norm(np.diff(centres, axis=0), axis=1)
    cos = np.clip((np.einsum("fij,fij->f", rotations[1:], rotations[:-1]) - 1) / 2, -1.0, 1.0)
    turned = np.degrees(np.arccos(cos))
    moving = np.flatnonzero((moved > STILL_LDU) | (turned > STILL_DEG))
    return float((moving[-1] + 2) * STEP_S) if moving.size else 0.0


def _upright_yaw(shape, value: int, rotation: np.ndarray) -> float:
    """Degrees to turn a die lying as `rotation` about the vertical so that `value`'s number reads upright
    from -Y (0 where the number has no one way up)."""
    reading = rotation @ shape.reading[value - 1]
    if np.linalg.norm(reading[:2]) < 1e-9:
        return 0.0
    return (90.0 - np.degrees(np.arctan2(reading[1], reading[0])) + 180.0) % 360.0 - 180.0


@lru_cache(maxsize=512)
def physics_throw(sides: int, value: int, seed: int) -> DieThrow | None:
    """A Bullet throw of a d`sides` showing `value` on top at the end (None: none came to rest in time).

    The flight is turned by the die's symmetry that best shows `value` upright, then, about the
    vertical through where it stops, by at most MAX_YAW_DEG more (a flight turned about the vertical
    on a flat tray is as good a flight); the first throw that reads upright so is taken, else the best."""
    if not is_polyhedral(sides) or not bullet_available():
        return None
    shape = die_shape(sides)
    tilt = float(np.random.default_rng(seed).uniform(-TILT_DEG, TILT_DEG))  # dice on a tray never line up
    best = None
    for k in range(MAX_TRIES):
        centres, rotations, at_rest = _simulate(sides, seed * 7919 + k)
        settle = _settle_s(centres, rotations)
        if not at_rest or settle > SETTLED_BY_S:
            continue
        shown = read_value(shape, rotations[-1])[0]
        rotations = rotations @ symmetry(sides, value, shown, rotations[-1])
        yaw = (_upright_yaw(shape, value, rotations[-1]) + tilt + 180.0) % 360.0 - 180.0
        if best is None or abs(yaw) < abs(best[3]):
            best = (centres, rotations, settle, yaw)
        if abs(yaw) <= MAX_YAW_DEG:
            break
    if best is None:
        return None
    centres, rotations, settle, yaw = best
    turn = axis_angle(np.array([0.0, 0.0, 1.0]), np.radians(float(np.clip(yaw, -MAX_YAW_DEG, MAX_YAW_DEG))))
    centres = (centres - np.array([centres[-1, 0], centres[-1, 1], 0.0])) @ turn.T
    centres[:, 2] += shape.rest_height - centres[-1, 2]  # Bullet's margin: lie on the tray exactly
    return DieThrow(np.arange(len(centres)) * STEP_S, centres, turn @ rotations, settle)


def die_throw(sides: int, value: int, seed: int, physics: bool = True) -> DieThrow:
    """The flight of one die showing `value`: Bullet's when it can, else keyframed."""
    throw = physics_throw(sides, value, seed) if physics else None
    return throw if throw is not None else keyframed_throw(sides, value, seed)


__all__ = ["die_throw", "physics_throw"]
