"""Issue 13 looks: smooth normals from the part's own edge lines and a crease angle (bow3d.view.graph.normals)."""

from __future__ import annotations

import numpy as np

from bow3d.view.graph.normals import face_normals, smooth_normals


def _cylinder(sides: int = 16, height: float = 10.0) -> np.ndarray:
    """(2*sides, 3, 3) the side of an open cylinder, counter-clockwise seen from outside."""
    angle = np.linspace(0, 2 * np.pi, sides, endpoint=False)
    ring = np.stack([np.cos(angle), np.sin(angle), np.zeros(sides)], axis=1) * 10
    top = ring + [0, 0, height]
    nxt = np.roll(np.arange(sides), -1)
    return np.concatenate([np.stack([ring, ring[nxt], top[nxt]], axis=1), np.stack([ring, top[nxt], top], axis=1)])


def test_a_cylinder_side_is_smooth_its_normals_point_out_radially():
    corners = _cylinder()
    normals = smooth_normals(corners)
    radial = corners.copy()
    radial[..., 2] = 0
    radial /= np.linalg.norm(radial, axis=-1, keepdims=True)
    assert np.allclose(normals, radial, atol=1e-5)


def test_an_edge_line_keeps_its_side_hard():
    corners = _cylinder()
    seam = np.array([[[10.0, 0, 0], [10.0, 0, 10.0]]])  # an edge line along one side of the cylinder
    normals = smooth_normals(corners, seam)
    at_seam = np.isclose(corners[..., 0], 10) & np.isclose(corners[..., 1], 0)
    faces = np.repeat(face_normals(corners)[:, None], 3, axis=1)
    assert np.allclose(normals[at_seam], faces[at_seam], atol=1e-5)  # no averaging across the seam
    assert not np.allclose(normals[~at_seam], faces[~at_seam], atol=1e-3)  # elsewhere still smooth


def test_a_box_corner_sharper_than_the_crease_stays_flat_and_empty_input_is_shaped():
    square = np.array([[[0, 0, 0], [1, 0, 0], [1, 1, 0]], [[0, 0, 0], [1, 1, 0], [0, 1, 0]],
                       [[0, 0, 0], [0, 0, 1], [1, 0, 1]], [[0, 0, 0], [1, 0, 1], [1, 0, 0]]], float)
    normals = smooth_normals(square)
    assert np.allclose(normals, np.repeat(face_normals(square)[:, None], 3, axis=1), atol=1e-6)
    assert smooth_normals(np.zeros((0, 3, 3))).shape == (0, 3, 3)
