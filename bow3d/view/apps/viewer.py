"""The interactive 3D viewer: a Panda3D window over a model or a scene, orbit/pan/zoom, picking.

Layer: view. `open_base` makes the ShowBase (a real window, or offscreen for tests and CI);
`Viewer` takes it as an argument and only ever touches what it is given. Input handlers
are plain methods so tests can drive them without a mouse.

More: docs/modules/view.md#viewer.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from bow3d.i18n import N_, _, integer
from bow3d.ldraw import Model
from bow3d.view.camera.choices import VIEWS
from bow3d.view.camera.orbit import OrbitCamera
from bow3d.view.graph.batches import QUALITIES
from bow3d.view.graph.detail import set_detail_by_size
from bow3d.view.output.offscreen import SKY, RenderUnavailable, add_lights
from bow3d.view.output.still import attach_model
from bow3d.view.table.hud import unbroken

ORBIT_DEG_PER_PIXEL = 0.3
KEY_ORBIT_DEG = 5.0
KEY_PAN = 0.05
WHEEL_ZOOM = 0.85
HELP_WRAP = 68   # the key help, on two lines left of the panels docked bottom right (70 % of the width)
HELP = N_("mouse: left drag orbit, right drag pan, wheel zoom, click a unit then another: line of sight | keys: "
        "arrows orbit, WASD pan, +/- zoom, 1-7 views, F frame, E edges, Q quality, C clear, H help, Esc quit")
CLICK_PIXELS = 4.0  # a left press and release closer than this is a click, not a drag


def open_base(offscreen: bool = False, size: tuple[int, int] = (1280, 720), title: str = "bow3d",
              multisamples: int = 0):
    """A ShowBase with a window (or an offscreen buffer); raises RenderUnavailable if none opens.

    `multisamples` > 0 asks for a multisampled framebuffer (anti-aliasing: `bow3d view --antialias`); off by
    default because on software OpenGL it costs several times the frame time (benchmarks/RESULTS.md)."""
    from panda3d.core import AntialiasAttrib, load_prc_file_data

    load_prc_file_data("bow3d-viewer", "\n".join([
        f"framebuffer-multisample {'true' if multisamples else 'false'}", f"multisamples {max(0, multisamples)}",
        f"win-size {size[0]} {size[1]}", f"window-title {title}", "audio-library-name null",
        "notify-level-device fatal", "notify-level-egldisplay fatal", "notify-level-display error",
        "sync-video false",
        "load-display p3headlessgl" if offscreen else "load-display pandagl",
        "aux-display p3tinydisplay" if offscreen else "aux-display p3headlessgl"]))
    from direct.showbase.ShowBase import ShowBase

    try:
        base = ShowBase(windowType="offscreen" if offscreen else "onscreen")
    except Exception as error:  # noqa: BLE001  (Panda3D raises a bare Exception when no window opens)
        raise RenderUnavailable(_("cannot open a {value}: {error}. Without a display, use 'bow3d "
                                  "render' for pictures.")
                                .format(value='buffer' if offscreen else 'window', error=error)) from None
    if base.win is None:
        raise RenderUnavailable(_("Panda3D opened no window; without a display use 'bow3d render'"))
    if multisamples:
        base.render.set_antialias(AntialiasAttrib.M_multisample)
    return base


@dataclass
class ViewerState:
    quality: str = "default"
    edges: bool = False
    show_help: bool = True


class Viewer:
    """A model shown in a ShowBase, with an orbit camera driven by mouse and keys."""

    def __init__(self, base, subject, quality: str = "default", edges: bool = False, library=None):
        """`subject`: a loaded `Model`, or a `Scene` (its battlefield, units and vehicles)."""
        self.base = base
        self.scene: Any = None if isinstance(subject, Model) else subject
        self.library = library
        self.nodes: Any = None
        self.state = ViewerState(quality, edges)
        self.node = None
        self.triangles = 0
        self.selected: str | None = None
        self.los: Any = None  # the LosOverlay on screen, if any
        self.world: Any = None  # bow3d.world.World of the scene, built at the first line of sight
        self.click_handler: Any = None  # (x, y) -> None: replaces unit picking (the play UI sets it)
        self.tape_mode = False
        self.aids: Any = None  # bow3d.view.table.table_aids.TableAids, made at the first T
        self._drag: tuple[str, float, float] | None = None
        self._press: tuple[float, float] | None = None
        self.tape_owner: Any = self  # who holds the tape mode (tape_mode, aids, show_tape): the viewer or the play UI
        self._tape_press = None  # the end a left press in tape mode fell on (a unit id or a world point)
        self._tape_dragging = False
        self._tape_pointer = None  # where the pointer was when the tape last followed it (per-frame task)
        base.disable_mouse()
        base.set_background_color(*SKY)
        add_lights(self.base.render)
        if self.scene is not None:
            from bow3d.view.graph.scene_nodes import attach_scene

            self.nodes = attach_scene(base.render, self.scene, library, quality=quality)
            self.model = self.nodes.battlefield_model
            self.node, self.triangles, self.draw_calls = self.nodes.battlefield, self.nodes.triangles, self.nodes.draw_calls
            self.bounds = self.nodes.bounds()
            if edges:
                self._build()
        else:
            self.model = subject
            self.bounds = subject.bounds()
            self._build()
        self.aspect = base.win.get_x_size() / max(1, base.win.get_y_size())
        self.camera = OrbitCamera((0.0, 0.0, 0.0), 45.0, 35.0, 1000.0).preset("iso", self.bounds, self.aspect,
                                                                               self.first_direction())
        self.sheet: Any = None
        self._hud()
        self._bind()
        self.apply_camera()

    def first_direction(self):
        """Where the first view looks from: across the battle line on a scene (both armies in the picture,
        bow3d.view.camera.armies_view); None (the iso view) for a model."""
        if self.scene is None:
            return None
        from bow3d.view.camera.armies_view import armies_direction, side_positions

        return armies_direction(side_positions(self.scene))

    # --- scene -----------------------------------------------------------------------------
    def _build(self) -> None:
        if self.nodes is not None:
            self.nodes.rebuild_battlefield(self.state.quality, self.state.edges)
            self.node, self.triangles, self.draw_calls = self.nodes.battlefield, self.nodes.triangles, self.nodes.draw_calls
            return
        if self.node is not None:
            self.node.remove_node()
        self.node, self.triangles, calls = attach_model(self.base.render, self.model, self.state.quality,
                                                        self.state.edges)
        self.draw_calls = calls

    def _hud(self) -> None:
        from direct.gui.OnscreenText import OnscreenText

        self.base.set_frame_rate_meter(True)
        stats = self._stats()
        self.stats_text = OnscreenText(stats, pos=(-1.75, 0.92), scale=0.045, align=0, fg=(1, 1, 1, 1),
                                       shadow=(0, 0, 0, 0.8), mayChange=True, parent=self.base.aspect2d)
        words = _(HELP) + (_(" | T: measuring tape (drag from a unit or point to another), G: heads or ground")
                           if self.scene is not None else "")
        self.help_text = OnscreenText(unbroken(words), pos=(-1.75, -0.935), scale=0.035, align=0,
                                      fg=(1, 1, 1, 1), shadow=(0, 0, 0, 0.8), mayChange=True,
                                      parent=self.base.aspect2d, wordwrap=HELP_WRAP)
        self.verdict_text = OnscreenText("", pos=(-1.75, 0.84), scale=0.042, align=0, fg=(1, 1, 0.8, 1),
                                         shadow=(0, 0, 0, 0.9), mayChange=True, parent=self.base.aspect2d,
                                         wordwrap=40)

    def _stats(self) -> str:
        parts = _("{n} parts").format(n=integer(len(self.model.instances)))
        if self.scene is not None:
            what = _("{scene}: {units} units, {vehicles} vehicles, battlefield {parts}").format(
                scene=self.scene.name or _("scene"), units=len(self.scene.units), vehicles=len(self.scene.vehicles),
                parts=parts)
        else:
            what = f"{self.model.path}: {parts}"
        return _("{what}, {triangles} triangles drawn ({quality}), {calls} draw calls").format(
            what=what, triangles=integer(self.triangles), quality=self.state.quality, calls=self.draw_calls)

    def _bind(self) -> None:
        b = self.base
        for key, (dy, dp) in {"arrow_left": (-KEY_ORBIT_DEG, 0), "arrow_right": (KEY_ORBIT_DEG, 0),
                              "arrow_up": (0, KEY_ORBIT_DEG), "arrow_down": (0, -KEY_ORBIT_DEG)}.items():
            b.accept(key, self.on_orbit, [dy, dp])
            b.accept(key + "-repeat", self.on_orbit, [dy, dp])
        for key, (right, forward) in {"a": (-KEY_PAN, 0), "d": (KEY_PAN, 0), "w": (0, KEY_PAN),
                                      "s": (0, -KEY_PAN)}.items():
            b.accept(key, self.on_pan, [right, forward])
            b.accept(key + "-repeat", self.on_pan, [right, forward])
        for key, factor in {"wheel_up": WHEEL_ZOOM, "wheel_down": 1 / WHEEL_ZOOM, "+": WHEEL_ZOOM, "=": WHEEL_ZOOM,
                            "-": 1 / WHEEL_ZOOM}.items():
            b.accept(key, self.on_zoom, [factor])
        for number, view in enumerate(VIEWS, start=1):
            b.accept(str(number), self.on_view, [view])
        b.accept("f", self.on_view, ["iso"])
        b.accept("e", self.on_toggle_edges)
        b.accept("q", self.on_cycle_quality)
        b.accept("h", self.on_toggle_help)
        b.accept("c", self.on_clear)
        if self.scene is not None:
            b.accept("t", self.on_tape_mode)
            b.accept("g", self.on_tape_heads)
        b.accept("escape", b.userExit)
        for button, mode in (("mouse1", "orbit"), ("mouse3", "pan"), ("mouse2", "pan")):
            b.accept(button, self.on_drag_start, [mode])
            b.accept(button + "-up", self.on_drag_end)
        b.accept("mouse1", self._on_left_press)
        b.accept("mouse1-up", self._on_left_release)
        b.task_mgr.add(self._drag_task, "bow3d-drag")

    # --- input handlers (tests call these) ---------------------------------------------------
    def on_orbit(self, d_yaw: float, d_pitch: float) -> None:
        self.camera = self.camera.orbit(d_yaw, d_pitch)
        self.apply_camera()

    def on_pan(self, right: float, forward: float) -> None:
        self.camera = self.camera.pan(right, forward)
        self.apply_camera()

    def on_zoom(self, factor: float) -> None:
        self.camera = self.camera.zoom(factor)
        self.apply_camera()

    def on_view(self, view: str) -> None:
        self.camera = self.camera.preset(view, self.bounds, self.aspect)
        self.apply_camera()

    def on_toggle_edges(self) -> None:
        self.state.edges = not self.state.edges
        self._build()

    def on_cycle_quality(self) -> None:
        self.state.quality = QUALITIES[(QUALITIES.index(self.state.quality) + 1) % len(QUALITIES)]
        self._build()
        self.stats_text.setText(self._stats())

    def on_toggle_help(self) -> None:
        self.state.show_help = not self.state.show_help
        (self.help_text.show if self.state.show_help else self.help_text.hide)()

    def on_drag_start(self, mode: str) -> None:
        pointer = self._pointer()
        if pointer is not None:
            self._drag = (mode, *pointer)

    def on_drag_end(self) -> None:
        self._drag = None

    def _on_left_press(self) -> None:
        pointer = self._pointer()
        if pointer is not None:
            self.on_left_press(*pointer)

    def _on_left_release(self) -> None:
        pointer = self._pointer()
        if pointer is None:  # released outside the window: no click, a tape keeps its last reading
            pointer = self._press or (0.0, 0.0)
        self.on_left_release(*pointer)

    def on_left_press(self, x: float, y: float) -> None:
        """Left button down at pixel (x, y): in tape mode on a unit or a point, a tape drag may start;
        otherwise an orbit drag (a press and release closer than CLICK_PIXELS is a click)."""
        self._press = (x, y)
        owner = self.tape_owner
        if owner.tape_mode and owner.aids is not None:
            self._tape_press = self.pick_end(x, y)
            if self._tape_press is not None:
                return
        self._drag = ("orbit", x, y)

    def on_pointer_move(self, x: float, y: float) -> None:
        """The pointer at pixel (x, y) with the left button down: the tape follows it, or the camera orbits."""
        if self._tape_press is None:
            self.drag_to(x, y)
            return
        aids = self.tape_owner.aids
        if not self._tape_dragging:
            if math.dist((x, y), self._press) < CLICK_PIXELS:
                return
            aids.start_drag(self._tape_press)
            self._tape_dragging = True
        measure = aids.drag_to(self.pick_end(x, y, self._tape_press))
        if measure is not None:
            self.tape_owner.show_tape(measure)

    def on_left_release(self, x: float, y: float) -> None:
        """Left button up at pixel (x, y): a tape drag ends there; a short press is a click."""
        press, self._press, self._drag = self._press, None, None
        start, dragged = self._tape_press, self._tape_dragging
        self._tape_press, self._tape_dragging = None, False
        if dragged:
            measure = self.tape_owner.aids.end_drag(self.pick_end(x, y, start))
            self.tape_owner.show_tape(measure)
            return
        if press is not None and math.dist((x, y), press) < CLICK_PIXELS:
            self.on_click(x, y)

    def pick_end(self, x: float, y: float, start=None):
        """A tape end under pixel (x, y): a unit (not `start`, the other end), else the battlefield point, or None."""
        from bow3d.view.camera.picking import pick_point, pick_unit

        unit = pick_unit(self.base, self.nodes, (x, y))
        if unit is not None and not (isinstance(start, str) and unit == start):
            return unit
        return pick_point(self.base, self.nodes, (x, y))

    def on_click(self, x: float, y: float) -> None:
        """A left click at pixel (x, y): select the unit under it (scenes only)."""
        if self.click_handler is not None:
            self.click_handler(x, y)
            return
        if self.nodes is None:
            return
        from bow3d.view.camera.picking import pick_unit

        if self.tape_mode:
            end = self.pick_end(x, y)
            if end is not None:
                self.on_tape_end(end)
            return
        unit = pick_unit(self.base, self.nodes, (x, y))
        if unit is not None:
            self.on_click_unit(unit)

    def on_click_unit(self, id: str) -> None:
        """First click selects a unit (and shows its sheet); a click on another shows the line of sight."""
        if self.nodes is None:
            return
        if self.selected is None or self.selected == id or self.los is not None:
            self.on_clear()
            self.selected = id
            self.nodes.highlight(id)
            self._show_sheet(id)
            self.verdict_text.setText(_("{id} selected: click another unit for the line of sight (C clears)").format(id=id))
            return
        self.show_los(self.selected, id)

    def show_los(self, firer: str, target: str) -> None:
        """Ask the world for the line of sight and draw it in the scene and as text."""
        from bow3d.view.table.los_overlay import LosOverlay, load_world, sight_report

        if self.los is not None:
            self.los.remove()
        if self.world is None:
            self.world = load_world(self.scene, self.library)
        report = sight_report(self.scene, self.nodes, firer, target, self.library, self.world)
        self.los = LosOverlay(self.base.render, self.nodes, report)
        self.nodes.highlight(firer)
        self.nodes.highlight(target, (1.0, 0.35, 0.1, 1.0), slot="target")
        self.verdict_text.setText(unbroken(self.los.verdict))

    def on_tape_mode(self) -> None:
        """T: a drag (or two clicks) lays the measuring tape (a unit: from its head; else the point)."""
        self._make_aids()
        self.tape_mode = not self.tape_mode
        self.aids.clear_tape()
        self.verdict_text.setText(tape_prompt() if self.tape_mode else "")

    def _make_aids(self):
        if self.aids is None:
            from bow3d.rulesets import ruleset_of
            from bow3d.view.table.los_overlay import load_world
            from bow3d.view.table.table_aids import TableAids

            if self.world is None:
                self.world = load_world(self.scene, self.library)
            self.aids = TableAids(self.base, self.nodes, self.world, ruleset_of(self.scene), self.scene.ruleset)
        return self.aids

    def lay_tape(self, a, b):
        """The tape laid from a to b (unit ids or world points), tape mode left as it is (`bow3d view --tape`)."""
        measure = self._make_aids().measure_between(a, b)
        self.show_tape(measure)
        return measure

    def on_tape_heads(self) -> None:
        """G: a tape's point ends at a standing minifig's head height, or on the ground."""
        if self.aids is not None:
            self.aids.toggle_heads()
            self.verdict_text.setText(self.aids.measure.words if self.aids.measure is not None else heads_words(self.aids))

    def show_tape(self, measure) -> None:
        """The tape's reading at the top left (the label follows the tape itself)."""
        if measure is not None:
            self.verdict_text.setText(measure.words)

    def on_tape_end(self, end):
        """One end of the tape (a unit id or a world point (3,) LDU); the second one measures."""
        if self.aids is None or not self.tape_mode:
            self.on_tape_mode()
        measure = self.aids.tape_end(end)
        if measure is not None:
            self.verdict_text.setText(measure.words)
        return measure

    def on_clear(self) -> None:
        """Forget the selection and the line of sight."""
        if self.nodes is None:
            return
        if self.los is not None:
            self.los.remove()
            self.los = None
        self.selected = None
        self.nodes.highlight(None)
        self.nodes.highlight(None, slot="target")
        if self.sheet is not None:
            self.sheet.hide()
        if self.aids is not None:
            self.aids.clear_tape()
            self.tape_mode = False
        self.verdict_text.setText("")

    def _show_sheet(self, id: str) -> None:
        """The unit's sheet as its ruleset presents it (bow3d.rules.table: rows of studs or of words)."""
        from bow3d.rulesets import ruleset_of
        from bow3d.view.table.sheet_overlay import SheetOverlay

        if self.sheet is None:
            self.sheet = SheetOverlay(self.base)
        item = self.scene.body(id)
        present = ruleset_of(self.scene).presentation()
        self.sheet.show(f"{id} ({item.sheet})", present.sheet_rows(self.scene, id), plate=present.sheet_plate_of(
            self.scene, id), clone=self.nodes.prototype(id), side_rgba=self.nodes.pieces[id].side_rgba)

    def drag_to(self, x: float, y: float) -> None:
        """Continue a drag to pointer position (x, y) in pixels."""
        if self._drag is None:
            return
        mode, x0, y0 = self._drag
        dx, dy = x - x0, y - y0
        if mode == "orbit":
            self.on_orbit(-dx * ORBIT_DEG_PER_PIXEL, dy * ORBIT_DEG_PER_PIXEL)
        else:
            height = max(1, self.base.win.get_y_size())
            self.on_pan(-dx / height, dy / height)
        self._drag = (mode, x, y)

    def _pointer(self) -> tuple[float, float] | None:
        from bow3d.view.output.offscreen import pointer_position

        return pointer_position(self.base.win)

    def _drag_task(self, task):
        if self.aids is not None:
            self.aids.update()
        if self._drag is not None or self._tape_press is not None:
            pointer = self._pointer()
            # a tape is picked and redrawn only when the pointer has moved (not every frame it rests)
            if pointer is not None and (self._drag is not None or pointer != self._tape_pointer):
                self._tape_pointer = pointer
                self.on_pointer_move(*pointer)
        return task.cont

    def look_from(self, spec, look_at_id: str | None = None) -> None:
        """Put the orbit camera where a `--camera` spec says (bow3d.view.camera.camera_options)."""
        from bow3d.view.camera.camera_options import camera_pose

        pose = camera_pose(spec, self.nodes, look_at_id if spec.unit else None)
        self.camera = OrbitCamera.from_pose(pose)
        self.apply_camera()

    def apply_camera(self) -> None:
        from panda3d.core import LPoint3, LVector3

        pose = self.camera.pose()
        self.base.camera.set_pos(LPoint3(*pose.position))
        self.base.camera.look_at(LPoint3(*pose.target), LVector3(0, 0, 1))
        distance = self.camera.distance_ldu
        lens = self.base.camLens
        lens.set_near_far(max(1.0, distance / 200), distance * 4 + float(np.ptp(self.bounds, axis=0).max()) * 2)
        vertical = math.radians(pose.fov_deg)
        lens.set_fov(math.degrees(2 * math.atan(math.tan(vertical / 2) * self.aspect)), pose.fov_deg)
        if self.base.win is not None:  # level of detail by size on screen (bow3d.view.graph.detail)
            set_detail_by_size(self.base.camera, self.base.win.get_y_size(), pose.fov_deg)

    def screenshot(self, path: str) -> None:
        """Render one frame and save the window's picture (without the frame-rate meter)."""
        self.base.set_frame_rate_meter(False)
        self.base.graphicsEngine.render_frame()
        self.base.graphicsEngine.render_frame()
        self.base.win.save_screenshot(path)


def tape_prompt() -> str:
    """What tape mode asks for (the viewer's and the play UI's)."""
    return _("measuring: drag from a unit or a point to another, or click both ends (G: heads or ground, T: done)")


def heads_words(aids) -> str:
    """Where the tape's point ends are now taken (after G)."""
    return (_("tape: a point is measured at a standing minifig's head height") if aids.heads
            else _("tape: a point is measured on the ground"))
