"""A real server for the serve tests: uvicorn on a free loopback port in a thread (or a process, for
kill -9), and a WebSocket client that says hello and keeps the newest state frame."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bow3d.bundled import scenes_dir

SCENES = {name: scenes_dir() / f"{name}.yaml" for name in ("village", "war-of-bros", "western-town")}


@dataclass
class Live:
    url: str
    server: Any
    data: Path

    @property
    def ws(self) -> str:
        return self.url.replace("http://", "ws://")

    def post(self, path: str, body: Any) -> tuple[int, Any]:
        import urllib.error
        import urllib.request

        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, headers={"content-type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=120) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def get(self, path: str) -> tuple[int, bytes]:
        import urllib.error
        import urllib.request

        try:
            with urllib.request.urlopen(self.url + path, timeout=120) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def create(self, scene: str, seats: dict[str, str] | None = None, seed: int = 1, max_rounds: int = 2
               ) -> tuple[str, dict[str, str]]:
        status, answer = self.post("/api/rooms", {"scene": scene, "seats": seats or {}, "seed": seed,
                                                  "max_rounds": max_rounds})
        assert status == 201, answer
        return answer["room"], {role: link.split("#", 1)[1] for role, link in answer["links"].items()}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def live_server(data: Path, scenes: list[Path], *, ai_delay: float = 0.0, three: Any = None,
                referee: bool = False) -> Iterator[Live]:
    """uvicorn serving bow3d's app in a thread of this process, on loopback (with the referee page if asked)."""
    import uvicorn

    from bow3d.ldraw import Library
    from bow3d.serve.app import Server, create_app, three_spec
    from bow3d.serve.catalogue import Catalogue
    from bow3d.serve.referee import Referee
    from bow3d.serve.store import Store

    data.mkdir(parents=True, exist_ok=True)
    server = Server(Catalogue(scenes, Library.from_env(None)), Store(data / "bow3d.sqlite"), data,
                    ai_delay=ai_delay, three=three)
    if referee:
        server.referee = Referee(server.catalogue, lambda: three_spec(server))
    port = free_port()
    config = uvicorn.Config(create_app(server), host="127.0.0.1", port=port, log_level="warning",
                            ws_max_size=16 * 1024 * 1024)
    userver = uvicorn.Server(config)
    thread = threading.Thread(target=userver.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not userver.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert userver.started, "the server did not start"
    try:
        yield Live(f"http://127.0.0.1:{port}", server, data)
    finally:
        userver.should_exit = True
        thread.join(timeout=30)
        server.store.close()


@dataclass
class Client:
    """A WebSocket of a room: hello said; `state` is the newest state frame, `errors` every error frame."""

    socket: Any
    state: dict[str, Any] | None = None
    errors: list[dict[str, Any]] = field(default_factory=list)
    frames: list[dict[str, Any]] = field(default_factory=list)
    stack: Any = None

    @classmethod
    def open(cls, live: Live, room: str, token: str, lang: str = "en") -> Client:
        from websockets.sync.client import connect

        stack = contextlib.ExitStack()
        client = cls(stack.enter_context(connect(f"{live.ws}/ws/{room}", max_size=None, open_timeout=60)))
        client.stack = stack
        client.send({"type": "hello", "token": token, "lang": lang})
        client.until(lambda c: c.state is not None)
        return client

    def send(self, message: Any) -> None:
        self.socket.send(message if isinstance(message, str | bytes) else json.dumps(message))

    def receive(self, timeout: float) -> dict[str, Any] | None:
        try:
            frame = json.loads(self.socket.recv(timeout=timeout))
        except TimeoutError:
            return None
        self.frames.append(frame)
        if frame["type"] == "state":
            self.state = frame
        elif frame["type"] == "error":
            self.errors.append(frame)
        return frame

    def until(self, condition, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while not condition(self):
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out; last state: {json.dumps(self.state)[:400] if self.state else None}")
            self.receive(min(left, 5.0))

    def drain(self, seconds: float = 0.05) -> None:
        while self.receive(seconds) is not None:
            pass

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.stack.close()


@pytest.fixture
def live(tmp_path) -> Iterator[Live]:
    with live_server(tmp_path / "serve", list(SCENES.values())) as found:
        yield found
