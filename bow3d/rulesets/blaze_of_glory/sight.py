"""Blaze of Glory's judgement of a line of sight: partial or full cover, from the world's facts.

Layer: rulesets (Blaze of Glory). The book (Shooting): "-1 target in partial cover (Behind crates,
low wall, water trough etc)", "-2 target in full cover (Target through window etc)".

More: docs/modules/rulesets-blaze-of-glory.md#sight.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bow3d.rulesets.blaze_of_glory.book import WEAPONS, inches, studs
from bow3d.rulesets.blaze_of_glory.sheets import FULL_COVER, OPENING_COVER, PARTIAL_COVER

NONE, PARTIAL, FULL, HIDDEN = "none", "partial", "full", "hidden"
COVER_KINDS = ("decor", "door", "obstacle")     # what gives cover; units and vehicles do not
SOFT = ("plant",)                               # soft cover: partial at most
OPENING_LDU = 90.0                              # a blocker this high above the target's feet rises to his head
COVER_REACH_IN = 3.0                            # scenery this near the target (along the line of fire) covers him
COVER_MODIFIER = {NONE: 0, PARTIAL: -1, FULL: -2, HIDDEN: 0}
TOLERANCE = 1e-9
# the LOS picture's rings: the weapons that shoot to a range, shortest first
RING_WEAPONS = tuple(sorted(((k.name, k.range_in) for k in WEAPONS.values()
                             if k.range_in is not None and not k.template and not k.close_combat), key=lambda i: i[1]))


def weapon_rings() -> tuple[tuple[float, str], ...]:
    """(radius in studs, '12": Pistol') of each Weapon Range, shortest first."""
    return tuple((studs(reach), f'{reach:g}": {name}') for name, reach in RING_WEAPONS)


@dataclass(frozen=True)
class CoverVerdict:
    """Blaze of Glory's verdict on a line of sight: the cover level, what decided it, the distance."""

    visible: bool
    cover: str                      # 'none' | 'partial' | 'full' | 'hidden'
    hidden_share: float             # of the target, by anything
    cover_share: float              # ... by decor (hard and soft)
    hard_share: float               # ... by decor that is not plants
    through_opening: bool           # a hard blocker rises to the top of his head
    deciding: tuple[dict[str, Any], ...] = field(default_factory=tuple)   # the blockers that decide, largest first
    distance_in: float = 0.0        # head to head, 3D, inches
    thresholds: tuple[float, float, float] = (PARTIAL_COVER, OPENING_COVER, FULL_COVER)

    @property
    def modifier(self) -> int:
        """The SHOOT modifier the cover gives (Shooting): partial -1, full -2."""
        return COVER_MODIFIER[self.cover]

    def range_rings(self, out_to_studs: float) -> tuple[tuple[float, str], ...]:
        """Rings of the Weapon Ranges round the firer: thrown 6", pistol 12", bow 24", rifle 30" (the
        shotgun's template and close combat weapons have none); over half a weapon's range is -1."""
        return weapon_rings()

    def to_dict(self) -> dict[str, Any]:
        partial, opening, full = self.thresholds
        return {"ruleset": "blaze-of-glory", "visible": self.visible, "cover": self.cover,
                "covered": self.cover in (PARTIAL, FULL), "shoot_modifier": self.modifier,
                "hidden_share": round(self.hidden_share, 4), "cover_share": round(self.cover_share, 4),
                "hard_share": round(self.hard_share, 4), "through_opening": self.through_opening,
                "deciding": [dict(d) for d in self.deciding], "distance_in": round(self.distance_in, 3),
                "partial_cover": partial, "opening_cover": opening, "full_cover": full,
                "cover_threshold": partial}


def _describe(blocker: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": blocker.kind, "share": round(float(blocker.share), 4),
                           "material": getattr(blocker, "material", None)}
    for name in ("part", "colour", "file", "line", "id"):
        value = getattr(blocker, name, None)
        if value is not None:
            out[name] = value
    height = getattr(blocker, "height_ldu", None)
    if height is not None:
        out["height_ldu"] = round(float(height), 2)
    return out


def _rises_to_head(blocker: Any) -> bool:
    height = getattr(blocker, "height_ldu", None)
    return height is not None and float(height) >= OPENING_LDU


def _near_target(blocker: Any, distance_studs: float) -> bool:
    """Within COVER_REACH_IN of the target along the line of fire (a blocker the world does not place
    along the line counts)."""
    along = getattr(blocker, "distance_studs", None)
    return along is None or distance_studs - float(along) <= studs(COVER_REACH_IN) + 1e-9


def judge_cover(report: Any, partial: float = PARTIAL_COVER, opening: float = OPENING_COVER,
                full: float = FULL_COVER) -> CoverVerdict:
    """The cover level of a sight report (the world's, or any object with its protocol fields)."""
    blockers = tuple(getattr(report, "blockers", ()) or ())
    cover = [b for b in blockers if b.kind in COVER_KINDS and _near_target(b, float(report.distance_studs))]
    hard = [b for b in cover if getattr(b, "material", None) not in SOFT]
    cover_share = sum(float(b.share) for b in cover)
    hard_share = sum(float(b.share) for b in hard)
    tall = [b for b in hard if _rises_to_head(b)]
    thresholds = (partial, opening, full)
    distance_in = inches(float(report.distance_studs))
    hidden = 1.0 - float(report.visible_fraction) if report.visible else 1.0
    if not report.visible:
        hiding = tuple(_describe(b) for b in sorted(blockers, key=lambda b: -b.share))
        return CoverVerdict(False, HIDDEN, 1.0, cover_share, hard_share, bool(tall), hiding, distance_in, thresholds)
    by_share = sorted(cover, key=lambda b: -float(b.share))
    if hard_share >= full - TOLERANCE:
        level, deciding = FULL, [b for b in by_share if b in hard]
    elif tall and hard_share >= opening - TOLERANCE:
        level = FULL
        deciding = sorted(tall, key=lambda b: -float(b.share)) + [b for b in by_share if b in hard and b not in tall]
    elif cover_share >= partial - TOLERANCE:
        level, deciding = PARTIAL, by_share
    else:
        level, deciding = NONE, by_share
    return CoverVerdict(True, level, hidden, cover_share, hard_share, bool(tall),
                        tuple(_describe(b) for b in deciding), distance_in, thresholds)


def judge_sight(report: Any, params: Any = None) -> CoverVerdict:
    """The verdict with the scene's thresholds (defaults when `params` is None)."""
    def value(name: str, default: float) -> float:
        got = getattr(params, name, None)
        return float(default if got is None else got)
    return judge_cover(report, value("partial_cover", PARTIAL_COVER), value("opening_cover", OPENING_COVER),
                       value("full_cover", FULL_COVER))
