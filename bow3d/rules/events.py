"""Typed events: what happened when a record was applied, as a kind plus structured fields.

Layer: rules (the engine; pure Python). An Event holds no words: `kind` (a short word), the round
and plain fields. Sentences are written at the edges by a ruleset's narrator, per language
(`Narrator`), so rewording or translating a message changes no replay and no verification.

Each ruleset documents its kinds with an `EventSchema` (kind -> field name -> type and meaning),
which tests snapshot and check every produced event against.

More: docs/modules/rules.md#events.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from bow3d.rules.records import plain


@dataclass(frozen=True)
class Event:
    """One thing that happened: its kind, the round it happened in, and its fields."""

    kind: str
    round: int
    data: dict[str, Any] = field(default_factory=dict)

    def to_record(self) -> dict[str, Any]:
        """JSON-ready: {"type": kind, "round": ..., fields...}; floats rounded to 6 decimals."""
        record: dict[str, Any] = {"type": self.kind, "round": self.round}
        for key, value in self.data.items():
            record[key] = _rounded(plain(value))
        return record

    def get(self, name: str, default: Any = None) -> Any:
        return self.data.get(name, default)


def event_from_record(record: Mapping[str, Any]) -> Event:
    """An Event back from its record ({"type", "round", fields...})."""
    data = {k: v for k, v in record.items() if k not in ("type", "round")}
    return Event(str(record.get("type", "?")), int(record.get("round", 0) or 0), data)


def _rounded(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, 6)
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    return value


# -- schemas ---------------------------------------------------------------------------------

FIELD_TYPES = ("str", "int", "float", "bool", "id", "cell", "point", "list", "dict", "any")


@dataclass(frozen=True)
class FieldSpec:
    """One field of an event kind: its type word (FIELD_TYPES, '?' suffix = may be null) and meaning."""

    type: str
    meaning: str


@dataclass(frozen=True)
class EventKind:
    """The documented schema of one event kind."""

    kind: str
    meaning: str
    fields: Mapping[str, FieldSpec]


ENGINE_KINDS = (
    EventKind("roll_requested", "a chance throw is awaited", {
        "side": FieldSpec("id", "the side that throws"),
        "spec": FieldSpec("dict", "what is thrown (a chance spec record: kind and its fields)"),
        "purpose": FieldSpec("str", "what the throw is for (a machine word of the ruleset)"),
        "about": FieldSpec("dict", "the ids the throw is about (unit, target, vehicle...)")}),
    EventKind("rolled", "a chance throw and its outcome", {
        "side": FieldSpec("id", "the side that threw"),
        "spec": FieldSpec("dict", "what was thrown"),
        "purpose": FieldSpec("str", "what the throw is for"),
        "about": FieldSpec("dict", "the ids the throw is about"),
        "outcome": FieldSpec("any", "the outcome, as the spec defines it")}),
    EventKind("decision_requested", "another player's decision is awaited", {
        "side": FieldSpec("id", "the side that decides"),
        "decision": FieldSpec("str", "what is decided (a machine word of the ruleset)"),
        "options": FieldSpec("list", "the choices"),
        "about": FieldSpec("dict", "the ids the decision is about")}),
    EventKind("decided", "a decision and the choice made", {
        "side": FieldSpec("id", "the side that decided"),
        "decision": FieldSpec("str", "what was decided"),
        "options": FieldSpec("list", "the choices"),
        "about": FieldSpec("dict", "the ids the decision is about"),
        "choice": FieldSpec("any", "the choice made")}),
)


class EventSchema:
    """Kind -> documented fields for one ruleset (the engine's kinds included)."""

    def __init__(self, kinds: Iterable[EventKind]) -> None:
        self.kinds: dict[str, EventKind] = {}
        for kind in (*ENGINE_KINDS, *kinds):
            if kind.kind in self.kinds:
                raise ValueError(f"event kind {kind.kind!r} is described twice")
            for spec in kind.fields.values():
                if spec.type.rstrip("?") not in FIELD_TYPES:
                    raise ValueError(f"{kind.kind}: unknown field type {spec.type!r}")
            self.kinds[kind.kind] = kind

    def check(self, record: Mapping[str, Any]) -> str | None:
        """None when the event record fits its kind, else one line saying what does not."""
        kind = self.kinds.get(str(record.get("type")))
        if kind is None:
            return f"unknown event kind {record.get('type')!r}"
        if not isinstance(record.get("round"), int):
            return f"{kind.kind}: round must be a whole number"
        names = set(record) - {"type", "round"}
        if names != set(kind.fields):
            missing, extra = set(kind.fields) - names, names - set(kind.fields)
            return f"{kind.kind}: fields missing {sorted(missing)}, unexpected {sorted(extra)}"
        for name, spec in kind.fields.items():
            if not _fits(record[name], spec.type):
                return f"{kind.kind}.{name}: {record[name]!r} is not a {spec.type}"
        return None

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready documentation (for snapshots and `bow3d schema events`)."""
        return {k.kind: {"meaning": k.meaning, "fields": {n: {"type": f.type, "meaning": f.meaning}
                                                          for n, f in k.fields.items()}}
                for k in sorted(self.kinds.values(), key=lambda k: k.kind)}


def _fits(value: Any, type_word: str) -> bool:
    if type_word.endswith("?"):
        if value is None:
            return True
        type_word = type_word[:-1]
    checks = {
        "str": lambda v: isinstance(v, str), "id": lambda v: isinstance(v, str),
        "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "float": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
        "bool": lambda v: isinstance(v, bool), "list": lambda v: isinstance(v, list),
        "dict": lambda v: isinstance(v, dict), "any": lambda v: True,
        "cell": lambda v: isinstance(v, list) and len(v) == 2 and all(isinstance(c, int) for c in v),
        "point": lambda v: isinstance(v, list) and len(v) in (2, 3) and all(
            isinstance(c, int | float) and not isinstance(c, bool) for c in v),
    }
    return checks[type_word](value)


class Narrator:
    """Words at the edges: a ruleset's sentences for its events, in one language.

    `line(event, following)` is the battle-log line of one event (`following`: the events after it
    in the same record, for a result that says who died); None keeps an event out of the log.
    """

    language = "en"
    results: Mapping[str, str] = MappingProxyType({})   # the ruleset's result codes ('win', ...) -> words (N_-marked)
    quiet_kinds: frozenset[str] = frozenset()           # events a battle log leaves out (what a throw repeats)

    def line(self, event: Event, following: Sequence[Event] = ()) -> str | None:
        raise NotImplementedError

    def log_line(self, event: Event, following: Sequence[Event] = ()) -> str | None:
        """The line for a battle log (the report, the film's log): None for the quiet kinds."""
        return None if event.kind in self.quiet_kinds else self.line(event, following)

    def result(self, code: str) -> str:
        """How a game ended (the rules' result code of its game_over event) in this narrator's language; a
        code the ruleset has no words for, as it is."""
        from bow3d.i18n import speaking, term

        with speaking(self.language):
            return term(self.results, code)

    def lines(self, events: Sequence[Event]) -> list[str]:
        """The log lines of the events of one record, in order."""
        out = []
        for i, event in enumerate(events):
            text = self.line(event, events[i + 1:])
            if text is not None:
                out.append(text)
        return out
