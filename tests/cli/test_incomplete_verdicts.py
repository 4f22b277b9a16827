"""A verdict built on a world with missing LDraw parts says so, and the referee commands refuse to give
one unless asked (--allow-missing): the fuzzing found `bow3d los` answering "99 % visible, not
covered" where the complete battlefield says "69 % visible, covered"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bow3d.cli import main
from tests.conftest import gallery_copy

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def gallery_missing_a_wall(tmp_path, monkeypatch):
    monkeypatch.delenv("LDRAWDIR", raising=False)
    return gallery_copy(tmp_path, battlefield=lambda text: text.replace("3010.dat", "9999zz.dat"))


def test_los_refuses_a_verdict_on_missing_parts(gallery_missing_a_wall, capsys):
    assert main(["los", str(gallery_missing_a_wall), "window-firer", "window-target"]) == 2
    err = capsys.readouterr().err
    assert "1 LDraw part missing (9999zz.dat)" in err and "--allow-missing" in err and len(err.splitlines()) == 1


def test_los_allow_missing_says_the_verdict_is_incomplete(gallery_missing_a_wall, capsys):
    assert main(["los", str(gallery_missing_a_wall), "window-firer", "window-target", "--allow-missing"]) == 0
    assert "(Incomplete: 1 LDraw part missing (9999zz.dat).)" in capsys.readouterr().out
    assert main(["los", str(gallery_missing_a_wall), "window-firer", "window-target", "--allow-missing", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["complete"] is False and report["missing_parts"] == ["9999zz.dat"]
    assert "Incomplete" in report["verdict"]["text"]


def test_heatmap_refuses_missing_parts_too(gallery_missing_a_wall, tmp_path, capsys):
    out = tmp_path / "map.png"
    assert main(["heatmap", str(gallery_missing_a_wall), "--from", "window-firer", "-o", str(out),
                 "--no-progress"]) == 2
    assert "9999zz.dat" in capsys.readouterr().err and not out.exists()


def test_a_complete_world_says_complete(capsys, monkeypatch):
    monkeypatch.delenv("LDRAWDIR", raising=False)
    assert main(["los", str(ROOT / "scenes" / "los-gallery.yaml"), "window-firer", "window-target", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["complete"] is True and report["missing_parts"] == []
    assert report["verdict"]["ruleset"] == "bow-1.3" and report["verdict"]["covered"] == report["covered"]
    assert report["verdict"]["range_penalty"] == report["range_penalty_bricks"] == 1


def test_play_script_with_an_unclosed_quote_is_one_line(tmp_path, capsys):
    script = tmp_path / "moves.txt"
    script.write_text('click-unit "blue-sword\n')
    assert main(["play", str(ROOT / "scenes" / "village.yaml"), "--offscreen-script", str(script)]) == 2
    err = capsys.readouterr().err
    assert f"{script}:1: No closing quotation" in err and "close the quote" in err
