"""Issue 30: a fourth ruleset defined only here (tests/fourth_ruleset) plays through every front end.

Registered at test time, "d6 skirmish" (move and shoot with one d6) is played in `bow3d play` offscreen with
aiming and odds, then simulated, verified, filmed and reported through the same commands as the built-in
rulesets, in child processes that import this package first and then run `bow3d.cli.main`. Nothing outside
this package names it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import bow3d.rulesets
from bow3d.bundled import scenes_dir
from bow3d.rules import RULESETS
from bow3d.rules.facets import FACETS
from bow3d.rules.table import Table
from bow3d.rulesets import load_scene
from tests.fourth_ruleset import NAME, Shoot, register

ROOT = Path(__file__).resolve().parents[2]
FIELD = ("0 A field for the d6 skirmish\n"
         "1 2 320 0 320 1 0 0 0 1 0 0 0 1 3811.dat\n"  # a 32x32 baseplate: cells 0..31
         "1 71 320 -24 300 1 0 0 0 1 0 0 0 1 3004.dat\n")  # a 1x2 brick in the middle
SCENE = """format: bow3d-scene/1
name: d6 duel
battlefield: field.ldr
ruleset: {name: d6-skirmish, hit_on: 4}
sides:
  - {id: blue, name: Blue, colour: 1}
  - {id: red, name: Red, colour: 4}
sheets:
  trooper: {move: 4, range: 14, hp: 2}
units:
  - {id: blue-1, side: blue, sheet: trooper, model: figures/blue-rifleman.ldr, position: [8.5, 8.5], facing: 0}
  - {id: blue-2, side: blue, sheet: trooper, model: figures/blue-rifleman.ldr, position: [8.5, 12.5], facing: 0}
  - {id: red-1, side: red, sheet: trooper, model: figures/red-rifleman.ldr, position: [20.5, 10.5], facing: 180}
"""
CHILD = """import sys
sys.path.insert(0, {root!r})
from tests.fourth_ruleset import register
register()
from bow3d.cli import main
sys.exit(main({argv!r}))
"""


@pytest.fixture
def skirmish(tmp_path) -> Path:
    register()
    shutil.copytree(scenes_dir() / "figures", tmp_path / "figures")
    (tmp_path / "field.ldr").write_text(FIELD, encoding="utf-8")
    (tmp_path / "duel.yaml").write_text(SCENE, encoding="utf-8")
    yield tmp_path / "duel.yaml"
    RULESETS.unregister(NAME)


def bow3d(cwd: Path, *argv: str, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", CHILD.format(root=str(ROOT), argv=list(argv))], capture_output=True,
                          text=True, timeout=timeout, cwd=cwd)


def test_it_is_registered_at_test_time_only(tmp_path):
    assert NAME not in RULESETS  # bow3d's own registry knows nothing of it
    register()
    try:
        assert RULESETS.get(NAME).presentation().__class__.__name__ == "D6Presentation"
        assert all(isinstance(RULESETS.get(NAME), facet) for facet in FACETS)
    finally:
        RULESETS.unregister(NAME)


def test_nothing_outside_its_package_names_it():
    named = [str(p.relative_to(ROOT)) for p in (ROOT / "bow3d").rglob("*.py")
             if NAME in p.read_text(encoding="utf-8") or "fourth_ruleset" in p.read_text(encoding="utf-8")]
    assert named == []


def test_the_table_aims_a_shot_with_its_odds(skirmish):
    from bow3d.replay import Session
    from bow3d.world import World

    scene = load_scene(skirmish)
    session = Session.start(scene, World.from_scene(scene), seed=1, players={"blue": None, "red": None})
    table = Table(session.game, {"blue": "human", "red": "human"})
    shots = [c for c in table.choices("blue-1") if c.kind == "shoot"]
    assert shots and all(c.aim.kind == "unit" and c.aim.target == "red-1" for c in shots)
    preview = table.preview(table.action(shots[0]))
    assert preview.odds is not None and preview.odds.success == pytest.approx(0.5) and "50%" in preview.odds.words
    assert any(c.kind == "move" and c.aim.kind == "cell" for c in table.choices("blue-1"))
    json.dumps(table.to_dict())
    assert isinstance(table.action(shots[0]), Shoot)


@pytest.mark.render
@pytest.mark.slow
def test_it_plays_simulates_verifies_films_and_reports(skirmish, renderer_available):
    folder = skirmish.parent
    (folder / "aim.txt").write_text("click-unit blue-1\nclick-unit red-1\nscreenshot aim.png\nconfirm\nend-turn\n"
                                    + "next-unit\nkey 1\nconfirm\nend-turn\n" * 12 + "screenshot end.png\n",
                                    encoding="utf-8")
    played = bow3d(folder, "play", "duel.yaml", "--offscreen-script", "aim.txt", "--replay", "duel.bowreplay",
                   "--seed", "3", "--max-rounds", "2", "--size", "640x360", "--vs-ai", "red")
    assert played.returncode == 0, played.stderr[-3000:]
    assert "game over" in played.stdout, played.stdout
    assert (folder / "aim.png").read_bytes()[:4] == b"\x89PNG"
    header, *entries = [json.loads(line) for line in (folder / "duel.bowreplay").read_text().splitlines()]
    assert header["ruleset"]["name"] == NAME
    assert entries[0]["record"] == {"type": "shoot", "unit": "blue-1", "target": "red-1"}  # aimed, then committed

    verified = bow3d(folder, "replay", "verify", "duel.bowreplay")
    assert verified.returncode == 0 and verified.stdout.startswith("ok:"), verified.stdout + verified.stderr[-2000:]

    simulated = bow3d(folder, "simulate", "duel.yaml", "--games", "4", "--seed", "1", "--max-rounds", "3",
                      "--replays", "games", "--workers", "1")
    assert simulated.returncode == 0, simulated.stderr[-3000:]
    assert len(list((folder / "games").glob("*.bowreplay"))) == 4
    for game in sorted((folder / "games").glob("*.bowreplay")):
        again = bow3d(folder, "replay", "verify", str(game))
        assert again.returncode == 0 and again.stdout.startswith("ok:"), again.stdout + again.stderr[-2000:]

    filmed = bow3d(folder, "replay", "duel.bowreplay", "--gif", "duel.gif", "--clip", "0:12", "--size", "480x270",
                  timeout=600)
    assert filmed.returncode == 0, filmed.stderr[-3000:]
    assert (folder / "duel.gif").read_bytes()[:3] == b"GIF"

    reported = bow3d(folder, "report", "duel.bowreplay", "-o", "duel.html")
    assert reported.returncode == 0, reported.stderr[-3000:]
    assert "blue-1" in (folder / "duel.html").read_text(encoding="utf-8")
