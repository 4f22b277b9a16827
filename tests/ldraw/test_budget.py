"""Bounded loading (the Trust issue): sub-models counted once each, a budget of instances,
triangles, primitives per part and bytes read, and an expansion that matches a plain walk."""

from __future__ import annotations

import random
import time

import numpy as np
import pytest

from bow3d.errors import LDrawError, UserInputError
from bow3d.ldraw import BudgetExceeded, Library, LoadBudget, load_model
from bow3d.ldraw.mesh import LDRAW_TO_WORLD
from bow3d.ldraw.parse import parse_document
from tests.conftest import write

IDENTITY = "1 0 0 0 1 0 0 0 1"


def nesting(levels: int, uses: int, leaf: str = "box.dat", ext: str = "ldr") -> dict[str, str]:
    """Files level0 .. level{levels-1}, each using the next `uses` times; the last uses `leaf`."""
    files = {}
    for k in range(levels):
        child = f"level{k + 1}.{ext}" if k + 1 < levels else leaf
        org = "0 !LDRAW_ORG Part\n" if ext == "dat" else ""
        files[f"level{k}.{ext}"] = f"0 Level {k}\n{org}" + "".join(
            f"1 16 {20 * i} 0 0 {IDENTITY} {child}\n" for i in range(uses))
    return files


def test_ten_files_each_using_the_next_ten_times_are_refused_in_milliseconds(tmp_path, library):
    for name, text in nesting(10, 10).items():
        write(tmp_path / name, text)
    started = time.perf_counter()
    with pytest.raises(BudgetExceeded) as caught:
        load_model(tmp_path / "level0.ldr", library, cache=False)
    assert time.perf_counter() - started < 2.0
    error = caught.value
    assert error.count == 10**10 and error.allowed == 2_000_000 and error.limit == "max_instances"
    message = str(error)
    assert "level0.ldr" in message and "10,000,000,000 part instances" in message and "--max-instances" in message
    assert "level1.ldr (x10) -> level2.ldr (x10)" in message and "box.dat (x10)" in message
    assert isinstance(error, LDrawError) and isinstance(error, UserInputError)  # exit code 2


def test_the_same_nesting_as_mpd_blocks_and_as_parts(tmp_path, library):
    blocks = "".join(f"0 FILE {name}\n{text}" for name, text in nesting(10, 10).items())
    with pytest.raises(BudgetExceeded, match="10,000,000,000 part instances"):
        load_model(write(tmp_path / "nest.mpd", blocks), library, cache=False)
    # as parts, the flattener multiplies geometry: it is the per-part budget that stops it
    for name, text in nesting(10, 10, ext="dat").items():
        write(tmp_path / name, text)
    with pytest.raises(BudgetExceeded, match="in one part") as caught:
        load_model(write(tmp_path / "m.ldr", f"1 4 0 0 0 {IDENTITY} level0.dat\n"), library, cache=False)
    assert caught.value.limit == "max_part_primitives" and "level0.dat" in str(caught.value)
    # many distinct parts, each under the per-part budget, not together
    for k in range(4):
        write(tmp_path / f"big{k}.dat", f"0 Big {k}\n0 !LDRAW_ORG Part\n1 16 {k} 0 0 {IDENTITY} level6.dat\n")
    text = "".join(f"1 4 0 0 0 {IDENTITY} big{k}.dat\n" for k in range(4))
    path = write(tmp_path / "many.ldr", text)
    assert len(load_model(path, library, cache=False).instances) == 4
    with pytest.raises(BudgetExceeded, match="in its distinct parts") as caught:
        load_model(path, library, cache=False, budget=LoadBudget(max_distinct_primitives=300_000))
    assert caught.value.count == 390_000  # three parts of 10^4 boxes of 13 primitives


def test_budget_is_exact_at_the_limit(tmp_path, library):
    for name, text in nesting(3, 4).items():
        write(tmp_path / name, text)
    model = load_model(tmp_path / "level0.ldr", library, cache=False, budget=LoadBudget(max_instances=64))
    assert len(model.instances) == 64
    with pytest.raises(BudgetExceeded, match="needs 64 part instances, more than the budget of 63"):
        load_model(tmp_path / "level0.ldr", library, cache=False, budget=LoadBudget(max_instances=63))
    # the library carries a budget too (what `--max-instances` sets)
    small = Library(library.roots, budget=LoadBudget(max_instances=10))
    with pytest.raises(BudgetExceeded, match="--max-instances 64"):
        load_model(tmp_path / "level0.ldr", small, cache=False)


def test_triangle_and_byte_budgets(tmp_path, library):
    path = write(tmp_path / "m.ldr", "".join(f"1 4 {20 * i} 0 0 {IDENTITY} box.dat\n" for i in range(10)))
    assert load_model(path, library, cache=False, budget=LoadBudget(max_triangles=120)).triangle_count() == 120
    with pytest.raises(BudgetExceeded, match="needs 120 triangles, more than the budget of 119"):
        load_model(path, library, cache=False, budget=LoadBudget(max_triangles=119))
    # by default the triangle budget follows the instance budget: 50 per instance
    assert LoadBudget(max_instances=2).max_triangles == 100 and LoadBudget().max_triangles == 100_000_000
    many = write(tmp_path / "many.dat", "0 Many\n0 !LDRAW_ORG Part\n" + "3 16 0 0 0 1 0 0 0 0 1\n" * 60)
    one = write(tmp_path / "one.ldr", f"1 4 0 0 0 {IDENTITY} {many.name}\n")
    with pytest.raises(BudgetExceeded, match=r"needs 60 triangles.*\(--max-instances 2, which allows 50"):
        load_model(one, library, cache=False, budget=LoadBudget(max_instances=1))
    # four big files pass the per-file cap one by one, not together
    names = [f"big{i}.ldr" for i in range(4)]
    for name in names:
        write(tmp_path / name, "0 padding " + "x" * 300_000 + f"\n1 4 0 0 0 {IDENTITY} box.dat\n")
    path = write(tmp_path / "four.ldr", "".join(f"1 16 0 0 0 {IDENTITY} {n}\n" for n in names))
    load_model(path, library, cache=False, budget=LoadBudget(max_bytes_read=2_000_000))
    with pytest.raises(BudgetExceeded, match=r"bytes of LDraw text.*big\d\.ldr \(0\.3 MiB\)") as caught:
        load_model(path, library, cache=False, budget=LoadBudget(max_bytes_read=1_000_000))
    assert "four.ldr" in str(caught.value)


@pytest.mark.parametrize("value", [0, -1, True, 2.5, "10"])
def test_budget_values_are_checked(value):
    with pytest.raises(LDrawError, match="at least 1"):
        LoadBudget(max_instances=value)


def test_groups_are_not_quadratic_in_missing_parts(tmp_path, library):
    # 40,000 distinct missing parts: one sort, not one scan per part (27 s before); more than the default
    # budget of distinct missing parts (10,000, see test_budget_render.py), allowed here
    text = "".join(f"1 4 {i} 0 0 {IDENTITY} gone{i}.dat\n" for i in range(40_000))
    started = time.perf_counter()
    model = load_model(write(tmp_path / "m.ldr", text), library, cache=False,
                       budget=LoadBudget(max_missing_parts=40_000))
    groups = model.groups()
    assert time.perf_counter() - started < 10.0
    assert len(groups) == 40_000 and len(model.missing_parts) == 40_000
    assert model.missing_files[:2] == ["gone0.dat", "gone1.dat"] and not model.is_complete


# -- the expansion equals a plain depth-first walk -----------------------------------------------

def random_mpd(rng: random.Random, blocks: int) -> str:
    """An MPD whose blocks use parts and later blocks (a DAG), with colours, mirrors and INVERTNEXT."""
    out = []
    for b in range(blocks):
        out.append(f"0 FILE b{b}.ldr\n0 Block {b}\n")
        if rng.random() < 0.2:
            out.append("3 16 0 0 0 10 0 0 0 0 10\n")  # loose geometry
        for _ in range(rng.randint(0, 5)):
            name = rng.choice(["box.dat", "brickstud.dat", "gone.dat"] + [f"b{c}.ldr" for c in range(b + 1, blocks)])
            colour = rng.choice([16, 16, 4, 14, 1])
            a = rng.choice([1, -1, 2])
            if rng.random() < 0.2:
                out.append("0 BFC INVERTNEXT\n")
            out.append(f"1 {colour} {rng.randint(-99, 99)} {rng.randint(-9, 9)} {rng.randint(-99, 99)} "
                       f"0 0 {a} 0 1 0 1 0 0 {name}\n")
    return "".join(out)


def naive_walk(text: str) -> list[tuple]:
    """The reference expansion: recursion per reference, as a reader without any reuse would do."""
    blocks = parse_document(text, "r.mpd").submodels()
    out = []

    def walk(f, matrix, colour, inverted, path):
        path = path + (f.name,)
        if f.triangles.shape[0]:
            out.append((f"{f.name} (loose geometry)".lower(), colour, matrix, inverted, path))
        for ref in f.refs:
            m = np.array([[*ref.matrix[3:6], ref.matrix[0]], [*ref.matrix[6:9], ref.matrix[1]],
                          [*ref.matrix[9:12], ref.matrix[2]], [0, 0, 0, 1]])
            c = colour if ref.colour == 16 else ref.colour
            child = blocks.get(ref.name.lower())
            if child is None:
                out.append((ref.name, c, matrix @ m, inverted ^ ref.invert, path))
            else:
                walk(child, matrix @ m, c, inverted ^ ref.invert, path)

    walk(next(iter(blocks.values())), np.eye(4), 16, False, ())
    return out


@pytest.mark.parametrize("seed", range(8))
def test_expansion_matches_a_plain_walk(tmp_path, library, seed):
    text = random_mpd(random.Random(seed), 7)
    model = load_model(write(tmp_path / "r.mpd", text), library, cache=False)
    expected = naive_walk(text)
    assert len(model.instances) == len(expected)
    for got, (name, colour, matrix, inverted, path) in zip(model.instances, expected):
        assert (got.name, got.colour, got.inverted, got.submodel_path) == (name, colour, inverted, path)
        assert np.allclose(got.transform, LDRAW_TO_WORLD @ matrix)
    assert model.triangle_count() == sum(model.parts[k].triangle_count for k in model.instance_part)


def test_a_sub_model_used_a_thousand_times_a_thousand_times(tmp_path, library):
    # a part placed 10^6 times through a DAG: built from the 1,000-row sub-model, not walked 10^6 times
    row = "0 FILE row.ldr\n" + "".join(f"1 16 {20 * i} 0 0 {IDENTITY} box.dat\n" for i in range(1000))
    field = "0 FILE field.ldr\n" + "".join(f"1 4 0 0 {20 * i} {IDENTITY} row.ldr\n" for i in range(1000))
    started = time.perf_counter()
    model = load_model(write(tmp_path / "field.mpd", field + row), library, cache=False)
    assert time.perf_counter() - started < 10.0
    assert len(model.instances) == 10**6 and model.triangle_count() == 12 * 10**6
    assert np.allclose(model.bounds(), [[-10, -10, 0], [19990, 19990, 24]])
    last = model.instances[-1]
    assert (last.line, last.colour, last.submodel_path) == (2002, 4, ("field.ldr", "row.ldr"))
    assert np.allclose(last.transform[:3, 3], [19980, 19980, 0])
