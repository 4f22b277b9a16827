"""The rulesets engine against the BOW-only rules core it replaced, in the same run.

The old core is the code of commit BASELINE (the last one before the engine), taken with
`git archive` into a temporary folder and run from there; the new one is this checkout. Each
measure runs in a new process, old and new alternating, and the best of REPEATS is kept:
- BOW games: GAMES AI-against-AI games on the village (seeds 1..GAMES) on its real 3D world, in
  one process: CPU seconds per game (the world built once, untimed). Both must play the very same
  games (same winners, rounds and records), so the figures compare the same work;
- one LOS adjudication on battlefield-5k (official library): the old `World.sight`, which judged
  cover and the range penalty itself, against the new `World.sight` (facts) followed by BOW's
  `judge_sight`: the same QUERIES pairs of minifigs, p50 of the wall time per adjudication.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from benchmarks.common import BATTLEFIELD, OFFICIAL, ROOT, have_reference, in_fresh_process, table

BASELINE = "725e298"   # the BOW-only core, before bow3d/rules became an engine with rulesets
GAMES = 20
QUERIES = 384
FIGURES = 24
REPEATS = 3

GAMES_CODE = """
import json, time
try:
    from bow3d.rulesets import load_scene
except ImportError:
    from bow3d.scene import load_scene
from bow3d.replay.session import play_game, prepare_geometry
from bow3d.world import World
scene = load_scene({scene!r})
geometry = prepare_geometry(scene, World.from_scene(scene))
cpu = time.process_time()
results = [play_game(scene, geometry, None, seed) for seed in range(1, {games} + 1)]
cpu = time.process_time() - cpu
print(json.dumps(dict(cpu=cpu / {games}, games=[[r.winner, r.rounds, r.records] for r in results])))
"""

LOS_CODE = """
import json, time
import numpy as np
from bow3d.ldraw import Library, load_model
from bow3d.world import BodySpec, World, sight_mesh, template_from_model
try:
    from bow3d.rulesets.bow import judge_sight
except ImportError:
    judge_sight = None  # the old world judged cover and range itself
library = Library([{official!r}])
model = load_model({battlefield!r}, library)
rng = np.random.default_rng(7)
fig = template_from_model("minifig", load_model({minifig!r}, library))
probe = World(sight_mesh(model), {{"minifig": fig}}, [], model.instances)
flat = np.argwhere(np.isfinite(probe.grid.heights))
cells = flat[rng.choice(len(flat), {figures}, replace=False)] + [probe.grid.i0, probe.grid.j0]
specs = [BodySpec(f"fig-{{k}}", "minifig", (float(i) + 0.5, float(j) + 0.5), float(rng.uniform(0, 360)),
                  side="blue" if k % 2 else "red") for k, (i, j) in enumerate(cells)]
world = World(sight_mesh(model), {{"minifig": fig}}, specs, model.instances)
pairs = rng.integers(0, {figures}, ({queries}, 2))
pairs = pairs[pairs[:, 0] != pairs[:, 1]]
ids = list(world.bodies)
world.sight(ids[0], ids[1])
times, covered = [], 0
for a, b in pairs:
    t0 = time.perf_counter()
    report = world.sight(ids[a], ids[b])
    verdict = judge_sight(report) if judge_sight is not None else report
    times.append(time.perf_counter() - t0)
    covered += bool(verdict.covered)
print(json.dumps(dict(p50=float(np.percentile(np.array(times) * 1000, 50)), covered=covered, n=len(pairs))))
"""


def _baseline_tree(folder: Path) -> Path | None:
    """The BASELINE code (bow3d and its starter library) unpacked in `folder`, or None without git."""
    try:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", BASELINE, "bow3d", "ldraw_library"],
                                 capture_output=True, check=True, timeout=120).stdout
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True, timeout=120)
    except (OSError, subprocess.SubprocessError):
        return None
    return folder


def _best(code: str, old: Path, key: str) -> tuple[dict, dict]:
    """(old, new) results, alternating processes, the lowest `key` of REPEATS kept for each."""
    runs: dict[str, list[dict]] = {"old": [], "new": []}
    for _ in range(REPEATS):
        runs["old"].append(in_fresh_process(code, env={"PYTHONPATH": str(old)}))
        runs["new"].append(in_fresh_process(code, env={"PYTHONPATH": str(ROOT)}))
    return min(runs["old"], key=lambda r: r[key]), min(runs["new"], key=lambda r: r[key])


def run() -> str:
    title = f"## The rulesets engine against the BOW-only core it replaced (commit {BASELINE}), same run"
    with tempfile.TemporaryDirectory(prefix="bow3d-baseline-") as temp:
        old = _baseline_tree(Path(temp))
        if old is None:
            return f"{title}\n\nskipped: git cannot give commit {BASELINE} here (a checkout without its history).\n"
        env = os.environ.pop("LDRAWDIR", None)  # the village games: the bundled starter library, both sides
        try:
            old_games, new_games = _best(GAMES_CODE.format(scene=str(ROOT / "scenes" / "village.yaml"), games=GAMES),
                                         old, "cpu")
        finally:
            if env is not None:
                os.environ["LDRAWDIR"] = env
        rows = [["BOW games, CPU per game (1 process)", f"{old_games['cpu'] * 1000:.0f} ms",
                 f"{new_games['cpu'] * 1000:.0f} ms", f"{old_games['cpu'] / new_games['cpu']:.2f}",
                 f"{1 / old_games['cpu']:.2f} -> {1 / new_games['cpu']:.2f} games/s per core"]]
        same = "yes" if old_games["games"] == new_games["games"] else "NO"
        notes = [f"Same {GAMES} games (winner, rounds, records of every seed): {same}."]
        if have_reference():
            code = LOS_CODE.format(official=str(OFFICIAL), battlefield=str(BATTLEFIELD), figures=FIGURES,
                                   queries=QUERIES, minifig=str(ROOT / "tests" / "data" / "world" / "minifig.ldr"))
            old_los, new_los = _best(code, old, "p50")
            rows.append(["one LOS adjudication on battlefield-5k, p50", f"{old_los['p50']:.3f} ms",
                         f"{new_los['p50']:.3f} ms", f"{old_los['p50'] / new_los['p50']:.2f}",
                         f"{new_los['n']} pairs; covered {old_los['covered']} (old) / {new_los['covered']} (new)"])
        else:
            notes.append("LOS adjudication skipped: battlefield-5k or the official library is missing.")
        shutil.rmtree(Path(temp) / "bow3d", ignore_errors=True)
    return "\n".join([
        title, "",
        (__doc__ or "").split("\n\n", 1)[1].strip(), "",
        table(["measure", f"old ({BASELINE})", "new (this checkout)", "old / new (>= 1: no slower)", "notes"], rows),
        "", " ".join(notes), "",
    ])
