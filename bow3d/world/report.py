"""What the world answers: sight reports with their blockers, and vehicle contacts.

Layer: world. Values are frozen dataclasses; distances in studs, fractions in [0, 1].
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

RANGE_BAND_STUDS = 15.0   # BOW 1.3 §2.4.2: -1 brick per full 15 studs beyond the first 15
COVER_THRESHOLD = 0.25    # BOW 1.3 §2.4.2 via design.md: hidden share from which a visible target is covered
RANGE_TOLERANCE_STUDS = 1e-6
VERDICT_BLOCKERS = 3      # blockers named in a verdict; the rest are summed up  # 15.0000001 studs of float noise is still 15 studs


def percent(fraction: float) -> str:
    """'62 %'-style words that never round a little to nothing: '<1%' and '>99%' at the ends."""
    if 0.0 < fraction < 0.005:
        return "<1%"
    if 0.995 <= fraction < 1.0:
        return ">99%"
    return f"{fraction:.0%}"


def range_penalty(distance_studs: float, band_studs: float = RANGE_BAND_STUDS) -> int:
    """Bricks taken off for range: 0 up to one band, 1 up to two, ... (ceil(d / band) - 1)."""
    return max(0, math.ceil(distance_studs / band_studs - RANGE_TOLERANCE_STUDS) - 1)


@dataclass(frozen=True)
class Blocker:
    """Something that hides part of a target: decor (one placed part) or a unit or a vehicle."""

    kind: str                 # 'decor' | 'unit' | 'vehicle'
    share: float              # fraction of the target's facing samples it is the first to hide
    id: str | None = None     # unit or vehicle id
    part: str | None = None   # decor: '3004.dat'
    colour: str | None = None
    file: str | None = None
    line: int | None = None

    def describe(self) -> str:
        """'3004.dat, Light_Bluish_Grey, village.ldr line 212' or 'unit red-1'."""
        if self.kind == "decor":
            where = f", {self.file} line {self.line}" if self.file else ""
            return f"{self.part}, {self.colour}{where}"
        return f"{self.kind} {self.id}"

    def to_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if v is not None}


@dataclass(frozen=True, eq=False)
class SightReport:
    """The referee's answer to 'can FIRER see TARGET' (implements C2 SightReport).

    points (K, 3) float64: the target's samples facing the eye (world, LDU); seen (K,) bool;
    blocked_by (K,) int32: index into `blockers` of what hides each sample (-1 = seen).
    """

    firer: str
    target: str
    visible: bool
    visible_fraction: float
    covered: bool
    distance_studs: float
    range_penalty: int
    in_front_arc: bool
    blockers: tuple[Blocker, ...]
    cover_threshold: float
    eye: np.ndarray = field(repr=False)
    points: np.ndarray = field(repr=False)
    seen: np.ndarray = field(repr=False)
    blocked_by: np.ndarray = field(repr=False)

    @property
    def hidden_fraction(self) -> float:
        return 1.0 - self.visible_fraction if self.points.shape[0] else 1.0

    @property
    def sample_count(self) -> int:
        return int(self.points.shape[0])

    def verdict(self) -> str:
        """One paragraph in plain words, as a referee would say it."""
        named = [f"{b.describe()} ({percent(b.share)})" for b in self.blockers[:VERDICT_BLOCKERS]]
        rest = self.blockers[VERDICT_BLOCKERS:]
        if rest:
            named.append(f"{len(rest)} more ({percent(sum(b.share for b in rest))})")
        hiders = ", ".join(named)
        rng = f"{self.distance_studs:.1f} studs: " + (f"-{self.range_penalty} brick" +
                                                      ("s" if self.range_penalty > 1 else "")
                                                      if self.range_penalty else "no range penalty")
        arc = "in front arc" if self.in_front_arc else "NOT in front arc (behind the firer)"
        if not self.visible:
            why = f"hidden by {hiders}" if hiders else "no part of it faces the firer"
            return f"{self.firer} cannot see {self.target}: {why}; {rng}, {arc}."
        seen = f"{percent(self.visible_fraction)} visible"
        if self.covered:
            cover = f"covered ({percent(self.hidden_fraction)} hidden by {hiders}; cover from {self.cover_threshold:.0%})"
        elif hiders:
            cover = f"not covered ({percent(self.hidden_fraction)} hidden by {hiders}, under {self.cover_threshold:.0%})"
        else:
            cover = "not covered (nothing in the way)"
        return f"{self.firer} can see {self.target}: {seen}, {cover}, {rng}, {arc}."

    def to_dict(self) -> dict:
        """JSON-ready: everything but the arrays of samples, which come as lists."""
        return {"firer": self.firer, "target": self.target, "visible": bool(self.visible),
                "visible_fraction": round(float(self.visible_fraction), 4),
                "hidden_fraction": round(float(self.hidden_fraction), 4), "covered": bool(self.covered), "cover_threshold": self.cover_threshold,
                "distance_studs": round(self.distance_studs, 3), "range_penalty_bricks": int(self.range_penalty),
                "in_front_arc": bool(self.in_front_arc), "blockers": [b.to_dict() for b in self.blockers],
                "samples": self.sample_count, "verdict": self.verdict(), "eye_ldu": [round(float(v), 2) for v in self.eye],
                "points_ldu": np.round(self.points, 2).tolist(), "seen": [bool(v) for v in self.seen]}


@dataclass(frozen=True)
class Contact:
    """The first thing a moving vehicle meets (implements C2 Contact)."""

    kind: str                    # 'decor' | 'unit' | 'vehicle' | 'ground' | 'edge'
    other: str | None            # id of the unit or vehicle hit
    distance_studs: float        # travelled before the contact (turns: along the arc of the contact point)
    sector: str | None           # 'front' | 'side' | 'back' of the hit vehicle
    point: tuple[float, float, float] | None = None  # world, LDU
    decor: str | None = None     # decor part hit, described

    def describe(self) -> str:
        what = {"decor": f"decor ({self.decor})", "unit": f"unit {self.other}", "ground": "the ground",
                "vehicle": f"vehicle {self.other} ({self.sector} sector)", "edge": "the battlefield's edge"}
        return f"{what.get(self.kind, self.kind)} after {self.distance_studs:.2f} studs"
