"""A unit's description sheet drawn as a LEGO 6x8 plate in a corner of the window.

Layer: view. The rows come from the ruleset's presentation (bow3d.rules.table.SheetRow): a row with studs
is built as 1x1 plates, one a stud, on the ruleset's plate; a row of words only is written. BOW 1.3 §1.4.1: "all the characteristics of a minifig can be put on a 6x8 plate:
count 1 stud per Ability point", in the Ability's colour: white Action Budget, green Move,
dark grey Attack skill + black weapon Damage, dark grey Dodge + black Armor, red (life form) or
yellow (mechanical) HP and Treat/Repair; a clone of the minifig stands in the top left corner.
§1.4.2 vehicles: green Speed, black Dodge/Armor, yellow HP. §2.4.3 damage: marking bricks
over the HP studs. The sheet is a little 3D scene of its own (plate, 1x1 plates, bricks, lit
like the battlefield) seen through an orthographic camera in a display region of the window,
so it works the same in a window and offscreen.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bow3d.i18n import ngettext
from bow3d.rules.table import SheetRow
from bow3d.view.graph import markers
from bow3d.view.graph.markers import RED

PLATE_WIDTH = 6  # studs, BOW §1.4.1
PLATE_LENGTH = 8
TOP_ROWS = 2  # the clone of the minifig and the title
REGION = (0.70, 0.995, 0.02, 0.52)  # left, right, bottom, top (fractions of the window)
PANEL = (0.12, 0.13, 0.16, 1.0)


def layout(rows: list[SheetRow], width: int = PLATE_WIDTH) -> list[tuple[int, list[tuple[int, int, int, bool]]]]:
    """Rows wrapped on the plate: (first plate row, [(column, plate row, colour, marked), ...]) per sheet row."""
    placed, row = [], TOP_ROWS
    for sheet_row in rows:
        studs = []
        for k, code in enumerate(sheet_row.studs):
            studs.append((k % width, row + k // width, code, k < sheet_row.marked))
        placed.append((row, studs))
        row += max(1, -(-len(sheet_row.studs) // width))
    return placed


class SheetOverlay:
    """The selected unit's sheet in a corner of `base.win` (hidden until `show`)."""

    LABEL_RGBA = (1.0, 1.0, 1.0, 1.0)  # the rows' words: white on the dark panel (printed cards: dark on white)

    def __init__(self, base, region: tuple[float, float, float, float] = REGION):
        from panda3d.core import AmbientLight, Camera, DirectionalLight, NodePath, OrthographicLens

        self.base = base
        self.root = NodePath("sheet")
        self.lens = OrthographicLens()
        self.camera = self.root.attach_new_node(Camera("sheet-camera", self.lens))
        self.region = base.win.make_display_region(*region)
        self.region.set_sort(30)
        self.region.set_camera(self.camera)
        self.region.set_clear_color_active(True)
        self.region.set_clear_color(PANEL)
        self.region.set_clear_depth_active(True)
        ambient = AmbientLight("sheet-ambient")
        ambient.set_color((0.45, 0.45, 0.48, 1))
        self.root.set_light(self.root.attach_new_node(ambient))
        sun = DirectionalLight("sheet-sun")
        sun.set_color((0.75, 0.72, 0.66, 1))
        sun_path = self.root.attach_new_node(sun)
        sun_path.set_hpr(30, -60, 0)
        self.root.set_light(sun_path)
        self.content: Any = None
        self.rows: list[SheetRow] = []
        self.title = ""
        self.hide()

    def show(self, title: str, rows, *, plate: int | None = None, clone=None, side_rgba=None) -> None:
        """Draw the sheet's `rows` (bow3d.rules.table.SheetRow) on a plate of LDraw colour `plate` (None: a dark
        grey one); `clone` (a NodePath) stands in the top left corner."""
        if self.content is not None:
            self.content.remove_node()
        self.title, self.rows = title, list(rows)
        self.content = self.root.attach_new_node("content")
        placed = layout(self.rows)
        length = max([PLATE_LENGTH] + [stud[1] + 1 for _row, studs in placed for stud in studs]
                     + [row + 1 for row, _studs in placed])
        pieces = []
        if plate is not None or any(row.studs for row in self.rows):  # rows of words only: no plate under them
            pieces.append((self._plate(length), markers.ldraw_rgba(markers.DARK_GREY if plate is None else plate)))
        for _row, studs in placed:
            for col, row, code, marked in studs:
                origin = self._cell(col, row, length) + (markers.PLATE_LDU,)
                pieces.append((markers.brick_corners(1, 1, markers.PLATE_LDU, origin), markers.ldraw_rgba(code)))
                if marked:  # BOW §2.4.3: a marking brick over the HP stud
                    top = (origin[0], origin[1], origin[2] + markers.PLATE_LDU)
                    pieces.append((markers.brick_corners(1, 1, markers.BRICK_LDU, top),
                                   markers.ldraw_rgba(markers.BLACK if code == RED else RED)))
        markers.solid_node(self.content, "sheet-pieces", pieces)
        self._labels(placed, length, title, side_rgba)
        if clone is not None:
            self._clone(clone, length)
        self._frame(length)
        self.region.set_active(True)

    def hide(self) -> None:
        self.region.set_active(False)

    @property
    def visible(self) -> bool:
        return self.region.is_active()

    # --- pieces -------------------------------------------------------------------------------
    def _plate(self, length: int) -> np.ndarray:
        width, depth = PLATE_WIDTH * markers.STUD_LDU, length * markers.STUD_LDU
        return markers.brick_corners(1, 1, markers.PLATE_LDU, (0, 0, 0), studs=False) * [PLATE_WIDTH, length, 1] + \
            [width / 2, -depth / 2, 0]

    @staticmethod
    def _cell(col: int, row: int, length: int) -> tuple[float, float]:
        """Centre of a plate stud; row 0 is the far (top) edge of the sheet."""
        return ((col + 0.5) * markers.STUD_LDU, -(row + 0.5) * markers.STUD_LDU)

    def _labels(self, placed, length: int, title: str, side_rgba) -> None:
        from panda3d.core import TextNode

        def text(words: str, pos, scale: float, colour) -> None:
            node = TextNode("label")
            node.set_text(words)
            node.set_text_color(*colour)
            path = self.content.attach_new_node(node)
            path.set_pos(*pos)
            path.set_scale(scale)
            path.set_light_off()
            path.set_billboard_point_eye()
            path.set_depth_test(False)
            path.set_bin("fixed", 50)

        for (row, _studs), sheet_row in zip(placed, self.rows):
            x = PLATE_WIDTH * markers.STUD_LDU + 8
            suffix = f"  {sheet_row.value}" + (" " + ngettext("({n} damage)", "({n} damage)", sheet_row.marked).format(
                n=sheet_row.marked) if sheet_row.marked else "")
            text(sheet_row.label + suffix, (x, self._cell(0, row, length)[1] - 4, 10), 9.0, self.LABEL_RGBA)
        colour = tuple(c / 255 for c in side_rgba) if side_rgba is not None else (1, 1, 0.85, 1)
        text(title, (2.4 * markers.STUD_LDU, -1.0 * markers.STUD_LDU, 12), 12.0, colour)

    def _clone(self, clone, length: int) -> None:
        slot = self.content.attach_new_node("clone")
        clone.instance_to(slot)
        low, high = clone.get_tight_bounds() or ((0, 0, 0), (1, 1, 1))
        size = max(high[0] - low[0], high[1] - low[1], (high[2] - low[2]) / 1.6, 1.0)
        scale = 2 * markers.STUD_LDU / size
        slot.set_scale(scale)
        slot.set_pos(markers.STUD_LDU - (low[0] + high[0]) / 2 * scale, -markers.STUD_LDU - (low[1] + high[1]) / 2 * scale,
                     markers.PLATE_LDU - low[2] * scale)

    def _frame(self, length: int) -> None:
        centre = np.array([PLATE_WIDTH * markers.STUD_LDU * 0.95, -length * markers.STUD_LDU / 2, 0.0])
        direction = np.array([0.0, -np.cos(np.radians(50)), np.sin(np.radians(50))])
        self.camera.set_pos(*(centre + direction * 1000))
        self.camera.look_at(self.root, *centre)
        lo, hi = self.content.get_tight_bounds(self.camera)
        width = self.base.win.get_x_size() * (self.region.get_right() - self.region.get_left())
        height = self.base.win.get_y_size() * (self.region.get_top() - self.region.get_bottom())
        aspect = width / max(1.0, height)
        film_w, film_h = (hi[0] - lo[0]) * 1.08, (hi[2] - lo[2]) * 1.08
        film_w, film_h = max(film_w, film_h * aspect), max(film_h, film_w / aspect)
        self.lens.set_film_size(film_w, film_h)
        self.lens.set_film_offset((lo[0] + hi[0]) / 2, (lo[2] + hi[2]) / 2)
        self.lens.set_near_far(1.0, 5000.0)
