"""`bow3d schema scene`: the JSON Schema of the scene format, kept in a golden snapshot."""

from __future__ import annotations

import json
from pathlib import Path

from bow3d.cli import main
from bow3d.commands.schema import format_schema

GOLDEN = Path(__file__).resolve().parent.parent / "data" / "scenes" / "scene.schema.json"


def test_schema_matches_the_snapshot():
    """A change to the scene format must be deliberate: rewrite the snapshot with
    `bow3d schema scene -o tests/data/scenes/scene.schema.json --force` and bump the format if old files break."""
    assert format_schema("scene") == GOLDEN.read_text()


def test_schema_describes_the_c1_fields():
    """One scene schema per ruleset (selected by ruleset.name); BOW 1.3's has its sheets and parameters."""
    schema = json.loads(format_schema("scene"))
    assert {"$ref": "#/$defs/BowScene"} in schema["oneOf"]
    bow = schema["$defs"]["BowScene"]
    assert bow["properties"]["format"]["const"] == "bow3d-scene/1"
    assert bow["additionalProperties"] is False
    assert set(bow["required"]) == {"battlefield", "sides"}
    assert {"MinifigSheet", "VehicleSheet", "Unit", "Vehicle", "Weapon", "BowParams", "Side"} <= set(schema["$defs"])


def test_schema_command_prints_and_writes_without_overwriting(tmp_path, capsys):
    assert main(["schema", "scene"]) == 0
    assert json.loads(capsys.readouterr().out)["title"] == "bow3d scene"
    out = tmp_path / "scene.schema.json"
    assert main(["schema", "scene", "-o", str(out)]) == 0
    assert out.read_text() == GOLDEN.read_text()
    assert main(["schema", "scene", "-o", str(out)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert main(["schema", "scene", "-o", str(out), "--force"]) == 0
