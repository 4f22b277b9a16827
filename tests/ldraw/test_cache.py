"""The persistent part cache: content keyed, invalidated on change, shared between processes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from bow3d.ldraw import PartCache, default_cache_dir, load_model
from bow3d.ldraw import Library
from tests.conftest import write, write_library


def test_second_load_hits_and_gives_the_same_mesh(tmp_path, library, cache):
    path = write(tmp_path / "m.ldr", "1 4 0 0 0 1 0 0 0 1 0 0 0 1 brickstud.dat\n")
    first = load_model(path, library, cache=cache)
    second = load_model(path, library, cache=PartCache(cache.directory.parent))
    assert first.cache_hits == 0 and second.cache_hits == 1
    assert np.array_equal(first.mesh.positions, second.mesh.positions)
    assert np.array_equal(first.mesh.tri_detail, second.mesh.tri_detail)


def test_changed_subfile_invalidates(tmp_path, library, cache):
    path = write(tmp_path / "m.ldr", "1 4 0 0 0 1 0 0 0 1 0 0 0 1 brickstud.dat\n")
    load_model(path, library, cache=cache)
    stud = library.roots[0] / "p" / "stud.dat"
    stud.write_text(stud.read_text() + "3 16 0 -4 0 0 -4 -6 -6 -4 0\n")
    again = load_model(path, library, cache=PartCache(cache.directory.parent))
    assert again.cache_hits == 0 and again.triangle_count() == 14


def test_part_with_a_missing_subfile_is_not_cached(tmp_path, cache):
    # The cache key covers the files that were read, not the ones that were not there: a part
    # drawn with a placeholder must be flattened again once the library gains the file.
    root = write_library(tmp_path / "ldraw")
    (root / "parts" / "holder.dat").write_text("0 Holder\n0 !LDRAW_ORG Part\n"
                                               "1 16 0 0 0 1 0 0 0 1 0 0 0 1 later.dat\n")
    path = write(tmp_path / "m.ldr", "1 4 0 0 0 1 0 0 0 1 0 0 0 1 holder.dat\n")
    first = load_model(path, Library([root]), cache=cache)
    assert any("later.dat" in d.message for d in first.diagnostics)
    (root / "parts" / "later.dat").write_text((root / "parts" / "box.dat").read_text())
    again = load_model(path, Library([root]), cache=PartCache(cache.directory.parent))
    assert again.cache_hits == 0 and not again.diagnostics and again.triangle_count() == 12
    third = load_model(path, Library([root]), cache=PartCache(cache.directory.parent))
    assert third.cache_hits == 1


def test_corrupt_entry_is_a_miss(tmp_path, library, cache):
    path = write(tmp_path / "m.ldr", "1 4 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n")
    load_model(path, library, cache=cache)
    for entry in cache.directory.rglob("*.npz"):
        entry.write_bytes(b"garbage")
    again = load_model(path, library, cache=PartCache(cache.directory.parent))
    assert again.cache_hits == 0 and again.triangle_count() == 12


def test_cache_dir_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("BOW3D_CACHE_DIR", str(tmp_path / "c"))
    assert default_cache_dir() == tmp_path / "c"
    monkeypatch.delenv("BOW3D_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == tmp_path / "xdg" / "bow3d"


def test_two_processes_share_the_cache(tmp_path, library):
    path = write(tmp_path / "m.ldr", "1 4 0 0 0 1 0 0 0 1 0 0 0 1 brickstud.dat\n")
    code = (f"from bow3d.ldraw import load_model, Library; from pathlib import Path; "
            f"m = load_model({str(path)!r}, Library([Path({str(library.roots[0])!r})])); "
            f"print(m.triangle_count())")
    env = dict(os.environ, BOW3D_CACHE_DIR=str(tmp_path / "shared"))
    procs = [subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, text=True)
             for _ in range(3)]
    assert [p.communicate(timeout=60)[0].strip() for p in procs] == ["13"] * 3
    assert not list(Path(tmp_path / "shared").rglob("*.tmp"))
