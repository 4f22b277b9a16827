"""Rooms over a real server (uvicorn on loopback): every ruleset played to its end through the WebSocket
protocol, spectators, take-backs by agreement, and hostile clients refused while the room goes on."""

from __future__ import annotations

import json
import logging
import time

import pytest

from bow3d.replay import verify_replay
from tests.serve.conftest import SCENES, Client
from tests.serve.play import play


@pytest.mark.parametrize("scene", list(SCENES))
def test_a_game_of_every_ruleset_against_the_ai_ends_and_verifies(live, scene):
    """A person against the AI, watched by a spectator: the game ends by its rules (two rounds here), the
    spectator sees the same final state, and the room's replay verifies."""
    room, tokens = live.create(scene, {}, seed=11, max_rounds=2)
    sides = [role for role in tokens if role != "spectator"]
    status, _body = live.post("/api/rooms", {"scene": scene, "seats": {sides[1]: "nobody"}})
    assert status == 400
    room, tokens = live.create(scene, {sides[1]: "ai"}, seed=11, max_rounds=2)
    assert set(tokens) == {sides[0], "spectator"}  # no link for the AI's seat
    seat, watcher = Client.open(live, room, tokens[sides[0]]), Client.open(live, room, tokens["spectator"])
    assert watcher.state["awaiting"]["choices"] == []
    final = play({sides[0]: seat, "spectator": watcher})
    watcher.until(lambda c: c.state["records"] == final["records"] and bool(c.state["result"]))
    assert watcher.state["pieces"] == final["pieces"] and watcher.state["result"] == final["result"]
    assert final["awaiting"]["round"] >= 2 or final["awaiting"]["winner"], final["result"]
    result = verify_replay(live.data / "rooms" / f"{room}.bowreplay")
    assert result.ok, result
    assert result.entries == final["records"] and result.complete
    seat.close()
    watcher.close()


def test_two_people_take_back_only_when_both_agree(live):
    room, tokens = live.create("village", {}, seed=4)
    seats = {side: Client.open(live, room, tokens[side]) for side in ("blue", "red")}
    side = to_play(seats)  # the initiative throw says who begins
    mover, other = seats[side], seats["red" if side == "blue" else "blue"]
    assert mover.state["awaiting"]["mine"] and not other.state["awaiting"]["mine"]
    move = next(c for c in mover.state["awaiting"]["choices"] if c["kind"] == "move")
    before = mover.state["records"]
    mover.send({"type": "act", "index": move["index"], "records": before})
    mover.until(lambda c: c.state["records"] == before + 1)
    replay = live.data / "rooms" / f"{room}.bowreplay"
    lines = replay.read_text().count("\n")
    mover.send({"type": "take_back"})
    other.until(lambda c: c.state["take_back"]["asked_by"] == side)
    assert mover.state["records"] == before + 1  # asked, not taken
    mover.send({"type": "take_back"})  # asking again is no agreement
    time.sleep(0.3)
    mover.drain()
    assert mover.state["records"] == before + 1
    other.send({"type": "take_back"})
    mover.until(lambda c: c.state["records"] == before)
    assert replay.read_text().count("\n") == lines - 1
    assert mover.state["take_back"]["asked_by"] is None
    assert verify_replay(replay).ok


def test_ai_rooms_refuse_take_backs(live):
    room, tokens = live.create("western-town", {"outlaws": "ai"}, seed=2)
    seat = Client.open(live, room, tokens["law"])
    seat.send({"type": "take_back"})
    seat.until(lambda c: bool(c.errors))
    assert seat.errors[-1]["code"] == "take-back"


def to_play(seats: dict[str, Client]) -> str:
    """The side whose seat must act now, once the throws before it are done (the initiative, say)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        for side, seat in seats.items():
            seat.drain(0.05)
            if seat.state["awaiting"]["mine"]:
                return side
    raise AssertionError("no seat was asked to act")


def _alive(live) -> None:
    status, page = live.get("/")
    assert status == 200 and b"bow3d" in page


def test_hostile_clients_are_refused_and_the_room_goes_on(live):
    room, tokens = live.create("village", {}, seed=4)
    seats = {side: Client.open(live, room, tokens[side]) for side in ("blue", "red")}
    side = to_play(seats)  # the initiative throw says who begins
    blue, red = seats[side], seats["red" if side == "blue" else "blue"]  # blue: the side to play
    watcher = Client.open(live, room, tokens["spectator"])
    records = blue.state["records"]
    # another side's action: with the spectator's token, and with the opponent's
    watcher.send({"type": "act", "index": 0, "records": records})
    red.send({"type": "act", "index": 0, "records": records})
    watcher.until(lambda c: bool(c.errors))
    red.until(lambda c: bool(c.errors))
    assert watcher.errors[-1]["code"] == "spectator" and red.errors[-1]["code"] == "not-your-turn"
    # malformed JSON, a message of no known type, a stale choice, a choice that does not exist
    for bad, code in (("{not json", "bad-json"), ('{"type": "shoot", "x": 1}', "bad-message"),
                      ("[1, 2]", "bad-json"), ({"type": "act", "index": 0, "records": records + 5}, "stale"),
                      ({"type": "act", "index": 99_999, "records": records}, "no-such-choice"),
                      ({"type": "act", "index": -1, "records": records}, "bad-message")):
        blue.errors.clear()
        blue.send(bad)
        blue.until(lambda c: bool(c.errors))
        assert blue.errors[-1]["code"] == code, (bad, blue.errors)
    # a 10 MB frame
    blue.errors.clear()
    blue.send(json.dumps({"type": "ping", "pad": "x" * 10_000_000}))
    blue.until(lambda c: bool(c.errors))
    assert blue.errors[-1]["code"] == "too-large"
    # 1,000 messages in a second
    red.errors.clear()
    started = time.monotonic()
    for _ in range(1000):
        red.send({"type": "ping"})
    red.until(lambda c: any(e["code"] == "too-many" for e in c.errors))
    pongs = sum(1 for f in red.frames if f["type"] == "pong")
    assert pongs <= 60 + 20 * (time.monotonic() - started), pongs  # the burst and the rate, not the flood
    # the room goes on: blue plays
    time.sleep(1.0)
    blue.errors.clear()
    choice = blue.state["awaiting"]["choices"][0]
    blue.send({"type": "act", "index": choice["index"], "records": records})
    blue.until(lambda c: c.state["records"] > records)
    assert not blue.errors
    _alive(live)


def test_bad_tokens_scenes_and_bodies_are_refused(live):
    room, tokens = live.create("village", {}, seed=4)
    from websockets.sync.client import connect

    with connect(f"{live.ws}/ws/{room}") as socket:
        socket.send(json.dumps({"type": "hello", "token": tokens["blue"][:-2] + "xx"}))
        assert json.loads(socket.recv(timeout=30))["code"] == "bad-token"
        socket.send(json.dumps({"type": "act", "index": 0, "records": 0}))
        assert json.loads(socket.recv(timeout=30))["code"] == "hello-first"
    other, other_tokens = live.create("village", {}, seed=5)
    with connect(f"{live.ws}/ws/{room}") as socket:  # another room's seat opens nothing here
        socket.send(json.dumps({"type": "hello", "token": other_tokens["blue"]}))
        assert json.loads(socket.recv(timeout=30))["code"] == "bad-token"
    for scene in ("../scenes/village", "/etc/passwd", "village.yaml", "scenes/village", 7, None):
        status, answer = live.post("/api/rooms", {"scene": scene})
        assert status == 400 and answer["code"] == "no-such-scene", (scene, answer)
    assert live.get("/scene/..%2F..%2Fetc%2Fpasswd.glb")[0] == 404
    assert live.get("/static/..%2Fapp.py")[0] == 404
    assert live.get("/three/..%2F..%2Fetc%2Fpasswd")[0] == 404
    assert live.get("/room/..%2Fetc")[0] == 404
    status, answer = live.post("/api/rooms", b"{" + b" " * 100_000 + b"}")
    assert status == 400 and answer["code"] == "too-large"
    status, answer = live.post("/api/rooms", {"scene": "village", "max_rounds": 10**9})
    assert status == 400 and answer["code"] == "bad-rounds"
    status, answer = live.post("/api/rooms", {"scene": "village", "seed": "1; DROP TABLE rooms"})
    assert status == 400 and answer["code"] == "bad-seed"
    _alive(live)


def test_tokens_are_in_no_log_no_replay_and_no_database(live, caplog):
    caplog.set_level(logging.DEBUG)
    room, tokens = live.create("western-town", {"outlaws": "ai"}, seed=3, max_rounds=1)
    seat = Client.open(live, room, tokens["law"])
    live.get(f"/room/{room}")
    play({"law": seat})
    stored = b"".join(p.read_bytes() for p in live.data.rglob("*") if p.is_file())
    for token in tokens.values():
        assert token.encode() not in stored
        assert token not in caplog.text


def test_a_french_page_is_answered_in_french(live):
    room, tokens = live.create("war-of-bros", {"red": "ai"}, seed=2)
    seat = Client.open(live, room, tokens["blue"], lang="fr")
    seat.until(lambda c: c.state["awaiting"]["mine"] or bool(c.state["result"]))
    seat.send({"type": "act", "index": 0, "records": seat.state["records"] + 3})
    seat.send("{pas du json")
    seat.until(lambda c: len(c.errors) >= 2)
    assert "choisissez" in seat.errors[0]["message"].lower() or "depuis" in seat.errors[0]["message"], seat.errors
    assert "objet JSON" in seat.errors[1]["message"]
    assert any(" lance " in line for line in seat.state["log"]), seat.state["log"][:5]  # the narrator speaks French
    status, page = live.get("/?lang=fr")
    assert status == 200 and "Jouez une scène avec un ami".encode() in page


def test_a_room_whose_scene_changed_is_not_played_on_under_its_old_header(tmp_path):
    """After a restart, a room's replay goes on only on the scene its header names: an edited scene file would
    have its records judged by other rules than the replay says (and the replay would no longer verify)."""
    import shutil

    from bow3d.bundled import scenes_dir
    from tests.serve.conftest import live_server

    folder = tmp_path / "scenes"
    shutil.copytree(scenes_dir(), folder, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    scene = folder / "war-of-bros.yaml"
    with live_server(tmp_path / "data", [scene]) as live:
        room, tokens = live.create("war-of-bros", {"red": "ai"}, seed=2)
        records = json.loads(live.get(f"/api/rooms/{room}")[1])["records"]
    with live_server(tmp_path / "data", [scene]) as live:  # the same scene: the room goes on
        assert json.loads(live.get(f"/api/rooms/{room}")[1])["records"] >= records
    text = scene.read_text()
    changed = text.replace("position: [40, 17]", "position: [40, 16]", 1)  # the lieutenant starts elsewhere
    assert changed != text
    scene.write_text(changed)
    with live_server(tmp_path / "data", [scene]) as live:
        status, body = live.get(f"/api/rooms/{room}")
        assert status == 409 and b"changed since its game began" in body, body
        _alive(live)
