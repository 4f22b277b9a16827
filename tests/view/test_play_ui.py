"""A whole hot-seat game played through the play UI's own input handlers, offscreen; its replay verifies.

Runs in a child process (one ShowBase per process); skipped without a graphics pipe.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.render

SCENE = """format: bow3d-scene/1
name: Duel
battlefield: field.ldr
ruleset: {brick_edge_probability: 0.5}
sides:
  - {id: blue, name: Blue army, colour: 1}
  - {id: red, name: Red army, colour: 4}
sheets:
  rifleman:
    kind: minifig
    action_budget: 2
    move: 4
    attack: 1
    dodge: 1
    hp: 2
    weapons: [{name: rifle, kind: ranged, damage: 1}]
units:
  - {id: blue-1, side: blue, sheet: rifleman, model: figure.ldr, position: [2.5, 2.5], facing: 0}
  - {id: blue-2, side: blue, sheet: rifleman, model: figure.ldr, position: [2.5, 6.5], facing: 0}
  - {id: red-1, side: red, sheet: rifleman, model: figure.ldr, position: [27.5, 3.5], facing: 180}
  - {id: red-2, side: red, sheet: rifleman, model: figure.ldr, position: [27.5, 5.5], facing: 180}
"""
FIELD = "0 Field\n1 2 300 8 80 30 0 0 0 0.3333333 0 0 0 8 box.dat\n"  # 30 x 8 studs, top at z = 0
FIGURE = "0 Figure\n1 16 0 0 0 1 0 0 0 2 0 0 0 1 box.dat\n"

SCRIPT = r"""
import json, sys
from pathlib import Path
sys.path.insert(0, {root!r})
from tests.conftest import write_library, write
from bow3d.ldraw import Library
from bow3d.replay.verify import verify_replay
from bow3d.rulesets import load_scene
from bow3d.view.camera.picking import project
from bow3d.view.apps.play_ui import PlayUI
from bow3d.view.apps.viewer import open_base

root = Path({tmp!r})
library = Library([write_library(root / "ldraw")])
write(root / "field.ldr", {field!r}); write(root / "figure.ldr", {figure!r})
scene = load_scene(write(root / "duel.yaml", {scene!r}))
base = open_base(offscreen=True, size=(320, 180))
ui = PlayUI(base, scene, root / "duel.bowreplay", seed=7, library=library, animate=False, max_rounds=6)
seen = dict(clicked=None, odds=[], moved=0, attacks=0, turns=0)

# one real mouse click through picking: the pixel of a unit's head picks that unit
first = sorted(ui.choosable())[0]
x, y = project(base, [ui.nodes.head_point(first)])[0]
ui.on_mouse_click(float(x), float(y))
seen["clicked"] = ui.selected
ui.on_cancel()

for _ in range(200):
    if ui.game.is_over:
        break
    unit = sorted(ui.choosable())[0]
    ui.on_click_unit(unit)
    assert ui.selected == unit, (unit, ui.hud.lines)
    enemy = next(u.id for u in ui.game.state.units.values() if u.side != ui.game.state.units[unit].side and u.alive)
    ex, ey = ui.game.state.units[enemy].position
    free = [c for c in ui.reachable if all(u.cell != c for u in ui.game.state.units.values())]
    if free and abs(ui.game.state.units[unit].position[0] - ex) > 8:  # close in first (BOW 2.3.1), then fire
        cell = min(free, key=lambda c: (c[0] + 0.5 - ex) ** 2 + (c[1] + 0.5 - ey) ** 2)
        ui.on_click_cell(cell)  # previewed: nothing moves yet (issue 17)
        assert ui.game.state.units[unit].position != (cell[0] + 0.5, cell[1] + 0.5) and ui.aimed is not None
        assert "Enter" in ui.hud.lines.prompt
        ui.on_click_cell(cell)  # the same cell again commits
        seen["moved"] += 1
        assert ui.game.state.units[unit].position == (cell[0] + 0.5, cell[1] + 0.5)
        assert tuple(ui.nodes.units[unit].get_pos())[:2] == ((cell[0] + 0.5) * 20, (cell[1] + 0.5) * 20)
    if not ui.game.is_over:
        ui.on_click_unit(enemy)
    if ui.aimed is not None:
        seen["odds"].append(ui.hud.lines.prompt)
        ui.on_confirm()
        ui.settle()
        seen["attacks"] += 1
        seen["tray"] = seen.get("tray", True) and ui.tray.region.is_active() and any(
            "bricks on edge" in c or "brick on edge" in c for c in ui.hud.lines.rolls)
    if not ui.game.is_over and ui.game.state.active_unit == unit:
        ui.on_end_turn()
    ui.settle()
    seen["turns"] += 1
assert ui.game.is_over, ui.hud.lines
ui.viewer.screenshot(str(root / "end.png"))
ui.close()
from bow3d.world import World
result = verify_replay(root / "duel.bowreplay", geometry=World.from_scene(scene, library))  # the test's own library
seen.update(ok=result.ok, problem=result.first_divergence if hasattr(result, "first_divergence") else None,
            records=len(ui.game.records), winner=ui.game.winner, status=ui.hud.lines.status,
            played=[u.played or u.marking_bricks for u in ui.game.state.units.values()],
            dead=[not p.alive for p in ui.nodes.pieces.values()],
            marks=[[max(u.marking_bricks, int(u.played)), ui.nodes.pieces[u.id].marks_state[0]]
                   for u in ui.game.state.units.values()])
print("RESULT " + json.dumps(seen))
"""


def _play(tmp_path: Path) -> dict:
    root = str(Path(__file__).resolve().parents[2])
    code = SCRIPT.format(root=root, tmp=str(tmp_path), field=FIELD, figure=FIGURE, scene=SCENE)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    line = next(line for line in result.stdout.splitlines() if line.startswith("RESULT "))
    return json.loads(line[len("RESULT "):])


def test_hot_seat_game_through_the_handlers_writes_a_replay_that_verifies(tmp_path, renderer_available):
    seen = _play(tmp_path)
    assert seen["ok"], seen
    assert seen["clicked"] is not None  # a mouse click on a head picked the unit
    assert seen["attacks"] >= 1 and all("% to succeed" in line for line in seen["odds"])  # odds before committing
    assert seen["moved"] >= 2 and seen["turns"] >= 4
    assert seen["tray"]  # every attack's brick rolls thrown on the tray, with their captions
    assert all(state == drawn for state, drawn in seen["marks"])  # BOW §2.2 marking bricks drawn as the rules say
    assert any(drawn for _, drawn in seen["marks"])
    assert seen["records"] > seen["turns"]  # brick rolls recorded between the actions
    assert seen["status"].startswith("Game over")
    if seen["winner"]:
        assert any(seen["dead"])  # the loser's unit lies on the field
    header = json.loads((tmp_path / "duel.bowreplay").read_text().splitlines()[0])
    assert header["players"] == {"blue": "human", "red": "human"} and header["seed"] == 7
    assert (tmp_path / "end.png").read_bytes()[:4] == b"\x89PNG"


PILOT_SCENE = """format: bow3d-scene/1
name: Drive
battlefield: field.ldr
sides:
  - {id: blue, colour: 1}
  - {id: red, colour: 4}
sheets:
  driver: {kind: minifig, weapons: [{name: pistol, kind: ranged, damage: 1}]}
  jeep: {kind: vehicle, speed: 3, armor: 2, hp: 2, seats: 2}
units:
  - {id: blue-1, side: blue, sheet: driver, model: figure.ldr}
  - {id: red-1, side: red, sheet: driver, model: figure.ldr, position: [27.5, 7.5], facing: 180}
vehicles:
  - {id: blue-jeep, side: blue, sheet: jeep, model: jeep.ldr, position: [4, 3], facing: 0, occupants: [blue-1]}
"""
PILOT_SCRIPT = r"""
import json, sys
from pathlib import Path
sys.path.insert(0, {root!r})
from tests.conftest import write_library, write
from bow3d.ldraw import Library
from bow3d.replay.verify import verify_replay
from bow3d.rulesets import load_scene
from bow3d.view.apps.play_ui import PlayUI
from bow3d.view.apps.viewer import open_base
from bow3d.world import World

root = Path({tmp!r})
library = Library([write_library(root / "ldraw")])
write(root / "field.ldr", {field!r}); write(root / "figure.ldr", {figure!r})
write(root / "jeep.ldr", "0 Jeep\n1 2 0 0 0 2 0 0 0 1 0 0 0 1.4 box.dat\n")  # 40 x 28 LDU, 24 high
scene = load_scene(write(root / "drive.yaml", {scene!r}))
base = open_base(offscreen=True, size=(320, 180))
from panda3d.core import ClockObject
base.clock.set_mode(ClockObject.M_forced)      # 10 frames a second, whatever the machine
base.clock.set_frame_rate(10)
ui = PlayUI(base, scene, root / "drive.bowreplay", seed=11, library=library, animate=True,
            players={{"blue": "human", "red": "ai"}})
ui.settle()
out = dict(side=ui.game.state.side_to_play)
ui.on_click_unit("blue-jeep")                  # a click on the vehicle chooses its pilot
out["selected"] = ui.selected
out["hidden"] = ui.nodes.units["blue-1"].is_hidden()  # aboard: not drawn on the ground
ui.on_speed(+1)
out["speed"] = ui.game.state.vehicles["blue-jeep"].speed
before = tuple(ui.nodes.vehicles["blue-jeep"].get_pos())
ui.on_drive()
base.task_mgr.step(); base.task_mgr.step()
middle = tuple(ui.nodes.vehicles["blue-jeep"].get_pos())
out["animated"] = before[0] < middle[0] < before[0] + 100 - 1   # on its way after 0.2 s of 0.45
for _ in range(8):
    base.task_mgr.step()
after = tuple(ui.nodes.vehicles["blue-jeep"].get_pos())
out["moved_ldu"] = [round(a - b, 3) for a, b in zip(after, before)]
out["state"] = ui.game.state.vehicles["blue-jeep"].position
ui.on_end_turn()
ui.close()
out["ok"] = verify_replay(root / "drive.bowreplay", geometry=World.from_scene(scene, library)).ok
print("RESULT " + json.dumps(out))
"""


def test_piloting_speed_then_the_compulsory_move_through_the_handlers(tmp_path, renderer_available):
    """BOW 1.3 §3.3 driving a vehicle: speed +1, then the compulsory move of speed x 5 studs."""
    root = str(Path(__file__).resolve().parents[2])
    code = PILOT_SCRIPT.format(root=root, tmp=str(tmp_path), field=FIELD, figure=FIGURE, scene=PILOT_SCENE)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    out = json.loads(next(line for line in result.stdout.splitlines() if line.startswith("RESULT "))[7:])
    assert out["selected"] == "blue-1" and out["hidden"]
    assert out["speed"] == 1 and out["animated"]  # the compulsory move glides, it does not jump
    assert out["moved_ldu"][:2] == [100.0, 0.0]  # 5 studs towards facing 0 (world +X)
    assert out["state"] == [9.0, 3.0]
    assert out["ok"]


@pytest.mark.parametrize("bricks,edges", [(1, 0), (1, 1), (4, 2), (6, 6), (10, 0)])
def test_s2_1_physics_throw_lands_on_the_recorded_result(bricks, edges):
    """BOW 1.3 §2.1: the thrown 2x2 bricks show exactly the recorded number on their edge, all at rest on the tray."""
    import numpy as np

    from bow3d.view.throws.brick_physics import bullet_available, throws_for

    if not bullet_available():
        pytest.skip("panda3d.bullet is not installed")
    throws = throws_for(bricks, edges, seed=21)
    assert throws is not None and len(throws) == bricks
    assert sum(t.on_edge for t in throws) == edges
    rest = np.array([t.centres[-1, 2] for t in throws])
    assert np.allclose(rest, np.where([t.on_edge for t in throws], 20.0, 12.0), atol=0.5)  # 40 x 40 x 24 LDU brick
    assert all(t.centres[0, 2] > 60 for t in throws)  # thrown from above the tray
    assert throws_for(bricks, edges, seed=21) == throws  # the same roll looks the same every time
