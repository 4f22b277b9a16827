"""What War of Bros' rules read from the scene once: profiles, bases, crews, parameters, terrain.

Layer: rulesets (War of Bros). The scene is any object with the attribute names of the scene
contract (bow3d.scene); the geometry is the world (or a test double). Bases in studs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bow3d.rulesets.war_of_bros import plan
from bow3d.rulesets.war_of_bros.profile import Profile, profile_of
from bow3d.rulesets.war_of_bros.sheets import WarOfBrosParams, base_studs
from bow3d.rulesets.war_of_bros.terrain import Terrain


@dataclass
class Context:
    """Scene facts and parameters the rules use, plus the geometry."""

    scene: Any
    geometry: Any
    max_rounds: int | None = None
    params: Any = None
    sides: list[str] = field(default_factory=list)
    profiles: dict[str, Profile] = field(default_factory=dict)     # sheet id -> profile
    unit_sheet: dict[str, str] = field(default_factory=dict)       # unit id -> sheet id
    bases: dict[str, tuple[float, float]] = field(default_factory=dict)   # unit id -> (width, depth) studs
    crews: dict[str, tuple[str, ...]] = field(default_factory=dict)       # mechanized unit -> its crew
    start: dict[str, tuple[tuple[float, float], float]] = field(default_factory=dict)  # scene position, facing
    terrain: Terrain | None = None

    def __post_init__(self) -> None:
        params = getattr(self.scene, "ruleset", None)
        self.params = params if isinstance(params, WarOfBrosParams) else WarOfBrosParams()
        self.sides = [side.id for side in self.scene.sides]
        self.profiles = {sid: profile_of(sid, sheet) for sid, sheet in self.scene.sheets.items()}
        for item in (*self.scene.units, *(getattr(self.scene, "vehicles", None) or [])):
            self.unit_sheet[item.id] = item.sheet
            base = getattr(item, "base", None)
            self.bases[item.id] = tuple(base) if base is not None else base_studs(self.profiles[item.sheet].category)
            if item.position is not None:
                self.start[item.id] = ((float(item.position[0]), float(item.position[1])), float(item.facing))
        for vehicle in getattr(self.scene, "vehicles", None) or []:
            self.crews[vehicle.id] = tuple(vehicle.occupants or ())
        self.terrain = Terrain.of(self.geometry, self.params.terrain, dict(self.params.cover))

    def profile(self, unit_id: str) -> Profile:
        return self.profiles[self.unit_sheet[unit_id]]

    def corners(self, unit_id: str, position: tuple[float, float], facing: float) -> plan.Polygon:
        width, depth = self.bases[unit_id]
        return plan.base_corners(position, facing, width, depth)
