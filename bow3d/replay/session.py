"""One way to play a game: a `Session` (game, dice, players, writer), used by every front end.

Layer: replay. Chance is explicit (house style, after OpenSpiel): the rules ask for a throw
(`game.pending_roll`), the session's dice answer it, and the answer is applied like any record;
other players' decisions in the middle of a turn (`game.pending` is a DecisionRequest) go to that
side's player. Every applied record is written to the replay at once, and a finished game gets
its end record, so a replay re-simulates without an RNG. `play_game` (scripts, the demo,
`simulate`) and the play UI (bow3d.view.apps.play_ui) both go through a Session; nothing else loops
over a game.

Random streams, all derived from the one game seed: stream 0 throws (SeededDice), stream 1 + i
breaks the ties of the AI playing the i-th side of the scene.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np

from bow3d.errors import ReplayError, RulesError
from bow3d.i18n import _
from bow3d.replay.cache import CachedGeometry
from bow3d.replay.dice import SeededDice
from bow3d.rules import Game
from bow3d.rules.chance import ChanceRequest
from bow3d.rules.events import Event
from bow3d.rules.records import Action, plain
from bow3d.rules.ruleset import RULESETS, Ruleset

DEFAULT_MAX_ROUNDS = 30
DEFAULT_MAX_RECORDS = 20_000  # a guard against a player that never ends its turn
AI_STREAM = 1                 # the i-th side's AI draws from stream AI_STREAM + i of the seed


@runtime_checkable
class Player(Protocol):
    """Chooses its side's next action or decision; called only when no throw is pending."""

    def choose(self, game: Game) -> Any: ...


HumanCallback = Callable[[Game], Any]


RECORD_LIMIT = "record limit"   # GameResult.ended of a game stopped by max_records, not by its rules


@dataclass(frozen=True)
class GameResult:
    """How a game ended: `winner` (side id or None), rounds begun, records applied, why it stopped."""

    winner: str | None
    rounds: int
    records: int
    ended: str  # the rules' result ('win' | 'draw' | 'points') or 'record limit'
    seed: int


def side_ids(scene: Any) -> list[str]:
    """The scene's side ids, in the order of the file."""
    return [side.id for side in scene.sides]


def ruleset_for(scene: Any) -> Ruleset:
    """The registered ruleset the scene names."""
    return RULESETS.get(scene.ruleset.name)


def ai_players(scene: Any, seed: int, ruleset: Ruleset | None = None,
               names: Mapping[str, str] | None = None) -> dict[str, Any]:
    """One AI of the scene's ruleset per side, each on its own tie-break stream of `seed`: the
    opponent `names[side]` names (an opponent's name or version; default 'ai', the ruleset's AI).
    Sides that `names` leaves out get none when `names` is given."""
    ruleset = ruleset or ruleset_for(scene)
    return {side: ruleset.opponent(names[side] if names is not None else "ai", side,
                                   np.random.default_rng([seed, AI_STREAM + i]))
            for i, side in enumerate(side_ids(scene)) if names is None or side in names}



def prepare_geometry(scene: Any, geometry: Any) -> CachedGeometry:
    """The geometry behind a memo, every body where the scene starts it (a reused world included)."""
    if isinstance(geometry, CachedGeometry):
        geometry.reset(scene)
        return geometry
    return CachedGeometry.for_scene(geometry, scene)


ROLL_TYPE = "roll"  # the record type of a throw's answer (bow3d.rules.chance.Roll)


class TakeBackRefused(RulesError):
    """A record that cannot be taken back (a throw, or none), with the reason."""


def short(value: Any, limit: int = 100) -> str:
    text = str(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


class Session:
    """A game being played: its dice answer throws, its players choose, its writer records.

    `players` maps each side to a Player (`.choose(game)`), a callable (game) -> action, or None
    for a human at a user interface (the session then waits: `needs_human`, and the interface
    calls `apply`). Every record goes through `apply`: checked by the rules (an illegal one raises
    the rules' Illegal and changes nothing), written, passed to `on_record`.
    """

    def __init__(self, game: Game, dice: Any, players: Mapping[str, Any], *, writer: Any = None,
                 on_record: Callable[[Action, list[Event]], None] | None = None,
                 max_records: int = DEFAULT_MAX_RECORDS) -> None:
        self.game, self.dice, self.writer, self.on_record = game, dice, writer, on_record
        self.players = {side: (p.choose if isinstance(p, Player) else p) for side, p in players.items()}
        self.max_records = max_records
        self.applied = 0
        self._ended = False

    @classmethod
    def start(cls, scene: Any, geometry: Any, *, seed: int, players: Mapping[str, Any] | None = None,
              dice: Any = None, writer: Any = None, max_rounds: int | None = DEFAULT_MAX_ROUNDS,
              **kwargs: Any) -> Session:
        """A new game of `scene` (its ruleset) on `geometry` (behind a memo): `players` None means the
        ruleset's AI for every side; `dice` default the seeded stream of `seed`."""
        players = ai_players(scene, seed) if players is None else players
        missing = set(side_ids(scene)) - set(players)
        if missing:
            raise ValueError(f"no player for side(s) {', '.join(sorted(missing))}")
        header = getattr(writer, "header", None)
        if header is not None and header.max_rounds != max_rounds:
            raise ValueError(f"the replay header says max_rounds={header.max_rounds}, the game is played with "
                             f"{max_rounds}: give ReplayWriter the same max_rounds")
        game = Game.start(scene, prepare_geometry(scene, geometry), max_rounds=max_rounds)
        return cls(game, dice if dice is not None else SeededDice(seed), players, writer=writer, **kwargs)

    # -- state --------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.game.is_over

    @property
    def needs_human(self) -> bool:
        """A human at the interface must act or decide now."""
        if self.game.is_over or isinstance(self.game.pending, ChanceRequest):
            return False
        side = self.game.side_to_play
        return side is None or self.players.get(side) is None

    # -- playing ------------------------------------------------------------------------------
    def apply(self, action: Action) -> list[Event]:
        """Check and apply one record (an action, a throw's answer, a decision), then write it."""
        events = self.game.apply(action)
        self.applied += 1
        if self.writer is not None:
            self.writer.write(action, events)
            if self.game.is_over and not self._ended:
                self._ended = True
                self.writer.end(round=self.game.state.round, winner=self.game.winner,
                                result=str(self.game.result or "win"))
        if self.on_record is not None:
            self.on_record(action, events)
        return events

    def take_back_refusal(self) -> str | None:
        """Why the last record cannot be taken back now (in words), None when it can."""
        if self.game.is_over:
            return _("the game is over")
        if not self.game.records:
            return _("nothing has been played yet")
        if self.game.records[-1].get("type") == ROLL_TYPE:
            return _("the last record is a throw, and a throw stands")
        return None

    def take_back(self) -> dict[str, Any]:
        """Take back the last record (Game.pop) and its line in the replay; returns it. Refused
        (TakeBackRefused) once the game is over, with nothing applied, or when the last record is a
        throw: thrown bricks and dice stand (taking them back would let a player throw again)."""
        refusal = self.take_back_refusal()
        if refusal is not None:
            raise TakeBackRefused(refusal)
        record = self.game.pop()
        if self.writer is not None:
            self.writer.take_back()
        self.applied -= 1
        return record

    def replay_into(self, records: Iterable[Mapping[str, Any]]) -> int:
        """Play recorded records again into this fresh session (a game resumed from its replay): throws
        and AI choices are derived again by this session's dice and players and must be the recorded
        ones; a human's record is applied as written. Returns how many; ReplayError naming the first
        record that does not re-play."""
        count = 0
        for count, record in enumerate(records, start=1):
            if self.needs_human:
                self.apply(self.game.ruleset.parse(dict(record)))
                continue
            if self.step() is None or plain(self.game.records[-1]) != plain(dict(record)):
                got = plain(self.game.records[-1]) if self.game.records else None
                raise ReplayError(_("record {count} does not re-play: the replay says {value}, the "
                                    "game now gives {value2}")
                                  .format(count=count, value=short(plain(record), 100), value2=short(got, 100)))
        return count

    def step(self) -> list[Event] | None:
        """One record from the dice or from the player of the side to play; None when the game is
        over or a human must act."""
        if self.game.is_over:
            return None
        request = self.game.pending
        if isinstance(request, ChanceRequest):
            return self.apply(request.answer(self.dice.throw(request)))
        side = self.game.side_to_play
        chooser = self.players.get(side) if side is not None else None
        if chooser is None:
            return None
        return self.apply(chooser(self.game))

    def advance(self) -> int:
        """Throws and non-human players until a human must act, the game is over or the record
        limit is reached; returns the records applied."""
        count = 0
        while self.applied < self.max_records and self.step() is not None:
            count += 1
        return count

    def result(self, seed: int) -> GameResult:
        game = self.game
        ended = str(game.result or "win") if game.is_over else RECORD_LIMIT
        return GameResult(winner=game.winner, rounds=game.state.round, records=self.applied, ended=ended, seed=seed)


def play_game(scene: Any, geometry: Any, players: Mapping[str, Player | HumanCallback] | None, seed: int,
              writer: Any = None, max_rounds: int = DEFAULT_MAX_ROUNDS,
              max_records: int = DEFAULT_MAX_RECORDS, on_record: Callable[[Any, list], None] | None = None
              ) -> GameResult:
    """Play one game of `scene` on `geometry` from `seed`, writing every record to `writer`.

    `players` maps side id -> a Player (`.choose(game)`) or a callable (game) -> action; None
    means the ruleset's AI for every side. An illegal action from a player raises the rules'
    Illegal (the game and the replay are left as they were). The geometry may be reused from game
    to game: it is wrapped in a CachedGeometry (an exact memo, see bow3d.replay.cache) unless it
    is one already, and every body is put back where the scene starts it. The rules end the game
    at victory or after round `max_rounds` (the limit is in the replay header so that verify
    re-simulates the same ending); `max_records` guards against a player that never ends its turn
    (result 'record limit').
    """
    if players is not None and any(p is None for p in players.values()):
        raise ValueError("play_game needs a player for every side (None is a human at an interface)")
    session = Session.start(scene, geometry, seed=seed, players=players, writer=writer, max_rounds=max_rounds,
                            on_record=on_record, max_records=max_records)
    session.advance()
    return session.result(seed)
