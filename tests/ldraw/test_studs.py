"""Issue 13: only real top studs are level-of-detail fodder; tubes, sliced and stretched studs keep their geometry,
so the default quality draws no phantom stud (part 4854 scales the sliced tube stud2s by 6)."""

from __future__ import annotations

import numpy as np
import pytest

from bow3d.ldraw import Library, load_model
from bow3d.ldraw.flatten import is_detail_primitive, is_top_stud
from tests.conftest import write


@pytest.mark.parametrize("name, top, detail", [
    ("stud.dat", True, True), ("STUD2.DAT", True, True), ("stud2a.dat", True, True), ("studa.dat", True, True),
    ("stud9.dat", True, True), ("8/stud.dat", True, True), ("48\\stud2.dat", True, True), ("stud-logo3.dat", True, True),
    ("stud3.dat", False, True), ("stud4.dat", False, True), ("stud4a.dat", False, True), ("stud4f2w.dat", False, True),
    ("stud2s.dat", False, False), ("stud2s2.dat", False, False), ("stud23.dat", False, False),
    ("stud8.dat", False, False), ("stud28.dat", False, False), ("stud11.dat", False, False),
    ("stud25.dat", False, False), ("stud10.dat", False, False), ("stud13.dat", False, False),
    ("stud15.dat", False, False), ("stud4o.dat", False, False), ("stud4od.dat", False, False),
    ("stud4s.dat", False, False), ("stud6.dat", False, False), ("stud20.dat", False, False),
    ("stug-2x2.dat", False, False), ("3001.dat", False, False),
])
def test_stud_family_roles(name, top, detail):
    assert is_top_stud(name) == top and is_detail_primitive(name) == detail


def test_stretched_or_sliced_stud_primitives_keep_their_geometry(tmp_path, library):
    """stud.dat placed as a stud is one stud; stretched six times it is a peg, drawn in full."""
    write(library.roots[0] / "p" / "stud2s.dat", "0 Stud Tube Open Sliced\n0 !LDRAW_ORG Primitive\n0 BFC CERTIFY CCW\n"
                                                  "3 16 0 0 0 0 0 6 6 0 0\n")
    write(library.roots[0] / "parts" / "peg.dat", "0 Peg brick\n0 !LDRAW_ORG Part\n0 BFC CERTIFY CCW\n"
          "1 16 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n1 16 0 -24 0 1 0 0 0 1 0 0 0 1 stud.dat\n"
          "1 16 0 4 0 1 0 0 0 6 0 0 0 1 stud.dat\n1 16 0 4 0 0 0 1 0 6 0 1 0 0 stud2s.dat\n")
    model = load_model(write(tmp_path / "m.ldr", "1 4 0 0 0 1 0 0 0 1 0 0 0 1 peg.dat\n"), Library(library.roots),
                       cache=False)
    studs, owners = model.studs()
    assert studs.shape[0] == 1 and np.allclose(studs[0, :3, 3], [0, 0, 24])  # the real one, on top
    assert model.mesh.tri_detail.sum() == 1 and model.mesh.triangle_count == 12 + 3


def test_studs_keep_their_own_colour(tmp_path, library):
    write(library.roots[0] / "parts" / "redstud.dat", "0 Brick with a red stud\n0 !LDRAW_ORG Part\n"
          "1 16 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n1 4 0 -24 0 1 0 0 0 1 0 0 0 1 stud.dat\n"
          "1 16 10 -24 0 1 0 0 0 1 0 0 0 1 stud.dat\n")
    model = load_model(write(tmp_path / "m.ldr", "1 14 0 0 0 1 0 0 0 1 0 0 0 1 redstud.dat\n"), Library(library.roots),
                       cache=False)
    assert model.studs()[0].shape[0] == 2 and model.stud_colours().tolist() == [4, 14]


TILED_4854 = """0 4854 with its top tiled
1 72 0 0 0 1 0 0 0 1 0 0 0 1 4854.dat
1 15 -20 -8 -20 1 0 0 0 1 0 0 0 1 3068b.dat
1 15 20 -8 -20 1 0 0 0 1 0 0 0 1 3068b.dat
1 15 -20 -8 20 1 0 0 0 1 0 0 0 1 3068b.dat
1 15 20 -8 20 1 0 0 0 1 0 0 0 1 3068b.dat
"""


def test_4854_has_no_stud_above_its_tiles_at_default_quality(tmp_path, official):
    """4854 places stud2s (a sliced tube) scaled x6 and stud2a stretched x2: neither is a stud. Tiled over, nothing
    drawn at the default quality rises above the tiles (before: low-poly studs 12 LDU above them)."""
    from bow3d.view.graph.batches import build_batches  # numpy only: no window

    model = load_model(write(tmp_path / "tiled.ldr", TILED_4854), official, cache=False)
    studs, owners = model.studs()
    assert set(owners.tolist()) == {0} and studs.shape[0] == 8  # the 2 x 4 studs down in its open centre
    rot = studs[:, :3, :3].astype(np.float64)
    assert np.allclose(np.matmul(rot.transpose(0, 2, 1), rot), np.eye(3), atol=1e-4)  # pure turns
    tiles_top = 8.0  # LDU: tiles 8 high on the 4854's top at 0
    assert model.mesh.bounds()[1, 2] == pytest.approx(tiles_top)
    for quality in ("default", "full", "draft"):
        top = max(float(b.positions[:, 2].max()) for b in build_batches(model, quality) if b.positions.size)
        assert top <= tiles_top + 1e-3, (quality, top)


def test_4854_keeps_its_tubes_and_real_studs(official):
    part = load_model(official.roots[0] / "parts" / "4854.dat", official, cache=False)
    mesh = part.mesh
    kept = mesh.positions[mesh.triangles[~mesh.tri_detail]].reshape(-1, 3)
    assert kept[:, 2].max() == pytest.approx(4.0)  # the stretched open studs reach 4 LDU over its top, as modelled
    studs = part.studs()[0]
    assert np.allclose(studs[:, 2, 3], -16.0)  # the real studs sit in the open centre, 16 LDU down
