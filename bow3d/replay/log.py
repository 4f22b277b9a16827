"""The battle log of a replay, round by round, in the rules' own plain words.

Layer: replay. Needs no geometry: every recorded event carries its round and its text, and the
rules' Event.describe() turns them into log lines.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bow3d.replay.format import Replay
from bow3d.rules.events import Event

QUIET_KINDS = frozenset({"roll_requested"})  # the roll itself ('rolled') says it all


def event_from_record(record: dict[str, Any]) -> Event:
    """An Event back from its record ({"type", "round", fields..., "text"})."""
    data = {k: v for k, v in record.items() if k not in ("type", "round", "text")}
    return Event(kind=str(record.get("type", "?")), round=int(record.get("round", 0) or 0),
                 text=str(record.get("text", "")), data=data)


@dataclass
class BattleLog:
    """The log lines grouped by round (round 0: before the battle, the starting-player rolls)."""

    title: str
    rounds: list[tuple[int, list[str]]] = field(default_factory=list)
    result: str | None = None

    def format(self) -> str:
        """Plain text: a title, a heading per round, one indented line per event."""
        lines = [self.title]
        for number, texts in self.rounds:
            lines.append("")
            lines.append("Before the battle" if number == 0 else f"Round {number}")
            lines.extend(f"  {text}" for text in texts)
        lines.append("")
        lines.append(self.result or "No result: the replay ends before the game does.")
        return "\n".join(lines)

    def rounds_as_dict(self) -> list[dict[str, Any]]:
        return [{"round": number, "events": texts} for number, texts in self.rounds]


def battle_log(replay: Replay) -> BattleLog:
    """The battle log of a replay as read (a cut-short last line is simply not there)."""
    header = replay.header
    players = " vs ".join(f"{side} ({who})" for side, who in header.players.items())
    title = (f"{replay.path.name}: scene {header.scene}, seed {header.seed}, {players}, "
             f"{len(replay.entries)} entries, written {header.created}")
    log = BattleLog(title)
    for entry in replay.entries:
        for record in entry.events:
            event = event_from_record(record)
            if event.kind in QUIET_KINDS:
                continue
            if not log.rounds or log.rounds[-1][0] != event.round:
                log.rounds.append((event.round, []))
            text = event.describe()  # under its round's heading, the "Round N: " prefix is said once
            log.rounds[-1][1].append(text.removeprefix(f"Round {event.round}: "))
            if event.kind == "game_over":
                log.result = f"Result: {event.text}"
    return log
