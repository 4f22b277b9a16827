"""The `bow3d heatmap` picture: the battlefield from straight above, one coloured square per stud cell.

Layer: view. An orthographic top-down render of the scene (units and vehicles as the world has
them) with each cell tinted: in `visibility` mode by the visible fraction of a minifig standing
there (dark blue = cannot be seen, yellow = seen but covered, red = in the open); in `cover`
mode by the number of enemy positions from which it would be in cover (red = none, yellow = half,
blue = all).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from bow3d.paths import new_file_name
from bow3d.view.los_picture import stamp_discs, write_png

HIDDEN = np.array([30, 60, 170], float)
COVERED = np.array([250, 200, 40], float)
OPEN = np.array([225, 40, 30], float)
ALPHA = 0.7
MAX_PIXELS = 2400
TITLE_BAND_PX = 72  # words go in a band under the map, untinted


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


def draw_heatmap_picture(scene, world, cell_colours: np.ndarray, out: str | Path, title: str,
                         markers: list[tuple[str, tuple[int, int, int]]] = (), px_per_stud: int = 16, *,
                         force: bool = False) -> Path:
    """Render the battlefield from above with `cell_colours` ((nx, ny, 3), NaN = leave untinted) to the
    PNG `out` (bow3d.paths: never through a link; an existing file is replaced only with `force`)."""
    from panda3d.core import OrthographicLens, TextNode

    from bow3d.view.offscreen import OffscreenRenderer
    from bow3d.view.scene_nodes import attach_scene
    from bow3d.view.titles import overlay_layer

    grid = world.grid
    nx, ny = grid.shape
    scale = max(2, min(px_per_stud, MAX_PIXELS // max(nx, ny)))
    width, map_height = nx * scale, ny * scale
    height = map_height + TITLE_BAND_PX
    renderer = OffscreenRenderer(width, height)
    try:
        nodes = attach_scene(renderer.render, scene, getattr(world, "library", None))
        for id_, body in world.bodies.items():
            node = nodes.units.get(id_) or nodes.vehicles.get(id_)
            if node is not None and world.active[body.index]:
                nodes.set_pose(id_, body.position, body.facing, float(world.poses[body.index, 2, 3]))
            elif node is not None:
                node.hide()
        lens = OrthographicLens()
        lens.set_film_size(nx * 20.0, height / scale * 20.0)
        lens.set_near_far(1.0, 100000.0)
        renderer.camera.node().set_lens(lens)
        top = float(world.bounds[1, 2]) + 2000.0
        band_ldu = TITLE_BAND_PX / scale * 20.0
        renderer.camera.set_pos((grid.i0 + nx / 2) * 20.0, (grid.j0 + ny / 2) * 20.0 - band_ldu / 2, top)
        renderer.camera.set_hpr(0, -90, 0)
        _, aspect2d = overlay_layer(renderer.buffer, width / height)
        node = TextNode("heatmap-title")
        node.set_text(title)
        node.set_wordwrap(2 * width / height / (0.045 * 1024 / height) - 2)
        node.set_card_color(0, 0, 0, 0.55)
        node.set_card_as_margin(0.3, 0.3, 0.2, 0.2)
        path = aspect2d.attach_new_node(node)
        path.set_pos(-width / height + 0.03, 0, -1 + 2 * TITLE_BAND_PX / height - 0.055 * 1024 / height)
        path.set_scale(0.045 * 1024 / height)
        image = renderer.frame().astype(float)
    finally:
        renderer.close()
    # Pixel (row, col) -> cell: columns run along +x, rows down from the top (+y up on screen).
    cols = np.arange(width) // scale
    rows = (ny - 1) - np.arange(map_height) // scale
    tint = cell_colours[cols[None, :], rows[:, None]]
    has = np.isfinite(tint).all(axis=-1)
    top = image[:map_height]
    top[has] = top[has] * (1 - ALPHA) + tint[has] * ALPHA
    image = image.astype(np.uint8)
    for id_, colour in markers:
        body = world.body(id_)
        x, y = body.position
        stamp_discs(image, np.array([[(x - grid.i0) * scale, (grid.j0 + ny - y) * scale]]), max(3.0, scale * 0.45),
                    colour, (255, 255, 255))
    with new_file_name(out, force=force) as tmp:  # a fresh file beside `out`, renamed into place
        write_png(image, tmp)
    return Path(out)
