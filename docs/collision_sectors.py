"""Draw docs/collision-sectors.png: BOW 1.3 §3.6.3's sectors as bow3d reads them (bow3d.sectors).

    python docs/collision_sectors.py [OUT.png]

Every pixel is coloured by bow3d.sectors.collision_sector itself (the one definition the world and
the flat test geometry share), so the picture cannot drift from the code. The red vehicle is hit; its
sectors are the wedges cut by its footprint's diagonals. Blue vehicles move along their arrows and
have just touched it: the sector is the one holding the moving vehicle's centre (the dot), "the side
the moving vehicle comes from"; the cross is the contact point, where revision 1 of the BOW ruleset
read it instead (the lower-left mover shows where the two readings part). Words are Panda3D text
nodes, pixels numpy (as the LOS picture).
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

from bow3d.sectors import BACK, FRONT, collision_sector

SIZE = (1200, 900)
SCALE = 22.0                      # pixels per stud
CENTRE = np.array([600.0, 470.0])  # the hit vehicle's centre, pixels
HIT = dict(centre=(0.0, 0.0), facing_deg=90.0, length=6.0, width=4.0)  # studs: faces up the picture
TINT = {FRONT: (250, 205, 150), BACK: (170, 200, 250), "side": (250, 240, 170)}
RED, BLUE, DARK = (200, 40, 40), (40, 90, 210), (40, 40, 40)
# movers: (centre (studs), heading deg, length, width, contact point (studs)); each touches the hit vehicle
MOVERS = [((2.0, 6.6), 270.0, 6.0, 3.6, (1.1, 3.0)),          # head on: front
          ((5.2, 0.6), 180.0, 6.0, 3.6, (2.0, 0.6)),           # from the right: side
          ((0.9, -6.4), 90.0, 6.0, 3.6, (0.9, -3.0)),          # from behind: back
          ((-3.525, 5.949), 326.8, 6.0, 3.6, (-2.0, 2.8))]     # oblique: its centre in front, its corner on the side


def to_px(point) -> np.ndarray:
    p = np.asarray(point, float)
    return np.array([CENTRE[0] + p[0] * SCALE, CENTRE[1] - p[1] * SCALE])


def rectangle(centre, heading_deg: float, length: float, width: float) -> np.ndarray:
    """(4, 2) corners in studs of a rectangle `length` along its heading."""
    a = math.radians(heading_deg)
    u, v = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    return np.array([np.asarray(centre) + su * length / 2 * u + sv * width / 2 * v
                     for su, sv in ((1, 1), (-1, 1), (-1, -1), (1, -1))])


def fill_polygon(image: np.ndarray, corners_px: np.ndarray, colour) -> None:
    h, w, _ = image.shape
    lo, hi = np.floor(corners_px.min(axis=0)).astype(int), np.ceil(corners_px.max(axis=0)).astype(int)
    lo, hi = np.maximum(lo, 0), np.minimum(hi, [w - 1, h - 1])
    ys, xs = np.mgrid[lo[1]:hi[1] + 1, lo[0]:hi[0] + 1]
    inside = np.ones(xs.shape, bool)
    for k in range(len(corners_px)):
        a, b = corners_px[k], corners_px[(k + 1) % len(corners_px)]
        cross = (b[0] - a[0]) * (ys - a[1]) - (b[1] - a[1]) * (xs - a[0])
        inside &= cross <= 0
    if not inside.any():  # the other winding
        inside = np.ones(xs.shape, bool)
        for k in range(len(corners_px)):
            a, b = corners_px[k], corners_px[(k + 1) % len(corners_px)]
            inside &= (b[0] - a[0]) * (ys - a[1]) - (b[1] - a[1]) * (xs - a[0]) >= 0
    image[ys[inside], xs[inside]] = colour


def draw(out: Path) -> Path:
    from bow3d.view.output.los_picture import draw_segments, stamp_discs, write_png

    w, h = SIZE
    ys, xs = np.mgrid[0:h, 0:w]
    sx, sy = (xs - CENTRE[0]) / SCALE, (CENTRE[1] - ys) / SCALE
    image = np.zeros((h, w, 3), np.uint8)
    sectors = np.vectorize(lambda x, y: collision_sector(point=(x, y), **HIT))(sx[::4, ::4], sy[::4, ::4])
    for name, tint in TINT.items():
        mask = np.repeat(np.repeat(sectors == name, 4, axis=0), 4, axis=1)[:h, :w]
        image[mask] = tint
    hit = rectangle(HIT["centre"], HIT["facing_deg"], HIT["length"], HIT["width"])
    for corner in hit:  # the diagonals, out to the picture's edge
        far = np.asarray(corner) * 40
        draw_segments(image, to_px((0, 0))[None], to_px(far)[None], (120, 120, 120), 1)
    fill_polygon(image, np.array([to_px(c) for c in hit]), RED)
    draw_segments(image, to_px((0, 0))[None], to_px((0, 2.4))[None], (255, 255, 255), 3)   # its facing
    for centre, heading, length, width, contact in MOVERS:
        corners = rectangle(centre, heading, length, width)
        fill_polygon(image, np.array([to_px(c) for c in corners]), BLUE)
        a = math.radians(heading)
        tail = np.asarray(centre) - 5.5 * np.array([math.cos(a), math.sin(a)])
        head = np.asarray(centre) - 3.4 * np.array([math.cos(a), math.sin(a)])
        draw_segments(image, to_px(tail)[None], to_px(head)[None], (255, 255, 255), 3)
        for side in (-1, 1):  # the arrow's head
            b = a + math.radians(180 + 25 * side)
            tip = head + 0.9 * np.array([math.cos(b), math.sin(b)])
            draw_segments(image, to_px(head)[None], to_px(tip)[None], (255, 255, 255), 3)
        stamp_discs(image, to_px(centre)[None], 6.0, (255, 255, 255), DARK)
        cp = to_px(contact)
        draw_segments(image, (cp + [-7, -7])[None], (cp + [7, 7])[None], DARK, 3)
        draw_segments(image, (cp + [-7, 7])[None], (cp + [7, -7])[None], DARK, 3)
    image = _words(image)
    return write_png(image, out)


def _words(image: np.ndarray) -> np.ndarray:
    """The labels, as Panda3D text over the drawing (an offscreen buffer; no text: the drawing alone)."""
    try:
        from panda3d.core import TextNode

        from bow3d.view.film.title_overlay import overlay_layer
        from bow3d.view.output.offscreen import OffscreenRenderer, RenderUnavailable
    except ImportError:
        return image
    w, h = SIZE
    try:
        renderer = OffscreenRenderer(w, h)
    except RenderUnavailable:
        return image
    try:
        _, aspect2d = overlay_layer(renderer.buffer, w / h)
        aspect = w / h

        def text(words: str, x_px: float, y_px: float, scale: float = 0.045, colour=(0, 0, 0, 1)) -> None:
            node = TextNode("sector-words")
            node.set_text(words)
            node.set_text_color(*colour)
            node.set_align(TextNode.A_center)
            path = aspect2d.attach_new_node(node)
            path.set_pos(x_px / w * 2 * aspect - aspect, 0, 1 - y_px / h * 2)
            path.set_scale(scale)

        text("BOW 1.3 \u00a73.6.3: the sector of the hit (red) vehicle the moving (blue) one comes from", w / 2, 34)
        text("1. front sector: relative speed = the sum of the speeds", w / 2, 120, 0.04)
        text("3. back sector: the difference of the speeds", w / 2, h - 40, 0.04)
        text("2. side sector:", 130, h / 2 - 40, 0.04)
        text("the mover's speed", 130, h / 2 - 10, 0.04)
        text("2. side sector", w - 130, h / 2 - 40, 0.04)
        text("dot: the mover's centre when they touch (the sector is read there)", w / 2, 66, 0.032, (0.15, 0.15, 0.15, 1))
        text("cross: the contact point (revision 1 read it there); grey lines: the hit vehicle's diagonals", w / 2, 92,
             0.032, (0.15, 0.15, 0.15, 1))
        renderer.render_frame()
        words = renderer.frame()
    finally:
        renderer.close()
    background = np.full(3, 0, np.uint8)
    sky = words[0, 0].copy()
    ink = np.any(np.abs(words.astype(int) - sky.astype(int)) > 40, axis=-1)
    out = image.copy()
    out[ink] = words[ink] if words[ink].size else background
    return out


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent / "collision-sectors.png"
    print(draw(target))
