"""Cover Step on the bundled battlefield (scenes/war-of-bros.yaml, the bundled starter library): `bow3d los`
names the cover class and the part that gave it, in its text, its JSON and its picture's legend (the examples
of docs/war-of-bros.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bow3d.cli import main
from bow3d.ldraw import BUNDLED_LIBRARY

ROOT = Path(__file__).resolve().parents[3]
SCENE = str(ROOT / "scenes" / "war-of-bros.yaml")
LIBRARY = ["--library", str(BUNDLED_LIBRARY)]
MISSES = {"light": 1, "medium": 2, "heavy": 3, "total": 4}   # Cover Step: d4 results that miss

# firer, target, the class, the part that gives it (part, colour, line of war-of-bros.ldr), its material, the book
EXAMPLES = [
    ("blue-lt", "red-pvt-2", "light", "3003.dat, Tan, war-of-bros.ldr line 81", "sand", "Sand"),
    ("blue-sgt-1", "red-sgt-2", "medium", "3003.dat, Reddish_Brown, war-of-bros.ldr line 98", "wood", "Wood"),
    ("blue-sgt-1", "red-pvt-2", "medium", "60621.dat, Black, war-of-bros.ldr line 232", "metal", "Obstructions"),
    ("blue-sgt-2", "red-pvt-4", "total", "2465.dat, Dark_Bluish_Grey, war-of-bros.ldr line 235", "barricade",
     "Barricade"),
]


@pytest.mark.parametrize("firer, target, cover, part, material, book", EXAMPLES)
def test_cover_step_bow3d_los_names_the_class_and_the_part_in_text_and_json(firer, target, cover, part, material,
                                                                             book, capsys):
    assert main(["los", SCENE, firer, target, *LIBRARY]) == 0
    text = capsys.readouterr().out
    assert f"{cover.upper()} cover" in text and f"given by {part}: {material}, the book's {book} = {cover}" in text
    assert ("no roll, the attack is a miss" if cover == "total" else
            f"misses on a d4 roll of {MISSES[cover]} or less") in text
    assert main(["los", SCENE, firer, target, "--json", *LIBRARY]) == 0
    verdict = json.loads(capsys.readouterr().out)["verdict"]
    assert verdict["ruleset"] == "war-of-bros" and verdict["covered"] and verdict["cover"] == cover
    assert verdict["given_by"] == {**verdict["given_by"], "what": part, "material": material, "book": book,
                                   "cover": cover, "counts": True}
    assert verdict["cover_step_misses_on"] == MISSES[cover]


@pytest.mark.render
def test_cover_step_the_los_picture_s_legend_names_each_blocker_s_class(tmp_path, monkeypatch, capsys):
    """The picture's legend lines: 'part, colour, file line N (material: class (the book's word))'."""
    from bow3d.view.output import los_picture
    from bow3d.view.output.offscreen import RenderUnavailable

    seen = []
    words = los_picture._words

    def spy(aspect2d, report, boxes, size, verdict_text, verdict=None):
        seen.append((report, verdict_text, verdict))
        return words(aspect2d, report, boxes, size, verdict_text, verdict)

    monkeypatch.setattr(los_picture, "_words", spy)
    out = tmp_path / "total.png"
    try:
        code = main(["los", SCENE, "blue-sgt-2", "red-pvt-4", "--png", str(out), "--size", "480x270", *LIBRARY])
    except RenderUnavailable as error:
        pytest.skip(f"no offscreen rendering here: {error}")
    assert code == 0 and out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    report, text, verdict = seen[0]
    assert "TOTAL cover" in text and "2465.dat, Dark_Bluish_Grey, war-of-bros.ldr line 235" in text
    labels = {b.describe(): verdict.blocker_label(b) for b in report.blockers}
    assert labels["2465.dat, Dark_Bluish_Grey, war-of-bros.ldr line 235"] == "total (Barricade)"
    assert labels["3003.dat, Tan, war-of-bros.ldr line 93"] == "light (Sand)"
