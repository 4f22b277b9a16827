"""Models as editors write them (tests/data/ldraw), against the official library (LDRAWDIR)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from hypothesis import given, settings, strategies as st

from bow3d.ldraw import load_model
from tests.conftest import write

DATA = Path(__file__).resolve().parents[1] / "data" / "ldraw"


def test_editor_mpd_with_nested_submodels(official):
    model = load_model(DATA / "outpost.mpd", official, cache=False)
    assert not model.diagnostics
    names = [i.name for i in model.instances]
    # baseplate + 2 towers x 4 parts + 2 wall sections x 2 courses x 2 bricks
    assert len(names) == 1 + 8 + 8 and names.count("3010.dat") == 8
    walls = [i for i in model.instances if i.name == "3010.dat"]
    # one course colour is explicit, the other inherits 16 from a chain of 16s: the main colour
    assert sorted({i.colour_name for i in walls}) == ["Dark_Bluish_Grey", "Main_Colour"]
    roof = [i for i in model.instances if i.name == "3039.dat"]
    assert [i.colour_name for i in roof] == ["Red", "Red"]
    assert roof[0].submodel_path == ("outpost.ldr", "tower.ldr")
    # tower 2 is turned 90 degrees: its roof slope's world transform says so
    assert np.allclose(roof[1].transform[:3, 3], [200, 0, 8 + 72])
    lo, hi = model.bounds()
    assert np.allclose(lo[:2], [-320, -320]) and np.allclose(hi[:2], [320, 320])


def test_packed_mpd_needs_only_the_stud_primitive(official):
    model = load_model(DATA / "crate-scene.mpd", official, cache=False)
    assert not model.diagnostics
    assert [i.name for i in model.instances] == ["crate.dat", "crate.dat"]
    assert len(model.parts) == 1  # flattened once, instanced twice
    studs, _ = model.studs()
    assert studs.shape[0] == 2


def test_every_official_minifig_part_lines_up(official):
    # a standing minifig as battlefield-5k places it: head top ~96 LDU above the soles
    text = """1 4 0 -72 0 1 0 0 0 1 0 0 0 1 973.dat
1 1 0 -40 0 1 0 0 0 1 0 0 0 1 3815.dat
1 1 0 -28 0 1 0 0 0 1 0 0 0 1 3816.dat
1 1 0 -28 0 1 0 0 0 1 0 0 0 1 3817.dat
1 14 0 -96 0 1 0 0 0 1 0 0 0 1 3626b.dat
"""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        model = load_model(write(Path(folder) / "fig.ldr", text), official, cache=False)
    lo, hi = model.bounds()
    assert abs(lo[2]) < 0.5 and 95 <= hi[2] - lo[2] <= 124  # head stud adds 4 to the 96 LDU body


matrices = st.tuples(*[st.floats(-3, 3, allow_nan=False) for _ in range(9)]).filter(
    lambda m: abs(np.linalg.det(np.array(m).reshape(3, 3))) > 0.05)


@settings(max_examples=40, deadline=None)
@given(m=matrices, shift=st.tuples(*[st.integers(-500, 500) for _ in range(3)]))
def test_any_invertible_placement_keeps_solids_outward(tmp_path_factory, m, shift):
    """BFC invariant: whatever the matrix (rotation, scale, mirror), a certified solid stays outward."""
    from bow3d.ldraw import Library
    from tests.conftest import write_library

    root = tmp_path_factory.mktemp("lib")
    library = Library([write_library(root / "ldraw")])
    numbers = " ".join(f"{v:.6f}" for v in (*shift, *m))
    model = load_model(write(root / "m.ldr", f"1 4 {numbers} box.dat\n"), library, cache=False)
    tris = model.mesh.positions[model.mesh.triangles].astype(np.float64)
    volume = np.einsum("ij,ij->i", tris[:, 0], np.cross(tris[:, 1], tris[:, 2])).sum() / 6
    expected = 20 * 24 * 20 * abs(np.linalg.det(np.array(m).reshape(3, 3)))
    assert volume > 0 and np.isclose(volume, expected, rtol=1e-3)
