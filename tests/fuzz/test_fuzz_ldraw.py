"""Hostile LDraw input against `bow3d inspect` (the Trust issue): every case answers exit code 0 or
2, never an internal error (1), a crash (139), a hang, or more than MEMORY_MB of memory.

Each named case (one per failure the issue lists) runs `python -m bow3d inspect` in a child process
with its address space and CPU time limited, its own peak memory and CPU time read back. Then a
seeded mutation fuzz runs CASES mutants in one child (this file run as a script):
    python tests/fuzz/test_fuzz_ldraw.py DIR SEED CASES [FIRST_CASE]
Runs are bounded by count, and time by CPU seconds with a hang's margin: a busy machine slows the
wall clock, not the CPU time a case costs.
"""

from __future__ import annotations

import io
import json
import math
import os
import random
import signal
import subprocess
import sys
import time
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.fuzz.ldraw_inputs import IDENTITY, nesting, placed_many_times, set_mpd, shuffled, town_mpd  # noqa: E402

SEED = 20250101
CASES = 60  # mutants in the fuzzing child (about 5 s on one idle core)
CASE_CPU_S = 15.0  # each named case: CPU seconds of the whole command (a real one takes 1 to 3)
MUTANT_CPU_S = 6.0  # each mutant, in the fuzzing child (a real one takes well under 0.5)
CHILD_CPU_S = 300  # RLIMIT_CPU of every child: a loop that never ends is killed, not waited for
WALL_S = 600.0  # the only wall-clock bound: a child stuck off the CPU (a FIFO, a lock) is killed
MEMORY_MB = 500  # peak resident memory of a child
ADDRESS_SPACE = 3 << 29  # 1.5 GiB: a runaway allocation fails in the child, not the machine
SECRET = "SECRET-LINE root:x:0:0:root:/root:/bin/bash\n"


@dataclass
class Outcome:
    code: int
    cpu_s: float
    peak_mb: float
    out: str
    err: str

    def __str__(self) -> str:
        return f"exit {self.code} in {self.cpu_s:.2f} s of CPU, peak {self.peak_mb:.0f} MB: {self.err[-600:]}"


# A forked child's peak memory starts at its parent's (Linux carries the high-water mark across
# fork and exec), and pytest can be big: so the command runs as a grandchild of a small Python
# that limits the address space, waits, and writes the grandchild's own peak (RUSAGE_CHILDREN).
_MEASURE = """import json, resource, subprocess, sys
limit, cpu, report = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
code = subprocess.call(sys.argv[4:])
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
open(report, "w").write(json.dumps([code, usage.ru_maxrss, usage.ru_utime + usage.ru_stime]))
"""


# For children that measure their own peak (RUSAGE_SELF): a small Python in between, for the same reason.
SMALL_PARENT = [sys.executable, "-c", "import subprocess, sys; sys.exit(subprocess.call(sys.argv[1:]))"]


def child_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LDRAWDIR", "BOW3D_CACHE_DIR")}
    env.update(PYTHONPATH=str(ROOT), OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", **extra)
    return env


def run_limited(args: list[str], cwd: Path, **env: str) -> Outcome:
    """Run a command under the address space and CPU limits: its exit code, CPU time and own peak memory."""
    out_path, err_path, report = cwd / ".out", cwd / ".err", cwd / ".peak"
    report.unlink(missing_ok=True)
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        proc = subprocess.Popen([sys.executable, "-c", _MEASURE, str(ADDRESS_SPACE), str(CHILD_CPU_S), str(report),
                                 *args], stdout=out, stderr=err, cwd=cwd, env=child_env(**env), start_new_session=True)
        try:
            proc.wait(timeout=WALL_S)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    code, peak_kb, cpu_s = json.loads(report.read_text()) if report.exists() else (-9, 0, math.inf)
    return Outcome(code, cpu_s, peak_kb / 1024, out_path.read_text(errors="replace"),
                   err_path.read_text(errors="replace"))


def inspect(folder: Path, *args: str, **env: str) -> Outcome:
    return run_limited([sys.executable, "-m", "bow3d", "inspect", *args], folder, **env)


def assert_answered(result: Outcome, codes=(0, 2)) -> None:
    assert result.code in codes, str(result)
    assert "Traceback" not in result.err and "internal error" not in result.err, str(result)
    assert result.cpu_s < CASE_CPU_S and result.peak_mb < MEMORY_MB, str(result)


# -- the cases the issue names ----------------------------------------------------------------

@pytest.mark.parametrize("seed", [0, 3])
def test_a_line_shuffled_set_mpd(tmp_path, seed):
    # the unshuffled set is a DAG of 150 sub-models; shuffled, its blocks use each other at random
    # and a walk that expands every path (the old reader) ran past 1.6 GB in 30 s on seed 3
    path = tmp_path / "shuffled.mpd"
    path.write_text(shuffled(set_mpd(random.Random(7), blocks=150), random.Random(seed)))
    result = inspect(tmp_path, str(path), "--no-cache")
    assert_answered(result)
    print(f"shuffled set MPD (seed {seed}): {result}")


def test_the_unshuffled_set_is_refused_by_the_budget_with_its_chain(tmp_path):
    path = tmp_path / "set.mpd"
    path.write_text(set_mpd(random.Random(7), blocks=150))
    result = inspect(tmp_path, str(path), "--no-cache")
    assert_answered(result, codes=(2,))
    assert "set.mpd: needs 4,518,318 part instances, more than the budget of 2,000,000" in result.err
    assert "set.ldr -> sub" in result.err and "--max-instances 4518318" in result.err
    # raised, the instances pass and the triangles (50 per allowed instance) say how far to go
    raised = inspect(tmp_path, str(path), "--no-cache", "--max-instances", "5000000")
    assert_answered(raised, codes=(2,))
    assert "needs 426,002,612 triangles, more than the budget of 250,000,000" in raised.err
    assert "--max-instances 8520053, which allows 50 triangles per instance" in raised.err
    assert_answered(inspect(tmp_path, str(path), "--max-instances", "0"), codes=(2,))


@pytest.mark.parametrize("seed", [0, 3])
def test_scene_from_ldraw_on_a_line_shuffled_set_mpd(tmp_path, seed):
    # the scene builder walks the sub-model tree placement by placement; deciding cycles per path
    # (not where the loader's walk met them) made seed 0 run past 60 s and 1.1 GB
    path = tmp_path / "shuffled.mpd"
    path.write_text(shuffled(set_mpd(random.Random(7), blocks=150), random.Random(seed)))
    result = run_limited([sys.executable, "-m", "bow3d", "scene", "from-ldraw", str(path), "-o", "out.yaml"],
                         tmp_path, LDRAWDIR=str(ROOT / "ldraw_library"))
    assert_answered(result, codes=(2,))
    assert "no minifig found" in result.err  # the walk finished; the set has no minifig
    print(f"scene from-ldraw, shuffled set MPD (seed {seed}): {result}")


def test_scene_from_ldraw_bounds_sub_model_placements_that_place_no_part(tmp_path):
    # nine levels of empty sub-models each used ten times: no instance for the loader's budget,
    # but 10^9 placements for the scene builder's tree, refused before it builds any
    text = "".join(f"0 FILE level{i}.ldr\n" + "".join(f"1 16 {20 * k} 0 0 {IDENTITY} level{i + 1}.ldr\n"
                                                       for k in range(10)) for i in range(9))
    (tmp_path / "empty.mpd").write_text(text + "0 FILE level9.ldr\n0 nothing here\n")
    result = run_limited([sys.executable, "-m", "bow3d", "scene", "from-ldraw", "empty.mpd", "-o", "out.yaml"],
                         tmp_path, LDRAWDIR=str(ROOT / "ldraw_library"))
    assert_answered(result, codes=(2,))
    assert "places its sub-models 1,111,111,110 times" in result.err and "load budget of 2,000,000" in result.err


@pytest.mark.parametrize("form", ["ldr", "mpd", "dat"])
def test_ten_files_each_using_the_next_ten_times(tmp_path, form):
    files = nesting(ext="dat" if form == "dat" else "ldr")
    if form == "mpd":
        (tmp_path / "nest.mpd").write_text("".join(f"0 FILE {n}\n{t}" for n, t in files.items()))
        main = "nest.mpd"
    else:
        for name, text in files.items():
            (tmp_path / name).write_text(text)
        main = "level0.ldr"
        if form == "dat":
            (tmp_path / main).write_text(f"1 4 0 0 0 {IDENTITY} level0.dat\n")
    result = inspect(tmp_path, main, "--no-cache")
    assert_answered(result, codes=(2,))
    assert "level1." in result.err and "(x10)" in result.err and "raise the limit" in result.err
    print(f"10x10 nesting ({form}): {result}")


def test_a_part_placed_a_million_times(tmp_path):
    # one line per placement: 44 MB of text under the per-file cap, a million instances under the budget
    (tmp_path / "million.ldr").write_text(placed_many_times(10**6))
    result = run_limited([sys.executable, "-m", "bow3d", "inspect", "million.ldr", "--no-cache", "--json"], tmp_path)
    assert result.code == 0 and json.loads(result.out)["parts"] == 10**6, str(result)
    assert result.peak_mb < MEMORY_MB and result.cpu_s < 4 * CASE_CPU_S, str(result)
    print(f"a part placed 10^6 times (one line each): {result}")
    # the same million through a sub-model of 1,000 placements used 1,000 times
    row = "0 FILE row.ldr\n" + placed_many_times(1000)
    (tmp_path / "dag.mpd").write_text("0 FILE field.ldr\n" + "".join(
        f"1 16 0 0 {20 * i} {IDENTITY} row.ldr\n" for i in range(1000)) + row)
    result = inspect(tmp_path, "dag.mpd", "--no-cache", "--json")
    assert_answered(result, codes=(0,))
    assert json.loads(result.out)["parts"] == 10**6
    print(f"a part placed 10^6 times (1,000 x 1,000): {result}")


def test_links_pipes_and_devices_next_to_a_model(tmp_path):
    folder = tmp_path / "model"
    folder.mkdir()
    (tmp_path / "passwd").write_text(SECRET * 5)
    (folder / "passwd.dat").symlink_to(tmp_path / "passwd")
    (folder / "zero.dat").symlink_to("/dev/zero")
    (folder / "urandom.dat").symlink_to("/dev/urandom")
    os.mkfifo(folder / "pipe.dat")
    os.mkfifo(folder / "pipe.ldr")
    refs = ["passwd.dat", "zero.dat", "urandom.dat", "pipe.dat", "3001.dat"]
    (folder / "m.ldr").write_text("".join(f"1 4 0 0 0 {IDENTITY} {name}\n" for name in refs))
    result = inspect(folder, "m.ldr", "--no-cache")
    assert_answered(result, codes=(0,))
    assert "SECRET" not in result.out + result.err and "root:x" not in result.out
    assert result.out.count("leads outside the library") == 3 and "is a named pipe" in result.out
    assert "complete       no" in result.out
    for main in ("pipe.ldr", "/dev/zero", "/dev/stdin"):
        assert_answered(inspect(folder, main, "--no-cache"), codes=(2,))


def test_a_library_that_is_not_one(tmp_path):
    (tmp_path / "m.ldr").write_text(f"1 4 0 0 0 {IDENTITY} 3001.dat\n")
    (tmp_path / "empty").mkdir()
    (tmp_path / "a-file").write_text("x")
    for where in ("empty", "missing", "a-file"):
        result = inspect(tmp_path, "m.ldr", LDRAWDIR=str(tmp_path / where))
        assert_answered(result, codes=(2,))
        assert str(tmp_path / where) in result.err and "LDConfig.ldr" in result.err
        assert_answered(inspect(tmp_path, "m.ldr", "--library", str(tmp_path / where)), codes=(2,))


# -- seeded mutation fuzzing ------------------------------------------------------------------

NUMBERS = ["1e308", "-1e308", "1e-320", "nan", "inf", "-inf", "99999999999", "-5", "4.5", "0x7FFFFFFF",
           "0x" + "F" * 30, "0x2FF00FF", "#2FF00FF", "9" * 400, "-0", "1e7", "12345678.9", "x", ""]
META = ["0 FILE town.ldr", "0 FILE wall0.ldr", "0 NOFILE", "0 !DATA tex.png", "0 !: AAAA", "0 BFC INVERTNEXT",
        "0 BFC CERTIFY CW", "0 BFC NOCLIP", "0 !LDRAW_ORG Part", "0 STEP",
        "0 !COLOUR X CODE 99999999999 VALUE #FFFFFF EDGE #000000 ALPHA 99999",
        "0 !COLOUR Y CODE 16 VALUE #12 EDGE 99999999999", "0 FILE " + "a" * 300]
NAMES = ["town.ldr", "house1.ldr", "wall0.ldr", "3001.dat", "s/../../../etc/passwd", "/etc/passwd", "C:\\x.dat",
         "passwd.dat", "zero.dat", "pipe.dat", "..\\..\\x.dat", "48/../../x", "nosuch.dat", "a" * 500]


def mutate(text: str, rng: random.Random) -> str:
    """One to five random edits of an LDraw text."""
    lines = text.splitlines()
    for _ in range(rng.randint(1, 5)):
        i = rng.randrange(len(lines)) if lines else 0
        kind = rng.randrange(11)
        if not lines:
            lines = [""]
        if kind == 0:  # a number token becomes a hostile one
            tokens = lines[i].split(" ")
            if len(tokens) > 1:
                tokens[rng.randrange(1, len(tokens))] = rng.choice(NUMBERS)
            lines[i] = " ".join(tokens)
        elif kind == 1:
            del lines[i]
        elif kind == 2:
            lines.insert(i, lines[i] if lines else "")
        elif kind == 3:
            lines.insert(i, rng.choice(META))
        elif kind == 4:  # a reference to something else
            lines.insert(i, f"1 {rng.choice(['16', '4', '0x2FF00FF'])} 0 0 0 {IDENTITY} {rng.choice(NAMES)}")
        elif kind == 5:  # flip bytes
            raw = bytearray(lines[i].encode("utf-8", "surrogatepass"))
            for _ in range(rng.randint(1, 3)):
                if raw:
                    raw[rng.randrange(len(raw))] = rng.randrange(256)
            lines[i] = raw.decode("latin-1")
        elif kind == 6:  # cut a line short
            lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
        elif kind == 7:  # shuffle everything
            rng.shuffle(lines)
        elif kind == 8:  # a line repeated many times
            lines[i:i] = [lines[i]] * rng.choice([100, 5000, 20_000])
        elif kind == 9:  # nest sub-models deeply, or widely
            levels, uses = rng.choice([(70, 1), (10, 10), (30, 3)])
            for k in range(levels):
                lines += [f"0 FILE deep{k}.ldr"] + [f"1 16 1 0 0 {IDENTITY} deep{k + 1}.ldr"] * uses
            lines.insert(i, f"1 16 0 0 0 {IDENTITY} deep0.ldr")
        else:  # scale a placement up, level after level
            lines.insert(i, f"1 16 0 0 0 1000 0 0 0 1000 0 0 0 1000 {rng.choice(NAMES[:3])}")
    return "\n".join(lines) + rng.choice(["\n", "\r\n", ""])


def _finite_geometry(path: Path) -> str:
    """'' when the library API gives finite geometry for the file (what render needs), else why not."""
    from bow3d.errors import Bow3dError
    from bow3d.ldraw import load_model

    try:
        model = load_model(path, cache=False)
    except Bow3dError:
        return ""
    problems = []
    if model.triangle_count() < 2_000_000:  # the merged mesh (render's input) of what fits a test's memory
        mesh = model.mesh
        if not (math.isfinite(float(abs(mesh.positions).sum())) and mesh.triangles.max(initial=-1) < len(mesh.positions)):
            problems.append("mesh")
    if not all(math.isfinite(v) for v in model.bounds().ravel()):
        problems.append("bounds")
    return ", ".join(problems)


def drive(folder: Path, seed: int, cases: int, first: int = 0) -> dict:
    """Inspect `cases` mutated models; counts per exit code and the failing cases."""
    from bow3d.cli import main

    bases = [town_mpd(random.Random(seed)), (ROOT / "tests" / "data" / "ldraw" / "outpost.mpd").read_text(),
             placed_many_times(40), "".join(f"0 FILE {n}\n{t}" for n, t in nesting(4, 3).items())]
    codes: dict[int, int] = {}
    failures: list[dict] = []
    for n in range(first, first + cases):
        rng = random.Random(f"{seed}/{n}")
        path = folder / rng.choice(["case.mpd", "case.ldr", "case.dat"])
        path.write_bytes(mutate(rng.choice(bases), rng).encode("utf-8", "surrogatepass"))
        out, err = io.StringIO(), io.StringIO()
        case_started = time.process_time()
        with redirect_stdout(out), redirect_stderr(err):
            args = ["inspect", str(path), "--no-cache"] + rng.choice([[], ["--json"], ["--strict"], ["--parts"]])
            try:
                code = main(args)
            except SystemExit as exit_:
                code = exit_.code if isinstance(exit_.code, int) else 1
            broken = _finite_geometry(path) if code == 0 else ""
        took = time.process_time() - case_started
        codes[code] = codes.get(code, 0) + 1
        said = out.getvalue() + err.getvalue()
        if code not in (0, 2) or took > MUTANT_CPU_S or broken or "Traceback" in said or "SECRET" in said:
            failures.append({"case": n, "code": code, "cpu_s": round(took, 2), "broken": broken,
                             "error": err.getvalue()[-400:]})
    return {"cases": cases, "codes": codes, "failures": failures[:5]}


def test_fuzz_inspect_answers_0_or_2_in_bounded_time_and_memory(tmp_path):
    folder = tmp_path / "models"
    folder.mkdir()
    (tmp_path / "passwd").write_text(SECRET * 3)
    (folder / "passwd.dat").symlink_to(tmp_path / "passwd")
    (folder / "zero.dat").symlink_to("/dev/zero")
    os.mkfifo(folder / "pipe.dat")
    result = run_limited([sys.executable, __file__, str(folder), str(SEED), str(CASES)], tmp_path)
    assert result.code == 0, f"the fuzzing child died: {result}"
    report = json.loads(result.out.splitlines()[-1])
    assert not report["failures"], report
    assert report["cases"] == CASES and report["codes"].get("2", 0) > 0 and report["codes"].get("0", 0) > 0, report
    assert result.peak_mb < MEMORY_MB, f"{result.peak_mb:.0f} MB: {report}"


if __name__ == "__main__":
    folder_arg, seed_arg, cases_arg = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    first_arg = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    print(json.dumps(drive(folder_arg, seed_arg, cases_arg, first_arg)))
