"""The mutation runner of the rulesets' `break_the_rules.py` scripts (not collected by pytest).

Each script lists its mutations as (section, file, the rule as written, the rule broken, the test
file(s) that must notice, space-separated) and calls `run`: every rule is broken in turn in a copy of
the repository's code and tests (scenes/, replays/, ldraw_library/ and ../shared linked, read only),
its tests are run, and a line says KILLED (a test failed, naming it) or SURVIVED (no test noticed).
The checked-out tree is never touched.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _tree(tmp: pathlib.Path) -> pathlib.Path:
    """A copy of the repository's code and tests (and links to what they only read) under tmp/repo."""
    repo = tmp / "repo"
    repo.mkdir()
    for name in ("bow3d", "tests"):
        shutil.copytree(ROOT / name, repo / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", repo / "pyproject.toml")
    for name in ("scenes", "replays", "ldraw_library"):
        if (ROOT / name).exists():
            os.symlink(ROOT / name, repo / name)
    if (ROOT.parent / "shared").exists():   # the rule books: ../shared/seeds/
        os.symlink(ROOT.parent / "shared", tmp / "shared")
    return repo


def run(mutations: list[tuple[str, str, str, str, str]], tests_dir: str, only: list[str]) -> int:
    """Break each rule of `mutations` (those whose index is in `only`, or all) and run its tests from
    `tests_dir`; 1 when a rule survived or its pattern is not unique, else 0."""
    survived = 0
    width = len(str(len(mutations) - 1))
    with tempfile.TemporaryDirectory() as tmp:
        repo = _tree(pathlib.Path(tmp))
        env = {**os.environ, "PYTHONPATH": str(repo)}
        for i, (section, path, old, new, tests) in enumerate(mutations):
            if only and str(i) not in only:
                continue
            p = repo / path
            text = p.read_text()
            if text.count(old) != 1:
                survived += 1
                print(f"{i:{width}d} {section}: PATTERN NOT UNIQUE ({text.count(old)}): {old!r}")
                continue
            p.write_text(text.replace(old, new))
            try:
                r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
                                    *(tests_dir + t for t in tests.split())],
                                   cwd=repo, env=env, capture_output=True, text=True, timeout=300, check=False)
                last = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr[-200:]
                failed = [line for line in r.stdout.splitlines() if line.startswith("FAILED")]
                survived += not r.returncode
                print(f"{i:{width}d} {section}: {'KILLED' if r.returncode else 'SURVIVED'} by {tests}: "
                      f"{failed[0][7:] if failed else ''} | {last}", flush=True)
            finally:
                p.write_text(text)
    return 1 if survived else 0
