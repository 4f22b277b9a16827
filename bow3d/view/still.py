"""Still pictures of a model: the `bow3d render` job, shared by later pictures (LOS, demo).

Layer: view.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from panda3d.core import NodePath

from bow3d.ldraw import Model
from bow3d.view.batches import build_batches, edge_lines
from bow3d.view.offscreen import CameraPose, OffscreenRenderer, pose_for_view
from bow3d.view.scene_graph import attach_batches, attach_edges


@dataclass(frozen=True)
class RenderStats:
    """What went into a still: triangles drawn, draw calls, seconds to build and to draw."""

    triangles: int
    draw_calls: int
    build_seconds: float
    draw_seconds: float
    pipe: str


def attach_model(parent: NodePath, model: Model, quality: str = "default", edges: bool = False) -> tuple[NodePath, int, int]:
    """The model's static geometry under `parent`: (node, triangles at the nearest level, draw calls)."""
    batches = build_batches(model, quality)
    node = attach_batches(parent, batches)
    calls = len(batches)
    if edges:
        attach_edges(node, edge_lines(model, quality))
        calls += 1
    return node, sum(b.triangle_count for b in batches if b.lod < 2), calls


def render_still(model: Model, out: str | Path, size: tuple[int, int] = (1280, 720), view: str = "iso",
                 quality: str = "default", edges: bool = False, pose: CameraPose | None = None) -> RenderStats:
    """Render `model` to a PNG at `out`."""
    started = time.perf_counter()
    renderer = OffscreenRenderer(*size)
    try:
        _, triangles, calls = attach_model(renderer.render, model, quality, edges)
        renderer.look(pose or pose_for_view(model.bounds(), view, aspect=size[0] / size[1]))
        built = time.perf_counter()
        renderer.save(out)
        return RenderStats(triangles, calls, built - started, time.perf_counter() - built, renderer.pipe_name)
    finally:
        renderer.close()
