"""What players reach for at the table (issue 17): the measuring tape, "who sees this cell", melee reach
and charge previews, and the reachable cells drawn to read on any baseplate and through walls.

Layer: view. Geometry from the world (`World.head`, `World.seen_at`), judgements from the
ruleset (`length_unit`, `range_band`, `range_rings`; melee reach and charges from its presentation,
bow3d.rules.table.Reach), words here through bow3d.i18n. World frame, Z up, LDU (1 stud = 20 LDU); cells are stud cells (i, j).

What is drawn over walls is drawn twice: once depth-tested, once on top with the depth test off
at a lower alpha (the x-ray pass), so a lit cell or a tape behind a house still shows.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bow3d.i18n import _, decimal
from bow3d.units import convert
from bow3d.view.graph import markers

TAPE_RGBA = (250, 200, 30, 255)      # a yellow tape, as a tailor's
TAPE_WIDTH_LDU = 4.0
TICK_LDU = 7.0                       # the cube marking each range band's edge on the tape
XRAY_ALPHA = 0.35                    # the pass drawn on top of walls
SEER_RGBA = (255, 110, 30, 255)      # who sees the hovered cell: ring and line of sight
SIGHT_WIDTH_LDU = 1.2
MELEE_RGBA = (1.0, 0.2, 0.9, 1.0)   # enemies the chosen unit reaches in melee now (magenta: red is a side's)
CHARGE_RGBA = (255, 50, 230, 255)    # cells where a charge ends in reach of an enemy
CELL_FILL_RGBA = (90, 230, 120, 110)
CELL_EDGE_RGBA = (235, 255, 120, 255)  # light edge...
CELL_RIM_RGBA = (10, 40, 10, 255)      # ...on a dark rim: reads on a green, grey or tan baseplate
SEERS_NAMED = 3                      # the hovered cell's line names this many seers, then counts the others
HEAD_LDU = 44.0                      # a minifig's head above its feet (the stand-in's eye on a cell)


@dataclass(frozen=True)
class Measure:
    """A tape's reading: the 3D distance in studs and the words (distance in the ruleset's unit, band,
    and which heights it runs between: `ends` 'heads', 'head-ground' or 'ground')."""

    distance_studs: float
    words: str
    ends: str = "heads"


def ends_words(ends: str) -> str:
    """Which heights a tape runs between, as its label says it."""
    if ends == "heads":
        return _("head to head")
    if ends == "head-ground":
        return _("head to the ground point")
    return _("ground to ground")


def distance_words(distance_studs: float, unit: str) -> str:
    """'22.4 studs', '17.9 cm', '7.1 in' ('22,4 tenons'...): a distance in the ruleset's unit."""
    value = decimal(float(convert(distance_studs, "studs", unit)))
    if unit == "cm":
        return _("{distance} cm").format(distance=value)
    if unit == "in":
        return _("{distance} in").format(distance=value)
    return _("{distance} studs").format(distance=value)


def tape_words(ruleset, distance_studs: float, params=None) -> str:
    """The tape's label: the distance and the range band the ruleset puts it in."""
    words = distance_words(distance_studs, ruleset.length_unit)
    band = ruleset.range_band(distance_studs, params)
    if band is not None:
        return _("{distance}, within {band}").format(distance=words, band=band[1])
    rings = ruleset.range_rings(params, distance_studs)
    if rings:
        return _("{distance}, beyond {band}").format(distance=words, band=rings[-1][1])
    return words


def beam_corners(a, b, width: float) -> np.ndarray:
    """(12, 3, 3) a square beam of `width` from world point a to b (counter-clockwise from outside)."""
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    length = float(np.linalg.norm(b - a))
    d = (b - a) / max(length, 1e-9)
    side = np.cross((0.0, 0.0, 1.0), d)
    side = side / np.linalg.norm(side) if np.linalg.norm(side) > 1e-6 else np.array([0.0, 1.0, 0.0])
    up = np.cross(d, side)
    box = markers.box_corners((0.0, -width / 2, -width / 2), (length, width / 2, width / 2))
    return box @ np.stack([d, side, up]) + a


def add_xray(node, alpha: float = XRAY_ALPHA):
    """A copy of `node` drawn after everything with no depth test, fainter: it shows through walls."""
    from panda3d.core import TransparencyAttrib

    ghost = node.copy_to(node.get_parent())
    ghost.set_depth_test(False)
    ghost.set_depth_write(False)
    ghost.set_bin("fixed", 40)
    ghost.set_transparency(TransparencyAttrib.M_alpha)
    ghost.set_alpha_scale(alpha)
    ghost.set_light_off()
    return ghost


def cells_node(parent, centres: np.ndarray, z: np.ndarray, extra: list | None = None):
    """The reachable cells (centres (N, 2) LDU on ground heights z (N,)): a translucent tile, a light edge
    on a dark rim, and an x-ray pass of the edges; `extra` (corners, rgba) pieces are added."""
    tile = markers.box_corners((-9.0, -9.0, 0.0), (9.0, 9.0, 1.6))
    edge = markers.frame_corners(7.5, 7.5, 2.0, 2.4)
    rim = markers.frame_corners(9.5, 9.5, 1.0, 2.0)
    at = np.concatenate([centres, (z + markers.STUD_HEIGHT)[:, None]], axis=1)[:, None, None]
    root = parent.attach_new_node("reachable-cells")
    markers.solid_node(root, "cell-tiles", [((tile[None] + at).reshape(-1, 3, 3), CELL_FILL_RGBA), *(extra or [])])
    outline = markers.solid_node(root, "cell-edges", [((edge[None] + at).reshape(-1, 3, 3), CELL_EDGE_RGBA),
                                                      ((rim[None] + at).reshape(-1, 3, 3), CELL_RIM_RGBA)], unlit=True)
    add_xray(outline)
    return root


class TableAids:
    """The tape, the hovered cell's seers and the melee marks of one play UI (or viewer).

    `base` the ShowBase; `nodes` the scene's nodes (bow3d.view.graph.scene_nodes); `world` a World (or None:
    distances from the drawn heads); `ruleset`, `params` the scene's ruleset and its parameters.
    """

    def __init__(self, base, nodes, world, ruleset, params=None, font=None):
        from direct.gui.OnscreenText import OnscreenText

        from bow3d.view.table.hud import outlined_font

        font = font if font is not None else outlined_font()
        self.base, self.nodes, self.world, self.ruleset, self.params = base, nodes, world, ruleset, params
        self.ends: list = []               # the tape's ends: unit ids or (3,) world points
        self.measure: Measure | None = None
        self.seers: dict[str, float] = {}  # who sees the hovered cell, and how much of a minifig there
        self.hovered: tuple[int, int] | None = None
        self.heads = True                  # a point end at a standing minifig's head height (G: on the ground)
        self.dragging = None               # the end a tape drag started from (bow3d.view.apps.viewer: drag to measure)
        self._seen_cache: dict = {}
        self._tape = self._sight = None
        extra = {"font": font} if font is not None else {"shadow": (0, 0, 0, 0.9)}
        self.label = OnscreenText("", pos=(0, 0), scale=0.045, align=2, fg=(1, 0.9, 0.3, 1), mayChange=True,
                                  parent=base.aspect2d, **extra)

    # --- the measuring tape -------------------------------------------------------------------
    def point_of(self, end) -> np.ndarray:
        """A tape end in world LDU: a unit's head (BOW §2.4.2: the ruler from the head), or the point (a ground
        point raised to a standing minifig's head, HEAD_LDU, while `heads` is on)."""
        if isinstance(end, str):
            return np.array(self.world.head(end) if self.world is not None and end in self.world.bodies
                            else self.nodes.head_point(end), np.float64)
        return np.asarray(end, np.float64).reshape(3) + (0.0, 0.0, HEAD_LDU if self.heads else 0.0)

    def toggle_heads(self) -> bool:
        """G: point ends at a standing minifig's head, or on the ground; a laid tape is measured again."""
        self.heads = not self.heads
        if len(self.ends) == 2:
            self.measure_between(*self.ends)
        return self.heads

    # --- drag to measure: press on a unit or point, the tape follows the pointer, release -----------
    def start_drag(self, end) -> None:
        """A press in tape mode on `end` (a unit id or a world point): the tape starts there."""
        self.clear_tape()
        self.dragging = end
        self.ends = [end]

    def drag_to(self, end) -> Measure | None:
        """The pointer is over `end` while dragging: the tape and its label follow it."""
        if self.dragging is None or end is None:
            return None
        return self.measure_between(self.dragging, end)

    def end_drag(self, end) -> Measure | None:
        """Released over `end` (None: off the battlefield, the tape stays as last drawn)."""
        start, self.dragging = self.dragging, None
        if start is None:
            return None
        if end is not None:
            return self.measure_between(start, end)
        return self.measure

    def tape_end(self, end) -> Measure | None:
        """Lay one end of the tape (a unit id or a world point): the first end starts a new tape, the
        second measures."""
        if len(self.ends) != 1:
            self.clear_tape()
            self.ends = [end]
            return None
        return self.measure_between(self.ends[0], end)

    def measure_between(self, a, b) -> Measure:
        """Measure from a to b (unit ids or world points), draw the tape with its bands and its label."""
        self.ends = [a, b]
        studs = float(np.linalg.norm(self.point_of(a) - self.point_of(b)) / markers.STUD_LDU)   # heads: world.head
        units = sum(isinstance(e, str) for e in (a, b))
        ends = "heads" if self.heads or units == 2 else ("head-ground" if units else "ground")
        words = _("{reading} ({ends})").format(reading=tape_words(self.ruleset, studs, self.params),
                                               ends=ends_words(ends))
        self.measure = Measure(studs, words, ends)
        self._draw_tape()
        return self.measure

    def _draw_tape(self) -> None:
        if self._tape is not None:
            self._tape.remove_node()
        a, b = (self.point_of(e) for e in self.ends)
        pieces = [(beam_corners(a, b, TAPE_WIDTH_LDU), TAPE_RGBA)]
        length = float(np.linalg.norm(b - a))
        for radius, _words in self.ruleset.range_rings(self.params, length / markers.STUD_LDU):
            if radius * markers.STUD_LDU < length:  # a cube where each band ends
                at = a + (b - a) * radius * markers.STUD_LDU / length
                pieces.append((markers.box_corners(at - TICK_LDU / 2, at + TICK_LDU / 2), markers.ldraw_rgba(markers.BLACK)))
        self._tape = markers.solid_node(self.base.render, "measuring-tape", pieces, unlit=True)
        add_xray(self._tape, 0.6)
        self.update()

    def clear_tape(self) -> None:
        self.ends, self.measure, self.dragging = [], None, None
        if self._tape is not None:
            self._tape.remove_node()
            self._tape = None
        self.label.setText("")

    def update(self) -> None:
        """Keep the tape's label beside the tape's middle on screen (the camera moves)."""
        if self.measure is None:
            return
        from bow3d.view.camera.picking import project

        middle = (self.point_of(self.ends[0]) + self.point_of(self.ends[1])) / 2
        x, y = project(self.base, middle[None])[0]
        width, height = self.base.win.get_x_size(), self.base.win.get_y_size()
        if x != x:  # behind the camera
            self.label.setText("")
            return
        aspect = width / max(1, height)
        self.label.setPos((2 * x / width - 1) * aspect, 1 - 2 * y / height + 0.04)
        self.label.setText(self.measure.words)

    # --- who sees this cell ---------------------------------------------------------------------
    def who_sees(self, cell: tuple[int, int], viewers, stamp=None) -> dict[str, float]:
        """Viewer -> visible fraction of a minifig on `cell`, those that see some of it (the world's
        sight method); cached per cell until `stamp` (e.g. the number of records) changes."""
        key = (tuple(cell), tuple(viewers), stamp)
        if key not in self._seen_cache:
            if len(self._seen_cache) > 512:
                self._seen_cache.clear()
            seen = self.world.seen_at(tuple(cell), list(viewers)) if self.world is not None else {}
            self._seen_cache[key] = {v: f for v, f in seen.items() if f > 0.0}
        return self._seen_cache[key]

    def show_seers(self, cell: tuple[int, int] | None, seers: dict[str, float]) -> None:
        """Rings round the seers and their lines of sight to a minifig's head on the cell."""
        if self._sight is not None:
            self._sight.remove_node()
            self._sight = None
        self.hovered, self.seers = (None, {}) if cell is None else ((cell[0], cell[1]), dict(seers))
        if cell is None or not seers:
            return
        x, y = (cell[0] + 0.5) * markers.STUD_LDU, (cell[1] + 0.5) * markers.STUD_LDU
        head = np.array([x, y, float(self.nodes.ground.heights(np.array([[x, y]]))[0]) + HEAD_LDU])
        pieces = [(beam_corners(self.point_of(seer), head, SIGHT_WIDTH_LDU), SEER_RGBA) for seer in seers]
        pieces.append((markers.ring_corners(8.0, 11.0, 3.0, z=head[2] - HEAD_LDU + 0.5) + [x, y, 0.0], SEER_RGBA))
        for seer in seers:
            piece = self.nodes.pieces.get(seer)
            if piece is not None and piece.placed:
                px, py = piece.position[0] * markers.STUD_LDU, piece.position[1] * markers.STUD_LDU
                z = self.point_of(seer)[2] - HEAD_LDU
                pieces.append((markers.ring_corners(piece.feet_radius + 4.0, piece.feet_radius + 8.0, 3.0, z=z)
                               + [px, py, 0.0], SEER_RGBA))
        self._sight = markers.solid_node(self.base.render, "who-sees", pieces, unlit=True)
        add_xray(self._sight, 0.5)

    def remove(self) -> None:
        self.clear_tape()
        self.show_seers(None, {})
        self.label.destroy()


def seers_words(cell: tuple[int, int], seers: dict[str, float], named: int = SEERS_NAMED) -> str:
    """'cell (12, 5): seen by red-rifle-1 (97%), red-knight (40%)' (the `named` who see most of it, then
    'and 3 more'), or 'cell (12, 5): seen by no enemy'."""
    where = f"({cell[0]}, {cell[1]})"
    if not seers:
        return _("cell {cell}: seen by no enemy").format(cell=where)
    ranked = sorted(seers.items(), key=lambda s: -s[1])
    who = ", ".join(f"{seer} ({fraction:.0%})" for seer, fraction in ranked[:named])
    if len(ranked) > named:
        who = _("{who} and {n} more").format(who=who, n=len(ranked) - named)
    return _("cell {cell}: seen by {who}").format(cell=where, who=who)


