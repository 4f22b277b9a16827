"""A room: one game of one scene, its seats, and what each seat or spectator is shown.

Layer: serve. A room's game is a bow3d.replay.Session on the room's own 3D world, with its replay as
its log: every record is applied by the rules, written and flushed before anyone is told of it, so a
server killed at any moment restarts with the room at its last record (`Room.open` re-plays the
replay into a fresh session, its seeded throws and AI choices re-derived, and appends after it). What
a browser reads is the table (bow3d.rules.table): the pieces, what the game awaits, the legal choices
of the seat to play with their words and previews, in the language the browser speaks.

Every method here blocks (the rules, the world's rays): the server calls them in worker threads, one
at a time per room (`Room.lock`).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bow3d.errors import ReplayError, RulesError, UserInputError
from bow3d.i18n import _, speaking
from bow3d.replay.digest import check_scene_digest
from bow3d.replay.format import ReplayWriter, library_kind, read_replay, sight_method
from bow3d.replay.opponents import header_word
from bow3d.replay.session import Session, TakeBackRefused, ai_players
from bow3d.rules.table import HUMAN, Table, to_dict
from bow3d.serve.catalogue import SceneEntry
from bow3d.serve.store import SPECTATOR, RoomRow

LOG_SHOWN = 400   # battle-log lines a state frame carries (the newest)


class Refused(UserInputError):
    """A message the room will not act on (not your turn, a stale choice, a spectator acting): the
    connection gets an error frame and the room goes on."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Room:
    """A game in a room: the session (dice, AI seats, replay writer), its table, its battle log."""

    def __init__(self, row: RoomRow, entry: SceneEntry, replay: Path, session: Session) -> None:
        self.row, self.entry, self.replay = row, entry, replay
        self.session = session
        self.game = session.game
        self.table = Table(self.game, row.players)
        self.lock = threading.Lock()
        self.events: list[list[Any]] = []          # the events of each record, in order (the log is worded per language)
        self.take_back_asked: str | None = None    # the side that asked to take back the last record
        self._worded: dict[str, list[list[str]]] = {}  # language -> each record's log lines
        self._frames: dict[tuple[str, str], tuple[int, dict[str, Any]]] = {}
        self.version = 0   # one more at every change (a record, a take-back asked or done): the frames' key
        session.on_record = self._recorded

    # -- opening -----------------------------------------------------------------------------
    @classmethod
    def open(cls, row: RoomRow, entry: SceneEntry, data_dir: Path) -> Room:
        """The room's game: a new one (its replay written from the first record) or, when its replay
        exists, the game so far re-played from it and continued in the same file."""
        from bow3d.world import World

        scene = entry.scene
        world = World.from_scene(scene, entry.library)
        names = {side: who for side, who in row.players.items() if who != HUMAN}
        ai = ai_players(scene, row.seed, names=names)
        players = {side: ai.get(side) for side in row.players}
        path = data_dir / row.replay
        if not path.exists():
            words = {side: (header_word(ai[side]) if side in ai else HUMAN) for side in row.players}
            writer = ReplayWriter(path, scene, row.seed, words, max_rounds=row.max_rounds,
                                  library=library_kind(entry.library), sight=sight_method(world))
            session = Session.start(scene, world, seed=row.seed, players=players, writer=writer,
                                    max_rounds=row.max_rounds)
            return cls(row, entry, path, session)
        replay = read_replay(path)
        problem = check_scene_digest(replay.header.scene_digest, scene, entry.path, entry.library)
        if problem is not None:  # played on, its records would be judged by other rules than its header says
            raise ReplayError(_("{path}: the room's scene changed since its game began ({problem}); serve the "
                                "scene it was played on to go on with it").format(path=path, problem=problem))
        records = [entry_.record for entry_ in replay.entries]
        session = Session.start(scene, world, seed=row.seed, players=players, max_rounds=row.max_rounds)
        room = cls(row, entry, path, session)
        session.replay_into(records)
        finished = replay.end is not None
        if not finished:
            session.writer = ReplayWriter.reopen(path)
            if session.game.is_over:  # killed between the last record and the end line
                session._ended = True
                session.writer.end(round=session.game.state.round, winner=session.game.winner,
                                   result=str(session.game.result or "win"))
        else:
            session._ended = True
        return room

    def close(self) -> None:
        with self.lock:  # not while a step is writing
            if self.session.writer is not None:
                self.session.writer.close()

    def _recorded(self, action: Any, events: list[Any]) -> None:
        self.events.append(list(events))
        self.take_back_asked = None
        self.version += 1

    # -- state -------------------------------------------------------------------------------
    @property
    def records(self) -> int:
        return len(self.game.records)

    @property
    def ai_sides(self) -> list[str]:
        return [side for side, who in self.row.players.items() if who != HUMAN]

    def ai_to_play(self) -> bool:
        """A throw or an AI seat's choice is due (the server plays it: `step`)."""
        return not self.game.is_over and not self.session.needs_human and self.session.applied < self.session.max_records

    def step(self) -> bool:
        """One throw or AI choice; False when a human must act or the game is over."""
        with self.lock:
            if not self.ai_to_play():
                return False
            return self.session.step() is not None

    def log_lines(self, language: str) -> list[str]:
        """The newest LOG_SHOWN lines of the battle log in `language` (each record worded once per language)."""
        worded = self._worded.setdefault(language, [])
        del worded[len(self.events):]  # records taken back
        if len(worded) < len(self.events):
            narrator = self.game.ruleset.narrator(language)
            with speaking(language):
                for events in self.events[len(worded):]:
                    worded.append([line for i, e in enumerate(events) for line in [narrator.line(e, events[i + 1:])]
                                   if line])
        lines: list[str] = []
        for record in reversed(worded):
            lines[:0] = record
            if len(lines) >= LOG_SHOWN:
                break
        return lines[-LOG_SHOWN:]

    def frame(self, role: str, language: str) -> dict[str, Any]:
        """The state frame a seat (a side's id) or a spectator is sent now, in `language`."""
        key = (role, language)
        with self.lock:
            cached = self._frames.get(key)
            if cached is not None and cached[0] == self.version:
                return cached[1]
            with speaking(language):
                frame = self._frame(role, language)
            self._frames[key] = (self.version, frame)
            return frame

    def _frame(self, role: str, language: str) -> dict[str, Any]:
        awaiting = self.table.awaiting(choices=False)
        mine = (role != SPECTATOR and not self.game.is_over and awaiting.side == role
                and self.row.players.get(role) == HUMAN and self.session.needs_human)
        choices = [{k: v for k, v in to_dict(c).items() if k != "record"} for c in self.table.choices()] if mine else []
        pieces = self.table.pieces()
        result = None
        if self.game.is_over:
            result = (_("game over, {side} wins").format(side=self._side_name(self.game.winner)) if self.game.winner
                      else _("game over, no one wins"))
        return {
            "type": "state", "room": self.row.id, "scene": self.entry.name, "title": self.entry.title,
            "ruleset": self.game.ruleset.name, "ruleset_title": self.game.ruleset.title,
            "records": self.records, "you": role,
            "sides": [{**s, "player": self.row.players.get(s["id"], HUMAN)} for s in self.entry.sides()],
            "awaiting": {**to_dict(awaiting), "mine": mine, "choices": choices},
            "pieces": to_dict(pieces), "poses": self.entry.node_poses(pieces),
            "log": self.log_lines(language), "result": result,
            "take_back": {"asked_by": self.take_back_asked,
                          "allowed": not self.ai_sides and not self.game.is_over},
        }

    def _side_name(self, side: str | None) -> str:
        return next((s.name for s in self.entry.scene.sides if s.id == side), str(side))

    # -- acting ------------------------------------------------------------------------------
    def _check_turn(self, role: str, seen: int) -> None:
        if role == SPECTATOR:
            raise Refused("spectator", _("a spectator watches: only a seat's link can act"))
        if self.game.is_over:
            raise Refused("over", _("the game is over"))
        if seen != self.records:
            raise Refused("stale", _("the game has moved on since that choice (record {seen}, now {now}): choose "
                                     "again").format(seen=seen, now=self.records))
        side = self.game.side_to_play
        if side != role or not self.session.needs_human:
            raise Refused("not-your-turn", _("it is not {side}'s turn").format(side=self._side_name(role)))

    def _choice(self, index: int) -> Any:
        legal = self.table.legal()
        if not 0 <= index < len(legal):
            raise Refused("no-such-choice", _("no choice {index} now (there are {n})").format(index=index, n=len(legal)))
        return legal[index]

    def preview(self, role: str, index: int, seen: int, language: str) -> dict[str, Any]:
        """What choice `index` would do (its words, path, odds), for the seat to play."""
        with self.lock:
            self._check_turn(role, seen)
            action = self._choice(index)
            with speaking(language):
                return {"type": "preview", "index": index, "records": seen,
                        "choice": to_dict(self.table.choice(index, action)),
                        "preview": to_dict(self.table.preview(action))}

    def act(self, role: str, index: int, seen: int) -> None:
        """Apply choice `index` of the seat to play (checked again by the rules)."""
        with self.lock:
            self._check_turn(role, seen)
            action = self._choice(index)
            try:
                self.session.apply(action)
            except RulesError as error:
                raise Refused("illegal", str(error)) from None

    def take_back(self, role: str) -> str:
        """Ask to take back the last record, or agree to the other side's asking: the record is taken back
        once both sides of a game of humans agree ('asked' or 'taken'). A throw stands."""
        with self.lock:
            if role == SPECTATOR:
                raise Refused("spectator", _("a spectator watches: only a seat's link can act"))
            if self.ai_sides:
                raise Refused("take-back", _("take-backs are for games between people (the AI plays a side here)"))
            if self.take_back_asked is None or self.take_back_asked == role:
                self._check_take_back()
                self.take_back_asked = role
                self.version += 1
                return "asked"
            try:
                self.session.take_back()
            except TakeBackRefused as refused:
                self.take_back_asked = None
                self.version += 1
                raise Refused("take-back", _("nothing taken back: {why}").format(why=refused)) from None
            self.events.pop()
            for worded in self._worded.values():
                del worded[len(self.events):]
            self.take_back_asked = None
            self.version += 1
            return "taken"

    def _check_take_back(self) -> None:
        refusal = self.session.take_back_refusal()
        if refusal is not None:
            raise Refused("take-back", _("nothing taken back: {why}").format(why=refusal))


def players_of(entry: SceneEntry, seats: Mapping[str, Any]) -> dict[str, str]:
    """side -> 'human' or an opponent's name, every side of the scene: `seats` as a browser asked, checked
    against the ruleset's opponents (Refused naming the side or name)."""
    sides = [s.id for s in entry.scene.sides]
    if SPECTATOR in sides:  # its seat's token would be the spectators' one
        raise Refused("bad-seat", _("a side called {side!r} cannot have a room: rename it in the scene")
                      .format(side=SPECTATOR))
    opponents = entry.ruleset.opponents()
    players = {}
    for side in sides:
        who = seats.get(side, HUMAN)
        if who != HUMAN and who not in opponents:
            raise Refused("bad-seat", _("{side}: no such player; give 'human' or one of: {value}")
                          .format(side=side, value=", ".join(opponents)))
        players[side] = who
    unknown = sorted(set(seats) - set(sides))
    if unknown:
        raise Refused("bad-seat", _("no side {side!r} in {scene} (sides: {value})")
                      .format(side=unknown[0], scene=entry.title, value=", ".join(sides)))
    return players
