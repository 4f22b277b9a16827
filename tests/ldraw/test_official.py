"""The official LDraw library (through LDRAWDIR): every part loads cleanly; the 5k battlefield matches."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bow3d.ldraw import load_model

BENCH = Path(__file__).resolve().parents[3] / "shared" / "bench" / "battlefield-5k.ldr"


def test_every_official_part_loads_without_diagnostics(official, tmp_path):
    parts = sorted((official.roots[0] / "parts").glob("*.dat"))
    assert parts
    problems = []
    for part in parts:
        model = load_model(part, official, cache=False)
        problems += [str(d) for d in model.diagnostics]
        assert model.triangle_count() > 0, part.name
    assert problems == []


def test_official_brick_is_certified_and_sized(official):
    model = load_model(official.roots[0] / "parts" / "3001.dat", official, cache=False)
    lo, hi = model.mesh.bounds()
    assert np.allclose(hi - lo, [80, 40, 28])  # 2x4 brick: 24 LDU tall plus a 4 LDU stud
    assert model.mesh.tri_certified.all()
    assert model.mesh.tri_detail.any()


@pytest.mark.slow
def test_battlefield_triangles_agree_with_ldraw2mesh(official):
    if not BENCH.exists():
        pytest.skip(f"{BENCH} is not here")
    ldraw2mesh = pytest.importorskip("ldraw2mesh", reason="the benchmark peer is an optional extra")
    from ldraw2mesh.scene import build_jobs

    ours = load_model(BENCH, official, cache=False).triangle_count()
    scene = ldraw2mesh.load_scene(str(BENCH), ldraw_library=str(official.roots[0]), scale=1.0)
    theirs = sum(j.triangles.shape[0] * j.transforms.shape[0] for j in build_jobs(scene))
    assert abs(ours - theirs) <= 0.01 * theirs
