"""Offscreen frames per second of battlefield-5k at 1280x720: default quality against the naive way.

The naive way: every part's full LDraw geometry (5.2 million triangles) merged into one node.
Software GL here (Mesa llvmpipe through EGL); each way in its own process.
"""

from __future__ import annotations

from benchmarks.common import BATTLEFIELD, OFFICIAL, have_reference, in_fresh_process, table

CODE = """
import json, time
from pathlib import Path
from bow3d.ldraw import Library, load_model
from bow3d.view.graph.batches import Batch, placed_triangles, _group
from bow3d.view.output.offscreen import OffscreenRenderer, pose_for_view
from bow3d.view.graph.scene_graph import attach_batches, batch_node
from bow3d.view.output.still import attach_model
model = load_model({path!r}, Library([Path({lib!r})]))
renderer = OffscreenRenderer(1280, 720)
t0 = time.perf_counter()
if {naive!r}:
    corners, rgba, certified, anchor = placed_triangles(model, "full")
    anchor[:] = 0  # one chunk: one node with everything
    batches = _group(corners, rgba, certified | True, anchor, 1e9)
    batch = Batch(*(__import__("numpy").concatenate([getattr(b, f) for b in batches])
                    for f in ("positions", "normals", "colours")), False, False, (0, 0))
    renderer.render.attach_new_node(batch_node(batch))
    triangles, calls = batch.triangle_count, 1
else:
    _, triangles, calls = attach_model(renderer.render, model, {quality!r})
build = time.perf_counter() - t0
renderer.look(pose_for_view(model.bounds(), "iso"))
for _ in range(3):
    renderer.render_frame()
frames = {frames}
t1 = time.perf_counter()
for _ in range(frames):
    renderer.render_frame()
fps = frames / (time.perf_counter() - t1)
print(json.dumps(dict(fps=fps, triangles=triangles, calls=calls, build=build, pipe=renderer.pipe_name)))
"""


def run(frames: int = 60) -> str:
    if not have_reference():
        return "## Rendering\n\nskipped: battlefield-5k.ldr or the official library (LDRAWDIR) is not here.\n"
    args = dict(path=str(BATTLEFIELD), lib=str(OFFICIAL))
    naive = in_fresh_process(CODE.format(**args, naive=True, quality="full", frames=max(5, frames // 10)))
    default = in_fresh_process(CODE.format(**args, naive=False, quality="default", frames=frames))
    full = in_fresh_process(CODE.format(**args, naive=False, quality="full", frames=max(5, frames // 10)))
    rows = [[name, f"{r['fps']:.1f}", f"{r['fps'] / naive['fps']:.1f}", f"{r['triangles']:,}", r["calls"],
             f"{r['build']:.2f}"] for name, r in (("naive: everything in one node (peer)", naive),
                                                  ("bow3d --quality full", full),
                                                  ("bow3d default quality", default))]
    return "\n".join([
        "## Rendering: battlefield-5k.ldr offscreen at 1280x720, iso view",
        "",
        f"Graphics: {default['pipe']}, software GL (Mesa llvmpipe) on this 2-core machine.",
        "Triangles: at the nearest level of detail; at this distance every chunk draws its far level.",
        "",
        table(["way", "frames/s", "ratio to naive", "triangles", "draw calls", "scene build s"], rows),
        "",
        run_viewer(),
        run_looks(),
    ])


if __name__ == "__main__":
    print(run())


VIEWER = """
import json, os, time
from pathlib import Path
from bow3d.ldraw import Library, load_model
from bow3d.view.apps.viewer import Viewer, open_base
model = load_model({path!r}, Library([Path({lib!r})]))
base = open_base(offscreen=True, size=(1280, 720))
viewer = Viewer(base, model)
for _ in range(3):
    base.graphicsEngine.render_frame()
frames = {frames}
t, c = time.perf_counter(), time.process_time()
for i in range(frames):
    viewer.on_orbit(360.0 / frames, 0.0)  # a full turn round the battlefield
    base.task_mgr.step()
fps = frames / (time.perf_counter() - t)
print(json.dumps(dict(fps=fps, cpu_ms=(time.process_time() - c) / frames * 1e3, load=os.getloadavg()[0])))
"""


def run_viewer(frames: int = 60) -> str:
    """Frames per second of the interactive viewer (offscreen buffer) orbiting battlefield-5k."""
    if not have_reference():
        return ""
    result = in_fresh_process(VIEWER.format(path=str(BATTLEFIELD), lib=str(OFFICIAL), frames=frames))
    return (f"Viewer (`bow3d view`, default quality, 1280x720 offscreen buffer, one full orbit of "
            f"{frames} frames): **{result['fps']:.1f} frames/s**, {result['cpu_ms']:.1f} CPU ms per frame "
            f"(2 free cores: up to {2000 / result['cpu_ms']:.0f} frames/s; load average {result['load']:.1f}).\n")


LOOKS = """
import json, os, time
from pathlib import Path
from bow3d.ldraw import Library, load_model
from bow3d.view.output.offscreen import OffscreenRenderer, pose_for_view
from bow3d.view.output.still import attach_model
lib = Library([Path({lib!r})])
out = {{}}

def measure(r, frames={frames}):
    for _ in range(3):
        r.render_frame()
    t, c = time.perf_counter(), time.process_time()
    for _ in range(frames):
        r.render_frame()
    return [(time.perf_counter() - t) / frames * 1e3, (time.process_time() - c) / frames * 1e3]

model = load_model({path!r}, lib)
for ms in (0, 4):
    r = OffscreenRenderer(1280, 720, multisamples=ms)
    attach_model(r.render, model, "default")
    r.look(pose_for_view(model.bounds(), "iso"))
    out["msaa" + str(ms)] = measure(r)
    r.close()
village = load_model({village!r}, lib)
r = OffscreenRenderer(1280, 720)
node, _, _ = attach_model(r.render, village, "default", edges=True)
r.look(pose_for_view(village.bounds(), "iso", aspect=16 / 9))
out["conditional"] = measure(r)
node.find("conditional-lines").hide()
out["edges"] = measure(r)
node.find("edges").hide()
out["none"] = measure(r)
out["load"] = os.getloadavg()[0]
print(json.dumps(out))
"""


def run_looks(frames: int = 20) -> str:
    """What issue 13's looks cost per frame: 4x multisampling on battlefield-5k, conditional lines on the village.

    CPU milliseconds per frame (the process and llvmpipe's threads) are the steady figure on a shared machine."""
    from benchmarks.common import ROOT

    r = in_fresh_process(LOOKS.format(path=str(BATTLEFIELD), lib=str(OFFICIAL), frames=frames,
                                      village=str(ROOT / "scenes" / "village.ldr")))
    rows = [[what, f"{r[key][0]:.0f}", f"{r[key][1]:.1f}", f"{2000 / r[key][1]:.0f}"] for what, key in (
        ("battlefield-5k, default quality", "msaa0"), ("battlefield-5k, default quality, 4x multisampling", "msaa4"),
        ("village, no lines", "none"), ("village, edge lines", "edges"),
        ("village, edge lines and conditional lines", "conditional"))]
    return "\n".join([
        f"Looks, 1280x720 offscreen, {frames} frames each (load average {r['load']:.1f}):",
        "",
        table(["frame", "wall ms", "CPU ms", "upper bound on 2 free cores, frames/s (2000 / CPU ms)"], rows),
        "",
    ])
