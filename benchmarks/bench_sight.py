"""Sight methods side by side: the model's-eye view (silhouette-1, the default) and surface samples
(surface-samples-1, what replays written before it were refereed with), against a brute-force oracle.

Measured in this process, in the same run, warm:
- accuracy: the visible fraction of each method against the oracle of tests/world/sight_oracle.py
  (512 x 512 = 262,144 rays from the firer's eye over the target's silhouette, every LDraw triangle,
  studs included; its own embreex scenes) on its sight lines (walls near the target and near the
  firer, corners, windows with and without glass, a fence, another minifig, profile and back views,
  firers on towers, a target on a plateau), in percentage points: mean absolute, max, mean signed;
  and on battlefield-5k, on lines between its minifigs that the oracle (256 x 256 rays) sees;
- one LOS adjudication (`World.sight`) on battlefield-5k, 24 minifigs, the same pairs for both
  methods, interleaved: p50 and p99, wall and CPU time;
- what silhouette-1 adds to a world: the stand-in studs (built on the first sight).
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import numpy as np

from benchmarks.common import BATTLEFIELD, OFFICIAL, ROOT, have_reference, table

FIGURES = 24
QUERIES = 400
ORACLE_PAIRS = 40          # battlefield-5k lines judged by the oracle
ORACLE_SIDE_5K = 256
SEED = 20261123
NEW, OLD = "silhouette-1", "surface-samples-1"


def _worlds(library):
    """The battlefield with FIGURES minifigs on random cells, once per method (the same bodies)."""
    from bow3d.ldraw import load_model
    from bow3d.world import BodySpec, World, sight_mesh, template_from_model

    model = load_model(BATTLEFIELD, library)
    figure = load_model(ROOT / "tests" / "data" / "world" / "minifig.ldr", library)
    rng = np.random.default_rng(SEED)
    probe = World(sight_mesh(model), {"minifig": template_from_model("minifig", figure)}, [], model.instances)
    flat = np.argwhere(np.isfinite(probe.grid.heights))
    cells = flat[rng.choice(len(flat), FIGURES, replace=False)] + [probe.grid.i0, probe.grid.j0]
    specs = [BodySpec(f"fig-{k}", "minifig", (float(i) + 0.5, float(j) + 0.5), float(rng.uniform(0, 360)),
                      side="blue" if k % 2 else "red") for k, (i, j) in enumerate(cells)]
    worlds, builds = {}, {}
    for method, studs in ((OLD, False), (NEW, True)):
        started = time.perf_counter()
        worlds[method] = World(sight_mesh(model), {"minifig": template_from_model("minifig", figure, studs)}, specs,
                               model.instances, decor_model=model, sight_method=method)
        builds[method] = time.perf_counter() - started
    started = time.perf_counter()
    worlds[NEW]._sight_scene()
    builds["studs"] = time.perf_counter() - started
    return model, worlds, builds, rng


def _timings(worlds, pairs) -> dict:
    ids = list(worlds[NEW].bodies)
    for world in worlds.values():
        world.sight(ids[0], ids[1])  # warm
    wall = {m: [] for m in worlds}
    cpu = {m: [] for m in worlds}
    visible = dict.fromkeys(worlds, 0)
    rays = {m: [] for m in worlds}
    for a, b in pairs:
        for method, world in worlds.items():
            t0, c0 = time.perf_counter(), time.thread_time()
            report = world.sight(ids[a], ids[b])
            cpu[method].append(time.thread_time() - c0)
            wall[method].append(time.perf_counter() - t0)
            visible[method] += report.visible
            rays[method].append(report.sample_count)
    out = {}
    for method in worlds:
        p50, p99 = np.percentile(np.array(wall[method]) * 1000, [50, 99])
        c50, c99 = np.percentile(np.array(cpu[method]) * 1000, [50, 99])
        out[method] = (p50, p99, c50, c99, visible[method] / len(pairs), int(np.median(rays[method])))
    return out


def _battlefield_errors(model, worlds, pairs) -> dict:
    """Errors (points) on lines of battlefield-5k the oracle sees, per method."""
    from tests.world.sight_oracle import Oracle

    judge = Oracle(model)
    ids = list(worlds[NEW].bodies)
    diffs = {m: [] for m in worlds}
    for a, b in pairs:
        if len(diffs[NEW]) >= ORACLE_PAIRS:
            break
        truth, _, count = judge.judge(worlds[NEW], ids[a], ids[b], ORACLE_SIDE_5K)
        if count == 0 or truth <= 0.0:
            continue
        for method, world in worlds.items():
            diffs[method].append((world.sight(ids[a], ids[b]).visible_fraction - truth) * 100)
    return {m: np.array(d) for m, d in diffs.items()}


def _suite_errors(library) -> tuple[list, dict]:
    from tests.world.sight_oracle import SIGHT_LINES, errors, summary

    with tempfile.TemporaryDirectory() as folder:
        rows = errors(SIGHT_LINES, Path(folder), library, (NEW, OLD))
    return rows, {m: summary(rows, m) for m in (NEW, OLD)}


def run() -> str:
    if not have_reference():
        return "## Sight methods\n\nSkipped: battlefield-5k or the official library (LDRAWDIR) is missing.\n"
    from bow3d.ldraw import Library

    library = Library([OFFICIAL])
    rows, suite = _suite_errors(library)
    model, worlds, builds, rng = _worlds(library)
    pairs = rng.integers(0, FIGURES, (QUERIES, 2))
    pairs = pairs[pairs[:, 0] != pairs[:, 1]]
    timing = _timings(worlds, pairs)
    field = _battlefield_errors(model, worlds, pairs)
    new, old = timing[NEW], timing[OLD]
    lines = len(rows)
    body = [
        ["visible fraction vs oracle, sight lines: silhouette-1 (new)",
         f"mean {suite[NEW][0]:.2f}, max {suite[NEW][1]:.2f} points", f"{lines} lines; mean signed {suite[NEW][2]:+.2f}"],
        ["visible fraction vs oracle, sight lines: surface-samples-1 (old)",
         f"mean {suite[OLD][0]:.2f}, max {suite[OLD][1]:.2f} points", f"{lines} lines; mean signed {suite[OLD][2]:+.2f}"],
        ["visible fraction vs oracle, battlefield-5k: silhouette-1 (new)",
         f"mean {np.abs(field[NEW]).mean():.2f}, max {np.abs(field[NEW]).max():.2f} points",
         f"{len(field[NEW])} lines the oracle sees ({ORACLE_SIDE_5K}^2 rays); mean signed {field[NEW].mean():+.2f}"],
        ["visible fraction vs oracle, battlefield-5k: surface-samples-1 (old)",
         f"mean {np.abs(field[OLD]).mean():.2f}, max {np.abs(field[OLD]).max():.2f} points",
         f"same lines; mean signed {field[OLD].mean():+.2f}"],
        ["one LOS adjudication, p50: silhouette-1 (new)", f"{new[0]:.3f} ms wall, {new[2]:.3f} ms CPU",
         f"{new[0] / old[0]:.2f}x the old method's wall time; {len(pairs)} queries, median {new[5]} rays, "
         f"{new[4]:.0%} visible"],
        ["one LOS adjudication, p50: surface-samples-1 (old)", f"{old[0]:.3f} ms wall, {old[2]:.3f} ms CPU",
         f"same pairs, interleaved; median {old[5]} samples, {old[4]:.0%} visible"],
        ["one LOS adjudication, p99: new / old", f"{new[1]:.3f} / {old[1]:.3f} ms wall",
         f"CPU {new[3]:.3f} / {old[3]:.3f} ms (time.thread_time; wall includes waits for the shared cores)"],
        ["world build: new / old", f"{builds[NEW]:.2f} / {builds[OLD]:.2f} s",
         f"+ the sight scene (decor and stand-in studs) on the first sight: {builds['studs']:.2f} s "
         f"({worlds[NEW]._studs.triangle_count:,} stud triangles)"],
    ]
    detail = [[name, f"{truth * 100:.1f}", f"{judged[NEW][0] * 100:.1f}", f"{judged[OLD][0] * 100:.1f}",
               f"{glass * 100:.1f} / {judged[NEW][1] * 100:.1f}"] for name, truth, glass, judged in rows]
    return ("## Sight methods: model's-eye view against surface samples\n\n"
            + (__doc__ or "").split("\n\n", 1)[1].strip() + "\n\n" + table(["measure", "value", "notes"], body)
            + "\n\nPer sight line, visible % (oracle, new, old) and the share seen through glass (oracle / new):\n\n"
            + table(["sight line", "oracle", "silhouette-1", "surface-samples-1", "glass"], detail) + "\n")


if __name__ == "__main__":
    print(run())
