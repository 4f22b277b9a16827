"""End to end: `bow3d demo` on the bundled village, as README's first command runs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bow3d.cli import main


def graphics_pipe() -> bool:
    """Whether Panda3D can open an offscreen buffer here (render steps are skipped with a note otherwise)."""
    from bow3d.view.output.offscreen import OffscreenRenderer, RenderUnavailable

    try:
        OffscreenRenderer(64, 64).close()
    except RenderUnavailable:
        return False
    return True


def test_demo_reports_draws_plays_and_records(tmp_path: Path, capsys):
    """The summary, the picture (where a pipe exists), an AI game whose replay verifies, free names."""
    from bow3d.replay import read_replay
    from bow3d.replay.verify import verify_replay

    out = tmp_path / "demo"
    assert main(["demo", "--out", str(out), "--no-video", "--max-rounds", "3"]) == 0
    text = capsys.readouterr().out
    assert "Village: battlefield village.ldr with" in text and "0 missing" in text
    assert "Blue army: 7 minifigs" in text and "Red army: 10 minifigs" in text and "cost points (BOW A.4)" in text
    replay = out / "village-seed1.bowreplay"
    assert replay.is_file() and f"replay {replay}" in text
    assert read_replay(replay).header.seed == 1 and verify_replay(replay).ok
    picture = out / "village.png"
    if graphics_pipe():
        assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    else:
        assert "skipped the picture" in text and not picture.exists()
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert main(["demo", "--out", str(out), "--no-video", "--max-rounds", "3"]) == 0
    after = {p.name: p.read_bytes() for p in out.iterdir()}
    assert all(after[name] == data for name, data in before.items())  # never overwritten
    assert "village-seed1-2.bowreplay" in after
    assert ("village-2.png" in after) == graphics_pipe()


def test_demo_films_the_game(tmp_path: Path, capsys):
    """The film step: an MP4 from the replay (C5); skipped with a note where no pipe exists."""
    out = tmp_path / "demo"
    assert main(["demo", "--out", str(out), "--max-rounds", "2", "--size", "64x36", "--video-size", "160x90",
                 "--film-seconds", "1"]) == 0
    text = capsys.readouterr().out
    film = out / "village-seed1.mp4"
    if graphics_pipe():
        assert film.is_file() and film.stat().st_size > 0 and "frames" in text
    else:
        assert "skipped the film" in text


def test_demo_picture_only(tmp_path: Path, capsys):
    assert main(["demo", "--out", str(tmp_path), "--no-game", "--size", "64x36"]) == 0
    assert not list(tmp_path.glob("*.bowreplay"))


@pytest.mark.parametrize("args, message", [
    (["--size", "big"], "--size 'big'"),
    (["--max-rounds", "0"], "--max-rounds must be at least 1"),
])
def test_demo_bad_input_exit_2(tmp_path: Path, args, message):
    result = subprocess.run([sys.executable, "-m", "bow3d", "demo", "--out", str(tmp_path), *args],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and message in result.stderr and "Traceback" not in result.stderr


def test_demo_refuses_a_file_as_folder(tmp_path: Path, capsys):
    taken = tmp_path / "file.txt"
    taken.write_text("mine")
    assert main(["demo", "--out", str(taken), "--no-game"]) == 2
    assert taken.read_text() == "mine"


def test_demo_help_has_examples(capsys):
    with pytest.raises(SystemExit):
        main(["demo", "--help"])
    text = capsys.readouterr().out
    assert "examples:" in text and "bow3d demo --no-video" in text
