"""The film set: a scene's nodes, titles, tracer and roll tray, posed from a director's FrameSpec.

Layer: view. Used by the video export (offscreen buffer) and by the interactive replay viewer
(a ShowBase window): both give a window, a camera, a lens, a scene root and a 2D layer.
`Stage.show(spec)` makes the picture exactly what the spec says, whatever was shown before,
so frames do not depend on the order they are shown in (seeking, stepping back, the same
replay giving the same frames). Geometry is built once; per frame only the camera, the
moving units, the texts and a few bricks, dice or cards change.

The tray (bow3d.view.throws.brick_roll_animation.RollTray) shows every throw as what it is; the words
above it are BOW's brick captions as they have always read when every throw is bricks, else the
ruleset's narrator's line of each throw (`ThrowCaptions`, wrapped to the width beside the tray).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from bow3d.view.camera.pose import CameraPose
from bow3d.view.film.director import FrameSpec, ShotList
from bow3d.view.film.timeline import Pose
from bow3d.view.film.title_overlay import TitleOverlay
from bow3d.view.film.titles import readable
from bow3d.view.output.offscreen import aim_camera
from bow3d.view.throws.brick_roll_animation import RollTray, is_bricks_only
from bow3d.view.throws.captions import roll_caption, throw_caption

TRACER_LENGTH = 0.28  # of the firer-target line
HIGHLIGHT_RGBA = (1.0, 0.85, 0.1, 1.0)
CAPTION_SCALE = 0.042  # of the throw captions above the tray (2D units: the window is 2 high)
MAX_CAPTIONS = 6


def draw_in_scene_order() -> None:
    """Draw opaque geometry in scene-graph order, not sorted by render state.

    Panda3D sorts the opaque bin by state, and states are compared by address, which differs
    from run to run; coplanar pieces (two side rings that touch) then win the depth test in a
    different order and a few pixels change. In scene order the same replay gives the same
    frames in every process. (Process-wide setting: it only fixes the order of draw calls.)
    """
    from panda3d.core import CullBinEnums, CullBinManager

    manager = CullBinManager.get_global_ptr()
    index = manager.find_bin("opaque")
    if index >= 0:
        manager.set_bin_type(index, CullBinEnums.BT_unsorted)


class Stage:
    """Everything the film draws, on top of `nodes` (a `SceneNodes` from `attach_scene`)."""

    def __init__(self, nodes, window, camera, lens, aspect2d, aspect: float, rest=None):
        from bow3d.view.graph import markers

        draw_in_scene_order()
        self.nodes = nodes
        self.rest = rest  # (id, Pose) -> the z the rules rest it at (LDU; the world's); None: the nodes' own ground
        self.window = window
        self.camera = camera
        self.lens = lens
        self.aspect = aspect
        self.titles = TitleOverlay(aspect2d, aspect)
        self.aspect2d = aspect2d
        self.captions: ThrowCaptions | None = None
        self.tray = RollTray(window)
        self.tracer = markers.solid_node(nodes.root, "tracer", [(markers.box_corners((-1.2, 0.0, -1.2),
                                                                                     (1.2, 1.0, 1.2)),
                                                                  (255, 236, 140, 255))], unlit=True)
        self.tracer.hide()
        self.applied: dict[str, tuple] = {}
        self.highlighted: str | None = None
        self.far_ldu = float(np.ptp(nodes.bounds(), axis=0).max()) * 2 + 2000.0

    # --- per frame ---------------------------------------------------------------------------
    def show(self, spec: FrameSpec, film: ShotList) -> None:
        """Pose everything as `spec` says."""
        self.look(spec.camera)
        self._poses(spec.poses, spec.falling)
        for door, is_open in spec.doors.items():
            if door in self.nodes.doors:
                self.nodes.set_door(door, is_open)
        self._highlight(spec.highlight)
        self._tracer(spec)
        self.titles.show(spec.titles)
        if spec.roll is not None and spec.roll.rolls:
            settled = self.tray.show(spec.roll.rolls, max(0.0, spec.roll.seconds), spec.roll.seed,
                                     spec.roll.side_rgb)
            names = {side: style.name for side, style in film.timeline.sides.items()}
            if is_bricks_only(spec.roll.rolls):  # BOW's captions, as they have always read
                captions = [(roll_caption(r, names.get(r.side, r.side)), spec.roll.side_rgb[k])
                            for k, r in enumerate(spec.roll.rolls) if settled[k]]
                self.titles.show_roll_captions(captions, self.tray.frame)
                self._throw_captions([])
            else:
                self.titles.show_roll_captions([], self.tray.frame)
                self._throw_captions([(throw_caption(r, names.get(r.side, r.side)), spec.roll.side_rgb[k])
                                      for k, r in enumerate(spec.roll.rolls) if settled[k]])
        else:
            self.tray.hide()
            self.titles.show_roll_captions([], self.tray.frame)
            self._throw_captions([])

    def _throw_captions(self, captions: list[tuple[str, tuple[float, float, float]]]) -> None:
        if self.captions is None and not captions:
            return  # made the first time a throw other than bricks is shown
        if self.captions is not None and self.captions.frame != tuple(self.tray.frame):  # the tray moved
            self.captions.remove()
            self.captions = None
        if self.captions is None:
            self.captions = ThrowCaptions(self.aspect2d, self.aspect, self.titles.font, self.tray.frame)
        self.captions.show(captions)

    def look(self, pose: CameraPose) -> None:
        """Place the camera (and fit the lens to its distance)."""
        aim_camera(self.camera, self.lens, pose, self.aspect, near_fraction=1 / 100, far_margin_ldu=self.far_ldu,
                   height_px=self.window.get_y_size())

    def _poses(self, poses: Mapping[str, Pose], falling: Mapping[str, float]) -> None:
        for id_, pose in poses.items():
            if id_ not in self.nodes.pieces:
                continue
            fall = float(falling.get(id_, 0.0))
            key = (pose, fall)
            if self.applied.get(id_) == key:
                continue
            self.applied[id_] = key
            self._pose(id_, pose, fall)

    def _pose(self, id_: str, pose: Pose, fall: float) -> None:
        piece = self.nodes.pieces[id_]
        if pose.aboard is not None and pose.aboard in self.nodes.pieces and pose.alive:
            if not piece.alive:
                self.nodes.set_alive(id_, True)
            self.nodes.seat(id_, pose.aboard, pose.seat)  # in its seat if the vehicle shows its crew
            return
        if pose.aboard is not None or math.isnan(pose.position[0]):
            piece.root.hide()
            return
        alive = pose.alive  # a unit falling in its close-up stays opaque; it fades once the shot is over
        if piece.alive != alive or not alive:
            self.nodes.set_alive(id_, alive)
            self.highlighted = ""  # set_alive hides the highlight ring: draw it again
        # Where the rules put it: the world's rest height (a footprint box under a roof's edge once stood
        # a unit on the roof, legs in the sky, while the rules had it on the ground: issue 18).
        ground_z = None if self.rest is None else self.rest(id_, pose)
        self.nodes.set_pose(id_, pose.position, pose.facing_deg, ground_z)
        if alive:
            if piece.marks_state != (pose.marks, pose.damage):
                self.nodes.set_marks(id_, beside=pose.marks, on_top=pose.damage)
            if piece.kind == "unit":  # a minifig topples onto its back; a vehicle just stops where it is
                depth = 0.5 * (piece.hi[1] - piece.lo[1])  # lying on its back, the body is this thick
                piece.body.set_p(-90.0 * fall)
                piece.body.set_z(-piece.lo[2] + (0.25 * (piece.hi[2] - piece.lo[2]) * math.sin(math.pi * fall)
                                                 + depth * fall if fall else 0.0))
        else:
            piece.root.show()

    def _highlight(self, id_: str | None) -> None:
        if id_ == self.highlighted:
            return
        self.highlighted = id_
        alive = id_ is not None and id_ in self.nodes.pieces and self.nodes.pieces[id_].alive
        self.nodes.highlight(id_ if alive else None, HIGHLIGHT_RGBA, slot="film")

    def _tracer(self, spec: FrameSpec) -> None:
        tracer = spec.tracer
        if tracer is None or tracer.progress <= 0:
            self.tracer.hide()
            return
        start, end = np.asarray(tracer.start), np.asarray(tracer.end)
        head = start + (end - start) * tracer.progress
        tail = start + (end - start) * max(0.0, tracer.progress - TRACER_LENGTH)
        length = float(np.linalg.norm(head - tail))
        if length < 1e-3:
            self.tracer.hide()
            return
        from panda3d.core import LPoint3, LVector3

        self.tracer.set_pos(LPoint3(*tail))
        self.tracer.look_at(LPoint3(*head), LVector3(0, 0, 1))
        self.tracer.set_scale(1.0, length, 1.0)
        self.tracer.show()

    def remove(self) -> None:
        self.tray.remove()
        self.titles.hide()
        if self.captions is not None:
            self.captions.remove()
        self.tracer.remove_node()


class ThrowCaptions:
    """The words of each throw above the tray, in its side's colour, each wrapped to the width from the
    tray's left edge to the window's, the last throw's lowest (`frame`: the tray's (l, r, b, t), 0-1)."""

    def __init__(self, aspect2d, aspect: float, font, frame: tuple[float, float, float, float]):
        from panda3d.core import TextNode

        self.frame = tuple(frame)
        self.left = (frame[0] * 2 - 1) * aspect + 0.03
        self.bottom = frame[3] * 2 - 1 + 0.04
        self.wrap = (aspect - 0.04 - self.left) / CAPTION_SCALE
        self.line = (font.get_line_height() if font is not None else 1.2) * CAPTION_SCALE
        self.slots = []
        for k in range(MAX_CAPTIONS):
            text = TextNode(f"throw-caption-{k}")
            if font is not None:
                text.set_font(font)
            text.set_align(TextNode.A_left)
            text.set_wordwrap(self.wrap)
            text.set_shadow(0.05, 0.05)
            text.set_shadow_color(0, 0, 0, 0.9)
            text.set_card_color(0.08, 0.09, 0.11, 0.72)
            text.set_card_as_margin(0.45, 0.45, 0.22, 0.18)
            text.set_card_decal(True)
            path = aspect2d.attach_new_node(text)
            path.set_scale(CAPTION_SCALE)
            path.set_transparency(True)
            path.hide()
            self.slots.append((text, path))
        self.shown: list = []

    def show(self, captions: list[tuple[str, tuple[float, float, float]]]) -> None:
        captions = captions[-MAX_CAPTIONS:]
        if captions == self.shown:
            return
        self.shown = list(captions)
        z = self.bottom
        for k in range(MAX_CAPTIONS - 1, -1, -1):  # from the lowest slot up
            text, path = self.slots[k]
            index = k - (MAX_CAPTIONS - len(captions))
            if index < 0:
                path.hide()
                continue
            words, rgb = captions[index]
            text.set_text(words)
            text.set_text_color(*readable(rgb), 1)
            rows = max(1, text.get_num_rows())
            path.set_pos(self.left, 0, z + (rows - 1) * self.line)
            z += rows * self.line + 0.02
            path.show()

    def remove(self) -> None:
        for _, path in self.slots:
            path.remove_node()
