"""The orbit camera's math (no graphics needed)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, strategies as st

from bow3d.view.camera.orbit import MAX_PITCH_DEG, MIN_PITCH_DEG, OrbitCamera
from bow3d.view.output.offscreen import pose_for_view


def test_pose_round_trip():
    camera = OrbitCamera((10.0, 20.0, 0.0), 30.0, 40.0, 500.0)
    again = OrbitCamera.from_pose(camera.pose())
    assert np.allclose([again.yaw_deg, again.pitch_deg, again.distance_ldu], [30, 40, 500])


@given(st.floats(-720, 720), st.floats(-200, 200), st.floats(0.01, 100))
def test_orbit_and_zoom_stay_in_bounds(d_yaw, d_pitch, factor):
    camera = OrbitCamera((0.0, 0.0, 0.0), 0.0, 30.0, 400.0).orbit(d_yaw, d_pitch).zoom(factor)
    assert MIN_PITCH_DEG <= camera.pitch_deg <= MAX_PITCH_DEG and 0 <= camera.yaw_deg < 360
    assert np.isclose(np.linalg.norm(np.subtract(camera.pose().position, camera.target)), camera.distance_ldu)


def test_pan_moves_the_target_on_the_ground_only():
    camera = OrbitCamera((0.0, 0.0, 50.0), 0.0, 30.0, 400.0).pan(0.1, 0.2)
    assert camera.target[2] == 50.0 and camera.target[:2] != (0.0, 0.0)


def test_framing_keeps_every_corner_in_view():
    bounds = np.array([[-2400, -2400, -4], [2400, 2400, 316]])
    pose = pose_for_view(bounds, "iso", 40, 16 / 9)
    forward = np.subtract(pose.target, pose.position)
    forward /= np.linalg.norm(forward)
    right = np.cross(forward, [0, 0, 1])
    right /= np.linalg.norm(right)
    up = np.cross(right, forward)
    corners = np.array([[x, y, z] for x in bounds[:, 0] for y in bounds[:, 1] for z in bounds[:, 2]]) - pose.position
    depth = corners @ forward
    tan_v = np.tan(np.radians(20))
    assert (np.abs(corners @ up / depth) <= tan_v * 1.001).all()
    assert (np.abs(corners @ right / depth) <= tan_v * 16 / 9 * 1.001).all()
