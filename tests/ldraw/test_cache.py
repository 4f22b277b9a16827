"""The persistent part cache: content keyed, invalidated on change, shared between processes, healing."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bow3d.ldraw import Library, PartCache, default_cache_dir, load_model
from bow3d.ldraw.cache import CACHE_FORMAT
from tests.conftest import write, write_library


def test_second_load_hits_and_gives_the_same_mesh(tmp_path, library, cache):
    path = write(tmp_path / "m.ldr", "1 4 0 0 0 1 0 0 0 1 0 0 0 1 brickstud.dat\n")
    first = load_model(path, library, cache=cache)
    second = load_model(path, library, cache=PartCache(cache.directory.parent))
    assert first.cache_hits == 0 and second.cache_hits == 1
    assert np.array_equal(first.mesh.positions, second.mesh.positions)
    assert np.array_equal(first.mesh.tri_detail, second.mesh.tri_detail)


def test_a_process_decodes_an_entry_once_and_shares_it_read_only(tmp_path, library, cache, monkeypatch):
    """Issue 37: the figures of a scene share most of their parts, and each model's load unzipped the same entries
    again. Now an entry is decoded once a process (while its file is unchanged) and its arrays are read-only."""
    import bow3d.ldraw.cache as cache_module

    decoded = []
    real = cache_module._decode
    monkeypatch.setattr(cache_module, "_decode", lambda data, key: decoded.append(key) or real(data, key))
    monkeypatch.setattr(cache_module, "_DECODED", cache_module._Decoded(cache_module.DECODED_BYTES))
    one = write(tmp_path / "one.ldr", "1 4 0 0 0 1 0 0 0 1 0 0 0 1 brickstud.dat\n")
    two = write(tmp_path / "two.ldr", "1 1 40 0 0 1 0 0 0 1 0 0 0 1 brickstud.dat\n")
    load_model(one, library, cache=cache)                       # flattened and written
    first = load_model(one, library, cache=PartCache(cache.directory.parent))
    second = load_model(two, library, cache=PartCache(cache.directory.parent))
    assert first.cache_hits == second.cache_hits == 1 and len(decoded) == 1
    part = next(iter(second.parts.values()))
    assert not part.positions.flags.writeable and not part.triangles.flags.writeable
    for entry in cache.directory.rglob("*.npz"):               # a rewritten entry is read again
        entry.write_bytes(entry.read_bytes())
        os.utime(entry, ns=(entry.stat().st_atime_ns, entry.stat().st_mtime_ns + 10**9))
    assert load_model(two, library, cache=PartCache(cache.directory.parent)).cache_hits == 1 and len(decoded) == 2
    small = cache_module._Decoded(1)                            # bounded: past its bytes, the oldest leave
    monkeypatch.setattr(cache_module, "_DECODED", small)
    load_model(two, library, cache=PartCache(cache.directory.parent))
    assert small.nbytes <= 1 and not small.entries


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


# -- a cache that heals (the Trust issue): any unusable entry is a miss, removed and written again --

def _entry(cache: PartCache) -> Path:
    entries = sorted(cache.directory.rglob("*.npz"))
    assert len(entries) == 1
    return entries[0]


def _rewrite(entry: Path, **changes) -> None:
    """Write the entry again with some members replaced (a well-formed zip with wrong content)."""
    with np.load(entry, allow_pickle=False) as data:
        members = {name: data[name] for name in data.files}
    members.update(changes)
    entry.unlink()
    with open(entry, "wb") as handle:
        np.savez(handle, **members)


def _flip_array_byte(entry: Path) -> None:
    """Change one byte of the positions' data; the zip's CRC no longer matches."""
    import zipfile

    with zipfile.ZipFile(entry) as archive:
        info = archive.getinfo("positions.npy")
    raw = bytearray(entry.read_bytes())
    name_len, extra_len = int.from_bytes(raw[info.header_offset + 26:info.header_offset + 28], "little"), \
        int.from_bytes(raw[info.header_offset + 28:info.header_offset + 30], "little")
    raw[info.header_offset + 30 + name_len + extra_len + info.file_size - 1] ^= 0x55
    entry.write_bytes(bytes(raw))


def _fifo(entry: Path) -> None:
    entry.unlink()
    os.mkfifo(entry)


def _folder(entry: Path) -> None:
    entry.unlink()
    (entry / "inside").mkdir(parents=True)


def _link_out(entry: Path) -> None:
    outside = entry.parents[3] / "elsewhere.npz"
    outside.write_bytes(entry.read_bytes())
    entry.unlink()
    entry.symlink_to(outside)


def _shard_is_a_file(entry: Path) -> None:
    import shutil

    shutil.rmtree(entry.parent)
    entry.parent.write_bytes(b"not a folder")


DAMAGE = {
    "truncated": lambda e: e.write_bytes(e.read_bytes()[: e.stat().st_size // 2]),
    "bad crc": _flip_array_byte,
    "manifest is a list": lambda e: _rewrite(e, manifest=np.array(json.dumps([1, 2, 3]))),
    "manifest deps not lists": lambda e: _rewrite(
        e, manifest=np.array(json.dumps({"format": CACHE_FORMAT, "deps": [["/x", "big", None]]}))),
    "indices out of range": lambda e: _rewrite(e, triangles=np.full((12, 3), 10**6, np.int32)),
    "negative indices": lambda e: _rewrite(e, edges=np.full((1, 2), -7, np.int32)),
    "coordinates not finite": lambda e: _rewrite(e, positions=np.full((8, 3), np.nan, np.float32)),
    "wrong dtype": lambda e: _rewrite(e, positions=np.zeros((8, 3), np.float64)),
    "lengths disagree": lambda e: _rewrite(e, tri_colour=np.zeros(3, np.int32)),
    "array missing": lambda e: _rewrite(e, extra=np.zeros(1)),
    "empty file": lambda e: e.write_bytes(b""),
    "a named pipe": _fifo,
    "a folder": _folder,
    "a link out of the cache": _link_out,
    "shard is a file": _shard_is_a_file,
}


@pytest.mark.parametrize("damage", DAMAGE)
def test_an_unusable_entry_is_a_miss_and_is_written_again(tmp_path, library, cache, caplog, damage):
    from tests.ldraw.test_safety import deadline

    path = write(tmp_path / "m.ldr", "1 4 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n")
    load_model(path, library, cache=cache)
    entry = _entry(cache)
    DAMAGE[damage](entry)
    caplog.set_level(logging.DEBUG, logger="bow3d.ldraw.cache")
    with deadline(5):
        again = load_model(path, library, cache=PartCache(cache.directory.parent))
    assert again.cache_hits == 0 and again.triangle_count() == 12 and not again.diagnostics
    mesh = again.mesh
    assert np.isfinite(mesh.positions).all() and mesh.triangles.max() < len(mesh.positions)
    healed = load_model(path, library, cache=PartCache(cache.directory.parent))
    assert healed.cache_hits == 1 and np.array_equal(healed.mesh.positions, mesh.positions)
    assert entry.is_file() and not entry.is_symlink()
    if damage not in ("shard is a file",):
        assert any("unusable" in r.getMessage() and "removed" in r.getMessage() for r in caplog.records)


def test_a_dependency_that_became_a_device_is_a_miss(tmp_path, library, cache):
    path = write(tmp_path / "m.ldr", "1 4 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n")
    load_model(path, library, cache=cache)
    entry = _entry(cache)
    with np.load(entry, allow_pickle=False) as data:
        manifest = json.loads(str(data["manifest"]))
    manifest["deps"][0][0] = "/dev/zero"  # same size recorded as 0: an old reader hashed /dev/zero forever
    manifest["deps"][0][1] = 0
    _rewrite(entry, manifest=np.array(json.dumps(manifest)))
    again = load_model(path, library, cache=PartCache(cache.directory.parent))
    assert again.cache_hits == 0 and again.triangle_count() == 12


def test_another_parts_entry_under_this_name_is_a_miss(tmp_path, library, cache):
    path = write(tmp_path / "m.ldr", "1 4 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n1 4 0 0 0 1 0 0 0 1 0 0 0 1 wrapper.dat\n")
    load_model(path, library, cache=cache)
    box, wrapper = sorted(cache.directory.rglob("*.npz"), key=lambda p: p.stat().st_size, reverse=True)
    box.write_bytes(wrapper.read_bytes())  # a valid entry, of the other part (its files are unchanged)
    again = load_model(path, library, cache=PartCache(cache.directory.parent))
    assert again.cache_hits == 1 and again.triangle_count() == 13
