"""Replays name their scene by its meaning (bow3d.replay.digest): a comment, a reformatted file or a moved
battlefield break nothing; a moved unit, another sheet or another battlefield is another scene. Older
replays named the file's bytes and are still checked that way."""

from __future__ import annotations

import json
import shutil

import pytest

from bow3d.errors import ReplayError
from bow3d.replay.digest import FILE_BYTES, MEANING, file_sha256, scene_digest
from bow3d.replay.format import read_replay
from bow3d.replay.verify import verify_replay
from bow3d.rulesets import load_scene
from tests.replay.conftest import SCENE, write_scene
from tests.replay.test_session import flat, record_game


def digest_of(text: str, tmp_path, name: str = "s") -> str:
    folder = tmp_path / name
    path = write_scene(folder, text)
    return scene_digest(load_scene(path))["sha256"]


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    folder = tmp_path_factory.mktemp("digest")
    scene_path = write_scene(folder / "scenes")
    out = folder / "replays" / "game.bowreplay"
    out.parent.mkdir()
    record_game(scene_path, 7, out, max_rounds=3)
    return scene_path, out


def test_the_header_names_the_scene_by_its_meaning(game):
    scene_path, out = game
    header = read_replay(out).header
    assert header.scene_digest.method == MEANING
    assert header.scene_digest.sha256 == scene_digest(load_scene(scene_path))["sha256"]


@pytest.mark.parametrize("edit", [
    lambda text: "# a comment on top\n" + text + "\n# and one at the end\n",
    lambda text: text.replace("name: Skirmish\n", "name:    Skirmish   # the title\n\n\n"),
    lambda text: text.replace("facing: 180}", "facing: 540.0}"),                        # the same direction
    lambda text: text.replace("position: [4.5, 4.5]", "position: [4.50, 45e-1]"),      # the same numbers
    lambda text: text.replace("    armor: 0\n    hp: 1\n    weapons: [{name: rifle",
                              "    hp: 1\n    armor: 0\n    weapons: [{name: rifle", 1),  # keys in another order
    lambda text: text.replace("    action_budget: 2\n", "", 1),                         # written out at its default
], ids=["comments", "spaces", "facing", "numbers", "key-order", "default"])
def test_what_does_not_change_the_game_does_not_change_the_digest(tmp_path, edit):
    assert digest_of(edit(SCENE), tmp_path, "edited") == digest_of(SCENE, tmp_path)


@pytest.mark.parametrize("edit", [
    lambda text: text.replace("position: [26.5, 8.5]", "position: [25.5, 8.5]"),
    lambda text: text.replace("facing: 180}", "facing: 170}", 1),
    lambda text: text.replace("    move: 4\n", "    move: 5\n"),
    lambda text: text.replace("ruleset: {brick_edge_probability: 0.262}", "ruleset: {brick_edge_probability: 0.3}"),
    lambda text: text.replace("{id: red, name: Red army, colour: 4}", "{id: red, name: Red horde, colour: 4}"),
], ids=["position", "facing", "sheet", "ruleset", "side-name"])
def test_what_changes_the_game_changes_the_digest(tmp_path, edit):
    assert digest_of(edit(SCENE), tmp_path, "edited") != digest_of(SCENE, tmp_path)


def test_the_battlefield_counts_by_its_geometry_not_its_file(tmp_path):
    base = write_scene(tmp_path / "a")
    field = "0 a field\n0 // planted by hand\n1 2 0 0 0 1 0 0 0 1 0 0 0 1 3001.dat\n1 4 40 0 0 1 0 0 0 1 0 0 0 1 3001.dat\n"
    (base.parent / "field.ldr").write_text(field)
    before = scene_digest(load_scene(base))["sha256"]
    # comments, line order, number spelling, another file name: the same placed parts
    (base.parent / "meadow.ldr").write_text("0 the same field, saved by another editor\r\n"
                                            "1 4 40.000 0 0 1 0 0 0 1 0 0 0 1 3001.DAT\r\n"
                                            "1 2 0 0 0 1.0 0 0 0 1 0 0 0 1 3001.dat\r\n")
    base.write_text(base.read_text().replace("battlefield: field.ldr", "battlefield: meadow.ldr"))
    assert scene_digest(load_scene(base))["sha256"] == before
    (base.parent / "meadow.ldr").write_text(field.replace("1 4 40 0 0", "1 4 60 0 0"))  # a brick moved
    assert scene_digest(load_scene(base))["sha256"] != before
    (base.parent / "meadow.ldr").write_text(field.replace("1 4 40", "1 1 40"))  # another colour
    assert scene_digest(load_scene(base))["sha256"] != before


def test_a_commented_and_moved_scene_still_verifies(game, tmp_path):
    """The issue's case: the replay copied elsewhere, the scene commented and moved with its files."""
    scene_path, out = game
    moved = tmp_path / "elsewhere"
    shutil.copytree(scene_path.parent, moved)
    edited = moved / "skirmish.yaml"
    edited.write_text("# my notes on this battle\n" + edited.read_text().replace("name: Skirmish", "name: Skirmish  # !"))
    copy = tmp_path / "copy.bowreplay"
    copy.write_bytes(out.read_bytes())
    result = verify_replay(copy, geometry_factory=flat, scene=edited)
    assert result.ok and result.entries == len(read_replay(out).entries), result.first_divergence


def test_another_game_on_the_edited_scene_is_refused_naming_it(game, tmp_path):
    scene_path, out = game
    moved = tmp_path / "other"
    shutil.copytree(scene_path.parent, moved)
    edited = moved / "skirmish.yaml"
    edited.write_text(edited.read_text().replace("position: [24.5, 6.5]", "position: [23.5, 6.5]"))
    with pytest.raises(ReplayError, match=r"another scene: .*skirmish.yaml means another game") as caught:
        verify_replay(out, geometry_factory=flat, scene=edited)
    assert "\n" not in str(caught.value)
    assert str(caught.value).endswith("give the scene it was played on with --scene (its header names "
                                      "../scenes/skirmish.yaml, played with bow-1.3)")   # what to do


def test_a_version_2_replay_names_the_file_bytes_and_is_checked_so(game, tmp_path):
    """Format version 2 (before the meaning digest): upgraded on reading, its byte digest kept and checked."""
    scene_path, out = game
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    header = lines[0]
    header["version"] = 2
    del header["scene_digest"]
    header["scene_sha256"] = file_sha256(scene_path)
    old = scene_path.parent.parent / "replays" / "old.bowreplay"
    old.write_text("".join(json.dumps(line) + "\n" for line in lines))
    replay = read_replay(old)
    assert replay.header.version == fmt_version() and replay.header.scene_digest.method == FILE_BYTES
    assert verify_replay(old, geometry_factory=flat).ok
    original = scene_path.read_text()
    try:
        scene_path.write_text(original + "# a comment\n")  # version 2 named the bytes: this is another file
        with pytest.raises(ReplayError, match="version-2 replay names its scene by the file's bytes"):
            verify_replay(old, geometry_factory=flat)
    finally:
        scene_path.write_text(original)


# --- issue 32: the header records the geometry of every library part the scene's models place ---------------

BRICK = "0 Brick 2 x 4\n0 Name: 3001.dat\n0 !LDRAW_ORG Part UPDATE 2004-01\n3 16 -40 0 -20 40 0 -20 40 0 20\n" \
        "3 16 -40 0 -20 40 0 20 -40 0 20\n3 16 -40 -24 -20 40 -24 -20 40 -24 20\n"


def _external_library(folder, brick: str = BRICK):
    (folder / "parts").mkdir(parents=True)
    (folder / "LDConfig.ldr").write_text("0 LDraw.org Configuration File\n"
                                         "0 !COLOUR Black CODE 0 VALUE #1B2A34 EDGE #2B4354\n")
    (folder / "parts" / "3001.dat").write_text(brick)
    return folder


def test_a_replay_is_refused_where_the_librarys_part_is_not_the_one_it_was_played_on(tmp_path, monkeypatch):
    """A game played on an external library A records its parts' geometry; verified where LDRAWDIR gives a library
    whose 3001.dat is another brick, it is refused naming the part, though the scene digest names parts only by
    name (before, the scene digest matched and the game re-played on the other brick)."""
    from bow3d.replay.format import ReplayWriter
    from bow3d.replay.session import play_game

    library = _external_library(tmp_path / "ldraw")
    monkeypatch.setenv("LDRAWDIR", str(library))
    scene_path = write_scene(tmp_path / "scenes")
    (scene_path.parent / "field.ldr").write_text("0 field\n1 2 0 0 0 1 0 0 0 1 0 0 0 1 3001.dat\n")
    scene = load_scene(scene_path)
    out = tmp_path / "game.bowreplay"
    with ReplayWriter(out, scene, 3, {"blue": "ai", "red": "ai"}, max_rounds=2, library="external") as writer:
        play_game(scene, flat(scene), None, 3, writer=writer, max_rounds=2)
    header = read_replay(out).header
    assert set(header.parts) == {"3001.dat"} and len(header.parts["3001.dat"]) == 16
    assert verify_replay(out, geometry_factory=flat).ok
    (library / "parts" / "3001.dat").write_text(BRICK + "0 // a comment changes no geometry\n")
    assert verify_replay(out, geometry_factory=flat).ok
    (library / "parts" / "3001.dat").write_text(BRICK.replace("-24", "-48"))   # a taller brick
    with pytest.raises(ReplayError, match=r"game.bowreplay: the LDraw parts 3001.dat of the library here .* are "
                                          r"not those the game was played on"):
        verify_replay(out, geometry_factory=flat)


def test_a_replay_whose_header_records_no_parts_is_read_as_before(game):
    """Older replays (and games on a flat test geometry) record none: nothing to compare, nothing refused."""
    _, out = game
    assert read_replay(out).header.parts is None
    assert verify_replay(out, geometry_factory=flat).ok


def fmt_version() -> int:
    from bow3d.replay.format import VERSION

    return VERSION


def test_a_version_3_replay_reads_with_no_parts_recorded(game, tmp_path, monkeypatch):
    """Version 4 added `parts`: a version-3 header (the bundled replays) is upgraded with none, and a version-4
    one says to a bow3d that reads up to 3 that it is newer (not an unknown field)."""
    _, out = game
    lines = out.read_text().splitlines()
    header = json.loads(lines[0])
    assert header["version"] == 4
    header["version"] = 3
    header.pop("parts", None)
    old = tmp_path / "old.bowreplay"
    old.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    replay = read_replay(old)
    assert replay.header.version == 4 and replay.header.parts is None
    import bow3d.replay.format as fmt

    monkeypatch.setattr(fmt, "VERSION", 3)   # a bow3d that reads up to version 3
    with pytest.raises(ReplayError, match=r"written by a newer bow3d \(version 4\); this bow3d reads up to 3"):
        read_replay(out)
