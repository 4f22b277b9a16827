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
         "bench_war_of_bros", "bench_blaze_of_glory", "bench_batch", "bench_opponents", "bench_serve",
         "bench_video"]


USAGE = """usage: python -m benchmarks [NAME ...]

Run the benchmarks and print each one's section (Markdown: figures, and ratios against the peer measured
in the same run). With no NAME, every benchmark runs and benchmarks/RESULTS.md is rewritten; with names,
only those run and RESULTS.md is left as it is (paste a section in by hand).

benchmarks: {names}

examples:
  python -m benchmarks                      # all of them (tens of minutes on 2 cores)
  python -m benchmarks bench_rules          # one ('rules' will do)
  python -m benchmarks bench_war_of_bros bench_opponents
"""


def main(argv: list[str]) -> int:
    known = [n for n in ORDER if (HERE / f"{n}.py").exists()]
    if any(arg in ("-h", "--help") for arg in argv):
        print(USAGE.format(names=", ".join(known)))
        return 0
    argv = [arg if arg in known or f"bench_{arg}" not in known else f"bench_{arg}" for arg in argv]  # 'rules' too
    unknown = [arg for arg in argv if arg not in known]
    if unknown:
        print(f"python -m benchmarks: no benchmark called {', '.join(unknown)}; the benchmarks are "
              f"{', '.join(known)} (python -m benchmarks --help)", file=sys.stderr)
        return 2
    names = argv or known
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
