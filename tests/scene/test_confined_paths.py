"""Scene paths are resolved and confined (the Trust issue): the battlefield and unit models are regular
files inside the scene's folder or the LDraw library, after following links, unless BOW3D_ALLOW_PATHS
names their folder; a unit model must have triangles."""

from __future__ import annotations

from pathlib import Path

import pytest

from bow3d.cli import main
from bow3d.scene import load_scene
from bow3d.scene.paths import ALLOW_ENV, ScenePathRefused, confined_path


def _edit(scene_dir: Path, old: str, new: str) -> Path:
    path = scene_dir / "village.yaml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    return path


def _check(path: Path, capsys) -> tuple[int, str]:
    code = main(["scene", "check", str(path)])
    return code, capsys.readouterr().err


def test_battlefield_outside_the_scene_folder_is_not_read(scene_dir, capsys, monkeypatch):
    """Was: `battlefield: /etc/passwd` was read."""
    monkeypatch.delenv(ALLOW_ENV, raising=False)
    path = _edit(scene_dir, "battlefield: village.ldr", "battlefield: /etc/passwd")
    code, err = _check(path, capsys)
    assert code == 2 and "village.yaml:3: battlefield: leads outside the scene's folder and the LDraw library" in err
    assert f"{ALLOW_ENV}=/etc" in err and "Traceback" not in err


def test_a_link_in_the_scene_folder_is_followed_before_the_check(scene_dir, tmp_path, capsys, monkeypatch):
    monkeypatch.delenv(ALLOW_ENV, raising=False)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.ldr").write_text((scene_dir / "figure.ldr").read_text())
    (scene_dir / "figure.ldr").unlink()
    (scene_dir / "figure.ldr").symlink_to(outside / "secret.ldr")
    code, err = _check(scene_dir / "village.yaml", capsys)
    assert code == 2 and "units[0].model: leads outside the scene's folder" in err
    monkeypatch.setenv(ALLOW_ENV, str(outside))  # the explicit override
    code, err = _check(scene_dir / "village.yaml", capsys)
    assert code == 0, err


def test_climbing_out_with_dots_is_refused(scene_dir, tmp_path, capsys, monkeypatch):
    monkeypatch.delenv(ALLOW_ENV, raising=False)
    (tmp_path / "up.ldr").write_text((scene_dir / "figure.ldr").read_text())
    path = _edit(scene_dir, "model: figure.ldr", "model: ../up.ldr")
    code, err = _check(path, capsys)
    assert code == 2 and "units[0].model: leads outside" in err


def test_devices_and_folders_are_refused_even_when_allowed(scene_dir, capsys, monkeypatch):
    monkeypatch.setenv(ALLOW_ENV, "/dev")
    path = _edit(scene_dir, "battlefield: village.ldr", "battlefield: /dev/zero")
    code, err = _check(path, capsys)
    assert code == 2 and "battlefield: is not a regular file (/dev/zero)" in err
    (scene_dir / "sub").mkdir()
    path = _edit(scene_dir, "battlefield: /dev/zero", "battlefield: sub")
    code, err = _check(path, capsys)
    assert code == 2 and "battlefield: is a folder" in err


def test_library_parts_and_files_beside_the_scene_are_fine(scene_dir, capsys):
    path = _edit(scene_dir, "model: figure.ldr", "model: 3001.dat")
    code, err = _check(path, capsys)
    assert code == 0, err


def test_a_unit_model_with_no_triangles_fails_scene_check(scene_dir, capsys):
    """Was: a unit model with no triangles passed `scene check` and crashed `los` and `simulate`."""
    (scene_dir / "figure.ldr").write_text("0 An empty figure\n0 Name: figure.ldr\n2 24 0 0 0 10 0 0\n")
    code, err = _check(scene_dir / "village.yaml", capsys)
    assert code == 2 and "units[0].model: 'figure.ldr' has no triangles (nothing to see, hit or stand on)" in err


def test_confined_path_api(tmp_path):
    (tmp_path / "scene").mkdir()
    (tmp_path / "lib" / "parts").mkdir(parents=True)
    (tmp_path / "lib" / "parts" / "a.dat").write_text("0 a\n")
    (tmp_path / "scene" / "b.ldr").write_text("0 b\n")
    assert confined_path(tmp_path / "scene", "b.ldr", allow=()) == (tmp_path / "scene" / "b.ldr").resolve()
    found = confined_path(tmp_path / "scene", "../lib/parts/a.dat", [tmp_path / "lib"], allow=())
    assert found == (tmp_path / "lib" / "parts" / "a.dat").resolve()
    with pytest.raises(ScenePathRefused, match="leads outside"):
        confined_path(tmp_path / "scene", "../lib/parts/a.dat", allow=())
    with pytest.raises(ScenePathRefused, match="no such file"):
        confined_path(tmp_path / "scene", "c.ldr", allow=())


def test_windows_backslash_paths_are_folder_separators(scene_dir, capsys):
    """Was: a scene written on Windows (`model: figures\\blue one.ldr`) failed with 'no such file' elsewhere."""
    (scene_dir / "figures").mkdir()
    (scene_dir / "figure.ldr").rename(scene_dir / "figures" / "blue one.ldr")
    (scene_dir / "field").mkdir()
    (scene_dir / "village.ldr").rename(scene_dir / "field" / "village.ldr")
    _edit(scene_dir, "battlefield: village.ldr", "battlefield: .\\field\\village.ldr")
    path = _edit(scene_dir, "model: figure.ldr", "model: figures\\blue one.ldr")
    path.write_text(path.read_text().replace("model: figure.ldr", "model: figures\\blue one.ldr"))
    code, err = _check(path, capsys)
    assert code == 0, err
    scene = load_scene(path)
    assert scene.battlefield == "./field/village.ldr" and scene.units[0].model == "figures/blue one.ldr"
