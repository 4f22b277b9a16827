"""Film output choices (issue 18): --quality draft|default|high, --clip START:END, --gif, the sizes and
frame rates, never an existing file overwritten; tiny films (64x36 at 2 frames/s, a few seconds of the
bundled village replay) so that the tests stay quick."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VILLAGE = ROOT / "replays" / "village-seed1.bowreplay"


# --- no rendering -----------------------------------------------------------------------------------

@pytest.mark.parametrize("text, start, end", [("10:25", 10.0, 25.0), ("10:", 10.0, None), (":4.5", 0.0, 4.5),
                                              (" 2 : 3 ", 2.0, 3.0)])
def test_clip_is_read_as_seconds(text, start, end):
    from bow3d.view.film.video import parse_clip

    clip = parse_clip(text)
    assert (clip.start_s, clip.end_s) == (start, end)


@pytest.mark.parametrize("text", ["10", "a:b", "25:10", "5:5", "-1:4", "nan:3", "1:2:3"])
def test_a_bad_clip_is_one_line(text):
    from bow3d.errors import UserInputError
    from bow3d.view.film.video import parse_clip

    with pytest.raises(UserInputError, match="--clip") as caught:
        parse_clip(text)
    assert "\n" not in str(caught.value)


def test_clip_frames_are_the_films_frames_and_stay_inside_it():
    from bow3d.errors import UserInputError
    from bow3d.view.film.video import Clip

    assert Clip(10.0, 25.0).frames(80.0, 2, 160) == range(20, 50)
    assert Clip(10.0, None).frames(80.0, 2, 160) == range(20, 160)
    with pytest.raises(UserInputError, match="80.0 s long"):
        Clip(10.0, 90.0).frames(80.0, 2, 160)
    with pytest.raises(UserInputError, match="80.0 s long"):
        Clip(80.0, None).frames(80.0, 2, 160)


def test_quality_names_and_order():
    from bow3d.errors import UserInputError
    from bow3d.view.film.encoder import QUALITIES, quality_settings

    assert list(QUALITIES) == ["draft", "default", "high"]
    crfs = [quality_settings(name)[0] for name in QUALITIES]
    assert crfs == sorted(crfs, reverse=True)  # draft: the highest CRF (smallest), high: the lowest
    with pytest.raises(UserInputError, match="draft, default, high"):
        quality_settings("best")


def test_help_examples_parse_and_name_real_replays():
    """Every `bow3d replay` example of --help parses with the command's own parser, and its replay is bundled."""
    from bow3d.cli import build_parser
    from bow3d.commands import replay

    parser = build_parser()
    examples = [line.strip() for line in replay.DESCRIPTION.split("examples:")[1].splitlines() if line.strip()]
    film_examples = [e for e in examples if "--video" in e or "--gif" in e]
    assert any("--quality" in e for e in film_examples) and any("--clip" in e for e in film_examples)
    assert any("--gif" in e for e in film_examples)
    for example in film_examples:
        words = shlex.split(example)
        args = parser.parse_args(words[1:])
        assert (ROOT / args.what).is_file(), example
        if args.clip:
            from bow3d.view.film.video import parse_clip

            parse_clip(args.clip)


def test_help_gives_sizes_per_quality(capsys):
    from bow3d.cli import main

    with pytest.raises(SystemExit):
        main(["replay", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for name in ("draft", "default", "high"):
        assert f"{name}: CRF" in text
    assert "MB a minute" in text and "_MB" not in text and "QUALITY_SIZES" not in text


# --- tiny films of the bundled village replay --------------------------------------------------------

@pytest.mark.render
def test_clip_mp4_has_the_clips_frames(tmp_path, renderer_available):
    import imageio_ffmpeg

    from bow3d.view.film.video import Clip, render_replay_video

    out = tmp_path / "clip.mp4"
    stats = render_replay_video(VILLAGE, out, size=(64, 36), fps=2, progress=False, clip=Clip(10.0, 15.0),
                                quality="draft")
    data = out.read_bytes()
    assert data[4:8] == b"ftyp"
    frames, seconds = imageio_ffmpeg.count_frames_and_secs(str(out))
    assert frames == stats.frames == 10 and abs(seconds - 5.0) < 0.01


@pytest.mark.render
def test_clip_frames_equal_the_whole_films_frames(renderer_available):
    """A clip is the same film cut: its frames are the whole film's frames at the same times."""
    import hashlib

    from bow3d.view.film.video import Clip, FilmRenderer, clip_frames, load_timeline

    scene, timeline, opened = load_timeline(VILLAGE)
    renderer = FilmRenderer(scene, timeline, (64, 36), opened.library(), world=opened.world())
    try:
        frames = clip_frames(renderer, 2, Clip(10.0, 12.0))
        assert frames == range(20, 24)
        cut = [hashlib.sha256(bytes(renderer.frame_bytes(i / 2))).hexdigest() for i in frames]
        again = [hashlib.sha256(bytes(renderer.frame_bytes(t))).hexdigest() for t in (10.0, 10.5, 11.0, 11.5)]
        assert cut == again
    finally:
        renderer.close()


@pytest.mark.render
def test_gif_is_a_gif89a_of_the_clip(tmp_path, renderer_available):
    import imageio_ffmpeg

    from bow3d.view.film.video import Clip, render_replay_video

    out = tmp_path / "clip.gif"
    stats = render_replay_video(VILLAGE, None, size=(64, 36), fps=2, progress=False, clip=Clip(10.0, 13.0),
                                gif_path=out)
    data = out.read_bytes()
    assert data[:6] == b"GIF89a"
    assert int.from_bytes(data[6:8], "little") == 64 and int.from_bytes(data[8:10], "little") == 36
    frames, _ = imageio_ffmpeg.count_frames_and_secs(str(out))
    assert frames == stats.frames == 6


@pytest.mark.render
def test_gif_beside_a_video_is_scaled_and_resampled(tmp_path, renderer_available):
    import imageio_ffmpeg

    from bow3d.view.film.video import Clip, render_replay_video

    video, gif = tmp_path / "clip.mp4", tmp_path / "clip.gif"
    render_replay_video(VILLAGE, video, size=(128, 72), fps=4, progress=False, clip=Clip(10.0, 12.0),
                        gif_path=gif, gif_width=64, gif_fps=2)
    data = gif.read_bytes()
    assert data[:6] == b"GIF89a" and int.from_bytes(data[6:8], "little") == 64
    assert imageio_ffmpeg.count_frames_and_secs(str(gif))[0] == 4
    assert imageio_ffmpeg.count_frames_and_secs(str(video))[0] == 8


@pytest.mark.render
def test_draft_is_smaller_than_high(tmp_path, renderer_available):
    from bow3d.view.film.video import Clip, render_replay_video

    sizes = {}
    for quality in ("draft", "high"):
        out = tmp_path / f"{quality}.mp4"
        render_replay_video(VILLAGE, out, size=(160, 90), fps=4, progress=False, clip=Clip(8.0, 12.0),
                            quality=quality)
        sizes[quality] = out.stat().st_size
    assert sizes["draft"] < sizes["high"]


@pytest.mark.render
def test_cli_refuses_an_existing_file_and_a_bad_clip(tmp_path, capsys, monkeypatch, renderer_available):
    from bow3d.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "kept.mp4").write_bytes(b"mine")
    (tmp_path / "kept.gif").write_bytes(b"mine too")
    capsys.readouterr()
    assert main(["replay", str(VILLAGE), "--video", "kept.mp4", "--size", "64x36", "--fps", "2",
                 "--clip", "10:11"]) == 2
    assert (tmp_path / "kept.mp4").read_bytes() == b"mine" and "already exists" in capsys.readouterr().err
    assert main(["replay", str(VILLAGE), "--gif", "kept.gif", "--clip", "10:11"]) == 2
    assert (tmp_path / "kept.gif").read_bytes() == b"mine too"
    capsys.readouterr()
    for clip in ("25:10", "10:9999", "x"):
        assert main(["replay", str(VILLAGE), "--video", "new.mp4", "--size", "64x36", "--fps", "2",
                     "--clip", clip]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "--clip" in err, err
        assert not (tmp_path / "new.mp4").exists()
        assert not list(tmp_path.glob(".new.mp4*"))  # no temporary file left behind


@pytest.mark.render
def test_cli_writes_a_clip_and_a_gif(tmp_path, capsys, monkeypatch, renderer_available):
    from bow3d.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["replay", str(VILLAGE), "--video", "c.mp4", "--gif", "c.gif", "--size", "64x36", "--fps", "2",
                 "--quality", "draft", "--clip", "10:12"]) == 0
    out = capsys.readouterr().out
    assert "wrote c.mp4: 2.0 s (--clip 10:12)" in out and "wrote c.gif" in out
    assert (tmp_path / "c.mp4").read_bytes()[4:8] == b"ftyp"
    assert (tmp_path / "c.gif").read_bytes()[:6] == b"GIF89a"


@pytest.mark.render
def test_a_long_gif_needs_a_clip(tmp_path, capsys, monkeypatch, renderer_available):
    from bow3d.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["replay", str(VILLAGE), "--gif", "all.gif", "--size", "64x36", "--fps", "2"]) == 2
    assert "--clip" in capsys.readouterr().err
    assert not (tmp_path / "all.gif").exists()


@pytest.mark.render
def test_a_film_stopped_with_sigterm_leaves_no_file(tmp_path, renderer_available):
    """Issue 32: SIGTERM killed the film and left its hidden temporary file (.out.mp4.*.tmp.mp4, 15 MB)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    film = subprocess.Popen([sys.executable, "-m", "bow3d", "replay", str(VILLAGE), "--video", "out.mp4",
                             "--size", "320x180", "--quality", "draft"], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while not list(tmp_path.glob(".out.mp4*")) and film.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert film.poll() is None and list(tmp_path.glob(".out.mp4*")), "the film never started its file"
        time.sleep(0.5)  # a few frames encoded
        film.send_signal(signal.SIGTERM)
        out, err = film.communicate(timeout=60)
    finally:
        if film.poll() is None:
            film.kill()
            film.communicate()
    assert film.returncode == 128 + signal.SIGTERM, (film.returncode, err[-2000:])
    assert "Traceback" not in err and "stopped (SIGTERM)" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no temporary file, no partial film
