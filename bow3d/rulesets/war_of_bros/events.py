"""The documented kinds of War of Bros' events: each a kind plus typed fields, no words.

Layer: rulesets (War of Bros). Positions in studs (the scene's), lengths in cm, facings in degrees.
The engine's kinds (roll_requested, rolled, decision_requested, decided) come with every schema;
throws are `{"kind": "dice", "count": N, "sides": S, "keep": "highest"}` specs whose outcome is
every face. The common kinds the film reads (placed, moved, attack, attack_result, died, destroyed,
round_started, game_over) carry their fields plus War of Bros' own. A test checks every event of
random playouts against this schema and snapshots it (tests/data/rulesets/war-of-bros-events.schema.json).
"""

from __future__ import annotations

from bow3d.rules.events import EventKind, EventSchema, FieldSpec

F = FieldSpec
OUTCOME = ("'perished', 'evaded', 'shield', 'armor', 'vitality' (the save held), 'cover' (a miss in the Cover "
           "Step), 'terrain' (a miss in the Impact Step), 'cancelled', 'gone' (nobody left to hit)")

SCHEMA = EventSchema([
    EventKind("game_started", "the encounter begins", {"sides": F("list", "the sides, in scene order"),
                                                       "mode": F("str", "'domination' or 'capture-the-frag'")}),
    EventKind("order", "an order roll decided (Unit Placement, First Turn)", {
        "purpose": F("str", "'placement_order' or 'first_turn'"), "sides": F("list", "the sides, first first"),
        "rolls": F("dict", "side -> its last roll")}),
    EventKind("order_tie", "sides tied in an order roll roll again", {
        "purpose": F("str", "'placement_order' or 'first_turn'"), "sides": F("list", "the tied sides"),
        "value": F("int", "the tied result")}),
    EventKind("placed", "a unit is put on the battlefield", {
        "unit": F("id", "the unit"), "position": F("point", "its base's centre, studs"),
        "facing": F("float", "degrees"),
        "reason": F("str", "'placement' (Unit Placement), 'ejected' (the crew of a perished Mechanized unit), "
                    "'escape' (6 cm away from a trample)")}),
    EventKind("primary_target", "Capture The Frag: a player selects its Primary Target", {
        "side": F("id", "the player"), "unit": F("id", "the Primary Target"), "tokens": F("int", "frag tokens left")}),
    EventKind("round_started", "a round begins", {"order": F("list", "the players' turn order"),
                                                  "first_turn": F("bool", "the first turn: movement only")}),
    EventKind("turn_started", "a player's turn begins", {"side": F("id", "the player")}),
    EventKind("turn_ended", "a player ends its turn early", {"side": F("id", "the player")}),
    EventKind("round_ended", "the round (the event's round) is over", {}),
    EventKind("activation_started", "a unit starts its steps (Order Of Operation)", {"unit": F("id", "the unit")}),
    EventKind("activation_ended", "a unit has taken its steps", {"unit": F("id", "the unit"),
                                                                 "moved_cm": F("float", "movement used, cm")}),
    EventKind("step", "a unit passes to its Final Movement Step", {"unit": F("id", "the unit"),
                                                                   "step": F("str", "'final'")}),
    EventKind("moved", "a unit turns and moves straight ahead (First or Final Movement Step)", {
        "unit": F("id", "the unit"), "from": F("point", "its centre before, studs"),
        "to": F("point", "its centre after, studs"),
        "path": F("list", "points passed, studs (after the turn, when the turn moves the centre; the end)"),
        "facing": F("float", "its facing after, degrees"), "distance_cm": F("float", "the straight move, cm"),
        "cost_cm": F("float", "movement used (difficult terrain counts double or triple), cm"),
        "left_cm": F("float", "movement left in this activation, cm")}),
    EventKind("cover_destroyed", "a Mechanized unit destroys the light and medium cover it touches", {
        "unit": F("id", "the Mechanized unit"), "decor": F("list", "decor part instances removed"),
        "bodies": F("list", "Bodies (obstacle ids) removed")}),
    EventKind("attack", "an attack is declared (Check Step passed) or a reaction strikes", {
        "unit": F("id", "the attacker"), "target": F("id", "the target"), "weapon": F("str", "the weapon"),
        "melee": F("bool", "a melee weapon"),
        "kind": F("str", "'attack', 'opportunity', 'reactive', 'trample' or 'pierce'"),
        "distance_cm": F("float?", "front edge to the target's base, cm (declared attacks)"),
        "range_cm": F("float?", "the weapon's range against this target, cm (declared attacks)")}),
    EventKind("impact", "the Impact Step on the 3D battlefield: what the attacker's eye sees of the target", {
        "unit": F("id", "the attacker"), "target": F("id", "the target"), "visible": F("bool", "some of it is seen"),
        "hidden": F("float", "the share hidden"), "cover": F("str", "'none', 'light', 'medium', 'heavy', 'total'"),
        "given_by": F("str?", "the blocker that gave the cover (part, colour, file and line; or unit, obstacle)"),
        "material": F("str?", "its material"), "airborne": F("bool", "an airborne unit: no cover, no terrain")}),
    EventKind("intercepted", "another unit on the line of fire is attacked instead (Impact Step)", {
        "unit": F("id", "the attacker"), "target": F("id", "the unit aimed at"), "other": F("id", "the unit hit")}),
    EventKind("attack_cancelled", "the attacker cancels rather than hit the unit in the way (Impact Step)", {
        "unit": F("id", "the attacker"), "target": F("id", "the unit aimed at"), "other": F("id", "the unit in the way")}),
    EventKind("cover_roll", "the Cover Step's d4", {
        "unit": F("id", "the attacker"), "target": F("id", "the target"), "cover": F("str", "the cover class"),
        "roll": F("int?", "the d4 (None: total cover, no roll)"), "missed": F("bool", "the attack is a miss")}),
    EventKind("attack_roll", "the attacker's accuracy or damage roll in a step (the highest die, with bonuses)", {
        "unit": F("id", "the attacker"), "target": F("id", "the first target"),
        "step": F("str", "'accuracy', 'shield', 'armor' or 'vitality'"),
        "value": F("float", "the result (Rail Driven: halved)")}),
    EventKind("save", "a target's save in a step", {
        "target": F("id", "the target"), "step": F("str", "'accuracy' (Evasion), 'shield', 'armor', 'vitality'"),
        "value": F("int", "its result"), "against": F("float", "the attacker's result"),
        "held": F("bool", "higher than the attack: the attack stops here")}),
    EventKind("save_skipped", "a save that cannot win is not rolled (Multiple Die Saves), or there is none", {
        "target": F("id", "the target"), "step": F("str", "the step"), "value": F("float", "the attacker's result"),
        "highest": F("int?", "the best the save could score (None: no save)")}),
    EventKind("attack_result", "how an attack ended for one target", {
        "unit": F("id", "the attacker"), "target": F("id", "the target"),
        "damage": F("int", "1 when the target perished, else 0"), "outcome": F("str", OUTCOME),
        "cover": F("str", "the cover class of the Cover Step"),
        "kind": F("str", "'attack', 'opportunity', 'reactive', 'trample' or 'pierce'")}),
    EventKind("opportunity", "an Attack Of Opportunity is called", {
        "unit": F("id", "the unit calling it"), "target": F("id", "the moving enemy"), "weapon": F("str", "the weapon")}),
    EventKind("burning", "an Incendiary munition sets a unit burning", {
        "unit": F("id", "the unit"), "rounds": F("int", "rounds it will burn")}),
    EventKind("burn", "a burning unit saves against a Damage Roll of 4", {
        "unit": F("id", "the unit"), "damage": F("int", "the damage"), "rounds_left": F("int", "rounds left after this")}),
    EventKind("burn_result", "how a burn ended", {"unit": F("id", "the unit"), "outcome": F("str", OUTCOME)}),
    EventKind("died", "a unit perishes", {"unit": F("id", "the unit"), "by": F("id?", "the unit that killed it"),
                                          "trampled": F("bool", "trampled: no Body is left")}),
    EventKind("destroyed", "a Mechanized unit perishes", {"vehicle": F("id", "the unit"),
                                                          "by": F("id?", "the unit that destroyed it")}),
    EventKind("cover_left", "a Body or a wreck replaces a perished unit", {
        "unit": F("id", "the unit"), "obstacle": F("id", "the obstacle's id in the world"),
        "kind": F("str", "'body' (light cover, difficulty 2) or 'wreck' (Vehicle cover, impassable)"),
        "material": F("str", "its material")}),
    EventKind("crew_lost", "a crew member finds no room beside the wreck and perishes inside", {
        "unit": F("id", "the crew member"), "vehicle": F("id", "the wreck")}),
    EventKind("frag_lost", "Capture The Frag: a Primary Target was killed", {
        "side": F("id", "its player"), "unit": F("id", "the Primary Target"), "tokens": F("int", "tokens left")}),
    EventKind("side_out", "a player has lost every frag token: its units and covers leave the terrain", {
        "side": F("id", "the player"), "obstacles": F("list", "its Bodies and wrecks removed")}),
    EventKind("round_limit", "the round limit is reached: the unit power in play decides", {
        "power": F("dict", "side -> unit power of its units in play")}),
    EventKind("game_over", "the encounter ends (Ending An Encounter)", {
        "winner": F("id?", "the winning player, None for a draw"), "result": F("str", "'win', 'draw' or 'power'"),
        "rewards": F("dict", "side -> maximum unit power gained (A Reward Is Given)")}),
])
