"""The `bow3d los --png` picture: the view from the firer's eye, explained.

Layer: view. Drawn: the scene from the firer's eye (its own body hidden), framing the target;
the target's rays as dots where they meet it, green = seen, blue = seen only through glass (the
ruleset judges: BOW's glass hides nothing but covers), red = hidden; each blocker outlined
in orange with a number, listed with its share in a legend; the verdict on top; a top-down inset
(lower right) with the line of fire, the ruleset's range rings (BOW 1.3 §2.4.2: bands at 15/30/45 studs) round the
firer and the firer's front arc (the half plane behind it shaded). Pixels are drawn with numpy
on the rendered frame; words are Panda3D TextNodes on a 2D layer.
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

import numpy as np

from bow3d.i18n import _
from bow3d.paths import write_new

SEEN = (40, 220, 70)
HIDDEN = (230, 40, 40)
THROUGH_GLASS = (90, 190, 255)   # seen only through transparent parts (glass): the ruleset decides
BLOCKER = (255, 140, 0)
BAND_COLOURS = [(60, 200, 60), (240, 200, 40), (245, 120, 30), (225, 80, 200)]


# ----- small raster helpers (numpy, in place on an (H, W, 3) uint8 image) -------------------------
def write_png(image: np.ndarray, path: str | Path, *, force: bool = True) -> Path:
    """Write an (H, W, 3) uint8 RGB array as a PNG (bow3d.paths.write_new: never through a link; an
    existing file only with `force`)."""
    h, w = image.shape[:2]
    raw = np.concatenate([np.zeros((h, 1), np.uint8), np.ascontiguousarray(image).reshape(h, w * 3)], axis=1)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    body = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) + \
        chunk(b"IDAT", zlib.compress(raw.tobytes(), 6)) + chunk(b"IEND", b"")
    return write_new(Path(path), body, force=force)


def stamp_discs(image: np.ndarray, xy: np.ndarray, radius: float, colour, outline=(20, 20, 20)) -> None:
    """Filled discs with a dark rim at pixel centres xy (N, 2)."""
    h, w = image.shape[:2]
    r = int(math.ceil(radius)) + 1
    oy, ox = np.mgrid[-r:r + 1, -r:r + 1]
    d = np.hypot(ox, oy)
    for ring, col in ((d <= radius + 1, outline), (d <= radius, colour)):
        dy, dx = oy[ring], ox[ring]
        px = (np.round(xy[:, 0])[:, None] + dx[None]).astype(int).ravel()
        py = (np.round(xy[:, 1])[:, None] + dy[None]).astype(int).ravel()
        ok = (px >= 0) & (px < w) & (py >= 0) & (py < h)
        image[py[ok], px[ok]] = col


def draw_segments(image: np.ndarray, a: np.ndarray, b: np.ndarray, colour, width: int = 2) -> None:
    """Segments from a (N, 2) to b (N, 2) in pixels."""
    h, w = image.shape[:2]
    length = np.maximum(np.hypot(*(b - a).T), 1.0)
    steps = int(length.max()) + 1
    u = np.linspace(0, 1, steps)
    pts = a[:, None, :] + u[None, :, None] * (b - a)[:, None, :]
    pts = pts.reshape(-1, 2)
    for dx in range(-(width // 2), width - width // 2):
        for dy in range(-(width // 2), width - width // 2):
            px, py = np.round(pts[:, 0]).astype(int) + dx, np.round(pts[:, 1]).astype(int) + dy
            ok = (px >= 0) & (px < w) & (py >= 0) & (py < h)
            image[py[ok], px[ok]] = colour


def draw_rectangle(image: np.ndarray, lo: np.ndarray, hi: np.ndarray, colour, width: int = 3) -> None:
    c = np.array([[lo[0], lo[1]], [hi[0], lo[1]], [hi[0], hi[1]], [lo[0], hi[1]]], float)
    draw_segments(image, c, np.roll(c, -1, axis=0), colour, width)


# ----- the camera at the eye ----------------------------------------------------------------------
class EyeCamera:
    """A pinhole camera matching OffscreenRenderer.look(): position, target, vertical fov, Z up."""

    def __init__(self, position: np.ndarray, target: np.ndarray, fov_deg: float, size: tuple[int, int]):
        self.position, self.fov_deg, self.size = np.asarray(position, float), fov_deg, size
        f = np.asarray(target, float) - self.position
        self.forward = f / np.linalg.norm(f)
        right = np.cross(self.forward, [0, 0, 1.0])
        self.right = right / max(np.linalg.norm(right), 1e-9)
        self.up = np.cross(self.right, self.forward)
        self.tan_v = math.tan(math.radians(fov_deg) / 2)
        self.tan_h = self.tan_v * size[0] / size[1]

    def project(self, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(N, 2) pixel positions and (N,) bool in front of the camera."""
        rel = np.asarray(points, float).reshape(-1, 3) - self.position
        z = rel @ self.forward
        front = z > 1.0
        zz = np.where(front, z, 1.0)
        ndc_x, ndc_y = (rel @ self.right) / (zz * self.tan_h), (rel @ self.up) / (zz * self.tan_v)
        w, h = self.size
        return np.column_stack([(ndc_x + 1) / 2 * w, (1 - ndc_y) / 2 * h]), front


def eye_camera(report, size: tuple[int, int]) -> EyeCamera:
    """Aimed at the centre of the target's samples, framing them with room for the blockers."""
    pts = report.points if report.sample_count else report.eye[None] + [[20.0, 0, 0]]
    centre = (pts.min(axis=0) + pts.max(axis=0)) / 2
    axis = centre - report.eye
    axis /= np.linalg.norm(axis)
    rel = pts - report.eye
    cos = np.clip((rel @ axis) / np.linalg.norm(rel, axis=1), -1, 1)
    half = float(np.degrees(np.arccos(cos)).max())
    return EyeCamera(report.eye, centre, float(np.clip(4.0 * half, 12.0, 70.0)), size)


# ----- the picture --------------------------------------------------------------------------------
def blocker_points(world, report, index: int) -> np.ndarray:
    """World points outlining blocker `index`: its decor triangles' corners, or its body's samples."""
    blocker = report.blockers[index]
    if blocker.kind == "decor":
        rows = [k for k, inst in enumerate(world.instances) if inst.line == blocker.line and
                Path(inst.file).name == blocker.file and inst.name == blocker.part]
        tris = world.decor.triangles[np.isin(world.decor.tri_instance, rows)]
        return world.decor.positions[tris.reshape(-1)].astype(float)
    body = world.body(blocker.id)
    pose = world.poses[body.index]
    return body.template.samples.astype(float) @ pose[:3, :3].T + pose[:3, 3]


def draw_los_picture(scene, world, report, out: str | Path, size: tuple[int, int] = (1280, 720), *,
                     verdict=None, text: str | None = None, force: bool = False) -> Path:
    """Render the firer's view of `report` (a SightReport of `world`) to the PNG `out`, with the
    scene's ruleset's verdict (`verdict`, `text`: computed when not given)."""
    from bow3d.view.camera.pose import CameraPose
    from bow3d.view.output.offscreen import OffscreenRenderer
    from bow3d.view.table.los_overlay import judged

    if verdict is None or text is None:
        verdict, text = judged(scene, report)
    from bow3d.view.film.title_overlay import overlay_layer
    from bow3d.view.graph.scene_nodes import attach_scene

    camera = eye_camera(report, size)
    renderer = OffscreenRenderer(*size)
    try:
        nodes = attach_scene(renderer.render, scene, getattr(world, "library", None))
        seat = getattr(world.body(report.firer), "seat", None)
        own = {report.firer, seat[0]} if seat else {report.firer}   # the firer and the vehicle it rides
        for id_, body in world.bodies.items():
            node = nodes.units.get(id_) or nodes.vehicles.get(id_)
            if node is None:
                continue
            if world.active[body.index] and id_ not in own:
                nodes.set_pose(id_, body.position, body.facing, float(world.poses[body.index, 2, 3]))
            else:
                node.hide()
        _layer, aspect2d = overlay_layer(renderer.buffer, size[0] / size[1])
        boxes = _blocker_boxes(world, report, camera)
        _words(aspect2d, report, boxes, size, text, verdict)
        renderer.look(CameraPose(tuple(camera.position), tuple(camera.position + camera.forward * 100.0),
                                 camera.fov_deg))
        image = renderer.frame().copy()
    finally:
        renderer.close()
    xy, front = camera.project(report.points)
    glass = _through_glass(report)
    stamp_discs(image, xy[front & ~report.seen & ~glass], 3.0, HIDDEN)
    stamp_discs(image, xy[front & glass], 3.0, THROUGH_GLASS)
    stamp_discs(image, xy[front & report.seen], 3.0, SEEN)
    for lo, hi in boxes:
        draw_rectangle(image, lo, hi, BLOCKER)
    draw_inset(image, world, report, rings=inset_rings(verdict, report))
    return write_png(image, out, force=force)


def _through_glass(report) -> np.ndarray:
    """(K,) bool: the rays that meet the target behind transparent parts only."""
    glass = getattr(report, "through_glass", None)
    return np.zeros(len(report.seen), bool) if glass is None else np.asarray(glass, bool)


def _blocker_boxes(world, report, camera: EyeCamera) -> list[tuple[np.ndarray, np.ndarray]]:
    w, h = camera.size
    boxes = []
    for k in range(len(report.blockers)):
        xy, front = camera.project(blocker_points(world, report, k))
        xy = xy[front]
        if len(xy) == 0:
            continue
        lo, hi = np.clip(xy.min(axis=0), 2, [w - 3, h - 3]), np.clip(xy.max(axis=0), 2, [w - 3, h - 3])
        boxes.append((lo, hi))
    return boxes


def _words(aspect2d, report, boxes, size, verdict_text: str, verdict=None) -> None:
    """The verdict on top, a number at each blocker, the legend on the left."""
    from panda3d.core import TextNode

    aspect = size[0] / size[1]

    def text(words: str, x: float, z: float, scale: float, colour=(1, 1, 1, 1), wrap: float = 0.0,
             card: float = 0.45):
        node = TextNode("los-words")
        node.set_text(words)
        node.set_text_color(*colour)
        node.set_shadow(0.05, 0.05)
        node.set_shadow_color(0, 0, 0, 1)
        node.set_card_color(0, 0, 0, card)
        node.set_card_as_margin(0.3, 0.3, 0.2, 0.2)
        if wrap:
            node.set_wordwrap(wrap)
        path = aspect2d.attach_new_node(node)
        path.set_bin("unsorted", 0)   # drawn in the graph's order: the card, then the words over it (not dimmed under it)
        path.set_pos(x, 0, z)
        path.set_scale(scale)

    text(verdict_text, -aspect + 0.04, 0.92, 0.045, wrap=2 * aspect / 0.045 - 2)
    orange = tuple(c / 255 for c in BLOCKER) + (1,)
    for k, (lo, _hi) in enumerate(boxes):
        x, z = lo[0] / size[0] * 2 * aspect - aspect, 1 - lo[1] / size[1] * 2
        text(str(k + 1), x + 0.01, z - 0.06, 0.05, orange)
    from bow3d.i18n import whole_percent as percent

    # numbered along the line of fire, nearest to the firer first, with what each is made of
    label = getattr(verdict, "blocker_label", None)   # what the ruleset makes of each (War of Bros: its cover class)
    lines = [f"{k + 1}: {blocker_words(b)} ({material_words(getattr(b, 'material', '?'))}"
             f"{': ' + label(b) if label and label(b) else ''})  {percent(b.share)}"
             for k, b in enumerate(report.blockers[:8])]
    glass = _through_glass(report)
    through = _(", {n} through glass (blue)").format(n=int(glass.sum())) if glass.any() else ""
    lines.append(_("samples: {seen} seen (green){through}, {hidden} hidden (red)").format(
        seen=int(report.seen.sum()), through=through, hidden=int((~report.seen & ~glass).sum())))
    lines.append(map_legend(inset_rings(verdict, report)))
    for k, line in enumerate(lines):
        # a darker card than the numbers': the legend stays readable over brown wood and sand
        text(line, -aspect + 0.04, -0.55 - 0.055 * k, 0.04, orange if k < len(lines) - 2 else (1, 1, 1, 1), card=0.7)


def blocker_words(blocker) -> str:
    """'3004.dat, Light_Bluish_Grey, village.ldr line 212' or 'unit red-1', in the language spoken."""
    if blocker.kind == "decor":
        where = _(", {file} line {line}").format(file=blocker.file, line=blocker.line) if blocker.file else ""
        return f"{blocker.part}, {blocker.colour}{where}"
    return f"{material_words(blocker.kind)} {blocker.id}"


def material_words(material: str) -> str:
    """A material of bow3d.world.materials (or a body's kind) in the language spoken."""
    names = {"stone": lambda: _("stone"), "wood": lambda: _("wood"), "glass": lambda: _("glass"),
             "plant": lambda: _("plant"), "metal": lambda: _("metal"), "sand": lambda: _("sand"),
             "ground": lambda: _("ground"), "unit": lambda: _("unit"), "vehicle": lambda: _("vehicle"),
             "body": lambda: _("body")}
    say = names.get(material)
    return say() if say is not None else material


def inset_half_studs(report) -> float:
    """Half the side of the inset map, studs: the target and a margin."""
    return max(48.0, float(report.distance_studs) + 4.0)


def inset_rings(verdict, report) -> tuple[tuple[float, str], ...]:
    """The rings the scene's ruleset draws round the firer on the map (its range bands, or its weapons'
    ranges), as many as the map and the colours hold; none when the verdict has no rings."""
    rings = getattr(verdict, "range_rings", None)
    if rings is None:
        return ()
    half = inset_half_studs(report)
    return tuple(r for r in rings(half) if r[0] <= half)[:len(BAND_COLOURS)]


def map_legend(rings) -> str:
    """The map's line of the legend, in the ruleset's words: 'map: 15 studs (green), ...'."""
    names = (_("green"), _("yellow"), _("orange"), _("pink"))   # BAND_COLOURS' names
    drawn = ", ".join(f"{words} ({names[k]})" for k, (_radius, words) in enumerate(rings))
    outside = _("dark = outside the front arc")
    return _("map: {rings}; {outside}").format(rings=drawn, outside=outside) if drawn else \
        _("map: {outside}").format(outside=outside)


def draw_inset(image: np.ndarray, world, report, half_studs: float | None = None,
               rings: tuple[tuple[float, str], ...] = ()) -> None:
    """Top-down map (lower right): heights, front arc, the ruleset's `rings` (radius studs, words),
    line of fire, units."""
    h, w = image.shape[:2]
    side = int(min(h, w) * 0.42)
    x0, y0 = w - side - 10, h - side - 10
    firer, target = world.body(report.firer), world.body(report.target)
    centre = np.asarray(firer.position, float)
    half = half_studs or inset_half_studs(report)
    grid = world.grid
    py, px = np.mgrid[0:side, 0:side]
    sx = centre[0] + (px / side * 2 - 1) * half            # studs
    sy = centre[1] + (1 - py / side * 2) * half
    i = np.floor(sx).astype(int) - grid.i0
    j = np.floor(sy).astype(int) - grid.j0
    inside = (i >= 0) & (i < grid.shape[0]) & (j >= 0) & (j < grid.shape[1])
    heights = np.full((side, side), np.nan)
    heights[inside] = grid.heights[i[inside], j[inside]]
    ground = np.isfinite(heights)
    base = np.nanmin(grid.heights[np.isfinite(grid.heights)]) if np.isfinite(grid.heights).any() else 0.0
    shade = np.clip(110 + (np.where(ground, heights, base) - base) * 1.2, 110, 235)
    tile = np.where(ground[..., None], np.stack([shade * 0.85, shade, shade * 0.8], -1), 40).astype(float)
    facing = math.radians(firer.facing)
    behind = ((sx - centre[0]) * math.cos(facing) + (sy - centre[1]) * math.sin(facing)) < 0
    tile[behind] *= 0.55
    dist = np.hypot(sx - centre[0], sy - centre[1])
    for k, (radius, _words) in enumerate(rings[:len(BAND_COLOURS)]):
        ring = np.abs(dist - radius) < half / side * 1.6
        tile[ring] = BAND_COLOURS[k]
    image[y0:y0 + side, x0:x0 + side] = tile.astype(np.uint8)

    def to_px(pos) -> np.ndarray:
        p = np.asarray(pos, float)
        return np.array([x0 + ((p[0] - centre[0]) / half + 1) / 2 * side, y0 + (1 - (p[1] - centre[1]) / half) / 2 * side])

    tp = to_px(target.position)
    draw_segments(image, to_px(centre)[None], tp[None], SEEN if report.visible else HIDDEN, 2)
    for body in world.bodies.values():
        if world.active[body.index] and body.id not in (firer.id, target.id):
            stamp_discs(image, to_px(body.position)[None], 2.5, (200, 200, 200))
    stamp_discs(image, to_px(centre)[None], 4.5, (40, 90, 230))
    stamp_discs(image, tp[None], 4.5, (230, 60, 40))
    draw_rectangle(image, np.array([x0, y0], float), np.array([x0 + side - 1, y0 + side - 1], float), (20, 20, 20), 2)
