"""Issue 16: the viewer's and the play UI's words in French (HUD, prompts, key help, sheet, range rings).

The words are checked directly (no window); then the viewer and a play script run offscreen with
`--lang fr`, in a child process (one ShowBase per process), and must ask the catalogue for no
message it lacks.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

import bow3d.rulesets  # noqa: F401  (registers the built-in rulesets)
from bow3d import i18n
from bow3d.rules import RULESETS
from bow3d.view.table.hud import unbroken


def describe_action(action) -> str:
    return RULESETS.get("bow-1.3-fr").presentation().words(action)

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("action, words", [
    (SimpleNamespace(TYPE="end_turn"), "finir le tour"),
    (SimpleNamespace(TYPE="attack", target="red-1", weapon="rifle"), "attaquer red-1 avec rifle"),
    (SimpleNamespace(TYPE="treat", target="blue-2"), "soigner/réparer blue-2 (Soin/Réparation)"),
    (SimpleNamespace(TYPE="get_on", vehicle="blue-jeep", seat=0), "monter dans blue-jeep (place 0, pilote)"),
    (SimpleNamespace(TYPE="speed", speed=2), "mettre la vitesse à 2"),
    (SimpleNamespace(TYPE="turn", delta_deg=-45.0), "tourner le véhicule de -45 degrés"),
])
def test_the_actions_listed_are_french(action, words):
    with i18n.speaking("fr"), i18n.missing() as missing:
        assert describe_action(action) == words
    assert not missing
    with i18n.speaking("en"):
        assert "red-1" in describe_action(SimpleNamespace(TYPE="attack", target="red-1", weapon="rifle"))


def test_the_sheet_says_the_french_book_s_abilities():
    from bow3d.rulesets.bow.present import sheet_rows
    from bow3d.rulesets.bow.sheets import MinifigSheet, Weapon

    sheet = MinifigSheet(action_budget=2, move=5, attack=1, dodge=1, hp=1,
                         weapons=[Weapon(name="rifle", kind="ranged", damage=2)])
    with i18n.speaking("fr"), i18n.missing() as missing:
        labels = [row.label for row in sheet_rows(sheet, weapon="rifle")]
    assert labels == ["Budget d'Actions", "Mouvement", "Attaque/Dommage (rifle)", "Esquive/Armure", "PV",
                      "Soin/Réparation"]
    assert not missing


def test_a_number_and_its_sign_stay_on_one_line():
    assert unbroken("caché à 34 %, Round 1 : bleu ; fin") == "caché à 34\u00a0%, Round 1\u00a0: bleu\u00a0; fin"
    assert unbroken("34% hidden: Round 1") == "34% hidden: Round 1"


CHILD = r"""
import json, sys
sys.path.insert(0, {root!r})
from bow3d import cli, i18n
with i18n.missing() as missing:
    code = cli.main({argv!r})
print(json.dumps({{"code": code, "missing": sorted(m for _lang, m in missing)}}))
"""


@pytest.mark.render
@pytest.mark.parametrize("command", ["view", "play"])
def test_the_viewer_and_the_play_ui_in_french_miss_no_message(command, tmp_path):
    village = str(ROOT / "scenes" / "village.yaml")
    shot = str(tmp_path / "shot.png")
    if command == "view":
        argv = ["--lang", "fr", "view", village, "--screenshot", shot, "--size", "640x360", "--select", "blue-rifle-2",
                "--los", "blue-rifle-2:red-pistol"]
    else:
        script = tmp_path / "aim.txt"
        script.write_text(f"click-unit blue-rifle-2\nclick-unit red-pistol\nscreenshot {shot}\nconfirm\nend-turn\n",
                          encoding="utf-8")
        argv = ["--lang", "fr", "play", village, "--seed", "1", "--size", "640x360", "--offscreen-script", str(script),
                "--replay", str(tmp_path / "aim.bowreplay")]
    result = subprocess.run([sys.executable, "-c", CHILD.format(root=str(ROOT), argv=argv)], capture_output=True,
                            text=True, timeout=600, cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    outcome = json.loads(result.stdout.strip().splitlines()[-1])
    assert outcome == {"code": 0, "missing": []}
    assert Path(shot).stat().st_size > 10_000
