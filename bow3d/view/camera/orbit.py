"""An orbit camera as plain math: yaw, pitch and distance around a target (world frame, LDU).

Layer: view (no Panda3D here, so it is tested anywhere). The viewer feeds it mouse and key
deltas and reads back a `CameraPose`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from bow3d.view.camera.choices import VIEWS
from bow3d.view.camera.pose import CameraPose, point3

MIN_PITCH_DEG, MAX_PITCH_DEG = 2.0, 89.5
MIN_DISTANCE_LDU = 20.0


@dataclass(frozen=True)
class OrbitCamera:
    """The camera sits `distance_ldu` from `target`, `yaw_deg` round Z (0 = looking from +X), `pitch_deg` up."""

    target: tuple[float, float, float]
    yaw_deg: float
    pitch_deg: float
    distance_ldu: float
    fov_deg: float = 40.0

    @classmethod
    def from_pose(cls, pose: CameraPose) -> OrbitCamera:
        offset = np.subtract(pose.position, pose.target)
        distance = float(np.linalg.norm(offset))
        yaw = math.degrees(math.atan2(offset[1], offset[0]))
        pitch = math.degrees(math.asin(max(-1.0, min(1.0, offset[2] / distance))))
        return cls(point3(pose.target), yaw, pitch, distance, pose.fov_deg).clamped()

    def clamped(self) -> OrbitCamera:
        return replace(self, pitch_deg=min(MAX_PITCH_DEG, max(MIN_PITCH_DEG, self.pitch_deg)),
                       distance_ldu=max(MIN_DISTANCE_LDU, self.distance_ldu), yaw_deg=self.yaw_deg % 360.0)

    @property
    def direction(self) -> np.ndarray:
        """Unit vector from the target to the camera."""
        yaw, pitch = math.radians(self.yaw_deg), math.radians(self.pitch_deg)
        return np.array([math.cos(pitch) * math.cos(yaw), math.cos(pitch) * math.sin(yaw), math.sin(pitch)])

    def pose(self) -> CameraPose:
        position = np.asarray(self.target) + self.direction * self.distance_ldu
        return CameraPose(point3(position), point3(self.target), self.fov_deg)

    def orbit(self, d_yaw_deg: float, d_pitch_deg: float) -> OrbitCamera:
        return replace(self, yaw_deg=self.yaw_deg + d_yaw_deg, pitch_deg=self.pitch_deg + d_pitch_deg).clamped()

    def zoom(self, factor: float) -> OrbitCamera:
        """factor < 1 moves closer."""
        return replace(self, distance_ldu=self.distance_ldu * factor).clamped()

    def pan(self, right: float, forward: float) -> OrbitCamera:
        """Move the target on the ground plane by fractions of the distance (screen right / away)."""
        yaw = math.radians(self.yaw_deg)
        away = np.array([-math.cos(yaw), -math.sin(yaw), 0.0])
        side = np.array([-away[1], away[0], 0.0]) * -1.0
        step = self.distance_ldu
        target = np.asarray(self.target) + (side * right + away * forward) * step
        return replace(self, target=point3(target))

    def preset(self, view: str, bounds: np.ndarray, aspect: float, direction=None) -> OrbitCamera:
        """One of the named views framing `bounds` (or the view from `direction`, when given)."""
        from bow3d.view.output.offscreen import pose_for_view

        if direction is None and view not in VIEWS:
            raise ValueError(f"unknown view {view!r}")
        return OrbitCamera.from_pose(pose_for_view(bounds, view, self.fov_deg, aspect, direction=direction))
