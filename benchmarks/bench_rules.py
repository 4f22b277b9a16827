"""Games per second of `bow3d simulate` on the village scene: AI against AI on the real 3D world.

Each configuration runs in a new process: the scene is loaded and the world built once per
worker (not timed with one worker; inside the time with two), then 50 games from seeds 1..50
are played with line of sight, cover and movement answered by the world. The peer is the same
run on one worker: the ratio shows what the second core gives. Goal (issue 5): >= 5 games/s on
2 cores.
"""

from __future__ import annotations

from benchmarks.common import ROOT, in_fresh_process, table

SCENE = ROOT / "scenes" / "village.yaml"

CODE = """
import json, time
from bow3d.replay.simulate import simulate
s = simulate({scene!r}, {games}, seed=1, workers={workers})
records = sum(r.records for r in s.results)
print(json.dumps(dict(gps=s.games_per_second, seconds=s.seconds, setup=s.setup_seconds, rounds=s.average_rounds,
                      wins=s.wins, draws=s.draws, records=records)))
"""


def run(games: int = 50) -> str:
    title = f"## Rules and AI: `bow3d simulate scenes/village.yaml --games {games}`"
    if not SCENE.is_file():
        return f"{title}\n\nskipped: {SCENE.relative_to(ROOT)} is not here.\n"
    one = in_fresh_process(CODE.format(scene=str(SCENE), games=games, workers=1))
    two = in_fresh_process(CODE.format(scene=str(SCENE), games=games, workers=2))
    rows = []
    for name, r in (("1 worker (peer)", one), ("2 workers", two)):
        wins = ", ".join(f"{side} {n}" for side, n in r["wins"].items()) + f", draws {r['draws']}"
        rows.append([name, f"{r['gps']:.2f}", f"{r['gps'] / one['gps']:.2f}", f"{r['seconds']:.2f}",
                     f"{r['records'] / r['seconds']:,.0f}", f"{r['rounds']:.1f}", wins])
    goal = "met" if two["gps"] >= 5 else "NOT met"
    return "\n".join([
        title,
        "",
        f"{games} AI-against-AI games (seeds 1..{games}), line of sight on the real 3D world (embree), "
        f"each configuration in a new process. World building: {one['setup']:.2f} s per process "
        "(excluded with 1 worker, included with 2). Records = actions and brick rolls applied.",
        "",
        table(["configuration", "games/s", "ratio to peer", "seconds", "records/s", "average rounds", "results"],
              rows),
        "",
        f"Goal >= 5 games/s on 2 cores: {goal} ({two['gps']:.2f} games/s).",
        "",
    ])


if __name__ == "__main__":
    print(run())
