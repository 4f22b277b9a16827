"""Seeded, count-bounded mutation fuzzing of scene files (the Trust issue): whatever the bytes,
`bow3d scene check` answers exit code 0 or 2, never an internal error (1) or a crash (139), in
bounded time and memory.

The mutations run in one child process (this file run as a script) with its address space
limited; each case is seeded by (SEED, n), so a failure names the exact case to replay:
    python tests/fuzz/test_fuzz_scene.py DIR SEED CASES [FIRST_CASE]
"""

from __future__ import annotations

import io
import json
import os
import random
import resource
import subprocess
import sys
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

SEED = 20240611
CASES = 400  # mutants checked in the child (about 5 s on one idle core)
MEMORY_MB = 500  # peak resident memory of the child
ADDRESS_SPACE = 2 << 30  # hard limit on the child's address space (a runaway allocation fails, not the machine)

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "scenes"
BATTLEFIELD = "0 Test field\n1 2 400 0 400 1.25 0 0 0 1 0 0 0 1.25 3811.dat\n"
FIGURE = "0 Figure\n1 1 0 -24 0 1 0 0 0 1 0 0 0 1 3005.dat\n"

# YAML that has broken readers: structure, aliases, tags, numbers, sizes.
TOKENS = ["[", "]", "{", "}", ":", "- ", "&a ", "*a", "<<: *a", "!!binary ", "!!python/object:os.system ", "!!set ",
          "!!timestamp ", "!!float ", "!!int ", "? ", "|", ">", "'", '"', "#", "---\n", "...\n", "%YAML 1.1\n",
          "\t", "\x00", "\ufeff", ".inf", "-.inf", ".nan", "~", "null", "0x" + "f" * 40, "9" * 120, "1e999",
          "-0", "0o17", "1_000", "2001-12-14", "yes", "no", "on", "é", "\u202e", "../" * 5 + "etc/passwd",
          "/dev/zero", "CON", "a" * 300, "1:2:3", "=", "!", "%", "@", "`"]
FIELDS = ["format", "battlefield", "sides", "sheets", "units", "vehicles", "doors", "ruleset", "id", "side",
          "sheet", "model", "position", "facing", "weapon", "kind", "weapons", "speed", "occupants", "cell"]


def mutate(text: str, rng: random.Random) -> str:
    """One to four random edits of the scene text."""
    for _ in range(rng.randint(1, 4)):
        lines = text.splitlines(keepends=True) or ["\n"]
        kind = rng.randrange(10)
        i = rng.randrange(len(lines))
        if kind == 0:  # delete a line
            del lines[i]
        elif kind == 1:  # duplicate a line (duplicate keys)
            lines.insert(i, lines[i])
        elif kind == 2:  # swap two lines
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == 3:  # insert a token
            line = lines[i]
            k = rng.randrange(len(line) + 1)
            lines[i] = line[:k] + rng.choice(TOKENS) + line[k:]
        elif kind == 4:  # replace a value
            line = lines[i]
            if ":" in line:
                lines[i] = line[:line.index(":") + 1] + " " + rng.choice(TOKENS) + "\n"
        elif kind == 5:  # change the indentation
            lines[i] = " " * rng.randrange(12) + lines[i].lstrip(" ")
        elif kind == 6:  # flip bytes
            line = bytearray(lines[i].encode("utf-8"))
            for _ in range(rng.randint(1, 3)):
                if line:
                    line[rng.randrange(len(line))] = rng.randrange(256)
            lines[i] = line.decode("utf-8", errors="replace")
        elif kind == 7:  # nest deeply
            depth = rng.choice([10, 70, 1000, 50_000])
            lines.insert(i, f"{rng.choice(FIELDS)}: " + rng.choice(["[", "{a: "]) * depth + "\n")
        elif kind == 8:  # an alias tree
            width, levels = rng.randint(2, 12), rng.randint(2, 9)
            tree = [f"x0: &x0 [{', '.join(['v'] * width)}]\n"] + [
                f"x{n}: &x{n} [{', '.join([f'*x{n - 1}'] * width)}]\n" for n in range(1, levels)]
            lines[i:i] = tree + [f"{rng.choice(FIELDS)}: *x{levels - 1}\n"]
        else:  # many items or keys
            count = rng.choice([100, 5000, 20_000])
            lines.insert(i, rng.choice(FIELDS) + ":\n" + "".join(f"  k{n}: {n}\n" for n in range(count)))
        text = "".join(lines)
    return text


def drive(folder: Path, seed: int, cases: int, first: int = 0) -> dict:
    """Check `cases` mutated scenes; returns counts per exit code and the failing cases."""
    sys.path.insert(0, str(ROOT))
    from bow3d.cli import main
    from tests.fuzz.test_fuzz_ldraw import CHILD_CPU_S, MUTANT_CPU_S

    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
    resource.setrlimit(resource.RLIMIT_CPU, (CHILD_CPU_S, CHILD_CPU_S + 5))
    original = (folder / "village.yaml").read_text()
    codes: dict[int, int] = {}
    failures: list[dict] = []
    for n in range(first, first + cases):
        rng = random.Random(f"{seed}/{n}")
        path = folder / "case.yaml"
        path.write_bytes(mutate(original, rng).encode("utf-8", errors="surrogatepass"))
        out, err = io.StringIO(), io.StringIO()
        case_started = time.process_time()
        with redirect_stdout(out), redirect_stderr(err):
            try:
                code = main(["scene", "check", str(path)])
            except SystemExit as exit_:
                code = exit_.code if isinstance(exit_.code, int) else 1
        took = time.process_time() - case_started
        codes[code] = codes.get(code, 0) + 1
        printed = len(out.getvalue()) + len(err.getvalue())
        if code not in (0, 2) or took > MUTANT_CPU_S or printed > 20_000 or "Traceback" in err.getvalue():
            failures.append({"case": n, "code": code, "cpu_s": round(took, 2), "printed": printed,
                             "error": err.getvalue()[-400:]})
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"cases": cases, "codes": codes, "failures": failures[:5], "peak_mb": round(peak_mb)}


def test_fuzz_scene_check_answers_0_or_2_in_bounded_time_and_memory(tmp_path):
    from tests.fuzz.test_fuzz_ldraw import SMALL_PARENT, WALL_S  # the child's peak memory, not pytest's

    folder = tmp_path / "scene"
    folder.mkdir()
    (folder / "village.yaml").write_text((DATA / "village.yaml").read_text())
    (folder / "village.ldr").write_text(BATTLEFIELD)
    for name in ("figure.ldr", "jeep.ldr"):
        (folder / name).write_text(FIGURE)
    env = {k: v for k, v in os.environ.items() if k != "LDRAWDIR"}  # the bundled starter library
    env.update(OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    result = subprocess.run([*SMALL_PARENT, sys.executable, __file__, str(folder), str(SEED), str(CASES)], capture_output=True,
                            text=True, timeout=WALL_S, env=env, cwd=tmp_path)
    assert result.returncode == 0, f"the fuzzing child died ({result.returncode}): {result.stderr[-2000:]}"
    report = json.loads(result.stdout.splitlines()[-1])
    assert not report["failures"], report
    assert report["cases"] == CASES and report["codes"].get("2", 0) > 0, report
    assert report["peak_mb"] < MEMORY_MB, report


if __name__ == "__main__":
    folder_arg, seed_arg, cases_arg = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    first_arg = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    print(json.dumps(drive(folder_arg, seed_arg, cases_arg, first_arg)))
