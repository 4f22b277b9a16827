"""Issue 19's case, end to end on the village's 3D world: a replay packed with its parts, copied alone to
an empty folder on a machine with no LDRAWDIR, verifies and films.

The game is played with the official LDraw library when LDRAWDIR points at one (the header then says
`external`: without the pack's parts it could not be re-played here), else with the bundled one."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.replay.conftest import rewrite_pack

ROOT = Path(__file__).resolve().parents[2]


def bow3d(*args: str, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in {**os.environ, "PYTHONPATH": str(ROOT), **env}.items() if v is not None}
    return subprocess.run([sys.executable, "-m", "bow3d", *args], capture_output=True, text=True, timeout=300,
                          cwd=cwd, env=environment)


@pytest.fixture(scope="module")
def travelling(tmp_path_factory):
    """(the empty folder with only the pack in it, the environment of a machine with no LDRAWDIR, the library)"""
    home = tmp_path_factory.mktemp("home")
    official = os.environ.get("LDRAWDIR")
    library = "external" if official and Path(official, "parts").is_dir() else "bundled"
    played = bow3d("simulate", str(ROOT / "scenes" / "village.yaml"), "--games", "1", "--seed", "4", "--max-rounds",
                   "2", "--replays", str(home / "games"), cwd=home,
                   env={"LDRAWDIR": official if library == "external" else None})
    assert played.returncode == 0, played.stderr
    replay = next((home / "games").glob("*.bowreplay"))
    assert f'"library":"{library}"' in replay.read_text().splitlines()[0]
    packed = bow3d("replay", "pack", str(replay), "-o", str(home / "village.bowpack"), "--with-parts", cwd=home,
                   env={"LDRAWDIR": official if library == "external" else None})
    assert packed.returncode == 0 and "LDraw library files included" in packed.stdout, packed.stderr
    empty = tmp_path_factory.mktemp("elsewhere")
    shutil.copy(home / "village.bowpack", empty / "village.bowpack")
    away = {"LDRAWDIR": None, "BOW3D_CACHE_DIR": str(tmp_path_factory.mktemp("cache")),
            "BOW3D_DATA_DIR": str(tmp_path_factory.mktemp("data"))}
    return empty, away, library


def test_the_pack_alone_verifies_with_no_ldrawdir(travelling):
    empty, away, library = travelling
    result = bow3d("replay", "verify", "village.bowpack", "--allow-incomplete", cwd=empty, env=away)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("ok: village.bowpack:") and "every event identical" in result.stdout
    assert "every throw re-derived" in result.stdout
    assert sorted(p.name for p in empty.iterdir()) == ["village.bowpack"]


def test_the_pack_alone_exports_its_battle_as_gltf_with_no_ldrawdir(travelling):
    empty, away, _ = travelling
    result = bow3d("export", "village.bowpack", "-o", "battle.glb", "--quality", "draft", cwd=empty, env=away)
    assert result.returncode == 0 and "animation of" in result.stdout, result.stderr
    assert (empty / "battle.glb").read_bytes()[:4] == b"glTF"
    (empty / "battle.glb").unlink()


@pytest.mark.render
def test_the_pack_alone_films_with_no_ldrawdir(travelling, renderer_available, monkeypatch):
    """A short, small film (as the video tests make them): the pack's scene and parts are what it is shot on."""
    from bow3d.view.film.video import render_replay_video

    empty, away, _ = travelling
    for key, value in away.items():
        monkeypatch.delenv(key, raising=False) if value is None else monkeypatch.setenv(key, value)
    monkeypatch.chdir(empty)
    stats = render_replay_video("village.bowpack", "film.mp4", size=(160, 90), fps=4, progress=False, max_seconds=4.0)
    assert stats.frames == round(stats.seconds * 4) >= 16 and (empty / "film.mp4").stat().st_size > 1000


# --- issue 32: the pack's parts cannot decide the world -------------------------------------------------

def _forged(pack: Path, out: Path, change) -> Path:
    """A copy of the pack whose members (name -> bytes) and manifest `change(members, manifest)` edits, the
    manifest's member digests made to match (what a forger re-packing by hand does)."""
    return rewrite_pack(pack, out, change, fix_digests=True)


def _a_brick(manifest: dict) -> str:
    names = manifest["library_files"]
    return "parts/3004.dat" if "parts/3004.dat" in names else next(n for n in names if n.startswith("parts/"))


def _hollow(members, manifest, digests_too: bool = False) -> None:
    import hashlib

    name = _a_brick(manifest)
    members[f"ldraw/{name}"] = b"0 a brick with no geometry\n"
    if digests_too:
        manifest["part_digests"][name] = hashlib.sha256(members[f"ldraw/{name}"]).hexdigest()


def _here(away: dict, library: str) -> dict:
    """The environment of a machine that has the library the game names (the official one in LDRAWDIR)."""
    return {**away, "LDRAWDIR": os.environ["LDRAWDIR"]} if library == "external" else away


def test_the_genuine_pack_says_its_parts_are_its_own(travelling):
    empty, away, library = travelling
    result = bow3d("replay", "verify", "village.bowpack", "--allow-incomplete", cwd=empty, env=away)
    assert result.returncode == 0, result.stderr
    assert "on the pack's own LDraw parts (" in result.stdout
    assert ("the same as the bundled library" if library == "bundled" else "the geometry the game recorded") in result.stdout
    if library == "external":   # where the named library is here, the parts are compared with it
        result = bow3d("replay", "verify", "village.bowpack", "--allow-incomplete", cwd=empty, env=_here(away, library))
        assert result.returncode == 0 and "the same as the LDraw library here" in result.stdout, result.stderr


@pytest.mark.parametrize("digests_too", [False, True], ids=["part changed", "part and its digest changed"])
def test_a_pack_with_a_tampered_part_is_refused_naming_it(travelling, tmp_path, digests_too):
    """Issue 32: a pack's own parts are checked against the library its header names, wherever that library is
    here (the bundled one always is; the official one where LDRAWDIR says)."""
    empty, away, library = travelling
    forged = _forged(empty / "village.bowpack", tmp_path / "forged.bowpack",
                     lambda members, manifest: _hollow(members, manifest, digests_too))
    result = bow3d("replay", "verify", str(forged), "--allow-incomplete", cwd=tmp_path, env=_here(away, library))
    assert result.returncode == 2 and "Traceback" not in result.stderr and "parts/" in result.stderr
    if digests_too:
        assert ("are not those of the bundled library" if library == "bundled"
                else "are not those of the LDraw library here") in result.stderr
        assert "--allow-library pack-" in result.stderr
    else:
        assert "is not the one it was packed with" in result.stderr
    assert "refused as a forgery" in result.stderr


def test_a_tampered_pack_is_refused_by_its_replays_record_where_the_library_is_not_here(travelling, tmp_path):
    """Issue 32: with no library here to compare with (a game on an external library, verified without one), the
    replay's own record of its parts' geometry still refuses a part and digest changed in the pack."""
    empty, away, library = travelling
    forged = _forged(empty / "village.bowpack", tmp_path / "forged.bowpack",
                     lambda members, manifest: _hollow(members, manifest, True))
    result = bow3d("replay", "verify", str(forged), "--allow-incomplete", cwd=tmp_path, env=away)
    assert result.returncode == 2 and "Traceback" not in result.stderr and "parts/" not in result.stderr.split(":")[0]
    assert ("are not those of the bundled library" if library == "bundled"
            else "are not those the game was played on") in result.stderr, result.stderr


def _recommented(members, manifest) -> None:
    """The brick's bytes changed but not its geometry (a comment added), its digest made to match."""
    import hashlib

    name = _a_brick(manifest)
    members[f"ldraw/{name}"] += b"0 // re-saved by another editor\n"
    manifest["part_digests"][name] = hashlib.sha256(members[f"ldraw/{name}"]).hexdigest()


def test_a_pack_with_other_parts_plays_when_its_library_is_allowed_by_name(travelling, tmp_path):
    """Issue 32: a changed part is refused unless the user allows the pack's library by name; the name is the one
    the refusal gives, another name does not do, and verify, show and the report say what was allowed."""
    import re

    empty, away, library = travelling
    here = _here(away, library)
    forged = _forged(empty / "village.bowpack", tmp_path / "resaved.bowpack", _recommented)
    refused = bow3d("replay", "verify", str(forged), "--allow-incomplete", cwd=tmp_path, env=here)
    assert refused.returncode == 2 and "refused as a forgery" in refused.stderr, refused.stderr
    name = re.search(r"--allow-library (pack-[0-9a-f]{12})", refused.stderr).group(1)
    other = bow3d("replay", "verify", str(forged), "--allow-incomplete", "--allow-library", "pack-000000000000",
                  cwd=tmp_path, env=here)
    assert other.returncode == 2 and "refused as a forgery" in other.stderr
    allowed = bow3d("replay", "verify", str(forged), "--allow-incomplete", "--allow-library", name, cwd=tmp_path,
                    env=here)
    assert allowed.returncode == 0, allowed.stderr
    assert "1 differ from" in allowed.stdout and f"allowed by --allow-library {name}" in allowed.stdout
    shown = bow3d("replay", "show", str(forged), "--allow-library", name, cwd=tmp_path, env=here)
    assert shown.returncode == 0 and "Round 1" in shown.stdout, shown.stderr
    exported = bow3d("export", str(forged), "-o", "battle.glb", "--quality", "draft", "--allow-library", name,
                     cwd=tmp_path, env=here)
    assert exported.returncode == 0 and (tmp_path / "battle.glb").read_bytes()[:4] == b"glTF", exported.stderr
    report = bow3d("report", str(forged), "-o", "report.html", "--no-pictures", "--allow-library", name,
                   cwd=tmp_path, env=here)
    assert report.returncode == 0, report.stderr
    page = (tmp_path / "report.html").read_text()
    assert "LDraw parts" in page and f"allowed by --allow-library {name}" in page


def test_the_film_of_a_pack_says_its_parts_are_its_own(travelling, monkeypatch):
    """Issue 32: the film's time line carries the words its opening caption shows (tests/view/test_director.py)."""
    from bow3d.view.film.video import load_timeline

    empty, away, library = travelling
    for key, value in away.items():
        monkeypatch.delenv(key, raising=False) if value is None else monkeypatch.setenv(key, value)
    _scene, timeline, _opened = load_timeline(empty / "village.bowpack")
    assert timeline.parts_note == ("on the pack's own LDraw parts, the same as the library's" if library == "bundled"
                                   else "on the pack's own LDraw parts, as the game recorded them")


def _version_1(members, manifest) -> None:
    manifest["version"] = 1
    del manifest["part_digests"]


def test_a_version_1_pack_is_upgraded_and_still_checked(travelling, tmp_path):
    empty, away, library = travelling
    old = _forged(empty / "village.bowpack", tmp_path / "old.bowpack", _version_1)
    result = bow3d("replay", "verify", str(old), "--allow-incomplete", cwd=tmp_path, env=away)
    assert result.returncode == 0, result.stderr
    if library == "bundled":
        forged = _forged(empty / "village.bowpack", tmp_path / "old-forged.bowpack",
                         lambda members, manifest: (_version_1(members, manifest), _hollow(members, manifest)))
        result = bow3d("replay", "verify", str(forged), "--allow-incomplete", cwd=tmp_path, env=away)
        assert result.returncode == 2 and "are not those of the bundled library" in result.stderr
