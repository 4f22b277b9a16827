"""A wheel installed in a fresh venv runs the demo and `los` without the source tree (the Trust issue:
a non-editable install used to ship no starter library, scenes or replays).

The wheel is built offline from a copy of the checkout (`pip wheel --no-build-isolation`), installed
with --no-deps into a fresh venv that sees this interpreter's dependencies through a .pth file, and
run from another folder. An audit hook (sitecustomize.py in the fresh venv) records every file or
folder the installed bow3d opens in the checkout's source or data folders: there must be none.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "bow3d", "ldraw_library", "scenes", "replays")
WATCHED = [ROOT / name for name in ("bow3d", "ldraw_library", "scenes", "replays")]  # not .venv: the dependencies

AUDIT = '''
import atexit, json, os, sys
_WATCHED = {watched!r}
_SEEN = []
def _hook(event, args):
    if event in ("open", "os.listdir", "os.scandir") and args and isinstance(args[0], (str, bytes, os.PathLike)):
        path = os.path.abspath(os.fsdecode(args[0]))
        if any(path == w or path.startswith(w + os.sep) for w in _WATCHED):
            _SEEN.append(path)
sys.addaudithook(_hook)
@atexit.register
def _report():
    if _SEEN:
        with open({log!r}, "a") as log:
            log.write(json.dumps(sorted(set(_SEEN))) + "\\n")
'''


def _build_wheel(tmp: Path) -> Path:
    source = tmp / "src"
    source.mkdir()
    for name in SOURCES:
        item = ROOT / name
        if item.is_dir():
            shutil.copytree(item, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "_bundled"))
        else:
            shutil.copy2(item, source / name)
    result = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                             "-q", "-w", str(tmp / "dist"), str(source)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    (wheel,) = (tmp / "dist").glob("bow3d-*.whl")
    return wheel


def _fresh_venv(tmp: Path, wheel: Path, log: Path) -> Path:
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    deps = sorted({sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]})
    (site / "bow3d_test_deps.pth").write_text("\n".join(deps) + "\n")  # numpy, panda3d... of this interpreter
    (site / "sitecustomize.py").write_text(AUDIT.format(watched=[str(w) for w in WATCHED], log=str(log)))
    result = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
                             "--no-index", "-q", str(wheel)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return venv


@pytest.mark.slow
def test_a_wheel_in_a_fresh_venv_runs_the_demo_and_los_without_the_source_tree(tmp_path):
    log = tmp_path / "checkout-reads.jsonl"
    wheel = _build_wheel(tmp_path)
    venv = _fresh_venv(tmp_path, wheel, log)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("LDRAWDIR", "PYTHONPATH", "VIRTUAL_ENV")}
    env.update(OPENBLAS_NUM_THREADS="1", PYTHONDONTWRITEBYTECODE="1")

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(venv / "bin" / "bow3d"), *args], capture_output=True, text=True, timeout=300,
                              cwd=elsewhere, env=env)

    where = subprocess.run([str(venv / "bin" / "python"), "-c", "import json, bow3d.bundled as b; print(json.dumps("
                            "[b.__file__, str(b.starter_library_dir()), str(b.scenes_dir()), str(b.replays_dir())]))"],
                           capture_output=True, text=True, cwd=elsewhere, env=env, check=True)
    module, library, scenes, replays = (Path(p) for p in json.loads(where.stdout))
    for path in (module, library, scenes, replays):
        assert venv in path.parents, f"{path} is not in the fresh venv"
    assert (library / "LDConfig.ldr").is_file() and (scenes / "village.yaml").is_file()
    assert (replays / "village-seed1.bowreplay").is_file() and (scenes / "figures").is_dir()
    assert not list(scenes.glob("*.py")), "the scene generators stay in the repository"

    demo = run("demo", "--no-video", "--out", "out")
    assert demo.returncode == 0, demo.stdout[-2000:] + demo.stderr[-2000:]
    assert f"library {library} (bundled starter library)" in demo.stdout
    assert (elsewhere / "out" / "village-seed1.bowreplay").is_file()

    los = run("los", str(scenes / "village.yaml"), "blue-sword", "red-archer-1")
    assert los.returncode == 0, los.stdout[-2000:] + los.stderr[-2000:]
    assert "blue-sword" in los.stdout
    french = run("--lang", "fr", "los", str(scenes / "village.yaml"), "blue-sword", "red-archer-1")
    assert french.returncode == 0 and "tenons" in french.stdout, french.stdout + french.stderr  # the shipped .mo

    served = run("serve", "--check", "--port", "0", "--db", "rooms.sqlite", str(scenes / "los-gallery.yaml"))
    assert served.returncode == 0, served.stdout[-2000:] + served.stderr[-2000:]
    assert "room.js" in served.stdout and "referee.js" in served.stdout  # the pages' scripts, shipped

    assert not log.exists(), f"the installed bow3d read the checkout: {log.read_text()[:2000]}"
