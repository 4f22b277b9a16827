"""The scene file (`format: bow3d-scene/1`, YAML): battlefield, ruleset, sides, sheets, units, vehicles.

Layer: scene (imports only bow3d.ldraw). Public surface:

    scene = load_scene("village.yaml")      # strict: SceneError names file:line, field path and fix
    scene.unit("blue-1").position            # studs [x, y]; scene.resolve(scene.battlefield)
    save_scene(scene, "copy.yaml")           # round-trips through load_scene
    army_costs(scene)                        # BOW 1.3 Annex A.4 cost points per side
"""

from bow3d.scene.checks import battlefield_extent, check_battlefield, check_files, check_references, validate_scene
from bow3d.scene.cost import army_costs, unit_cost, vehicle_cost
from bow3d.scene.io import UPGRADES, format_scene, load_scene, parse_scene, save_scene
from bow3d.scene.model import (FORMAT, Door, MinifigSheet, Ruleset, Scene, Side, Unit, Vehicle, VehicleSheet, Weapon,
                               default_reach)

__all__ = [
    "Door", "FORMAT", "MinifigSheet", "Ruleset", "Scene", "Side", "UPGRADES", "Unit", "Vehicle", "VehicleSheet", "Weapon",
    "army_costs", "battlefield_extent", "check_battlefield", "check_files", "check_references", "default_reach",
    "format_scene", "load_scene", "parse_scene", "save_scene", "unit_cost", "validate_scene", "vehicle_cost",
]
