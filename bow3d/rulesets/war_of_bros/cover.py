"""War of Bros' judgement of a line of sight ("Cover Step", "Impact Step") from the world's facts.

Layer: rulesets (War of Bros; pure Python). The world measures (what hides the target from the
attacker's eye, each blocker's share, material and height); this module judges, after the book's
table "Cover Provided By Various Materials":

    Body light       Bush medium        Wood medium          Building heavy
    Barricade total  Glass light        Stone heavy          Vehicle medium
    Sand light       Obstructions medium

More: docs/modules/rulesets-war-of-bros.md#cover.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bow3d.i18n import N_, _, current, decimal, speaking, whole_percent as percent
from bow3d.rules.records import value_or
from bow3d.rulesets.war_of_bros.tables import STARTING_WEAPONS
from bow3d.units import convert

CLASSES = ("none", "light", "medium", "heavy", "total")
MISS_ON = {"none": 0, "light": 1, "medium": 2, "heavy": 3, "total": 4}   # d4 results that miss (total: always)
BOOK_OBJECTS = {
    "body": ("Body", "light"), "unit": ("Body", "light"), "glass": ("Glass", "light"), "sand": ("Sand", "light"),
    "plant": ("Bush", "medium"), "bush": ("Bush", "medium"), "wood": ("Wood", "medium"),
    "vehicle": ("Vehicle", "medium"), "metal": ("Obstructions", "medium"), "ground": ("Obstructions", "medium"),
    "obstruction": ("Obstructions", "medium"), "stone": ("Stone", "heavy"), "building": ("Building", "heavy"),
    "barricade": ("Barricade", "total"),
}
OTHER = ("Obstructions", "medium")
DEFAULT_COVER_THRESHOLD = 0.25
DEFAULT_BLOCKER_SHARE = 0.05
STUDS_PER_CM = float(convert(1.0, "cm", "studs"))   # 1.25: a stud is 8 mm
# the LOS picture's rings: the Starting Weapons that shoot, shortest reach first
RING_WEAPONS = tuple(sorted(((name, float(w.range_cm)) for name, w in STARTING_WEAPONS.items() if w.role != "melee"),
                            key=lambda item: item[1]))


def weapon_rings() -> tuple[tuple[float, str], ...]:
    """(radius in studs, '30 cm: Machine Gun') of each Starting Weapon with a range, shortest first."""
    return tuple((cm * STUDS_PER_CM, f"{cm:g} cm: {name}") for name, cm in RING_WEAPONS)


def rank(cover: str) -> int:
    return CLASSES.index(cover)


def book_object(material: str | None) -> str:
    """The book's word for what a material is ('Stone', 'Bush', 'Obstructions'...)."""
    return BOOK_OBJECTS.get(str(material), OTHER)[0]


def cover_class(material: str | None, overrides: dict[str, str] | None = None) -> str:
    """The cover class a material gives: the scene's `cover:` override, else the book's table."""
    if overrides and material in overrides:
        return overrides[material]
    return BOOK_OBJECTS.get(str(material), OTHER)[1]


@dataclass(frozen=True)
class BlockerJudged:
    """One blocker of the line of sight with the class it gives."""

    what: str           # '3004.dat, Light_Bluish_Grey, war-of-bros.ldr line 212' or 'unit red-2'
    kind: str
    id: str | None
    material: str
    book: str           # the book's object: 'Stone', 'Body', ...
    cover: str          # the class it gives
    share: float
    counts: bool        # hides at least blocker_share

    def to_dict(self) -> dict[str, Any]:
        return {"what": self.what, "kind": self.kind, "id": self.id, "material": self.material, "book": self.book,
                "cover": self.cover, "share": round(self.share, 4), "counts": self.counts}


@dataclass(frozen=True)
class CoverVerdict:
    """The verdict on one line of sight: seen or not, behind which cover, given by which blocker."""

    visible: bool
    hidden_fraction: float
    cover: str                       # 'none' | 'light' | 'medium' | 'heavy' | 'total'
    given_by: BlockerJudged | None   # the blocker that gave the class
    blockers: tuple[BlockerJudged, ...] = ()
    units_in_way: tuple[str, ...] = ()
    distance_cm: float = 0.0
    cover_threshold: float = DEFAULT_COVER_THRESHOLD
    blocker_share: float = DEFAULT_BLOCKER_SHARE

    @property
    def covered(self) -> bool:
        return self.cover != "none"

    @property
    def terrain_miss(self) -> bool:
        """"Impact Step": nothing of the target is seen: whatever stands in the way is higher than it."""
        return not self.visible

    @property
    def range_penalty(self) -> int:
        return 0   # War of Bros has no range penalty: a weapon reaches its range or it does not

    def range_rings(self, out_to_studs: float) -> tuple[tuple[float, str], ...]:
        """Rings of the Starting Weapons' ranges round the firer (a weapon reaches or it does not:
        no penalty bands): the Sidearm's 15 cm, the Machine Gun's 30, the Carbine's 35, the Rifle's 40."""
        return weapon_rings()

    def miss_faces(self) -> int:
        """How many faces of the Cover Step's d4 miss (light 1, medium 2, heavy 3; total: 4, no roll)."""
        return MISS_ON[self.cover]

    def blocker_label(self, blocker: Any) -> str:
        """'heavy (Stone)' for a world blocker (the LOS picture's legend)."""
        for judged in self.blockers:
            if judged.what == describe(blocker):
                return f"{judged.cover} ({judged.book})"
        return ""

    def to_dict(self) -> dict[str, Any]:
        return {"ruleset": "war-of-bros", "visible": self.visible, "hidden_fraction": round(self.hidden_fraction, 4),
                "covered": self.covered, "cover": self.cover, "cover_step_misses_on": self.miss_faces(),
                "given_by": self.given_by.to_dict() if self.given_by else None,
                "terrain_miss": self.terrain_miss, "units_in_way": list(self.units_in_way),
                "blockers": [b.to_dict() for b in self.blockers], "distance_cm": round(self.distance_cm, 3),
                "cover_threshold": self.cover_threshold, "blocker_share": self.blocker_share,
                "range_penalty": 0}


def describe(blocker: Any) -> str:
    """'3004.dat, Light_Bluish_Grey, war-of-bros.ldr line 212', or 'unit red-2' / 'obstacle red-2-body'."""
    if getattr(blocker, "kind", "decor") == "decor":
        part = getattr(blocker, "part", None) or "decor"
        colour = getattr(blocker, "colour", None)
        file, line = getattr(blocker, "file", None), getattr(blocker, "line", None)
        words = part + (f", {colour}" if colour else "")
        return words + (f", {file} line {line}" if file else "")
    return f"{blocker.kind} {getattr(blocker, 'id', None)}"


_JUDGED: dict[tuple[int, int], tuple] = {}   # (id(report), id(params)) -> (verdict, report, params)
JUDGED_LIMIT = 4096


def judge(report: Any, params: Any = None, distance_cm: float | None = None) -> CoverVerdict:
    """The verdict on a sight report (the world's, or any object with visible, visible_fraction and
    blockers of kind, share, material) with the scene's ruleset parameters (defaults when None).
    Remembered by the report's and the parameters' identity (a cached world hands the same report object
    for the same line of sight; both are kept with the verdict, so an id is not reused meanwhile)."""
    if distance_cm is not None:
        return _judge(report, params, distance_cm)
    key = (id(report), id(params))
    found = _JUDGED.get(key)
    if found is not None:
        return found[0]
    if len(_JUDGED) >= JUDGED_LIMIT:
        _JUDGED.clear()
    verdict = _judge(report, params, None)
    _JUDGED[key] = (verdict, report, params)
    return verdict


def _judge(report: Any, params: Any, distance_cm: float | None) -> CoverVerdict:
    threshold = float(value_or(params, "cover_threshold", DEFAULT_COVER_THRESHOLD))
    least = float(value_or(params, "blocker_share", DEFAULT_BLOCKER_SHARE))
    overrides = dict(value_or(params, "cover", {}) or {})
    judged = []
    for b in getattr(report, "blockers", ()) or ():
        material = str(getattr(b, "material", None) or "stone")
        judged.append(BlockerJudged(describe(b), str(b.kind), getattr(b, "id", None), material, book_object(material),
                                    cover_class(material, overrides), float(b.share), float(b.share) >= least - 1e-12))
    # Seen through glass is seen (the book's Glass is light cover, not a wall): a ray whose only
    # blocker is glass reaches the target (the world says how much: transparent_fraction).
    through_glass = float(getattr(report, "transparent_fraction", 0.0) or 0.0) or \
        sum(b.share for b in judged if b.material == "glass")
    visible = bool(report.visible) or through_glass > 0
    hidden = 1.0 - float(report.visible_fraction) if visible else 1.0
    units = tuple(b.id for b in judged if b.kind in ("unit", "vehicle") and b.id)
    cover, given = "none", None
    if visible and hidden >= threshold - 1e-12:
        counted = [b for b in judged if b.counts and b.cover != "none"]
        if counted:
            best = max(rank(b.cover) for b in counted)
            given = max((b for b in counted if rank(b.cover) == best), key=lambda b: b.share)
            cover = given.cover
    if distance_cm is None:
        distance_cm = float(getattr(report, "distance_studs", 0.0)) / STUDS_PER_CM
    return CoverVerdict(visible, hidden, cover, given, tuple(judged), units, float(distance_cm), threshold, least)


COVER_NAMES = {"light": N_("LIGHT cover"), "medium": N_("MEDIUM cover"), "heavy": N_("HEAVY cover"),
               "total": N_("TOTAL cover")}


def sight_sentence(report: Any, verdict: CoverVerdict, language: str | None = None) -> str:
    """The verdict in the book's words, as a referee would say it (bow3d los), in `language` (default: the
    language spoken; the French words are bow3d's translation, the book being English only)."""
    with speaking(language or current()):
        return _sight_sentence(report, verdict)


def _sight_sentence(report: Any, verdict: CoverVerdict) -> str:
    who = f"{report.firer} -> {report.target}, {decimal(verdict.distance_cm)} cm"
    if not verdict.visible:
        tallest = max(verdict.blockers, key=lambda b: b.share, default=None)
        hider = _(" (mostly {what}, {material})").format(what=tallest.what, material=tallest.material) \
            if tallest else ""
        return _("{who}: no line of fire: nothing of {target} is seen{hider}; the terrain in the way is higher than "
                 "the unit: the attack is a miss (Impact Step).").format(who=who, target=report.target, hider=hider)
    seen = _("{share} seen").format(share=percent(1.0 - verdict.hidden_fraction))
    units = _("; units in the way: {units}").format(units=", ".join(verdict.units_in_way)) \
        if verdict.units_in_way else ""
    if verdict.covered and verdict.given_by is not None:
        g = verdict.given_by
        roll = _("no roll, the attack is a miss") if verdict.cover == "total" else \
            _("the attack misses on a d4 roll of {faces} or less").format(faces=verdict.miss_faces())
        cover = _(COVER_NAMES[verdict.cover]) if verdict.cover in COVER_NAMES else f"{verdict.cover.upper()} cover"
        return _("{who}: {seen}, {cover} ({hidden} hidden; given by {what}: {material}, the book's {book} = {level}, "
                 "{share}): {roll} (Cover Step){units}.").format(
            who=who, seen=seen, cover=cover, hidden=percent(verdict.hidden_fraction), what=g.what,
            material=g.material, book=g.book, level=g.cover, share=percent(g.share), roll=roll, units=units)
    if verdict.blockers:
        return _("{who}: {seen}, not behind cover ({hidden} hidden, under {threshold}){units}.").format(
            who=who, seen=seen, hidden=percent(verdict.hidden_fraction), threshold=percent(verdict.cover_threshold),
            units=units)
    return _("{who}: {seen}, nothing in the way: no Cover Step{units}.").format(who=who, seen=seen, units=units)
