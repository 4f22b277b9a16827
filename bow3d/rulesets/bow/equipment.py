"""BOW 1.3's reading of minifig equipment: weapons (Annex A.2 damage values), armor, default sheets.

Layer: rulesets (BOW). `scene from-ldraw` finds figures in an LDraw model (bow3d.scene.figures);
this module says what they are in BOW: a weapon's damage value (A.2), +1 armor per shield or
helmet (A.2), the basic trooper of Annex A.1 as the default minifig sheet, a horse (A.3) or a car
(§1.4.2's example) as the default vehicle sheet. `BOW_SHEETS` implements
bow3d.scene.equipment.SheetDefaults for the scene builder.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from bow3d.rulesets.bow.sheets import BowParams, BowScene, MinifigSheet, VehicleSheet, Weapon
from bow3d.scene.equipment import HORSE


@dataclass(frozen=True)
class Armament:
    """What a minifig carries: weapons (BOW A.2 damage) and armor pieces."""

    weapons: tuple[Weapon, ...]
    armor: int
    pieces: tuple[str, ...]  # the part descriptions that gave them


# (pattern on the description, weapon name, kind, BOW 1.3 A.2 damage value); first match wins.
WEAPONS = [
    (r"light ?sab(re|er)", "light saber", "melee", 4), (r"rocket|bazooka", "rocket launcher", "ranged", 4),
    (r"dynamite|bomb", "dynamite", "ranged", 4), (r"submachine|flamethrower|machine ?gun", "submachine gun", "ranged", 3),
    (r"grenade", "grenade", "ranged", 3), (r"cutlass", "cutlass", "melee", 2),
    (r"sword|sabre|saber|katana|scimitar", "sword", "melee", 2), (r"axe", "axe", "melee", 2),
    (r"mace|flail|morning ?star", "mace", "melee", 2), (r"lance", "lance", "melee", 1),
    (r"halberd", "halberd", "melee", 1), (r"spear|pike|trident", "spear", "melee", 1),
    (r"knife|dagger", "knife", "melee", 1), (r"hammer", "hammer", "melee", 1), (r"\b(stick|staff)\b", "stick", "melee", 1),
    (r"crossbow", "crossbow", "ranged", 2), (r"\bbow\b", "bow", "ranged", 2), (r"musket", "musket", "ranged", 2),
    (r"pistol|revolver", "pistol", "ranged", 2), (r"rifle", "rifle", "ranged", 2),
    (r"blaster|space gun|ray ?gun|laser", "blaster", "ranged", 2), (r"\bgun\b", "gun", "ranged", 2),
]
ARMOR = re.compile(r"shield|helmet|armou?r|breastplate|bulletproof|vest|mail")
_WEAPON_RE = [(re.compile(p), name, kind, damage) for p, name, kind, damage in WEAPONS]

ROLE_NAMES = {"rifle": "rifleman", "musket": "musketeer", "pistol": "gunslinger", "bow": "archer",
              "crossbow": "crossbowman", "sword": "swordsman", "cutlass": "buccaneer", "axe": "axeman",
              "mace": "maceman", "lance": "lancer", "spear": "spearman", "halberd": "halberdier",
              "knife": "knifeman", "hammer": "hammerman", "stick": "stickman", "blaster": "blaster-trooper",
              "gun": "gunner", "submachine gun": "machine-gunner", "grenade": "grenadier",
              "rocket launcher": "rocketeer", "dynamite": "sapper", "light saber": "saber-knight"}


def recognise_weapon(title: str) -> Weapon | None:
    """The weapon a part is (BOW 1.3 A.2 damage value), from its description; None for other parts."""
    text = title.lower()
    for pattern, name, kind, damage in _WEAPON_RE:
        if pattern.search(text):
            return Weapon(name=name, kind=kind, damage=damage)
    return None


def armament(titles: list[str]) -> Armament:
    """Weapons and armor from the descriptions of the parts a minifig wears and holds (BOW 1.3 A.2)."""
    weapons: list[Weapon] = []
    armor, pieces = 0, []
    for title in titles:
        text = title.lower()
        if ARMOR.search(text):
            armor += 1
            pieces.append(title)
            continue
        weapon = recognise_weapon(title)
        if weapon is not None and weapon.name not in {w.name for w in weapons}:
            weapons.append(weapon)
            pieces.append(title)
    weapons.sort(key=lambda w: (w.kind != "ranged", -w.damage))  # the ranged weapon in hand first
    return Armament(tuple(weapons), armor, tuple(pieces))


def default_sheet(arms: Armament) -> tuple[str, MinifigSheet]:
    """(suggested sheet id, sheet): the basic trooper of BOW 1.3 A.1 with these weapons and armor."""
    first = arms.weapons[0].name if arms.weapons else ""
    role = ROLE_NAMES.get(first, "trooper")
    if len(arms.weapons) > 1:
        role += "-" + arms.weapons[1].name.replace(" ", "-")
    if arms.armor:
        role += f"-armor{arms.armor}"
    return role, MinifigSheet(action_budget=2, move=5, attack=1, dodge=1, armor=arms.armor, hp=1, treat=0,
                              weapons=list(arms.weapons))


def default_vehicle_sheet(kind: str, seats: int, weapons: tuple[Weapon, ...] = ()) -> tuple[str, VehicleSheet]:
    """(suggested id, sheet) of a vehicle: a horse (BOW 1.3 A.3: armor 3) or a car like the §1.4.2 example."""
    if kind == HORSE:
        return "horse", VehicleSheet(speed=2, dodge=1, armor=3, hp=1, seats=max(seats, 1), exposed_occupants=True,
                                     weapons=list(weapons))
    return "car", VehicleSheet(speed=4, dodge=0, armor=5, hp=2, seats=max(seats, 1), exposed_occupants=True,
                               weapons=[w.model_copy(update={"arc": 180.0}) for w in weapons])


def _dump(sheet: MinifigSheet | VehicleSheet) -> dict[str, Any]:
    return sheet.model_dump(mode="json", exclude_none=True)


class BowSheetDefaults:
    """BOW's default sheets for the scene builder (bow3d.scene.equipment.SheetDefaults)."""

    ruleset: dict[str, Any] = {"name": BowParams().name}
    scene_model = BowScene

    def unit_sheet(self, titles: list[str]) -> tuple[str, dict[str, Any]]:
        name, sheet = default_sheet(armament(titles))
        return name, _dump(sheet)

    def vehicle_sheet(self, kind: str, seats: int, titles: list[str]) -> tuple[str, dict[str, Any]]:
        mounted = armament(titles).weapons  # weapons built on the vehicle, held by no occupant
        name, sheet = default_vehicle_sheet(kind, seats, mounted)
        return name, _dump(sheet)

    def merge(self, existing: dict[str, Any], new: dict[str, Any]) -> dict[str, Any] | None:
        if existing.get("kind") == new.get("kind") == "vehicle":
            return {**existing, "seats": max(int(existing.get("seats", 1)), int(new.get("seats", 1)))}
        return None

    def weapon_names(self, sheet: dict[str, Any]) -> list[str]:
        return [w["name"] for w in sheet.get("weapons", [])]


BOW_SHEETS = BowSheetDefaults()
