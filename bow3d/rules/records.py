"""Actions as frozen values that round-trip through plain records (dicts with a "type" key).

Layer: rules (the engine; pure Python). A ruleset declares its actions as frozen dataclasses
derived from `Action` with a `TYPE`; `ActionTable` maps record types back to classes. Cells and
other tuples are written as lists and read back as tuples; numpy scalars become plain numbers.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import typing
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from bow3d.errors import RulesError
from bow3d.i18n import _


def value_or(obj: Any, name: str, default: Any = 0) -> Any:
    """A field of a sheet, a weapon or the ruleset's parameters, or `default` when it is missing or None
    (a scene's YAML leaves the optional fields it does not set as None): the one reading every ruleset uses."""
    value = getattr(obj, name, default)
    return default if value is None else value


def plain(value: Any) -> Any:
    """A value as JSON keeps it: tuples as lists, integral numbers as int, mappings of plain values."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if hasattr(value, "to_record"):
        return value.to_record()
    return value


def frozen(value: Any) -> Any:
    """A value read back from JSON made hashable: lists become tuples (recursively)."""
    if isinstance(value, list):
        return tuple(frozen(v) for v in value)
    return value


@dataclass(frozen=True)
class Action:
    """Base of every record a game accepts; subclasses set TYPE (the record's "type")."""

    TYPE: ClassVar[str] = ""
    FREE: ClassVar[bool] = False   # costs nothing of the activation's budget

    def to_record(self) -> dict[str, Any]:
        record: dict[str, Any] = {"type": self.TYPE}
        for f in dataclasses.fields(self):
            record[f.name] = plain(getattr(self, f.name))
        return record


def _type_problem(value: Any, kind: Any) -> str | None:
    """None when `value` (read back from JSON, lists made tuples) fits the annotation `kind`, else what
    it should have been."""
    import types
    import typing

    if kind is Any or kind is typing.Any:
        return None
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        problems = [_type_problem(value, arg) for arg in args]
        return None if any(p is None for p in problems) else " or ".join(p for p in problems if p)
    if kind is type(None):
        return None if value is None else "null"
    if kind is bool:
        return None if isinstance(value, bool) else "true or false"
    if kind is int:
        return None if isinstance(value, int) and not isinstance(value, bool) else "a whole number"
    if kind is float:
        ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
        return None if ok else "a finite number"
    if kind is str:
        return None if isinstance(value, str) else "text"
    if origin is tuple:
        if not isinstance(value, tuple):
            return "a list"
        if len(args) == 2 and args[1] is Ellipsis:
            problems = [_type_problem(v, args[0]) for v in value]
        elif len(value) != len(args):
            return f"a list of {len(args)}"
        else:
            problems = [_type_problem(v, a) for v, a in zip(value, args)]
        return next((f"a list of {p}" for p in problems if p), None)
    return None  # other annotations (a chance spec...) are checked by their class


class ActionTable:
    """Record type -> Action class, for reading records back (a ruleset's actions plus the engine's)."""

    def __init__(self, classes: Iterable[type[Action]]) -> None:
        self.classes: dict[str, type[Action]] = {}
        for cls in classes:
            if not cls.TYPE or cls.TYPE in self.classes:
                raise ValueError(f"action type {cls.TYPE!r} of {cls.__name__} is empty or taken")
            self.classes[cls.TYPE] = cls

    def parse(self, record: Any) -> Action:
        """The Action a record stands for; RulesError naming the problem for a malformed record."""
        if not isinstance(record, dict) or record.get("type") not in self.classes:
            known = ", ".join(sorted(self.classes))
            raise RulesError(_("record {record!r}: unknown action type (known: {known})")
                             .format(record=record, known=known))
        cls = self.classes[record["type"]]
        hints = typing.get_type_hints(cls)
        kwargs = {}
        for f in dataclasses.fields(cls):
            if f.name not in record:
                if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING:
                    continue
                raise RulesError(_("record {record!r}: missing field '{name}' for a {TYPE} action")
                                 .format(record=record, name=f.name, TYPE=cls.TYPE))
            value = frozen(record[f.name])
            problem = _type_problem(value, hints.get(f.name, Any))
            if problem is not None:
                raise RulesError(_("record {record!r}: field '{name}' of a {TYPE} action must be "
                                   "{problem}").format(record=record, name=f.name, TYPE=cls.TYPE, problem=problem))
            kwargs[f.name] = value
        extra = set(record) - {"type"} - {f.name for f in dataclasses.fields(cls)}
        if extra:
            raise RulesError(_("record {record!r}: unknown field(s) {value} for a {TYPE} action")
                             .format(record=record, value=', '.join(sorted(extra)), TYPE=cls.TYPE))
        try:
            return cls(**kwargs)
        except (TypeError, ValueError) as error:
            raise RulesError(_("record {record!r}: {error}").format(record=record, error=error)) from None
