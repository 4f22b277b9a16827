"""What Blaze of Glory's rules read from the scene once: sheets, roles, Blood Brothers, thresholds.

Layer: rulesets (Blaze of Glory). The scene is any object with the attribute names of contract C1
(bow3d.scene); the rules never read files.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bow3d.rules.records import value_or
from bow3d.rulesets.blaze_of_glory.sheets import FULL_COVER, OPENING_COVER, PARTIAL_COVER, FigureSheet


@dataclass
class Context:
    """Scene facts and ruleset parameters the rules use, plus the geometry."""

    scene: Any
    geometry: Any
    max_rounds: int | None = None
    sheets: dict[str, FigureSheet] = field(default_factory=dict)

    def __post_init__(self) -> None:
        params = getattr(self.scene, "ruleset", None)
        self.sides = [side.id for side in self.scene.sides]
        self.sheets = dict(self.scene.sheets)
        goodies = value_or(params, "goodies", None) or (self.sides[0] if self.sides else None)
        self.goodies = goodies
        self.baddies = value_or(params, "baddies", None) or next((s for s in self.sides if s != goodies), None)
        self.brothers: dict[str, str] = dict(value_or(params, "blood_brothers", {}) or {})
        self.partial_cover = float(value_or(params, "partial_cover", PARTIAL_COVER))
        self.opening_cover = float(value_or(params, "opening_cover", OPENING_COVER))
        self.full_cover = float(value_or(params, "full_cover", FULL_COVER))
        self.order = [u.id for u in self.scene.units]   # the scene's order: ties broken by it

    def sheet(self, sheet_id: str) -> FigureSheet:
        return self.sheets[sheet_id]

    def is_goody(self, side: str) -> bool:
        return side == self.goodies

    def enemy_of(self, side: str) -> str:
        return next((s for s in self.sides if s != side), side)
