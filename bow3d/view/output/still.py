"""Still pictures of a model: the `bow3d render` job, shared by later pictures (LOS, demo).

Layer: view.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from bow3d.ldraw import BudgetExceeded, Library, Model, load_model
from bow3d.view.camera.pose import CameraPose
from bow3d.view.graph.scene_graph import attach_model
from bow3d.view.output.offscreen import MULTISAMPLES, OffscreenRenderer, pose_for_view


@dataclass(frozen=True)
class RenderStats:
    """What went into a still: triangles drawn, draw calls, seconds to build and to draw."""

    triangles: int
    draw_calls: int
    build_seconds: float
    draw_seconds: float
    pipe: str


def render_still(model: Model, out: str | Path, size: tuple[int, int] = (1280, 720), view: str = "iso",
                 quality: str = "default", edges: bool = False, pose: CameraPose | None = None, *,
                 force: bool = False) -> RenderStats:
    """Render `model` to a PNG at `out` (an existing file is replaced only with `force`; never a link).
    BudgetExceeded before anything is built when its drawing would not fit (Model.check_drawing)."""
    model.check_drawing(edges)
    started = time.perf_counter()
    renderer = OffscreenRenderer(*size, multisamples=MULTISAMPLES)
    try:
        _, triangles, calls = attach_model(renderer.render, model, quality, edges)
        renderer.look(pose or pose_for_view(model.bounds(), view, aspect=size[0] / size[1]))
        built = time.perf_counter()
        renderer.save(out, force=force)
        return RenderStats(triangles, calls, built - started, time.perf_counter() - built, renderer.pipe_name)
    finally:
        renderer.close()


def render_scene_still(scene, out: str | Path, size: tuple[int, int] = (1280, 720), view: str = "iso",
                       quality: str = "default", edges: bool = False, camera=None, library=None,
                       los: tuple[str, str] | None = None, *, force: bool = False) -> RenderStats:
    """Render a scene (battlefield, units, vehicles, optionally a line of sight) to a PNG at `out`
    (an existing file is replaced only with `force`; never a link).

    `camera` is a `bow3d.view.camera.camera_options.CameraSpec` (None: the named `view` framing it all);
    `los` (firer, target) draws the world's sight report (bow3d.view.table.los_overlay).
    BudgetExceeded before anything is built when the battlefield's drawing would not fit.
    """
    from bow3d.view.camera.camera_options import camera_pose
    from bow3d.view.graph.scene_nodes import attach_scene

    check_battlefield_drawing(scene, library, edges)
    started = time.perf_counter()
    renderer = OffscreenRenderer(*size, multisamples=MULTISAMPLES)
    try:
        nodes = attach_scene(renderer.render, scene, library, quality=quality)
        if edges:
            nodes.rebuild_battlefield(quality, True)
        if los is not None:
            from bow3d.view.table.los_overlay import LosOverlay, sight_report

            report = sight_report(scene, nodes, los[0], los[1], library)
            LosOverlay(renderer.render, nodes, report)
            nodes.highlight(los[0])
            nodes.highlight(los[1], (1.0, 0.35, 0.1, 1.0), slot="target")
        if camera is not None:
            pose = camera_pose(camera, nodes, los[1] if los and camera.unit == los[0] else None)
        else:
            direction = None
            if view == "armies":  # across the battle line, both armies in the picture
                from bow3d.view.camera.armies_view import armies_direction, side_positions

                direction = armies_direction(side_positions(scene))
            pose = pose_for_view(nodes.bounds(), view, aspect=size[0] / size[1], direction=direction)
        renderer.look(pose)
        built = time.perf_counter()
        renderer.save(out, force=force)
        return RenderStats(nodes.triangles, nodes.draw_calls + len(nodes.pieces), built - started,
                           time.perf_counter() - built, renderer.pipe_name)
    finally:
        renderer.close()


def check_battlefield_drawing(scene, library: Library | None, edges: bool) -> None:
    """BudgetExceeded when the scene's battlefield is too big to draw. The scene's nodes load it and draw it
    at once, so it is loaded here first (a warm load of the 5,000-part battlefield takes 0.1 s); a
    battlefield that does not load is left to them, which say what is wrong as they always have."""
    try:
        battlefield = load_model(scene.battlefield_path, library or Library.from_env())
    except BudgetExceeded:
        raise
    except Exception:  # noqa: BLE001 - see the docstring
        return
    battlefield.check_drawing(edges)
