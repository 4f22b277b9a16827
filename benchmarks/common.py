"""Shared helpers for the benchmarks: where the reference files are, timing in fresh processes."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
BATTLEFIELD = Path(os.environ.get("BOW3D_BENCH_BATTLEFIELD", SHARED / "bench" / "battlefield-5k.ldr"))
OFFICIAL = Path(os.environ.get("LDRAWDIR", SHARED / "ldraw"))


def have_reference() -> bool:
    return BATTLEFIELD.is_file() and (OFFICIAL / "parts").is_dir()


def in_fresh_process(code: str, env: dict | None = None, timeout: int = 600) -> dict:
    """Run `code` in a new Python process; it must print one JSON object as its last line."""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout,
                            env={**os.environ, **(env or {})}, cwd=ROOT)
    if result.returncode != 0:
        raise RuntimeError(f"benchmark process failed:\n{result.stderr[-2000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def median(values: list[float]) -> float:
    return statistics.median(values)


def table(header: list[str], rows: list[list]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)
