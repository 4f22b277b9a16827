"""The ruleset interface (one game system, plugged into the engine) and the registry of rulesets.

Layer: rules (the engine; pure Python).

More: docs/modules/rules.md#ruleset.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from bow3d.errors import UserInputError
from bow3d.i18n import _
from bow3d.rules.chance import Roll
from bow3d.rules.pending import Decide
from bow3d.rules.records import Action, ActionTable
from bow3d.rules.table import Presentation

if TYPE_CHECKING:
    from bow3d.rules.events import Event, EventSchema, Narrator
    from bow3d.rules.game import Game
    from bow3d.rules.refusal import Refusal

Checker = Callable[["Game", Any], "Refusal | None"]
Applier = Callable[["Game", Any], "list[Event]"]


class Ruleset:
    """Base class of a game system; see the module docstring for what each member does."""

    name: str = ""
    title: str = ""
    edition: str = ""
    languages: tuple[str, ...] = ("en",)
    book: str = ""                       # the rule book it follows (file name in the seeds)
    scene_model: Any = None              # pydantic model of a whole scene of this ruleset
    params_model: Any = None             # pydantic model of `ruleset:` in the scene
    sheet_model: Any = None              # pydantic model (or union) of a description sheet
    event_schema: EventSchema | None = None
    ai_version: str | None = None        # which AI `player()` gives (replays record it; see replay verify)
    revision: int = 1                    # of its readings of the book: a new game is played with this one and
                                         # its replay records it; a replay re-plays with its own (`context(...,
                                         # revision=N)`, passed only when N differs from this one)
    action_classes: tuple[type[Action], ...] = ()
    presentation_class: type[Presentation] = Presentation  # its table words and pictures (bow3d.rules.table)

    def __init__(self) -> None:
        self.actions = ActionTable((Roll, Decide, *self.action_classes))
        self._rules: dict[type, tuple[Checker, Applier]] = {}
        self._resolvers: dict[str, Callable] = {}
        self._presentation: Presentation | None = None

    def presentation(self) -> Presentation:
        """How it shows itself at the table (one per ruleset)."""
        if self._presentation is None:
            self._presentation = self.presentation_class(self)
        return self._presentation

    # -- wiring ------------------------------------------------------------------------------
    def add_rule(self, action: type[Action], checker: Checker, applier: Applier) -> None:
        self._rules[action] = (checker, applier)

    def add_resolver(self, kind: str, resolver: Callable) -> None:
        if kind in self._resolvers:
            raise ValueError(f"{self.name}: a resolver for {kind!r} exists already")
        self._resolvers[kind] = resolver

    def rules_for(self, action_type: type) -> tuple[Checker, Applier] | None:
        return self._rules.get(action_type)

    def resolver(self, kind: str) -> Callable:
        return self._resolvers[kind]

    def parse(self, record: Any) -> Action:
        """The action or answer a record stands for (RulesError when malformed)."""
        return self.actions.parse(record)

    # -- play (every ruleset implements these) ------------------------------------------------
    def context(self, scene: Any, geometry: Any, **options: Any) -> Any:
        raise NotImplementedError

    def initial_state(self, ctx: Any) -> Any:
        raise NotImplementedError

    def begin(self, game: Game) -> list[Event]:
        raise NotImplementedError

    def candidates(self, game: Game) -> Iterable[Action]:
        raise NotImplementedError

    def after_record(self, game: Game) -> list[Event]:
        return []

    def side_to_play(self, state: Any) -> str | None:
        raise NotImplementedError

    def is_over(self, state: Any) -> bool:
        raise NotImplementedError

    def winner(self, state: Any) -> str | None:
        return getattr(state, "winner", None)

    def result(self, state: Any) -> str | None:
        return getattr(state, "result", None)

    def place_bodies(self, game: Game) -> None:
        """Put the geometry in step with the starting state."""

    def restore(self, game: Game, before: Any) -> None:
        """Put the geometry back as it was in `before` (the state that pop() restores)."""

    # -- around play (optional) ----------------------------------------------------------------
    def judge_sight(self, report: Any, params: Any) -> Any:
        """The ruleset's verdict on a world sight report (an object with `to_dict()`)."""
        raise NotImplementedError

    def sight_sentence(self, report: Any, verdict: Any, language: str | None = None) -> str:
        """The verdict in words (bow3d los)."""
        raise NotImplementedError

    def in_cover(self, visible_fraction: Any, params: Any) -> Any:
        """Vectorised judgement for heatmaps: an array of visible fractions -> bool array, in cover."""
        raise NotImplementedError

    def cover_share(self, params: Any) -> float:
        """The hidden share from which a target is in cover (heatmaps shade by it)."""
        raise NotImplementedError

    length_unit: str = "studs"           # the unit its book measures in: 'studs', 'cm', 'in' (bow3d.units)

    def range_rings(self, params: Any = None, out_to_studs: float = 0.0) -> tuple[tuple[float, str], ...]:
        """Its range bands round a firer, nearest first: (radius in studs, what the band means in words),
        at least out to `out_to_studs` where the bands go on (a band every so many studs); () when it has none."""
        return ()

    def range_band(self, distance_studs: float, params: Any = None) -> tuple[float, str] | None:
        """The band a distance falls in: the nearest ring at or beyond it (radius in studs, its words), or
        None beyond every ring."""
        for radius, words in self.range_rings(params, distance_studs):
            if distance_studs <= radius + 1e-9:
                return radius, words
        return None

    def narrator(self, language: str | None = None) -> Narrator:
        """Its battle-log words in `language` (None: the language spoken, bow3d.i18n)."""
        raise NotImplementedError

    def player(self, side: str, rng: Any) -> Any:
        raise NotImplementedError

    # -- named opponents -----------------------------------------------------------------------
    def opponents(self) -> dict[str, str]:
        """Name -> version of every opponent a side may be given (`--blue greedy`); 'ai' is `player()`."""
        return {"ai": self.ai_version or "ai"}

    def retired_opponents(self) -> dict[str, Any]:
        """Version -> factory(side, rng) of opponents no longer named but kept so that the replays they
        played still re-derive their choices (a ruleset overrides this when its AI changed)."""
        return {}

    def clocked_opponents(self) -> tuple[str, ...]:
        """Versions of opponents, named today or no longer, whose choices depended on a clock (a search under
        a time budget): replay verify checks their records for legality and says why it re-derives none."""
        return ()

    def is_reproducible(self, version: str) -> bool:
        """Does the opponent of that version choose the same from the same seed (no clock)? Replay
        verify re-derives only those."""
        return version not in self.clocked_opponents() and (version == self.ai_version
                                                             or version in self.retired_opponents())

    def opponent(self, name: str, side: str, rng: Any) -> Any:
        """The opponent called `name` (or a version of one) playing `side`, tie-breaks on `rng`;
        UnknownOpponent lists the names. The player's `name` says what a replay header calls it."""
        retired = self.retired_opponents()
        if name in retired:
            player = retired[name](side, rng)
        elif name == "ai" or name == self.ai_version:
            player = self.player(side, rng)
        else:
            player = self._named_opponent(name, side, rng)
        if getattr(player, "name", None) is None:
            player.name = "ai"
        return player

    def _named_opponent(self, name: str, side: str, rng: Any) -> Any:
        """An opponent other than 'ai' (a ruleset with more overrides this)."""
        raise UnknownOpponent(_("unknown opponent {name!r} for {name2}; choose one of: {value}")
                              .format(name=name, name2=self.name, value=', '.join(self.opponents())))

    def army_costs(self, scene: Any) -> Any:
        return None

    mishap_kinds: tuple[str, ...] = ()  # what its players may do to their own side (the arena counts them)

    def mishap_tally(self, sides: dict[str, str]) -> Any:
        """An on_record hook (action, events) whose `.mishaps` lists (side, kind) as they happen, or None."""
        return None

    balance_tolerance_pct: float | None = None  # how far apart two armies' points may be (None: the book has no points)

    def balance_warning(self, totals: dict[str, int], tolerance_pct: float | None = None) -> str | None:
        """A warning when the armies' points (`army_costs`) are further apart than the tolerance, else None."""
        return None

    def add_odds_arguments(self, group: Any) -> None:
        """Add this ruleset's options of `bow3d odds` to an argparse group (the command shares --ruleset,
        --cover [LEVEL] and --json); names prefixed by nothing, so keep them distinct from others'."""

    def odds(self, args: Any) -> tuple[list[str], dict[str, Any]]:
        """The exact odds `bow3d odds` asks for: (lines to print, JSON-ready mapping)."""
        raise UserInputError(_("the ruleset {name} computes no odds yet").format(name=self.name))

    def cost_lines(self, scene: Any) -> Any:
        """Each unit's cost with the formula that gave it (or None when the book has no points)."""
        return None

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "edition": self.edition,
                "languages": list(self.languages), "book": self.book, "opponents": list(self.opponents())}


class UnknownRuleset(UserInputError):
    """A ruleset name that no registered ruleset has (the message lists the known ones)."""


class UnknownOpponent(UserInputError):
    """An opponent name that the ruleset does not have (the message lists its opponents)."""


class Registry:
    """Ruleset name -> Ruleset; the built-in ones are registered by bow3d.rulesets."""

    def __init__(self) -> None:
        self._rulesets: dict[str, Ruleset] = {}

    def register(self, ruleset: Ruleset) -> Ruleset:
        if not ruleset.name:
            raise ValueError("a ruleset needs a name")
        existing = self._rulesets.get(ruleset.name)
        if existing is not None and existing is not ruleset:
            raise ValueError(f"a ruleset named {ruleset.name!r} is registered already")
        self._rulesets[ruleset.name] = ruleset
        return ruleset

    def unregister(self, name: str) -> None:
        self._rulesets.pop(name, None)

    def get(self, name: str) -> Ruleset:
        try:
            return self._rulesets[name]
        except KeyError:
            raise UnknownRuleset(_("unknown ruleset {name!r}; known rulesets: {value}")
                                 .format(name=name, value=', '.join(self.names()) or 'none')
                                 ) from None

    def names(self) -> list[str]:
        return sorted(self._rulesets)

    def __contains__(self, name: object) -> bool:
        return name in self._rulesets

    def __iter__(self):
        return iter(self._rulesets[name] for name in self.names())


RULESETS = Registry()
"""The rulesets this process knows; bow3d.rulesets registers the built-in ones when imported."""
