"""`Game`: the engine's façade, check-then-apply over a ruleset, with explicit chance and decisions.

Layer: rules (pure Python; no random, no clock, no world import). Modelled after python-chess
(`legal_actions()` and `apply()` share one checker, an applied-record stack, `pop()`) and
OpenSpiel (chance is an explicit, recorded answer). The game system is a `Ruleset`
(bow3d.rules.ruleset); the geometry is anything implementing the Geometry protocol.

More: docs/modules/rules.md#game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from bow3d.i18n import _
from bow3d.rules import pending as answers
from bow3d.rules.chance import ChanceRequest, Roll
from bow3d.rules.events import Event
from bow3d.rules.pending import Decide, DecisionRequest
from bow3d.rules.records import Action
from bow3d.rules.refusal import Reason, Refusal
from bow3d.rules.ruleset import RULESETS, Ruleset

MEMO_LIMIT = 4096   # geometry answers kept until the next record


class Game:
    """One game of a ruleset on a scene and a geometry.

    `apply(record)` checks, then applies and returns the events; an illegal record raises
    `Illegal` and leaves the state and the geometry unchanged. `pop()` takes the last record back.
    """

    def __init__(self, ruleset: Ruleset, ctx: Any, state: Any, options: dict[str, Any] | None = None) -> None:
        self.ruleset = ruleset
        self.ctx = ctx
        self.state = state
        self.options = dict(options or {})
        self.records: list[dict[str, Any]] = []      # the applied-record stack
        self.events: list[Event] = []                 # every event so far
        self._undo: list[tuple[Any, int]] = []        # state before each record, events count then
        self._memo: dict[tuple, Any] = {}

    # -- construction --------------------------------------------------------------------
    @classmethod
    def start(cls, scene: Any, geometry: Any, *, ruleset: Ruleset | None = None, **options: Any) -> Game:
        """A new game: the ruleset's starting state, the geometry put in step, its first events.

        `ruleset` defaults to the registered one named by `scene.ruleset.name`; `options` go to the
        ruleset's context (e.g. a round limit).
        """
        ruleset = ruleset or RULESETS.get(scene.ruleset.name)
        ctx = ruleset.context(scene, geometry, **options)
        game = cls(ruleset, ctx, ruleset.initial_state(ctx), options)
        ruleset.place_bodies(game)
        game.events.extend(ruleset.begin(game))
        return game

    @classmethod
    def from_records(cls, scene: Any, geometry: Any, records: Iterable[dict[str, Any]], **start_kwargs: Any) -> Game:
        """Re-simulate: a fresh game on which every record is applied in order."""
        game = cls.start(scene, geometry, **start_kwargs)
        for _record in game.replay(records):
            pass
        return game

    def replay(self, records: Iterable[Any], before: Callable[[int, Any, Action], None] | None = None
               ) -> Iterator[tuple[int, Action, list[Event]]]:
        """The one re-simulation loop (from_records, replay verify, the film's timeline): read each
        record, let `before(index, record, action)` look at the game first (it may raise to stop),
        apply it; yields (index, action, events). RulesError for a malformed or illegal record."""
        for index, record in enumerate(records):
            action = self.parse(record)
            if before is not None:
                before(index, record, action)
            yield index, action, self.apply(action)

    def parse(self, record: Any) -> Action:
        """The action or answer a record stands for in this game's ruleset (RulesError if malformed)."""
        return self.ruleset.parse(record)

    # -- queries -------------------------------------------------------------------------
    @property
    def geometry(self) -> Any:
        return self.ctx.geometry

    @property
    def scene(self) -> Any:
        return self.ctx.scene

    @property
    def pending(self) -> ChanceRequest | DecisionRequest | None:
        """The answer the game waits for (a throw or another player's decision), or None."""
        return answers.awaited(self)

    @property
    def pending_roll(self) -> ChanceRequest | None:
        """The throw the game waits for, or None."""
        request = self.pending
        return request if isinstance(request, ChanceRequest) else None

    @property
    def is_over(self) -> bool:
        return self.ruleset.is_over(self.state)

    @property
    def winner(self) -> str | None:
        return self.ruleset.winner(self.state)

    @property
    def result(self) -> str | None:
        return self.ruleset.result(self.state)

    @property
    def side_to_play(self) -> str | None:
        """The side whose answer or action the game waits for."""
        request = self.pending
        if request is not None:
            return request.side
        return None if self.is_over else self.ruleset.side_to_play(self.state)

    def refusal(self, action: Action) -> Refusal | None:
        """The typed reason the action (or answer) is illegal now, or None: the one checker."""
        if self.is_over:
            return Refusal(Reason.GAME_OVER, _("the game is over"))
        if isinstance(action, Roll):
            return answers.check_roll(self, action)
        if isinstance(action, Decide):
            return answers.check_decide(self, action)
        rules = self.ruleset.rules_for(type(action))
        if rules is None:
            return Refusal(Reason.UNKNOWN, _("{action} is not an action of {ruleset}").format(
                action=type(action).__name__, ruleset=self.ruleset.name))
        request = self.pending
        if isinstance(request, ChanceRequest):
            return Refusal(Reason.ROLL_PENDING, _("waiting for {side} to throw {spec} ({purpose})").format(
                side=request.side, spec=request.spec.to_record(), purpose=request.purpose))
        if request is not None:
            return Refusal(Reason.DECISION_PENDING, _("waiting for {side} to decide ({decision})").format(
                side=request.side, decision=request.decision))
        return rules[0](self, action)

    def check(self, action: Action) -> str | None:
        """The words saying why the action is illegal now, or None."""
        refusal = self.refusal(action)
        return None if refusal is None else refusal.words

    def legal_actions(self) -> list[Action]:
        """The ruleset's candidate actions that the checker accepts (empty while an answer is
        awaited or the game is over); see the ruleset for which candidates it lists."""
        if self.is_over or self.state.pending is not None:
            return []
        seen: set[Action] = set()
        legal: list[Action] = []
        for action in self.ruleset.candidates(self):
            if action not in seen and self.refusal(action) is None:
                seen.add(action)
                legal.append(action)
        return legal

    def ask(self, question: str, *args: Any) -> Any:
        """`geometry.<question>(*args)`, remembered until the next record (the checker, the
        candidates and an AI ask the same questions many times between two records)."""
        key = (question, args)
        try:
            return self._memo[key]
        except KeyError:
            pass
        if len(self._memo) >= MEMO_LIMIT:
            self._memo.clear()
        value = self._memo[key] = getattr(self.geometry, question)(*args)
        return value

    # -- applying ------------------------------------------------------------------------
    def apply(self, action: Action) -> list[Event]:
        """Check, then apply an action or an answer; returns its events; raises Illegal."""
        refusal = self.refusal(action)
        if refusal is not None:
            raise refusal.error()
        self._memo.clear()
        self._undo.append((self.state.copy(), len(self.events)))
        if isinstance(action, Roll | Decide):
            events = answers.apply_answer(self, action)
        else:
            rules = self.ruleset.rules_for(type(action))
            assert rules is not None  # refusal() refuses an action without rules
            events = rules[1](self, action)
        events.extend(self.ruleset.after_record(self))
        self.records.append(action.to_record())
        self.events.extend(events)
        return events

    def pop(self) -> dict[str, Any]:
        """Take back the last applied record (python-chess `Board.pop`): the state, the events and the
        geometry return to what they were before it; returns the record. IndexError when none."""
        if not self._undo:
            raise IndexError("no applied record to take back")
        before, n_events = self._undo.pop()
        record = self.records.pop()
        del self.events[n_events:]
        self.ruleset.restore(self, before)
        self.state = before
        self._memo.clear()
        return record

    def event(self, kind: str, /, **data: Any) -> Event:
        """An event of the current round."""
        return Event(kind, self.state.round, data)

    def copy(self, geometry: Any = None) -> Game:
        """An independent game on the same scene (for playouts): `geometry` must be a copy of this
        game's geometry in the same state; default the same one."""
        ctx = self.ruleset.context(self.ctx.scene, geometry or self.ctx.geometry, **self.options)
        ctx.__dict__.update({k: v for k, v in self.ctx.__dict__.items() if k not in ("geometry",)})
        game = Game(self.ruleset, ctx, self.state.copy(), self.options)
        game.records = list(self.records)
        game.events = list(self.events)
        game._undo = list(self._undo)
        return game
