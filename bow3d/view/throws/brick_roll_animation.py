"""Throws on screen: a roll tray in a corner of the frame; BOW's 2x2 bricks thrown onto it, the recorded result
decides how many land on edge (dice, cards and other kinds: bow3d.view.throws.dice_tray).

Layer: view. `brick_poses` (bow3d.view.throws.brick_throw) is pure numpy (tested anywhere): where each brick
is and how it is turned at a time, in the tray's frame (Z up, LDU). `RollTray` draws it with Panda3D in a
picture-in-picture corner of the frame, its own little scene with its own camera, so the
bricks read the same whatever the main camera does. A view of bricks only is drawn exactly as
it always was; any other throw among them makes the tray a `dice_tray.ThrowSet` (one row per
throw: dice, cards, bricks, words). The words under a throw: bow3d.view.throws.captions.

BOW 1.3 §2.1: a brick roll throws 2x2 bricks and counts those that stop on their edge. The
bricks are thrown in from the left, tumble, bounce once and settle: `edges` of them on an edge
(studs to the side), the others flat. Which ones land on edge is a seeded choice, so the
same replay gives the same picture.
"""

from __future__ import annotations

import math

import numpy as np

from bow3d.view.film.timeline import ThrowShown
from bow3d.view.film.title_overlay import bold_font
from bow3d.view.throws.brick_throw import (
    BRICK_SPACING_LDU,
    MAX_BRICKS_SHOWN,
    ROW_SPACING_LDU,
    brick_poses,
    is_bricks_only,
)
from bow3d.view.throws.dice_tray import ThrowSet


class RollTray:
    """The roll corner: its own scene, lights and camera in a display region of `window`.

    `frame` ((left, right, bottom, top), 0-1 of the window) is where it sits. `physics`: dice are
    thrown with Bullet where it is installed (else keyframed); bricks here are always keyframed
    (bow3d.view.throws.brick_physics.PhysicsRollTray throws those too).
    """

    physics = True
    VIEW = np.array([0.0, -0.34, 0.94])  # dice and cards seen from 70 degrees up: the numbers on top read

    def __init__(self, window, frame=(0.70, 0.985, 0.04, 0.34)):
        from panda3d.core import AmbientLight, Camera, DirectionalLight, LColor, NodePath, PerspectiveLens

        from bow3d.view.graph import markers

        self.root = NodePath("roll-tray")
        self.frame = frame
        self.region = window.make_display_region(*frame)
        self.region.set_sort(15)
        self.region.set_clear_color_active(True)
        self.region.set_clear_color(LColor(0.16, 0.17, 0.2, 1))
        self.region.set_clear_depth_active(True)
        width = (frame[1] - frame[0]) * window.get_x_size()
        height = (frame[3] - frame[2]) * window.get_y_size()
        lens = PerspectiveLens()
        lens.set_fov(40.0 * width / height, 40.0)
        lens.set_near_far(10.0, 5000.0)
        camera = self.root.attach_new_node(Camera("roll-camera", lens))
        self.camera, self.fov = camera, (40.0 * width / height, 40.0)
        self._frame_bricks(3, 2)
        self.region.set_camera(camera)
        ambient = AmbientLight("tray-ambient")
        ambient.set_color(LColor(0.45, 0.45, 0.48, 1))
        self.root.set_light(self.root.attach_new_node(ambient))
        sun = DirectionalLight("tray-sun")
        sun.set_color(LColor(0.7, 0.68, 0.62, 1))
        sun_path = self.root.attach_new_node(sun)
        sun_path.set_hpr(30, -60, 0)
        self.root.set_light(sun_path)
        # the tray: a dark bluish grey plate with studs is too busy; a flat tan tile reads as a table
        markers.solid_node(self.root, "tray", [(markers.box_corners((-330, -150, -8), (330, 150, 0)),
                                                markers.ldraw_rgba(19))])
        self._brick = markers.brick_corners(2, 2, markers.BRICK_LDU, (0.0, 0.0, -markers.BRICK_LDU / 2))
        self._markers = markers
        self.bricks: list = []
        self.key = None
        self.throws = None  # a dice_tray.ThrowSet while other throws than bricks are on the tray
        self.throws_key = None
        self.font = None
        self.hide()

    def place(self, frame: tuple[float, float, float, float]) -> None:
        """Move the tray to `frame` ((left, right, bottom, top), 0-1 of the window; the same size)."""
        if tuple(frame) != tuple(self.frame):
            self.frame = tuple(frame)
            self.region.set_dimensions(*frame)

    def _frame_bricks(self, widest: int, rows: int) -> None:
        """Bring the camera as close as the widest roll and the number of rolls allow."""
        half_w = max(3, widest) * BRICK_SPACING_LDU / 2 + 30.0
        half_d = max(2, rows) * ROW_SPACING_LDU / 2 + 30.0
        distance = max(half_w / math.tan(math.radians(self.fov[0] / 2)), half_d / math.tan(math.radians(self.fov[1] / 2)))
        direction = np.array([0.0, -0.78, 0.62])
        self.camera.set_pos(*(direction * distance * 1.15))
        self.camera.look_at(0, 0, 10)

    def _build(self, rolls: tuple[ThrowShown, ...], rgbs) -> None:
        self._frame_bricks(max((min(r.bricks, MAX_BRICKS_SHOWN) for r in rolls), default=1), len(rolls))
        for node in self.bricks:
            node.remove_node()
        self.bricks = []
        for k, roll in enumerate(rolls):
            rgba = tuple(int(255 * c) for c in rgbs[k]) + (255,) if k < len(rgbs) else (200, 200, 200, 255)
            for _brick in range(min(roll.bricks, MAX_BRICKS_SHOWN)):
                self.bricks.append(self._markers.solid_node(self.root, "dice-brick", [(self._brick, rgba)]))

    def show(self, rolls: tuple[ThrowShown, ...], seconds: float, seed: int, rgbs) -> np.ndarray:
        """Pose the throws of `rolls` at `seconds` after the first; returns which throws have settled."""
        if not is_bricks_only(rolls):
            return self._show_throws(rolls, seconds, seed, rgbs)
        if self.throws is not None:
            self.throws.remove()
            self.throws, self.throws_key = None, None
        return self._show_bricks(rolls, seconds, seed, rgbs)

    def _show_throws(self, rolls: tuple[ThrowShown, ...], seconds: float, seed: int, rgbs) -> np.ndarray:
        """Dice, cards and any other kind, one row per throw (bow3d.view.throws.dice_tray)."""
        key = (rolls, seed, tuple(rgbs))
        if key != self.throws_key:
            for node in self.bricks:
                node.remove_node()
            self.bricks, self.key = [], None
            if self.throws is not None:
                self.throws.remove()
            if self.font is None:
                self.font = bold_font() or False
            self.throws = ThrowSet(self.root, rolls, seed, rgbs, self.font or None, self.physics)
            half_w, half_d = self.throws.extent()
            self._frame_extent(half_w, half_d, self.VIEW)
            self.throws_key = key
        settled = self.throws.pose(seconds)
        self.region.set_active(True)
        return settled

    def _frame_extent(self, half_w: float, half_d: float, direction: np.ndarray) -> None:
        """Bring the camera, looking along -`direction`, as close as `half_w` x `half_d` (LDU) allow."""
        half_w = max(half_w, 60.0) + 12.0
        half_d = max(half_d, 45.0) + 12.0
        distance = max(half_w / math.tan(math.radians(self.fov[0] / 2)),
                       half_d / math.tan(math.radians(self.fov[1] / 2)))
        self.camera.set_pos(*(direction / np.linalg.norm(direction) * distance * 1.05))
        self.camera.look_at(0, 0, 10)

    def _show_bricks(self, rolls: tuple[ThrowShown, ...], seconds: float, seed: int, rgbs) -> np.ndarray:
        """BOW's bricks, keyframed (as the film has always shown them)."""
        key = (rolls, seed, tuple(rgbs))
        if key != self.key:
            self._build(rolls, rgbs)
            self.key = key
        poses = brick_poses(rolls, seconds, seed)
        for node, centre, hpr in zip(self.bricks, poses.centres, poses.hpr):
            node.set_pos(*centre)
            node.set_hpr(*hpr)
        self.region.set_active(True)
        return poses.settled

    def hide(self) -> None:
        self.region.set_active(False)

    def remove(self) -> None:
        if self.throws is not None:
            self.throws.remove()
        self.region.get_window().remove_display_region(self.region)
        self.root.remove_node()
