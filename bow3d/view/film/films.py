"""Films of many replays at once (a tournament, a simulate --replays folder) on the batch executor.

Layer: view. `FilmJob` is the bow3d.batch job: its fields are the film's settings (size, frames per
second, an optional scene), its items are replay paths. Each worker films whole replays with
`render_replay_video` (the same film as `bow3d replay FILE --video`: the same replay gives the same
frames) into a private temporary folder and hands the MP4's bytes back, so that on a Ray cluster
the films arrive on the machine that asked for them; the parent writes each beside the others
through bow3d.paths (never over a file, unless asked).
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bow3d.batch import Job

REPLAY_SUFFIXES = (".bowreplay", ".bowpack")


@dataclass(frozen=True)
class FilmResult:
    """A film's MP4 bytes, or why the replay could not be filmed (`problem`: one line)."""

    replay: str
    data: bytes = b""
    frames: int = 0
    seconds: float = 0.0
    problem: str | None = None


@dataclass(frozen=True)
class FilmJob(Job):
    size: tuple[int, int] = (1280, 720)
    fps: int = 30
    scene: str | None = None
    allow_library: tuple[str, ...] = ()  # pack libraries allowed by name (bow3d.replay.open_replay)

    def open(self) -> FilmMaker:
        return FilmMaker(self)


class FilmMaker:
    """One worker's film studio: a temporary folder, each replay filmed there in turn."""

    def __init__(self, job: FilmJob) -> None:
        self.job = job
        self.folder = Path(tempfile.mkdtemp(prefix="bow3d-films-"))

    def run(self, replay: str) -> FilmResult:
        """The film of one replay; a replay that cannot be filmed is a `problem`, not the batch's end."""
        from bow3d.errors import Bow3dError
        from bow3d.view.film.video import render_replay_video

        out = self.folder / (Path(replay).stem + ".mp4")
        try:
            stats = render_replay_video(replay, out, size=self.job.size, fps=self.job.fps, progress=False,
                                        overwrite=True, scene=self.job.scene, allow_library=self.job.allow_library)
            return FilmResult(replay, out.read_bytes(), stats.frames, stats.seconds)
        except Bow3dError as error:
            return FilmResult(replay, problem=str(error))
        finally:
            out.unlink(missing_ok=True)

    def __del__(self) -> None:
        shutil.rmtree(getattr(self, "folder", ""), ignore_errors=True)


def replays_in(folder: str | Path) -> list[Path]:
    """The replay files and packs directly in `folder`, by name."""
    return sorted(p for p in Path(folder).iterdir() if p.suffix.lower() in REPLAY_SUFFIXES and p.is_file())
