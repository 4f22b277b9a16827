"""Issue 17: the play UI's panels (the sheet, the roll tray) never hide the chosen unit or its target.

The rule alone (bow3d.view.table.panel_layout), then the play UI on the village at 1280x720 and 1920x1080:
a unit chosen and aimed at every enemy in turn; no shown panel overlaps their screen boxes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bow3d.view.table.panel_layout import mirrored, overlaps, pixel_box, place_panels

ROOT = Path(__file__).resolve().parents[2]
SHEET, TRAY = (0.70, 0.995, 0.02, 0.52), (0.70, 0.995, 0.55, 0.93)


def test_a_panel_stays_docked_moves_across_or_collapses():
    assert place_panels({"sheet": SHEET}, [(0.1, 0.2, 0.1, 0.3)]) == {"sheet": SHEET}
    assert place_panels({"sheet": SHEET}, [(0.8, 0.85, 0.1, 0.3)]) == {"sheet": mirrored(SHEET)}
    assert place_panels({"sheet": SHEET}, [(0.8, 0.85, 0.1, 0.3), (0.1, 0.2, 0.1, 0.3)]) == {"sheet": None}
    both = place_panels({"sheet": SHEET, "tray": TRAY}, [(0.8, 0.85, 0.6, 0.7)])
    assert both == {"sheet": SHEET, "tray": mirrored(TRAY)}
    assert mirrored(mirrored(SHEET)) == pytest.approx(SHEET)
    assert overlaps((0, 0.5, 0, 0.5), (0.5, 1, 0.5, 1)) and not overlaps((0, 0.4, 0, 0.4), (0.6, 1, 0.6, 1))
    assert pixel_box([(64, 36), (128, 72), (float("nan"), 0)], 1280, 720) == pytest.approx((0.05, 0.1, 0.9, 0.95))


SCRIPT = r"""
import json, sys
sys.path.insert(0, {root!r})
from bow3d.ldraw import Library
from bow3d.rulesets import load_scene
from bow3d.view.table.panel_layout import overlaps
from bow3d.view.apps.play_ui import PlayUI
from bow3d.view.apps.viewer import open_base

scene = load_scene({scene!r})
base = open_base(offscreen=True, size=({w}, {h}))
ui = PlayUI(base, scene, {replay!r}, seed=1, library=Library.from_env(None), animate=False)
from bow3d.rulesets.bow import Attack
def targets(u):
    return sorted({{a.target for a in ui._legal(u) if isinstance(a, Attack)}})
unit = max(sorted(ui.choosable()), key=lambda u: len(targets(u)))  # the unit with the most enemies to aim at
checked, covered, moved = 0, [], 0
for enemy in targets(unit):
    ui.on_click_unit(unit)
    ui.on_click_unit(enemy)
    if ui.aimed is None:
        continue
    ui.settle()
    boxes = ui.action_boxes()
    shown = [(name, rect) for name, rect in ui.panel_places.items() if rect is not None]
    for name, rect in shown:
        shown = ui.hud.rolls_shown if name == "captions" else (
            ui.tray.region if name == "tray" else ui.viewer.sheet.region).is_active()
        if shown and any(overlaps(rect, box, 0.0) for box in boxes):
            covered.append((enemy, name))
    checked += 1
    moved += any(rect != home for rect, home in [(ui.panel_places.get("sheet"), ui._sheet_home),
                                                  (ui.panel_places.get("tray"), ui.tray.frame)])
    ui.on_cancel()
print("RESULT " + json.dumps({{"checked": checked, "covered": covered, "unit": unit, "moved": moved}}))
ui.close()
"""


@pytest.mark.render
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_no_panel_hides_the_chosen_unit_or_its_target(size, tmp_path, renderer_available):
    script = SCRIPT.format(root=str(ROOT), scene=str(ROOT / "scenes" / "village.yaml"), w=size[0], h=size[1],
                           replay=str(tmp_path / "panels.bowreplay"))
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    out = json.loads(next(line for line in result.stdout.splitlines() if line.startswith("RESULT "))[7:])
    assert out["checked"] >= 3, out
    assert out["covered"] == [], out
    assert out["moved"] >= 1, out  # some target stood where a docked panel would have hidden it
