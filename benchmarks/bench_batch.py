"""Games per second of the batch executor: one process, the local pool and Ray, same run; and the
games per second projected on N machines from the measured cost of a game and Ray's overhead.

Each configuration runs `simulate` on the village (AI against AI on the real 3D world, seeds
1..N) in a new process, world building and (for Ray) starting the local instance included, since a
user waits for them too. The peer is one process: the ratios show what the pool and Ray give on
this machine's cores. All three must give the same games (checked).

Ray's overhead is measured apart: a job whose items do nothing, pushed through the same executor
on Ray, gives the cost of one item's round trip (the driver hands it out, an actor runs it, the
result comes back in order). The projection for N machines of C cores is then
    games/s = min(N * C / (cpu_per_game + round_trip), 1 / driver_cost)
with cpu_per_game the CPU seconds of one game (measured in the one-process run: it does not
depend on the machine's load) and driver_cost the share of the round trip spent in the driver
(taken as the whole round trip: a bound), plus, once per run, Ray's start and each worker's world.
"""

from __future__ import annotations

import os

from benchmarks.common import ROOT, in_fresh_process, table

SCENE = ROOT / "scenes" / "village.yaml"

PLAY = """
import json, time
from bow3d.replay.simulate import simulate
wall, cpu = time.perf_counter(), time.process_time()
s = simulate({scene!r}, {games}, seed=1, workers={workers}, engine={engine!r}, keep_results=True)
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
world = 0.0
if {workers} == 1:
    from bow3d.replay.simulate import GameJob, library_choice
    t = time.process_time()
    GameJob.of({scene!r}, library=library_choice()).open()
    world = time.process_time() - t
print(json.dumps(dict(gps=s.games / wall, seconds=wall, cpu=cpu - world, world=world, workers=s.workers,
                      wins=s.wins, draws=s.draws, results=[[r.seed, r.winner, r.rounds, r.records] for r in s.results])))
"""

OVERHEAD = """
import json, time
from dataclasses import dataclass
from bow3d.batch import Job, open_executor

@dataclass(frozen=True)
class Nothing(Job):
    def open(self):
        return self
    def run(self, item):
        return item

t0 = time.perf_counter()
with open_executor("ray", 2) as executor:
    started = time.perf_counter() - t0
    list(executor.map(Nothing(), range(50), progress=False))  # actors up
    t1 = time.perf_counter()
    list(executor.map(Nothing(), range({items}), progress=False))
    trip = (time.perf_counter() - t1) / {items}
print(json.dumps(dict(start=started, trip=trip)))
"""


def _have_ray() -> bool:
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def projection_rows(cpu_per_game: float, world_s: float, trip_s: float, start_s: float,
                    cores_per_machine: int = 16, games: int = 100_000) -> list[list[str]]:
    rows = []
    for machines in (1, 4, 16, 64, 256):
        cores = machines * cores_per_machine
        rate = min(cores / (cpu_per_game + trip_s), 1.0 / trip_s)
        total = start_s + world_s + games / rate
        rows.append([str(machines), str(cores), f"{rate:,.0f}", f"{total / 60:,.1f}"])
    return rows


def run(games: int = 40) -> str:
    title = f"## Batch executor: one process, the local pool and Ray (`simulate scenes/village.yaml --games {games}`)"
    if not SCENE.is_file():
        return f"{title}\n\nskipped: {SCENE.relative_to(ROOT)} is not here.\n"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    configs = [("1 process (peer)", "local", 1), ("local pool", "local", 2)]
    if _have_ray():
        configs.append(("Ray, local instance", "ray", 2))
    measured = {name: in_fresh_process(PLAY.format(scene=str(SCENE), games=games, workers=workers, engine=engine))
                for name, engine, workers in configs}
    peer = measured["1 process (peer)"]
    same = all(m["results"] == peer["results"] for m in measured.values())
    rows = []
    for name, data in measured.items():
        wins = ", ".join(f"{side} {n}" for side, n in data["wins"].items()) + f", draws {data['draws']}"
        rows.append([name, str(data["workers"]), f"{data['gps']:.2f}", f"{data['gps'] / peer['gps']:.2f}",
                     f"{data['seconds']:.1f}", wins])
    cpu_per_game = peer["cpu"] / games  # the world built once is taken out (measured apart)
    lines = [
        title, "",
        f"{games} AI-against-AI games (seeds 1..{games}) per configuration, each in a new process; world building "
        f"and Ray's start are inside the time. Load average at the start: {load:.1f} on {os.cpu_count()} cores "
        "(the machine is shared: compare the ratios, measured in the same run).", "",
        table(["configuration", "workers", "games/s", "ratio to 1 process", "seconds", "results"], rows), "",
        f"Same games on every configuration: {'yes' if same else 'NO'} (seed, winner, rounds and records of each).",
        f"CPU per game (1 process): {cpu_per_game * 1000:.0f} ms; building the world: {peer['world']:.1f} s of CPU "
        "per worker.", ""]
    if not _have_ray():
        return "\n".join(lines + ["Ray is not installed here (pip install 'bow3d[ray]'): no Ray figures.", ""])
    over = in_fresh_process(OVERHEAD.format(items=2000))
    world_s = peer["world"]
    lines += [
        f"Ray overhead: a local instance starts in {over['start']:.1f} s; one item's round trip through the executor "
        f"(driver -> actor -> driver, in order) costs {over['trip'] * 1000:.2f} ms.", "",
        "Projected games/s on N machines of 16 cores (cpu per game + round trip per game on every core, capped "
        "by the driver handing out one item per round trip; 100,000 games, Ray's start and one world per worker "
        "added once):", "",
        table(["machines", "cores", "games/s", "minutes for 100,000 games"],
              projection_rows(cpu_per_game, world_s, over["trip"], over["start"])), ""]
    return "\n".join(lines)
