"""MP4 (H.264) out of raw frames, through the ffmpeg that imageio-ffmpeg ships: no encoder of our own.

Layer: view (no Panda3D here). ffmpeg runs in its own process and reads frames from a pipe,
so it encodes while the next frame renders. Frames go in as the offscreen buffer holds them
(bottom row first, BGR bytes: no copy or flip in Python) and ffmpeg flips them; or as
(H, W, 3) RGB numpy arrays, top row first.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from bow3d.errors import Bow3dError, UserInputError

PRESET = "superfast"  # x264 speed/size: ~12 ms of CPU per 720p frame here (veryfast ~17, ultrafast ~7 but 2.6x bigger)
CRF = 23  # x264 constant quality: 18 is near transparent, 23 is x264's default


def check_size(size: tuple[int, int]) -> tuple[int, int]:
    """(width, height) as ints; H.264 in yuv420p needs even sizes of at least 16 pixels."""
    try:
        width, height = (int(v) for v in size)
    except (TypeError, ValueError):
        raise UserInputError(f"video size {size!r}: give two whole numbers, e.g. 1280x720") from None
    if width < 16 or height < 16 or width % 2 or height % 2 or width > 7680 or height > 4320:
        raise UserInputError(f"video size {width}x{height}: width and height must be even numbers "
                             "between 16 and 7680x4320, e.g. 1280x720 or 640x360")
    return width, height


def free_output(path: str | Path, overwrite: bool = False) -> Path:
    """The output path, refused when a file is already there (a user's file is never overwritten)."""
    from bow3d.paths import check_new

    path = Path(path)
    if path.suffix.lower() != ".mp4":
        raise UserInputError(f"{path}: the video is written as MP4; give a file name ending in .mp4")
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
        except Exception as error:  # ffmpeg missing or refusing its arguments
            raise Bow3dError(f"{self.path}: cannot start the video encoder (ffmpeg from imageio-ffmpeg): "
                             f"{error}") from None

    def write(self, frame) -> None:
        data = frame if isinstance(frame, bytes | bytearray | memoryview) else np.ascontiguousarray(frame).tobytes()
        if len(data) != self._frame_bytes:
            raise ValueError(f"frame of {len(data)} bytes, expected {self._frame_bytes} "
                             f"({self.size[0]}x{self.size[1]}x3)")
        try:
            self._gen.send(data)
        except Exception as error:
            raise Bow3dError(f"{self.path}: the video encoder stopped: {error}") from None
        self.frames += 1

    def close(self) -> None:
        if self._gen is not None:
            self._gen.close()
            self._gen = None

    def __enter__(self) -> "Mp4Writer":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def read_video(path: str | Path) -> tuple[dict, list[np.ndarray]]:
    """(metadata, frames as (H, W, 3) uint8 RGB arrays) of a video file: for checks and tests."""
    import imageio_ffmpeg

    reader = imageio_ffmpeg.read_frames(str(path))
    meta = reader.__next__()
    width, height = meta["size"]
    frames = [np.frombuffer(f, np.uint8).reshape(height, width, 3) for f in reader]
    return meta, frames
