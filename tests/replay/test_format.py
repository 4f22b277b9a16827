"""The replay file format (bow3d.replay.format) on synthetic records: no rules, no geometry."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings, strategies as st

from bow3d.errors import ReplayError
from bow3d.replay import format as fmt
from bow3d.replay.format import ReplayWriter, read_replay

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "replay" / "golden-v1.bowreplay"
DIGEST = {"method": "bow3d-scene-meaning/1", "sha256": "ab" * 32}  # the fake scene's: these tests need no LDraw


def fake_scene(tmp_path: Path) -> SimpleNamespace:
    path = tmp_path / "scenes" / "tiny.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text("format: bow3d-scene/1\nname: Tiny\n")
    return SimpleNamespace(path=path, ruleset={"name": "bow-1.3", "brick_edge_probability": 0.262})


def write_sample(tmp_path: Path, records: list[dict]) -> Path:
    out = tmp_path / "replays" / "game.bowreplay"
    out.parent.mkdir(exist_ok=True)
    with ReplayWriter(out, fake_scene(tmp_path), seed=7, players={"blue": "ai", "red": "ai"},
                      scene_digest=DIGEST) as writer:
        for record in records:
            writer.write(record, [{"type": "echo", "of": record["type"]}])
    return out


RECORDS = [{"type": "roll", "side": "blue", "bricks": 6, "edges": 2},
           {"type": "move", "unit": "blue-1", "to": [3, 4], "facing": 90},
           {"type": "end_turn", "unit": "blue-1"}]


def test_header_first_with_format_version_and_scene_relative(tmp_path):
    out = write_sample(tmp_path, RECORDS)
    lines = out.read_text().splitlines()
    header = json.loads(lines[0])
    assert list(header)[:2] == ["format", "version"]
    assert header["format"] == "bow3d-replay" and header["version"] == fmt.VERSION
    assert header["scene"] == "../scenes/tiny.yaml"
    assert header["scene_digest"] == DIGEST
    assert [json.loads(line)["n"] for line in lines[1:]] == [1, 2, 3]
    replay = read_replay(out)
    assert not replay.truncated and [e.record for e in replay.entries] == RECORDS
    assert replay.scene_path().resolve() == (tmp_path / "scenes" / "tiny.yaml").resolve()


def test_each_line_is_flushed_as_written(tmp_path):
    """design.md: flushed per event, so a crash loses at most the event in flight."""
    out = tmp_path / "g.bowreplay"
    with ReplayWriter(out, fake_scene(tmp_path), seed=1, players={"blue": "ai"}, scene_digest=DIGEST) as writer:
        writer.write(RECORDS[0], [])
        assert len(read_replay(out).entries) == 1  # readable while the game is still going


def test_never_overwrites(tmp_path):
    out = write_sample(tmp_path, RECORDS)
    before = out.read_bytes()
    with pytest.raises(ReplayError, match="never overwrites"):
        ReplayWriter(out, fake_scene(tmp_path), seed=1, players={}, scene_digest=DIGEST)
    assert out.read_bytes() == before


def test_truncated_last_line_is_reported_and_the_rest_kept(tmp_path):
    out = write_sample(tmp_path, RECORDS)
    data = out.read_bytes()
    out.write_bytes(data[: len(data) - 9])  # cut the last entry in the middle
    replay = read_replay(out)
    assert replay.truncated and "cut short" in replay.truncation and ":4:" in replay.truncation
    assert [e.record for e in replay.entries] == RECORDS[:2]


@pytest.mark.parametrize("damage, message", [
    (lambda lines: lines[:2] + ["{not json"] + lines[3:], ":3: not valid JSON"),
    (lambda lines: [lines[0], lines[2], lines[1]] + lines[3:], ":2: entry number 2, expected 1"),
    (lambda lines: lines[:1] + ['{"n": 1, "record": {"type": "roll"}, "events": [], "x": 1}'], ":2: x"),
    (lambda lines: lines[:1] + ['{"n": 1, "record": {"side": "blue"}, "events": []}'], 'no "type"'),
    (lambda lines: ['{"format": "something-else", "version": 1}'] + lines[1:], "not a bow3d replay"),
    (lambda lines: [lines[0].replace('"seed":7', '"seed":"seven"')] + lines[1:], ":1: seed"),
])
def test_corrupted_files_refused_with_line(tmp_path, damage, message):
    out = write_sample(tmp_path, RECORDS)
    lines = out.read_text().splitlines()
    out.write_text("\n".join(damage(lines)) + "\n")
    with pytest.raises(ReplayError, match=message) as caught:
        read_replay(out)
    assert "\n" not in str(caught.value)


def test_binary_garbage_and_empty_refused(tmp_path):
    bad = tmp_path / "bad.bowreplay"
    bad.write_bytes(b"\x00\xff\xfe garbage")
    with pytest.raises(ReplayError, match="not UTF-8"):
        read_replay(bad)
    bad.write_bytes(b"")
    with pytest.raises(ReplayError, match="empty"):
        read_replay(bad)
    with pytest.raises(ReplayError, match="no such replay"):
        read_replay(tmp_path / "none.bowreplay")


def test_newer_version_refused_plainly(tmp_path):
    out = write_sample(tmp_path, RECORDS)
    lines = out.read_text().splitlines()
    lines[0] = lines[0].replace(f'"version":{fmt.VERSION}', '"version":7,"new_field":true')
    out.write_text("\n".join(lines) + "\n")
    with pytest.raises(ReplayError, match=rf"written by a newer bow3d \(version 7\); this bow3d reads up to {fmt.VERSION}"):
        read_replay(out)


def test_upgrade_chain_walks_older_versions(tmp_path, monkeypatch):
    """The chain's mechanics with a pretend version 0 (renamed field) before the real version-1
    step, and the refusal where a step is missing."""
    out = write_sample(tmp_path, RECORDS)
    lines = out.read_text().splitlines()
    header = json.loads(lines[0])
    header["version"] = 0
    header["random_seed"] = header.pop("seed")
    entries = [json.loads(line) for line in lines[1:]]
    for entry in entries:
        entry["action"] = entry.pop("record")
    out.write_text("\n".join(json.dumps(x) for x in [header, *entries]) + "\n")
    with pytest.raises(ReplayError, match="no upgrade from version 0"):
        read_replay(out)

    def v0_to_v1(head, raws):
        head = {**head, "seed": head["random_seed"]}
        del head["random_seed"]
        return head, [{"n": r["n"], "record": r["action"], "events": r["events"]} for r in raws]

    monkeypatch.setitem(fmt.UPGRADES, 0, v0_to_v1)
    replay = read_replay(out)
    assert replay.header.version == fmt.VERSION and replay.header.seed == 7
    assert [e.record for e in replay.entries][1:] == RECORDS[1:]  # the version-1 step names the roll's spec
    assert replay.entries[0].record["spec"] == {"kind": "bricks", "n": 6, "p": 0.262}


def test_golden_file_reads():
    """A small file in the published version-1 format keeps reading, upgraded to version 2: the seeded
    chance of version 1 said in the header, brick-roll records naming their spec (format snapshot)."""
    replay = read_replay(GOLDEN)
    assert replay.header.version == fmt.VERSION and replay.header.seed == 42
    assert replay.header.scene_digest.method == "file-bytes"  # versions 1 and 2 named the scene by its bytes
    assert replay.header.chance.mode == "seeded" and replay.header.chance.seed == [42, 0]
    assert replay.entries[0].record == {"type": "roll", "side": "blue", "spec": {"kind": "bricks", "n": 6, "p": 0.262},
                                        "outcome": 2}
    assert replay.header.players == {"blue": "ai", "red": "human"}
    assert [e.n for e in replay.entries] == list(range(1, len(replay.entries) + 1))
    assert replay.entries[0].record["type"] == "roll"


def test_header_schema_snapshot():
    """The header fields of version 4; changing them needs a new version and an upgrade step (version 4 added
    `parts`, bow3d.replay.digest.library_parts: a version-3 replay reads with None, not checked)."""
    assert list(fmt.ReplayHeader.model_fields) == [
        "format", "version", "scene", "scene_digest", "ruleset", "seed", "chance", "players", "ai", "sight",
        "created", "max_rounds", "library", "parts"]
    assert fmt.ReplayHeader.model_fields["parts"].default is None
    assert list(fmt.SceneDigest.model_fields) == ["method", "sha256"]
    assert list(fmt.ChanceSource.model_fields) == ["mode", "generator", "seed"]
    assert list(fmt.ReplayEntry.model_fields) == ["n", "record", "events"]
    assert list(fmt.GameEnd.model_fields) == ["entries", "round", "winner", "result"]


json_values = st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=8)
                           | st.floats(allow_nan=False, allow_infinity=False),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                                       max_size=3), max_leaves=8)
records = st.lists(st.dictionaries(st.text(min_size=1, max_size=6), json_values, max_size=4).map(
    lambda d: {"type": "x", **d}), max_size=6)


@settings(max_examples=40, deadline=None)
@given(records=records, cut=st.integers(1, 40))
def test_write_read_round_trip_and_any_cut(tmp_path_factory, records, cut):
    """Property: what is written reads back equal; cutting the file anywhere inside the last
    entry keeps every entry before it."""
    tmp = tmp_path_factory.mktemp("rt")
    out = write_sample(tmp, records)
    assert [e.record for e in read_replay(out).entries] == records
    if records:
        data = out.read_bytes()
        last_start = data.rstrip(b"\n").rfind(b"\n") + 1
        keep = last_start + min(cut, len(data) - 2 - last_start)
        if keep > last_start:
            out.write_bytes(data[:keep])
            replay = read_replay(out)
            assert replay.truncated and [e.record for e in replay.entries] == records[:-1]


@pytest.mark.parametrize("damage", ["whole", "no newline", "cut short"])
def test_reopen_appends_after_the_last_whole_record(tmp_path, damage):
    """A server killed while writing (issue 31): its replay goes on in place after the records read_replay
    keeps; a last record that only lost its newline is kept (reopen used to cut it, and the next record was
    numbered one too far)."""
    out = write_sample(tmp_path, [{"type": "move", "unit": "u", "to": [1, 1]}, {"type": "end_turn"}])
    data = out.read_bytes().splitlines(keepends=True)  # an unfinished game: no end line
    assert b'"end"' not in data[-1]
    if damage == "no newline":
        data[-1] = data[-1].rstrip(b"\n")
    elif damage == "cut short":
        data[-1] = data[-1][:10]
    out.write_bytes(b"".join(data))
    kept = len(read_replay(out).entries)
    assert kept == (1 if damage == "cut short" else 2)
    writer = ReplayWriter.reopen(out)
    writer.write({"type": "end_turn"}, [])
    writer.close()
    replay = read_replay(out)
    assert [e.n for e in replay.entries] == list(range(1, kept + 2)) and not replay.truncated
