"""Verify a replay: re-simulate it and check everything that could have been forged.

Layer: replay.

More: docs/modules/replay.md#verify.
"""

from __future__ import annotations

import os
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bow3d.errors import ReplayError
from bow3d.replay.dice import SeededDice
from bow3d.replay.opened import OpenReplay, open_replay, short
from bow3d.replay.session import ai_players
from bow3d.rules.chance import ChanceRequest, Roll
from bow3d.rules.records import plain

GeometryFactory = Any  # scene -> a Geometry (fresh, units where the scene puts them)


@dataclass(frozen=True)
class VerifyResult:
    """The outcome of a verification: `ok`, or the first problem in one line."""

    ok: bool
    entries: int                      # entries checked (all of them when ok)
    first_divergence: str | None      # one line: the entry and what differs, or the reason it is illegal
    entry: int | None = None          # the entry number of the problem
    kind: str | None = None           # 'header' | 'chance' | 'player' | 'divergence' | 'illegal' | 'end'
    truncated: bool = False
    truncation: str | None = None
    winner: str | None = None         # after the last entry, when the game is over
    rounds: int = 0
    complete: bool = False            # the game is over (and its end record agrees)
    chance_checked: bool = False      # every throw re-derived from the seeded generator
    players_checked: tuple[str, ...] = field(default_factory=tuple)  # sides whose AI choices were re-derived
    result: str | None = None         # the rules' result ('win', 'draw', 'points') when complete
    ai_note: str | None = None        # why the AI's choices were not re-derived, when they were not

    @property
    def status(self) -> str:
        """'complete' or 'incomplete (stopped after round N)'."""
        return "complete" if self.complete else f"incomplete (stopped after round {self.rounds})"


class _Found(Exception):
    """The first thing verify found wrong before applying a record (it stops the re-play)."""

    def __init__(self, kind: str, entry: int, words: str) -> None:
        super().__init__(words)
        self.kind, self.entry, self.words = kind, entry, words


def _diff_events(expected: list[dict], got: list[dict]) -> str:
    for index, (want, have) in enumerate(zip(expected, got)):
        if want != have:
            if isinstance(want, dict) and isinstance(have, dict):
                keys = [k for k in dict.fromkeys([*want, *have]) if want.get(k) != have.get(k)]
                diffs = "; ".join(f"{k}: expected {short(want.get(k), 60)}, got {short(have.get(k), 60)}"
                                  for k in keys[:3])
                return f"event {index + 1} ({want.get('type', '?')}): {diffs}"
            return f"event {index + 1}: expected {short(want)}, got {short(have)}"
    if len(expected) > len(got):
        return f"expected {len(expected)} events, got {len(got)}: missing {short(expected[len(got)])}"
    return f"expected {len(expected)} events, got {len(got)}: extra {short(got[len(expected)])}"


def check_header(opened: OpenReplay) -> str | None:
    """None when the header's game-changing fields agree with the scene, else one line naming the field."""
    scene, header = opened.scene(), opened.header
    params = scene.ruleset.model_dump(mode="json")
    defaults = type(scene.ruleset)().model_dump(mode="json") if hasattr(type(scene.ruleset), "model_fields") else {}
    for key in sorted(set(params) | set(header.ruleset)):
        if key == "revision" and key not in params:
            continue  # the readings the game was played with (OpenReplay.revision), not a scene's parameter
        if key not in header.ruleset and key in defaults and params.get(key) == defaults[key]:
            continue  # a parameter added since the replay was written, at its default: the same game
        if header.ruleset.get(key) != params.get(key):
            return (f"header field ruleset.{key} is {short(header.ruleset.get(key), 40)}, the scene says "
                    f"{short(params.get(key), 40)}: the header was edited, or written for another scene")
    sides = [side.id for side in scene.sides]
    if sorted(header.players) != sorted(sides):
        return f"header field players names {sorted(header.players)}, the scene's sides are {sorted(sides)}"
    return None


def _re_derivable(opened: OpenReplay, scene: Any) -> tuple[dict[str, Any], str | None]:
    """The players whose choices verify re-derives (side -> a fresh player on its seeded stream), and
    why some were not: the header's 'ai' sides when this bow3d still has the AI it names, and the
    sides of a named opponent's version ('bow-greedy-1') that chooses without a clock; a version the
    ruleset lists in clocked_opponents() is checked for legality, with a note that says so."""
    ruleset, header = opened.ruleset, opened.header
    known = set(ruleset.opponents().values()) | set(ruleset.retired_opponents()) | set(ruleset.clocked_opponents())
    names: dict[str, str] = {}
    notes = []
    for side, who in header.players.items():
        if who == "ai":
            if header.ai == ruleset.ai_version or (header.ai is not None and ruleset.is_reproducible(header.ai)):
                names[side] = header.ai or "ai"
            else:
                notes.append(f"the 'ai' sides were played by {header.ai or 'an unnamed AI'}; this bow3d's AI is "
                             f"{ruleset.ai_version}: their choices were checked for legality, not re-derived")
        elif who in known:
            if ruleset.is_reproducible(who):
                names[side] = who
            else:
                notes.append(f"{side} was played by {who}, which decided under a time budget: its choices were "
                             "checked for legality, not re-derived")
    players = ai_players(scene, header.seed, ruleset, names=names) if names else {}
    return players, "; ".join(dict.fromkeys(notes)) or None


def verify_replay(path: str | os.PathLike | OpenReplay, geometry: Any = None,
                  geometry_factory: GeometryFactory | None = None,
                  *, scene: str | os.PathLike | None = None, check_players: bool = True,
                  allow_library: Collection[str] = ()) -> VerifyResult:
    """Re-simulate a replay and check it (see the module docstring); return ok or the first problem.

    `geometry` (reused as is) or `geometry_factory(scene)` supplies the battlefield; default the real
    World of the scene, built with the LDraw library the header names. `check_players=False` skips
    re-deriving the AI's choices; `allow_library` as open_replay. `path` may be a replay opened already
    (what its caller shows next is read from it, not opened again). Raises ReplayError for files that cannot be read or are of another
    scene; every other problem is a result, not an exception.
    """
    opened = path if isinstance(path, OpenReplay) else open_replay(path, scene, allow_library=allow_library)
    scene_obj = opened.scene()
    replay = opened.replay
    if geometry is None:
        geometry = geometry_factory(scene_obj) if geometry_factory is not None else opened.world()
    base: dict[str, Any] = dict(truncated=replay.truncated, truncation=replay.truncation)
    problem = check_header(opened)
    if problem is not None:
        return VerifyResult(False, 0, f"line 1: {problem}", entry=0, kind="header", **base)
    seeded = opened.header.chance.mode == "seeded"
    try:
        dice = SeededDice.from_source(opened.header.chance.model_dump()) if seeded else None
    except ReplayError as error:
        return VerifyResult(False, 0, f"line 1: {error}", entry=0, kind="header", **base)
    sight = getattr(getattr(geometry, "inner", geometry), "SIGHT_METHOD", None)
    if sight is not None and sight != opened.sight_method:
        return VerifyResult(False, 0, f"line 1: refereed with the sight method {opened.sight_method!r}; the world "
                            f"given measures sight with {sight!r}, so it cannot re-play the game as it was played",
                            entry=0, kind="header", **base)
    ais, ai_note = _re_derivable(opened, scene_obj) if check_players else ({}, None)
    ai_sides = tuple(ais)
    base.update(chance_checked=seeded, players_checked=ai_sides, ai_note=ai_note)
    checked = 0
    game = opened.start(geometry)

    def look(entry: Any, game: Any, action: Any) -> None:
        """Before each record: its throw re-derived, its legality, the AI's own choice."""
        where = f"entry {entry.n} (line {entry.n + 1}"
        request = game.pending
        if isinstance(request, ChanceRequest) and dice is not None and isinstance(action, Roll):
            expected = plain(dice.throw(request))
            if plain(action.outcome) != expected:
                raise _Found("chance", entry.n, f"{where}, {request.side}'s {request.purpose} throw): outcome "
                             f"{short(plain(action.outcome), 40)}, the seeded generator (seed "
                             f"{opened.header.chance.seed}) gives {short(expected, 40)}")
        refusal = game.refusal(action)
        if refusal is not None:
            raise _Found("illegal", entry.n, f"{where}): illegal record {short(entry.record, 120)}: {refusal.error()}")
        if not isinstance(request, ChanceRequest) and game.side_to_play in ais:
            side = game.side_to_play
            choice = ais[side].choose(game).to_record()
            if plain(choice) != plain(entry.record):
                raise _Found("player", entry.n, f"{where}): {side} is played by the AI (seed {opened.header.seed}), "
                             f"which plays {short(choice, 80)}; the record says {short(entry.record, 80)}")

    try:
        for entry, _action, events in opened.replay_entries(game, look):
            got = [plain(event.to_record()) for event in events]
            if got != entry.events:
                line = f"entry {entry.n} (line {entry.n + 1}, {short(entry.record, 80)}): " \
                       f"{_diff_events(entry.events, got)}"
                return VerifyResult(False, checked, line, entry=entry.n, kind="divergence", **base)
            checked = entry.n
    except _Found as found:
        return VerifyResult(False, checked, found.words, entry=found.entry, kind=found.kind, **base)
    except ReplayError as error:
        message = str(error).removeprefix(f"{replay.path}: ")
        return VerifyResult(False, checked, message, entry=checked + 1, kind="illegal", **base)
    over, end = game.is_over, replay.end
    state: dict[str, Any] = dict(winner=game.winner if over else None, rounds=game.state.round, result=game.result if over else None)
    if end is not None:
        said = (end.winner, end.result, end.round)
        got_end = (game.winner, str(game.result), game.state.round)
        if not over or said != got_end:
            what = "the game is not over" if not over else (f"the rules end it with winner {game.winner}, "
                                                            f"{game.result}, round {game.state.round}")
            return VerifyResult(False, checked, f"line {len(replay.entries) + 2} (end record): it says winner "
                                f"{end.winner}, {end.result}, round {end.round}; {what}", entry=checked + 1,
                                kind="end", **base, **state)
    return VerifyResult(True, checked, None, complete=over, **base, **state)


def replay_scene_path(path: str | os.PathLike) -> Path:
    """Where the scene of a replay file is (for the viewers)."""
    return open_replay(path).scene_path()
