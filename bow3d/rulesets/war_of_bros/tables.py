"""The book's tables: unit templates, starting units and weapons, weapon templates, modification costs.

Layer: rulesets (War of Bros; data only). Transcribed from the rule book (`war-of-bros-rules.txt`,
appendixes "Starting Units", "Starting Weapons", "Unit Templates", "Weapon Templates", "Unit
Modifications", "Weapon Modifications") and checked against it by
tests/rulesets/war_of_bros/test_book_tables.py, which parses the book again when it is at hand.
Lengths in cm, dice in the book's notation (bow3d.rulesets.war_of_bros.dice); None = "---".

UNIT_TEMPLATES: 'category/rank' -> Template(unit power, upgrade points, movement cm, threat range
cm, threat bonus (the "+ 1*" added to Attack Of Opportunity accuracy and damage), evasion,
shield, armor, vitality). Mechanized shields and armor are (front, side, back). The airborne
tables give no threat range ("This range disadvantage also has the effect of negating the
Threat Range of all airborne units"): 0.
"""

from __future__ import annotations

from typing import Any, NamedTuple

Dice3 = tuple[str | None, str | None, str | None]


class T(NamedTuple):
    """One unit template of the book (see the module docstring for the fields)."""

    unit_power: int
    upgrade: int
    movement_cm: float
    threat_cm: float
    threat_bonus: int
    evasion: str | None
    shield: str | Dice3 | None
    armor: str | Dice3 | None
    vitality: str | None


Template = T

CATEGORIES = ("light-infantry", "heavy-infantry", "mechanized", "light-airborne", "heavy-airborne",
              "mechanized-airborne")
RANKS = ("private", "sergeant", "lieutenant", "major", "lieutenant-colonel", "colonel", "brigadier-general",
         "major-general", "lieutenant-general", "general", "general-of-the-army", "general-of-the-armies")

# "Proxies ... bases are the following standardized sizes": 3 x 3 cm (light), 4 x 4 cm (heavy),
# 6 x 12 cm (mechanized); airborne units like their ground counterparts. (width, depth) in cm.
BASES_CM = {"light-infantry": (3.0, 3.0), "heavy-infantry": (4.0, 4.0), "mechanized": (6.0, 12.0),
            "light-airborne": (3.0, 3.0), "heavy-airborne": (4.0, 4.0), "mechanized-airborne": (6.0, 12.0)}

UNIT_TEMPLATES: dict[str, T] = {
    'light-infantry/private': T(1, 3, 9, 0, 0, 'd4', None, None, 'd4'),
    'light-infantry/sergeant': T(3, 6, 12, 3, 0, 'd6', None, 'd4', 'd6'),
    'light-infantry/lieutenant': T(9, 9, 15, 6, 0, 'd8', 'd4', 'd6', 'd8'),
    'light-infantry/major': T(21, 12, 18, 9, 0, 'd10', 'd6', 'd8', 'd10'),
    'light-infantry/lieutenant-colonel': T(82, 15, 21, 12, 0, 'd12', 'd8', 'd10', 'd12'),
    'light-infantry/colonel': T(213, 18, 24, 15, 0, '2d12', 'd10', 'd12', '2d12'),
    'light-infantry/brigadier-general': T(452, 21, 27, 15, 1, '3d12', 'd12', '2d12', '3d12'),
    'light-infantry/major-general': T(845, 24, 30, 15, 2, '3d12', '2d12', '3d12', '3d12'),
    'light-infantry/lieutenant-general': T(1446, 27, 30, 15, 3, '3d12', '3d12', '3d12', '3d12'),
    'light-infantry/general': T(2317, 30, 30, 15, 4, '3d12', '3d12', '3d12', '3d12'),
    'light-infantry/general-of-the-army': T(3528, 33, 30, 15, 5, '3d12', '3d12', '3d12', '3d12'),
    'light-infantry/general-of-the-armies': T(5157, 36, 30, 15, 6, '3d12', '3d12', '3d12', '3d12'),
    'heavy-infantry/private': T(2, 4, 8, 0, 0, None, 'd4', None, 'd4'),
    'heavy-infantry/sergeant': T(5, 8, 10, 3, 0, None, 'd6', 'd4', 'd6'),
    'heavy-infantry/lieutenant': T(16, 12, 12, 6, 0, 'd4', 'd8', 'd6', 'd8'),
    'heavy-infantry/major': T(37, 16, 14, 9, 0, 'd6', 'd10', 'd8', 'd10'),
    'heavy-infantry/lieutenant-colonel': T(146, 20, 16, 12, 0, 'd8', 'd12', 'd10', 'd12'),
    'heavy-infantry/colonel': T(379, 24, 18, 15, 0, 'd10', '2d12', 'd12', '2d12'),
    'heavy-infantry/brigadier-general': T(804, 28, 20, 15, 1, 'd12', '3d12', '2d12', '3d12'),
    'heavy-infantry/major-general': T(1502, 32, 22, 15, 2, '2d12', '3d12+1', '3d12', '3d12+1'),
    'heavy-infantry/lieutenant-general': T(2571, 36, 24, 15, 3, '3d12', '3d12+2', '3d12', '3d12+2'),
    'heavy-infantry/general': T(4119, 40, 26, 15, 4, '3d12', '3d12+3', '3d12', '3d12+3'),
    'heavy-infantry/general-of-the-army': T(6272, 44, 28, 15, 5, '3d12', '3d12+4', '3d12', '3d12+4'),
    'heavy-infantry/general-of-the-armies': T(9168, 48, 30, 15, 6, '3d12', '3d12+5', '3d12', '3d12+5'),
    'mechanized/private': T(8, 5, 7, 0, 0, None, ('d6', 'd4', None), ('d8', 'd6', 'd4'), None),
    'mechanized/sergeant': T(24, 10, 8, 3, 0, None, ('d8', 'd6', 'd4'), ('d10', 'd8', 'd6'), None),
    'mechanized/lieutenant': T(72, 15, 9, 6, 0, None, ('d10', 'd8', 'd6'), ('d12', 'd10', 'd8'), None),
    'mechanized/major': T(168, 20, 10, 9, 0, None, ('d12', 'd10', 'd8'), ('d12+1', 'd12', 'd10'), None),
    'mechanized/lieutenant-colonel': T(656, 25, 11, 12, 0, None, ('d12+1', 'd12', 'd10'), ('d12+2', 'd12+1', 'd12'), None),
    'mechanized/colonel': T(1704, 30, 12, 15, 0, 'd4', ('d12+2', 'd12+1', 'd12'), ('d12+3', 'd12+2', 'd12+1'), None),
    'mechanized/brigadier-general': T(3616, 35, 13, 15, 1, 'd6', ('d12+3', 'd12+2', 'd12+1'), ('d20', 'd12+3', 'd12+2'), None),
    'mechanized/major-general': T(6760, 40, 14, 15, 2, 'd8', ('d20', 'd12+3', 'd12+2'), ('2d20', 'd20', 'd12+3'), None),
    'mechanized/lieutenant-general': T(11568, 45, 15, 15, 3, 'd10', ('2d20', 'd20', 'd12+3'), ('3d20', '2d20', 'd20'), None),
    'mechanized/general': T(18536, 50, 16, 15, 4, 'd12', ('3d20', '2d20', 'd20'), ('3d20+1', '3d20', '2d20'), None),
    'mechanized/general-of-the-army': T(28224, 55, 17, 15, 5, '2d12', ('3d20+1', '3d20', '2d20'), ('3d20+2', '3d20+1', '3d20'), None),
    'mechanized/general-of-the-armies': T(41256, 60, 18, 15, 6, '3d12', ('3d20+2', '3d20+1', '3d20'), ('3d20+3', '3d20+2', '3d20+1'), None),
    'light-airborne/private': T(1, 2, 12, 0, 0, 'd8', None, None, 'd4'),
    'light-airborne/sergeant': T(3, 4, 15, 0, 0, 'd10', None, None, 'd6'),
    'light-airborne/lieutenant': T(9, 6, 18, 0, 0, 'd12', 'd4', None, 'd8'),
    'light-airborne/major': T(21, 8, 21, 0, 0, 'd12+1', 'd6', None, 'd10'),
    'light-airborne/lieutenant-colonel': T(82, 10, 24, 0, 0, 'd12+2', 'd8', None, 'd12'),
    'light-airborne/colonel': T(213, 12, 27, 0, 0, 'd12+3', 'd10', 'd4', '2d12'),
    'light-airborne/brigadier-general': T(452, 14, 30, 0, 0, 'd20', 'd12', 'd6', '3d12'),
    'light-airborne/major-general': T(845, 16, 33, 0, 0, '2d20', '2d12', 'd8', '3d12'),
    'light-airborne/lieutenant-general': T(1446, 18, 36, 0, 0, '3d20', '3d12', 'd10', '3d12'),
    'light-airborne/general': T(2317, 20, 39, 0, 0, '3d20+1', '3d12', 'd12', '3d12'),
    'light-airborne/general-of-the-army': T(3528, 22, 42, 0, 0, '3d20+2', '3d12', '2d12', '3d12'),
    'light-airborne/general-of-the-armies': T(5157, 24, 45, 0, 0, '3d20+3', '3d12', '3d12', '3d12'),
    'heavy-airborne/private': T(2, 3, 8, 0, 0, 'd4', None, None, 'd4'),
    'heavy-airborne/sergeant': T(5, 6, 10, 0, 0, 'd6', None, 'd4', 'd6'),
    'heavy-airborne/lieutenant': T(16, 9, 12, 0, 0, 'd8', 'd4', 'd6', 'd8'),
    'heavy-airborne/major': T(37, 12, 14, 0, 0, 'd10', 'd6', 'd8', 'd10'),
    'heavy-airborne/lieutenant-colonel': T(146, 15, 16, 0, 0, 'd12', 'd6', 'd10', 'd12'),
    'heavy-airborne/colonel': T(376, 18, 18, 0, 0, 'd12+1', 'd10', 'd12', '2d12'),
    'heavy-airborne/brigadier-general': T(804, 21, 20, 0, 0, 'd12+2', 'd12', '2d12', '3d12'),
    'heavy-airborne/major-general': T(1502, 24, 22, 0, 0, 'd12+3', '2d12', '3d12', '3d12'),
    'heavy-airborne/lieutenant-general': T(2571, 27, 24, 0, 0, 'd20', '3d12', '3d12', '3d12'),
    'heavy-airborne/general': T(4119, 30, 26, 0, 0, '2d20', '3d12', '3d12', '3d12'),
    'heavy-airborne/general-of-the-army': T(6272, 33, 28, 0, 0, '3d20', '3d12', '3d12', '3d12'),
    'heavy-airborne/general-of-the-armies': T(9168, 36, 30, 0, 0, '3d20+1', '3d12', '3d12', '3d12'),
    'mechanized-airborne/private': T(6, 4, 7, 0, 0, None, ('d4', None, None), ('d6', 'd4', 'd4'), None),
    'mechanized-airborne/sergeant': T(18, 8, 10, 0, 0, 'd4', ('d6', 'd4', None), ('d8', 'd6', 'd4'), None),
    'mechanized-airborne/lieutenant': T(54, 12, 13, 0, 0, 'd6', ('d8', 'd6', 'd4'), ('d10', 'd8', 'd6'), None),
    'mechanized-airborne/major': T(126, 16, 16, 0, 0, 'd8', ('d10', 'd8', 'd6'), ('d12', 'd10', 'd8'), None),
    'mechanized-airborne/lieutenant-colonel': T(492, 20, 19, 0, 0, 'd10', ('d12', 'd10', 'd8'), ('d12+1', 'd12', 'd10'), None),
    'mechanized-airborne/colonel': T(1278, 24, 22, 0, 0, 'd12', ('d12+1', 'd12', 'd10'), ('d12+2', 'd12+1', 'd12'), None),
    'mechanized-airborne/brigadier-general': T(2712, 28, 25, 0, 0, 'd12+1', ('d12+2', 'd12+1', 'd12'), ('d12+3', 'd12+2', 'd12+1'), None),
    'mechanized-airborne/major-general': T(5070, 32, 28, 0, 0, 'd12+2', ('d12+3', 'd12+2', 'd12+1'), ('d20', 'd12+3', 'd12+2'), None),
    'mechanized-airborne/lieutenant-general': T(8676, 36, 31, 0, 0, 'd12+3', ('d20', 'd12+3', 'd12+2'), ('2d20', 'd20', 'd12+3'), None),
    'mechanized-airborne/general': T(13902, 40, 34, 0, 0, 'd20', ('2d20', 'd20', 'd12+3'), ('3d20', '2d20', 'd20'), None),
    'mechanized-airborne/general-of-the-army': T(21168, 44, 37, 0, 0, '2d20', ('3d20', '2d20', 'd20'), ('3d20+1', '3d20', '2d20'), None),
    'mechanized-airborne/general-of-the-armies': T(30942, 48, 40, 0, 0, '3d20', ('3d20+1', '3d20', '2d20'), ('3d20+2', '3d20+1', '3d20'), None),
}


class W(NamedTuple):
    """A weapon of the book's tables: damage and accuracy dice, range (cm), worth (upgrade points), its
    role ('primary', 'sidearm' or 'melee': Attack Of Opportunity uses a sidearm or melee weapon) and
    its modifications (bow3d.rulesets.war_of_bros.sheets.WeaponSheet field names)."""

    damage: str
    range_cm: float
    accuracy: str
    worth: int
    role: str = "primary"
    mods: tuple[tuple[str, Any], ...] = ()


# "Starting Weapons" (the starter units' outfits).
STARTING_WEAPONS: dict[str, W] = {
    "Carbine": W("d4", 35, "d6", 3),
    "Machine Gun": W("2d4", 30, "d6", 4),
    "Rifle": W("d6", 40, "d8", 7),
    "Knife": W("d4", 3, "d4", 0, "melee"),
    "Sidearm": W("d4", 15, "d4", 2, "sidearm"),
}

SPLASH_CM = 3.0            # "Splash: This weapon deals damage to all units within 3cm of the impact zone"
SPLASH_STEP_CM = 3.0       # "Splash Range Up: increase the splash damage radius by 3cm"


def splash_radius(range_ups: int = 0) -> float:
    """The radius (cm) of a weapon with Splash and `range_ups` Splash Range Up: 3 cm, then 3 cm more each."""
    return SPLASH_CM + SPLASH_STEP_CM * range_ups


def splash_range_ups(radius_cm: float) -> int | None:
    """How many Splash Range Up make this radius (0 for Splash alone); None: no number of them does."""
    ups = round((radius_cm - SPLASH_CM) / SPLASH_STEP_CM)
    return ups if ups >= 0 and abs(splash_radius(ups) - radius_cm) < 1e-9 else None


# "Weapon Templates" (examples players copy); their modifications as listed under each (the splash radius from
# the Splash and Splash Range Up listed: "Splash [6], 3x Splash Range Up [15]" is 3 + 3 x 3 = 12 cm).
WEAPON_TEMPLATES: dict[str, W] = {
    "Ranged Weapon": W("d4", 30, "d4", 0),
    "Sidearm Weapon": W("d6", 15, "d4", 2, "sidearm"),
    "Melee Weapon": W("d4", 3, "d4", 0, "melee"),
    "Area Weapon": W("d4", 15, "d4", 0, mods=(("splash_cm", splash_radius(0)),)),
    "MR-52 Assault": W("d6", 30, "d6", 3),
    "LR-778 Longreach": W("d6", 40, "d6", 6),
    "SNN-9 Paradigm": W("d10", 45, "d4", 12),
    "FG-23 Fragmentation Grenade": W("d6", 15, "d12", 21, mods=(("splash_cm", splash_radius(3)),)),
    "UML-00 Unassisted Munition Launcher": W("d12", 30, "d12", 36, mods=(
        ("splash_cm", splash_radius(2)), ("armor_penetration", 1), ("shield_penetration", 1))),
    "ISLR Terror Group Vestment": W("2d12", 0, "d4", 3, mods=(("splash_cm", splash_radius(1)),)),
}
BOOK_WEAPONS: dict[str, W] = {**STARTING_WEAPONS, **WEAPON_TEMPLATES}

# "Starting Units": the templates of the Light Infantry with the starter weapons.
STARTING_UNITS: dict[str, tuple[str, tuple[str, ...]]] = {
    "private": ("light-infantry/private", ("Carbine", "Knife")),
    "sergeant": ("light-infantry/sergeant", ("Machine Gun", "Sidearm")),
    "lieutenant": ("light-infantry/lieutenant", ("Rifle", "Sidearm")),
}
STARTING_FORCE = {"lieutenant": 1, "sergeant": 3, "private": 9}   # "Establish The Encounter": 27 unit power


class Cost(NamedTuple):
    """A modification's cost: `first` upgrade points for the first purchase, each further one `step`
    more ("5S + 2": 5, 7, 9 ...; "2S": 2, 2, 2 ...; "-1S-1": -1, -2, -3); `stackable` False: once."""

    first: int
    step: int = 0
    stackable: bool = False

    def total(self, times: int) -> int:
        if times <= 0:
            return 0
        if not self.stackable and times > 1:
            raise ValueError("bought once only")
        return sum(self.first + self.step * k for k in range(times))


# "Unit Modifications" (name -> cost). Effects: bow3d.rulesets.war_of_bros.profile.
UNIT_MODIFICATIONS: dict[str, Cost] = {
    "high-flyer": Cost(5, 0, True),
    "evasion-1st": Cost(2), "evasion-2nd": Cost(3), "evasion-3rd": Cost(5), "evasion-4th": Cost(8),
    "evasion-up": Cost(2, 0, True), "evasion-focus": Cost(5, 2, True),
    "vitality-1st": Cost(0), "vitality-2nd": Cost(3), "vitality-3rd": Cost(5),
    "vitality-up": Cost(2, 0, True), "vitality-focus": Cost(5, 2, True),
    "armor-1st": Cost(2), "armor-2nd": Cost(3), "armor-3rd": Cost(5), "armor-4th": Cost(8),
    "armor-up": Cost(2, 0, True), "armor-focus": Cost(5, 2, True),
    "shield-1st": Cost(3), "shield-2nd": Cost(5), "shield-3rd": Cost(8), "shield-4th": Cost(13),
    "shield-up": Cost(3, 0, True), "shield-focus": Cost(8, 3, True),
    "movement-up": Cost(1, 1, True), "threat-up": Cost(2, 1, True), "threat-focus": Cost(5, 2, True),
    "reactive-armor": Cost(5), "reactive-up": Cost(3, 2, True), "reactive-shield": Cost(5),
}

# "Weapon Modifications" (name -> cost); the effects are the WeaponSheet fields.
WEAPON_MODIFICATIONS: dict[str, Cost] = {
    "damage-1st": Cost(0), "damage-2nd": Cost(3), "damage-3rd": Cost(5), "damage-4th": Cost(8),
    "damage-5th": Cost(13), "damage-up": Cost(2, 0, True), "damage-focus": Cost(3, 2, True),
    "accuracy-up": Cost(1, 0, True), "accuracy-focus": Cost(2, 1, True),
    "range-up": Cost(1, 1, True), "range-down": Cost(-1, -1, True),
    "splash": Cost(6), "splash-range-up": Cost(3, 2, True), "piercing": Cost(5),
    "armor-penetration": Cost(5), "armor-pen-up": Cost(2, 1, True), "armor-pen-focus": Cost(3, 2, True),
    "shield-penetration": Cost(5), "shield-pen-up": Cost(2, 1, True), "shield-pen-focus": Cost(3, 2, True),
    "rail-driven": Cost(13), "guided": Cost(8), "incendiary": Cost(8),
}

RANGE_STEP_CM = 5.0        # "Range Up: increase the range of the weapon by 5cm"
MOVEMENT_STEP_CM = 3.0     # "Movement Up: increase movement by 3cm per round"
THREAT_STEP_CM = 3.0       # "Threat Up: increase threat range by 3cm"
FLY_HEIGHT_CM = 15.0       # "Light airborne are considered to be at least 15 centimeters in the air"
HIGH_FLYER_CM = 5.0        # "High Flyer: increase the height at which an Airborne Unit flies by 5 cm"
GUIDED_SLACK_CM = 3.0      # "Guided: Line of Sight checks made with this weapon may be up to 3cm away"
INCENDIARY_DAMAGE = 4      # "... roll against a Damage Roll equal to 4 every round for 3 rounds"
INCENDIARY_ROUNDS = 3
TRAMPLE_DAMAGE = "d8"      # "This is considered a d8 weapon, with d20 accuracy"
TRAMPLE_ACCURACY = "d20"
TRAMPLE_ESCAPE_CM = 6.0    # "... must immediately move 6cm in a chosen direction"
REACTIVE_DAMAGE = "d4"     # "counter-attack the attacker with a d4 damage projectile with an accuracy of d4"
REACTIVE_ACCURACY = "d4"
START_DISTANCE_CM = 60.0   # "Unit Placement": the closest units between any two players at least 60cm
FRAG_TOKENS = 3            # "Capture The Frag": each player is given 3 frag tokens


def reward_tier(unit_power: int) -> int:
    """"Maximum Unit Power Gained By A Successful Encounter": the tier of the lowest unit power among the
    players; tier T ends at 25 T^2 + 25 T (1-50, 51-150, 151-300, ...)."""
    tier = 1
    while unit_power > 25 * tier * tier + 25 * tier:
        tier += 1
    return tier


def reward(lowest_unit_power: int, won: bool, players: int = 2) -> int:
    """Maximum unit power gained: 5 T for winning, 2 T for losing, 3 T for losing with 3 or more players."""
    tier = reward_tier(lowest_unit_power)
    if won:
        return 5 * tier
    return (3 if players >= 3 else 2) * tier
