"""Games per second of `bow3d simulate scenes/western-town.yaml`: Blaze of Glory, AI against AI, on the
real 3D world of the bundled Western town.

Each configuration runs in a new process: the scene is loaded and the world built once per worker (not
timed with one worker; inside the time with two), then the games from seeds 1..N are played with line
of sight, cover, stories and movement answered by the world. The peer is the same run on one worker.
The one-worker run also counts CPU seconds per game, which does not depend on what else the machine
runs: 2 / (CPU s per game) is what two idle cores can reach. Goal (issue 15): >= 5 games/s on 2 cores.
Every replay of the two-worker run is written and verified (a sample is timed apart).
"""

from __future__ import annotations

import os

from benchmarks.common import ROOT, in_fresh_process, table

SCENE = ROOT / "scenes" / "western-town.yaml"

ONE = """
import json, time
from bow3d.ldraw import BUNDLED_LIBRARY, Library
from bow3d.replay.session import play_game, prepare_geometry
from bow3d.rulesets import load_scene
from bow3d.world import World
t0 = time.perf_counter()
scene = load_scene({scene!r})
geometry = prepare_geometry(scene, World.from_scene(scene, Library([BUNDLED_LIBRARY])))
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
import json, os, tempfile, time
os.environ.pop("LDRAWDIR", None)
from bow3d.replay.simulate import simulate
from bow3d.replay.verify import verify_replay
folder = tempfile.mkdtemp() if {replays} else None
s = simulate({scene!r}, {games}, seed=1, workers=2, replays_dir=folder)
t = time.perf_counter()
checked = [verify_replay(path) for path in s.replays]
verify = (time.perf_counter() - t) / max(1, len(checked))
print(json.dumps(dict(gps=s.games_per_second, seconds=s.seconds, rounds=s.average_rounds, wins=s.wins,
                      draws=s.draws, records=sum(r.records for r in s.results),
                      verified=sum(1 for c in checked if c.ok), replays=len(checked), verify=verify)))
"""


def run(games: int = 40) -> str:
    title = f"## Blaze of Glory: `bow3d simulate scenes/western-town.yaml --games {games}`"
    if not SCENE.is_file():
        return f"{title}\n\nskipped: {SCENE.relative_to(ROOT)} is not here.\n"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    env = {k: v for k, v in os.environ.items() if k != "LDRAWDIR"}
    one = in_fresh_process(ONE.format(scene=str(SCENE), games=games), env=env)
    two = in_fresh_process(TWO.format(scene=str(SCENE), games=games, replays=False), env=env)
    written = in_fresh_process(TWO.format(scene=str(SCENE), games=games, replays=True), env=env)
    rows = []
    for name, r in (("1 worker (peer)", one), ("2 workers", two), ("2 workers, every replay written", written)):
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
        f"{games} AI-against-AI games (seeds 1..{games}) of the bundled Western town (Blaze of Glory: cards, "
        "d6 tests, nerve, hero points), line of sight, cover and stories on the real 3D world (embree, the "
        f"bundled starter library), each configuration in a new process; load average {load:.1f} when it "
        f"started ({os.cpu_count()} cores). World building: {one['setup']:.2f} s per process (excluded with "
        "1 worker, included with 2). Records = actions, throws and decisions applied.",
        "",
        table(["configuration", "games/s", "ratio to peer", "seconds", "records/s", "average rounds", "results"],
              rows),
        "",
        f"CPU per game (1 worker): {one['cpu'] * 1000:.0f} ms, so two idle cores reach about {idle_two:.1f} games/s. "
        f"Geometry memo: {memo:.0%} of the questions answered from it. Replays written by the last run: "
        f"{written['verified']} of {written['replays']} verified ({written['verify']:.2f} s each, world build "
        "included).",
        f"Goal >= 5 games/s on 2 cores: {measured} as measured here ({two['gps']:.2f} games/s on 2 workers, "
        f"load {load:.1f}); {estimated} for two idle cores by the CPU time ({idle_two:.1f} games/s).",
        "",
    ])


if __name__ == "__main__":
    print(run())
