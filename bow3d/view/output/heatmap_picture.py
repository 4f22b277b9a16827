"""The `bow3d heatmap` picture: the battlefield from straight above, one coloured square per stud cell.

Layer: view. An orthographic top-down render of the scene (units and vehicles as the world has
them), turned light grey so that the tints read on any baseplate, with each cell tinted: in
`visibility` mode by the visible fraction of a minifig standing there (blue = cannot be seen,
amber = seen but covered, red = in the open); in `cover` mode by the number of enemy positions from
which it would be in cover (red = none, amber = half, blue = all). Over it: a stud grid every
GRID_STUDS studs with its coordinates, every unit's and vehicle's id, and under the map the title
and a legend (one swatch per colour, in words). Words: bow3d.view.output.picture_words.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from bow3d.i18n import _, percent
from bow3d.paths import new_file_name
from bow3d.view.output.los_picture import stamp_discs, write_png
from bow3d.view.output.picture_words import Label, draw_words

# Blue, amber and red stay apart for red-green colour blindness too (they differ in lightness).
HIDDEN = np.array([35, 75, 175], float)
COVERED = np.array([245, 185, 35], float)
OPEN = np.array([215, 40, 30], float)
ALPHA = 0.72            # tint over the grey battlefield
GREY_FLOOR, GREY_GAIN = 140.0, 0.45  # the battlefield's luminance mapped to 140..255: light, shapes kept
GRID_STUDS = 8          # a grid line every 8 studs (a baseplate's quarter; the rule book's ruler reads 8s easily)
MAX_PIXELS = 2400
BAND_PX = 118           # the title and the legend go in a band under the map, untinted
BAND_COLOUR = (32, 36, 42)
LABEL_PX, TITLE_PX, GRID_LABEL_PX = 15, 19, 12


def visibility_colours(fraction: np.ndarray, cover_threshold: float) -> np.ndarray:
    """(..., 3) colours: not visible -> blue; covered -> yellow to orange; not covered -> red."""
    f = np.nan_to_num(fraction, nan=0.0)[..., None]
    covered_end = max(1.0 - cover_threshold, 1e-6)
    mix_cov = np.clip(f / covered_end, 0, 1)
    mix_open = np.clip((f - covered_end) / max(cover_threshold, 1e-6), 0, 1)
    colour = np.where(f < covered_end, COVERED * (0.6 + 0.4 * mix_cov), COVERED + (OPEN - COVERED) * mix_open)
    return np.where(f <= 0.0, HIDDEN, colour)


def cover_colours(counts: np.ndarray, enemies: int) -> np.ndarray:
    """(..., 3): covered from no enemy -> red, from half -> yellow, from all of them -> blue."""
    u = (counts / max(enemies, 1))[..., None]
    low = OPEN + (COVERED - OPEN) * np.clip(2 * u, 0, 1)
    return np.where(u <= 0.5, low, COVERED + (HIDDEN - COVERED) * np.clip(2 * u - 1, 0, 1))


def visibility_legend(cover_threshold: float) -> list[tuple[str, np.ndarray]]:
    """The swatches of a visibility map, in words."""
    return [(_("cannot be seen"), HIDDEN),
            (_("seen, covered ({share}+ hidden)").format(share=percent(cover_threshold)), COVERED * 0.8),
            (_("seen in the open"), OPEN)]


def cover_legend(enemies: int) -> list[tuple[str, np.ndarray]]:
    """The swatches of a cover map, in words."""
    return [(_("covered from none"), OPEN), (_("from half of them"), COVERED),
            (_("from all {n}").format(n=enemies), HIDDEN)]


def backdrop(image: np.ndarray) -> np.ndarray:
    """(H, W, 3) float: the render turned light grey (its luminance squeezed into GREY_FLOOR..255)."""
    luminance = image[..., :3].astype(float) @ np.array([0.299, 0.587, 0.114])
    return np.repeat((GREY_FLOOR + GREY_GAIN * luminance)[..., None], 3, axis=-1)


def grid_lines(i0: int, n: int) -> list[int]:
    """The stud coordinates in i0 .. i0 + n (inclusive) where a grid line goes (multiples of GRID_STUDS)."""
    first = -(-i0 // GRID_STUDS) * GRID_STUDS
    return list(range(first, i0 + n + 1, GRID_STUDS))


def tint_map(image: np.ndarray, cell_colours: np.ndarray, grid, scale: int) -> np.ndarray:
    """(H, W, 3) uint8: the map part of `image` (top nx*scale x ny*scale pixels) grey, tinted, with the grid."""
    nx, ny = grid.shape
    width, height = nx * scale, ny * scale
    out = backdrop(image)
    # Pixel (row, col) -> cell: columns run along +x, rows down from the top (+y up on screen).
    cols = np.arange(width) // scale
    rows = (ny - 1) - np.arange(height) // scale
    tint = cell_colours[cols[None, :], rows[:, None]]
    has = np.isfinite(tint).all(axis=-1)
    top = out[:height, :width]
    top[has] = top[has] * (1 - ALPHA) + tint[has] * ALPHA
    thick = 1 if scale < 12 else 2
    for i in grid_lines(grid.i0, nx):
        c = (i - grid.i0) * scale
        top[:, max(c - thick // 2, 0):c + thick - thick // 2] *= 0.35
    for j in grid_lines(grid.j0, ny):
        r = (grid.j0 + ny - j) * scale
        top[max(r - thick // 2, 0):r + thick - thick // 2, :] *= 0.35
    return np.clip(out, 0, 255).astype(np.uint8)


def place_labels(world, grid, scale: int, shown: list[str]) -> list[Label]:
    """Each shown body's id beside it (right of it, moved down while it would cover an earlier label), and the
    grid's coordinates along the top and left edges."""
    nx, ny = grid.shape
    labels: list[Label] = []
    boxes: list[tuple[float, float, float]] = []  # (x, y, width) px of the labels placed
    size = max(11, min(LABEL_PX, scale))
    for id_ in shown:
        x, y = world.body(id_).position
        px, py = (x - grid.i0) * scale + 0.55 * scale + 3, (grid.j0 + ny - y) * scale + size * 0.35
        w = 0.62 * size * len(id_)
        while any(px < bx + bw and bx < px + w and abs(py - by) < size * 1.05 for bx, by, bw in boxes):
            py += size * 1.1
        if px + w > nx * scale:  # at the right edge: to the left of the unit instead
            px = (x - grid.i0) * scale - 0.55 * scale - 3 - w
        boxes.append((px, py, w))
        labels.append(Label(id_, px, py, size))
    for i in grid_lines(grid.i0, nx)[1:-1]:
        labels.append(Label(str(i), (i - grid.i0) * scale + 3, GRID_LABEL_PX + 2, GRID_LABEL_PX, (235, 235, 235)))
    for j in grid_lines(grid.j0, ny)[1:-1]:
        labels.append(Label(str(j), 3, (grid.j0 + ny - j) * scale - 3, GRID_LABEL_PX, (235, 235, 235)))
    return labels


def draw_heatmap_picture(scene, world, cell_colours: np.ndarray, out: str | Path, title: str,
                         markers: Sequence[tuple[str, tuple[int, int, int]]] = (), px_per_stud: int = 16, *,
                         legend: Sequence[tuple[str, np.ndarray]] = (), force: bool = False) -> Path:
    """Render the battlefield from above with `cell_colours` ((nx, ny, 3), NaN = leave untinted), the grid, the
    ids, `markers` (id, RGB disc), the title and the `legend` swatches, to the PNG `out` (bow3d.paths: never
    through a link; an existing file is replaced only with `force`)."""
    from bow3d.view.output.offscreen import OffscreenRenderer

    grid = world.grid
    nx, ny = grid.shape
    scale = max(2, min(px_per_stud, MAX_PIXELS // max(nx, ny)))
    width, map_height = nx * scale, ny * scale
    height = map_height + BAND_PX
    renderer = OffscreenRenderer(width, height)
    try:
        image = _render_top(renderer, scene, world, scale)
        image = tint_map(image, cell_colours, grid, scale)
        image[map_height:] = BAND_COLOUR
        shown = [id_ for id_, body in world.bodies.items() if world.active[body.index]]
        marked = {id_ for id_, _colour in markers}
        spots = np.array([[(world.body(i).position[0] - grid.i0) * scale, (grid.j0 + ny - world.body(i).position[1])
                           * scale] for i in shown if i not in marked]).reshape(-1, 2)
        stamp_discs(image, spots, max(2.0, scale * 0.22), (255, 255, 255))  # where each unit stands
        for id_, colour in markers:
            x, y = world.body(id_).position
            stamp_discs(image, np.array([[(x - grid.i0) * scale, (grid.j0 + ny - y) * scale]]),
                        max(3.0, scale * 0.45), colour, (255, 255, 255))
        labels = place_labels(world, grid, scale, shown)
        labels.append(Label(title, 12, map_height + 8 + TITLE_PX, TITLE_PX, wrap_px=width - 24))
        x = 12.0
        swatches = []
        for words, swatch in legend:
            swatches.append((x, height - 38, 24, tuple(int(c) for c in swatch)))
            labels.append(Label(words, x + 32, height - 20, LABEL_PX + 1))
            x += 32 + 0.6 * (LABEL_PX + 1) * len(words) + 28
        labels.append(Label(_("grid: {n} studs").format(n=GRID_STUDS), max(x, width - 150.0), height - 20, LABEL_PX,
                            (200, 200, 200)))
        for sx, sy, side, fill in swatches:
            image[int(sy):int(sy) + side, int(sx):int(sx) + side] = (255, 255, 255)
            image[int(sy) + 2:int(sy) + side - 2, int(sx) + 2:int(sx) + side - 2] = fill
        image = draw_words(renderer, image, labels)
    finally:
        renderer.close()
    with new_file_name(out, force=force) as tmp:  # a fresh file beside `out`, renamed into place
        write_png(image, tmp)
    return Path(out)


def _render_top(renderer, scene, world, scale: int) -> np.ndarray:
    """The scene from straight above, the map filling the top of the buffer (the band below stays sky)."""
    from panda3d.core import OrthographicLens

    from bow3d.view.graph.scene_nodes import attach_scene

    grid = world.grid
    nx, ny = grid.shape
    nodes = attach_scene(renderer.render, scene, getattr(world, "library", None))
    for id_, body in world.bodies.items():
        node = nodes.units.get(id_) or nodes.vehicles.get(id_)
        if node is not None and world.active[body.index]:
            nodes.set_pose(id_, body.position, body.facing, float(world.poses[body.index, 2, 3]))
        elif node is not None:
            node.hide()
    lens = OrthographicLens()
    lens.set_film_size(nx * 20.0, renderer.height / scale * 20.0)
    lens.set_near_far(1.0, 100000.0)
    renderer.camera.node().set_lens(lens)
    top = float(world.bounds[1, 2]) + 2000.0
    band_ldu = BAND_PX / scale * 20.0
    renderer.camera.set_pos((grid.i0 + nx / 2) * 20.0, (grid.j0 + ny / 2) * 20.0 - band_ldu / 2, top)
    renderer.camera.set_hpr(0, -90, 0)
    image = renderer.frame().copy()
    renderer.render.hide()  # the second pass draws the finished picture, not the scene again
    return image
