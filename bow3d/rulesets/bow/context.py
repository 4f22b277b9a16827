"""What BOW's rules read from the scene once: sheets, weapons, ruleset parameters, sides.

Layer: rulesets (BOW). The scene is any object with the attribute names of contract C1 (bow3d.scene);
the rules never read files. Weapons are looked up by name: the carrying unit's sheet first,
then the vehicle's sheet, then any sheet of the scene (an object given by another unit).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bow3d.rules.geometry import Geometry
from bow3d.rules.records import value_or
from bow3d.rulesets.bow.chance import DEFAULT_P
from bow3d.rulesets.bow.readings import REVISION, Readings, readings

DEFAULT_RANGE_BAND = 15     # BOW §2.4.2: -1 brick per 15 studs
DEFAULT_COVER_THRESHOLD = 0.25  # BOW §2.4.2 via design.md: hidden share from which a visible target is covered
STARTING_ROLL_BRICKS = 6    # BOW §2.2: "each player can do a BR with 6 bricks"
DISPUTE_BRICKS = 5          # BOW §2.4.2: visibility dispute, "a 5 bricks BR for each player"
MAX_TURN_DEG = 45.0         # BOW §3.3: changing direction, at most 45 degrees per action
STUDS_PER_SPEED = 5         # BOW §3.2: each speed step is 5 studs




@dataclass
class Context:
    """Scene facts and ruleset parameters the rules use, plus the geometry."""

    scene: Any
    geometry: Geometry
    max_rounds: int | None = None
    revision: int = REVISION     # the readings' revision the game is played with (bow3d.rulesets.bow.readings)

    def __post_init__(self) -> None:
        ruleset = getattr(self.scene, "ruleset", None)
        self.readings: Readings = readings(ruleset, self.revision)
        self.p = float(value_or(ruleset, "brick_edge_probability", DEFAULT_P))
        self.range_band = float(value_or(ruleset, "range_band_studs", DEFAULT_RANGE_BAND))
        self.cover_threshold = float(value_or(ruleset, "cover_threshold", DEFAULT_COVER_THRESHOLD))
        self.treat_removes_difference = bool(value_or(ruleset, "treat_removes_difference", False))
        self.visibility_dispute = bool(value_or(ruleset, "visibility_dispute", False))
        self.sides = [side.id for side in self.scene.sides]
        self.sheets = dict(self.scene.sheets)
        self.doors: list[tuple[str, tuple[int, int], bool]]  # (door id, cell, open), set by BowRuleset.context
        self.door_cells: dict[str, tuple[int, int]] = {}
        self.catalogue: dict[str, Any] = {}
        for sheet in self.sheets.values():
            for weapon in getattr(sheet, "weapons", None) or []:
                self.catalogue.setdefault(weapon.name, weapon)

    def sheet(self, sheet_id: str) -> Any:
        return self.sheets[sheet_id]

    def weapon(self, sheet_id: str, name: str | None) -> Any | None:
        """The weapon called `name`, from this sheet if it has one, else the scene's catalogue."""
        if name is None:
            return None
        for weapon in getattr(self.sheets[sheet_id], "weapons", None) or []:
            if weapon.name == name:
                return weapon
        return self.catalogue.get(name)

    def opponent_of(self, side: str, prefer: str | None = None) -> str:
        """The side that rolls against `side` (`prefer` when it is another side)."""
        if prefer is not None and prefer != side:
            return prefer
        others = [s for s in self.sides if s != side]
        return others[0] if others else side


def weapon_kind(weapon: Any) -> str:
    return str(value_or(weapon, "kind", "ranged"))


def weapon_reach(weapon: Any) -> float:
    return float(value_or(weapon, "reach", 1))


def weapon_arc(weapon: Any) -> float:
    return float(value_or(weapon, "arc", 180))


sheet_value = value_or   # BOW's name for reading a description sheet's field (the rules layer's reading)
