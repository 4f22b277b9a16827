"""`bow3d serve` (issue 31): a line-of-sight question's round trip from the referee page, against `bow3d los`
as a process in the same run; rooms and messages a second.

One real `bow3d serve` process (benchmarks.serve_load.start_server, --ai-delay 0) offers the village, a
bow-1.3 scene written on battlefield-5k (official library; 8 riflemen on open ground, cells picked from
the battlefield's stud grid) and the rooms' scenes (War of Bros, the Western town):
- the page: the referee page of each scene is opened in headless Chromium (SwiftShader; once it has drawn
  the scene and answered its own first question), then {QUESTIONS} questions are asked from the page after
  {WARMUP} warm-up ones, each timed inside it with performance.now() around `fetch('/api/referee/NAME/los')` and its
  `response.json()`, as referee.js asks; the firer-target pairs (blue on red) in turn, the firer moved
  to an open cell at most {NEAR:g} studs from where the scene puts it and facing anywhere, the target
  turned, so that no two questions are the same. The same questions are then sent from Python (http.client, one
  keep-alive connection) to show what the browser adds, and GET /api/scenes {TRIVIAL} times (an answer
  with nothing to compute: the floor of every round trip);
- the peer: `bow3d los SCENE FIRER TARGET --json` as a whole process (import, world, answer), {PEER_RUNS}
  times a scene on the very same scene file (the pairs in turn), wall time;
- the server's own work for an answer: the same questions put to bow3d.serve.referee.Bench in this
  process (CPU time);
- rooms: {ROOMS} rooms (War of Bros and the Western town in turn, a seat played by a client against the AI,
  one round) created one after the other (POST /api/rooms; the AI already playing the rooms made
  before, --ai-delay 0), then every game driven to its end at once
  by two WebSocket clients a room (the seat and a spectator, benchmarks.serve_load.drive, in this
  process): messages received and sent, and records written, a second of that drive.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import numpy as np

from benchmarks.common import BATTLEFIELD, OFFICIAL, ROOT, have_reference, table
from benchmarks.serve_load import create_rooms, drive, free_port, start_server

QUESTIONS = 60          # timed questions a scene, from the page (and again from Python)
WARMUP = 3
PEER_RUNS = 10          # `bow3d los` processes a scene
TRIVIAL = 30            # GET /api/scenes from Python: the round trip of an answer with nothing to compute
SERVER_WORK = 10        # questions a scene answered in this process (bow3d.serve.referee.Bench), CPU time
NEAR = 6.0              # studs: how far a question moves the firer from its scene position
ROOMS = 20
SEATS = {"war-of-bros": ("blue", "red"), "western-town": ("law", "outlaws")}
SEED = 31
FIGURES_5K = 4          # riflemen a side on battlefield-5k
FIGURES = ROOT / "scenes" / "figures"
RIFLEMAN = {"kind": "minifig", "action_budget": 2, "move": 5, "attack": 1, "dodge": 1, "armor": 0, "hp": 1,
            "hp_colour": "red", "treat": 0, "treat_colour": "red",
            "weapons": [{"name": "rifle", "kind": "ranged", "damage": 2},
                        {"name": "knife", "kind": "melee", "damage": 1, "reach": 1}]}

PAGE_JS = """
const [url, bodies, done] = arguments;
(async () => {
  const times = [], statuses = [];
  for (const body of bodies) {
    const t0 = performance.now();
    const response = await fetch(url, {method: "POST", headers: {"content-type": "application/json"},
                                       body: JSON.stringify(body)});
    await response.json();
    times.push(performance.now() - t0);
    statuses.push(response.status);
  }
  done({times, statuses});
})().catch((error) => done({error: String(error)}));
"""


# --- the scenes and their questions -----------------------------------------------------------------
def _open_cells(grid, taken: list[tuple[float, float, float]]) -> np.ndarray:
    """Cell centres (studs) on the battlefield's commonest ground level, the 8 cells around at that level
    too, and clear of every scene figure (x, y, clearance in studs)."""
    heights = grid.heights
    finite = heights[np.isfinite(heights)]
    values, counts = np.unique(np.round(finite, 3), return_counts=True)
    ground = values[np.argmax(counts)]
    level = np.isfinite(heights) & (np.abs(heights - ground) < 1e-3)
    inner = level.copy()
    inner[0, :] = inner[-1, :] = inner[:, 0] = inner[:, -1] = False
    for di in (-1, 0, 1):
        for dj in (-1, 0, 1):
            inner[1:-1, 1:-1] &= level[1 + di:level.shape[0] - 1 + di, 1 + dj:level.shape[1] - 1 + dj]
    cells = np.argwhere(inner) + [grid.i0, grid.j0] + 0.5
    for x, y, clear in taken:
        cells = cells[np.hypot(cells[:, 0] - x, cells[:, 1] - y) > clear]
    return cells


def _battlefield_scene(folder: Path, library) -> Path:
    """A bow-1.3 scene on battlefield-5k: FIGURES_5K riflemen a side on open ground, blue west, red east."""
    import yaml

    from bow3d.ldraw import load_model
    from bow3d.world import World, sight_mesh

    shutil.copy(BATTLEFIELD, folder / "battlefield-5k.ldr")   # a scene's files stay in its folder
    (folder / "figures").mkdir(exist_ok=True)
    for side in ("blue", "red"):
        shutil.copy(FIGURES / f"{side}-rifleman.ldr", folder / "figures")
    model = load_model(BATTLEFIELD, library)
    cells = _open_cells(World(sight_mesh(model), {}, [], model.instances).grid, [])
    rng = np.random.default_rng(SEED)
    units = []
    for side, xs, facing in (("blue", (-40, -8), 0), ("red", (8, 40), 180)):
        near = cells[(cells[:, 0] > xs[0]) & (cells[:, 0] < xs[1]) & (np.abs(cells[:, 1]) < 30)]
        for k, (x, y) in enumerate(near[rng.choice(len(near), FIGURES_5K, replace=False)]):
            units.append({"id": f"{side}-rifle-{k + 1}", "side": side, "sheet": "rifleman",
                          "model": f"figures/{side}-rifleman.ldr", "position": [float(x), float(y)],
                          "facing": facing})
    scene = {"format": "bow3d-scene/1", "name": "Battlefield 5k (benchmark)", "battlefield": "battlefield-5k.ldr",
             "ruleset": {"name": "bow-1.3", "brick_edge_probability": 0.262, "cover_threshold": 0.25,
                         "range_band_studs": 15, "treat_removes_difference": False, "visibility_dispute": False},
             "sides": [{"id": "blue", "name": "Blue army", "colour": 1},
                       {"id": "red", "name": "Red army", "colour": 4}],
             "sheets": {"rifleman": RIFLEMAN}, "units": units}
    path = folder / "battlefield-5k.yaml"
    path.write_text("# battlefield-5k with 8 riflemen on open ground: written by benchmarks/bench_serve.py\n"
                    + yaml.safe_dump(scene, sort_keys=False, default_flow_style=None, width=110), encoding="utf-8")
    return path


def _questions(bench, count: int, seed: int) -> tuple[list[dict], list[tuple[str, str]]]:
    """`count` question bodies (firer moved near its place, target turned) and the pairs for the peer, on
    a referee Bench's scene (bow3d.serve.referee; its world's stud grid)."""
    scene = bench.entry.scene
    with bench.lock:
        grid = bench.world().grid
    standing = [(*u.position, 1.5) for u in scene.units if u.position is not None]
    standing += [(*v.position, 5.0) for v in scene.vehicles]
    cells = _open_cells(grid, standing)
    sides = [s.id for s in scene.sides]
    units = {side: [u for u in scene.units if u.side == side and u.position is not None] for side in sides}
    pairs = [(f.id, t.id) for f in units[sides[0]] for t in units[sides[1]]]
    rng = np.random.default_rng(seed)
    rng.shuffle(pairs)
    by_id = {u.id: u for u in scene.units}
    bodies = []
    for k in range(count):
        firer, target = pairs[k % len(pairs)]
        fx, fy = by_id[firer].position
        near = cells[np.hypot(cells[:, 0] - fx, cells[:, 1] - fy) <= NEAR]
        x, y = near[rng.integers(len(near))] if len(near) else (fx, fy)
        turn = float(rng.integers(0, 360))
        bodies.append({"firer": firer, "target": target, "lang": "en",
                       "placements": {firer: [float(x), float(y), float(rng.integers(0, 360))],
                                      target: [*map(float, by_id[target].position), turn]}})
    return bodies, pairs


def _server_work(bench, bodies: list[dict]) -> tuple[float, float]:
    """The server's own work for an answer, in this process: CPU ms of Bench.answer, median over SERVER_WORK
    questions, and of the part of it that writes and re-reads the scene (Bench.scene_text)."""
    from bow3d.serve.referee import Question

    bench.answer(Question.model_validate(bodies[0]), "en")
    answers, texts = [], []
    for body in bodies[WARMUP:WARMUP + SERVER_WORK]:
        question = Question.model_validate(body)
        c0 = time.process_time()
        bench.answer(question, "en")
        c1 = time.process_time()
        with bench.lock:
            bench.scene_text(bench.check(question.placements))
        answers.append((c1 - c0) * 1000)
        texts.append((time.process_time() - c1) * 1000)
    return statistics.median(answers), statistics.median(texts)


# --- the measures -----------------------------------------------------------------------------------
def _from_page(base: str, scenes: dict[str, list[dict]]) -> tuple[dict, str]:
    """Per scene: (times ms, statuses, page note); the reason when Chromium cannot be used ('' otherwise)."""
    try:
        import pytest
        from selenium.common.exceptions import SessionNotCreatedException

        from tests.view.browser import chromium, wait_for
    except ImportError as error:
        return {}, f"no page measure ({error})"
    out = {}
    try:
        with chromium(size=(390, 844)) as driver:
            driver.set_script_timeout(600)
            for name, bodies in scenes.items():
                started = time.perf_counter()
                driver.get(f"{base}/referee/{name}")
                state = wait_for(driver, "return bow3dReferee.ready || bow3dReferee.error", 180)
                note = (f"page ready in {time.perf_counter() - started:.1f} s" if state is True
                        else f"page's 3D view did not start ({state}); fetch timed from the page all the same")
                result = driver.execute_async_script(PAGE_JS, f"/api/referee/{name}/los", bodies)
                if "error" in result:
                    raise RuntimeError(f"the page's fetch failed: {result['error']}")
                out[name] = (result["times"][WARMUP:], result["statuses"], note)
    except pytest.skip.Exception as skipped:
        return {}, f"no page measure: {skipped.msg}"
    except SessionNotCreatedException as error:   # a Chromium its driver cannot start
        return {}, f"no page measure: Chromium did not start ({error.msg})"
    return out, ""


def _from_python(port: int, scenes: dict[str, list[dict]]) -> dict:
    """The same POSTs from Python: one keep-alive http.client connection, wall ms each."""
    out = {}
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        times = []
        for _ in range(WARMUP + TRIVIAL):   # the floor of any answer: the scenes' list, nothing to compute
            t0 = time.perf_counter()
            connection.request("GET", "/api/scenes")
            connection.getresponse().read()
            times.append((time.perf_counter() - t0) * 1000)
        out["GET /api/scenes"] = (times[WARMUP:], [])
        for name, bodies in scenes.items():
            times, statuses = [], []
            for body in bodies:
                data = json.dumps(body).encode()
                t0 = time.perf_counter()
                connection.request("POST", f"/api/referee/{name}/los", body=data,
                                   headers={"content-type": "application/json"})
                answer = connection.getresponse()
                json.loads(answer.read())
                times.append((time.perf_counter() - t0) * 1000)
                statuses.append(answer.status)
            out[name] = (times[WARMUP:], statuses)
    finally:
        connection.close()
    return out


def _peer(path: Path, pairs: list[tuple[str, str]]) -> list[float]:
    """`bow3d los` as a process: wall ms of each of PEER_RUNS runs."""
    times = []
    for k in range(PEER_RUNS):
        firer, target = pairs[k % len(pairs)]
        t0 = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "bow3d", "los", str(path), firer, target, "--json"],
                              capture_output=True, text=True, timeout=300, cwd=ROOT)
        times.append((time.perf_counter() - t0) * 1000)
        if done.returncode != 0:
            raise RuntimeError(f"bow3d los {path.name} {firer} {target} failed:\n{done.stderr[-1500:]}")
        json.loads(done.stdout)
    return times


def _rooms(url: str) -> dict:
    started = time.perf_counter()
    rooms = create_rooms(url, ROOMS, SEATS, max_rounds=1, seed=SEED)
    created = time.perf_counter() - started
    load = os.getloadavg()[0]
    traffic = drive(url, rooms)
    records = 0
    for room in rooms:
        with urllib.request.urlopen(f"{url}/api/rooms/{room.id}", timeout=60) as answer:
            records += json.loads(answer.read())["records"]
    return {"created": created, "traffic": traffic, "records": records, "over": sum(r.over for r in rooms),
            "acts": sum(r.acts for r in rooms), "load": load, "load_after": os.getloadavg()[0]}


def _pcts(values: list[float]) -> tuple[float, float]:
    p50, p99 = np.percentile(np.array(values), [50, 99])
    return float(p50), float(p99)


def _check(path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "bow3d", "scene", "check", str(path)], capture_output=True,
                          text=True, timeout=300, cwd=ROOT)
    if done.returncode != 0:
        raise RuntimeError(f"bow3d scene check {path} refused the benchmark's scene:\n{done.stdout}{done.stderr}")


def run() -> str:
    title = "## `bow3d serve` (issue 31): a line of sight from the referee page, rooms and messages a second"
    if not have_reference():
        return f"{title}\n\nSkipped: battlefield-5k or the official library (LDRAWDIR) is missing.\n"
    from bow3d.ldraw import Library
    from bow3d.serve.catalogue import Catalogue
    from bow3d.serve.referee import Bench

    os.environ["LDRAWDIR"] = str(OFFICIAL)   # the server, `bow3d los` and this process: the official library
    library = Library([OFFICIAL])
    clock = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bow3d-bench-serve-") as temp:
        folder = Path(temp)
        scenes = {"village": ROOT / "scenes" / "village.yaml", "battlefield-5k": _battlefield_scene(folder, library)}
        _check(scenes["battlefield-5k"])
        catalogue = Catalogue(list(scenes.values()), library)
        questions, pairs, work = {}, {}, {}
        for k, name in enumerate(scenes):
            bench = Bench(catalogue.get(name))
            questions[name], pairs[name] = _questions(bench, WARMUP + QUESTIONS, SEED + k)
            work[name] = _server_work(bench, questions[name])
        del catalogue, bench
        port = free_port()
        served = [*scenes.values(), *(ROOT / "scenes" / f"{name}.yaml" for name in SEATS)]
        load_before = os.getloadavg()[0]
        server = start_server(folder / "bow3d.sqlite", served, port, ai_delay=0.0)
        base = f"http://127.0.0.1:{port}"
        try:
            page, no_page = _from_page(base, questions)
            python = _from_python(port, questions)
            peer = {name: _peer(path, pairs[name]) for name, path in scenes.items()}
            rooms = _rooms(base)
        finally:
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
    seconds = time.perf_counter() - clock

    rows, notes = [], []
    for name in scenes:
        peer_p50, peer_p99 = statistics.median(peer[name]), float(np.percentile(peer[name], 99))
        refused = [s for s in python[name][1] if s != 200]
        if page:
            p50, p99 = _pcts(page[name][0])
            refused += [s for s in page[name][1] if s != 200]
            rows.append([name, "the page (Chromium, fetch + json)", f"{p50:.1f}", f"{p99:.1f}", QUESTIONS,
                         f"{peer_p50 / p50:.1f}", page[name][2]])
        py50, py99 = _pcts(python[name][0])
        rows.append([name, "Python http.client, keep-alive", f"{py50:.1f}", f"{py99:.1f}", QUESTIONS,
                     f"{peer_p50 / py50:.1f}", "the same questions, after the page's"])
        rows.append([name, "peer: `bow3d los SCENE FIRER TARGET --json`, a process", f"{peer_p50:.0f}",
                     f"{peer_p99:.0f}", PEER_RUNS, "1.0", "import, world built, one answer"])
        notes.append(f"{name}: the server's work for an answer, {work[name][0]:.1f} ms CPU (median of "
                     f"{SERVER_WORK}, Bench.answer in this process), of which {work[name][1]:.1f} ms write and "
                     "re-read the scene with the placements (Bench.scene_text).")
        if refused:
            notes.append(f"{name}: {len(refused)} questions not answered 200 ({sorted(set(refused))}).")
    g50, g99 = _pcts(python["GET /api/scenes"][0])
    rows.append(["(none)", "Python http.client: GET /api/scenes", f"{g50:.1f}", f"{g99:.1f}", TRIVIAL, "",
                 "an answer with nothing to compute: the floor of every round trip above"])
    if no_page:
        notes.append(f"The page could not be used here ({no_page}): only the Python client's figures are "
                     "given (the same POSTs without the browser).")
    traffic, drive_s = rooms["traffic"], rooms["traffic"].seconds
    room_rows = [
        ["rooms created (POST /api/rooms, one after the other)", f"{ROOMS / rooms['created']:.1f} rooms/s",
         f"{ROOMS} rooms in {rooms['created']:.2f} s"],
        ["WebSocket messages received by the clients", f"{traffic.received / drive_s:.0f} /s",
         f"{traffic.received:,} in {drive_s:.1f} s, {ROOMS * 2} clients at once"],
        ["WebSocket messages sent by the clients", f"{traffic.sent / drive_s:.1f} /s",
         f"{traffic.sent:,} (hellos and the seats' {rooms['acts']} acts)"],
        ["records written (the rooms' replays)", f"{rooms['records'] / drive_s:.1f} /s",
         f"{rooms['records']:,} records; {rooms['over']} of {ROOMS} games over; "
         f"{len(traffic.errors)} error frames"],
    ]
    return "\n".join([
        title, "",
        (__doc__ or "").split("\n\n", 1)[1].strip().format(QUESTIONS=QUESTIONS, WARMUP=WARMUP, NEAR=NEAR,
                                                             TRIVIAL=TRIVIAL, PEER_RUNS=PEER_RUNS, ROOMS=ROOMS), "",
        f"Machine: {os.cpu_count()} cores, shared by the server, Chromium, the clients and the peer's processes; "
        f"load average {load_before:.1f} at the start, {rooms['load']:.1f} before the rooms' drive and "
        f"{rooms['load_after']:.1f} after it. Whole benchmark: {seconds:.0f} s. p99 of {QUESTIONS} questions lies "
        f"between the two slowest; of the peer's {PEER_RUNS} runs, near the slowest.", "",
        table(["scene", "asked by", "p50 ms", "p99 ms", "n", "peer p50 / p50 (times faster than the peer)", "notes"], rows), "",
        " ".join(notes), "",
        table(["rooms (one server process, " + ", ".join(SEATS) + ")", "rate", "notes"], room_rows), "",
    ])


if __name__ == "__main__":
    print(run())
