"""Break each rule of the Blaze of Glory book in a copy of the package and check that its section's test
fails (a mutation check for "every section has a test that fails without its rule"). Not collected by
pytest (about a minute: one pytest process per broken rule); run by hand:

    python -m tests.rulesets.blaze_of_glory.break_the_rules [INDEX ...]

Each line says KILLED (a test failed, naming it) or SURVIVED (no test noticed: a test is missing).
The checked-out tree is never touched: bow3d/ and tests/ are copied to a temporary folder first.
"""

from __future__ import annotations

import sys

from tests.rulesets.break_rules import run

B = "bow3d/rulesets/blaze_of_glory/"
T = "tests/rulesets/blaze_of_glory/"
# (section, file, the rule as written, the rule broken, the test file that must notice)
M = [
 ("Activation & Movement", B+"book.py", "CARDS_BY_LEVEL = {1: 2, 2: 2, 3: 3, 4: 4}", "CARDS_BY_LEVEL = {1: 2, 2: 2, 3: 3, 4: 3}", "test_activation_and_movement.py"),
 ("Activation & Movement", B+"book.py", "MOVE_IN = 4.0 ", "MOVE_IN = 5.0 ", "test_activation_and_movement.py"),
 ("Activation & Movement", B+"book.py", "FREE_OBSTACLE_IN = 1.0 ", "FREE_OBSTACLE_IN = 2.0 ", "test_activation_and_movement.py"),
 ("Activation & Movement", B+"book.py", "RUN_DIE = 6 ", "RUN_DIE = 3 ", "test_activation_and_movement.py"),
 ("Climbing/Fall", B+"book.py", "MAX_LEVEL_CHANGES = 3 ", "MAX_LEVEL_CHANGES = 4 ", "test_climbing_fall.py"),
 ("Climbing/Fall", B+"book.py", "ROOF_LEAP_IN = 3.0 ", "ROOF_LEAP_IN = 4.0 ", "test_climbing_fall.py"),
 ("Shooting", B+"book.py", "POINT_BLANK_IN = 3.0 ", "POINT_BLANK_IN = 4.0 ", "test_shooting.py"),
 ("Shooting", B+"book.py", "return die == 1 or (die != 6 and die <= value)", "return die == 1 or die <= value", "test_shooting.py"),
 ("Shooting", B+"shooting.py", 'total, mods = total - 2, mods + ["-2 full cover"]', 'total, mods = total - 1, mods + ["-2 full cover"]', "test_shooting.py"),
 ("Shooting", B+"shooting.py", 'total, mods = total - 1, mods + ["-1 ran"]', 'total, mods = total, mods + ["-1 ran"]', "test_activation_and_movement.py"),
 ("Shooting", B+"book.py", '"pistol": WeaponKind("pistol", 12.0,', '"pistol": WeaponKind("pistol", 14.0,', "test_shooting.py"),
 ("Multiple Shots & Ammunition", B+"book.py", "MULTI_TARGET_IN = 6.0 ", "MULTI_TARGET_IN = 8.0 ", "test_shooting.py"),
 ("Multiple Shots & Ammunition", B+"book.py", '"pistol", 12.0, max_shots=3)', '"pistol", 12.0, max_shots=2)', "test_shooting.py"),
 ("Multiple Shots & Ammunition", B+"shooting.py", 'total, mods = total - 2, mods + ["-2 three shots"]', 'total, mods = total - 1, mods + ["-2 three shots"]', "test_shooting.py"),
 ("Two Pistols", B+"shooting.py", "value = (value + 1) // 2 if index == 0 else value // 2", "value = value // 2", "test_shooting.py"),
 ("Scatter Guns", B+"book.py", "SHOTGUN_WIDTH_IN = 2.5 ", "SHOTGUN_WIDTH_IN = 5.0 ", "test_shooting.py"),
 ("Scatter Guns", B+"shooting.py", 'total, mods = total - 1, mods + ["-1 cover (a scatter gun', 'total, mods = total - 2, mods + ["-1 cover (a scatter gun', "test_shooting.py"),
 ("Scatter Guns", B+"book.py", 'template=True, wound_modifier=-1)', 'template=True, wound_modifier=0)', "test_shooting.py"),
 ("Wounding", B+"book.py", "SHOOTING_TABLE = {1: OUT_OF_ACTION, 2: WOUNDED, 3: WOUNDED, 4: KNOCKED_DOWN_NERVE, 5: KNOCKED_DOWN,", "SHOOTING_TABLE = {1: OUT_OF_ACTION, 2: WOUNDED, 3: WOUNDED, 4: KNOCKED_DOWN, 5: KNOCKED_DOWN_NERVE,", "test_wounding.py"),
 ("Wounding", B+"book.py", "    if die == 6:\n        return table[6]\n", "", "test_wounding.py"),
 ("Wounding", B+"book.py", "max_shots=2, wound_modifier=-1)", "max_shots=2, wound_modifier=0)", "test_wounding.py"),
 ("Fisticuffs", B+"book.py", "NO_WEAPON_BONUS = 1 ", "NO_WEAPON_BONUS = 0 ", "test_fisticuffs.py"),
 ("Fisticuffs", B+"book.py", "UNCONSCIOUS_MAX = 2 ", "UNCONSCIOUS_MAX = 3 ", "test_fisticuffs.py"),
 ("Fisticuffs", B+"book.py", "5: HEADLOCK,", "5: KNOCKED_DOWN,", "test_fisticuffs.py"),
 ("Nerve", B+"book.py", "NERVE_OUT_OF_ACTION_IN = 12.0 ", "NERVE_OUT_OF_ACTION_IN = 14.0 ", "test_nerve.py"),
 ("Nerve", B+"book.py", "NERVE_FAILER_IN = 6.0 ", "NERVE_FAILER_IN = 8.0 ", "test_nerve.py"),
 ("Nerve", B+"book.py", "NERVE_WOUNDED_IN = 6.0 ", "NERVE_WOUNDED_IN = 8.0 ", "test_nerve.py"),
 ("Nerve", B+"book.py", "NERVE_DEAD_IN = 12.0 ", "NERVE_DEAD_IN = 14.0 ", "test_nerve.py"),
 ("Nerve", B+"book.py", "LEVELS_HIGHER = 2 ", "LEVELS_HIGHER = 3 ", "test_nerve.py"),
 ("Hero Points", B+"book.py", "HERO_PER_LEVEL = 2 ", "HERO_PER_LEVEL = 3 ", "test_hero_points.py"),
 ("Skills", B+"book.py", "SKILLS_BY_LEVEL = {1: 0, 2: 1, 3: 2, 4: 3}", "SKILLS_BY_LEVEL = {1: 0, 2: 1, 3: 2, 4: 4}", "test_skills.py"),
 ("Skills", B+"book.py", "QUICK_DRAW_HIT = 2 ", "QUICK_DRAW_HIT = 3 ", "test_skills.py"),
 ("Skills", B+"book.py", 'BLOOD_BROTHER_TABLE = {1: "blaze_of_glory", 2: "marked_man"', 'BLOOD_BROTHER_TABLE = {1: "blaze_of_glory", 2: "hold_a_grudge"', "test_skills.py"),
 ("Skills", B+"rolls.py", 'sheet.has(TRUE_GRIT)', 'False', "test_nerve.py"),
]


def main(only) -> int:
    return run(M, T, only)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
