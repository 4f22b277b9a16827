"""Strict, bounded readers of YAML (scene files) and JSON (replays): hostile text costs little.

Layer: bottom (imports only bow3d.errors; PyYAML and the standard json).

More: docs/modules/base.md#textformats.
"""

from __future__ import annotations

import contextlib
import gc
import json
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import yaml

from bow3d.errors import UserInputError
from bow3d.i18n import N_, _, integer, marked, semicolon

MAX_DEPTH = 64  # nested mappings/lists (YAML) or objects/arrays (JSON); bow3d's own files use under 10
MAX_ALIASES = 1000  # alias uses (*name) in one YAML document
MAX_ALIAS_NODES = 100_000  # nodes that aliases may add once expanded
MAX_YAML_CHARS = 4_000_000  # a scene of 10,000 units is under 1 MB
MAX_YAML_VALUES = 200_000  # scalars, lists, mappings and aliases in one YAML document (memory stays small)
MAX_ENTRIES = 10_000  # items of one YAML list or keys of one mapping
MAX_INT_DIGITS = 100  # digits of one integer (a seed fits; 4,300 is Python's own limit)
MAX_LISTED = 20  # problems listed in one error message; the rest are counted

FieldPath = tuple[str | int, ...]
ErrorType = type[UserInputError]

_C_LOADER = getattr(yaml, "CSafeLoader", None)  # libyaml when installed: same results, faster
_PARSER = _C_LOADER or yaml.SafeLoader
_START_EVENTS = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
_END_EVENTS = (yaml.MappingEndEvent, yaml.SequenceEndEvent)
_MERGE_TAG = "tag:yaml.org,2002:merge"


def format_path(path: FieldPath) -> str:
    """('units', 3, 'sheet') -> 'units[3].sheet'; () -> '(top level)'."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(top level)"


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """Building a big tree of new objects triggers full collections again and again (a 9 MB scene:
    11 s instead of 2 s); nothing built here holds a cycle worth collecting meanwhile."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


# YAML


@dataclass(frozen=True)
class YamlDocument:
    """A YAML document read strictly: its plain data, and its node tree (lines of every field)."""

    data: Any
    root: yaml.Node | None


class _Refused(Exception):
    """A construction-time refusal: the node it concerns, what is wrong and the fix."""

    def __init__(self, node: yaml.Node, problem: str, fix: str):
        super().__init__(problem)
        self.node, self.problem, self.fix = node, problem, fix


def load_yaml(text: str, source: str, *, error: ErrorType = UserInputError) -> Any:
    """The data of one YAML document, read strictly and within bounds (see the module doc)."""
    return load_yaml_document(text, source, error=error).data


def load_yaml_document(text: str, source: str, *, error: ErrorType = UserInputError) -> YamlDocument:
    """One YAML document read strictly: limits checked on the event stream first (no recursion),
    then composed (libyaml), aliases measured, and built with duplicate keys and huge integers refused."""
    aliases = _scan_yaml_events(text, source, error)
    try:
        with _gc_paused():
            root = yaml.compose(text, Loader=_PARSER)
    except yaml.YAMLError as problem:
        raise _syntax_error(problem, source, error) from None
    if root is None:
        return YamlDocument(None, None)
    if aliases:
        _check_alias_expansion(root, source, error)
    constructor = _StrictConstructor()
    try:
        with _gc_paused():
            data = constructor.construct_document(root)
    except _Refused as refused:
        path = format_path(_path_to(root, refused.node) or ())
        raise error(f"{source}:{refused.node.start_mark.line + 1}: {path}: {refused.problem}{semicolon()}{refused.fix}") from None
    except yaml.YAMLError as problem:
        raise _syntax_error(problem, source, error) from None
    return YamlDocument(data, root)


# PyYAML's words for the syntax errors people make most, in the language spoken (any other stays as it says it)
YAML_PROBLEMS = {
    "mapping values are not allowed here": N_("a ':' where no key can start (a value on a key's line, or a line "
                                              "indented too far)"),
    "mapping values are not allowed in this context": N_("a ':' where no key can start (a value on a key's line, or "
                                                         "a line indented too far)"),
    "could not find expected ':'": N_("a key without its ':'"),
    "did not find expected key": N_("a line indented unlike its neighbours"),
    "did not find expected '-' indicator": N_("a list item without its '-'"),
    "found character '\\t' that cannot start any token": N_("a tab (YAML indents with spaces only)"),
    "found character that cannot start any token": N_("a character no YAML line can start with (a tab? YAML "
                                                      "indents with spaces only)"),
    "found unexpected end of stream": N_("the file ends inside a quoted text"),
    "did not find expected ',' or ']'": N_("a '[' never closed (or a ',' missing between its items)"),
    "did not find expected ',' or '}'": N_("a curly bracket never closed (or a ',' missing between its items)"),
    "found unexpected ':'": N_("an unexpected ':'"),
}


def _syntax_error(problem: yaml.YAMLError, source: str, error: ErrorType) -> UserInputError:
    mark = getattr(problem, "problem_mark", None)
    where = f":{mark.line + 1}" if mark is not None else ""
    what = getattr(problem, "problem", None) or str(problem).splitlines()[0]
    if "maximum nesting depth" in what:  # libyaml 0.2.6+ (PyYAML 6.0.4 wheels) stops runaway nesting itself,
        # while scanning ahead, before _scan_yaml_events sees the start events: the same words either way
        return error(_("{source}{where}: (YAML): nested deeper than {depth} levels; a scene needs far fewer: look "
                       "for runaway brackets or indentation").format(source=source, where=where, depth=MAX_DEPTH))
    what = marked(YAML_PROBLEMS[what]) if what in YAML_PROBLEMS else what
    return error(_("{source}{where}: (YAML): {what}; fix the YAML syntax (indentation, a missing ':' or an unclosed "
                   "bracket)").format(source=source, where=where, what=what))


def _scan_yaml_events(text: str, source: str, error: ErrorType) -> int:
    """Size, depth, entries and alias count from libyaml's event stream (iterative: safe at any
    depth); stops at the first excess. Returns the number of aliases."""
    if len(text) > MAX_YAML_CHARS:
        raise error(f"{source}: {len(text):,} characters, more than a scene file holds ({MAX_YAML_CHARS:,}); "
                    "check that this is the right file")
    parser = _PARSER(text)
    aliases = values = 0
    entries: list[list] = []  # per open list/mapping: [values in it, its start event]
    try:
        while parser.check_event():
            event = parser.get_event()
            if isinstance(event, _END_EVENTS):
                entries.pop()
                continue
            if not isinstance(event, (yaml.ScalarEvent, yaml.AliasEvent, *_START_EVENTS)):
                continue
            values += 1
            if values > MAX_YAML_VALUES:
                raise error(f"{source}:{event.start_mark.line + 1}: (YAML): more than {MAX_YAML_VALUES:,} values; "
                            "a scene needs far fewer: check that this is the right file")
            if entries:
                top = entries[-1]
                top[0] += 1
                if top[0] > MAX_ENTRIES * (2 if isinstance(top[1], yaml.MappingStartEvent) else 1):
                    what = "keys" if isinstance(top[1], yaml.MappingStartEvent) else "items"
                    raise error(f"{source}:{top[1].start_mark.line + 1}: (YAML): more than {MAX_ENTRIES:,} {what} "
                                "in one mapping or list; a scene needs far fewer")
            if isinstance(event, _START_EVENTS):
                entries.append([0, event])
                if len(entries) > MAX_DEPTH:
                    raise error(f"{source}:{event.start_mark.line + 1}: (YAML): nested deeper than {MAX_DEPTH} "
                                "levels; a scene needs far fewer: look for runaway brackets or indentation")
            elif isinstance(event, yaml.AliasEvent):
                aliases += 1
                if aliases > MAX_ALIASES:
                    raise error(f"{source}:{event.start_mark.line + 1}: (YAML): more than {MAX_ALIASES} aliases "
                                "(*name); write the values out")
    except yaml.YAMLError as problem:
        raise _syntax_error(problem, source, error) from None
    finally:
        parser.dispose()
    return aliases


def _check_alias_expansion(root: yaml.Node, source: str, error: ErrorType) -> None:
    """Refuse aliases that expand past MAX_ALIAS_NODES nodes, or that point into their own anchor."""
    distinct: set[int] = set()
    sizes: dict[int, int] = {}
    active: set[int] = set()

    def size(node: yaml.Node) -> int:  # depth is bounded by MAX_DEPTH: plain recursion is safe
        key = id(node)
        if key in sizes:
            return sizes[key]
        if key in active:
            raise error(f"{source}:{node.start_mark.line + 1}: (YAML): an alias inside its own anchor "
                        "(a recursive structure); write the values out")
        active.add(key)
        distinct.add(key)
        children = (node.value if isinstance(node, yaml.SequenceNode) else
                    [n for pair in node.value for n in pair] if isinstance(node, yaml.MappingNode) else [])
        total = 1 + sum(size(child) for child in children)
        active.discard(key)
        sizes[key] = total
        return total

    expanded = size(root)
    if expanded - len(distinct) > MAX_ALIAS_NODES:
        raise error(f"{source}:1: (YAML): aliases expand to {expanded:,} values (more than "
                    f"{MAX_ALIAS_NODES:,} added); write the values out instead of nesting aliases")


class _StrictConstructor(yaml.constructor.SafeConstructor):
    """PyYAML's safe constructor, refusing duplicate keys and integers of more than MAX_INT_DIGITS digits."""

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep=deep)
        except (_Refused, yaml.YAMLError):
            raise
        except (ValueError, TypeError, IndexError, AttributeError, KeyError, OverflowError) as problem:
            # PyYAML's own constructors fail like this on an explicit tag with a wrong value (!!int '')
            tag = node.tag.rsplit(":", 1)[-1]
            raise _Refused(node, _("cannot be read as a {tag} ({problem})").format(tag=tag, problem=_short(problem, 60)),
                           _("write a plain value without a '!!' tag")) from None

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        if isinstance(node, yaml.MappingNode):
            seen: dict[Any, yaml.Node] = {}
            for key_node, _value in node.value:
                if key_node.tag == _MERGE_TAG:
                    continue  # '<<' merges: keys written here override merged ones (YAML 1.1)
                key = self.construct_object(key_node, deep=True)
                try:
                    first = seen.setdefault(key, key_node)
                except TypeError:
                    continue  # unhashable: PyYAML's own message follows
                if first is not key_node:
                    raise _Refused(key_node, _("key '{key}' written twice (first on line {line})").format(
                        key=_short(key), line=first.start_mark.line + 1), _("keep one of them"))
        return super().construct_mapping(node, deep=deep)

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int:
        digits = sum(c.isalnum() for c in str(node.value))
        if digits > MAX_INT_DIGITS:
            raise _Refused(node, _("an integer of {digits} digits").format(digits=integer(digits)),
                           _("write a number of at most {most} digits").format(most=MAX_INT_DIGITS))
        return super().construct_yaml_int(node)


_StrictConstructor.add_constructor("tag:yaml.org,2002:int", _StrictConstructor.construct_yaml_int)


def _path_to(root: yaml.Node, target: yaml.Node) -> FieldPath | None:
    """The field path of `target` (a node, or a mapping's key node) in the tree; None when not found."""
    stack: list[tuple[yaml.Node, FieldPath]] = [(root, ())]
    seen: set[int] = set()
    while stack:
        node, path = stack.pop()
        if node is target:
            return path
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.SequenceNode):
            stack.extend((child, path + (i,)) for i, child in enumerate(node.value))
        elif isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                name = str(key.value) if isinstance(key, yaml.ScalarNode) else "?"
                if key is target:
                    return path + (name,)
                stack.append((value, path + (name,)))
    return None


def _short(value: Any, limit: int = 40) -> str:
    text = str(value)
    return text if len(text) <= limit else text[:limit] + "..."


# JSON

_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_JSON_BRACKETS = re.compile(r"[^\[\]{}]+")


class _Duplicate(dict):
    """An object with a key written twice: kept as a marker, reported with its path after decoding."""

    def __init__(self, pairs: list[tuple[str, Any]], key: str):
        super().__init__(pairs)
        self.duplicate = key


class _Huge:
    """A number refused while decoding (json's hooks cannot raise with a path): reported afterwards."""

    def __init__(self, problem: str):
        self.problem = problem


def load_json(text: str, source: str, *, error: ErrorType = UserInputError) -> Any:
    """One JSON document, strict and bounded (see the module doc); errors name `source` and the field."""
    return _load_json(text, source, None, error)


def load_json_line(text: str | bytes, source: str, line: int, *, error: ErrorType = UserInputError) -> Any:
    """One line of a JSON Lines file (e.g. a replay), strict and bounded; errors name `source:line`."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as problem:
            raise error(f"{source}:{line}: not UTF-8 text (byte {problem.start} of the line); the file is "
                        "corrupted") from None
    return _load_json(text, source, line, error)


def _load_json(text: str, source: str, line: int | None, error: ErrorType) -> Any:
    _check_json_depth(text, source, line, error)
    flags: list[_Duplicate | _Huge] = []

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict:
        obj = dict(pairs)
        if len(obj) != len(pairs):
            seen: set[str] = set()
            for key, _value in pairs:   # the first key written again
                if key in seen:
                    break
                seen.add(key)
            duplicate = _Duplicate(pairs, key)
            flags.append(duplicate)
            return duplicate
        return obj

    def parse_int(digits: str) -> int | _Huge:
        if len(digits.lstrip("-")) > MAX_INT_DIGITS:
            huge = _Huge(f"an integer of {len(digits.lstrip('-')):,} digits; at most {MAX_INT_DIGITS} are read")
            flags.append(huge)
            return huge
        return int(digits)

    def parse_float(digits: str) -> float | _Huge:
        value = float(digits)
        if not math.isfinite(value):
            huge = _Huge(f"the number {_short(digits, 20)} is too large")
            flags.append(huge)
            return huge
        return value

    def parse_constant(name: str) -> _Huge:
        huge = _Huge(f"{name} is not a JSON number")
        flags.append(huge)
        return huge

    try:
        data = json.loads(text, object_pairs_hook=pairs_hook, parse_int=parse_int, parse_float=parse_float,
                          parse_constant=parse_constant)
    except json.JSONDecodeError as problem:
        where = f":{line}" if line is not None else f":{problem.lineno}"
        raise error(f"{source}{where}: not valid JSON ({problem.msg} at column {problem.colno}); the file is "
                    "corrupted or was not written by bow3d") from None
    if flags:
        _raise_json_flag(data, flags[0], source, line, error)
    return data


def _check_json_depth(text: str, source: str, line: int | None, error: ErrorType) -> None:
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    depth = 0
    for char in _JSON_BRACKETS.sub("", _JSON_STRING.sub('""', text)):
        depth += 1 if char in "[{" else -1
        if depth > MAX_DEPTH:
            raise error(f"{source}:{line or 1}: nested deeper than {MAX_DEPTH} levels; the file is corrupted or "
                        "was not written by bow3d")


def _raise_json_flag(data: Any, flag: _Duplicate | _Huge, source: str, line: int | None, error: ErrorType) -> None:
    stack: list[tuple[Any, FieldPath]] = [(data, ())]
    while stack:
        value, path = stack.pop()
        if value is flag:
            break
        if isinstance(value, dict):
            stack.extend((v, path + (k,)) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, path + (i,)) for i, v in enumerate(value))
    else:
        path = ()
    if isinstance(flag, _Duplicate):
        where = format_path(path)
        raise error(f"{source}:{line or 1}: {where}: key '{_short(flag.duplicate)}' written twice; keep one of them")
    raise error(f"{source}:{line or 1}: {format_path(path)}: {flag.problem}")
