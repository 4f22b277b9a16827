"""MP4 (H.264) out of raw frames, through the ffmpeg that imageio-ffmpeg ships: no encoder of our own.

Layer: view (no Panda3D here). ffmpeg runs in its own process and reads frames from a pipe,
so it encodes while the next frame renders. Frames go in as the offscreen buffer holds them
(bottom row first, BGR bytes: no copy or flip in Python) and ffmpeg flips them; or as
(H, W, 3) RGB numpy arrays, top row first.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import numpy as np

from bow3d.errors import Bow3dError, UserInputError
from bow3d.i18n import _

PRESET = "veryfast"  # x264 speed/size: at CRF 23 on the village film's 720p frames superfast made files 2.2x as
# big for 15 % less encoding time, and the whole film rendered no faster (the encoder runs beside the renderer)
CRF = 23  # x264 constant quality: 18 is near transparent, 23 is x264's default

# --quality: (x264 CRF, preset) per name; sizes measured on the village film's first 20 s at 1280x720 in
# bow3d replay --help (QUALITY_HELP) and the README.
QUALITIES = {"draft": (30, "veryfast"), "default": (CRF, PRESET), "high": (18, "medium")}

GIF_WIDTH = 480  # a GIF's default width (height from the film's aspect) and frame rate: a few MB for 10 s
GIF_FPS = 10


def check_size(size: tuple[int, int]) -> tuple[int, int]:
    """(width, height) as ints; H.264 in yuv420p needs even sizes of at least 16 pixels."""
    try:
        width, height = (int(v) for v in size)
    except (TypeError, ValueError):
        raise UserInputError(_("video size {size!r}: give two whole numbers, e.g. 1280x720").format(size=size)) from None
    if width < 16 or height < 16 or width % 2 or height % 2 or width > 7680 or height > 4320:
        raise UserInputError(_("video size {width}x{height}: width and height must be even numbers "
                               "between 16 and 7680x4320, e.g. 1280x720 or 640x360")
                             .format(width=width, height=height))
    return width, height


def quality_settings(quality: str) -> tuple[int, str]:
    """(CRF, x264 preset) of a --quality name (draft, default, high)."""
    try:
        return QUALITIES[quality]
    except KeyError:
        raise UserInputError(_("quality {quality!r}: choose one of {value}")
                             .format(quality=quality, value=', '.join(QUALITIES))) from None


def free_output(path: str | Path, overwrite: bool = False, suffix: str = ".mp4") -> Path:
    """The output path, refused when a file is already there (a user's file is never overwritten)."""
    from bow3d.paths import check_new

    path = Path(path)
    if path.suffix.lower() != suffix:
        kind = "video is written as MP4" if suffix == ".mp4" else f"picture is written as {suffix[1:].upper()}"
        raise UserInputError(_("{path}: the {kind}; give a file name ending in {suffix}")
                             .format(path=path, kind=kind, suffix=suffix))
    return check_new(path, force=overwrite)  # no link, no special file, an existing one only when asked


class Mp4Writer:
    """Frames in, an MP4 out: `write(frame)` per frame, then `close()` (or use it as a context manager).

    `raw_bottom_up=True`: frames are bytes or arrays in the buffer's own layout (BGR, bottom
    row first); else (H, W, 3) uint8 RGB arrays, top row first.
    """

    def __init__(self, path: str | Path, size: tuple[int, int], fps: int, raw_bottom_up: bool = True,
                 crf: int = CRF, preset: str = PRESET):
        import imageio_ffmpeg

        self.path = Path(path)
        self.size = check_size(size)
        self.frames = 0
        filters = ["-vf", "vflip"] if raw_bottom_up else []
        self._frame_bytes = self.size[0] * self.size[1] * 3
        self._gen = imageio_ffmpeg.write_frames(
            str(self.path), self.size, pix_fmt_in="bgr24" if raw_bottom_up else "rgb24", pix_fmt_out="yuv420p",
            fps=fps, codec="libx264", quality=None, macro_block_size=1, ffmpeg_log_level="error",
            output_params=[*filters, "-preset", preset, "-crf", str(crf), "-movflags", "+faststart"])
        try:
            self._gen.send(None)
        except Exception as error:  # noqa: BLE001 (ffmpeg missing or refusing its arguments)
            raise Bow3dError(_("{path}: cannot start the video encoder (ffmpeg from imageio-ffmpeg): "
                               "{error}").format(path=self.path, error=error)) from None

    def write(self, frame) -> None:
        data = frame if isinstance(frame, bytes | bytearray | memoryview) else np.ascontiguousarray(frame).tobytes()
        if len(data) != self._frame_bytes:
            raise ValueError(f"frame of {len(data)} bytes, expected {self._frame_bytes} "
                             f"({self.size[0]}x{self.size[1]}x3)")
        try:
            self._gen.send(data)
        except Exception as error:  # noqa: BLE001 (whatever stopped ffmpeg's pipe)
            raise Bow3dError(_("{path}: the video encoder stopped: {error}").format(path=self.path, error=error)) from None
        self.frames += 1

    def close(self) -> None:
        if self._gen is not None:
            self._gen.close()
            self._gen = None

    def __enter__(self) -> Mp4Writer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class GifWriter:
    """Frames in, an animated GIF out, through ffmpeg: one palette of 256 colours made from every frame
    (palettegen), then each frame mapped onto it (paletteuse, light dithering); scaled to `width`
    (height from the aspect) and resampled to `fps` on the way. The same interface as Mp4Writer."""

    def __init__(self, path: str | Path, size: tuple[int, int], fps: int, raw_bottom_up: bool = True,
                 width: int = GIF_WIDTH, gif_fps: int = GIF_FPS):
        import subprocess

        import imageio_ffmpeg

        self.path = Path(path)
        self.size = check_size(size)
        self.frames = 0
        self._frame_bytes = self.size[0] * self.size[1] * 3
        width = min(int(width), self.size[0])
        chain = ["vflip"] if raw_bottom_up else []
        if gif_fps != fps:
            chain.append(f"fps={gif_fps}")
        if width != self.size[0]:
            chain.append(f"scale={width}:-2:flags=lanczos")
        graph = ",".join([*chain, "split[a][b]"]) + ";[a]palettegen=stats_mode=full[p];" \
            "[b][p]paletteuse=dither=bayer:bayer_scale=4"
        command = [imageio_ffmpeg.get_ffmpeg_exe(), "-hide_banner", "-loglevel", "error", "-y",
                   "-f", "rawvideo", "-pix_fmt", "bgr24" if raw_bottom_up else "rgb24",
                   "-s", f"{self.size[0]}x{self.size[1]}", "-r", str(fps), "-i", "-",
                   "-filter_complex", graph, "-loop", "0", "-f", "gif", str(self.path)]
        try:
            self._process: subprocess.Popen[bytes] | None = subprocess.Popen(command, stdin=subprocess.PIPE,
                                                                             stderr=subprocess.PIPE)
        except OSError as error:
            raise Bow3dError(_("{path}: cannot start ffmpeg (from imageio-ffmpeg): {error}")
                             .format(path=self.path, error=error)) from None

    def write(self, frame) -> None:
        data = frame if isinstance(frame, bytes | bytearray | memoryview) else np.ascontiguousarray(frame).tobytes()
        if len(data) != self._frame_bytes:
            raise ValueError(f"frame of {len(data)} bytes, expected {self._frame_bytes} "
                             f"({self.size[0]}x{self.size[1]}x3)")
        assert self._process is not None and self._process.stdin is not None  # open until close(), on a pipe
        try:
            self._process.stdin.write(data)
        except (BrokenPipeError, OSError):
            raise Bow3dError(_("{path}: the GIF encoder stopped: {value}").format(path=self.path, value=self._error())) from None
        self.frames += 1

    def _error(self) -> str:
        assert self._process is not None and self._process.stderr is not None  # open until close(), on a pipe
        self._process.wait()
        return self._process.stderr.read().decode(errors="replace").strip()[-500:] or "no message"

    def close(self) -> None:
        if self._process is None:
            return
        process, self._process = self._process, None
        assert process.stdin is not None and process.stderr is not None  # pipes
        with contextlib.suppress(OSError):
            process.stdin.close()
        error = process.stderr.read().decode(errors="replace").strip()
        process.stderr.close()
        if process.wait() != 0:
            raise Bow3dError(_("{path}: the GIF encoder failed: {value}")
                             .format(path=self.path, value=error[-500:] or 'no message'))

    def __enter__(self) -> GifWriter:
        return self

    def __exit__(self, *exc) -> None:
        if exc[0] is not None and self._process is not None:
            self._process.kill()
            self._process.wait()
            self._process = None
            return
        self.close()


def read_video(path: str | Path) -> tuple[dict, list[np.ndarray]]:
    """(metadata, frames as (H, W, 3) uint8 RGB arrays) of a video file: for checks and tests."""
    import imageio_ffmpeg

    reader = imageio_ffmpeg.read_frames(str(path))
    meta = reader.__next__()
    width, height = meta["size"]
    frames = [np.frombuffer(f, np.uint8).reshape(height, width, 3) for f in reader]
    return meta, frames
