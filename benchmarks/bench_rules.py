"""Games per second of `bow3d simulate` on the village scene: AI against AI on the real 3D world.

Each configuration runs in a new process: the scene is loaded and the world built once per
worker (not timed with one worker; inside the time with two), then 50 games from seeds 1..50
are played with line of sight, cover and movement answered by the world. The peer is the same
run on one worker: the ratio shows what the second core gives. The one-worker run also counts
CPU seconds per game, which does not depend on what else the machine runs: 2 / (CPU s per game)
is what two idle cores can reach. Goal (issue 5): >= 5 games/s on 2 cores.
"""

from __future__ import annotations

import os

from benchmarks.common import ROOT, in_fresh_process, table

SCENE = ROOT / "scenes" / "village.yaml"

ONE = """
import json, time
from bow3d.replay.session import play_game, prepare_geometry
from bow3d.rulesets import load_scene
from bow3d.world import World
t0 = time.perf_counter()
scene = load_scene({scene!r})
geometry = prepare_geometry(scene, World.from_scene(scene))
setup = time.perf_counter() - t0
wall, cpu = time.perf_counter(), time.process_time()
results = [play_game(scene, geometry, None, seed) for seed in range(1, {games} + 1)]
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
wins = {{side.id: sum(r.winner == side.id for r in results) for side in scene.sides}}
print(json.dumps(dict(gps={games} / wall, seconds=wall, cpu=cpu / {games}, setup=setup, wins=wins,
                      draws=sum(r.winner is None for r in results), records=sum(r.records for r in results),
                      rounds=sum(r.rounds for r in results) / {games}, hits=geometry.hits, misses=geometry.misses)))
"""

TWO = """
import json
from bow3d.replay.simulate import simulate
s = simulate({scene!r}, {games}, seed=1, workers=2)
print(json.dumps(dict(gps=s.games_per_second, seconds=s.seconds, rounds=s.average_rounds, wins=s.wins,
                      draws=s.draws, records=sum(r.records for r in s.results))))
"""


def run(games: int = 50) -> str:
    title = f"## Rules and AI: `bow3d simulate scenes/village.yaml --games {games}`"
    if not SCENE.is_file():
        return f"{title}\n\nskipped: {SCENE.relative_to(ROOT)} is not here.\n"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    one = in_fresh_process(ONE.format(scene=str(SCENE), games=games))
    two = in_fresh_process(TWO.format(scene=str(SCENE), games=games))
    rows = []
    for name, r in (("1 worker (peer)", one), ("2 workers", two)):
        wins = ", ".join(f"{side} {n}" for side, n in r["wins"].items()) + f", draws {r['draws']}"
        rows.append([name, f"{r['gps']:.2f}", f"{r['gps'] / one['gps']:.2f}", f"{r['seconds']:.2f}",
                     f"{r['records'] / r['seconds']:,.0f}", f"{r['rounds']:.1f}", wins])
    idle_two = 2.0 / one["cpu"]
    measured = "met" if two["gps"] >= 5 else "NOT met"
    estimated = "met" if idle_two >= 5 else "NOT met"
    memo = one["hits"] / max(1, one["hits"] + one["misses"])
    return "\n".join([
        title,
        "",
        f"{games} AI-against-AI games (seeds 1..{games}), line of sight on the real 3D world (embree), "
        f"each configuration in a new process; the machine's load average was {load:.1f} when it started "
        f"({os.cpu_count()} cores). World building: {one['setup']:.2f} s per process (excluded with 1 worker, "
        "included with 2). Records = actions and brick rolls applied.",
        "",
        table(["configuration", "games/s", "ratio to peer", "seconds", "records/s", "average rounds", "results"],
              rows),
        "",
        f"CPU per game (1 worker): {one['cpu'] * 1000:.0f} ms, so two idle cores reach about {idle_two:.1f} games/s. "
        f"Geometry memo: {memo:.0%} of the questions answered from it.",
        f"Goal >= 5 games/s on 2 cores: {measured} as measured here ({two['gps']:.2f} games/s on 2 workers, "
        f"load {load:.1f}); {estimated} for two idle cores by the CPU time ({idle_two:.1f} games/s).",
        "",
    ])


if __name__ == "__main__":
    print(run())
