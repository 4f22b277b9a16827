"""Draw batches (numpy only): chunking, levels of detail, hidden studs."""

from __future__ import annotations

import numpy as np

from bow3d.ldraw import load_model
from bow3d.view.graph.batches import build_batches, covered_studs, part_template
from tests.conftest import write


def test_full_quality_keeps_every_triangle(tmp_path, library):
    m = load_model(write(tmp_path / "m.ldr", "1 4 0 0 0 1 0 0 0 1 0 0 0 1 brickstud.dat\n"), library, cache=False)
    batches = build_batches(m, "full")
    assert sum(b.triangle_count for b in batches) == 13
    assert all(b.positions.shape == (3 * b.triangle_count, 3) for b in batches)


def test_chunks_split_far_apart_parts(tmp_path, library):
    text = "1 4 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n1 4 5000 0 0 1 0 0 0 1 0 0 0 1 box.dat\n"
    m = load_model(write(tmp_path / "m.ldr", text), library, cache=False)
    chunks = {b.chunk for b in build_batches(m, "draft")}
    assert len(chunks) == 2


def test_transparent_and_uncertified_get_their_own_batches(tmp_path, library):
    text = "1 47 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n1 4 0 0 0 1 0 0 0 1 0 0 0 1 boxnocert.dat\n"
    m = load_model(write(tmp_path / "m.ldr", text), library, cache=False)
    kinds = sorted((b.transparent, b.two_sided) for b in build_batches(m, "draft"))
    assert kinds == [(False, True), (True, False)]


def test_stud_under_a_brick_is_hidden(tmp_path, library):
    # brickstud's stud sits on top (LDraw y = -24 is 24 LDU up); a box stacked on it covers it
    text = "1 4 0 0 0 1 0 0 0 1 0 0 0 1 brickstud.dat\n1 4 200 0 0 1 0 0 0 1 0 0 0 1 brickstud.dat\n" \
           "1 1 0 -24 0 1 0 0 0 1 0 0 0 1 box.dat\n"
    m = load_model(write(tmp_path / "m.ldr", text), library, cache=False)
    studs, owners = m.studs()
    assert studs.shape[0] == 2
    assert covered_studs(m, studs, owners).tolist() == [True, False]


def test_far_level_simplifies_but_keeps_the_size(official):
    m = load_model(official.roots[0] / "parts" / "3471.dat", official, cache=False)
    part = next(iter(m.parts.values()))
    near, _, _ = part_template(part, "near")
    far, _, _ = part_template(part, "far")
    assert far.shape[0] < near.shape[0] / 2
    extent = lambda t: t.reshape(-1, 3).max(axis=0) - t.reshape(-1, 3).min(axis=0)  # noqa: E731
    assert np.allclose(extent(far), extent(near), atol=16)


def test_far_level_keeps_the_outline_where_parts_meet():
    # A bumpy 100 x 100 LDU sheet of 800 triangles: clustering melts its inside, but every vertex on a face of its
    # box (its rim, where a neighbouring part would meet it) stays where it is, so no crack opens between parts.
    from bow3d.view.graph.batches import FAR_CELL_LDU, _cluster

    n = 21
    x, z = np.meshgrid(np.linspace(0, 100, n), np.linspace(0, 100, n))
    y = 2.0 + np.sin(x / 7.0) * np.cos(z / 9.0)  # inside the box's height, off its top and bottom faces
    y[0, :] = y[-1, :] = y[:, 0] = y[:, -1] = 2.0
    y[n // 2, n // 2], y[n // 3, n // 3] = 0.5, 3.5  # the box's floor and ceiling: one vertex each
    positions = np.stack([x, y, z], axis=-1).reshape(-1, 3)
    i = np.arange(n - 1)[:, None] * n + np.arange(n - 1)[None, :]
    quads = np.stack([i, i + 1, i + n + 1, i + n], axis=-1).reshape(-1, 4)
    triangles = np.concatenate([quads[:, [0, 1, 2]], quads[:, [0, 2, 3]]])
    codes, certified = np.zeros(len(triangles), np.int32), np.ones(len(triangles), bool)
    far, _, _ = _cluster(positions, triangles, codes, certified, FAR_CELL_LDU)
    assert far.shape[0] < triangles.shape[0] / 2
    rim = positions[(positions[:, 0] % 100 == 0) | (positions[:, 2] % 100 == 0)]
    corners = {tuple(p) for p in np.round(far.reshape(-1, 3), 6)}
    assert all(tuple(p) in corners for p in np.round(rim, 6))


def test_a_singular_placement_is_drawn_flat_not_a_crash(tmp_path, library):
    # zero Y scale flattens a box to a sheet (old files flatten discs so); an all-zero matrix squashes it
    # to a point: the normals' inverse transpose does not exist for either (render crashed: LinAlgError)
    text = "1 4 0 0 0 1 0 0 0 0 0 0 0 1 box.dat\n1 4 100 0 0 0 0 0 0 0 0 0 0 0 box.dat\n" \
           "1 4 200 0 0 1 0 0 0 1 0 0 0 1 box.dat\n"
    m = load_model(write(tmp_path / "m.ldr", text), library, cache=False)
    batches = build_batches(m, "full")
    normals = np.concatenate([b.normals for b in batches])
    assert np.isfinite(normals).all()
    flat = np.concatenate([b.positions for b in batches if b.chunk == (0, 0)])
    sheet = flat[np.abs(flat[:, 0]) < 50]
    assert np.allclose(sheet[:, 2], 0) and sheet.shape[0] > 0   # the flattened box: one level (world z)
