"""Run every benchmark and rewrite benchmarks/RESULTS.md: `python -m benchmarks [NAME ...]`."""

from __future__ import annotations

import datetime
import importlib
import os
import platform
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ORDER = ["bench_ldraw", "bench_inspect", "bench_render", "bench_world", "bench_sight", "bench_rules", "bench_engine",
         "bench_war_of_bros", "bench_blaze_of_glory", "bench_batch", "bench_opponents", "bench_video"]


def main(argv: list[str]) -> int:
    names = argv or [n for n in ORDER if (HERE / f"{n}.py").exists()]
    sections = []
    for name in names:
        print(f"running {name} ...", file=sys.stderr, flush=True)
        module = importlib.import_module(f"benchmarks.{name}")
        section = module.run()
        print(section)
        sections.append(section)
    if argv:  # a partial run does not replace the full record
        return 0
    header = [
        "# bow3d benchmark results",
        "",
        f"Written by `python -m benchmarks` on {datetime.date.today().isoformat()}: "
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}.",
        "Every ratio compares against a peer measured in the same run.",
        "",
    ]
    (HERE / "RESULTS.md").write_text("\n".join(header + sections))
    print(f"wrote {HERE / 'RESULTS.md'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
