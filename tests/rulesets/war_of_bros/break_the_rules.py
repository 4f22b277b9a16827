"""Break each rule of the War of Bros book in a copy of the package and check that its section's test fails
(a mutation check for issue 14's "every section of the War of Bros book has a test that fails without its
rule"). Not collected by pytest (its name does not start with test_; a minute or two: one pytest process per
broken rule); run by hand:

    python -m tests.rulesets.war_of_bros.break_the_rules [INDEX ...]

Each line says KILLED (a test failed, naming it) or SURVIVED (no test noticed: a test is missing).
The checked-out tree is never touched: bow3d/ and tests/ are copied to a temporary folder first (scenes/,
replays/ and ldraw_library/ are linked, read only; so is ../shared, where the tests read the rule book).
"""

from __future__ import annotations

import sys

from tests.rulesets.break_rules import run

W = "bow3d/rulesets/war_of_bros/"
T = "tests/rulesets/war_of_bros/"
SETUP, MOVES, STEPS = "test_setup_and_turns.py", "test_movement.py", "test_attack_steps.py"
MODS, REACT, ENDS = "test_weapon_modifiers.py", "test_reactions.py", "test_encounters.py"
DICE, TABLES = "test_dice_and_odds.py", "test_sheets_and_tables.py"
# (section, file, the rule as written, the rule broken, the test file(s) that must notice, space-separated)
M = [
 # -- Rules (the standardized bases) -----------------------------------------------------------------------
 ("Rules (bases)", W+"tables.py", '"heavy-infantry": (4.0, 4.0)', '"heavy-infantry": (5.0, 5.0)', MOVES),
 ("Rules (bases)", W+"tables.py", '"mechanized": (6.0, 12.0),', '"mechanized": (6.0, 10.0),', MOVES+" "+STEPS),
 # -- Unit Placement ---------------------------------------------------------------------------------------
 ("Unit Placement", W+"tables.py", "START_DISTANCE_CM = 60.0 ", "START_DISTANCE_CM = 50.0 ", SETUP),
 ("Unit Placement", W+"turns.py", "if apart < least - 1e-9:", "if apart < least - 2:", SETUP),
 ("Unit Placement", W+"turns.py", "start = order.index(state.side_to_play) + (0 if first else 1)",
  "start = order.index(state.side_to_play)", SETUP),
 ("Unit Placement", W+"turns.py", "for v in sorted(set(values.values()), reverse=True)]",
  "for v in sorted(set(values.values()))]", SETUP),
 # -- Establish The Encounter / Starting Units -------------------------------------------------------------
 ("Establish The Encounter", W+"tables.py", 'STARTING_FORCE = {"lieutenant": 1, "sergeant": 3, "private": 9}',
  'STARTING_FORCE = {"lieutenant": 1, "sergeant": 3, "private": 10}', TABLES),
 ("Establish The Encounter", W+"checks.py", "for side, power in army_costs(scene).items() if power > limit]",
  "for side, power in army_costs(scene).items() if power > limit + 9]", TABLES),
 ("Unit Templates", W+"tables.py", "'light-infantry/sergeant': T(3, 6, 12, 3, 0,", "'light-infantry/sergeant': T(3, 6, 12, 4, 0,",
  TABLES),
 ("Unit Templates", W+"tables.py", "'mechanized/private': T(8, 5, 7, 0, 0, None, ('d6', 'd4', None), ('d8', 'd6', 'd4'), None),",
  "'mechanized/private': T(8, 5, 7, 0, 0, None, ('d6', 'd4', None), ('d8', 'd6', 'd6'), None),", TABLES),
 ("Starting Weapons", W+"tables.py", '"Rifle": W("d6", 40, "d8", 7),', '"Rifle": W("d6", 45, "d8", 7),', TABLES),
 # -- First Turn -------------------------------------------------------------------------------------------
 ("First Turn", W+"combat.py", "    if state.first_turn:\n        return None, Refusal(WobReason.FIRST_TURN",
  "    if False:\n        return None, Refusal(WobReason.FIRST_TURN", SETUP),
 ("First Turn", W+"turns.py", 'if state.step == "first" and not state.first_turn and',
  'if state.step == "first" and', SETUP),
 ("First Turn", W+"reactions.py", "if state.first_turn or g.ctx.profile(mover).airborne:",
  "if g.ctx.profile(mover).airborne:", REACT),
 # -- Order Of Operation -----------------------------------------------------------------------------------
 ("Order Of Operation", W+"turns.py", "if state.active is not None and state.active != unit_id:",
  "if False:", SETUP),
 ("Order Of Operation", W+"turns.py", "    if unit.activated:\n        return Refusal(Reason.CANNOT_ACT",
  "    if False:\n        return Refusal(Reason.CANNOT_ACT", SETUP),
 # -- First Movement Step ----------------------------------------------------------------------------------
 ("First Movement Step", W+"movement.py", "left = profile.movement_cm - unit.moved_cm", "left = profile.movement_cm",
  MOVES),
 ("First Movement Step", W+"movement.py", "pivot = plan.los_vertex(unit.position, unit.facing, width, depth)",
  "pivot = unit.position", MOVES),
 ("First Movement Step", W+"movement.py", "centre = (turned[0] + fx * dist, turned[1] + fy * dist)",
  "centre = (turned[0] + fx * dist * 1.1, turned[1] + fy * dist * 1.1)", MOVES),
 # -- Difficult Terrain ------------------------------------------------------------------------------------
 ("Difficult Terrain", W+"terrain.py", "cost += (hi - lo) * level", "cost += (hi - lo) * min(level, 2)", MOVES),
 ("Difficult Terrain", W+"terrain.py", 'pieces.append(Piece("decor", polygon, cover, 2 if rank(cover) <= 1 else 0,',
  'pieces.append(Piece("decor", polygon, cover, 3 if rank(cover) <= 1 else 0,', MOVES),
 ("Difficult Terrain", W+"terrain.py", 'pieces.append(Piece("decor", polygon, cover, 2 if rank(cover) <= 1 else 0,',
  'pieces.append(Piece("decor", polygon, cover, 2 if rank(cover) <= 2 else 0,', MOVES),
 # -- Check Step -------------------------------------------------------------------------------------------
 ("Check Step", W+"combat.py", "if not weapon.rail_driven and distance > reach + 1e-9:",
  "if not weapon.rail_driven and distance > reach + 1:", STEPS),
 ("Check Step", W+"plan.py", "LOS_HALF_ANGLE_DEG = 45.0", "LOS_HALF_ANGLE_DEG = 50.0", STEPS),
 ("Check Step", W+"measures.py", "    if len(part) < 3:\n        if slack_cm <= 0",
  "    if len(part) < 4:\n        if slack_cm <= 0", STEPS),
 # -- Light Airborne (height, range, cover, terrain, melee) ---------------------------------------------------
 ("Light Airborne", W+"tables.py", "FLY_HEIGHT_CM = 15.0 ", "FLY_HEIGHT_CM = 20.0 ", STEPS),
 ("Light Airborne", W+"measures.py", "if a.airborne != b.airborne:", "if a.airborne or b.airborne:", STEPS),
 ("Light Airborne", W+"combat.py", "if profile.airborne and weapon.melee:", "if False:", STEPS),
 ("Light Airborne", W+"combat.py", "if g.ctx.profile(by).airborne or g.ctx.profile(target).airborne:",
  "if False:", STEPS),
 ("Light Airborne", W+"blocking.py", 'if profile.airborne or piece.kind == "zone":', 'if piece.kind == "zone":', MOVES),
 ("Light Airborne", W+"movement.py", "if dist > 0 and not profile.airborne:", "if dist > 0:", MOVES),
 # -- Impact Step ------------------------------------------------------------------------------------------
 ("Impact Step", W+"combat.py", "            return other.id\n    return None", "            return None\n    return None",
  STEPS),
 ("Impact Step", W+"combat.py", 'if pending.answers[0] == "cancel":', "if False:", STEPS),
 ("Impact Step", W+"combat.py", "    if not verdict.visible:\n        return [event] + finish_strike(",
  "    if False:\n        return [event] + finish_strike(", STEPS),
 # -- Cover Step and Cover Provided By Various Materials ----------------------------------------------------------
 ("Cover Step", W+"cover.py", 'MISS_ON = {"none": 0, "light": 1, "medium": 2, "heavy": 3, "total": 4}',
  'MISS_ON = {"none": 0, "light": 1, "medium": 1, "heavy": 3, "total": 4}', STEPS),
 ("Cover Step", W+"cover.py", 'MISS_ON = {"none": 0, "light": 1, "medium": 2, "heavy": 3, "total": 4}',
  'MISS_ON = {"none": 0, "light": 1, "medium": 2, "heavy": 2, "total": 4}', STEPS),
 ("Cover Step", W+"combat.py", "COVER_DIE = DiceRoll(1, 0) ", "COVER_DIE = DiceRoll(1, 1) ", STEPS),
 ("Cover Step", W+"combat.py", '    if cover == "total":\n        event = g.event("cover_roll"',
  '    if False:\n        event = g.event("cover_roll"', STEPS),
 ("Cover Provided", W+"cover.py", '"body": ("Body", "light")', '"body": ("Body", "medium")', STEPS),
 ("Cover Provided", W+"cover.py", '"glass": ("Glass", "light")', '"glass": ("Glass", "medium")', STEPS),
 ("Cover Provided", W+"cover.py", '"sand": ("Sand", "light")', '"sand": ("Sand", "medium")', STEPS),
 ("Cover Provided", W+"cover.py", '"plant": ("Bush", "medium")', '"plant": ("Bush", "light")', STEPS),
 ("Cover Provided", W+"cover.py", '"wood": ("Wood", "medium")', '"wood": ("Wood", "heavy")', STEPS),
 ("Cover Provided", W+"cover.py", '"vehicle": ("Vehicle", "medium")', '"vehicle": ("Vehicle", "heavy")', STEPS),
 ("Cover Provided", W+"cover.py", '"metal": ("Obstructions", "medium")', '"metal": ("Obstructions", "light")', STEPS),
 ("Cover Provided", W+"cover.py", '"stone": ("Stone", "heavy")', '"stone": ("Stone", "medium")', STEPS),
 ("Cover Provided", W+"cover.py", '"building": ("Building", "heavy")', '"building": ("Building", "medium")', STEPS),
 ("Cover Provided", W+"cover.py", '"barricade": ("Barricade", "total")', '"barricade": ("Barricade", "heavy")',
  STEPS),
 # -- Accuracy Step ----------------------------------------------------------------------------------------
 ("Accuracy Step", W+"combat.py", 'held = Fraction(value) > strike["value"]', 'held = Fraction(value) >= strike["value"]',
  STEPS),
 ("Accuracy Step", W+"saves.py", '    if step == "accuracy":\n        return Save(profile.evasion) if',
  '    if step == "accuracy":\n        return None if', STEPS),
 # -- Multiple Die Saves -----------------------------------------------------------------------------------
 ("Multiple Die Saves", W+"dice.py", "return max(faces) + self.bonus", "return faces[0] + self.bonus", STEPS+" "+DICE),
 ("Multiple Die Saves", W+"saves.py", "return self.highest > attack", "return True", STEPS),
 ("Multiple Die Saves", W+"dice.py", "Fraction(k ** n - (k - 1) ** n, total)", "Fraction(k * n - (k - 1) * n, total)", DICE),
 # -- Shield Step, Armor Step, Vitality Step ---------------------------------------------------------------------
 ("Shield Step", W+"saves.py", '    if step == "accuracy":\n        return "shield"',
  '    if step == "accuracy":\n        return "armor"', STEPS),
 ("Shield Step", W+"saves.py", "dice = profile.shield_from(part)", "dice = profile.armor_from(part)", STEPS),
 ("Armor Step", W+"saves.py", '    if step == "shield":\n        return "armor"',
  '    if step == "shield":\n        return "vitality"', STEPS),
 ("Vitality Step", W+"saves.py", 'return "vitality" if profile.living else None', "return None", STEPS),
 ("Vitality Step", W+"death.py", "if corners and not trampled and not g.ctx.params.remove_dead:",
  "if corners and not trampled and g.ctx.params.remove_dead:", STEPS),
 ("Vitality Step (house rule)", W+"death.py", "if corners and not trampled and not g.ctx.params.remove_dead:",
  "if corners and not trampled:", STEPS),
 ("Vitality Step", W+"blocking.py", 'out.append(Piece("body", obstacle.corners, "light", 2,',
  'out.append(Piece("body", obstacle.corners, "light", 3,', STEPS),
 # -- Final Movement Step ----------------------------------------------------------------------------------
 ("Final Movement Step", W+"turns.py", "and not state.units[action.unit].penalised:", ":", SETUP),
 ("Final Movement Step", W+"combat.py", 'if strike["kind"] in COUNTER_ATTACKS and not unit.penalised:',
  "if False:", SETUP+" "+REACT),
 # -- Ending An Encounter, A Reward Is Given -------------------------------------------------------------------
 ("Ending An Encounter", W+"turns.py", "if len(alive) <= 1 and len(g.ctx.sides) > 1:",
  "if len(alive) < 1 and len(g.ctx.sides) > 1:", ENDS),
 ("A Reward Is Given", W+"turns.py", "lowest = min(starting_power(g).values(), default=1) or 1",
  "lowest = max(starting_power(g).values(), default=1) or 1", ENDS),
 ("A Reward Is Given", W+"tables.py", "while unit_power > 25 * tier * tier + 25 * tier:",
  "while unit_power > 25 * tier * tier + 20 * tier:", TABLES),
 ("A Reward Is Given", W+"tables.py", "        return 5 * tier", "        return 4 * tier", TABLES+" "+ENDS),
 ("A Reward Is Given", W+"tables.py", "return (3 if players >= 3 else 2) * tier", "return (3 if players >= 4 else 2) * tier",
  TABLES),
 # -- Attack Of Opportunity --------------------------------------------------------------------------------
 ("Attack Of Opportunity", W+"reactions.py", "return distance is not None and distance <= reach + 1e-9",
  "return distance is not None and distance <= reach + 1", REACT),
 ("Attack Of Opportunity", W+"reactions.py", "            continue   # already inside: it did not enter",
  "            pass", REACT),
 ("Attack Of Opportunity", W+"profile.py", 'return tuple(w for w in self.weapons if w.role in ("sidearm", "melee"))',
  "return self.weapons", REACT),
 ("Attack Of Opportunity", W+"profile.py",
  "        threat = min(threat, max((w.range_cm for w in arms if w.melee), default=0.0))",
  "        pass", REACT),
 ("Attack Of Opportunity", W+"saves.py", "bonus = opportunity_by.threat_bonus if opportunity_by is not None else 0",
  "bonus = 0", REACT),
 ("Unit Modifications: Threat Up", W+"tables.py", "THREAT_STEP_CM = 3.0 ", "THREAT_STEP_CM = 4.0 ", REACT),
 ("Unit Modifications: Threat Focus", W+"saves.py",
  "focus = opportunity_by.threat_focus if opportunity_by is not None else 0", "focus = 0", REACT),
 # -- Vital Attack -----------------------------------------------------------------------------------------
 ("Vital Attack", W+"combat.py", 'strike["vital"] = part == "back" and', 'strike["vital"] = part == "side" and', STEPS),
 ("Vital Attack", W+"saves.py", "accuracy, damage = accuracy.more(), damage.more()",
  "accuracy, damage = accuracy.more(), damage", STEPS),
 ("Vital Attack", W+"dice.py", "return replace(self, count=min(MAX_DICE, self.count + dice))",
  "return replace(self, size=self.size + dice)", DICE),
 # -- Reactive Armor, Reactive Shield, Penetration Versus Reactive -----------------------------------------------
 ("Unit Modifications: Reactive Armor", W+"tables.py", 'REACTIVE_DAMAGE = "d4" ', 'REACTIVE_DAMAGE = "d6" ', REACT),
 ("Unit Modifications: Reactive Armor", W+"tables.py", 'REACTIVE_ACCURACY = "d4"', 'REACTIVE_ACCURACY = "d6"', REACT),
 ("Unit Modifications: Reactive Armor", W+"combat.py", 'if strike["step"] == "armor" and strike["kind"] in PROJECTILES',
  'if strike["step"] == "shield" and strike["kind"] in PROJECTILES', REACT),
 ("Unit Modifications: Reactive Up", W+"profile.py", "DiceRoll.parse(REACTIVE_DAMAGE).up(self.reactive_up)",
  "DiceRoll.parse(REACTIVE_DAMAGE)", REACT),
 ("Unit Modifications: Reactive Shield", W+"combat.py",
  'strike["vital"] = part == "back" and not reactive_shield_active(profile, weapon_of(g, strike), part)',
  'strike["vital"] = part == "back"', STEPS),
 ("Unit Modifications: Reactive Shield", W+"reactions.py",
  "        if reactive_shield_active(g.ctx.profile(mover), weapon):\n            continue",
  "        pass", REACT),
 ("Penetration Versus Reactive", W+"dice.py", "            else:\n                return None",
  "            else:\n                break", REACT+" "+DICE),
 # -- Penetration Versus Multi Die Saves, Die Sizes, Unit Modifications ------------------------------------------------
 ("Penetration Versus Multi Die Saves", W+"dice.py",
  "            if count > 1:\n                count -= 1\n            elif size > 0:\n                size -= 1",
  "            if size > 0:\n                size -= 1\n            elif count > 1:\n                count -= 1", DICE),
 ("Die Sizes In Ascending Order", W+"dice.py", "        return 12, size - D12_SIZE", "        return 12, 0", DICE),
 ("Unit Modifications", W+"tables.py", "MOVEMENT_STEP_CM = 3.0 ", "MOVEMENT_STEP_CM = 4.0 ", TABLES),
 ("Unit Modifications", W+"tables.py", "return sum(self.first + self.step * k for k in range(times))",
  "return self.first * times", TABLES),
 ("Unit Modifications", W+"profile.py", "roll = DiceRoll(count, 0) if roll is None else (roll if roll.count >= count",
  "roll = DiceRoll(count, 0) if roll is None else (roll if roll.count >= 1", TABLES),
 ("Unit Modifications", W+"tables.py", '"threat-up": Cost(2, 1, True)', '"threat-up": Cost(2, 0, True)', TABLES),
 ("Unit Modifications", W+"tables.py", '"high-flyer": Cost(5, 0, True)', '"high-flyer": Cost(4, 0, True)', TABLES),
 ("Unit Modifications", W+"tables.py", '"reactive-armor": Cost(5)', '"reactive-armor": Cost(4)', TABLES),
 ("Unit Modifications: High Flyer", W+"tables.py", "HIGH_FLYER_CM = 5.0 ", "HIGH_FLYER_CM = 6.0 ", STEPS),
 # -- Weapon modifiers -------------------------------------------------------------------------------------
 ("Splash", W+"measures.py", "if apart <= radius_cm + 1e-9:", "if apart <= radius_cm + 3:", MODS),
 ("Splash", W+"tables.py", "SPLASH_CM = 3.0 ", "SPLASH_CM = 4.0 ", MODS+" "+TABLES),
 ("Splash Range Up", W+"tables.py", "SPLASH_STEP_CM = 3.0 ", "SPLASH_STEP_CM = 4.0 ", MODS+" "+TABLES),
 ("Piercing", W+"combat.py", 'weapon.piercing and results.get(strike["primary"]) == "perished"',
  'weapon.piercing and results.get(strike["primary"]) != "perished"', MODS),
 ("Armor Penetration", W+"saves.py", "steps, minus = (weapon.armor_penetration, weapon.armor_pen_focus)",
  "steps, minus = (0, weapon.armor_pen_focus)", MODS),
 ("Armor Penetration", W+"saves.py", "return self.dice.value(faces) - self.minus", "return self.dice.value(faces)",
  MODS),
 ("Shield Penetration", W+"saves.py", "steps, minus = (weapon.shield_penetration, weapon.shield_pen_focus)",
  "steps, minus = (0, weapon.shield_pen_focus)", MODS),
 ("Rail Driven", W+"saves.py", "            return Fraction(raw, 2)", "            return Fraction(raw)", MODS),
 ("Rail Driven", W+"combat.py", "if not weapon.rail_driven and distance > reach + 1e-9:",
  "if distance > reach + 1e-9:", MODS),
 ("Rail Driven", W+"combat.py", 'weapon.rail_driven or weapon.guided and cover == "light"',
  'weapon.guided and cover == "light"', MODS),
 ("Rail Driven", W+"sheets.py", "if self.rail_driven and self.splash_cm > 0:", "if False:", TABLES),
 ("Guided", W+"tables.py", "GUIDED_SLACK_CM = 3.0 ", "GUIDED_SLACK_CM = 5.0 ", MODS),
 ("Guided", W+"tables.py", "GUIDED_SLACK_CM = 3.0 ", "GUIDED_SLACK_CM = 1.0 ", MODS),
 ("Guided", W+"combat.py", 'weapon.guided and cover == "light"', 'weapon.guided and cover == "none"', MODS),
 ("Incendiary", W+"tables.py", "INCENDIARY_DAMAGE = 4 ", "INCENDIARY_DAMAGE = 5 ", MODS),
 ("Incendiary", W+"tables.py", "INCENDIARY_ROUNDS = 3", "INCENDIARY_ROUNDS = 2", MODS),
 ("Incendiary", W+"turns.py", 'burning = tuple(("burn", u.id) for u in state.units.values() if u.on_field and u.burning > 0)',
  "burning = ()", MODS),
 # -- Mechanized -------------------------------------------------------------------------------------------
 ("Mechanized (trample)", W+"tables.py", 'TRAMPLE_DAMAGE = "d8" ', 'TRAMPLE_DAMAGE = "d10" ', MOVES),
 ("Mechanized (trample)", W+"tables.py", 'TRAMPLE_ACCURACY = "d20"', 'TRAMPLE_ACCURACY = "d12"', MOVES),
 ("Mechanized (trample)", W+"tables.py", "TRAMPLE_ESCAPE_CM = 6.0 ", "TRAMPLE_ESCAPE_CM = 5.0 ", MOVES),
 ("Mechanized (trample)", W+"death.py", "if corners and not trampled and", "if corners and", MOVES),
 ("Mechanized (cover destroyed)", W+"movement.py", '        rank(piece.cover) <= rank("medium")',
  '        rank(piece.cover) <= rank("light")', MOVES),
 ("Mechanized (wreck)", W+"blocking.py", '    if piece.kind == "wreck":\n        return True',
  '    if piece.kind == "wreck":\n        return False', STEPS),
 ("Mechanized (crew)", W+"death.py", "    if profile.mechanized:\n        events += _eject(g, unit_id)", "", STEPS),
 ("Mechanized (crew)", W+"checks.py", 'if profile.category != "light-infantry" or (mech is not None',
  'if profile.category == "mechanized" or (mech is not None', STEPS+" "+TABLES),
 ("Mechanized (directional)", W+"profile.py", "return self.shield[PARTS.index(part)]", "return self.shield[0]", STEPS),
 ("Mechanized (directional)", W+"profile.py", "return self.armor[PARTS.index(part)]", "return self.armor[0]", STEPS),
 # -- Alternate Game Modes -------------------------------------------------------------------------------------
 ("Capture The Frag", W+"tables.py", "FRAG_TOKENS = 3 ", "FRAG_TOKENS = 4 ", ENDS),
 ("Capture The Frag", W+"death.py",
  'if g.ctx.params.mode != "capture-the-frag" or state.primary.get(side) != unit_id:',
  'if g.ctx.params.mode != "capture-the-frag":', ENDS),
 ("Capture The Frag", W+"death.py", "gone = [key for key, obstacle in state.obstacles.items() if obstacle.side == side]",
  "gone = []", ENDS),
 ("Domination", W+"turns.py", "return finish(g, alive[0] if alive else None, \"win\" if alive else \"draw\")",
  "return []", ENDS),
]


def main(only) -> int:
    return run(M, T, only)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
