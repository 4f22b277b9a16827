"""Chance as an explicit, recorded answer (OpenSpiel's chance nodes): specs, requests and rolls.

Layer: rules (the engine; pure Python, never `random`). A rule that needs chance asks for it:
a `ChanceRequest` names the side that throws, a `ChanceSpec` (what is thrown: dice, a shuffled
deck, a card drawn; a ruleset registers its own kinds) and a purpose (a
machine word plus the ids it is about, for the narrator). The game then accepts only the matching
`Roll` record, which carries the spec and the outcome; nothing but the record decides. Who
produces outcomes (a seeded generator, or players typing in their physical rolls) is the
business of the session above (bow3d.replay), which calls `spec.sample(draw)` with a source of
uniform floats in [0, 1).

Every spec: `kind` (its record name), `to_record()`, `check(outcome)` (None or the words saying
why the outcome is impossible), `sample(draw)`, `probabilities()` (exact, for odds and tests) and
`fixed()` (the one possible outcome of a throw that needs no throwing, e.g. zero dice, else None).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from bow3d.errors import RulesError
from bow3d.i18n import _
from bow3d.rules.records import Action, frozen, plain

Draw = Callable[[], float]   # uniform floats in [0, 1), from the session's generator
MAX_SIDES = 1000             # a die has at most this many faces
MAX_DICE = 100               # at most this many dice in one throw
MAX_ENUMERATION = 1_000_000  # probabilities() refuses to enumerate more outcomes than this


@dataclass(frozen=True)
class ChanceSpec:
    """What is thrown or drawn; subclasses set KIND and are registered with `register_spec`."""

    KIND: ClassVar[str] = ""

    def to_record(self) -> dict[str, Any]:
        return {"kind": self.KIND, **{f.name: plain(getattr(self, f.name)) for f in dataclasses.fields(self)}}

    def check(self, outcome: Any) -> str | None:
        raise NotImplementedError

    def sample(self, draw: Draw) -> Any:
        raise NotImplementedError

    def probabilities(self) -> dict[Any, float]:
        raise NotImplementedError

    def fixed(self) -> Any | None:
        """The only possible outcome when there is nothing to throw, else None."""
        return None


SPEC_KINDS: dict[str, type[ChanceSpec]] = {}


def register_spec(cls: type[ChanceSpec]) -> type[ChanceSpec]:
    """Class decorator: make a spec readable back from its record (its KIND must be new)."""
    if not cls.KIND or SPEC_KINDS.get(cls.KIND, cls) is not cls:
        raise ValueError(f"chance spec kind {cls.KIND!r} of {cls.__name__} is empty or taken")
    SPEC_KINDS[cls.KIND] = cls
    return cls


def spec_from_record(record: Any) -> ChanceSpec:
    """The spec a record stands for; RulesError when it is not a known, well-formed spec."""
    if isinstance(record, ChanceSpec):
        return record
    if not isinstance(record, dict) or record.get("kind") not in SPEC_KINDS:
        raise RulesError(_("chance spec {record!r}: unknown kind (known: {value})")
                         .format(record=record, value=', '.join(sorted(SPEC_KINDS))))
    cls = SPEC_KINDS[record["kind"]]
    names = {f.name for f in dataclasses.fields(cls)}
    extra = set(record) - names - {"kind"}
    if extra:
        raise RulesError(_("chance spec {record!r}: unknown field(s) {value}")
                         .format(record=record, value=', '.join(sorted(extra))))
    try:
        return cls(**{k: frozen(v) for k, v in record.items() if k != "kind"})
    except (TypeError, ValueError) as error:
        raise RulesError(_("chance spec {record!r}: {error}").format(record=record, error=error)) from None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@register_spec
@dataclass(frozen=True)
class Dice(ChanceSpec):
    """`count` dice of `sides` faces (d4 ... d20), thrown at once. The outcome is every face in the
    order thrown; `keep` says how the ruleset reads them ('all', 'highest', 'lowest', 'sum'), so a
    viewer can show the die that counts. 'd6 roll-under' is a d6 the ruleset compares downwards."""

    KIND: ClassVar[str] = "dice"
    count: int
    sides: int
    keep: str = "all"

    def __post_init__(self) -> None:
        if not _is_int(self.count) or not 1 <= self.count <= MAX_DICE:
            raise ValueError(f"a throw has 1 to {MAX_DICE} dice, not {self.count!r}")
        if not _is_int(self.sides) or not 2 <= self.sides <= MAX_SIDES:
            raise ValueError(f"a die has 2 to {MAX_SIDES} faces, not {self.sides!r}")
        if self.keep not in ("all", "highest", "lowest", "sum"):
            raise ValueError(f"keep is all, highest, lowest or sum, not {self.keep!r}")

    def check(self, outcome: Any) -> str | None:
        if not isinstance(outcome, tuple) or len(outcome) != self.count:
            return f"{self.count} faces expected, got {outcome!r}"
        if not all(_is_int(f) and 1 <= f <= self.sides for f in outcome):
            return f"faces of a d{self.sides} are 1 to {self.sides}, got {list(outcome)}"
        return None

    def sample(self, draw: Draw) -> tuple[int, ...]:
        return tuple(min(self.sides, 1 + int(draw() * self.sides)) for _unused in range(self.count))

    def probabilities(self) -> dict[tuple[int, ...], float]:
        if self.sides ** self.count > MAX_ENUMERATION:
            raise ValueError(f"{self.count}d{self.sides} has too many outcomes to enumerate")
        p = 1.0 / self.sides ** self.count
        return dict.fromkeys(itertools.product(range(1, self.sides + 1), repeat=self.count), p)

    def kept(self, outcome: tuple[int, ...]) -> int:
        """The value the throw counts for under `keep` ('all' counts as the sum)."""
        if self.keep == "highest":
            return max(outcome)
        if self.keep == "lowest":
            return min(outcome)
        return sum(outcome)


def _check_cards(cards: Any, what: str) -> None:
    if not isinstance(cards, tuple) or not cards or not all(isinstance(c, str) for c in cards):
        raise ValueError(f"{what} is a non-empty list of card names")


@register_spec
@dataclass(frozen=True)
class Shuffle(ChanceSpec):
    """A deck shuffled once (its order recorded): the outcome is the cards in the order drawn."""

    KIND: ClassVar[str] = "shuffle"
    cards: tuple[str, ...]

    def __post_init__(self) -> None:
        _check_cards(self.cards, "a deck")

    def check(self, outcome: Any) -> str | None:
        if not isinstance(outcome, tuple) or sorted(outcome) != sorted(self.cards):
            return "the shuffled deck must hold exactly the deck's cards"
        return None

    def sample(self, draw: Draw) -> tuple[str, ...]:
        deck = list(self.cards)
        for i in range(len(deck) - 1, 0, -1):  # Fisher-Yates, one uniform per card
            j = min(i, int(draw() * (i + 1)))
            deck[i], deck[j] = deck[j], deck[i]
        return tuple(deck)

    def probabilities(self) -> dict[tuple[str, ...], float]:
        orders = set(itertools.permutations(self.cards))
        if len(orders) > MAX_ENUMERATION:
            raise ValueError("too many orders to enumerate")
        return {order: 1.0 / len(orders) for order in orders}


@register_spec
@dataclass(frozen=True)
class CardDraw(ChanceSpec):
    """One card drawn from those left in a deck (duplicates count as separate cards)."""

    KIND: ClassVar[str] = "draw"
    cards: tuple[str, ...]

    def __post_init__(self) -> None:
        _check_cards(self.cards, "a draw")

    def check(self, outcome: Any) -> str | None:
        return None if outcome in self.cards else f"{outcome!r} is not one of the cards left"

    def sample(self, draw: Draw) -> str:
        return self.cards[min(len(self.cards) - 1, int(draw() * len(self.cards)))]

    def probabilities(self) -> dict[str, float]:
        counts: dict[str, int] = {}
        for card in self.cards:
            counts[card] = counts.get(card, 0) + 1
        return {card: n / len(self.cards) for card, n in counts.items()}

    def fixed(self) -> str | None:
        return self.cards[0] if len(set(self.cards)) == 1 else None


@dataclass(frozen=True)
class ChanceRequest:
    """The game waits for `side` to throw `spec`, for `purpose` (a machine word) about `about` (ids)."""

    side: str
    spec: ChanceSpec
    purpose: str
    about: dict[str, Any] = field(default_factory=dict)

    def answer(self, outcome: Any) -> Roll:
        """The Roll record that answers this request with `outcome`."""
        return Roll(self.side, self.spec, outcome)

    def fields(self) -> dict[str, Any]:
        """The request as event fields."""
        return {"side": self.side, "spec": self.spec.to_record(), "purpose": self.purpose, "about": dict(self.about)}


@dataclass(frozen=True)
class Roll(Action):
    """The answer to a chance request: `side` threw `spec` and got `outcome` (record type 'roll')."""

    TYPE: ClassVar[str] = "roll"
    FREE: ClassVar[bool] = True
    side: str
    spec: ChanceSpec
    outcome: Any

    def __post_init__(self) -> None:
        if not isinstance(self.spec, ChanceSpec):
            object.__setattr__(self, "spec", spec_from_record(self.spec))
        outcome = frozen(self.outcome)
        if isinstance(outcome, numbers.Integral) and not isinstance(outcome, bool):
            outcome = int(outcome)  # numpy integers from a seeded generator
        elif isinstance(outcome, tuple):
            outcome = tuple(int(v) if isinstance(v, numbers.Integral) and not isinstance(v, bool) else v
                            for v in outcome)
        object.__setattr__(self, "outcome", outcome)

    def to_record(self) -> dict[str, Any]:
        return {"type": self.TYPE, "side": self.side, "spec": self.spec.to_record(), "outcome": plain(self.outcome)}


def binomial(n: int, p: float) -> list[float]:
    """P(k successes) for k = 0..n of n independent trials of probability p (exact, no sampling)."""
    if n < 0:
        raise ValueError(f"a throw needs 0 or more trials, not {n}")
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p must be a probability between 0 and 1, not {p}")
    return [math.comb(n, k) * p ** k * (1.0 - p) ** (n - k) for k in range(n + 1)]
