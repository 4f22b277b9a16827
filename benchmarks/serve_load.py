"""Load on a real `bow3d serve` process: many rooms, two WebSocket clients each (the seat, playing against
the AI, and a spectator), all at once. Used by the load test (tests/serve/test_load.py: kill -9 and a
restart in the middle) and by the server's benchmark (benchmarks/bench_serve.py: rooms and messages a second).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

END_KINDS = ("end_turn", "end_step", "end_activation")


@dataclass
class Room:
    id: str
    scene: str
    seat: str                 # the side the seat's client plays (the other is the AI's)
    tokens: dict[str, str]
    seen: int = 0             # the most records any of its clients was told of
    over: bool = False
    acts: int = 0


@dataclass
class Traffic:
    sent: int = 0
    received: int = 0
    errors: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(db: Path, scenes: list[Path], port: int, *, ai_delay: float = 0.0, timeout: float = 120.0
                 ) -> subprocess.Popen:
    """`bow3d serve` as a process of its own (its output in db's folder), once its front page answers."""
    log = open(db.parent / f"serve-{port}-{time.time_ns()}.log", "wb")  # noqa: SIM115 (the process writes it)
    process = subprocess.Popen([sys.executable, "-m", "bow3d", "serve", *map(str, scenes), "--port", str(port),
                                "--db", str(db), "--ai-delay", str(ai_delay)], stdout=log, stderr=subprocess.STDOUT,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"bow3d serve stopped (code {process.returncode}); see {log.name}")
        with contextlib.suppress(OSError), urllib.request.urlopen(f"http://127.0.0.1:{port}/api/scenes", timeout=5):
            return process
        time.sleep(0.1)
    process.kill()
    raise RuntimeError("bow3d serve did not answer")


def kill_9(process: subprocess.Popen) -> None:
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=30)


def create_rooms(url: str, count: int, scenes: dict[str, tuple[str, str]], max_rounds: int, seed: int = 1
                 ) -> list[Room]:
    """`count` rooms, the scenes in turn (name -> (the seat's side, the AI's side))."""
    rooms = []
    names = list(scenes)
    for k in range(count):
        name = names[k % len(names)]
        seat, ai = scenes[name]
        body = json.dumps({"scene": name, "seats": {seat: "human", ai: "ai"}, "seed": seed + k,
                           "max_rounds": max_rounds}).encode()
        request = urllib.request.Request(f"{url}/api/rooms", data=body, headers={"content-type": "application/json"})
        with urllib.request.urlopen(request, timeout=120) as answer:
            created = json.loads(answer.read())
        tokens = {role: link.split("#", 1)[1] for role, link in created["links"].items()}
        rooms.append(Room(created["room"], name, seat, tokens))
    return rooms


def pick(choices: list[dict[str, Any]], turn: int) -> dict[str, Any]:
    ends = [c for c in choices if c["kind"] in END_KINDS]
    return ends[0] if ends and turn % 3 else choices[(turn * 7) % len(choices)]


async def _client(ws_url: str, room: Room, role: str, traffic: Traffic, stop: asyncio.Event) -> None:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    try:
        async with connect(f"{ws_url}/ws/{room.id}", max_size=None, open_timeout=120) as socket_:
            await socket_.send(json.dumps({"type": "hello", "token": room.tokens[role]}))
            traffic.sent += 1
            acted_at = -1
            while not stop.is_set():
                try:
                    raw = await asyncio.wait_for(socket_.recv(), timeout=0.5)
                except TimeoutError:
                    continue
                traffic.received += 1
                frame = json.loads(raw)
                if frame["type"] == "error":
                    traffic.errors.append(frame)
                    continue
                if frame["type"] != "state":
                    continue
                room.seen = max(room.seen, frame["records"])
                if frame["result"]:
                    room.over = True
                    return
                awaiting = frame["awaiting"]
                if role == room.seat and awaiting["mine"] and acted_at != frame["records"]:
                    choice = pick(awaiting["choices"], room.acts)
                    await socket_.send(json.dumps({"type": "act", "index": choice["index"],
                                                   "records": frame["records"]}))
                    traffic.sent += 1
                    room.acts += 1
                    acted_at = frame["records"]
    except (ConnectionClosed, OSError):
        return  # the server went away (killed): the test looks at what was written


async def _drive(ws_url: str, rooms: list[Room], traffic: Traffic, until) -> None:
    stop = asyncio.Event()
    tasks = [asyncio.create_task(_client(ws_url, room, role, traffic, stop))
             for room in rooms for role in (room.seat, "spectator")]
    started = time.perf_counter()
    try:
        while not all(t.done() for t in tasks):
            if until is not None and until(rooms):
                break
            await asyncio.sleep(0.05)
    finally:
        traffic.seconds += time.perf_counter() - started
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)


def drive(url: str, rooms: list[Room], until=None, traffic: Traffic | None = None) -> Traffic:
    """Every room's two clients at once, until every game is over or `until(rooms)` says so."""
    traffic = traffic or Traffic()
    asyncio.run(_drive(url.replace("http://", "ws://"), rooms, traffic, until))
    return traffic
