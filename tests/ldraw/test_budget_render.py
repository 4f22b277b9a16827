"""What is built of a model is bounded by its load's budget (issue 32): drawing it and measuring sight on it
are estimated from the distinct parts and refused before anything is built (`max_build_mib`), and distinct
missing parts are counted (`max_missing_parts`). Before: `render` of 10^6 plates ended in MemoryError at
2.6 GB, 10^6 distinct missing parts kept `inspect` busy for 103 s at 1.7 GB."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from bow3d.ldraw import BudgetExceeded, Library, LoadBudget, load_model
from bow3d.ldraw.budget import DEFAULT_MAX_MISSING_PARTS
from bow3d.world.raycast import sight_mesh
from tests.conftest import gallery_copy, write

IDENTITY = "1 0 0 0 1 0 0 0 1"
MEMORY_BOUND = 3 * 2**30  # address space of the CLI runs: the old code ran out of it, the refusal needs a fraction
BENCH = Path(__file__).resolve().parents[3] / "shared" / "bench" / "battlefield-5k.ldr"


def slab(triangles: int) -> str:
    """A part of `triangles` small flat triangles (no studs: all of them are sight triangles too)."""
    return "0 Slab\n0 Name: slab.dat\n0 !LDRAW_ORG Part\n" + "".join(
        f"3 16 {i % 100} 0 {i // 100} {i % 100 + 1} 0 {i // 100} {i % 100} 0 {i // 100 + 1}\n"
        for i in range(triangles))


def field(folder: Path, rows: int, per_row: int, triangles: int) -> Path:
    """field.mpd beside slab.dat: `rows` uses of a row of `per_row` slabs, each of `triangles` triangles."""
    write(folder / "slab.dat", slab(triangles))
    text = "0 FILE field.mpd\n" + "".join(f"1 16 0 0 {20 * r} {IDENTITY} row.ldr\n" for r in range(rows))
    text += "0 FILE row.ldr\n" + "".join(f"1 16 {20 * i} 0 0 {IDENTITY} slab.dat\n" for i in range(per_row))
    return write(folder / "field.mpd", text)


def run_bounded(*args: str) -> subprocess.CompletedProcess:
    """`python -m bow3d ARGS` in at most MEMORY_BOUND of address space (the timeout is a safety net only)."""
    def bound() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BOUND, MEMORY_BOUND))

    return subprocess.run([sys.executable, "-m", "bow3d", *args], capture_output=True, text=True, timeout=300,
                          preexec_fn=bound, env={**os.environ, "PYTHONFAULTHANDLER": ""})


def assert_refused(result: subprocess.CompletedProcess, *words: str) -> None:
    assert result.returncode == 2, result.stderr[-2000:]
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    for word in words:
        assert word in result.stderr, result.stderr


# -- drawing ------------------------------------------------------------------------------------

def test_drawing_is_checked_against_the_build_budget_exactly(tmp_path, library):
    path = field(tmp_path, 2, 5, 500)  # 10 slabs, 5,000 triangles: 1,250,000 bytes, 2 MiB rounded up
    model = load_model(path, library, cache=False, budget=LoadBudget(max_build_mib=2))
    model.check_drawing()
    tight = load_model(path, library, cache=False, budget=LoadBudget(max_build_mib=1))
    with pytest.raises(BudgetExceeded) as caught:
        tight.check_drawing()
    error = caught.value
    assert (error.limit, error.count, error.allowed) == ("max_build_mib", 2, 1)
    message = str(error)
    assert message.startswith(f"{path}: needs 2 MiB of memory to draw 5,000 triangles, more than the budget of 1")
    assert "slab.dat (x10)" in message and "LoadBudget(max_build_mib=2)" in message and "--max-instances" in message


def test_render_still_refuses_before_it_opens_a_renderer(tmp_path, library):
    pytest.importorskip("panda3d")
    from bow3d.view.output.still import render_still

    model = load_model(field(tmp_path, 2, 5, 500), library, cache=False, budget=LoadBudget(max_build_mib=1))
    out = tmp_path / "out.png"
    with pytest.raises(BudgetExceeded, match="to draw 5,000 triangles"):
        render_still(model, out, (64, 64))
    assert not out.exists()


def test_the_viewer_and_play_scene_graph_refuses_before_it_builds(tmp_path, library):
    """bow3d view, play and setup draw through attach_model: the same estimate stops them before any batch."""
    pytest.importorskip("panda3d")
    from panda3d.core import NodePath

    from bow3d.view.graph.scene_graph import attach_model

    model = load_model(field(tmp_path, 2, 5, 500), library, cache=False, budget=LoadBudget(max_build_mib=1))
    parent = NodePath("root")
    with pytest.raises(BudgetExceeded, match="to draw 5,000 triangles"):
        attach_model(parent, model)
    assert parent.getNumChildren() == 0
    roomy = load_model(field(tmp_path, 2, 5, 500), library, cache=False, budget=LoadBudget(max_build_mib=2))
    assert attach_model(parent, roomy)[1] == 5_000


def test_the_default_budget_derives_from_max_instances_with_a_floor():
    assert LoadBudget().max_build_mib == 2_000_000 * 1536 // 2**20 == 2929
    assert LoadBudget(max_instances=10).max_build_mib == 256  # small models always draw
    assert LoadBudget(max_instances=4_000_000).max_build_mib == 5859


def test_render_of_a_field_too_big_to_draw_is_refused_by_the_default_budget(tmp_path):
    """40 million triangles in 20,000 instances, well inside the load budget (100 million triangles): the old
    code ran out of memory building the draw batches; now exit 2 before any is built."""
    path = field(tmp_path, 200, 100, 2000)
    out = tmp_path / "field.png"
    result = run_bounded("render", str(path), "-o", str(out))
    assert_refused(result, str(path), "MiB of memory to draw 40,000,000 triangles", "more than the budget of 2,929",
                   "slab.dat (x20,000)", "--max-instances")
    assert not out.exists()


# -- scenes: the world's sight geometry and the scene's picture ------------------------------------

def big_gallery(folder: Path) -> Path:
    """The LOS gallery whose battlefield also holds 20,000 slabs of 2,000 triangles (a sub-model beside it)."""
    write(folder / "slab.dat", slab(2000))
    write(folder / "row.ldr", "".join(f"1 16 {20 * i} 0 0 {IDENTITY} slab.dat\n" for i in range(100)))
    rows = "".join(f"1 16 0 -400 {20 * r} {IDENTITY} row.ldr\n" for r in range(200))
    return gallery_copy(folder, battlefield=lambda text: text + rows)


def test_sight_geometry_is_checked_before_it_is_built(tmp_path, library):
    model = load_model(field(tmp_path, 2, 5, 500), library, cache=False, budget=LoadBudget(max_build_mib=1))
    with pytest.raises(BudgetExceeded, match=r"needs 2 MiB of memory to build its world \(5,000 sight triangles\)"):
        sight_mesh(model)


def test_los_on_a_battlefield_too_big_to_measure_is_refused(tmp_path):
    scene = big_gallery(tmp_path)
    result = run_bounded("los", str(scene), "open-firer", "open-target")
    assert_refused(result, "los-gallery.ldr", "MiB of memory to build its world (40,00", "sight triangles",
                   "more than the budget of 2,929", "slab.dat (x20,000)")


def test_render_of_a_scene_whose_battlefield_is_too_big_to_draw_is_refused(tmp_path):
    scene = big_gallery(tmp_path)
    out = tmp_path / "scene.png"
    result = run_bounded("render", str(scene), "-o", str(out))
    assert_refused(result, "los-gallery.ldr", "MiB of memory to draw 40,", "more than the budget of 2,929")
    assert not out.exists()


def test_the_benchmark_battlefield_still_fits_drawn_with_edges_and_measured(official):
    if not BENCH.is_file():
        pytest.skip(f"no benchmark battlefield at {BENCH}")
    model = load_model(BENCH, official)
    model.check_drawing(edges=True)
    model.check_sight(keep_studs=True)


# -- missing parts -------------------------------------------------------------------------------

def missing_parts(count: int) -> str:
    return "".join(f"1 4 0 0 0 {IDENTITY} nosuch{i}.dat\n" for i in range(count))


def test_distinct_missing_parts_are_counted_exactly(tmp_path, library):
    path = write(tmp_path / "m.ldr", missing_parts(300) + missing_parts(300))  # each name twice: 300 distinct
    model = load_model(path, library, cache=False, budget=LoadBudget(max_missing_parts=300))
    assert len(model.missing_files) == 300 and len(model.missing_parts) == 600
    with pytest.raises(BudgetExceeded) as caught:
        load_model(path, library, cache=False, budget=LoadBudget(max_missing_parts=299))
    error = caught.value
    assert (error.limit, error.count, error.allowed) == ("max_missing_parts", 300, 299)
    assert str(error).startswith(f"{path}: needs 300 distinct missing parts (found so far; m.ldr names 300 distinct "
                                 "files), more than the budget of 299")
    assert "LoadBudget(max_missing_parts=300)" in str(error) and "bow3d library install" in str(error)


def test_missing_files_inside_a_part_are_counted_too(tmp_path, library):
    write(tmp_path / "holey.dat", "0 Holey\n0 !LDRAW_ORG Part\n" + missing_parts(50))
    path = write(tmp_path / "m.ldr", f"1 4 0 0 0 {IDENTITY} holey.dat\n")
    with pytest.raises(BudgetExceeded, match="needs 41 distinct missing parts .found so far; holey.dat names 50"):
        load_model(path, library, cache=False, budget=LoadBudget(max_missing_parts=40))


def test_inspect_of_100000_distinct_missing_parts_is_refused_by_the_default_budget(tmp_path):
    """The old code searched, diagnosed and bounded every one of them (10^6: 103 s, 1.7 GB, exit 0); now it
    stops at the first past the default budget."""
    path = write(tmp_path / "missing.ldr", missing_parts(100_000))
    result = run_bounded("inspect", str(path), "--no-cache")
    assert_refused(result, str(path), f"needs {DEFAULT_MAX_MISSING_PARTS + 1:,} distinct missing parts",
                   "missing.ldr names 100,000 distinct files", f"more than the budget of {DEFAULT_MAX_MISSING_PARTS:,}",
                   "LoadBudget(max_missing_parts=")


def test_a_library_carries_the_budgets_to_every_load(tmp_path, library):
    small = Library(library.roots, budget=LoadBudget(max_missing_parts=5, max_build_mib=1))
    with pytest.raises(BudgetExceeded, match="distinct missing parts"):
        load_model(write(tmp_path / "m.ldr", missing_parts(6)), small, cache=False)
    model = load_model(field(tmp_path, 2, 5, 500), small, cache=False)
    with pytest.raises(BudgetExceeded, match="to draw"):
        model.check_drawing()
