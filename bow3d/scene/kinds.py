"""What a sub-model of an editor-built battlefield is: a minifig, a vehicle or decor, and why.

Layer: scene (reads bow3d.ldraw). Used by bow3d.scene.figures (`bow3d scene from-ldraw`):
- a minifig (a unit) is the innermost sub-model placement around one torso that is mostly
  minifig parts (at least MINIFIG_SHARE of its parts): a building wing holding a minifig
  sub-model is not one, the sub-model inside it is; a sub-model whose torso sits in a child
  that lacks some of its legs or head (a figure split into sub-models) is the whole figure;
- a vehicle holds a horse or a steering wheel, or stands on wheels: at least two wheels or
  tyres at its bottom and nothing else touching the ground (`0 !BOW VEHICLE` says so anyway);
  a wall with decorative tyres is decor;
- a seated minifig, or one standing under decor (a roof, a table, an arch), would stand on
  top of that decor in a scene: `placement_notes` says so.
Heights in LDU, world frame (Z up); boxes from each part's extent corners (exact for quarter
turns, a little larger for other turns).
"""

from __future__ import annotations

import numpy as np

from bow3d.i18n import _, ngettext
from bow3d.ldraw import Model
from bow3d.scene import equipment as eq

MINIFIG_ROLES = frozenset({eq.TORSO, eq.HEAD, eq.LEGS, eq.ARM, eq.HAND, eq.HEADGEAR, eq.EQUIPMENT})
MINIFIG_SHARE = 0.5  # a figure's sub-model: at least half of its parts are minifig parts
WHEEL_BOTTOM_LDU = 4.0  # a wheel "at the bottom": its lowest point this close to the sub-model's
GROUND_CLEARANCE_LDU = 2.0  # a vehicle on wheels: no other part comes this close to its bottom
WHEEL_APART_LDU = 8.0  # wheel parts whose centres are closer than this are one wheel (rim and tyre)
SEATED_DEG = 45.0  # legs turned this far from the torso's axis: a seated minifig
UNDER_LDU = 8.0  # decor this far (a plate) above a minifig's feet, over its position: it stands under it


def instance_boxes(model: Model) -> np.ndarray:
    """(N, 2, 3) world box of every instance (from its part's extent corners), one product per part."""
    boxes = np.zeros((len(model.instances), 2, 3))
    for key, idx in model.groups().items():
        lo, hi = model.parts[key].extent().astype(np.float64)
        corners = np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])])
        mats = model.world_transforms(idx)
        moved = np.einsum("nij,cj->nci", mats[:, :3, :3], corners) + mats[:, None, :3, 3]
        boxes[idx, 0], boxes[idx, 1] = moved.min(axis=1), moved.max(axis=1)
    return boxes


def minifig_share(members: list[int], roles: dict[int, str]) -> tuple[int, int]:
    """(minifig parts, parts) among `members` (loose geometry is no part)."""
    counted = [roles[i] for i in members if roles[i] != "loose"]
    return sum(r in MINIFIG_ROLES for r in counted), len(counted)


def is_figure(members: list[int], roles: dict[int, str]) -> bool:
    minifig, total = minifig_share(members, roles)
    return total > 0 and minifig >= MINIFIG_SHARE * total


def body_count(members: list[int], roles: dict[int, str]) -> int:
    """Legs, hips and heads among `members`: what a sub-model around a torso must keep to be the figure."""
    return sum(roles[i] in (eq.LEGS, eq.HEAD) for i in members)


def vehicle_marker(members: list[int], roles: dict[int, str], boxes: np.ndarray) -> tuple[str, str]:
    """(kind 'horse' | 'car' | '', why) of a sub-model's parts; why also says why wheels did not make one."""
    found = [roles[i] for i in members]
    if eq.HORSE in found:
        return eq.HORSE, "a horse"
    if eq.STEERING in found:
        return "car", "a steering wheel"
    wheels = np.array([roles[i] == eq.WHEEL for i in members])
    if wheels.sum() < 2:
        return "", ""
    low = boxes[members, 0, 2]
    bottom = low.min()
    at_bottom = wheels & (low <= bottom + WHEEL_BOTTOM_LDU)
    count = _distinct_wheels(boxes[np.asarray(members)[at_bottom]])
    touching = int(np.count_nonzero(~wheels & (low <= bottom + GROUND_CLEARANCE_LDU)))
    if count >= 2 and not touching:
        return "car", _("{n} wheels at its bottom").format(n=count)
    others = (ngettext("but {n} other part stands on the ground beside them",
                       "but {n} other parts stand on the ground beside them", touching).format(n=touching))
    why = (_("{n} wheel or tyre parts, ").format(n=int(wheels.sum())) +
           (others if count >= 2 else
            _("but only one wheel at its bottom") if count == 1 else _("but none at its bottom")))
    return "", why


def _distinct_wheels(boxes: np.ndarray) -> int:
    """Wheels among wheel parts (a rim in its tyre is one wheel): centres WHEEL_APART_LDU apart."""
    centres = boxes.mean(axis=1)
    kept: list[np.ndarray] = []
    for c in centres:
        if all(np.linalg.norm(c - k) >= WHEEL_APART_LDU for k in kept):
            kept.append(c)
    return len(kept)


def is_seated(model: Model, torso: int, members: list[int], roles: dict[int, str]) -> bool:
    """Legs turned more than SEATED_DEG away from the torso's axis (LDraw Y): the minifig sits."""
    axis = model.instances[torso].transform[:3, 1]
    for i in members:
        if roles[i] == eq.LEGS:
            leg = model.instances[i].transform[:3, 1]
            cos = float(np.dot(axis, leg) / (np.linalg.norm(axis) * np.linalg.norm(leg) or 1.0))
            if cos < np.cos(np.radians(SEATED_DEG)):
                return True
    return False


def decor_over(boxes: np.ndarray, decor: np.ndarray, xy_ldu: np.ndarray, feet_ldu: float) -> int:
    """The decor instance reaching highest above `feet_ldu` over the point `xy_ldu`; -1 when none
    reaches UNDER_LDU above it (`decor`: (N,) bool, the instances that stay decor)."""
    over = (decor & (boxes[:, 0, 0] <= xy_ldu[0]) & (xy_ldu[0] <= boxes[:, 1, 0]) & (boxes[:, 0, 1] <= xy_ldu[1])
            & (xy_ldu[1] <= boxes[:, 1, 1]) & (boxes[:, 1, 2] > feet_ldu + UNDER_LDU))
    if not over.any():
        return -1
    candidates = np.flatnonzero(over)
    return int(candidates[np.argmax(boxes[candidates, 1, 2])])
