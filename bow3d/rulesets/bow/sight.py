"""BOW 1.3's judgement of a line of sight (§2.4.2): seen, cover and the range penalty, from the world's facts.

Layer: rulesets (BOW).

More: docs/modules/rulesets-bow.md#sight.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from bow3d.rulesets.bow.context import DEFAULT_COVER_THRESHOLD, DEFAULT_RANGE_BAND
from bow3d.rulesets.bow.readings import readings

BAND_TOLERANCE = 1e-6   # of a band: 15.0000001 studs of float noise is still 15 studs


def range_penalty(distance_studs: float, band_studs: float = DEFAULT_RANGE_BAND, edge: str = "lower") -> int:
    """BOW §2.4.2: bricks taken off for range: 0 up to one band (15 studs), 1 up to two, ... (ceil(d/band) - 1);
    with `edge` 'upper', a distance exactly on a band's edge counts in the next band (floor(d/band))."""
    if edge == "upper":
        return max(0, math.floor(distance_studs / band_studs + BAND_TOLERANCE))
    return max(0, math.ceil(distance_studs / band_studs - BAND_TOLERANCE) - 1)


def sees(report: Any, glass_hides: bool = True) -> bool:
    """BOW §2.4.2 "not hidden behind something": some of the target seen with nothing in the way, or
    through glass only when glass does not hide."""
    return bool(report.visible) or (not glass_hides and float(getattr(report, "transparent_fraction", 0.0)) > 0.0)


def is_covered(report: Any, threshold: float = DEFAULT_COVER_THRESHOLD, glass_hides: bool = True) -> bool:
    """BOW §2.4.2: seen, with at least `threshold` of the target hidden from the firer's eye (glass counts
    in the hidden share: a target behind glass is covered)."""
    return sees(report, glass_hides) and (1.0 - float(report.visible_fraction)) >= threshold - 1e-12


@dataclass(frozen=True)
class SightVerdict:
    """BOW's verdict on a line of sight: what the attack roll takes from it (§2.4.2)."""

    covered: bool               # +1 dodge brick
    range_penalty: int          # attack bricks taken off
    cover_threshold: float
    range_band_studs: float
    visible: bool = True        # seen, as the readings judge it (glass)
    through_glass: float = 0.0  # the share of the target seen only through glass (0 when glass hides)

    def to_dict(self) -> dict[str, Any]:
        return {"ruleset": "bow-1.3", "visible": self.visible, "covered": self.covered,
                "range_penalty": self.range_penalty, "dodge_bricks_added": 1 if self.covered else 0,
                "cover_threshold": self.cover_threshold, "range_band_studs": self.range_band_studs,
                "through_glass": round(self.through_glass, 4)}

    def range_rings(self, out_to_studs: float) -> tuple[tuple[float, str], ...]:
        """The range bands round the firer (§2.4.2) out to `out_to_studs`, at least three, with what
        each costs: ((15, '15 studs'), (30, '30 studs: -1 brick'), (45, '45 studs: -2 bricks'), ...)."""
        from bow3d.rulesets.bow.narrator import band_words

        count = max(3, math.ceil(out_to_studs / self.range_band_studs - BAND_TOLERANCE))
        return tuple((k * self.range_band_studs, band_words(k * self.range_band_studs, k - 1))
                     for k in range(1, count + 1))


def range_rings(params: Any = None, out_to_studs: float = 0.0) -> tuple[tuple[float, str], ...]:
    """The range bands of the scene's parameters (§2.4.2), as a verdict draws them (SightVerdict.range_rings)."""
    band = float(getattr(params, "range_band_studs", None) or DEFAULT_RANGE_BAND)
    return SightVerdict(False, 0, DEFAULT_COVER_THRESHOLD, band).range_rings(out_to_studs)


def judge_sight(report: Any, params: Any = None, revision: int | None = None) -> SightVerdict:
    """The verdict on a world sight report with the scene's ruleset parameters (defaults when None) and
    the readings of `revision` (default the current one) for those it leaves out."""
    threshold = float(getattr(params, "cover_threshold", None) or DEFAULT_COVER_THRESHOLD)
    band = float(getattr(params, "range_band_studs", None) or DEFAULT_RANGE_BAND)
    read = readings(params, revision)
    return SightVerdict(is_covered(report, threshold, read.glass_hides),
                        range_penalty(float(report.distance_studs), band, read.range_edge), threshold, band,
                        sees(report, read.glass_hides),
                        0.0 if read.glass_hides else float(getattr(report, "transparent_fraction", 0.0)))
