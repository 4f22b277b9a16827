"""Damaged part-cache entries against `bow3d inspect` (the Trust issue): whatever an entry holds,
the command answers exit code 0 with the right model, and the next run finds the cache healed.

The damage runs in one child process (this file run as a script) with its address space limited
and its own peak memory measured (`run_limited`);
each case is seeded by (SEED, n), so a failure names the exact case to replay:
    python tests/fuzz/test_fuzz_cache.py DIR SEED CASES [FIRST_CASE]
"""

from __future__ import annotations

import io
import json
import os
import random
import sys
import time
import zipfile
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.fuzz.test_fuzz_ldraw import MEMORY_MB, MUTANT_CPU_S, run_limited  # noqa: E402

SEED = 20250102
CASES = 100  # damaged entries (about 4 s on one idle core)
MODEL = "".join(f"1 {c} {20 * i} 0 0 1 0 0 0 1 0 0 0 1 {p}\n"
                for i, (c, p) in enumerate([(4, "3001.dat"), (1, "3003.dat"), (14, "3070b.dat"), (15, "3024.dat")]))


def _npy(array: np.ndarray, header: dict | None = None) -> bytes:
    """An .npy member, optionally with a forged header (shape, dtype) over the real data."""
    out = io.BytesIO()
    np.lib.format.write_array(out, array, allow_pickle=False)
    if header is None:
        return out.getvalue()
    forged = io.BytesIO()
    np.lib.format.write_array_header_1_0(forged, {"descr": array.dtype.str, "fortran_order": False,
                                                   "shape": array.shape, **header})
    return forged.getvalue() + array.tobytes()


def _members(entry: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(entry) as archive:
        return {info.filename: archive.read(info) for info in archive.infolist()}


def _write_zip(entry: Path, members: dict[str, bytes], compress=zipfile.ZIP_STORED) -> None:
    entry.unlink()
    with zipfile.ZipFile(entry, "w", compression=compress) as archive:
        for name, data in members.items():
            archive.writestr(name, data)


_BOMB: list[bytes] = []


def _zip_bomb() -> bytes:
    """An entry whose positions member is 256 MB of zeros deflated to a few hundred KB (built once)."""
    if not _BOMB:
        out = io.BytesIO()
        with (zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive,
              archive.open("positions.npy", "w", force_zip64=True) as member):
            member.write(np.lib.format.magic(1, 0))
            zeros = bytes(1 << 20)
            for _ in range(256):
                member.write(zeros)
        _BOMB.append(out.getvalue())
    return _BOMB[0]


def damage(entry: Path, rng: random.Random) -> str:
    """Damage one entry in one of many ways; returns what was done."""
    kind = rng.randrange(14)
    raw = bytearray(entry.read_bytes())
    if kind == 0:
        entry.write_bytes(raw[: rng.randrange(len(raw))])
    elif kind == 1:
        for _ in range(rng.choice([1, 3, 50])):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        entry.write_bytes(bytes(raw))
    elif kind == 2:
        at = rng.randrange(len(raw))
        entry.write_bytes(bytes(raw[:at] + bytes(rng.randrange(256) for _ in range(rng.randint(1, 64))) + raw[at:]))
    elif kind == 3:  # a manifest of another shape
        members = _members(entry)
        value = rng.choice([[1, 2], 7, None, "x", {"format": "bow3d-part-cache/3"},
                            {"format": "bow3d-part-cache/3", "deps": [["/dev/zero", 0, 0, "x"]] * 3},
                            {"format": "bow3d-part-cache/3", "deps": [[1, 2, 3, 4]]},
                            {"format": "bow3d-part-cache/3", "deps": [["/x", 1, 2, "h"]] * 100_000}])
        members["manifest.npy"] = _npy(np.array(json.dumps(value)))
        _write_zip(entry, members)
    elif kind == 4:  # an array of another dtype, shape or range
        members = _members(entry)
        name = rng.choice(["positions.npy", "triangles.npy", "edges.npy", "studs.npy", "tri_colour.npy"])
        members[name] = _npy(rng.choice([np.zeros((5, 3), np.float64), np.full((4, 3), 10**6, np.int32),
                                         np.full((2, 3), -1, np.int32), np.zeros(7, np.int32),
                                         np.full((3, 3), np.inf, np.float32), np.zeros((0, 4), np.int32)]))
        _write_zip(entry, members)
    elif kind == 5:  # a header that promises far more than the data (an allocation bomb)
        members = _members(entry)
        members["positions.npy"] = _npy(np.zeros((4, 3), np.float32), {"shape": (10**12, 3)})
        _write_zip(entry, members)
    elif kind == 6:  # a compressed member that inflates to 256 MB
        entry.write_bytes(_zip_bomb())
    elif kind == 7:
        entry.unlink()
        os.mkfifo(entry)
    elif kind == 8:
        entry.unlink()
        entry.symlink_to(rng.choice(["/dev/zero", "/dev/urandom", "/etc/hostname", "/nonexistent"]))
    elif kind == 9:
        entry.unlink()
        entry.mkdir()
        (entry / "x").write_bytes(b"x")
    elif kind == 10:
        entry.write_bytes(b"")
    elif kind == 11:  # a member missing or one too many
        members = _members(entry)
        if rng.random() < 0.5:
            del members[rng.choice(sorted(members))]
        else:
            members["extra.npy"] = _npy(np.zeros(3))
        _write_zip(entry, members)
    elif kind == 12:  # a whole other entry's bytes (a part that is not this one)
        others = [p for p in entry.parent.parent.rglob("*.npz") if p != entry and p.is_file()]
        if others:
            entry.write_bytes(rng.choice(others).read_bytes())
    else:  # the shard folder is a file
        for sibling in entry.parent.iterdir():
            sibling.unlink() if not sibling.is_dir() or sibling.is_symlink() else None
        entry.parent.rmdir()
        entry.parent.write_bytes(b"x")
    return ["truncated", "flipped bytes", "inserted bytes", "manifest", "array", "allocation bomb", "zip bomb",
            "fifo", "link", "folder", "empty", "members", "other entry", "shard is a file"][kind]


def _inspect(path: Path) -> tuple[int, dict, str]:
    from bow3d.cli import main

    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["inspect", str(path), "--json"])
    return code, (json.loads(out.getvalue()) if code == 0 else {}), err.getvalue()


def drive(folder: Path, seed: int, cases: int, first: int = 0) -> dict:
    """Damage `cases` entries, one at a time; the failing cases (wrong answer, no healing)."""
    os.environ["BOW3D_CACHE_DIR"] = str(folder / "cache")
    model = folder / "m.ldr"
    model.write_text(MODEL)
    code, expected, _ = _inspect(model)
    assert code == 0 and expected["cache_hits"] == 0, "the first load failed"
    parts = len(expected["part_counts"])
    failures: list[dict] = []
    for n in range(first, first + cases):
        rng = random.Random(f"{seed}/{n}")
        entries = sorted(p for p in (folder / "cache").rglob("*.npz") if p.is_file() and not p.is_symlink())
        done = damage(rng.choice(entries), rng) if entries else "nothing to damage"
        case_started = time.process_time()
        code, got, err = _inspect(model)
        code_again, healed, err_again = _inspect(model)
        took = time.process_time() - case_started
        if code != 0 or got.get("triangles") != expected["triangles"] or took > 2 * MUTANT_CPU_S or code_again != 0 \
                or healed.get("cache_hits") != parts:
            failures.append({"case": n, "damage": done, "code": code, "hits_after": healed.get("cache_hits"),
                             "cpu_s": round(took, 2), "error": (err + err_again)[-400:]})
    return {"cases": cases, "failures": failures[:5]}


def test_fuzz_damaged_cache_entries_heal(tmp_path):
    result = run_limited([sys.executable, __file__, str(tmp_path), str(SEED), str(CASES)], tmp_path)
    assert result.code == 0, f"the fuzzing child died: {result}"
    report = json.loads(result.out.splitlines()[-1])
    assert not report["failures"], report
    assert report["cases"] == CASES and result.peak_mb < MEMORY_MB, f"{result.peak_mb:.0f} MB: {report}"


if __name__ == "__main__":
    folder_arg, seed_arg, cases_arg = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    first_arg = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    print(json.dumps(drive(folder_arg, seed_arg, cases_arg, first_arg)))
