"""End to end: `bow3d los` and `bow3d heatmap` as a user types them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bow3d.cli import main

DATA = Path(__file__).resolve().parents[1] / "data" / "world"
GALLERY = str(DATA / "gallery.yaml")
EXAMPLE = str(DATA / "example-2-4-2.yaml")


def library_args(world_library) -> list[str]:
    return ["--library", str(world_library.roots[0])]


def png_or_skip(run):
    from bow3d.view.output.offscreen import RenderUnavailable

    try:
        return run()
    except RenderUnavailable as error:
        pytest.skip(f"no offscreen rendering here: {error}")


def test_los_verdict_in_words(world_library, capsys):
    assert main(["los", GALLERY, "blue-2", "red-2", *library_args(world_library)]) == 0
    out = capsys.readouterr().out.strip()
    assert out.startswith("blue-2 can see red-2: ") and "covered (" in out and "3004.dat, Light_Bluish_Grey, " \
        "gallery.ldr line" in out and "10.0 studs: no range penalty, in front arc." in out
    assert len(out.splitlines()) == 1


def test_los_json(world_library, capsys):
    assert main(["los", GALLERY, "blue-3", "red-3", "--json", *library_args(world_library)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["visible"] is False and data["blockers"][0]["kind"] == "decor" and data["samples"] >= 64
    assert len(data["points_ldu"]) == len(data["seen"]) == data["samples"]


def test_s2_4_2_los_lists_every_enemy_best_first(world_library, capsys):
    """BOW 1.3 §2.4.2 example: minifig 4 (far, open) before 3 (covered) before 2 (hidden); 1 (behind) last."""
    assert main(["los", EXAMPLE, "firer", *library_args(world_library)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert [line.split(":")[0].split()[-1] for line in lines] == ["minifig-4", "minifig-3", "minifig-2", "minifig-1"]
    assert "NOT in front arc" in lines[-1] and "cannot see" in lines[2] and "-3 bricks" in lines[0]


@pytest.mark.parametrize("args, words", [
    (["blue-1", "green-7"], "unknown unit or vehicle 'green-7' (known: blue-1, red-1, blue-2"),
    (["nobody"], "unknown unit or vehicle 'nobody' (known: blue-1"),
])
def test_los_bad_ids_are_one_line_exit_2(world_library, capsys, args, words):
    assert main(["los", GALLERY, *args, *library_args(world_library)]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and len(err.splitlines()) == 1


def _off_scene(tmp_path, change: str) -> Path:
    text = (DATA / "gallery.yaml").read_text()
    if change == "aboard":
        text = text.replace("position: [14.5, 4.5], ", "").replace(
            "units:", "  cart: {kind: vehicle, speed: 2, seats: 2}\nunits:") + \
            "vehicles:\n  - {id: red-cart, side: red, sheet: cart, model: 3001.dat, position: [30, 60], " \
            "occupants: [red-1]}\n"
    else:
        text = text.replace("position: [14.5, 4.5]", "position: [140.5, 4.5]")
    scene = tmp_path / "off.yaml"
    for name in ("gallery.ldr", "minifig.ldr"):  # beside the scene: its files are read inside its folder
        (tmp_path / name).write_bytes((DATA / name).read_bytes())
    scene.write_text(text)
    return scene


def test_los_unit_off_the_battlefield_exit_2(world_library, tmp_path, capsys):
    assert main(["los", str(_off_scene(tmp_path, "outside")), "blue-1", "red-1", *library_args(world_library)]) == 2
    err = capsys.readouterr().err
    # named as `scene check` names it: the file, the line, the field and what to do
    assert "off.yaml:21: units[1].position: [140.5, 4.5] lies outside the battlefield" in err
    assert "move it onto the battlefield" in err and len(err.splitlines()) == 1


def test_los_judges_a_unit_aboard_in_its_seat(world_library, tmp_path, capsys):
    """BOW 1.3 §3.5: an occupant is a body in its vehicle, seen (or hidden) for itself."""
    assert main(["los", str(_off_scene(tmp_path, "aboard")), "blue-1", "red-1", "--json",
                 *library_args(world_library)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["target"] == "red-1" and data["samples"] > 0


def test_los_png_never_overwrites(world_library, tmp_path, capsys):
    out = tmp_path / "sight.png"
    out.write_bytes(b"mine")
    assert main(["los", GALLERY, "blue-4", "red-4", "--png", str(out), *library_args(world_library)]) == 2
    assert out.read_bytes() == b"mine" and "already exists" in capsys.readouterr().err


@pytest.mark.render
def test_los_png(world_library, tmp_path, capsys):
    out = tmp_path / "sight.png"
    code = png_or_skip(lambda: main(["los", GALLERY, "blue-4", "red-4", "--png", str(out),
                                     "--size", "480x270", *library_args(world_library)]))
    assert code == 0 and out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 5000
    assert "wrote" in capsys.readouterr().out


@pytest.mark.render
def test_heatmap_png(world_library, tmp_path, capsys):
    out = tmp_path / "map.png"
    code = png_or_skip(lambda: main(["heatmap", EXAMPLE, "--from", "firer", "-o", str(out), "--no-progress",
                                     *library_args(world_library)]))
    assert code == 0 and out.read_bytes()[:4] == b"\x89PNG"
    assert "Seen from firer: a minifig on" in capsys.readouterr().out
    from panda3d.core import PNMImage

    from bow3d.view.output.heatmap_picture import HIDDEN

    image = PNMImage()
    assert image.read(str(out))
    # issue 17: the legend under the map; its first swatch (hidden, blue) 12 px from the left, 38 px above the bottom
    rgb = tuple(round(c * 255) for c in image.get_xel(12 + 12, image.get_y_size() - 38 + 12))
    assert rgb == tuple(int(c) for c in HIDDEN)


def test_heatmap_bad_arguments(world_library, tmp_path, capsys):
    out = str(tmp_path / "map.png")
    assert main(["heatmap", EXAMPLE, "--from", "nobody", "-o", out, *library_args(world_library)]) == 2
    assert "known: firer, minifig-1" in capsys.readouterr().err
    assert main(["heatmap", EXAMPLE, "--cover", "green", "-o", out, *library_args(world_library)]) == 2
    assert "sides: blue, red" in capsys.readouterr().err
