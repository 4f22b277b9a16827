"""Where the outcomes of chance come from: a seeded generator, or the players' own throws typed in.

Layer: replay. The rules only ask (`game.pending_roll`: a ChanceRequest naming a spec); a
`Dice` answers. `SeededDice` draws from numpy's default generator (PCG64) seeded with
[seed, 0], one uniform float per draw in the order the spec takes them (`spec.sample(draw)`), so
a seeded game is a function of its seed and `verify` can re-derive every outcome; `EnteredDice`
asks a callback (a player typing in a physical throw). `dice.source()` is what the replay header
records about it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from bow3d.errors import ReplayError, UserInputError
from bow3d.i18n import _
from bow3d.replay.format import seeded_chance
from bow3d.replay.upgrade_v1 import GENERATOR
from bow3d.rules.chance import ChanceRequest

CHANCE_STREAM = 0   # the stream of the game's seed that throws (1 + i: the i-th side's AI)
MAX_SEED = 2 ** 63 - 1  # seeds are whole numbers from 0 to this (a replay header holds a signed 64-bit one)


def check_seed(seed: int, what: str = "--seed") -> int:
    """A game seed, or a UserInputError saying what a seed may be."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise UserInputError(_("{what} {seed}: a seed is a whole number from 0 to {MAX_SEED}")
                             .format(what=what, seed=seed, MAX_SEED=MAX_SEED))
    return seed


class SeededDice:
    """Outcomes drawn from numpy's PCG64 generator seeded with [seed, CHANCE_STREAM]."""

    mode = "seeded"

    def __init__(self, seed: int) -> None:
        self.seed = int(seed)
        self.rng = np.random.default_rng([self.seed, CHANCE_STREAM])

    def throw(self, request: ChanceRequest) -> Any:
        """The outcome of one throw (every draw it takes comes off the stream, in order)."""
        return request.spec.sample(self.rng.random)

    def source(self) -> dict[str, Any]:
        return seeded_chance(self.seed)

    @classmethod
    def from_source(cls, source: Mapping[str, Any]) -> SeededDice:
        """The dice a replay header's `chance` describes (ReplayError for another generator)."""
        if source.get("generator") != GENERATOR:
            raise ReplayError(_("chance from the generator {value!r}: this bow3d re-derives only "
                                "{GENERATOR!r}").format(value=source.get('generator'), GENERATOR=GENERATOR))
        seed = list(source.get("seed") or [])
        if len(seed) != 2 or seed[1] != CHANCE_STREAM:
            raise ReplayError(_("chance seed {seed!r}: expected [game seed, {CHANCE_STREAM}]")
                              .format(seed=seed, CHANCE_STREAM=CHANCE_STREAM))
        return cls(int(seed[0]))


class EnteredDice:
    """Outcomes typed in by the players (their physical dice, bricks or cards): `ask(request)`."""

    mode = "entered"

    def __init__(self, ask: Callable[[ChanceRequest], Any]) -> None:
        self.ask = ask

    def throw(self, request: ChanceRequest) -> Any:
        return self.ask(request)

    def source(self) -> dict[str, Any]:
        return {"mode": "entered"}
