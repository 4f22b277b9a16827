"""Cinematic replay videos: a replay file in, an MP4 (H.264) out, rendered offscreen (contract C5).

Layer: view. The pipeline: open the replay (bow3d.replay.open_replay: its scene checked, its
world), re-apply every record through the rules into a timeline of beats read from the typed
events (bow3d.view.film.timeline),
let the director pick the shots (bow3d.view.film.director), then for each frame pose the film set
(bow3d.view.film.stage) and hand the offscreen buffer's bytes to ffmpeg (bow3d.view.film.encoder),
which encodes in its own process while the next frame renders.

    stats = render_replay_video("replays/village.bowreplay", "village.mp4", size=(1280, 720), fps=30)

Deterministic: the same replay gives the same shots and the same frames. The battlefield is
built once at the default quality; per frame only the camera, the moving units, the titles
and the brick-roll tray change.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from bow3d.errors import Bow3dError
from bow3d.i18n import _
from bow3d.view.film.director import ShotList, direct
from bow3d.view.film.encoder import Mp4Writer, check_size, free_output
from bow3d.view.film.timeline import Timeline, side_styles, timeline_from_replay

if TYPE_CHECKING:
    from bow3d.view.film.shot_check import ShotJudge

MAX_FILM_SECONDS = 90.0
ANTIALIASED_QUALITIES = ("high",)  # film qualities drawn with multisampling (film_multisamples)
FILM_NEAR_LDU = 900.0  # studs drawn on decor chunks nearer than this (45 studs): farther they are sub-pixel at 720p


@dataclass(frozen=True)
class VideoStats:
    """What was written: frames, seconds of video, and frames rendered and encoded per second of work."""

    frames: int
    seconds: float
    encode_fps: float


# --- replay -> scene and timeline --------------------------------------------------------------

def load_timeline(replay_path: str | Path, geometry: Any = None, *, scene: str | Path | None = None,
                  language: str | None = None, allow_library: Collection[str] = ()) -> tuple[Any, Timeline, Any]:
    """(scene, timeline, opened replay): the replay opened (scene sha256 checked, world built with the
    header's library), every record re-applied through the rules, the beats read from the events."""
    from bow3d.replay import open_replay

    opened = open_replay(replay_path, scene, allow_library=allow_library)
    timeline = timeline_from_replay(opened, geometry, side_styles(opened.scene(), _rgb_of), language)
    return opened.scene(), timeline, opened


def _rgb_of(code: int) -> tuple[int, int, int]:
    from bow3d.view.graph.markers import ldraw_rgba

    return ldraw_rgba(code)[:3]


# --- the film set, offscreen --------------------------------------------------------------------

class FilmRenderer:
    """An offscreen buffer holding a scene's film set; `frame_bytes(t)` renders the frame at t seconds."""

    def __init__(self, scene: Any, timeline: Timeline, size: tuple[int, int] = (1280, 720), library=None,
                 max_seconds: float = MAX_FILM_SECONDS, world: Any = None, plan: bool = True,
                 multisamples: int = 0):
        from bow3d.view.film.stage import Stage
        from bow3d.view.film.title_overlay import overlay_layer
        from bow3d.view.graph.scene_nodes import attach_scene
        from bow3d.view.output.offscreen import OffscreenRenderer

        self.size = check_size(size)
        self.world = world  # the replay's 3D world (bow3d.world.World): where the rules put everyone
        # plan=False: the director's own framing even with a world (benchmarks/bench_video.py compares)
        self.renderer = OffscreenRenderer(*self.size, multisamples=multisamples)
        try:
            aspect = self.size[0] / self.size[1]
            self.nodes = attach_scene(self.renderer.render, scene, library)
            studs_within(self.nodes.battlefield, FILM_NEAR_LDU)
            _unused, aspect2d = overlay_layer(self.renderer.buffer, aspect)
            rest = world_rest(world) if world is not None else None
            self.stage = Stage(self.nodes, self.renderer.buffer, self.renderer.camera, self.renderer.lens, aspect2d,
                               aspect, rest)
            planner = None
            if world is not None and plan:  # shots planned with the world's rays (bow3d.view.film.shot_check)
                from bow3d.view.film.shot_check import ShotPlanner

                planner = ShotPlanner(world, aspect)
            self.planner = planner
            self._judge: ShotJudge | None = None
            self._trays: dict[int, tuple[float, float, float, float]] = {}
            self.film: ShotList = direct(timeline, self.nodes.battlefield_model.bounds(), _ground(self.nodes),
                                         aspect, max_seconds, rest or _stand(self.nodes), planner)
        except BaseException:
            self.renderer.close()
            raise

    def frame_bytes(self, time_s: float) -> memoryview:
        """The frame at `time_s` as the buffer holds it: BGR, bottom row first."""
        spec = self.film.frame(time_s)
        if spec.roll is not None:
            self.stage.tray.place(self.tray_frame(spec.shot))
        self.stage.show(spec, self.film)
        self.renderer.engine.render_frame()
        return memoryview(self.renderer.texture.get_ram_image())

    def tray_frame(self, shot: int) -> tuple[float, float, float, float]:
        """The roll tray's corner in shot `shot`: away from its subject (bow3d.view.film.shot_check.tray_frame)."""
        from bow3d.view.film.shot_check import ShotJudge, tray_frame

        if shot not in self._trays:
            if self._judge is None and self.world is not None:
                self._judge = self.planner.judge if self.planner is not None else ShotJudge(self.world,
                                                                                          self.film.aspect)
            self._trays[shot] = tray_frame(self.film, self._judge, shot)
        return self._trays[shot]

    def frame(self, time_s: float) -> np.ndarray:
        """The frame at `time_s` as an (H, W, 3) uint8 RGB array, top row first."""
        raw = np.frombuffer(bytes(self.frame_bytes(time_s)), np.uint8).reshape(self.size[1], self.size[0], 3)
        return raw[::-1, :, ::-1].copy()

    def save_png(self, time_s: float, path: str | Path) -> Path:
        """Write the frame at `time_s` as a PNG."""
        from panda3d.core import PNMImage

        self.frame_bytes(time_s)
        image = PNMImage()
        if not self.renderer.texture.store(image) or not image.write(str(path)):
            raise Bow3dError(_("{path}: cannot write the picture (is the folder there and writable?)")
                             .format(path=path))
        return Path(path)

    def close(self) -> None:
        self.renderer.close()


def studs_within(battlefield: Any, near_ldu: float) -> int:
    """Switch the battlefield's chunks to their stud-less far level beyond `near_ldu`; returns the chunks changed."""
    from panda3d.core import LODNode

    changed = 0
    for path in battlefield.find_all_matches("**/+LODNode"):
        lod = path.node()
        if isinstance(lod, LODNode) and lod.get_num_switches() == 2:
            lod.set_switch(0, near_ldu, 0.0)
            lod.set_switch(1, 1e9, near_ldu)
            changed += 1
    return changed


def _ground(nodes: Any):
    cache: dict[tuple[float, float], float] = {}

    def ground(x: float, y: float) -> float:
        key = (round(x, 1), round(y, 1))
        if key not in cache:
            cache[key] = float(nodes.ground.under_footprint((x, y), (8.0, 8.0), 0.0))
        return cache[key]

    return ground


def world_rest(world: Any):
    """(id, pose) -> the z (LDU) the world rests a unit or vehicle at in that pose (its lowest point on
    whatever is below, contract C1): where the rules put it. The world itself is not moved."""
    from bow3d.world.bodies import body_pose

    cache: dict[tuple, float] = {}

    def rest(id_: str, pose: Any) -> float:
        key = (id_, pose.position, pose.facing_deg)
        if key not in cache:
            body = world.bodies[id_]
            cache[key] = float(world.rest_height(body.template, body_pose(pose.position[0], pose.position[1],
                                                                          pose.facing_deg, 0.0)))
        return cache[key]

    return rest


def _stand(nodes: Any):
    """The height a unit or vehicle stands at, computed as SceneNodes.set_pose places it."""
    cache: dict[tuple, float] = {}

    def stand(id_: str, pose: Any) -> float:
        piece = nodes.pieces.get(id_)
        if piece is None:
            return _ground(nodes)(pose.position[0] * 20.0, pose.position[1] * 20.0)
        key = (id_, pose.position, pose.facing_deg)
        if key not in cache:
            cache[key] = float(nodes.ground.under_footprint((pose.position[0] * 20.0, pose.position[1] * 20.0),
                                                            piece.half_extent, pose.facing_deg - 270.0))
        return cache[key]

    return stand


MAX_GIF_SECONDS = 30.0  # a GIF is for sharing a moment: longer ones are refused (give --clip)


@dataclass(frozen=True)
class Clip:
    """A part of the film, in seconds: `end_s` None = to the film's end."""

    start_s: float = 0.0
    end_s: float | None = None

    def frames(self, film_seconds: float, fps: int, count: int) -> range:
        """The film's frame indices inside the clip (frame i shows i / fps s); a clip outside the film is
        refused in one line."""
        from bow3d.errors import UserInputError

        end = film_seconds if self.end_s is None else self.end_s
        if self.start_s >= film_seconds or end > film_seconds + 1e-9:
            raise UserInputError(_("--clip {value}: the film is {film_seconds:.1f} s long; give "
                                   "START:END within 0:{film_seconds:g}, e.g. 0:{value2:g}")
                                 .format(value=self.text(), film_seconds=film_seconds, value2=min(10.0, film_seconds)))
        first, last = round(self.start_s * fps), min(round(end * fps), count)
        if last <= first:
            raise UserInputError(_("--clip {value}: shorter than one frame at {fps} frames/s")
                                 .format(value=self.text(), fps=fps))
        return range(first, last)

    def text(self) -> str:
        return f"{self.start_s:g}:{'' if self.end_s is None else f'{self.end_s:g}'}"


def parse_clip(text: str | None) -> Clip | None:
    """'10:25' (seconds of the film), '10:' (to the end), ':25' (from the start) -> Clip; else one line."""
    from bow3d.errors import UserInputError

    if text is None:
        return None
    start, sep, end = text.partition(":")
    try:
        if not sep:
            raise ValueError
        clip = Clip(float(start) if start.strip() else 0.0, float(end) if end.strip() else None)
    except ValueError:
        raise UserInputError(_("--clip {text!r}: give START:END in seconds of the film, e.g. 10:25").format(text=text)) from None
    if not (0.0 <= clip.start_s < float("inf")) or (clip.end_s is not None and not clip.end_s <= float("inf")):
        raise UserInputError(_("--clip {text!r}: give START:END in seconds of the film, e.g. 10:25").format(text=text))
    if clip.end_s is not None and clip.end_s <= clip.start_s:
        raise UserInputError(_("--clip {text!r}: END must come after START, e.g. 10:25").format(text=text))
    return clip


def film_frames(renderer: FilmRenderer, fps: int, frames: range | None = None) -> Iterator[memoryview]:
    """Every frame of the film at `fps` (or those of `frames`: indices), in order (raw buffer bytes)."""
    for index in frames if frames is not None else range(renderer.film.frame_count(fps)):
        yield renderer.frame_bytes(index / fps)


def clip_frames(renderer: FilmRenderer, fps: int, clip: Clip | None) -> range:
    """The frame indices of `clip` (all of the film without one)."""
    count = renderer.film.frame_count(fps)
    return range(count) if clip is None else clip.frames(renderer.film.duration_s, fps, count)


def write_film(renderer: FilmRenderer, out_path: str | Path | None, fps: int = 30, progress: bool = True,
               label: str | None = None, *, quality: str = "default", clip: Clip | None = None,
               gif_path: str | Path | None = None, gif_width: int | None = None,
               gif_fps: int | None = None) -> VideoStats:
    """Render and encode the film (or its `clip`) to `out_path` (MP4 at `quality`) and/or `gif_path`
    (a GIF `gif_width` wide at `gif_fps`, defaults: the render's own), each path free; frames rendered
    once for both. A progress bar with the time left on stderr."""
    from contextlib import ExitStack

    from bow3d.progress import bar as progress_bar
    from bow3d.view.film.encoder import GifWriter, quality_settings

    frames = clip_frames(renderer, fps, clip)
    if gif_path is not None and len(frames) / fps > MAX_GIF_SECONDS + 1e-9:
        from bow3d.errors import UserInputError

        raise UserInputError(_("a GIF of {value:.0f} s is too long to share (at most "
                               "{MAX_GIF_SECONDS:g} s): give --clip START:END, e.g. --clip 10:25")
                             .format(value=len(frames) / fps, MAX_GIF_SECONDS=MAX_GIF_SECONDS))
    crf, preset = quality_settings(quality)
    started = time.perf_counter()
    with ExitStack() as stack:
        writers: list[Mp4Writer | GifWriter] = []
        if out_path is not None:
            writers.append(stack.enter_context(Mp4Writer(out_path, renderer.size, fps, crf=crf, preset=preset)))
        if gif_path is not None:
            writers.append(stack.enter_context(GifWriter(gif_path, renderer.size, fps, width=gif_width or
                                                         renderer.size[0], gif_fps=gif_fps or fps)))
        target = out_path if out_path is not None else gif_path
        assert target is not None, "write_film: give out_path or gif_path"
        name = label or Path(target).name
        bar = progress_bar(len(frames), _("frame"), _("rendering {name}").format(name=name), progress,
                           leave=False, dynamic_ncols=True)
        try:
            for frame in film_frames(renderer, fps, frames):
                for writer in writers:
                    writer.write(frame)
                bar.update(1)
        finally:
            bar.close()
    elapsed = time.perf_counter() - started
    return VideoStats(len(frames), len(frames) / fps, len(frames) / elapsed if elapsed > 0 else float("inf"))


def film_multisamples(quality: str) -> int:
    """Multisampling of a film at `quality`: 4x at --quality high only (on software OpenGL it costs several
    times the frame time: benchmarks/RESULTS.md); none at draft and default."""
    from bow3d.view.output.offscreen import MULTISAMPLES

    return MULTISAMPLES if quality in ANTIALIASED_QUALITIES else 0


def render_timeline_video(scene: Any, timeline: Timeline, out_path: str | Path | None,
                          size: tuple[int, int] = (1280, 720), fps: int = 30, progress: bool = True, library=None,
                          max_seconds: float = MAX_FILM_SECONDS, overwrite: bool = False, world: Any = None, *,
                          quality: str = "default", clip: Clip | None = None, gif_path: str | Path | None = None,
                          gif_width: int | None = None, gif_fps: int | None = None) -> VideoStats:
    """An MP4 (and/or a GIF) of a timeline on its scene (see `render_replay_video`); with the replay's
    `world`, the shots are planned with its rays (bow3d.view.film.shot_check.ShotPlanner)."""
    from contextlib import ExitStack

    from bow3d.paths import new_file_name
    from bow3d.view.film.encoder import quality_settings

    fps = _check_fps(fps)
    quality_settings(quality)
    out = free_output(out_path, overwrite) if out_path is not None else None
    gif = free_output(gif_path, overwrite, ".gif") if gif_path is not None else None
    named = out or gif
    if named is None:
        from bow3d.errors import UserInputError

        raise UserInputError(_("nothing to write: give a video file (.mp4) or a GIF (.gif)"))
    renderer = FilmRenderer(scene, timeline, size, library, max_seconds, world, multisamples=film_multisamples(quality))
    try:
        with ExitStack() as stack:  # encoded beside the targets, renamed into place when whole
            tmp = stack.enter_context(new_file_name(out, force=overwrite)) if out is not None else None
            tmp_gif = stack.enter_context(new_file_name(gif, force=overwrite)) if gif is not None else None
            return write_film(renderer, tmp, fps, progress, label=named.name, quality=quality, clip=clip,
                              gif_path=tmp_gif, gif_width=gif_width, gif_fps=gif_fps)
    finally:
        renderer.close()


def render_replay_video(replay_path: str | Path, out_path: str | Path | None, size: tuple[int, int] = (1280, 720),
                        fps: int = 30, progress: bool = True, *, max_seconds: float = MAX_FILM_SECONDS,
                        overwrite: bool = False, scene: str | Path | None = None, quality: str = "default",
                        clip: Clip | None = None, gif_path: str | Path | None = None, gif_width: int | None = None,
                        gif_fps: int | None = None, allow_library: Collection[str] = ()) -> VideoStats:
    """Render a replay to an MP4 (H.264, yuv420p) at `size` and `fps`, with a progress bar on stderr.

    `quality`: draft, default or high (x264 CRF and preset: bow3d.view.film.encoder.QUALITIES); `clip`: only
    that part of the film (Clip, seconds); `gif_path`: also (or, with `out_path` None, only) an animated
    GIF, `gif_width` wide at `gif_fps` (defaults: `size` and `fps`); `allow_library` as open_replay.
    Refuses an existing `out_path` unless `overwrite`. Raises ReplayError for a broken replay,
    UserInputError for a bad size, clip or output path, RenderUnavailable without a graphics pipe.
    """
    from bow3d.view.film.encoder import quality_settings

    check_size(size)
    _check_fps(fps)
    quality_settings(quality)
    if out_path is not None:
        free_output(out_path, overwrite)
    if gif_path is not None:
        free_output(gif_path, overwrite, ".gif")
    scene_obj, timeline, opened = load_timeline(replay_path, scene=scene, allow_library=allow_library)
    return render_timeline_video(scene_obj, timeline, out_path, size, fps, progress, library=opened.library(),
                                 max_seconds=max_seconds, overwrite=overwrite, world=opened.world(),
                                 quality=quality, clip=clip, gif_path=gif_path, gif_width=gif_width,
                                 gif_fps=gif_fps)


def check_replay_shots(replay_path: str | Path, size: tuple[int, int] = (1280, 720), *,
                       max_seconds: float = MAX_FILM_SECONDS, scene: str | Path | None = None,
                       allow_library: Collection[str] = ()) -> list:
    """The film check of a replay's film at `size` (bow3d.view.film.shot_check): one ShotReport per shot,
    the subject's visible share and screen share measured with the world's rays."""
    from bow3d.view.film.shot_check import check_film

    check_size(size)
    scene_obj, timeline, opened = load_timeline(replay_path, scene=scene, allow_library=allow_library)
    renderer = FilmRenderer(scene_obj, timeline, size, opened.library(), max_seconds, opened.world())
    try:
        return check_film(renderer.film, opened.world())
    finally:
        renderer.close()


def _check_fps(fps: int) -> int:
    from bow3d.errors import UserInputError

    if not isinstance(fps, int) or not 1 <= fps <= 120:
        raise UserInputError(_("frame rate {fps!r}: give a whole number of frames per second from 1 to "
                               "120, e.g. 30").format(fps=fps))
    return fps
