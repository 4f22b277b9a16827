"""The scene file (`format: bow3d-scene/1`, YAML): battlefield, ruleset, sides, sheets, units, vehicles.

Layer: scene (imports only bow3d.ldraw). The generic part of a scene; the ruleset named in it
validates its own parameters and description sheets (bow3d.rulesets.load_scene reads a scene
with them). Public surface:

    scene = load_scene("village.yaml")      # strict: SceneError names file:line, field path and fix
    scene.unit("blue-1").position            # studs [x, y]; scene.resolve(scene.battlefield)
    save_scene(scene, "copy.yaml")           # round-trips through load_scene
"""

from bow3d.scene.checks import (
                                battlefield_extent,
                                check_battlefield,
                                check_files,
                                check_references,
                                side_colour_warnings,
                                validate_scene,
)
from bow3d.scene.io import UPGRADES, SceneIssue, SceneSchema, format_scene, load_scene, parse_scene, save_scene
from bow3d.scene.model import FORMAT, Door, RulesetChoice, Scene, Side, Unit, Vehicle

__all__ = [
    "Door", "FORMAT", "RulesetChoice", "Scene", "SceneIssue", "SceneSchema", "Side", "UPGRADES", "Unit", "Vehicle",
    "battlefield_extent", "check_battlefield", "check_files", "check_references", "format_scene", "load_scene",
    "parse_scene", "save_scene", "side_colour_warnings", "validate_scene",
]
