"""Safe writes (the Trust issue): no output follows a link, nothing is replaced without --force, a
failed write leaves no temporary file. bow3d.paths is the one implementation; the commands use it."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest

from bow3d.cli import main
from bow3d.errors import UserInputError
from bow3d.paths import check_new, free_path, new_file_name, open_exclusive, open_new, write_new

LIBRARY = Path(__file__).resolve().parents[2] / "ldraw_library"
FIGURE = (Path(__file__).resolve().parents[2] / "scenes" / "figures" / "blue-rifleman.ldr").read_text()
# A baseplate with one minifig placed on it as a sub-model: the smallest input of `scene from-ldraw`.
MODEL = ("0 FILE field.ldr\n0 Name: field.ldr\n1 2 0 0 0 1 0 0 0 1 0 0 0 1 3811.dat\n"
         "1 16 40 0 40 1 0 0 0 1 0 0 0 1 blue-rifleman.ldr\n0 NOFILE\n0 FILE blue-rifleman.ldr\n" + FIGURE + "0 NOFILE\n")


def _from_ldraw(tmp_path: Path, *extra: str) -> int:
    model = tmp_path / "field.mpd"
    if not model.exists():
        model.write_text(MODEL)
    return main(["scene", "from-ldraw", str(model), "-o", str(tmp_path / "battle.yaml"), "--library", str(LIBRARY),
                 *extra])


def _victim(tmp_path: Path) -> Path:
    victim = tmp_path / "elsewhere" / "precious.txt"
    victim.parent.mkdir()
    victim.write_text("the user's own file\n")
    return victim


def test_from_ldraw_tmp_symlink_is_not_written_through(tmp_path, capsys):
    """Was: SCENE.yaml.tmp was written through any link of that name, then renamed over the scene."""
    victim = _victim(tmp_path)
    (tmp_path / "battle.yaml.tmp").symlink_to(victim)
    (tmp_path / "other.tmp").write_text("mine\n")
    assert _from_ldraw(tmp_path) == 0, capsys.readouterr().err
    assert victim.read_text() == "the user's own file\n"
    assert (tmp_path / "battle.yaml.tmp").is_symlink() and (tmp_path / "battle.yaml").is_file()
    assert not (tmp_path / "battle.yaml").is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "battle-decor.ldr", "battle-units", "battle.yaml", "battle.yaml.tmp", "elsewhere", "field.mpd", "other.tmp"]


def test_from_ldraw_existing_tmp_file_is_kept(tmp_path, capsys):
    """Was: an existing SCENE.yaml.tmp of the user's was destroyed without --force."""
    (tmp_path / "battle.yaml.tmp").write_text("my notes\n")
    assert _from_ldraw(tmp_path) == 0, capsys.readouterr().err
    assert (tmp_path / "battle.yaml.tmp").read_text() == "my notes\n"


@pytest.mark.parametrize("which", ["battle-decor.ldr", "battle-units/blue-1.ldr", "battle.yaml"])
def test_from_ldraw_force_never_writes_through_symlinked_outputs(tmp_path, capsys, which):
    """Was: with --force the decor and unit files were written through links to their targets."""
    assert _from_ldraw(tmp_path) == 0
    victim = _victim(tmp_path)
    link = tmp_path / which
    link.unlink()
    link.symlink_to(victim)
    capsys.readouterr()
    assert _from_ldraw(tmp_path, "--force") == 2
    err = capsys.readouterr().err
    assert "symbolic link" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert victim.read_text() == "the user's own file\n" and link.is_symlink()


def test_from_ldraw_refuses_a_symlinked_units_folder(tmp_path, capsys):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "battle-units").symlink_to(elsewhere, target_is_directory=True)
    assert _from_ldraw(tmp_path) == 2
    assert "battle-units" in capsys.readouterr().err and not list(elsewhere.iterdir())


def test_from_ldraw_without_force_writes_nothing_when_one_output_exists(tmp_path, capsys):
    (tmp_path / "battle-units").mkdir()
    (tmp_path / "battle-units" / "blue-1.ldr").write_text("mine\n")
    assert _from_ldraw(tmp_path) == 2
    assert "already exists" in capsys.readouterr().err
    assert not (tmp_path / "battle.yaml").exists() and not (tmp_path / "battle-decor.ldr").exists()
    assert (tmp_path / "battle-units" / "blue-1.ldr").read_text() == "mine\n"


def test_render_refuses_a_dangling_symlink(tmp_path, capsys):
    """Was: `render -o` wrote the picture through a dangling link (exists() is False for it)."""
    model = tmp_path / "m.ldr"
    model.write_text("1 4 0 0 0 1 0 0 0 1 0 0 0 1 3001.dat\n")
    target = tmp_path / "elsewhere" / "created.png"
    target.parent.mkdir()
    (tmp_path / "m.png").symlink_to(target)
    for extra in ([], ["--force"]):
        assert main(["render", str(model), "-o", str(tmp_path / "m.png"), "--size", "32x32", "--library",
                     str(LIBRARY), *extra]) == 2
        assert "symbolic link" in capsys.readouterr().err
        assert not target.exists()


def test_schema_output_refuses_links_and_keeps_files(tmp_path, capsys):
    victim = _victim(tmp_path)
    link = tmp_path / "scene.schema.json"
    link.symlink_to(victim)
    assert main(["schema", "scene", "-o", str(link), "--force"]) == 2
    assert "symbolic link" in capsys.readouterr().err and victim.read_text() == "the user's own file\n"
    out = tmp_path / "s.json"
    assert main(["schema", "scene", "-o", str(out)]) == 0
    assert out.read_text().startswith("{") and [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


# bow3d.paths itself


def test_write_new_refuses_links_special_files_and_existing_files(tmp_path):
    write_new(tmp_path / "a.txt", "one")
    with pytest.raises(UserInputError, match="already exists; choose another name or pass --force"):
        write_new(tmp_path / "a.txt", "two")
    assert write_new(tmp_path / "a.txt", b"two", force=True).read_bytes() == b"two"
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    with pytest.raises(UserInputError, match="symbolic link"):
        write_new(tmp_path / "dangling", "x", force=True)
    assert not (tmp_path / "nowhere").exists()
    with pytest.raises(UserInputError, match="is a folder"):
        write_new(tmp_path, "x", force=True)
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(UserInputError, match="not a regular file"):
        check_new(tmp_path / "fifo", force=True)
    with pytest.raises(UserInputError, match="does not exist"):
        write_new(tmp_path / "no" / "a.txt", "x")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "dangling", "fifo"]


def test_a_full_disk_is_one_line_and_leaves_no_temporary_file(tmp_path, monkeypatch):
    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(UserInputError) as caught:
        write_new(tmp_path / "big.png", b"x" * 1000)
    assert str(caught.value) == f"{tmp_path / 'big.png'}: cannot be written (the disk is full; free some space and run again)"
    assert list(tmp_path.iterdir()) == []


def test_no_permission_is_one_line(tmp_path, monkeypatch):
    def refused(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr("tempfile.mkstemp", refused)
    with pytest.raises(UserInputError, match="cannot be written \\(permission denied; choose a folder you may write"):
        write_new(tmp_path / "a.txt", "x")
    assert list(tmp_path.iterdir()) == []


def test_a_failing_writer_leaves_nothing_and_the_old_file_whole(tmp_path):
    (tmp_path / "a.txt").write_text("old")
    with pytest.raises(RuntimeError), open_new(tmp_path / "a.txt", force=True) as handle:
        handle.write("half of the new")
        raise RuntimeError("the writer failed")
    assert [p.name for p in tmp_path.iterdir()] == ["a.txt"] and (tmp_path / "a.txt").read_text() == "old"


def test_a_file_appearing_meanwhile_is_not_replaced_without_force(tmp_path):
    with pytest.raises(UserInputError, match="already exists"), new_file_name(tmp_path / "p.png") as tmp:
        assert tmp.parent == tmp_path and tmp.suffix == ".png" and tmp.name.startswith(".p.png.")
        tmp.write_bytes(b"new")
        (tmp_path / "p.png").write_bytes(b"someone else's")
    assert [p.name for p in tmp_path.iterdir()] == ["p.png"] and (tmp_path / "p.png").read_bytes() == b"someone else's"


def test_free_path_counts_a_dangling_link_as_taken(tmp_path):
    (tmp_path / "village.png").symlink_to(tmp_path / "nowhere.png")
    assert free_path(tmp_path, "village", ".png") == tmp_path / "village-2.png"


def test_open_exclusive_streams_into_a_new_file_only(tmp_path):
    with open_exclusive(tmp_path / "game.bowreplay") as handle:
        handle.write('{"format": "bow3d-replay"}\n')
        assert (tmp_path / "game.bowreplay").read_text() == '{"format": "bow3d-replay"}\n'  # line by line
    with pytest.raises(UserInputError, match="already exists"):
        open_exclusive(tmp_path / "game.bowreplay")
    open_exclusive(tmp_path / "game.bowreplay", "wb", force=True).close()
    assert (tmp_path / "game.bowreplay").read_bytes() == b""
    (tmp_path / "link.bowreplay").symlink_to(tmp_path / "nowhere")
    with pytest.raises(UserInputError, match="symbolic link"):
        open_exclusive(tmp_path / "link.bowreplay", force=True)
    assert not (tmp_path / "nowhere").exists()


def test_heatmap_refuses_a_dangling_link_before_the_long_work(tmp_path, capsys):
    (tmp_path / "map.png").symlink_to(tmp_path / "created.png")
    scene = Path(__file__).resolve().parents[2] / "scenes" / "village.yaml"
    assert main(["heatmap", str(scene), "--from", "blue-sword", "-o", str(tmp_path / "map.png"), "--force"]) == 2
    assert "symbolic link" in capsys.readouterr().err and not (tmp_path / "created.png").exists()


@pytest.mark.parametrize("mask", [0o022, 0o077, 0o002])
def test_written_files_get_the_permissions_open_would_give(tmp_path, mask):
    """A picture or a film written by bow3d is readable as any file the user makes (umask applied),
    not private to its owner like the temporary file it was written through (mkstemp's 0600)."""
    old = os.umask(mask)
    try:
        out = write_new(tmp_path / "picture.png", b"data")
        with new_file_name(tmp_path / "film.mp4") as tmp:
            tmp.write_bytes(b"film")
    finally:
        os.umask(old)
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~mask
    assert stat.S_IMODE((tmp_path / "film.mp4").stat().st_mode) == 0o666 & ~mask


@pytest.mark.parametrize("args", [
    ["simulate", "SCENE", "--games", "1", "--no-progress", "--replays", "OUT"],
    ["replay", "films", "REPLAYS", "-o", "OUT"],
    ["demo", "--out", "OUT", "--no-video"],
], ids=["simulate --replays", "replay films -o", "demo --out"])
def test_an_output_folder_under_a_file_is_one_line_and_exit_2(tmp_path, capsys, args):
    """An output folder whose way runs through a file (or one that stands as a file) is refused with the
    option to change, exit 2, before anything is written; it was an 'internal error' (NotADirectoryError)."""
    root = Path(__file__).resolve().parents[2]
    lone = tmp_path / "lone.yaml"
    lone.write_text("the user's own file\n")
    swap = {"SCENE": str(root / "scenes" / "village.yaml"), "REPLAYS": str(root / "replays")}
    for out, words in ((lone / "sub", "the folder cannot be made (a file stands where a folder is needed on the way)"),
                       (lone, "exists and is not a folder")):
        assert main([swap.get(a, str(out) if a == "OUT" else a) for a in args]) == 2
        err = capsys.readouterr().err
        assert f"{out}: {words}; choose another {args[args.index('OUT') - 1]}" in err and "internal" not in err
    assert lone.read_text() == "the user's own file\n" and sorted(tmp_path.iterdir()) == [lone]
