"""BOW's brick rolls on the tray as numbers: where each 2x2 brick is and how it is turned at a time.

Layer: view, pure numpy (tested anywhere; drawn by bow3d.view.throws.brick_roll_animation.RollTray and, among other
throws, bow3d.view.throws.dice_tray). Units: LDU, seconds, the tray's frame Z up. BOW 1.3 §2.1: the bricks are
thrown in from the left, tumble, bounce once and settle, `edges` of them on an edge (studs to the side),
the others flat. Which ones land on edge is a seeded choice, so the same replay gives the same picture.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from bow3d.view.film.timeline import ThrowShown

BRICK_SPACING_LDU = 56.0
ROW_SPACING_LDU = 78.0
THROW_S = 0.55  # flight of one brick
STAGGER_S = 0.09  # between bricks of a roll
ROW_DELAY_S = 0.45  # between rolls (attack, then dodge)
MAX_BRICKS_SHOWN = 10


@dataclass(frozen=True)
class BrickPoses:
    """Bricks of all rolls: centres (N, 3) LDU, heading/pitch/roll (N, 3) degrees, which roll (N,), on edge (N,)."""

    centres: np.ndarray
    hpr: np.ndarray
    roll: np.ndarray
    on_edge: np.ndarray
    settled: np.ndarray  # (len(rolls),) bool: every brick of that roll is down


def landing(rolls: tuple[ThrowShown, ...], seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(roll index (N,), on edge (N,)) for every brick shown; exactly `edges` of a roll's bricks on edge."""
    rng = np.random.default_rng(seed)
    which, edge = [], []
    for k, roll in enumerate(rolls):
        shown = min(roll.bricks, MAX_BRICKS_SHOWN)
        flags = np.zeros(shown, dtype=bool)
        flags[rng.permutation(shown)[:min(roll.edges, shown)]] = True
        which.append(np.full(shown, k))
        edge.append(flags)
    if not which:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=bool)
    return np.concatenate(which), np.concatenate(edge)


def roll_started_s(k: int) -> float:
    return k * ROW_DELAY_S


def roll_settled_s(roll: ThrowShown, k: int) -> float:
    """Seconds (from the first throw) when roll `k` is all down."""
    return roll_started_s(k) + THROW_S + STAGGER_S * max(0, min(roll.bricks, MAX_BRICKS_SHOWN) - 1) + 0.1


def first_in_view_s(rolls: tuple[ThrowShown, ...]) -> float:
    """Seconds after the throw when the first brick of the first roll comes into the tray camera's view
    (`RollTray._frame_bricks`' half width, less half a brick): the tray is shown from then on, never empty."""
    if not rolls:
        return 0.0
    widest = max(min(r.bricks, MAX_BRICKS_SHOWN) for r in rolls)
    shown = min(rolls[0].bricks, MAX_BRICKS_SHOWN)
    half_w = max(3, widest) * BRICK_SPACING_LDU / 2 + 30.0 - 20.0
    final_x = -(shown - 1) / 2 * BRICK_SPACING_LDU
    need = (-half_w - (final_x - 260.0)) / 260.0  # the ease reached when the brick's x crosses -half_w
    if need <= 0.0:
        return 0.0
    u = 1.0 - math.sqrt(max(0.0, 1.0 - min(need, 1.0)))
    return u * THROW_S


def brick_poses(rolls: tuple[ThrowShown, ...], seconds: float, seed: int) -> BrickPoses:
    """Every brick's pose `seconds` after the throw (vectorised over bricks)."""
    which, on_edge = landing(rolls, seed)
    n = which.shape[0]
    rng = np.random.default_rng(seed + 7919)
    index = np.concatenate([np.arange(min(r.bricks, MAX_BRICKS_SHOWN)) for r in rolls]) if n else np.zeros(0)
    counts = np.array([min(r.bricks, MAX_BRICKS_SHOWN) for r in rolls])
    width = counts[which] if n else np.zeros(0)
    rows = len(rolls)
    final = np.stack([(index - (width - 1) / 2) * BRICK_SPACING_LDU,
                      ((rows - 1) / 2 - which) * ROW_SPACING_LDU, np.zeros(n)], axis=1)
    spin = rng.uniform(-1.0, 1.0, (n, 3)) * np.array([540.0, 720.0, 720.0])
    final_h = rng.uniform(-25.0, 25.0, n)
    final_hpr = np.stack([final_h, np.where(on_edge, 90.0, 0.0), np.zeros(n)], axis=1)
    start_t = roll_started_s(1) * which + STAGGER_S * index
    u = np.clip((seconds - start_t) / THROW_S, 0.0, 1.0)
    thrown = seconds >= start_t
    origin = final + np.array([-260.0, -40.0, 0.0])
    ease = 1 - (1 - u) ** 2
    centres = origin + (final - origin) * ease[:, None]
    bounce = np.where(u < 0.8, np.sin(np.pi * u / 0.8) * 110.0, np.sin(np.pi * (u - 0.8) / 0.2) * 12.0)
    lift = np.where(on_edge, 20.0, 12.0)  # half of a 2x2 brick's footprint (on edge) or its height
    centres[:, 2] = lift + bounce
    hpr = final_hpr + spin * ((1 - u) ** 2)[:, None]
    hidden = ~thrown
    centres[hidden] = origin[hidden] + np.array([0.0, 0.0, 400.0])
    settled = np.array([seconds >= roll_settled_s(r, k) for k, r in enumerate(rolls)], dtype=bool)
    return BrickPoses(centres, hpr, which, on_edge, settled)


def is_bricks_only(rolls: tuple[ThrowShown, ...]) -> bool:
    """Every throw is BOW's 2x2 bricks (the tray then looks exactly as it always did)."""
    return all(r.kind == "bricks" and isinstance(r.outcome, int) for r in rolls)
