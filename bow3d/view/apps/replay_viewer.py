"""The interactive replay viewer: the replay's film in a window, with play/pause, step, seek and speed.

Layer: view. The same film as the video (timeline, director, stage): what the window shows
at time t is exactly the video's frame at t. `open_base` (bow3d.view.apps.viewer) makes the window,
or an offscreen buffer for tests and CI; input handlers are plain methods that tests call.

Keys: space play/pause, right/left step to the next/previous shot (beat), home/end seek to
the start/end, 0-9 seek to 0 %..90 % of the film, +/- (or ]/[) speed x2 / /2, Esc quits.
Free look: drag with the left mouse button (or W/A/S/D) to orbit round what the shot looks at,
the wheel zooms; C gives the camera back to the director.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import Any

from bow3d.i18n import N_, _, decimal
from bow3d.view.film.timeline import Timeline

SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
HELP = N_("space play/pause | left/right previous/next shot | home/end | 0-9 seek | +/- speed | "
        "drag, WASD, wheel: free look | C director's camera | Esc quit")
ORBIT_DEG_PER_PIXEL = 0.3
KEY_ORBIT_DEG = 5.0
WHEEL_ZOOM = 0.85


class ReplayViewer:
    """A film shown in a ShowBase; `time_s` is where it stands, `playing` whether it runs."""

    def __init__(self, base, scene: Any, timeline: Timeline, library=None):
        from direct.gui.OnscreenText import OnscreenText

        from bow3d.view.film.director import direct
        from bow3d.view.film.stage import Stage
        from bow3d.view.film.video import MAX_FILM_SECONDS, _ground, _stand
        from bow3d.view.graph.scene_nodes import attach_scene

        self.base = base
        aspect = base.win.get_x_size() / max(1, base.win.get_y_size())
        base.disable_mouse()
        base.set_background_color(0.70, 0.80, 0.90, 1.0)
        from bow3d.view.output.offscreen import add_lights

        add_lights(base.render)
        self.nodes = attach_scene(base.render, scene, library)
        self.stage = Stage(self.nodes, base.win, base.camera, base.camLens, base.aspect2d, aspect)
        self.film = direct(timeline, self.nodes.battlefield_model.bounds(), _ground(self.nodes), aspect,
                           MAX_FILM_SECONDS, _stand(self.nodes))
        self.time_s = 0.0
        self.playing = False
        self.speed = 1.0
        self.free = None  # an OrbitCamera while the viewer looks around on its own; None: the director's camera
        self._drag: tuple[float, float] | None = None
        self.status = OnscreenText("", pos=(-1.75 * aspect / (16 / 9), 0.93), scale=0.04, align=0, fg=(1, 1, 1, 1),
                                   shadow=(0, 0, 0, 0.8), mayChange=True, parent=base.aspect2d)
        self.help = OnscreenText(_(HELP), pos=(0, -0.98), scale=0.035, fg=(1, 1, 1, 1), shadow=(0, 0, 0, 0.8),
                                 parent=base.aspect2d)
        self._bind()
        self.show()

    def _bind(self) -> None:
        b = self.base
        b.accept("space", self.on_play_pause)
        for key, step in (("arrow_right", 1), ("arrow_left", -1)):
            b.accept(key, self.on_step, [step])
            b.accept(key + "-repeat", self.on_step, [step])
        b.accept("home", self.on_seek, [0.0])
        b.accept("end", self.on_seek, [1.0])
        for digit in range(10):
            b.accept(str(digit), self.on_seek, [digit / 10])
        for key, factor in (("+", 2.0), ("=", 2.0), ("]", 2.0), ("-", 0.5), ("[", 0.5)):
            b.accept(key, self.on_speed, [factor])
        for key, (d_yaw, d_pitch) in {"a": (-KEY_ORBIT_DEG, 0), "d": (KEY_ORBIT_DEG, 0), "w": (0, KEY_ORBIT_DEG),
                                      "s": (0, -KEY_ORBIT_DEG)}.items():
            b.accept(key, self.on_free_look, [d_yaw, d_pitch])
            b.accept(key + "-repeat", self.on_free_look, [d_yaw, d_pitch])
        b.accept("wheel_up", self.on_zoom, [WHEEL_ZOOM])
        b.accept("wheel_down", self.on_zoom, [1 / WHEEL_ZOOM])
        b.accept("mouse1", self._drag_start)
        b.accept("mouse1-up", self._drag_end)
        b.accept("c", self.on_director_camera)
        b.accept("escape", b.userExit)
        b.task_mgr.add(self._tick, "bow3d-replay-tick")

    # --- input handlers (tests call these) ---------------------------------------------------
    def on_play_pause(self) -> None:
        if not self.playing and self.time_s >= self.film.duration_s:
            self.time_s = 0.0  # play again from the start
        self.playing = not self.playing
        self.show()

    def on_step(self, direction: int) -> None:
        """Pause and go to the start of the next (1) or previous (-1) shot."""
        self.playing = False
        if not self.film.shots:
            return
        index = self.film.shot_at(self.time_s)
        shot = self.film.shots[index]
        if direction < 0 and self.time_s - shot.start_s > 0.25:
            target = index  # back to the start of the shot on screen first
        else:
            target = max(0, min(len(self.film.shots) - 1, index + (1 if direction > 0 else -1)))
        self.time_s = self.film.shots[target].start_s
        self.show()

    def on_seek(self, fraction: float) -> None:
        """Jump to a fraction (0..1) of the film."""
        self.time_s = max(0.0, min(1.0, fraction)) * self.film.duration_s
        self.show()

    def on_speed(self, factor: float) -> None:
        """Play faster (factor > 1) or slower, within SPEEDS."""
        wanted = self.speed * factor
        self.speed = min(SPEEDS, key=lambda s: abs(s - wanted))
        self.show()

    def on_free_look(self, d_yaw_deg: float, d_pitch_deg: float) -> None:
        """Orbit the camera round what the shot looks at; the film goes on under it."""
        self.free = self._free_camera().orbit(d_yaw_deg, d_pitch_deg)
        self.show()

    def on_zoom(self, factor: float) -> None:
        """Free look closer (factor < 1) or farther."""
        self.free = self._free_camera().zoom(factor)
        self.show()

    def on_director_camera(self) -> None:
        """Give the camera back to the director."""
        self.free = None
        self.show()

    def _free_camera(self):
        from bow3d.view.camera.orbit import OrbitCamera

        return self.free or OrbitCamera.from_pose(self.film.frame(self.time_s).camera)

    def _pointer(self) -> tuple[float, float] | None:
        from bow3d.view.output.offscreen import pointer_position

        return pointer_position(self.base.win)

    def _drag_start(self) -> None:
        self._drag = self._pointer()

    def _drag_end(self) -> None:
        self._drag = None

    def advance(self, seconds: float) -> None:
        """Move the film on by `seconds` of wall time when playing (the frame task calls this)."""
        if not self.playing:
            return
        self.time_s = min(self.film.duration_s, self.time_s + seconds * self.speed)
        if self.time_s >= self.film.duration_s:
            self.playing = False
        self.show()

    def show(self) -> None:
        spec = self.film.frame(self.time_s)
        self.stage.show(spec, self.film)
        if self.free is not None:
            self.stage.look(self.free.pose())
        state = _("playing") if self.playing else _("paused")
        shot = self.film.shots[spec.shot] if spec.shot >= 0 else None
        where = _("shot {n}/{shots} ({kind})").format(n=spec.shot + 1, shots=len(self.film.shots),
                                                     kind=shot.kind.replace("_", " ")) if shot else _("no shots")
        where += "  " + _("free look (C: director)") if self.free is not None else ""
        self.status.setText(f"{decimal(self.time_s):>5} / {decimal(self.film.duration_s)} s  {state}  "
                            f"x{self.speed:g}  {where}")

    def _tick(self, task):
        if self._drag is not None:
            pointer = self._pointer()
            if pointer is not None and pointer != self._drag:
                dx, dy = pointer[0] - self._drag[0], pointer[1] - self._drag[1]
                self._drag = pointer
                self.on_free_look(-dx * ORBIT_DEG_PER_PIXEL, dy * ORBIT_DEG_PER_PIXEL)
        clock = self.base.clock if hasattr(self.base, "clock") else None
        dt = clock.get_dt() if clock is not None else 1 / 30
        self.advance(min(dt, 0.25))
        return task.cont

    def screenshot(self, path: str | Path) -> None:
        """Render and save the window's picture."""
        self.base.graphicsEngine.render_frame()
        self.base.graphicsEngine.render_frame()
        self.base.win.save_screenshot(str(path))


def open_replay_viewer(replay_path: str | Path, *, scene: str | Path | None = None,
                       allow_library: Collection[str] = ()) -> None:
    """Open a window on a replay's film and run until it is closed (contract C5); `scene` and `allow_library`
    as bow3d.replay.open_replay.

    Raises ReplayError for a broken replay and RenderUnavailable where no window can open
    (without a display, render a video with `bow3d replay FILE --video out.mp4`).
    """
    import os
    import sys

    from bow3d.view.apps.viewer import open_base
    from bow3d.view.film.video import load_timeline
    from bow3d.view.output.offscreen import RenderUnavailable

    scene_obj, timeline, opened = load_timeline(replay_path, scene=scene, allow_library=allow_library)
    hint = f"film the replay instead: bow3d replay {replay_path} --video replay.mp4"
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        raise RenderUnavailable(_("no display here (DISPLAY is not set), so no window can open; {hint}")
                                .format(hint=hint))
    try:
        base = open_base(offscreen=False, size=(1280, 720), title=f"bow3d replay {Path(replay_path).name}")
    except RenderUnavailable as error:
        raise RenderUnavailable(_("{value}; {hint}").format(value=str(error).split('. Without')[0], hint=hint)) from None
    viewer = ReplayViewer(base, scene_obj, timeline, opened.library())
    viewer.on_play_pause()
    base.run()
