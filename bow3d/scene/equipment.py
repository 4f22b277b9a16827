"""What LDraw parts are, for the scene builder: minifig body parts, headgear, weapons, vehicle markers.

Layer: scene. Parts are recognised by their official description (the first line of the part
file, e.g. "Minifig Sword Shortsword") and, for the body, by their number (973* torso,
3626* head, 3815/970 hips, 3816/3817/971/972 legs, 3818/3819/981/982 arms, 3820/983 hands).
Weapons get the damage value of BOW 1.3 Annex A.2; shields and helmets add 1 armor each (A.2);
default sheets start from the basic trooper of Annex A.1.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bow3d.scene.model import MinifigSheet, VehicleSheet, Weapon

# Roles of the parts of one minifig.
TORSO, HEAD, LEGS, ARM, HAND, HEADGEAR, EQUIPMENT, OTHER = (
    "torso", "head", "legs", "arm", "hand", "headgear", "equipment", "other")
HORSE, STEERING, WHEEL, SEAT = "horse", "steering", "wheel", "seat"

_NUMBERED = [(re.compile(r"^973"), TORSO), (re.compile(r"^3626"), HEAD),
             (re.compile(r"^(3815|3816|3817|970|971|972)(\D|$)"), LEGS), (re.compile(r"^(3818|3819|981|982)(\D|$)"), ARM),
             (re.compile(r"^(3820|983)(\D|$)"), HAND)]
_TITLED = [(re.compile(r"minifig torso"), TORSO), (re.compile(r"minifig head(?!dress|gear)"), HEAD),
           (re.compile(r"minifig (hips|legs?)\b"), LEGS), (re.compile(r"minifig arm"), ARM),
           (re.compile(r"minifig hand\b"), HAND),
           (re.compile(r"minifig\b.*\b(helmet|cap|hat|hair|headdress|headgear|crown|hood|bandana|tiara|turban|"
                       r"beret|fedora|wig)\b"), HEADGEAR),
           (re.compile(r"minifig seat|seat"), SEAT), (re.compile(r"minifig"), EQUIPMENT),
           (re.compile(r"animal horse"), HORSE), (re.compile(r"steering"), STEERING),
           (re.compile(r"\b(wheel|tyre|tire)\b"), WHEEL)]


def part_role(name: str, title: str) -> str:
    """The role of a part in a minifig or a vehicle, from its number and its description."""
    stem = name.lower().rsplit("/", 1)[-1].removesuffix(".dat")
    text = title.lower().lstrip("~=_| ")
    if "(loose geometry)" in name:
        return OTHER
    for pattern, role in _TITLED[:5]:
        if pattern.search(text):
            return role
    if not text or text.startswith("minifig"):
        for pattern, role in _NUMBERED:
            if pattern.search(stem):
                return role
    for pattern, role in _TITLED[5:]:
        if pattern.search(text):
            return role
    return OTHER


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
