"""Games per second of `bow3d simulate scenes/war-of-bros.yaml`: War of Bros, AI against AI, on the real 3D
world of the bundled battlefield, beside the BOW village measured the same way in the same run (the peer).

Each configuration runs in a new process: the scene is loaded and the world built once per worker (not
timed with one worker; inside the time with two), then the games from seeds 1..N are played with the Check,
Impact and Cover Steps (line of fire, terrain higher than the unit, the cover class from the blockers'
materials) and movement answered by the world. The one-worker run also counts CPU seconds per game, which
does not depend on what else the machine runs: 2 / (CPU s per game) is what two idle cores can reach.
Goal (issue 14): >= 5 games/s on 2 cores. Every replay of the last War of Bros run is written and verified.
"""

from __future__ import annotations

import os

from benchmarks.common import ROOT, in_fresh_process, table

SCENE = ROOT / "scenes" / "war-of-bros.yaml"
PEER = ROOT / "scenes" / "village.yaml"

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
                      rounds=sum(r.rounds for r in results) / {games})))
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


def _row(name: str, r: dict, peer: dict) -> list:
    wins = ", ".join(f"{side} {n}" for side, n in r["wins"].items()) + f", draws {r['draws']}"
    return [name, f"{r['gps']:.2f}", f"{r['gps'] / peer['gps']:.2f}", f"{r['seconds']:.2f}",
            f"{r['records'] / r['seconds']:,.0f}", f"{r['rounds']:.1f}", wins]


def run(games: int = 40) -> str:
    title = f"## War of Bros: `bow3d simulate scenes/war-of-bros.yaml --games {games}`"
    if not SCENE.is_file():
        return f"{title}\n\nskipped: {SCENE.relative_to(ROOT)} is not here.\n"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    env = {k: v for k, v in os.environ.items() if k != "LDRAWDIR"}
    one = in_fresh_process(ONE.format(scene=str(SCENE), games=games), env=env)
    peer_one = in_fresh_process(ONE.format(scene=str(PEER), games=games), env=env)
    two = in_fresh_process(TWO.format(scene=str(SCENE), games=games, replays=False), env=env)
    peer_two = in_fresh_process(TWO.format(scene=str(PEER), games=games, replays=False), env=env)
    written = in_fresh_process(TWO.format(scene=str(SCENE), games=games, replays=True), env=env)
    rows = [_row("War of Bros, 1 worker", one, peer_one), _row("village (BOW, peer), 1 worker", peer_one, peer_one),
            _row("War of Bros, 2 workers", two, peer_two), _row("village (BOW, peer), 2 workers", peer_two, peer_two),
            _row("War of Bros, 2 workers, every replay written", written, peer_two)]
    idle_two = 2.0 / one["cpu"]
    measured = "met" if two["gps"] >= 5 else "NOT met"
    estimated = "met" if idle_two >= 5 else "NOT met"
    return "\n".join([
        title,
        "",
        (f"{games} AI-against-AI games (seeds 1..{games}) of the bundled War of Bros battlefield (two forces of 27 "
        "unit power, Domination, at most 30 rounds), the Check, Impact and Cover Steps on the real 3D world "
        "(embree, the bundled starter library), each configuration in a new process, beside the BOW village "
        f"(the peer) measured the same way in the same run; load average {load:.1f} when it started "
        f"({os.cpu_count()} cores). World building: {one['setup']:.2f} s per process (excluded with 1 worker, "
        "included with 2). Ratio to peer: games/s against the village's in the same configuration. "
        "Records = actions, throws and decisions applied."),
        "",
        table(["configuration", "games/s", "ratio to peer", "seconds", "records/s", "average rounds", "results"],
              rows),
        "",
        (f"CPU per game (1 worker): {one['cpu'] * 1000:.0f} ms (village {peer_one['cpu'] * 1000:.0f} ms), so two "
        f"idle cores reach about {idle_two:.1f} games/s. Replays written by the last run: {written['verified']} "
        f"of {written['replays']} verified ({written['verify']:.2f} s each, world build included)."),
        (f"Goal >= 5 games/s on 2 cores: {measured} as measured here ({two['gps']:.2f} games/s on 2 workers, "
        f"load {load:.1f}); {estimated} for two idle cores by the CPU time ({idle_two:.1f} games/s)."),
        "",
    ])


if __name__ == "__main__":
    print(run())
