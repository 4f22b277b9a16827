"""Every replay written before the rulesets engine (format version 1) still reads, verifies and says
the same words.

The files in tests/data/replay/v1 were written by the bow3d of commit 725e298 (the last one that
wrote version 1): the two bundled replays as they were published, an AI game on the village at
another seed, and games on flat fields (tests/replay/v1_fields.py) in which random choices made
every kind of event happen (make_v1.py in that folder wrote them).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bow3d.errors import ReplayError
from bow3d.replay import VERSION, read_replay, verify_replay
from bow3d.replay.upgrade_v1 import upgrade_event
from bow3d.rules.events import event_from_record
from bow3d.rulesets import BOW
from tests.replay.v1_fields import flat_field

ROOT = Path(__file__).resolve().parents[2]
V1 = ROOT / "tests" / "data" / "replay" / "v1"
FLAT = sorted(p.name for p in V1.glob("field-*.bowreplay"))
WORLD = {"bundled-village-seed1.bowreplay": "village.yaml", "bundled-los-gallery-seed1.bowreplay": "los-gallery.yaml",
         "village-seed5.bowreplay": "village.yaml"}


def scene_of(name: str) -> Path:
    return V1 / (name.rsplit("-seed", 1)[0] + ".yaml")


@pytest.mark.parametrize("name", FLAT)
def test_version_1_flat_replays_verify_on_the_new_engine(name):
    """Re-simulated record by record by today's engine, every event equal to the upgraded version-1
    event, every brick roll re-derived from the seed in the header."""
    assert read_replay(V1 / name).header.version == VERSION  # upgraded on reading
    result = verify_replay(V1 / name, geometry_factory=flat_field, scene=scene_of(name))
    assert result.ok, result.first_divergence
    assert result.chance_checked and result.complete and result.entries == len(read_replay(V1 / name).entries)


@pytest.mark.parametrize("name", sorted(WORLD))
def test_version_1_replays_on_the_3d_world_verify_with_their_ai_re_derived(name, monkeypatch):
    """The published bundled replays and another AI game: verified on the scene's 3D world, the
    throws and every choice of the AI re-derived from the seed."""
    monkeypatch.delenv("LDRAWDIR", raising=False)
    result = verify_replay(V1 / name, scene=ROOT / "scenes" / WORLD[name])
    assert result.ok, result.first_divergence
    assert result.chance_checked and result.players_checked == ("blue", "red") and result.complete


def said_today(text: str) -> str:
    """Version 1's line with the one wording mended since: one damage point in the singular."""
    return text.replace(" against 1 damage points", " against 1 damage point")


def test_the_narrator_says_exactly_what_version_1_wrote():
    """Words at the edges: the English narrator, given the typed version-2 events, writes the very
    line version 1 stored in each event (3,400 events of every kind here; all 31,102 events of the
    77 files the corpus generator writes were checked the same way)."""
    narrator = BOW.narrator()
    checked = 0
    for path in sorted(V1.glob("*.bowreplay")):
        lines = path.read_text().splitlines()
        p = json.loads(lines[0])["ruleset"].get("brick_edge_probability", 0.262)
        for line in lines[1:]:
            old = json.loads(line)["events"]
            new = [event_from_record(upgrade_event(e, p, path.name)) for e in old]
            for i, (was, event) in enumerate(zip(old, new)):
                assert narrator.line(event, new[i + 1:]) == said_today(was["text"]), (path.name, was)
                checked += 1
    assert checked > 3000


def test_version_1_text_that_the_writer_never_wrote_is_refused(tmp_path):
    """The upgrade reads only the phrases the version-1 writer produced: an edited purpose is refused
    with its line, never guessed at."""
    lines = (V1 / "field-scripted-seed1.bowreplay").read_text().splitlines()
    entry = json.loads(lines[1])
    entry["events"][0]["purpose"] = "a reason of my own"
    lines[1] = json.dumps(entry)
    bad = tmp_path / "bad.bowreplay"
    bad.write_text("\n".join(lines) + "\n")
    with pytest.raises(ReplayError, match=r"entry 1 \(line 2\): roll purpose 'a reason of my own'"):
        read_replay(bad)
