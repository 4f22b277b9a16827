"""Issue 31's load test, bounded in count: 50 rooms on one `bow3d serve` process, two clients each (the seat
playing against the AI, and a spectator), all at once; the server killed with -9 in the middle of it and
started again: no record any client was told of is lost, every room goes on from its last record, every
game then ends and verifies, and no client got an error frame."""

from __future__ import annotations

import json
import urllib.request

import pytest

from benchmarks.serve_load import create_rooms, drive, free_port, kill_9, start_server
from bow3d.replay import read_replay, verify_replay
from tests.serve.conftest import SCENES

pytestmark = pytest.mark.slow
ROOMS = 50
SEATS = {"war-of-bros": ("blue", "red"), "western-town": ("law", "outlaws")}
KILL_AT = 8   # records a room, on average, when the server is killed


def test_fifty_rooms_survive_kill_9_and_resume_at_their_last_record(tmp_path):
    from bow3d.rulesets import load_scene

    for name, (seat, ai) in SEATS.items():
        assert {s.id for s in load_scene(SCENES[name]).sides} == {seat, ai}
    db = tmp_path / "bow3d.sqlite"
    scenes = [SCENES[name] for name in SEATS]
    port = free_port()
    server = start_server(db, scenes, port)
    url = f"http://127.0.0.1:{port}"
    try:
        rooms = create_rooms(url, ROOMS, SEATS, max_rounds=1)

        def kill_in_the_middle(rooms) -> bool:
            if sum(r.seen for r in rooms) < KILL_AT * len(rooms):
                return False
            kill_9(server)  # while the AI and the throws are being played and written
            return True

        traffic = drive(url, rooms, until=kill_in_the_middle)
        assert server.poll() is not None, "the games ended before the kill: raise KILL_AT's bound or the rounds"
        written = {}
        for room in rooms:
            replay = read_replay(tmp_path / "rooms" / f"{room.id}.bowreplay")
            written[room.id] = [entry.record for entry in replay.entries]
            assert len(written[room.id]) >= room.seen, (room.id, room.seen)  # nothing a client saw is lost
        server = start_server(db, scenes, port)
        for room in rooms:  # every room is back, its game beginning with the records written before the kill
            with urllib.request.urlopen(f"{url}/api/rooms/{room.id}", timeout=60) as answer:
                assert json.loads(answer.read())["records"] >= len(written[room.id])
        drive(url, rooms, traffic=traffic)
        assert all(room.over for room in rooms), [r.id for r in rooms if not r.over]
        assert traffic.errors == []
        for room in rooms:
            path = tmp_path / "rooms" / f"{room.id}.bowreplay"
            entries = [entry.record for entry in read_replay(path).entries]
            assert entries[:len(written[room.id])] == written[room.id]
            result = verify_replay(path)
            assert result.ok and result.complete, (room.id, result)
    finally:
        if server.poll() is None:
            kill_9(server)
