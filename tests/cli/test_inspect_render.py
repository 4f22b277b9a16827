"""End to end: `bow3d inspect` and `bow3d render` as a user types them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bow3d.cli import main
from tests.conftest import write


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bow3d", *args], capture_output=True, text=True, timeout=120)


def test_inspect_table_and_json(tmp_path, library, capsys):
    path = write(tmp_path / "m.ldr", "1 4 0 0 0 1 0 0 0 1 0 0 0 1 brickstud.dat\n1 4 0 0 0 1 0 0 0 1 0 0 0 1 gone.dat\n")
    assert main(["inspect", str(path), "--library", str(library.roots[0])]) == 0
    out = capsys.readouterr().out
    assert "parts" in out and "gone.dat" in out and "m.ldr:2" in out
    assert main(["inspect", str(path), "--library", str(library.roots[0]), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["parts"] == 2 and data["triangles"] == 25 and data["missing_parts"] == ["gone.dat (m.ldr line 2)"]


def test_inspect_names_the_first_missing_parts_and_counts_the_rest(tmp_path, library, capsys):
    """Up to 10,000 distinct missing parts load (bow3d.ldraw.budget): the summary names 20, --json all."""
    path = write(tmp_path / "m.ldr", "".join(f"1 4 0 0 0 1 0 0 0 1 0 0 0 1 gone{k:03}.dat\n" for k in range(125)))
    assert main(["inspect", str(path), "--library", str(library.roots[0])]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("missing parts"))
    assert "gone019.dat" in line and "gone020.dat" not in line and "and 105 more (--json lists them all)" in line
    assert main(["inspect", str(path), "--library", str(library.roots[0]), "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["missing_parts"]) == 125


@pytest.mark.parametrize("content", [b"\x00\x01garbage\xff" * 100, b"1 4 0 0\n3 x y z\n"])
def test_inspect_bad_input_never_tracebacks(tmp_path, content):
    path = write(tmp_path / "bad.ldr", content)
    result = run_cli("inspect", str(path))
    assert "Traceback" not in result.stderr
    assert result.returncode in (0, 2)


def test_inspect_missing_file_exit_2(tmp_path):
    result = run_cli("inspect", str(tmp_path / "none.ldr"))
    assert result.returncode == 2 and "no such LDraw file" in result.stderr and "Traceback" not in result.stderr


def test_render_end_to_end(tmp_path, library, renderer_available):
    path = write(tmp_path / "m.ldr", "1 4 0 0 0 1 0 0 0 1 0 0 0 1 brickstud.dat\n")
    out = tmp_path / "m.png"
    result = run_cli("render", str(path), "-o", str(out), "--size", "96x64", "--library", str(library.roots[0]))
    assert result.returncode == 0, result.stderr
    assert out.read_bytes()[:4] == b"\x89PNG" and "wrote" in result.stdout
    again = run_cli("render", str(path), "-o", str(out), "--library", str(library.roots[0]))
    assert again.returncode == 2 and "--force" in again.stderr  # never overwrite silently


def test_render_of_a_scene_counts_its_units_and_vehicles_in_words(tmp_path, renderer_available):
    """One vehicle is '1 vehicle', not '1 vehicles' (the village without the red knight's horse)."""
    import shutil

    import yaml

    root = Path(__file__).resolve().parents[2]
    shutil.copytree(root / "scenes", tmp_path / "scenes", ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    data = yaml.safe_load((root / "scenes" / "village.yaml").read_text())
    data["vehicles"] = [v for v in data["vehicles"] if v["id"] != "red-horse"]
    data["units"] = [u for u in data["units"] if u["id"] != "red-knight"]
    scene = tmp_path / "scenes" / "one-vehicle.yaml"
    scene.write_text(yaml.safe_dump(data, sort_keys=False))
    result = run_cli("render", str(scene), "-o", str(tmp_path / "v.png"), "--size", "96x64")
    assert result.returncode == 0, result.stderr[-2000:]
    assert "16 units, 1 vehicle," in result.stdout, result.stdout


@pytest.mark.parametrize("args", [["--size", "big"], ["--size", "1x1"], ["--view", "sideways"]])
def test_render_bad_arguments_exit_2(tmp_path, args):
    result = run_cli("render", str(tmp_path / "m.ldr"), "-o", str(tmp_path / "o.png"), *args)
    assert result.returncode == 2 and "Traceback" not in result.stderr


def test_inspect_a_scene_file_names_its_battlefield_and_exits_2(capsys):
    """A scene is no LDraw model: read as one it had 0 parts and exit 0 (a silent wrong answer)."""
    scene = Path(__file__).resolve().parents[2] / "scenes" / "village.yaml"
    assert main(["inspect", str(scene)]) == 2
    err = capsys.readouterr().err
    assert "a scene file, not an LDraw model" in err and "bow3d inspect " in err and "village.ldr" in err
