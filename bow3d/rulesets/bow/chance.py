"""BOW 1.3 §2.1 Brick Roll: n 2x2 bricks thrown, the result is how many land on their edge.

Layer: rulesets (BOW). `Bricks(n, p)` is the chance spec (each brick on its edge with
probability p, independently: the result is Binomial(n, p)); `BrickRoll(side, bricks, edges)`
is the record that answers a throw. A throw of 0 bricks needs no throwing: it counts 0 at once
("sometimes the opponent has no Brick to throw", BOW Annex B.1).

Seeded throws: each brick takes one uniform draw u and lands on its edge when u < p, bricks in
order; so a seeded generator gives the same results here as every replay written so far.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from bow3d.rules.chance import ChanceRequest, ChanceSpec, Draw, Roll, binomial, register_spec

DEFAULT_P = 0.262           # BOW §2.1: 262 of the author's 1,000 throws landed on edge
MAX_BRICKS = 10_000         # no sheet comes near; a bound for odds and hostile records


@register_spec
@dataclass(frozen=True)
class Bricks(ChanceSpec):
    """BOW §2.1: `n` 2x2 bricks, each landing on its edge with probability `p`; outcome = edges."""

    KIND: ClassVar[str] = "bricks"
    n: int
    p: float = DEFAULT_P

    def __post_init__(self) -> None:
        if not isinstance(self.n, int) or isinstance(self.n, bool) or not 0 <= self.n <= MAX_BRICKS:
            raise ValueError(f"a brick roll is 0 to {MAX_BRICKS} bricks, not {self.n!r}")
        if not isinstance(self.p, int | float) or isinstance(self.p, bool) or not 0.0 < float(self.p) < 1.0:
            raise ValueError(f"p is a probability strictly between 0 and 1, not {self.p!r}")
        object.__setattr__(self, "p", float(self.p))

    def check(self, outcome: Any) -> str | None:
        if not isinstance(outcome, int) or isinstance(outcome, bool) or not 0 <= outcome <= self.n:
            return f"{outcome!r} bricks on edge out of {self.n}"
        return None

    def sample(self, draw: Draw) -> int:
        return sum(1 for _ in range(self.n) if draw() < self.p)

    def probabilities(self) -> dict[int, float]:
        return dict(enumerate(binomial(self.n, self.p)))

    def fixed(self) -> int | None:
        return 0 if self.n == 0 else None


def BrickRoll(side: str, bricks: int, edges: int, p: float = DEFAULT_P) -> Roll:  # noqa: N802 (the book's word)
    """The record of a brick roll: `edges` of the `bricks` thrown by `side` landed on their edge."""
    return Roll(side, Bricks(int(bricks), p), edges)


def RollRequest(side: str, bricks: int, purpose: str, p: float = DEFAULT_P, **about: Any) -> ChanceRequest:  # noqa: N802
    """A request for `side` to throw `bricks` bricks, for `purpose` (a word of PURPOSES) about `about`."""
    return ChanceRequest(side, Bricks(max(0, int(bricks)), p), purpose, about)


def bricks_of(request: ChanceRequest) -> int:
    """How many bricks a BOW throw request asks for."""
    return int(request.spec.n) if isinstance(request.spec, Bricks) else 0


# Why a throw is asked (the narrator has their words; bow3d.rulesets.bow.narrator).
PURPOSES = ("starting_player", "attack", "dodge", "dispute_sees", "dispute_hidden", "treat", "damage_points",
            "crash_speed", "collision_speed", "relative_speed")
