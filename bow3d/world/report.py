"""What the world answers: sight reports with their blockers, vehicle contacts, segment crossings.

Layer: world. Values are frozen dataclasses; distances in studs (any unit through `distance(unit)`,
see bow3d.units), heights as world z in LDU, fractions in [0, 1]. `referee_sight` and `sight_json` are
the one way `bow3d los` and the server's referee page ask a world and a ruleset (passed in) and answer.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from bow3d.i18n import _, ngettext
from bow3d.units import convert


@dataclass(frozen=True)
class Blocker:
    """Something that hides part of a target: decor (one placed part), a unit, a vehicle, a closed
    door or an obstacle added by the rules.

    distance_studs: from the firer's eye to the nearest point where it hides the target (along the
    sight lines, 3D). top_ldu: world z of the top of its box (decor: the placed part's triangles
    for sight, studs dropped; a body: its box as it stands). height_ldu: top_ldu above the
    target's feet (the ground under the target), i.e. how high it rises over the target's ground.
    """

    kind: str                 # 'decor' | 'unit' | 'vehicle' | 'door' | 'obstacle'
    share: float              # fraction of the target's facing samples it is the first to hide
    id: str | None = None     # unit, vehicle, door or obstacle id
    part: str | None = None   # decor: '3004.dat'
    colour: str | None = None
    file: str | None = None
    line: int | None = None
    material: str | None = None        # bow3d.world.materials: 'stone', 'wood', 'glass', 'plant', ...
    distance_studs: float | None = None
    top_ldu: float | None = None
    height_ldu: float | None = None
    instance: int | None = None        # decor: index into World.instances (for remove_decor)

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

    visible: some of the target is seen with nothing in the way; visible_fraction: that share of the
    target as the eye sees it (sight method silhouette-1: of its silhouette; surface-samples-1: of its
    samples facing the eye); transparent_fraction: the share seen only through transparent parts
    (glass), counted in the hidden share: the ruleset decides whether glass hides (BOW: it does not,
    but it covers). blockers: along the line of fire, nearest to the firer first (`blockers_by_share`:
    largest share first); a ray's blocker is the first opaque thing on it, or the first glass when
    only glass is in the way. points (K, 3) float64: where each ray meets the target (world, LDU);
    seen (K,) bool; blocked_by (K,) int32: index into `blockers` of what hides each one (-1 = seen).
    Heights are world z in LDU: the target's feet (its lowest point, on the ground under it) and
    the top of its box, the firer's feet and eye (`eye_z_ldu`). complete: no LDraw part was missing
    from the decor or any body model (`missing_parts` names them: magenta boxes stood in for them).
    """

    firer: str
    target: str
    visible: bool
    visible_fraction: float
    distance_studs: float
    in_front_arc: bool
    blockers: tuple[Blocker, ...]
    eye: np.ndarray = field(repr=False)
    points: np.ndarray = field(repr=False)
    seen: np.ndarray = field(repr=False)
    blocked_by: np.ndarray = field(repr=False)
    target_feet_ldu: float = math.nan
    target_top_ldu: float = math.nan
    firer_feet_ldu: float = math.nan
    complete: bool = True
    missing_parts: tuple[str, ...] = ()
    by_share: tuple[int, ...] | None = field(default=None, repr=False)  # indices into blockers, largest share first
    transparent_fraction: float = 0.0  # share of the target seen only through transparent parts (glass)
    through_glass: np.ndarray | None = field(default=None, repr=False)  # (K,) bool: those rays
    method: str | None = None          # the sight method that measured it (bow3d.world.sight)

    @property
    def blockers_by_share(self) -> tuple[Blocker, ...]:
        """The blockers, largest share first (ties in the order the world found them)."""
        if self.by_share is None:
            return tuple(sorted(self.blockers, key=lambda b: -b.share))
        return tuple(self.blockers[k] for k in self.by_share)

    @property
    def eye_z_ldu(self) -> float:
        return float(self.eye[2])

    def distance(self, unit: str = "studs") -> float:
        """Head to head, 3D, in any unit of bow3d.units ('studs', 'cm', 'in', 'mm', 'ldu', ...)."""
        return float(convert(self.distance_studs, "studs", unit))

    @property
    def hidden_fraction(self) -> float:
        return 1.0 - self.visible_fraction if self.points.shape[0] else 1.0

    @property
    def sample_count(self) -> int:
        return int(self.points.shape[0])

    def to_dict(self) -> dict:
        """JSON-ready facts: everything but the arrays of samples, which come as lists. Blockers come
        largest share first (each with its distance_studs along the line of fire). No verdict: the
        ruleset judges (bow3d los puts its verdict beside these facts)."""
        return {"firer": self.firer, "target": self.target, "visible": bool(self.visible),
                "visible_fraction": round(float(self.visible_fraction), 4),
                "hidden_fraction": round(float(self.hidden_fraction), 4),
                "distance_studs": round(self.distance_studs, 3),
                "in_front_arc": bool(self.in_front_arc), "blockers": [b.to_dict() for b in self.blockers_by_share],
                "samples": self.sample_count, "eye_ldu": [round(float(v), 2) for v in self.eye],
                "points_ldu": np.round(self.points, 2).tolist(), "seen": [bool(v) for v in self.seen],
                "distance_cm": round(self.distance("cm"), 3), "distance_in": round(self.distance("in"), 3),
                "target_feet_ldu": _round(self.target_feet_ldu), "target_top_ldu": _round(self.target_top_ldu),
                "firer_feet_ldu": _round(self.firer_feet_ldu), "eye_z_ldu": _round(self.eye_z_ldu),
                "complete": bool(self.complete), "missing_parts": list(self.missing_parts),
                "transparent_fraction": round(float(self.transparent_fraction), 4),
                "through_glass": [bool(v) for v in self.through_glass] if self.through_glass is not None else [],
                "sight_method": self.method}


def _round(value: float) -> float | None:
    return round(float(value), 2) if math.isfinite(value) else None


@dataclass(frozen=True)
class Contact:
    """What a moving vehicle meets (implements C2 Contact): the first contact of `sweep`, or one of
    the contacts of `sweep_all` (one per thing met)."""

    kind: str                    # 'decor' | 'unit' | 'vehicle' | 'ground' | 'edge'
    other: str | None            # id of the unit or vehicle hit (of the obstacle, for decor added by the rules)
    distance_studs: float        # travelled before the contact (turns: along the arc of the contact point)
    sector: str | None           # 'front' | 'side' | 'back' of the hit vehicle holding the mover's centre (bow3d.sectors)
    point: tuple[float, float, float] | None = None  # world, LDU
    decor: str | None = None     # decor part hit, described
    material: str | None = None  # what was hit is made of (bow3d.world.materials)
    instance: int | None = None  # decor: index into World.instances
    contact_sector: str | None = None  # the hit vehicle's sector holding the contact point (BOW revision 1)

    def describe(self) -> str:
        what = {"decor": f"decor ({self.decor})", "unit": f"unit {self.other}", "ground": "the ground",
                "vehicle": f"vehicle {self.other} ({self.sector} sector)", "edge": "the battlefield's edge"}
        return f"{what.get(self.kind, self.kind)} after {self.distance_studs:.2f} studs"


@dataclass(frozen=True)
class Crossing:
    """Something a segment passes through (`World.bodies_along`): a body or a decor part.

    distance_studs: from the segment's start to where it first enters it (3D). point: that
    entry point, world LDU.
    """

    kind: str                    # 'unit' | 'vehicle' | 'door' | 'obstacle' | 'decor'
    distance_studs: float
    id: str | None = None        # body id
    instance: int | None = None  # decor: index into World.instances
    part: str | None = None      # decor: '3004.dat'
    material: str | None = None
    point: tuple[float, float, float] | None = None

    def describe(self) -> str:
        what = f"{self.part or 'decor'}" if self.kind == "decor" else f"{self.kind} {self.id}"
        return f"{what} at {self.distance_studs:.2f} studs"


MISSING_NAMED = 5   # missing parts named in a message; the rest are counted


def missing_words(parts) -> str:
    """'3 LDraw parts missing (a.dat, b.dat, c.dat)'."""
    parts = list(parts)
    named = ", ".join(parts[:MISSING_NAMED]) + (_(" and {n} more").format(n=len(parts) - MISSING_NAMED)
                                                if len(parts) > MISSING_NAMED else "")
    return ngettext("{n} LDraw part missing ({named})", "{n} LDraw parts missing ({named})", len(parts)).format(
        n=len(parts), named=named)


def referee_sight(world, ruleset, params, firer: str, target: str) -> tuple[SightReport, object, str]:
    """(report, verdict, sentence): the world's facts on 'can FIRER see TARGET', the ruleset's verdict on
    them with the scene's parameters `params`, and the verdict in words in the language spoken now (said
    incomplete when LDraw parts were missing)."""
    report = world.sight(firer, target)
    verdict = ruleset.judge_sight(report, params)
    text = ruleset.sight_sentence(report, verdict)
    if not getattr(report, "complete", True):
        text += " " + _("(Incomplete: {missing}.)").format(missing=missing_words(report.missing_parts))
    return report, verdict, text


def sight_json(report, verdict, text: str, samples: bool = True) -> dict:
    """The world's facts with the ruleset's verdict beside them (and today's verdict fields kept): what
    `bow3d los --json` prints."""
    facts = {k: v for k, v in report.to_dict().items() if samples or k not in ("points_ldu", "seen")}
    judged = verdict.to_dict()
    facts.update(covered=bool(judged.get("covered", False)), cover_threshold=judged.get("cover_threshold"),
                 range_penalty_bricks=int(judged.get("range_penalty", 0)))
    facts["verdict"] = {**judged, "text": text}
    facts["text"] = text
    return facts
