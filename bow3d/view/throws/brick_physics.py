"""Brick rolls thrown with Bullet physics, landing on the recorded result (BOW 1.3 §2.1).

Layer: view (panda3d.bullet, no window). The result of a roll is decided by the replay's seeded
stream, never by this simulation: each 2x2 brick is thrown alone (seeded initial pose, speed
and spin) onto a flat tray until enough throws have landed on an edge (a side face down) and
enough flat (studs up or down); the roll then shows `edges` on-edge throws and the rest flat,
each moved sideways (a translation on a flat tray changes nothing in the physics) to its slot
in the tray's row. Units: LDU (1 stud = 20), seconds; the tray frame is Z up.

`PhysicsRollTray` is the roll tray of `bow3d.view.throws.brick_roll_animation` with these throws (dice,
cards and other kinds are drawn by the tray as always: bow3d.view.throws.dice_tray); where Bullet is
missing or a result cannot be found, it falls back to the keyframed bricks.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from bow3d.view.throws.brick_roll_animation import RollTray
from bow3d.view.throws.brick_throw import BRICK_SPACING_LDU, MAX_BRICKS_SHOWN, ROW_DELAY_S, ROW_SPACING_LDU, STAGGER_S
from bow3d.view.throws.tray_physics import CM_PER_LDU, GRAVITY_CM, bullet_available

BRICK_CM = (1.6, 1.6, 0.96)  # a 2x2 brick in Bullet's centimetres
STEP_S, SUBSTEPS = 1 / 30, 8
FLIGHT_S = 2.5  # simulated seconds of one throw (throws not at rest by then are not used)
MAX_TRIES = 400


@dataclass(frozen=True)
class Throw:
    """One brick's flight: times (F,), centres (F, 3) LDU, heading/pitch/roll (F, 3) degrees; landed on edge?"""

    times: np.ndarray
    centres: np.ndarray
    hpr: np.ndarray
    on_edge: bool
    at_rest: bool = True  # settled flat or on edge by the end (other throws are not used)


def simulate_throw(seed: int) -> Throw:
    """Throw one 2x2 brick from the left of the tray, seeded; record its flight at 30 frames a second."""
    from panda3d.bullet import BulletBoxShape, BulletPlaneShape, BulletRigidBodyNode, BulletWorld
    from panda3d.core import NodePath, Vec3

    rng = np.random.default_rng(seed)
    world = BulletWorld()
    world.set_gravity(Vec3(0, 0, -GRAVITY_CM))
    root = NodePath("throw")
    ground = BulletRigidBodyNode("tray")
    ground.add_shape(BulletPlaneShape(Vec3(0, 0, 1), 0))
    ground.set_friction(0.7)
    ground.set_restitution(0.35)
    world.attach_rigid_body(ground)
    root.attach_new_node(ground)
    body = BulletRigidBodyNode("brick")
    body.set_mass(2.3)  # grams
    body.add_shape(BulletBoxShape(Vec3(*(s / 2 for s in BRICK_CM))))
    body.set_friction(0.6)
    body.set_restitution(0.35)
    brick = root.attach_new_node(body)
    brick.set_pos(-9.0 + rng.uniform(-0.5, 0.5), rng.uniform(-1.0, 1.0), 3.0 + rng.uniform(0, 1.5))
    brick.set_hpr(*rng.uniform(-180, 180, 3))
    body.set_linear_velocity(Vec3(rng.uniform(28, 40), rng.uniform(-4, 4), rng.uniform(0, 8)))
    body.set_angular_velocity(Vec3(*rng.uniform(-25, 25, 3)))
    world.attach_rigid_body(body)
    frames = int(FLIGHT_S / STEP_S) + 1
    centres, hpr = np.zeros((frames, 3)), np.zeros((frames, 3))
    for k in range(frames):
        if k:
            world.do_physics(STEP_S, SUBSTEPS, STEP_S / SUBSTEPS)
        centres[k] = tuple(brick.get_pos())
        hpr[k] = tuple(brick.get_hpr())
    up = abs(brick.get_quat().get_up().z)  # the stud axis against the vertical
    resting = body.get_linear_velocity().length() < 0.5 and body.get_angular_velocity().length() < 0.5
    landed = "edge" if resting and up < 0.02 else "flat" if resting and up > 0.98 else None
    return Throw(np.arange(frames) * STEP_S, centres / CM_PER_LDU, hpr, landed == "edge", landed is not None)


@lru_cache(maxsize=64)
def throws_for(bricks: int, edges: int, seed: int) -> tuple[Throw, ...] | None:
    """`bricks` throws of which exactly `edges` land on edge (the others flat), or None if none found."""
    need_edge, need_flat = edges, bricks - edges
    on_edge: list[Throw] = []
    flat: list[Throw] = []
    for k in range(MAX_TRIES):
        if len(on_edge) >= need_edge and len(flat) >= need_flat:
            break
        throw = simulate_throw(seed * 7919 + k)
        if throw.at_rest:
            (on_edge if throw.on_edge else flat).append(throw)
    if len(on_edge) < need_edge or len(flat) < need_flat:
        return None
    chosen = on_edge[:need_edge] + flat[:need_flat]
    order = np.random.default_rng(seed).permutation(bricks)  # which slots get the on-edge bricks
    return tuple(chosen[i] for i in order)


class PhysicsRollTray(RollTray):
    """The roll tray with Bullet throws (falls back to the keyframed bricks when Bullet cannot oblige)."""

    def _show_bricks(self, rolls, seconds: float, seed: int, rgbs) -> np.ndarray:
        key = (rolls, seed, tuple(rgbs))
        if key != self.key:
            self._build(rolls, rgbs)
            self.key = key
        plans = [throws_for(min(r.bricks, MAX_BRICKS_SHOWN), min(r.edges, r.bricks, MAX_BRICKS_SHOWN), seed + 31 * k)
                 if bullet_available() else None for k, r in enumerate(rolls)]
        ready = [plan for plan in plans if plan is not None]
        if len(ready) < len(plans):
            return super()._show_bricks(rolls, seconds, seed, rgbs)
        settled = []
        node = iter(self.bricks)
        for k, (_roll, plan) in enumerate(zip(rolls, ready)):
            width = len(plan)
            start = k * ROW_DELAY_S * 2
            for i, throw in enumerate(plan):
                slot = np.array([(i - (width - 1) / 2) * BRICK_SPACING_LDU, ((len(rolls) - 1) / 2 - k) * ROW_SPACING_LDU])
                t = seconds - start - i * STAGGER_S
                frame = int(np.clip(t / STEP_S, 0, len(throw.times) - 1))
                centre = throw.centres[frame].copy()
                centre[:2] += slot - throw.centres[-1, :2]
                brick = next(node)
                if t < 0:
                    brick.hide()
                    continue
                brick.show()
                brick.set_pos(*centre)
                brick.set_hpr(*throw.hpr[frame])
            settled.append(seconds - start - (width - 1) * STAGGER_S >= FLIGHT_S)
        self.region.set_active(True)
        return np.array(settled, dtype=bool)


__all__ = ["PhysicsRollTray", "Throw", "bullet_available", "simulate_throw", "throws_for"]
