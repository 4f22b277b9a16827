"""Play a game: the players choose actions, the brick rolls come from a seeded generator.

Layer: replay. Chance is explicit (house style, after OpenSpiel): the rules ask for a roll
(`game.pending_roll`), this runner throws the bricks (each 2x2 brick lands on its edge with the
ruleset's probability, BOW 1.3 §2.1) and applies the result as a BrickRoll like any action.
Every applied record is written to the replay at once, so a replay re-simulates without an RNG.

Random streams, all derived from the one header seed: stream 0 throws the bricks, stream 1 + i
breaks the ties of the AI playing the i-th side of the scene.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np

from bow3d.replay.cache import CachedGeometry
from bow3d.rules import BrickRoll, Game
from bow3d.rules.ai import AIPlayer

DEFAULT_MAX_ROUNDS = 30
DEFAULT_MAX_RECORDS = 20_000  # a guard against a player that never ends its turn


@runtime_checkable
class Player(Protocol):
    """Chooses the next action of its side; called only when no roll is pending."""

    def choose(self, game: Game) -> Any: ...


HumanCallback = Callable[[Game], Any]


@dataclass(frozen=True)
class GameResult:
    """How a game ended: `winner` (side id or None), rounds begun, records applied, why it stopped."""

    winner: str | None
    rounds: int
    records: int
    ended: str  # the rules' result ('win' | 'draw' | 'points') or 'record limit'
    seed: int


def roll_bricks(rng: np.random.Generator, bricks: int, edge_probability: float) -> int:
    """BOW 1.3 §2.1: throw `bricks` 2x2 bricks; the result is how many land on their edge."""
    if bricks <= 0:
        return 0
    return int(np.count_nonzero(rng.random(bricks) < edge_probability))


def side_ids(scene: Any) -> list[str]:
    """The scene's side ids, in the order of the file."""
    return [side.id for side in scene.sides]


def ai_players(scene: Any, seed: int) -> dict[str, AIPlayer]:
    """One AI per side, each with its own tie-break stream derived from `seed`."""
    return {side: AIPlayer(side, np.random.default_rng([seed, 1 + i])) for i, side in enumerate(side_ids(scene))}


def prepare_geometry(scene: Any, geometry: Any) -> CachedGeometry:
    """The geometry behind a memo, every body where the scene starts it (a reused world included)."""
    if isinstance(geometry, CachedGeometry):
        geometry.reset(scene)
        return geometry
    return CachedGeometry.for_scene(geometry, scene)


def _player_for(players: Mapping[str, Player | HumanCallback], side: str) -> Callable[[Game], Any]:
    player = players[side]
    return player.choose if isinstance(player, Player) else player


def play_game(scene: Any, geometry: Any, players: Mapping[str, Player | HumanCallback] | None, seed: int,
              writer: Any = None, max_rounds: int = DEFAULT_MAX_ROUNDS,
              max_records: int = DEFAULT_MAX_RECORDS, on_record: Callable[[Any, list], None] | None = None
              ) -> GameResult:
    """Play one game of `scene` on `geometry` from `seed`, writing every record to `writer`.

    `players` maps side id -> a Player (`.choose(game)`) or a callable (game) -> action; None
    means AI against AI. An illegal action from a player raises the rules' Illegal (the game
    and the replay are left as they were). The geometry may be reused from game to game: it is
    wrapped in a CachedGeometry (an exact memo, see bow3d.replay.cache) unless it is one
    already, and every body is put back where the scene starts it. The rules end the game at
    victory or after round `max_rounds` (BOW has no round limit; the limit is in the replay
    header so that verify re-simulates the same ending); `max_records` guards against a player
    that never ends its turn (result 'record limit').
    """
    players = ai_players(scene, seed) if players is None else players
    missing = set(side_ids(scene)) - set(players)
    if missing:
        raise ValueError(f"no player for side(s) {', '.join(sorted(missing))}")
    header = getattr(writer, "header", None)
    if header is not None and header.max_rounds != max_rounds:
        raise ValueError(f"the replay header says max_rounds={header.max_rounds}, the game is played with "
                         f"{max_rounds}: give ReplayWriter the same max_rounds")
    choosers = {side: _player_for(players, side) for side in side_ids(scene)}
    dice = np.random.default_rng([seed, 0])
    p = float(scene.ruleset.brick_edge_probability)
    game = Game.start(scene, prepare_geometry(scene, geometry), max_rounds=max_rounds)
    records = 0
    ended = "record limit"
    while not game.is_over:
        if records >= max_records:
            break
        request = game.pending_roll
        if request is not None:
            record = BrickRoll(side=request.side, bricks=request.bricks,
                               edges=roll_bricks(dice, request.bricks, p))
        else:
            record = choosers[game.state.side_to_play](game)
        events = game.apply(record)
        records += 1
        if writer is not None:
            writer.write(record, events)
        if on_record is not None:
            on_record(record, events)
    if game.is_over:
        ended = str(game.state.result or "win")
    return GameResult(winner=game.winner, rounds=game.state.round, records=records, ended=ended, seed=seed)
