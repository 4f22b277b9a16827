"""A unit's scores as the rules read them: a sheet resolved against the book's tables and modifications.

Layer: rulesets (War of Bros; pure Python). `profile_of(sheet)` turns a UnitSheet (a template and
its overrides, its weapons, its unit modifications) into a frozen `Profile`: dice as DiceRoll
(bow3d.rulesets.war_of_bros.dice), lengths in cm, the shield and armor of every unit as
(front, side, back) (the same three for units that have one score: "Mechanized units have 3
scores ... front, side, back"). `spent` counts the upgrade points the outfit uses ("Creating a
Unit": unit and weapon modifications both count towards the unit's upgrade maximum).

More: docs/modules/rulesets-war-of-bros.md#profile.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bow3d.rulesets.war_of_bros.dice import DiceRoll, needed_dice
from bow3d.rulesets.war_of_bros.tables import (
    BASES_CM,
    BOOK_WEAPONS,
    FLY_HEIGHT_CM,
    HIGH_FLYER_CM,
    MOVEMENT_STEP_CM,
    REACTIVE_ACCURACY,
    REACTIVE_DAMAGE,
    STARTING_UNITS,
    THREAT_STEP_CM,
    UNIT_MODIFICATIONS,
    UNIT_TEMPLATES,
    W,
)

PARTS = ("front", "side", "back")
DEFAULT_WEAPONS = ("Ranged Weapon", "Melee Weapon")
NTH = {"1st": 1, "2nd": 2, "3rd": 3, "4th": 4}

Saves = tuple[DiceRoll | None, DiceRoll | None, DiceRoll | None]


@dataclass(frozen=True)
class WeaponProfile:
    """A weapon as the rules use it (lengths in cm)."""

    name: str
    damage: DiceRoll
    accuracy: DiceRoll
    range_cm: float
    worth: int = 0
    role: str = "primary"
    splash_cm: float = 0.0
    piercing: bool = False
    armor_penetration: int = 0
    armor_pen_focus: int = 0
    shield_penetration: int = 0
    shield_pen_focus: int = 0
    rail_driven: bool = False
    guided: bool = False
    incendiary: bool = False

    @property
    def melee(self) -> bool:
        return self.role == "melee"


@dataclass(frozen=True)
class Profile:
    """Everything the rules read about a unit of one sheet."""

    sheet: str
    category: str
    rank: str
    unit_power: int
    upgrade: int
    movement_cm: float
    threat_cm: float
    threat_bonus: int
    evasion: DiceRoll | None
    shield: Saves
    armor: Saves
    vitality: DiceRoll | None
    weapons: tuple[WeaponProfile, ...]
    fly_height_cm: float = 0.0
    reactive_armor: bool = False
    reactive_up: int = 0
    reactive_shield: bool = False
    threat_focus: int = 0
    spent: int = 0

    @property
    def base_cm(self) -> tuple[float, float]:
        return BASES_CM[self.category]

    @property
    def airborne(self) -> bool:
        return self.category.endswith("airborne")

    @property
    def mechanized(self) -> bool:
        return self.category.startswith("mechanized")

    @property
    def infantry(self) -> bool:
        """Light or Heavy Infantry (on the ground): what a Mechanized unit tramples."""
        return self.category in ("light-infantry", "heavy-infantry")

    @property
    def living(self) -> bool:
        """Living units make Vitality Saves and leave a Body; Mechanized units leave a wreck."""
        return not self.mechanized

    def weapon(self, name: str) -> WeaponProfile | None:
        return next((w for w in self.weapons if w.name == name), None)

    def shield_from(self, part: str) -> DiceRoll | None:
        return self.shield[PARTS.index(part)]

    def armor_from(self, part: str) -> DiceRoll | None:
        return self.armor[PARTS.index(part)]

    @property
    def reactive_weapon(self) -> WeaponProfile:
        """Reactive Armor's counter-attack: "a d4 damage projectile with an accuracy of d4" (Reactive Up:
        a bigger damage die)."""
        return WeaponProfile("reactive armor", needed_dice(REACTIVE_DAMAGE).up(self.reactive_up),
                             needed_dice(REACTIVE_ACCURACY), 0.0, role="sidearm")

    @property
    def opportunity_weapons(self) -> tuple[WeaponProfile, ...]:
        """"either with the attacker's sidearm or melee weapon. The primary weapon may not be used"."""
        return tuple(w for w in self.weapons if w.role in ("sidearm", "melee"))


def weapon_profile(entry) -> WeaponProfile:
    """A sheet's weapon entry: a name of the book's tables or a WeaponSheet."""
    if isinstance(entry, str):
        book: W = BOOK_WEAPONS[entry]
        return WeaponProfile(entry, needed_dice(book.damage), needed_dice(book.accuracy), float(book.range_cm),
                             book.worth, book.role, **dict(book.mods))
    return WeaponProfile(entry.name, needed_dice(entry.damage), needed_dice(entry.accuracy), float(entry.range),
                         entry.worth, entry.role, entry.splash_cm, entry.piercing, entry.armor_penetration,
                         entry.armor_pen_focus, entry.shield_penetration, entry.shield_pen_focus, entry.rail_driven,
                         entry.guided, entry.incendiary)


def _saves(value) -> Saves:
    if value is None:
        return (None, None, None)
    if isinstance(value, str):
        roll = DiceRoll.parse(value)
        return (roll, roll, roll)
    if isinstance(value, tuple):
        return tuple(DiceRoll.parse(v) for v in value)  # type: ignore[return-value]
    return tuple(DiceRoll.parse(getattr(value, part)) for part in PARTS)  # type: ignore[return-value]


def _modified_saves(saves: Saves, kind: str, mods: dict[str, int]) -> Saves:
    front, side, back = (_modified(r, kind, mods) for r in saves)
    return front, side, back


def _modified(roll: DiceRoll | None, kind: str, mods: dict[str, int]) -> DiceRoll | None:
    """A save after its Nth-die, Up and Focus modifications."""
    for nth, count in NTH.items():
        if mods.get(f"{kind}-{nth}"):
            roll = DiceRoll(count, 0) if roll is None else (roll if roll.count >= count else replace(roll, count=count))
    if roll is None:
        return None
    return roll.up(mods.get(f"{kind}-up", 0)).with_focus(mods.get(f"{kind}-focus", 0))


def profile_of(sheet_id: str, sheet) -> Profile:
    """Resolve a UnitSheet (template, overrides, weapons, modifications) into a Profile."""
    template_key = sheet.template
    weapons = sheet.weapons
    if template_key is not None and template_key.startswith("starter/"):
        template_key, starter_weapons = STARTING_UNITS[template_key[len("starter/"):]]
        weapons = list(starter_weapons) if weapons is None else weapons
    template = UNIT_TEMPLATES.get(template_key) if template_key else None
    category = sheet.category or (template_key.split("/")[0] if template_key else "light-infantry")
    rank = sheet.rank or (template_key.split("/")[1] if template_key else "")

    def pick(own, book, default):
        return own if own is not None else (book if template is not None else default)

    mods = dict(sheet.modifications)
    if weapons is None:
        weapons = [] if category.endswith("airborne") else list(DEFAULT_WEAPONS)
    arms = tuple(weapon_profile(w) for w in weapons)
    evasion = _modified(DiceRoll.parse(pick(sheet.evasion, template and template.evasion, None)), "evasion", mods)
    vitality = _modified(DiceRoll.parse(pick(sheet.vitality, template and template.vitality, None)), "vitality", mods)
    shield = _modified_saves(_saves(pick(sheet.shield, template and template.shield, None)), "shield", mods)
    armor = _modified_saves(_saves(pick(sheet.armor, template and template.armor, None)), "armor", mods)
    movement = float(pick(sheet.movement, template and template.movement_cm, 0.0)) + MOVEMENT_STEP_CM * mods.get(
        "movement-up", 0)
    threat = float(pick(sheet.threat_range, template and template.threat_cm, 0.0)) + THREAT_STEP_CM * mods.get(
        "threat-up", 0)
    airborne = category.endswith("airborne")
    if airborne:
        threat = 0.0
    elif not category.startswith("mechanized") and not any(w.role == "sidearm" for w in arms):
        threat = min(threat, max((w.range_cm for w in arms if w.melee), default=0.0))
    fly = 0.0
    if airborne:
        fly = float(sheet.fly_height if sheet.fly_height is not None else FLY_HEIGHT_CM) + HIGH_FLYER_CM * mods.get(
            "high-flyer", 0)
    spent = sum(w.worth for w in arms) + sum(UNIT_MODIFICATIONS[name].total(times) for name, times in mods.items())
    return Profile(sheet_id, category, rank, int(pick(sheet.unit_power, template and template.unit_power, 0)),
                   int(pick(sheet.upgrade, template and template.upgrade, 0)), movement, threat,
                   int(pick(sheet.threat_bonus, template and template.threat_bonus, 0)), evasion,
                   shield, armor, vitality, arms, fly, bool(mods.get("reactive-armor")),
                   mods.get("reactive-up", 0), bool(mods.get("reactive-shield")), mods.get("threat-focus", 0),
                   spent)
