"""The battle log of a replay, round by round, in the words of its ruleset's narrator.

Layer: replay. Needs no geometry and no scene: every recorded event carries its kind, its round
and its fields, and the ruleset's narrator (named by the replay's header) writes the lines.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bow3d.errors import ReplayError
from bow3d.i18n import _
from bow3d.replay.opened import OpenReplay, open_replay
from bow3d.rules.events import event_from_record


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
            lines.append(_("Before the battle") if number == 0 else _("Round {n}").format(n=number))
            lines.extend(f"  {text}" for text in texts)
        lines.append("")
        lines.append(self.result or _("No result: the replay ends before the game does."))
        return "\n".join(lines)

    def rounds_as_dict(self) -> list[dict[str, Any]]:
        return [{"round": number, "events": texts} for number, texts in self.rounds]


def battle_log(replay: OpenReplay | Any, language: str | None = None) -> BattleLog:
    """The battle log of a replay (an OpenReplay or a path); a cut-short last line is simply not there."""
    opened = replay if isinstance(replay, OpenReplay) else open_replay(replay)
    narrator = opened.narrator(language)
    header = opened.header
    # the 'ai' sides by the version that played them, as the named opponents are ('bow-greedy-1')
    players = _(" vs ").join(f"{side} ({header.ai if who == 'ai' and header.ai else who})"
                             for side, who in header.players.items())
    title = _("{file}: scene {scene}, {ruleset}, seed {seed}, {players}, {entries} entries, written {created}").format(
        file=opened.path.name, scene=header.scene, ruleset=header.ruleset.get("name", "?"), seed=header.seed,
        players=players, entries=len(opened.entries), created=header.created)
    log = BattleLog(title)
    schema = opened.ruleset.event_schema
    for entry in opened.entries:
        for k, record in enumerate(entry.events, start=1):  # the file's events, as the ruleset documents them
            problem = schema.check(record) if schema is not None else None
            if problem is not None:
                raise ReplayError(_("{path}:{value}: event {k}: {problem}; the replay is corrupted "
                                    "(bow3d replay verify says where it departs from the rules)")
                                  .format(path=opened.path, value=entry.n + 1, k=k, problem=problem))
        events = [event_from_record(record) for record in entry.events]
        for i, event in enumerate(events):
            text = narrator.log_line(event, events[i + 1:])
            if text is None:
                continue
            if not log.rounds or log.rounds[-1][0] != event.round:
                log.rounds.append((event.round, []))
            log.rounds[-1][1].append(text)
            if event.kind == "game_over":
                log.result = _("Result: {text}").format(text=text)
    return log
