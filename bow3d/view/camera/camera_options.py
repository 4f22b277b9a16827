"""The `--camera` option of `bow3d render` and `bow3d view`: where a picture of a scene is taken from.

Layer: view (no Panda3D here). Two forms:
- `unit:ID` over the shoulder of a unit (or vehicle), looking where it faces (or at a target);
- `X,Y,Z:TX,TY,TZ` a camera at (X, Y, Z) looking at (TX, TY, TZ), all in studs (Z up;
  1 stud = 20 LDU; heights in studs too: a brick is 1.2 studs high).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from bow3d.errors import UserInputError
from bow3d.i18n import _
from bow3d.units import LDU_PER_STUD as STUD
from bow3d.view.camera.pose import CameraPose, point3

SHOULDER_BACK_LDU, SHOULDER_SIDE_LDU, SHOULDER_UP_LDU = 170.0, 50.0, 70.0
LOOK_AHEAD_LDU = 600.0


@dataclass(frozen=True)
class CameraSpec:
    """A parsed --camera: `unit` set (over the shoulder), or `position` and `target` in studs."""

    unit: str | None = None
    position: tuple[float, float, float] | None = None
    target: tuple[float, float, float] | None = None


def parse_camera(text: str) -> CameraSpec:
    """'unit:blue-3' or '10,5,8:30,20,0' (studs) -> CameraSpec; UserInputError otherwise."""
    head, sep, tail = text.partition(":")
    if head == "unit" and tail:
        return CameraSpec(unit=tail)
    try:
        position = tuple(float(v) for v in head.split(","))
        target = tuple(float(v) for v in tail.split(","))
    except ValueError:
        position, target = (), ()
    if not sep or len(position) != 3 or len(target) != 3 or not all(map(math.isfinite, position + target)):
        raise UserInputError(_("--camera {text!r}: write unit:ID (over a unit's shoulder) or "
                               "X,Y,Z:TX,TY,TZ in studs, e.g. --camera 10,-20,15:24,24,0").format(text=text))
    if position == target:
        raise UserInputError(_("--camera {text!r}: the camera and the point it looks at must differ")
                             .format(text=text))
    return CameraSpec(position=position, target=target)


def over_the_shoulder(head: np.ndarray, facing_deg: float, look_at: np.ndarray | None = None,
                      fov_deg: float = 50.0) -> CameraPose:
    """A camera behind and above a unit's right shoulder, looking where it faces (or at `look_at`)."""
    head = np.asarray(head, np.float64)
    if look_at is not None and np.linalg.norm((np.asarray(look_at) - head)[:2]) > 1e-6:
        forward = np.asarray(look_at, np.float64) - head
        forward[2] = 0.0
        forward /= np.linalg.norm(forward)
        target = np.asarray(look_at, np.float64)
    else:
        angle = math.radians(facing_deg)
        forward = np.array([math.cos(angle), math.sin(angle), 0.0])
        target = head + forward * LOOK_AHEAD_LDU - [0.0, 0.0, 60.0]
    right = np.array([forward[1], -forward[0], 0.0])
    position = head - forward * SHOULDER_BACK_LDU + right * SHOULDER_SIDE_LDU + [0.0, 0.0, SHOULDER_UP_LDU]
    return CameraPose(point3(position), point3(target), fov_deg)


def camera_pose(spec: CameraSpec, nodes=None, look_at_id: str | None = None) -> CameraPose:
    """The camera pose of a spec; `nodes` (SceneNodes) places units, `look_at_id` aims over the shoulder."""
    if spec.unit is None:
        assert spec.position is not None and spec.target is not None  # a camera without a unit has both
        (x, y, z), (tx, ty, tz) = spec.position, spec.target
        return CameraPose((x * STUD, y * STUD, z * STUD), (tx * STUD, ty * STUD, tz * STUD), 40.0)
    if nodes is None or spec.unit not in nodes.pieces:
        known = ", ".join(nodes.pieces) if nodes is not None else "none (not a scene)"
        raise UserInputError(_("--camera unit:{unit}: no such unit or vehicle in the scene (known: "
                               "{known})").format(unit=spec.unit, known=known))
    piece = nodes.pieces[spec.unit]
    if not piece.placed:
        raise UserInputError(_("--camera unit:{unit}: the unit is aboard a vehicle; use the vehicle's "
                               "id").format(unit=spec.unit))
    target = np.asarray(nodes.head_point(look_at_id)) if look_at_id else None
    return over_the_shoulder(np.asarray(nodes.head_point(spec.unit)), piece.facing_deg, target)
