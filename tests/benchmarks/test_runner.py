"""`python -m benchmarks`: its help runs, and a name it does not know is refused plainly (exit 2) before
anything runs or RESULTS.md is touched."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "benchmarks", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=60)


def test_help_lists_every_benchmark_and_its_examples_name_real_ones():
    shown = run("--help")
    assert shown.returncode == 0 and shown.stdout.startswith("usage: python -m benchmarks")
    listed = shown.stdout.split("benchmarks: ", 1)[1].splitlines()[0].split(", ")
    assert sorted(listed) == sorted(p.stem for p in (ROOT / "benchmarks").glob("bench_*.py"))
    for line in shown.stdout.split("examples:", 1)[1].splitlines():
        named = line.split("#")[0].split()[3:]
        assert all(name in listed for name in named), line


def test_an_unknown_benchmark_is_refused_before_anything_runs():
    before = (ROOT / "benchmarks" / "RESULTS.md").read_bytes()
    refused = run("bench_rules", "bench_nope")
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert "no benchmark called bench_nope" in refused.stderr and "bench_war_of_bros" in refused.stderr
    assert "running" not in refused.stderr and (ROOT / "benchmarks" / "RESULTS.md").read_bytes() == before
