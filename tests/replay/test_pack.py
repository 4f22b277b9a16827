"""Replays that travel (bow3d.replay.pack): `bow3d replay pack FILE -o game.bowpack` holds the replay, the
scene, the battlefield, the unit models and the parts that are not the library's; every replay command
reads it, from any folder, with no LDRAWDIR; a damaged or hostile pack is refused in one line."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from bow3d.errors import ReplayError
from bow3d.replay.opened import open_replay
from bow3d.replay.pack import MANIFEST, open_pack
from bow3d.replay.packing import write_pack
from bow3d.replay.verify import verify_replay
from tests.replay.conftest import rewrite_pack, write_scene
from tests.replay.test_session import flat, record_game

ROOT = Path(__file__).resolve().parents[2]
CUSTOM_PART = "0 a sandbag of the player's own\n0 Name: sandbag.dat\n0 !LDRAW_ORG Part\n3 16 -10 0 -10 10 0 -10 0 -8 10\n"


def run_cli(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    environment = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    environment = {k: v for k, v in environment.items() if v is not None}
    return subprocess.run([sys.executable, "-m", "bow3d", *args], capture_output=True, text=True, timeout=300,
                          cwd=cwd, env=environment)


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """A flat-field game whose battlefield uses a sub-model file and a part of the player's own."""
    folder = tmp_path_factory.mktemp("pack")
    scene_path = write_scene(folder / "scenes")
    (scene_path.parent / "parts").mkdir()
    (scene_path.parent / "sandbag.dat").write_text(CUSTOM_PART)
    (scene_path.parent / "wall.ldr").write_text("0 a wall\n1 7 0 0 0 1 0 0 0 1 0 0 0 1 sandbag.dat\n")
    (scene_path.parent / "field.ldr").write_text("0 flat field\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 wall.ldr\n"
                                                 "1 2 40 0 0 1 0 0 0 1 0 0 0 1 3001.dat\n")
    (scene_path.parent / "notes.txt").write_text("not needed by the game")
    out = folder / "replays" / "game.bowreplay"
    out.parent.mkdir()
    record_game(scene_path, 3, out, max_rounds=3)
    pack = folder / "game.bowpack"
    write_pack(out, pack)
    return scene_path, out, pack


def test_a_pack_holds_the_replay_scene_models_and_own_parts_and_names_library_parts(game):
    scene_path, out, pack = game
    with zipfile.ZipFile(pack) as archive:
        names = archive.namelist()
        manifest = json.loads(archive.read(MANIFEST))
        assert names[0] == MANIFEST
        assert archive.read("game.bowreplay") == out.read_bytes()
        assert archive.read("scene/skirmish.yaml") == scene_path.read_bytes()
    assert set(names) == {MANIFEST, "game.bowreplay", "scene/skirmish.yaml", "scene/field.ldr", "scene/wall.ldr",
                          "scene/sandbag.dat", "scene/fig.ldr"}  # nothing the game does not need (notes.txt)
    assert manifest["parts"] == "named" and "parts/3001.dat" in manifest["library_files"]
    assert manifest["replay"] == "game.bowreplay" and manifest["scene"] == "scene/skirmish.yaml"


def test_the_same_replay_packs_to_the_same_bytes(game, tmp_path):
    _, out, pack = game
    again = write_pack(out, tmp_path / "again.bowpack")
    assert again.path.read_bytes() == pack.read_bytes()


def test_a_pack_verifies_and_shows_from_an_empty_folder_without_ldrawdir(game, tmp_path):
    """The pack copied alone to an empty folder: every replay command reads it."""
    _, out, pack = game
    alone = tmp_path / "empty"
    alone.mkdir()
    shutil.copy(pack, alone / "game.bowpack")
    assert verify_replay(alone / "game.bowpack", geometry_factory=flat).ok
    result = run_cli("replay", "show", "game.bowpack", cwd=alone,
                     env={"LDRAWDIR": None, "BOW3D_CACHE_DIR": str(tmp_path / "cache")})
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("game.bowpack:") and "\nRound 1\n" in result.stdout
    assert sorted(p.name for p in alone.iterdir()) == ["game.bowpack"]  # unpacked into the cache, not here


def test_a_pack_is_unpacked_once_and_a_damaged_unpacking_heals(game, tmp_path):
    _, _, pack = game
    first = open_pack(pack, tmp_path)
    assert first.replay.is_file() and first.scene.is_file() and first.library is None
    first.scene.write_text("tampered")
    second = open_pack(pack, tmp_path)
    assert second.root == first.root and second.scene.read_bytes() != b"tampered"


def test_pack_command_writes_and_never_overwrites(game, tmp_path):
    _, out, _ = game
    target = tmp_path / "cli.bowpack"
    result = run_cli("replay", "pack", str(out), "-o", str(target), cwd=tmp_path)
    assert result.returncode == 0 and "wrote" in result.stdout and target.is_file(), result.stderr
    before = target.read_bytes()
    result = run_cli("replay", "pack", str(out), "-o", str(target), cwd=tmp_path)
    assert result.returncode == 2 and "already exists" in result.stderr and result.stderr.count("\n") == 1
    assert target.read_bytes() == before
    result = run_cli("replay", "pack", str(out), cwd=tmp_path)
    assert result.returncode == 2 and "needs -o" in result.stderr


def test_a_scene_reaching_outside_its_folder_is_refused_naming_the_file(game, tmp_path, monkeypatch):
    scene_path, out, _ = game
    monkeypatch.setenv("BOW3D_ALLOW_PATHS", str(tmp_path))  # the scene may reach there; a pack may not
    folder = tmp_path / "reach"
    shutil.copytree(scene_path.parent, folder / "scenes")
    shutil.copy(folder / "scenes" / "fig.ldr", tmp_path / "outside-fig.ldr")
    scene = folder / "scenes" / "skirmish.yaml"
    scene.write_text(scene.read_text().replace("model: fig.ldr", "model: ../../outside-fig.ldr"))
    game_file = folder / "game.bowreplay"
    record_game(scene, 3, game_file, max_rounds=1)
    with pytest.raises(ReplayError, match=r"outside-fig.ldr, which is outside the scene's folder"):
        write_pack(game_file, tmp_path / "no.bowpack")
    assert not (tmp_path / "no.bowpack").exists()


def _forge(pack: Path, out: Path, change) -> Path:
    """A copy of the pack whose members (name -> bytes) and manifest `change(members, manifest)` edits."""
    return rewrite_pack(pack, out, change)


def _link(members, manifest):
    info = zipfile.ZipInfo("scene/link.ldr")
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    manifest["files"]["scene/link.ldr"] = "0" * 64
    return [(info, b"/etc/passwd")]


def _tampered(members, manifest):
    members["scene/field.ldr"] += b"1 4 0 0 0 1 0 0 0 1 0 0 0 1 3001.dat\n"


def _climbing(members, manifest):
    members["../../evil.ldr"] = b"0 evil"
    manifest["files"]["../../evil.ldr"] = "0" * 64


def _extra(members, manifest):
    members["scene/extra.ldr"] = b"0 not listed"


def _newer(members, manifest):
    manifest["version"] = 99


def _no_scene(members, manifest):
    manifest["scene"] = "scene/missing.yaml"


@pytest.mark.parametrize("change, message", [
    (_link, "is not a plain file"),
    (_tampered, "is not what the manifest says"),
    (_climbing, "is not a plain relative path"),
    (_extra, "not the manifest's"),
    (_newer, "written by a newer bow3d"),
    (_no_scene, "which is not in the pack"),
], ids=["link", "tampered", "climbing", "extra", "newer", "no-scene"])
def test_damaged_and_hostile_packs_are_refused_in_one_line(game, tmp_path, change, message):
    _, _, pack = game
    bad = _forge(pack, tmp_path / "bad.bowpack", change)
    with pytest.raises(ReplayError, match=message) as caught:
        open_replay(bad)
    assert "\n" not in str(caught.value) and str(bad) in str(caught.value)
    assert not (tmp_path / "evil.ldr").exists()


def test_not_a_pack_and_a_zip_that_is_no_pack(tmp_path):
    fake = tmp_path / "fake.bowpack"
    fake.write_text("just text")
    with pytest.raises(ReplayError, match="not a bow3d pack \\(not a zip file\\)"):
        open_replay(fake)
    other = tmp_path / "other.bowpack"
    with zipfile.ZipFile(other, "w") as archive:
        archive.writestr("readme.txt", "hello")
    with pytest.raises(ReplayError, match="not a bow3d pack \\(no bowpack.json"):
        open_replay(other)
    result = run_cli("replay", "verify", str(other), cwd=tmp_path)
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def _encrypted(pack: Path, out: Path, member: str) -> Path:
    """A copy of the pack whose `member` says it is encrypted (the flag set in its local and central headers)."""
    blob = bytearray(pack.read_bytes())
    with zipfile.ZipFile(pack) as archive:
        offset, central = archive.getinfo(member).header_offset, archive.start_dir
    blob[offset + 6] |= 0x1                               # local header: general purpose flag
    while blob[central + 46:central + 46 + len(member)] != member.encode():
        central = blob.index(b"PK\x01\x02", central + 4)
    blob[central + 8] |= 0x1                              # central directory: the same flag
    out.write_bytes(bytes(blob))
    return out


def test_an_encrypted_member_is_refused_in_one_line(game, tmp_path):
    """Issue 32: a pack with an encrypted member was an internal error (RuntimeError: password required), exit 1."""
    _, _, pack = game
    bad = _encrypted(pack, tmp_path / "locked.bowpack", "scene/field.ldr")
    with zipfile.ZipFile(bad) as archive:
        assert archive.getinfo("scene/field.ldr").flag_bits & 0x1
    with pytest.raises(ReplayError, match="member 'scene/field.ldr' is encrypted") as caught:
        open_replay(bad)
    assert "\n" not in str(caught.value)
    result = run_cli("replay", "verify", str(bad), cwd=tmp_path, env={"BOW3D_CACHE_DIR": str(tmp_path / "cache")})
    assert result.returncode == 2 and "is encrypted" in result.stderr and "Traceback" not in result.stderr
    assert "internal error" not in result.stderr


# --- issue 32: unpacking is bounded by the load budget, streamed, and the cache does not grow for good -------

def _padded(pack: Path, out: Path, sizes: list[int]) -> Path:
    """A copy of the pack with members scene/pad-K.ldr of `sizes` bytes (zeros: a few kB each once deflated), the
    manifest listing them with their true digests (a pack that is honest about its members, only big)."""
    def change(members, manifest):
        for k, size in enumerate(sizes):
            members[f"scene/pad-{k}.ldr"] = bytes(size)

    return rewrite_pack(pack, out, change, fix_digests=True, deflate=1)


def test_a_small_pack_that_unpacks_past_the_load_budget_is_refused_before_unpacking(game, tmp_path):
    """Issue 32: a 1 MB pack unpacked 1 GB into the cache. Now what a pack may unpack is the replay and the load
    budget's LDraw text (bow3d.ldraw.budget), refused from the members' sizes before a byte is written, naming
    the pack, the member and the budget."""
    from bow3d.ldraw.budget import DEFAULT_MAX_BYTES_READ
    from bow3d.replay.pack import MAX_MEMBER_BYTES, MAX_PACK_BYTES

    assert MAX_PACK_BYTES == MAX_MEMBER_BYTES + DEFAULT_MAX_BYTES_READ < 1024 ** 3
    _, _, pack = game
    count = MAX_PACK_BYTES // MAX_MEMBER_BYTES + 1
    bomb = _padded(pack, tmp_path / "bomb.bowpack", [MAX_MEMBER_BYTES] * count)
    assert bomb.stat().st_size < 2 * 1024 * 1024     # under 2 MB on disk
    cache = tmp_path / "cache"
    with pytest.raises(ReplayError, match=r"bomb.bowpack -> scene/pad-\d\.ldr: the pack unpacks to .* more than the "
                                          r"load budget allows a pack") as caught:
        open_pack(bomb, cache)
    assert "LoadBudget.max_bytes_read" in str(caught.value) and "\n" not in str(caught.value)
    assert not cache.exists() or not any(cache.rglob("*.ldr"))
    result = run_cli("replay", "verify", str(bomb), cwd=tmp_path, env={"BOW3D_CACHE_DIR": str(cache)})
    assert result.returncode == 2 and "load budget" in result.stderr and "Traceback" not in result.stderr


def test_a_pack_is_unpacked_member_by_member_not_into_memory(game, tmp_path):
    """Issue 32: every member was held in memory before any was written (the whole pack, up to its limit)."""
    import tracemalloc

    _, _, pack = game
    big = _padded(pack, tmp_path / "big.bowpack", [40 * 1024 * 1024] * 3)
    tracemalloc.start()
    try:
        contents = open_pack(big, tmp_path / "cache")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (contents.root / "scene" / "pad-2.ldr").stat().st_size == 40 * 1024 * 1024
    assert peak < 24 * 1024 * 1024, f"{peak:,} bytes at the peak for 120 MB of members"


def test_the_pack_cache_keeps_the_packs_used_last_within_its_bounds(game, tmp_path, monkeypatch):
    """Issue 32: every distinct pack stayed unpacked in the cache for good. Now the least recently opened leave
    it past CACHE_MAX_PACKS packs or CACHE_MAX_BYTES bytes; one opened again is unpacked again, whole."""
    import bow3d.replay.pack as packs

    _, _, pack = game
    cache = tmp_path / "cache"
    variants = [_forge(pack, tmp_path / f"v{k}.bowpack", lambda m, manifest, k=k: manifest.update(bow3d=f"v{k}"))
                for k in range(4)]
    monkeypatch.setattr(packs, "CACHE_MAX_PACKS", 2)
    roots = [open_pack(v, cache).root for v in variants[:3]]
    assert sorted(p.name for p in cache.iterdir()) == sorted(r.name for r in roots[1:])
    open_pack(variants[1], cache)                     # used again: now the most recent
    open_pack(variants[3], cache)
    assert roots[1].is_dir() and not roots[2].exists()
    monkeypatch.setattr(packs, "CACHE_MAX_PACKS", 32)
    monkeypatch.setattr(packs, "CACHE_MAX_BYTES", 1)  # smaller than any pack: only the one just opened stays
    again = open_pack(variants[0], cache)
    assert [p.name for p in cache.iterdir()] == [again.root.name]
    assert open_replay(variants[0]).replay.entries
