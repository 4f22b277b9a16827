"""The numbers of the Blaze of Glory rule book, in one place: cards, moves, weapons, tables, skills.

Layer: rulesets (Blaze of Glory). Units: inches on the battlefield (the book's), converted once
here to studs: 1 stud = 8 mm, so 1 inch = 25.4 mm = 3.175 studs (63.5 LDU), and 1 stud =
0.315 inch. On the stud grid an inch is a little more than three studs: a 4-inch move is 12.7
studs, a 12-inch pistol range 38.1 studs; distances are measured exactly in 3D (head to head)
or on the table seen from above, never counted in grid cells. Heights come in stories: one
story is 6 bricks (144 LDU, the height of a 1 x 4 x 6 door frame), so a figure standing on
ground 152 LDU up (a roof of plates on six courses) is on the first floor ("That's 2nd floor
to you ex colonial types!").

Book headings cited: Activation & Movement, Climbing/Fall, Shooting (weapon ranges, modifiers),
Multiple Shots & Ammunition, Two Pistols, Scatter Guns, Wounding, Fisticuffs, Nerve, Hero
Points, Skills.
"""

from __future__ import annotations

from dataclasses import dataclass

from bow3d.units import LDU_PER_BRICK, LDU_PER_STUD, convert

STUDS_PER_INCH = float(convert(1.0, "in", "studs"))   # 3.175
LDU_PER_INCH = STUDS_PER_INCH * LDU_PER_STUD          # 63.5
STORY_LDU = 6 * LDU_PER_BRICK                          # one story: six bricks, 144 LDU


def inches(studs: float) -> float:
    """Studs -> inches."""
    return studs / STUDS_PER_INCH


def studs(inch: float) -> float:
    """Inches -> studs."""
    return inch * STUDS_PER_INCH


STORY_FROM = 0.75   # a height counts as the next story from three quarters of it (108 LDU for the 1st)


def story(z_ldu: float) -> int:
    """The story a height (LDU above the street) stands at: 0 up to 108 LDU (a stack of two crates
    is still the street), 1 from there (a roof on six courses, 152 LDU, is the first floor), 2 from
    252 LDU, and so on."""
    return int((z_ldu + (1.0 - STORY_FROM) * STORY_LDU) // STORY_LDU)


# -- Activation & Movement -----------------------------------------------------------------------
CARDS_BY_LEVEL = {1: 2, 2: 2, 3: 3, 4: 4}   # "Character Level / Number of cards"
MOVE_IN = 4.0                               # "Unless stated otherwise all figures move 4 inches"
FREE_OBSTACLE_IN = 1.0                      # "obstacles up to 1 inch in height or width with no penalty"
FREE_OBSTACLE_LDU = FREE_OBSTACLE_IN * LDU_PER_INCH
RUN_DIE = 6                                 # "rolls a d6 and moves the figure the number of inches"

# -- Climbing/Fall ---------------------------------------------------------------------------------
MAX_LEVEL_CHANGES = 3                       # "up to three level changes in a turn"
ROOF_LEAP_IN = 3.0                          # "The roofs may not be more than three inches apart"

# -- Shooting ----------------------------------------------------------------------------------------
POINT_BLANK_IN = 3.0                        # "+1 target at point blank range. <3 inches"
MULTI_TARGET_IN = 6.0                       # extra targets "must be within 6 inches of the first target"
SHOTGUN_LENGTH_IN = 8.0                     # "a conical shape approximately 8 inches long
SHOTGUN_WIDTH_IN = 2.5                      #  and 2.5 inches wide at the end"
QUICK_DRAW_HIT = 2                          # Quick draw: "Straight 1 or 2 to hit with no modifiers"


@dataclass(frozen=True)
class WeaponKind:
    """A weapon of the book: range in inches (None: the shotgun's template or a close combat
    weapon), shots a go, the wound modifier, whether it runs out of ammo (multiple shots)."""

    name: str
    range_in: float | None
    max_shots: int = 1
    wound_modifier: int = 0
    template: bool = False
    close_combat: bool = False

    @property
    def ranged(self) -> bool:
        return not self.close_combat

    @property
    def runs_dry(self) -> bool:
        """Multiple Shots & Ammunition: only weapons that fire more than one shot a go run out."""
        return self.max_shots > 1


WEAPONS: dict[str, WeaponKind] = {
    "pistol": WeaponKind("pistol", 12.0, max_shots=3),               # "fire a pistol up to three times"
    "rifle": WeaponKind("rifle", 30.0, max_shots=2, wound_modifier=-1),  # "... and a rifle twice"; "-1"
    "bow": WeaponKind("bow", 24.0),
    "shotgun": WeaponKind("shotgun", SHOTGUN_LENGTH_IN, template=True, wound_modifier=-1),
    "thrown": WeaponKind("thrown", 6.0),                              # "Thrown object 6 inches"
    "knife": WeaponKind("knife", None, close_combat=True),           # "a specific close combat weapon"
    "club": WeaponKind("club", None, close_combat=True),
}
WEAPON_NAMES = tuple(WEAPONS)

# -- Wounding and Fisticuffs: the two tables (result after modifiers; "a 6 is always a 6") ---------
NO_EFFECT, OUT_OF_ACTION, WOUNDED = "no_effect", "out_of_action", "wounded"
KNOCKED_DOWN, KNOCKED_DOWN_NERVE, HEADLOCK = "knocked_down", "knocked_down_nerve", "headlock"
SHOOTING_TABLE = {1: OUT_OF_ACTION, 2: WOUNDED, 3: WOUNDED, 4: KNOCKED_DOWN_NERVE, 5: KNOCKED_DOWN, 6: NO_EFFECT}
FISTICUFFS_TABLE = {1: OUT_OF_ACTION, 2: WOUNDED, 3: KNOCKED_DOWN_NERVE, 4: KNOCKED_DOWN, 5: HEADLOCK,
                    6: NO_EFFECT}
UNCONSCIOUS_MAX = 2        # out of action in a fistfight: "1-2 he is only unconscious"
COME_ROUND_MAX = 2         # "in further turns roll a 1-2 to come round"
NO_WEAPON_BONUS = 1        # "if the figure is not equipped with a specific close combat weapon add one"
SEVERITY = {NO_EFFECT: 0, HEADLOCK: 0, KNOCKED_DOWN: 1, KNOCKED_DOWN_NERVE: 1, WOUNDED: 2, OUT_OF_ACTION: 3}


def table_result(table: dict[int, str], die: int, modifier: int) -> str:
    """The row of a wound table for a d6 and a modifier: 'a 6 is always treated as a 6, regardless
    of any modifiers'; below 1 reads as 1, above 6 as 6+."""
    if die == 6:
        return table[6]
    return table[min(6, max(1, die + modifier))]


# -- Nerve -------------------------------------------------------------------------------------------
NERVE_OUT_OF_ACTION_IN = 12.0   # "within 12 inches and L/O/S when a friend goes OUT OF ACTION"
NERVE_FAILER_IN = 6.0           # "within 6 inches and L/O/S of someone failing N test for the above reason"
NERVE_WOUNDED_IN = 6.0          # "within 6 inches and L/O/S of WOUNDED friend ... when ACTIVATED"
NERVE_DEAD_IN = 12.0            # "... or 12 inches and L/O/S of a dead friend when ACTIVATED"
LEVELS_HIGHER = 2               # "-1 if the casualty is 2 or more levels higher than the tester"

# -- Hero Points ---------------------------------------------------------------------------------------
HERO_PER_LEVEL = 2              # "HERO POINTS equal to double his level"
LUCKY_OBJECTS = ("watch", "crucifix", "hipflask", "belt buckle", "sheriff's star", "bible")

# -- Skills ----------------------------------------------------------------------------------------------
SKILLS_BY_LEVEL = {1: 0, 2: 1, 3: 2, 4: 3}
SHARPSHOOTER, QUICK_DRAW, DEAD_EYE = "sharpshooter", "quick draw", "dead eye"
LOWBLOW, PUGILIST, COUNTER_PUNCH = "lowblow", "pugilist", "counter punch"
DODGE_AND_WEAVE, DUCK_AND_DIVE, NIMBLE = "dodge and weave", "duck and dive", "nimble"
TRUE_GRIT, NERVES_OF_STEEL, BLOOD_BROTHER = "true grit", "nerves of steel", "blood brother"
SKILLS = (SHARPSHOOTER, QUICK_DRAW, DEAD_EYE, LOWBLOW, PUGILIST, COUNTER_PUNCH, DODGE_AND_WEAVE, DUCK_AND_DIVE,
          NIMBLE, TRUE_GRIT, NERVES_OF_STEEL, BLOOD_BROTHER)
BLOOD_BROTHER_TABLE = {1: "blaze_of_glory", 2: "marked_man", 3: "marked_man", 4: "hold_a_grudge",
                       5: "hold_a_grudge", 6: "yellow_dog"}

# -- Characteristics ---------------------------------------------------------------------------------
CHARACTERISTICS = ("shoot", "fisticuffs", "reflexes", "nerve")   # S, F, R, N (Hero points apart)
LETTERS = {"shoot": "S", "fisticuffs": "F", "reflexes": "R", "nerve": "N", "hero": "H"}


def passes(die: int, value: int) -> bool:
    """TEST: 'A roll of a six-sided dice compared to a characteristic value. 1 always passes, 6
    always fails.'"""
    return die == 1 or (die != 6 and die <= value)
