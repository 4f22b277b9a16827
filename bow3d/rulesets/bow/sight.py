"""BOW 1.3's judgement of a line of sight (§2.4.2): cover and the range penalty, from the world's facts.

Layer: rulesets (BOW). The world measures (visible fraction, blockers, distance head to head,
front arc); this module judges:
- covered (+1 dodge brick): the target is visible and the hidden share is at least the ruleset's
  `cover_threshold` (default 0.25; the book says "partially hidden", the threshold is our reading,
  a named parameter of the scene's ruleset);
- range penalty: -1 attack brick per `range_band_studs` (15) of head-to-head distance beyond the
  first band, i.e. ceil(d / band) - 1 (a distance of exactly 15, 30, 45 studs falls in the lower
  band: "put the first stud of the ruler over the firer's head").
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from bow3d.rulesets.bow.context import DEFAULT_COVER_THRESHOLD, DEFAULT_RANGE_BAND

BAND_TOLERANCE = 1e-6   # of a band: 15.0000001 studs of float noise is still 15 studs


def range_penalty(distance_studs: float, band_studs: float = DEFAULT_RANGE_BAND) -> int:
    """BOW §2.4.2: bricks taken off for range: 0 up to one band (15 studs), 1 up to two, ... (ceil(d/band) - 1)."""
    return max(0, math.ceil(distance_studs / band_studs - BAND_TOLERANCE) - 1)


def is_covered(report: Any, threshold: float = DEFAULT_COVER_THRESHOLD) -> bool:
    """BOW §2.4.2: visible, with at least `threshold` of the target hidden from the firer's eye."""
    return bool(report.visible) and (1.0 - float(report.visible_fraction)) >= threshold - 1e-12


@dataclass(frozen=True)
class SightVerdict:
    """BOW's verdict on a line of sight: what the attack roll takes from it (§2.4.2)."""

    covered: bool               # +1 dodge brick
    range_penalty: int          # attack bricks taken off
    cover_threshold: float
    range_band_studs: float

    def to_dict(self) -> dict[str, Any]:
        return {"ruleset": "bow-1.3", "covered": self.covered, "range_penalty": self.range_penalty,
                "dodge_bricks_added": 1 if self.covered else 0, "cover_threshold": self.cover_threshold,
                "range_band_studs": self.range_band_studs}


def judge_sight(report: Any, params: Any = None) -> SightVerdict:
    """The verdict on a world sight report with the scene's ruleset parameters (defaults when None)."""
    threshold = float(getattr(params, "cover_threshold", None) or DEFAULT_COVER_THRESHOLD)
    band = float(getattr(params, "range_band_studs", None) or DEFAULT_RANGE_BAND)
    return SightVerdict(is_covered(report, threshold), range_penalty(float(report.distance_studs), band),
                        threshold, band)
