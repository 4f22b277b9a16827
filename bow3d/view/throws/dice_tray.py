"""Throws on the roll tray as what they are: dice, a card drawn, a deck shuffled, anything else in words.

Layer: view. `ThrowSet` builds Panda3D nodes for a tuple of throws (bow3d.view.film.timeline.ThrowShown)
in the tray's own little scene (bow3d.view.throws.brick_roll_animation.RollTray) and poses them at a
time after the throw; `rows_of` is pure (the outcome in words: bow3d.view.throws.captions).

Units: LDU, seconds, the tray frame Z up. The same throws at the same time give the same picture.

Also cites BOW 1.3 §2.1. More: docs/modules/view.md#dice-tray.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from bow3d.view.film.timeline import ThrowShown
from bow3d.view.throws import cards as deck
from bow3d.view.throws.brick_throw import (
    BRICK_SPACING_LDU,
    MAX_BRICKS_SHOWN,
    ROW_DELAY_S,
    ROW_SPACING_LDU,
    STAGGER_S,
    brick_poses,
)
from bow3d.view.throws.captions import outcome_words
from bow3d.view.throws.dice import (
    CIRCUMRADIUS_LDU,
    COUNTER_HEIGHT_LDU,
    COUNTER_RADIUS_LDU,
    counter_triangles,
    die_shape,
    is_polyhedral,
    kept,
)
from bow3d.view.throws.dice_physics import die_throw

DIE_SPACING_LDU = 78.0
DICE_ROW_LDU = 92.0
WORDS_ROW_LDU = 60.0
MAX_DICE_SHOWN = 10
DIM = 0.6  # colour scale of the dice that do not count
NAME_LDU = 11.0  # height of a letter unit of a card's name
KEPT_RGBA = (255, 205, 20, 255)
READ_RGBA = {True: (255, 214, 40, 255), False: (0, 0, 0, 255)}  # the number read, lit once the die lies still
CARD_FACE_RGBA = (246, 242, 228, 255)
TILE_RGBA = (244, 244, 244, 255)
DARK_INK, LIGHT_INK = (28, 30, 34, 255), (248, 248, 248, 255)
DROP_S = 0.35  # a words tile drops onto the tray


# --- what each throw becomes (pure) -----------------------------------------------------------------

def dice_of(throw: ThrowShown) -> tuple[int, tuple[int, ...], str] | None:
    """(sides, faces, keep) of a well-formed Dice throw, else None (it is then shown in words)."""
    spec, faces = throw.spec, throw.outcome
    sides, count = spec.get("sides"), spec.get("count")
    if throw.kind != "dice" or not isinstance(sides, int) or not isinstance(count, int) or sides < 2:
        return None
    if not isinstance(faces, tuple) or len(faces) != count or not faces:
        return None
    if not all(isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= sides for f in faces):
        return None
    return sides, faces, str(spec.get("keep", "all"))


def _cards_of(throw: ThrowShown) -> tuple[str, ...] | None:
    outcome = throw.outcome
    if throw.kind == "draw" and isinstance(outcome, str):
        return (outcome,)
    if throw.kind == "shuffle" and isinstance(outcome, tuple) and outcome and all(isinstance(c, str) for c in outcome):
        return outcome
    return None


def row_kind(throw: ThrowShown) -> str:
    """How a throw is shown: 'bricks', 'dice', 'draw', 'shuffle' or 'words'."""
    if throw.kind == "bricks" and isinstance(throw.outcome, int):
        return "bricks"
    if dice_of(throw) is not None:
        return "dice"
    if _cards_of(throw) is not None:
        return throw.kind
    return "words"


@dataclass(frozen=True)
class Row:
    """One throw's row on the tray: how it is shown, its width and depth (LDU)."""

    kind: str
    width: float
    depth: float


def rows_of(throws: tuple[ThrowShown, ...]) -> tuple[Row, ...]:
    rows = []
    for throw in throws:
        kind = row_kind(throw)
        if kind == "bricks":
            rows.append(Row(kind, min(throw.bricks, MAX_BRICKS_SHOWN) * BRICK_SPACING_LDU, ROW_SPACING_LDU))
        elif kind == "dice":
            count = min(len(throw.outcome), MAX_DICE_SHOWN)
            rows.append(Row(kind, (count + (len(throw.outcome) > count)) * DIE_SPACING_LDU, DICE_ROW_LDU))
        elif kind == "draw":
            layout = deck.draw_layout()
            rows.append(Row(kind, layout.width, layout.depth))
        elif kind == "shuffle":
            layout = deck.shuffle_layout(len(throw.outcome))
            rows.append(Row(kind, layout.width, layout.depth))
        else:
            rows.append(Row(kind, 240.0, WORDS_ROW_LDU))
    return tuple(rows)


def row_centres(rows: tuple[Row, ...]) -> np.ndarray:
    """(R,) y of each row's centre: the first at the back (+y), the rows together centred on 0."""
    depths = np.array([r.depth for r in rows], dtype=np.float64)
    tops = np.concatenate([[0.0], np.cumsum(depths)[:-1]])
    return depths.sum() / 2 - tops - depths / 2


def _ink(rgba) -> tuple[int, int, int, int]:
    r, g, b = (c / 255 for c in rgba[:3])
    return DARK_INK if 0.299 * r + 0.587 * g + 0.114 * b > 0.55 else LIGHT_INK


# --- nodes -----------------------------------------------------------------------------------------

def text_on(parent, text: str, centre, normal, up, height: float, width: float, rgba, font,
            wordwrap: float | None = None, max_scale: float | None = None, unlit: bool = False):
    """Text lying on a surface: centred on `centre` (3,), readable from outside `normal`, upright along
    `up`, scaled to fit `height` x `width` LDU (at most `max_scale` LDU per unit of the font); `unlit`
    keeps its colour whichever way the surface turns (a die's numbers)."""
    from panda3d.core import LMatrix4f, NodePath, TextNode

    node = TextNode("label")
    if font is not None:
        node.set_font(font)
    node.set_align(TextNode.A_center)
    node.set_text(text)
    if wordwrap:  # never narrower than the longest word: a long word is shrunk to fit, not cut
        node.set_wordwrap(max([wordwrap, *(node.calc_width(word) + 0.05 for word in text.split())]))
    node.set_text_color(*(c / 255 for c in rgba[:3]), 1)
    path = parent.attach_new_node(node.generate())
    lo, hi = path.get_tight_bounds() or (None, None)
    if lo is None or hi is None:
        path.remove_node()
        return NodePath("label")
    scale = min(height / max(hi.z - lo.z, 1e-6), width / max(hi.x - lo.x, 1e-6))
    scale = min(scale, max_scale) if max_scale else scale
    n, u = np.asarray(normal, np.float64), np.asarray(up, np.float64)
    right = np.cross(u, n)
    origin = np.asarray(centre, np.float64) - scale * ((lo.x + hi.x) / 2 * right + (lo.z + hi.z) / 2 * u)
    rows = [right * scale, -n * scale, u * scale]
    path.set_mat(LMatrix4f(*[float(v) for row in rows for v in (*row, 0.0)], *[float(v) for v in origin], 1.0))
    path.set_depth_offset(1)
    if unlit:
        path.set_light_off()
    return path


def die_node(parent, sides: int, value: int, rgba, font):
    """A die in its own frame: the solid in the side's colour, its numbers (or pips) in ink. Dice with no
    solid are round counters with `value` on top. The node's child "read" (hidden) is `value` again,
    lit, over its own number: shown once the die lies still, so the number that counts stands out."""
    from bow3d.view.graph import markers

    ink = _ink(rgba)
    if is_polyhedral(sides):
        shape = die_shape(sides)
        pieces = [(shape.triangles(), rgba)] + ([(shape.pips, ink)] if len(shape.pips) else [])
        node = markers.solid_node(parent, f"d{sides}", pieces)
        for label in shape.labels:
            text_on(node, label.text, label.centre, label.normal, label.up, label.height, label.width, ink, font,
                    unlit=True)
    else:
        node = markers.solid_node(parent, f"d{sides}", [(counter_triangles(), rgba)])
        text_on(node, str(value), (0, 0, COUNTER_HEIGHT_LDU / 2 + 0.3), (0, 0, 1), (0, 1, 0),
                COUNTER_RADIUS_LDU * 0.8, COUNTER_RADIUS_LDU * 1.4, ink, font, unlit=True)
    node.flatten_strong()
    read = node.attach_new_node("read")
    face = next((lab for lab in (die_shape(sides).labels if is_polyhedral(sides) and sides != 4 else ())
                 if lab.text.rstrip(".") == str(value)), None)
    if face is not None:
        text_on(read, face.text, face.centre + face.normal * 0.25, face.normal, face.up, face.height,
                face.width, READ_RGBA[ink == LIGHT_INK], font, unlit=True)
        read.flatten_strong()
    read.hide()
    return node


def card_node(parent, name: str, rgba, font, number: int | None = None):
    """A card lying face up in its own frame: cream face with the side's border and its name, the
    side's colour on the back; `number` (its place in a shuffled deck) in a corner."""
    from bow3d.view.graph import markers

    w, h, t = deck.CARD_W_LDU, deck.CARD_H_LDU, deck.CARD_T_LDU
    body = markers.box_corners((-w / 2, -h / 2, -t / 2), (w / 2, h / 2, t / 2))
    back = np.cross(body[:, 1] - body[:, 0], body[:, 2] - body[:, 0])[:, 2] < 0
    node = markers.solid_node(parent, "card", [(body[~back], CARD_FACE_RGBA), (body[back], rgba),
                                               (markers.frame_corners(w / 2 - 6, h / 2 - 6, 2.5, 0.3, t / 2), rgba),
                                               (markers.frame_corners(w / 2 - 6, h / 2 - 6, 2.5, 0.3, -t / 2 - 0.3),
                                                CARD_FACE_RGBA)])
    shift = -5.0 if number is not None else 0.0
    text_on(node, name, (0, shift, t / 2 + 0.35), (0, 0, 1), (0, 1, 0), h * 0.55, w * 0.8, DARK_INK, font,
            wordwrap=w * 0.8 / NAME_LDU, max_scale=NAME_LDU)
    if number is not None:
        text_on(node, str(number), (-w / 2 + 13, h / 2 - 15, t / 2 + 0.35), (0, 0, 1), (0, 1, 0), 13.0, 16.0,
                _darker(rgba), font)
    node.flatten_strong()
    return node


def _darker(rgba) -> tuple[int, int, int, int]:
    """The side's colour, dark enough to read on a cream card."""
    r, g, b = (c / 255 for c in rgba[:3])
    light = 0.299 * r + 0.587 * g + 0.114 * b
    k = min(1.0, 0.45 / light) if light > 0 else 1.0
    return (int(rgba[0] * k), int(rgba[1] * k), int(rgba[2] * k), 255)


def deck_node(parent, cards: int, rgba):
    """A deck of `cards` face down (at most DECK_CARDS_DRAWN drawn), its top at deck_height(cards)."""
    from bow3d.view.graph import markers

    w, h, t = deck.CARD_W_LDU, deck.CARD_H_LDU, deck.CARD_T_LDU
    slabs = [markers.box_corners((-w / 2 + 0.4 * k, -h / 2 - 0.3 * k, k * t), (w / 2 + 0.4 * k, h / 2 - 0.3 * k,
                                                                             (k + 1) * t - 0.15))
             for k in range(max(1, min(cards, deck.DECK_CARDS_DRAWN)))]
    top = deck_height(cards)
    return markers.solid_node(parent, "deck", [(np.concatenate(slabs), rgba),
                                               (markers.frame_corners(w / 2 - 6, h / 2 - 6, 2.5, 0.3, top),
                                                CARD_FACE_RGBA)])


def deck_height(cards: int) -> float:
    return max(1, min(cards, deck.DECK_CARDS_DRAWN)) * deck.CARD_T_LDU


# --- rows ------------------------------------------------------------------------------------------

class _Bricks:
    """BOW's 2x2 bricks in a row of a mixed tray (the keyframed throw of bow3d.view.throws.brick_throw)."""

    def __init__(self, parent, throw: ThrowShown, y: float, seed: int, rgba, font, physics: bool):
        from bow3d.view.graph import markers

        brick = markers.brick_corners(2, 2, markers.BRICK_LDU, (0.0, 0.0, -markers.BRICK_LDU / 2))
        self.throw, self.y, self.seed = throw, y, seed
        self.nodes = [markers.solid_node(parent, "dice-brick", [(brick, rgba)])
                      for _ in range(min(throw.bricks, MAX_BRICKS_SHOWN))]

    def pose(self, seconds: float) -> bool:
        poses = brick_poses((self.throw,), seconds, self.seed)
        for node, centre, hpr in zip(self.nodes, poses.centres, poses.hpr):
            node.set_pos(centre[0], centre[1] + self.y, centre[2])
            node.set_hpr(*hpr)
        return bool(poses.settled.all())


class _Dice:
    """A row of dice thrown one after another; the one that counts ringed once they lie still."""

    def __init__(self, parent, throw: ThrowShown, y: float, seed: int, rgba, font, physics: bool):
        from bow3d.view.graph import markers

        dice = dice_of(throw)
        assert dice is not None  # a row of dice only for a well-formed Dice throw (row_kind)
        sides, faces, keep = dice
        shown = faces[:MAX_DICE_SHOWN]
        self.y = y
        self.slots = (np.arange(len(shown)) - (len(shown) - 1 + (len(faces) > len(shown))) / 2) * DIE_SPACING_LDU
        self.flights = [die_throw(sides, face, seed * 1009 + i, physics) for i, face in enumerate(shown)]
        self.nodes = [die_node(parent, sides, face, rgba, font) for face in shown]
        self.reads = [node.find("read") for node in self.nodes]
        self.kept = kept(faces, keep)[:len(shown)] if len(faces) > 1 else np.ones(len(shown), dtype=bool)
        self.marks = kept(faces, keep)[:len(shown)].any() and keep in ("highest", "lowest") and len(faces) > 1
        radius = CIRCUMRADIUS_LDU.get(sides, COUNTER_RADIUS_LDU)
        ring = markers.ring_corners(radius * 0.95, radius * 1.2, 0.8)
        self.rings = [markers.solid_node(parent, "kept", [(ring, KEPT_RGBA)], unlit=True) if k and self.marks
                      else None for k in self.kept]
        for ring_node, x in zip(self.rings, self.slots):
            if ring_node is not None:
                ring_node.set_pos(float(x), y, 0.1)
        self.more = None
        if len(faces) > len(shown):  # a big throw: the dice not drawn are counted
            self.more = text_on(parent, f"+{len(faces) - len(shown)}", (self.slots[-1] + DIE_SPACING_LDU, y, 1.0),
                                (0, 0, 1), (0, 1, 0), 22.0, 40.0, DARK_INK, font)

    def pose(self, seconds: float) -> bool:
        from panda3d.core import LMatrix4f

        done = []
        for i, (node, read, flight, x) in enumerate(zip(self.nodes, self.reads, self.flights, self.slots)):
            t = seconds - i * STAGGER_S
            if t < 0:
                node.hide()
                done.append(False)
                continue
            centre, rotation = flight.at(t)
            rows = rotation.T  # Panda3D's rows: the die's axes in the tray
            position = (centre[0] + x, centre[1] + self.y, centre[2])
            node.set_mat(LMatrix4f(*[float(v) for row in rows for v in (*row, 0.0)], *map(float, position), 1.0))
            node.show()
            done.append(t >= flight.settle_s)
            read.show() if done[-1] else read.hide()
        settled = bool(all(done))
        for node, ring, counts in zip(self.nodes, self.rings, self.kept):
            if settled and self.marks and not counts:
                node.set_color_scale(DIM, DIM, DIM, 1.0)
            else:
                node.clear_color_scale()
            if ring is not None:
                ring.show() if settled else ring.hide()
        return settled


class _Cards:
    """A card drawn from the deck, or a shuffled deck dealt out in order."""

    def __init__(self, parent, throw: ThrowShown, y: float, seed: int, rgba, font, physics: bool):
        order = _cards_of(throw)
        assert order is not None  # a row of cards only for a well-formed draw or shuffle (row_kind)
        drawn = throw.kind == "draw"
        self.layout = deck.draw_layout() if drawn else deck.shuffle_layout(len(order))
        in_deck = len(throw.spec.get("cards") or ()) if drawn else len(order)
        self.height = deck_height(in_deck)
        self.y = y
        self.deck = deck_node(parent, in_deck, rgba)
        self.deck.set_pos(float(self.layout.deck[0]), y, 0.0)
        shown = order[:self.layout.places.shape[0]]
        self.cards = [card_node(parent, name, rgba, font, None if drawn else k + 1) for k, name in enumerate(shown)]
        self.headings = np.random.default_rng(seed).uniform(-4.0, 4.0, len(shown))
        if self.layout.hidden:
            text_on(parent, f"+{self.layout.hidden}", (self.layout.deck[0], y, self.height + 0.4), (0, 0, 1),
                    (0, 1, 0), 20.0, 36.0, LIGHT_INK, font)

    def pose(self, seconds: float) -> bool:
        centres, turn, shown = deck.deal_poses(self.layout, seconds, self.height)
        for node, centre, angle, visible, heading in zip(self.cards, centres, turn, shown, self.headings):
            if not visible:
                node.hide()
                continue
            node.show()
            node.set_pos(float(centre[0]), float(centre[1]) + self.y, float(centre[2]))
            node.set_hpr(float(heading), 0.0, float(angle))
        return seconds >= deck.dealt_s(self.layout)


class _Words:
    """A kind the view does not know: a white tile with the outcome in words, dropped onto the tray."""

    def __init__(self, parent, throw: ThrowShown, y: float, seed: int, rgba, font, physics: bool):
        from bow3d.view.graph import markers

        self.y = y
        self.node = parent.attach_new_node("words")
        text_on(self.node, outcome_words(throw), (0, 0, 4.4), (0, 0, 1), (0, 1, 0), 34.0, 220.0, DARK_INK, font,
                wordwrap=16.0, max_scale=14.0)
        bounds = self.node.get_tight_bounds()  # None: nothing the font can write
        half_x, half_y = ((bounds[1].x - bounds[0].x) / 2 + 10.0, (bounds[1].y - bounds[0].y) / 2 + 7.0) if bounds \
            else (20.0, 12.0)
        markers.solid_node(self.node, "tile", [(markers.box_corners((-half_x, -half_y, 0.0), (half_x, half_y, 4.0)),
                                                TILE_RGBA), (markers.frame_corners(half_x, half_y, 2.0, 4.0), rgba)])
        self.node.flatten_strong()

    def pose(self, seconds: float) -> bool:
        u = min(1.0, max(0.0, seconds / DROP_S))
        self.node.set_pos(0.0, self.y, 90.0 * (1.0 - u) ** 2)
        self.node.show() if seconds >= 0 else self.node.hide()
        return seconds >= DROP_S


ROWS = {"bricks": _Bricks, "dice": _Dice, "draw": _Cards, "shuffle": _Cards, "words": _Words}


class ThrowSet:
    """The nodes of a tuple of throws on the tray (under `parent`), posed by `pose(seconds)`.

    `rgbs` gives each throw's side colour (0-1); `physics` False keeps the dice keyframed.
    """

    def __init__(self, parent, throws: tuple[ThrowShown, ...], seed: int, rgbs, font=None, physics: bool = True):
        from bow3d.view.graph import markers

        self.root = parent.attach_new_node("throws")
        self.rows = rows_of(throws)
        floor = markers.box_corners((-1200.0, -800.0, -9.0), (1200.0, 800.0, -0.4))  # the tray, wider, under it
        markers.solid_node(self.root, "tray-floor", [(floor, markers.ldraw_rgba(19))])
        ys = row_centres(self.rows)
        self.parts: list[Any] = []
        for k, (throw, row, y) in enumerate(zip(throws, self.rows, ys)):
            rgba = tuple(int(255 * c) for c in rgbs[k]) + (255,) if k < len(rgbs) else (200, 200, 200, 255)
            self.parts.append(ROWS[row.kind](self.root, throw, float(y), seed + 31 * k, rgba, font, physics))

    def pose(self, seconds: float) -> np.ndarray:
        """Pose every row `seconds` after the first throw; returns which throws are over (lie still)."""
        return np.array([part.pose(seconds - k * ROW_DELAY_S) for k, part in enumerate(self.parts)], dtype=bool)

    def extent(self) -> tuple[float, float]:
        """Half width and half depth (LDU) the tray's camera must take in."""
        width = max((r.width for r in self.rows), default=0.0)
        return width / 2, sum(r.depth for r in self.rows) / 2

    def remove(self) -> None:
        self.root.remove_node()


__all__ = ["ThrowSet", "card_node", "deck_node", "dice_of", "die_node", "row_centres", "row_kind",
           "rows_of", "text_on"]
