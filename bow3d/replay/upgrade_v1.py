"""Read a version-1 replay as version 2: facts instead of sentences.

Layer: replay. Version 1 (every replay written before the rulesets engine) was BOW 1.3 only: its
brick-roll records were `{"type": "roll", "side", "bricks", "edges"}`, its events carried an
English `text`, a few facts lived only in that text (the tied result of a starting roll, who a
vehicle stopped against...) and a roll's purpose was a phrase ("attack/damage: blue-3 on red-2").
This upgrade, run once on reading, turns each into version 2: the roll record names its chance
spec (BOW bricks with the header's edge probability), the purpose becomes a machine word plus
the ids it is about, the facts the text held become fields, and the text is dropped. It reads
only the fixed phrases the version-1 writer produced (each pattern below is one f-string of that
writer); anything else is refused with the line, so a hand-edited file is never guessed at.
Version-1 chance was always the seeded stream (numpy's default generator seeded [seed, 0]).
"""

from __future__ import annotations

import re
from typing import Any

from bow3d.errors import ReplayError
from bow3d.i18n import _

GENERATOR = "numpy-pcg64"   # numpy.random.default_rng: the version-1 runner's generator
AI = "bow-ai-1"             # the AI that played every version-1 game
SIGHT = "surface-samples-1" # the sight method that refereed them
DEFAULT_P = 0.262           # version 1 wrote BOW 1.3's default when the scene named none

_ID = r"([A-Za-z0-9][A-Za-z0-9_.\-]*)"
_PURPOSES = [  # (pattern of the version-1 phrase, purpose, names of the ids it captures)
    (re.compile(r"starting player"), "starting_player", ()),
    (re.compile(rf"attack/damage: {_ID} on {_ID}"), "attack", ("unit", "target")),
    (re.compile(rf"dodge/armor: {_ID}"), "dodge", ("target",)),
    (re.compile(rf"visibility dispute: {_ID} sees {_ID}"), "dispute_sees", ("unit", "target")),
    (re.compile(rf"visibility dispute: {_ID} is hidden"), "dispute_hidden", ("target",)),
    (re.compile(rf"treat/repair: {_ID} on {_ID}"), "treat", ("unit", "target")),
    (re.compile(rf"damage points of {_ID}"), "damage_points", ("target",)),
    (re.compile(rf"crash speed of {_ID}"), "crash_speed", ("vehicle",)),
    (re.compile(rf"collision speed of {_ID}"), "collision_speed", ("vehicle",)),
    (re.compile(rf"relative speed against {_ID}"), "relative_speed", ("vehicle",)),
]
_TIE = re.compile(r"tie at (\d+) between ")
_STARTS = re.compile(r" starts \((\d+) on edge\)$")
_AGAINST = re.compile(rf" stops against {_ID}$")
_DISPUTE = re.compile(r"visibility dispute (\d+) against (\d+): ")


def _purpose(phrase: Any, where: str) -> tuple[str, dict[str, str]]:
    for pattern, purpose, names in _PURPOSES:
        match = pattern.fullmatch(phrase) if isinstance(phrase, str) else None
        if match:
            return purpose, dict(zip(names, match.groups()))
    raise ReplayError(_("{where}: roll purpose {phrase!r} is not one a version-1 replay can hold")
                      .format(where=where, phrase=phrase))


def _number(pattern: re.Pattern, text: str, where: str, group: int = 1) -> int:
    match = pattern.search(text)
    if match is None:
        raise ReplayError(_("{where}: version-1 text {text!r} does not say what its event needs")
                          .format(where=where, text=text))
    return int(match.group(group))


def _bricks(count: Any, p: float) -> dict[str, Any]:
    return {"kind": "bricks", "n": count, "p": p}


def upgrade_event(event: Any, p: float, where: str) -> dict[str, Any]:
    """One version-1 event as version 2 (its text read for the facts only it held, then dropped)."""
    if not isinstance(event, dict):
        raise ReplayError(_("{where}: an event must be an object, got {event!r}").format(where=where, event=event))
    event = dict(event)
    text = event.pop("text", "")
    text = text if isinstance(text, str) else ""
    kind = event.get("type")
    if kind in ("roll_requested", "rolled"):
        purpose, about = _purpose(event.pop("purpose", None), where)
        new = {"type": kind, "round": event.get("round"), "side": event.get("side"),
               "spec": _bricks(event.get("bricks"), p), "purpose": purpose, "about": about}
        if kind == "rolled":
            new["outcome"] = event.get("edges")
        return new
    if kind == "starting_tie":
        event["edges"] = _number(_TIE, text, where)
    elif kind == "starting_player":
        event["edges"] = _number(_STARTS, text, where)
    elif kind == "stopped":
        match = _AGAINST.search(text)
        event["against"] = match.group(1) if match else None
    elif kind == "dispute_result":
        event["attacker_edges"] = _number(_DISPUTE, text, where, 1)
        event["defender_edges"] = _number(_DISPUTE, text, where, 2)
    elif kind == "placed":
        event["reason"] = "thrown_out" if " is thrown out at " in text else "pushed_aside"
    elif kind == "treat":
        event["repair"] = " repairs " in text
    return event


def upgrade_record(record: Any, p: float) -> Any:
    """A version-1 brick-roll record as a version-2 roll (its chance spec named); others unchanged."""
    if isinstance(record, dict) and record.get("type") == "roll" and "edges" in record:
        return {"type": "roll", "side": record.get("side"), "spec": _bricks(record.get("bricks"), p),
                "outcome": record.get("edges")}
    return record


def upgrade(header: dict[str, Any], entries: list[Any]) -> tuple[dict[str, Any], list[Any]]:
    """Version 1 -> 2: the header says its chance was seeded; records and events become facts."""
    raw = header.get("ruleset")
    ruleset = raw if isinstance(raw, dict) else {}
    p = ruleset.get("brick_edge_probability", DEFAULT_P)
    seed = header.get("seed")
    header = {**header, "chance": {"mode": "seeded", "generator": GENERATOR, "seed": [seed, 0]}, "ai": AI,
              "sight": SIGHT}
    upgraded = []
    for number, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict):
            upgraded.append(entry)  # the entry model refuses it with its line
            continue
        where = f"entry {number} (line {number + 1})"
        entry = dict(entry)
        entry["record"] = upgrade_record(entry.get("record"), p)
        events = entry.get("events")
        if isinstance(events, list):
            entry["events"] = [upgrade_event(e, p, where) for e in events]
        upgraded.append(entry)
    return header, upgraded
