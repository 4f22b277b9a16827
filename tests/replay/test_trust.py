"""Tamper-evident replays: what was forged is refused or reported as such, with the first bad record.

The forgeries the fuzzing found accepted before: dice that favour one side, an edited starting
roll, an edited header (seed, players, edge probability), a game with its last lines cut off;
and beside them an edited end record, an edited choice of the AI, and hostile JSON (nested 1,000
deep, integers of thousands of digits). Each runs the command a user runs (`bow3d replay verify`).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VILLAGE = ROOT / "replays" / "village-seed1.bowreplay"
SCENE = ROOT / "scenes" / "village.yaml"


def verify(path: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bow3d", "replay", "verify", str(path), "--scene", str(SCENE), *extra],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)


def edited(tmp_path: Path, change, name: str = "forged.bowreplay") -> Path:
    lines = [json.loads(line) for line in VILLAGE.read_text().splitlines()]
    change(lines)
    out = tmp_path / name
    out.write_text("".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines))
    return out


def rolls(lines: list) -> list[tuple[int, dict]]:
    return [(i, line["record"]) for i, line in enumerate(lines) if "record" in line and line["record"]["type"] == "roll"]


def test_the_untouched_replay_verifies_complete():
    result = verify(VILLAGE)
    assert result.returncode == 0, result.stderr
    assert "every throw re-derived from the seeded generator" in result.stdout
    assert f"complete: winner: {_ending()[0]} (win)" in result.stdout


def test_dice_that_favour_one_side_are_named(tmp_path):
    """Every blue brick on edge, no red one: the first throw that the seeded generator would not have
    given is named (its entry and line), exit 2."""
    def favour_blue(lines):
        for i, record in rolls(lines):
            record["outcome"] = record["spec"]["n"] if record["side"] == "blue" else 0
            for event in lines[i]["events"]:
                if event["type"] == "rolled":
                    event["outcome"] = record["outcome"]
    forged = edited(tmp_path, favour_blue)
    first = next(i for i, record in rolls([json.loads(x) for x in VILLAGE.read_text().splitlines()])
                 if record["outcome"] != (record["spec"]["n"] if record["side"] == "blue" else 0))
    result = verify(forged)
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert f"forged throw at entry {first} (line {first + 1}" in result.stderr
    assert "the seeded generator (seed [1, 0]) gives" in result.stderr


def test_an_edited_starting_roll_is_named(tmp_path):
    def starting_six(lines):
        lines[1]["record"]["outcome"] = 6 if lines[1]["record"]["outcome"] != 6 else 5
    result = verify(edited(tmp_path, starting_six))
    assert result.returncode == 2 and "forged throw at entry 1 (line 2, blue's starting_player throw)" in result.stderr


@pytest.mark.parametrize("field, value, words", [
    ("seed", 2, "forged throw at entry 1 (line 2"),          # the rolls no longer come from the seed
    ("brick_edge_probability", 0.5, "header field ruleset.brick_edge_probability is 0.5, the scene says 0.262"),
    ("players", {"blue": "ai", "red": "ai", "green": "ai"}, "header field players names"),
])
def test_an_edited_header_is_refused(tmp_path, field, value, words):
    def edit(lines):
        if field == "brick_edge_probability":
            lines[0]["ruleset"][field] = value
        elif field == "seed":
            lines[0]["seed"] = value
            lines[0]["chance"]["seed"] = [value, 0]
        else:
            lines[0][field] = value
    result = verify(edited(tmp_path, edit))
    assert result.returncode == 2 and words in result.stderr, result.stderr


def test_a_game_cut_short_says_incomplete_and_when_it_stopped(tmp_path):
    """The last 20 lines cut off (the end record with them): no hidden result looks like a finished
    game; `--allow-incomplete` accepts it as a stopped game, and says so."""
    lines = VILLAGE.read_text().splitlines()
    cut = tmp_path / "cut.bowreplay"
    cut.write_text("\n".join(lines[:-20]) + "\n")
    refused = verify(cut)
    assert refused.returncode == 2 and "incomplete (stopped after round" in refused.stderr
    assert "--allow-incomplete" in refused.stderr
    accepted = verify(cut, "--allow-incomplete")
    assert accepted.returncode == 0 and "incomplete (stopped after round" in accepted.stdout


def _ending() -> tuple[str, int]:
    """(the winner the bundled village replay's end record names, that record's line number)."""
    lines = VILLAGE.read_text().splitlines()
    return json.loads(lines[-1])["end"]["winner"], len(lines)


def test_a_forged_end_record_is_refused(tmp_path):
    winner, line = _ending()
    loser = "red" if winner == "blue" else "blue"

    def loser_wins(lines):
        lines[-1]["end"]["winner"] = loser
    result = verify(edited(tmp_path, loser_wins))
    assert result.returncode == 2 and f"forged end: line {line} (end record): it says winner {loser}" in result.stderr


def test_an_end_record_on_a_game_that_is_not_over_is_refused(tmp_path):
    def early_end(lines):
        end = lines.pop()
        del lines[-30:]
        end["end"]["entries"] = len(lines) - 1
        lines.append(end)
    result = verify(edited(tmp_path, early_end))
    assert result.returncode == 2 and "the game is not over" in result.stderr


def test_a_forged_choice_of_the_ai_is_named(tmp_path):
    """Red is played by the AI: a unit that passes where the AI moved (a legal record, so only the
    re-derived choice can tell) is named with what the AI would have played."""
    lines = [json.loads(x) for x in VILLAGE.read_text().splitlines()]
    forged_at = next(i for i, line in enumerate(lines) if i > 20 and "record" in line
                     and line["record"]["type"] == "move" and line["record"]["unit"].startswith("red"))

    def pass_instead(lines):
        lines[forged_at]["record"] = {"type": "end_turn", "unit": lines[forged_at]["record"]["unit"]}
    result = verify(edited(tmp_path, pass_instead))
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert f"forged choice at entry {forged_at} (line {forged_at + 1}): red is played by the AI (seed 1), which " \
           f"plays {{\"type\": \"move\"" in result.stderr


@pytest.mark.parametrize("line", [
    "[" * 1000 + "]" * 1000,
    '{"n": 1, "record": {"type": "move", "unit": "blue-sword", "to": [' + "9" * 5000 + ', 1], "facing": 0}, '
    '"events": []}',
], ids=["nested 1000 deep", "5000-digit integer"])
def test_hostile_json_lines_are_refused_with_their_line(tmp_path, line):
    lines = VILLAGE.read_text().splitlines()
    bad = tmp_path / "hostile.bowreplay"
    bad.write_text("\n".join([lines[0], line, *lines[1:]]) + "\n")
    result = verify(bad)
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and ":2: " in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


def test_an_event_missing_a_field_is_named_by_replay_show(tmp_path):
    """Found by the replay fuzzer: the battle log wrote words for a hand-edited event and crashed on
    a missing field; the recorded events are now checked against the ruleset's schema first."""
    def drop_a_field(lines):
        entry = next(line for line in lines[1:] if "record" in line and line["record"]["type"] == "attack")
        del next(e for e in entry["events"] if e["type"] == "attack")["distance"]
    bad = edited(tmp_path, drop_a_field)
    result = subprocess.run([sys.executable, "-m", "bow3d", "replay", "show", str(bad), "--scene", str(SCENE)],
                            capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert result.returncode == 2 and "attack: fields missing ['distance']" in result.stderr, result.stderr


def test_a_record_field_of_the_wrong_type_is_named(tmp_path):
    """Found by the replay fuzzer: a unit given as a mapping reached the rules and failed inside them."""
    lines = [json.loads(x) for x in VILLAGE.read_text().splitlines()]
    n = next(i for i, line in enumerate(lines) if "record" in line and line["record"]["type"] == "move")

    def unit_as_mapping(lines):
        lines[n]["record"]["unit"] = {"id": lines[n]["record"]["unit"]}
    result = verify(edited(tmp_path, unit_as_mapping))
    assert result.returncode == 2 and f"entry {n} (line {n + 1})" in result.stderr
    assert "field 'unit' of a move action must be text" in result.stderr


def test_a_replay_of_another_ai_is_verified_without_re_deriving_its_choices(tmp_path):
    """When the AI improves, the replays its predecessor played still verify: their moves are checked
    by the rules, not against the new AI's choices (the header names the AI)."""
    def older_ai(lines):
        lines[0]["ai"] = "bow-ai-0"
    result = verify(edited(tmp_path, older_ai))
    assert result.returncode == 0, result.stderr
    assert "played by bow-ai-0" in result.stdout and "re-derived for" not in result.stdout


def test_a_replay_refereed_by_another_sight_method_is_refused_plainly(tmp_path):
    def other_sight(lines):
        lines[0]["sight"] = "silhouette-9"
    result = verify(edited(tmp_path, other_sight))
    assert result.returncode == 2 and "refereed with the sight method 'silhouette-9'" in result.stderr
