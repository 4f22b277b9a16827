"""Offscreen rendering with Panda3D: one function sets it up, no ShowBase, no globals.

Layer: view. Uses headless OpenGL (EGL; Mesa's llvmpipe on machines without a GPU) and
falls back to Panda3D's software TinyDisplay. Where neither works, `RenderUnavailable`
says so plainly (render tests skip on it).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from panda3d.core import (
    AmbientLight,
    AntialiasAttrib,
    Camera,
    DirectionalLight,
    FrameBufferProperties,
    GraphicsEngine,
    GraphicsOutput,
    GraphicsPipe,
    GraphicsPipeSelection,
    LColor,
    LPoint3,
    LVector3,
    NodePath,
    PerspectiveLens,
    PNMImage,
    Texture,
    WindowProperties,
    load_prc_file_data,
)

from bow3d.errors import Bow3dError
from bow3d.i18n import _
from bow3d.paths import new_file_name
from bow3d.view.camera.choices import VIEWS
from bow3d.view.camera.pose import CameraPose
from bow3d.view.graph.detail import set_detail_by_size

SKY = (0.70, 0.80, 0.90, 1.0)
# MSAA samples per pixel in stills (issue 13 looks). Not the default of a renderer: on software GL (llvmpipe)
# 4x MSAA costs about 6x the frame time (battlefield-5k default quality 30 -> 5 frames/s), so the viewer and
# films keep aliased frames unless they ask for it
MULTISAMPLES = 4


class RenderUnavailable(Bow3dError):
    """No graphics pipe can render offscreen on this machine."""


def pose_for_view(bounds: np.ndarray, view: str = "iso", fov_deg: float = 40.0, aspect: float = 16 / 9,
                  margin: float = 1.04, direction=None) -> CameraPose:
    """A camera that frames the whole box `bounds` ((2, 3), LDU) from a named direction (or from
    `direction` (3,), from the target towards the camera, when given: bow3d.view.camera.armies_view).

    The distance is the smallest at which all eight corners of the box project inside the
    picture (`fov_deg` is the vertical field of view).
    """
    if direction is None and view not in VIEWS:
        raise ValueError(f"unknown view {view!r}; choose one of {', '.join(VIEWS)}")
    lo, hi = np.asarray(bounds, dtype=np.float64)
    centre = (lo + hi) / 2
    direction = np.asarray(VIEWS[view] if direction is None else direction, dtype=np.float64)
    direction /= np.linalg.norm(direction)
    forward = -direction
    right = np.cross(forward, [0.0, 0.0, 1.0])
    right /= np.linalg.norm(right)
    up = np.cross(right, forward)
    box = np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])])
    tan_v = math.tan(math.radians(fov_deg) / 2)
    tan_h = tan_v * aspect
    target = centre
    for _unused in range(6):  # perspective makes the near side bigger: re-centre the picture, refit
        corners = box - target
        need = np.maximum(np.abs(corners @ right) / tan_h, np.abs(corners @ up) / tan_v) - corners @ forward
        distance = max(float(need.max()) * margin, 60.0)
        depth = distance + corners @ forward
        sx, sy = corners @ right / (depth * tan_h), corners @ up / (depth * tan_v)
        shift_x, shift_y = (sx.max() + sx.min()) / 2, (sy.max() + sy.min()) / 2
        target = target + right * shift_x * distance * tan_h + up * shift_y * distance * tan_v
    return CameraPose(tuple(target + direction * distance), tuple(target), fov_deg)


_PRC_DONE = False


def _configure() -> None:
    global _PRC_DONE  # Panda3D reads its configuration once per process
    if not _PRC_DONE:
        load_prc_file_data("bow3d-offscreen", "\n".join([
            "window-type none", "audio-library-name null", "load-display p3headlessgl",
            "aux-display p3tinydisplay", "notify-level-display error", "notify-level-glgsg error",
            "notify-level-egldisplay fatal", "notify-level-device fatal", "sync-video false",
            "framebuffer-multisample false", "textures-power-2 none"]))
        _PRC_DONE = True


class OffscreenRenderer:
    """An offscreen buffer with a lit scene root; render frames and read them back."""

    def __init__(self, width: int = 1280, height: int = 720, background: tuple = SKY, multisamples: int = 0):
        _configure()
        self.width, self.height = width, height
        self.engine = GraphicsEngine.get_global_ptr()
        self.host: GraphicsOutput | None = None  # a multisampled buffer's host (see _make_buffer)
        try:
            self.buffer = self._make_buffer(multisamples)
        except RenderUnavailable:  # a pipe without multisampled buffers still renders, aliased
            if not multisamples:
                raise
            multisamples = 0
            self.buffer = self._make_buffer(0)
        self.multisamples = multisamples
        self.texture = Texture("frame")
        self.buffer.add_render_texture(self.texture, GraphicsOutput.RTM_copy_ram)
        self.buffer.set_clear_color(LColor(*background))
        self.render = NodePath("render")
        self.lens = PerspectiveLens()
        self.lens.set_aspect_ratio(width / height)
        self.camera = self.render.attach_new_node(Camera("camera", self.lens))
        region = self.buffer.make_display_region()
        region.set_camera(self.camera)
        add_lights(self.render)
        if multisamples:
            self.render.set_antialias(AntialiasAttrib.M_multisample)

    def _make_buffer(self, multisamples: int) -> GraphicsOutput:
        selection = GraphicsPipeSelection.get_global_ptr()
        props = FrameBufferProperties()
        props.set_rgb_color(True)
        props.set_color_bits(24)
        props.set_depth_bits(24)
        if multisamples:
            props.set_multisamples(multisamples)
        errors = []
        for module in ("p3headlessgl", "pandagl", "p3tinydisplay"):
            try:
                pipe = selection.make_module_pipe(module)
            except Exception as error:  # noqa: BLE001 (a module that cannot load is simply not this machine's)
                errors.append(f"{module}: {error}")
                continue
            if pipe is None or not pipe.is_valid():
                errors.append(f"{module}: not available")
                continue
            buffer = self._open(pipe, props, multisamples)
            if buffer is not None:
                self.pipe_name = f"{module} ({pipe.get_interface_name()})"
                return buffer
            errors.append(f"{module}: could not open an offscreen buffer")
        raise RenderUnavailable("no graphics pipe can render offscreen here (" + "; ".join(errors) +
                                "); install Mesa's EGL/OpenGL drivers (Debian: libegl1 libgl1-mesa-dri)")

    def look(self, pose: CameraPose) -> None:
        """Place the camera; near and far planes follow the distance."""
        aim_camera(self.camera, self.lens, pose, self.width / self.height, height_px=self.height)

    def render_frame(self) -> None:
        self.engine.render_frame()

    def frame(self) -> np.ndarray:
        """The last rendered frame as an (H, W, 3) uint8 RGB array (top row first)."""
        self.engine.render_frame()  # RTM_copy_ram lands the previous frame after one more flip
        data = self.texture.get_ram_image_as("RGB")
        image = np.frombuffer(bytes(data), np.uint8)
        if image.size != self.width * self.height * 3:
            raise RenderUnavailable(_("the offscreen buffer returned no image"))
        return image.reshape(self.height, self.width, 3)[::-1]

    def save(self, path: str | Path, *, force: bool = False) -> Path:
        """Render and write a PNG safely (bow3d.paths: never through a link, an existing file only with
        `force`); the folder must exist."""
        self.engine.render_frame()
        image = PNMImage()
        if not self.texture.store(image):
            raise RenderUnavailable(_("the offscreen buffer returned no image"))
        path = Path(path)
        with new_file_name(path, force=force) as tmp:  # Panda3D writes by name: a fresh file beside the target
            if not image.write(str(tmp)):
                raise Bow3dError(_("{path}: cannot write the picture (is the folder there and "
                                   "writable?)").format(path=path))
        return path

    def _open(self, pipe, props: FrameBufferProperties, multisamples: int) -> GraphicsOutput | None:
        """The buffer. A multisampled one is a framebuffer object on a small plain host buffer: a
        multisampled EGL pbuffer (llvmpipe) reports its samples but never blends an edge, while a
        framebuffer object's samples are resolved into the picture it copies out."""
        size = WindowProperties.size(self.width, self.height)
        if not multisamples:
            return self.engine.make_output(pipe, "bow3d-offscreen", -2, props, size, GraphicsPipe.BF_refuse_window,
                                           None, None)
        plain = FrameBufferProperties()
        plain.set_rgb_color(True)
        plain.set_depth_bits(24)
        host = self.engine.make_output(pipe, "bow3d-offscreen-host", -3, plain, WindowProperties.size(16, 16),
                                       GraphicsPipe.BF_refuse_window, None, None)
        if host is None:
            return None
        self.engine.open_windows()
        buffer = self.engine.make_output(pipe, "bow3d-offscreen", -2, props, size,
                                         GraphicsPipe.BF_refuse_window | GraphicsPipe.BF_can_bind_every,
                                         host.get_gsg(), host)
        if buffer is None or buffer.get_fb_properties().get_multisamples() < multisamples:
            if buffer is not None:
                self.engine.remove_window(buffer)
            self.engine.remove_window(host)
            return None
        self.host = host
        return buffer

    def close(self) -> None:
        self.engine.remove_window(self.buffer)
        if self.host is not None:
            self.engine.remove_window(self.host)


def add_lights(render: NodePath) -> None:
    """bow3d's lighting under `render`: a soft ambient, a warm sun from above and a cool fill."""
    ambient = AmbientLight("ambient")
    ambient.set_color(LColor(0.42, 0.42, 0.45, 1))
    render.set_light(render.attach_new_node(ambient))
    for name, colour, hpr in (("sun", (0.75, 0.72, 0.66, 1), (35, -55, 0)),
                              ("fill", (0.25, 0.27, 0.32, 1), (-140, -25, 0))):
        light = DirectionalLight(name)
        light.set_color(LColor(*colour))
        path = render.attach_new_node(light)
        path.set_hpr(*hpr)
        render.set_light(path)


def aim_camera(camera: NodePath, lens, pose: CameraPose, aspect: float, *, near_fraction: float = 1 / 200,
               far_margin_ldu: float = 2000.0, height_px: int | None = None) -> None:
    """Put `camera` at the pose, Z up, and fit `lens` (a PerspectiveLens): the vertical field of
    view of the pose, the horizontal one from `aspect`, near and far planes from the distance;
    with `height_px` (the picture's height), the level of detail by size on screen (bow3d.view.graph.detail)."""
    position, target = LPoint3(*pose.position), LPoint3(*pose.target)
    camera.set_pos(position)
    camera.look_at(target, LVector3(0, 0, 1))
    distance = (position - target).length()
    vertical = math.radians(pose.fov_deg)
    lens.set_fov(math.degrees(2 * math.atan(math.tan(vertical / 2) * aspect)), pose.fov_deg)
    lens.set_near_far(max(1.0, distance * near_fraction), distance * 4 + far_margin_ldu)
    if height_px:
        set_detail_by_size(camera, height_px, pose.fov_deg)


def pointer_position(win) -> tuple[float, float] | None:
    """The mouse pointer in window pixels, or None (no pointer, or outside the window)."""
    if not hasattr(win, "get_pointer") or win.get_num_input_devices() == 0:
        return None
    pointer = win.get_pointer(0)
    return (pointer.get_x(), pointer.get_y()) if pointer.get_in_window() else None
