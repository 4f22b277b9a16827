"""The server's storage: rooms, seats and invite tokens in SQLite; each room's game is its replay file.

Layer: serve (standard library only). The database holds what a replay does not: which scene a room
plays, who sits where, and the tokens that let a browser act for a side or watch. Tokens are kept as
their sha256 only, so the file gives nobody a seat. Every write is committed at once (WAL, synchronous
FULL): a server killed with -9 restarts with every room it had created. The records of a game are not
here: they are the room's replay, appended and flushed record by record (bow3d.replay.ReplayWriter).
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import sqlite3
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

SCHEMA_VERSION = 1
TOKEN_BYTES = 24          # 192 bits, URL-safe base64: 32 characters
ROOM_ID_BYTES = 9         # 12 characters; not secret (a room's id only names it), but not guessable either
SPECTATOR = "spectator"
ROOM_ID = re.compile(r"^[A-Za-z0-9_-]{12}$")   # what token_urlsafe(ROOM_ID_BYTES) gives
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    scene TEXT NOT NULL,          -- the scene's name in the server's catalogue
    scene_path TEXT NOT NULL,     -- the scene file it was created from (absolute)
    seed INTEGER NOT NULL,
    max_rounds INTEGER NOT NULL,
    players TEXT NOT NULL,        -- JSON: side -> 'human' or an opponent's name
    replay TEXT NOT NULL,         -- the room's replay file, relative to the data folder
    created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE TABLE IF NOT EXISTS tokens (
    digest TEXT PRIMARY KEY,      -- sha256 of the token (the token itself is never stored)
    room TEXT NOT NULL REFERENCES rooms(id),
    role TEXT NOT NULL            -- a side's id, or 'spectator'
);
CREATE INDEX IF NOT EXISTS tokens_room ON tokens(room);
"""


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


@dataclass(frozen=True)
class RoomRow:
    """A room as stored: its id, scene (name and file), seed, round limit, players and replay file."""

    id: str
    scene: str
    scene_path: str
    seed: int
    max_rounds: int
    players: dict[str, str]
    replay: str
    created: str


class Store:
    """The SQLite database of a server (one file; `:memory:` for tests). Thread-safe: one connection,
    one lock (the server writes a few rows per room, never per record)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)
        found = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if found is None:
            self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        elif int(found[0]) > SCHEMA_VERSION:
            raise sqlite3.DatabaseError(f"{self.path}: written by a newer bow3d (schema {found[0]}); "
                                        f"this one reads schema {SCHEMA_VERSION}")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def create_room(self, scene: str, scene_path: str, seed: int, max_rounds: int, players: Mapping[str, str],
                    replay_for: str) -> tuple[RoomRow, dict[str, str]]:
        """A new room and its tokens: one per side played by a human, and one for spectators. `replay_for`
        is formatted with the room's id to name its replay file. Returns the row and role -> token (the only
        time the tokens are seen)."""
        room_id = secrets.token_urlsafe(ROOM_ID_BYTES)
        tokens = {side: new_token() for side, who in players.items() if who == "human"}
        tokens[SPECTATOR] = new_token()
        replay = replay_for.format(room=room_id)
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute("INSERT INTO rooms (id, scene, scene_path, seed, max_rounds, players, replay) "
                                 "VALUES (?, ?, ?, ?, ?, ?, ?)",
                                 (room_id, scene, scene_path, int(seed), int(max_rounds), json.dumps(dict(players)),
                                  replay))
                self._db.executemany("INSERT INTO tokens VALUES (?, ?, ?)",
                                     [(token_digest(t), room_id, role) for role, t in tokens.items()])
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        row = self.room(room_id)
        assert row is not None
        return row, tokens

    def room(self, room_id: str) -> RoomRow | None:
        with self._lock:
            found = self._db.execute("SELECT id, scene, scene_path, seed, max_rounds, players, replay, created "
                                     "FROM rooms WHERE id=?", (room_id,)).fetchone()
        return _row(found) if found is not None else None

    def rooms(self) -> list[RoomRow]:
        with self._lock:
            found = self._db.execute("SELECT id, scene, scene_path, seed, max_rounds, players, replay, created "
                                     "FROM rooms ORDER BY created, id").fetchall()
        return [_row(r) for r in found]

    def role(self, room_id: str, token: str) -> str | None:
        """The role a token gives in a room (a side's id or 'spectator'), None for any other token."""
        with self._lock:
            found = self._db.execute("SELECT role FROM tokens WHERE digest=? AND room=?",
                                     (token_digest(token), room_id)).fetchone()
        return None if found is None else str(found[0])


def _row(found: tuple) -> RoomRow:
    return RoomRow(found[0], found[1], found[2], int(found[3]), int(found[4]), dict(json.loads(found[5])),
                   found[6], found[7])
