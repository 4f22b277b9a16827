"""Where a camera is and what it looks at, as plain data (no Panda3D): what the film plans and the
renderers aim.

Layer: view (pure Python). World frame, LDU; field of view in degrees (vertical).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CameraPose:
    """Where the camera is and what it looks at, world frame (LDU)."""

    position: tuple[float, float, float]
    target: tuple[float, float, float]
    fov_deg: float = 40.0


def point3(values) -> tuple[float, float, float]:
    """Three floats from a point ((3,) array or three numbers): a CameraPose's position or target."""
    x, y, z = (float(v) for v in values)
    return x, y, z
