"""Issue 21, "an opponent worth playing": the named opponents against each other on the village.

`bow3d arena scenes/village.yaml` for two pairings, both seatings, the same seeds: ai against the
greedy baseline (goal: ai scores >= 70 %) and strong against ai (goal: strong >= 60 %), with 95 %
Wilson intervals; the mishaps of piloted vehicles (friends run over, crashes) counted from every
game's records; and strong's seconds per decision (goal < 1 s on 2 cores), wall clock and CPU,
measured on games of its own (strong against ai, seeds 1..TIMED), with the machine's load noted,
since two cores shared with other work stretch the wall clock and not the CPU time.
"""

from __future__ import annotations

import os

from benchmarks.common import ROOT, in_fresh_process, table

SCENE = ROOT / "scenes" / "village.yaml"
GOALS = {("ai", "greedy"): 0.70, ("strong", "ai"): 0.60}

ARENA = """
import json
from bow3d.replay.arena import play_arena
r = play_arena({scene!r}, {players!r}, {games}, 1, workers={workers})
print(json.dumps(r.as_dict()))
"""

TIMED = """
import json, time
from bow3d.replay.session import Session, ai_players, prepare_geometry
from bow3d.replay.simulate import default_geometry
from bow3d.rulesets import load_scene
scene = load_scene({scene!r})
geometry = prepare_geometry(scene, default_geometry(scene))
walls, cpus = [], []
for seed in range(1, {games} + 1):
    players = ai_players(scene, seed, names={{"blue": "strong", "red": "ai"}})
    session = Session.start(scene, geometry, seed=seed, players=players)
    while not session.game.is_over and session.applied < 20000:
        game = session.game
        if game.pending is None and game.side_to_play == "blue":
            wall, cpu = time.perf_counter(), time.process_time()
            action = players["blue"].choose(game)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
            session.apply(action)
        else:
            session.step()
walls.sort(); cpus.sort()
print(json.dumps(dict(n=len(walls), wall_mean=sum(walls) / len(walls), wall_max=walls[-1],
                      wall_p95=walls[int(0.95 * (len(walls) - 1))], cpu_mean=sum(cpus) / len(cpus), cpu_max=cpus[-1])))
"""


def run(games: int = 200, timed: int = 5, workers: int = 2) -> str:
    title = f"## Opponents (issue 21): `bow3d arena scenes/village.yaml`, {games} games per pairing, both seatings"
    if not SCENE.is_file():
        return f"{title}\n\nskipped: {SCENE.relative_to(ROOT)} is not here.\n"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    rows, mishaps, notes = [], {}, []
    for first, second in GOALS:
        out = in_fresh_process(ARENA.format(scene=str(SCENE), players=[first, second], games=games,
                                            workers=workers), timeout=36_000)
        pairing = out["pairings"][0]
        score = pairing["score_a"] if pairing["a"] == first else pairing["games"] - pairing["score_a"]
        low, high = pairing["interval_a"] if pairing["a"] == first else [1 - x for x in pairing["interval_a"][::-1]]
        rate = score / pairing["games"]
        goal = GOALS[(first, second)]
        seats = "; ".join(f"{s['first']} as blue {s['first_wins']}-{s['second_wins']}-{s['draws']}"
                          for s in pairing["seatings"])
        rows.append([f"{first} v {second}", pairing["games"], f"{rate:.1%}", f"{low:.1%}..{high:.1%}",
                     f">= {goal:.0%}: {'met' if rate >= goal else 'NOT met'}", seats])
        for player, counts in out["mishaps"].items():
            for kind, n in counts.items():
                mishaps.setdefault(player, {}).setdefault(kind, 0)
                mishaps[player][kind] += n
        notes.append(f"{first} v {second}: {out['seconds']:.0f} s on {out['workers']} workers")
    timing = in_fresh_process(TIMED.format(scene=str(SCENE), games=timed), timeout=36_000)
    lines = [title, "",
             f"Scores are wins plus half the draws of the first named, over both seatings on the same seeds "
             f"(1..{games // 2}); intervals 95 % Wilson. Load average {load:.1f} on {os.cpu_count()} cores when it "
             f"started ({'; '.join(notes)}).", "",
             table(["pairing", "games", "score", "95 % interval", "goal", "seatings (w-l-d)"], rows), "",
             "Mishaps of piloted vehicles in those games (counted from every game's records): " + "; ".join(
                 f"{p}: {m.get('friendly_run_over', 0)} friends run over, {m.get('crash', 0)} crashes"
                 for p, m in sorted(mishaps.items())) + ".", "",
             f"strong's decisions ({timing['n']} in {timed} games against ai): wall {timing['wall_mean']:.3f} s "
             f"mean, {timing['wall_p95']:.3f} s 95th percentile, {timing['wall_max']:.3f} s at most; CPU "
             f"{timing['cpu_mean']:.3f} s mean, {timing['cpu_max']:.3f} s at most. Goal < 1 s per action: "
             f"{'met' if timing['wall_max'] < 1.0 else 'NOT met'} (by the longest decision, wall clock).", ""]
    return "\n".join(lines)
