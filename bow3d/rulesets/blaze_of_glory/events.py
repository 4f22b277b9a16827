"""The documented kinds of Blaze of Glory's events: each a kind plus typed fields, no words.

Layer: rulesets (Blaze of Glory). Positions in studs, distances in inches (`*_in`), heights in
stories. The engine's kinds (roll_requested, rolled, decision_requested, decided) come with every
schema; the throws are `dice` specs (d6 tests, wound rolls, run rolls, the to-hit throw of a volley)
and one `shuffle` of the deck a round. The kinds the film and the viewers read whatever the ruleset
are used where the game has the thing: round_started, moved, placed, attack and attack_result
(`damage`: 0 no effect or a miss, 1 knocked down, 2 wounded, 3 out of action), died (out of
action: the dead counter), game_over. Blaze of Glory adds what the film needs to show the book's
states: `down` (with `posture`: 'on_back' knocked down, 'face_down' wounded or unconscious) and
`fled` (a nerve failure: the figure leaves the table). A test checks every event of seeded
playouts against this schema, and snapshots it (tests/data).
"""

from __future__ import annotations

from bow3d.rules.events import EventKind, EventSchema, FieldSpec

F = FieldSpec

SCHEMA = EventSchema([
    EventKind("game_started", "the game begins", {
        "sides": F("list", "the sides, in scene order"), "goodies": F("id?", "the Goodies' side"),
        "baddies": F("id?", "the Baddies' side")}),
    EventKind("round_started", "a round begins: every card of the figures on the table is shuffled (Activation)", {
        "cards": F("int", "cards in the deck")}),
    EventKind("card_turned", "the top card is turned (Activation)", {
        "card": F("str", "the card"), "unit": F("id", "the figure on it"),
        "skipped": F("bool", "the figure is gone: the card is put aside")}),
    EventKind("turn_started", "a figure is Active", {
        "unit": F("id", "the figure"), "card": F("str?", "its card (None: a Blaze of Glory's turn)"),
        "frenzy": F("bool", "a Blood Brother's Blaze of Glory"), "state": F("str", "its state as the turn starts")}),
    EventKind("turn_ended", "the Active figure's turn is over", {"unit": F("id", "the figure")}),
    EventKind("round_ended", "the deck is out", {}),
    EventKind("round_limit", "the round limit is reached: figures still in the fight decide", {
        "fighting": F("dict", "side -> figures standing or knocked down")}),
    EventKind("game_over", "the game ends", {"winner": F("id?", "the winning side, None for a draw"),
                                             "result": F("str", "'win', 'draw' or 'survivors' (round limit)")}),
    EventKind("test", "a TEST: a d6 against a characteristic, 1 always passes, 6 always fails", {
        "unit": F("id", "who tests"), "test": F("str", "S, F, R, N or H"), "value": F("int", "the modified value"),
        "die": F("int", "the die that counts"), "dice": F("list", "every die (TRUE GRIT: two)"),
        "passed": F("bool", "passed"), "purpose": F("str", "what for: climb, drop, leap, fall, dodge, strike, "
                                                     "headlock, disengage, get_up, nerve_casualty, nerve_failer, "
                                                     "nerve_activation, or a Hero Point's use"),
        "modifiers": F("list", "the modifiers, in words")}),
    EventKind("reroll", "a skill rolls a test or a wound again", {
        "unit": F("id", "whose skill"), "skill": F("str", "nimble or duck and dive"), "purpose": F("str", "what")}),
    EventKind("hero_point", "a Hero Point spent (Hero Points)", {
        "unit": F("id", "the hero"), "use": F("str", "run, shoot, reload, recover, lucky, ignore_reflexes, "
                                                     "ignore_nerve"),
        "passed": F("bool", "the Hero test passed (the use happens)")}),
    EventKind("moved", "a figure moves or runs (Activation & Movement)", {
        "unit": F("id", "the figure"), "from": F("point", "where it was, studs"), "to": F("point", "where it is"),
        "path": F("list", "the points walked after the start, studs"), "facing": F("float", "degrees"),
        "distance_in": F("float", "inches walked, measured along the path"), "run": F("bool", "a run")}),
    EventKind("level_change", "a climb, a jump down or a roof leap (Climbing/Fall)", {
        "unit": F("id", "the figure"), "kind": F("str", "climb, drop or leap"), "at": F("point", "the edge, studs"),
        "from_story": F("int", "story left"), "to_story": F("int", "story reached"),
        "tests": F("int", "R tests it asks")}),
    EventKind("fell", "a figure falls (Climbing/Fall)", {
        "unit": F("id", "the figure"), "stories": F("int", "stories fallen"), "at": F("point", "where he lands"),
        "kind": F("str", "what he was doing: climb, drop or leap")}),
    EventKind("landed", "after a fall: hurt (a wound roll follows) or not", {
        "unit": F("id", "the figure"), "hurt": F("bool", "failed the fall test")}),
    EventKind("run", "the run roll (Running)", {"unit": F("id", "the figure"), "inches": F("int", "the d6")}),
    EventKind("stood_up", "a knocked-down figure gets up", {"unit": F("id", "the figure")}),
    EventKind("stayed_down", "a knocked-down figure fails his Nerve test and stays down", {
        "unit": F("id", "the figure")}),
    EventKind("came_round", "an unconscious figure rolls to come round (1-2)", {
        "unit": F("id", "the figure"), "die": F("int", "the d6"), "woke": F("bool", "came round (knocked down)")}),
    EventKind("shots", "a volley: a weapon, a target per shot, the S each needs (Shooting)", {
        "unit": F("id", "the shooter"), "weapon": F("str", "pistol, pistol-2, pistols, rifle, bow, shotgun, thrown"),
        "targets": F("list", "one per shot (the shotgun: everyone under the template)"),
        "values": F("list", "the modified S of each shot"), "template": F("bool", "a scatter gun's template")}),
    EventKind("attack", "one shot or one fisticuffs strike, with its roll", {
        "unit": F("id", "the attacker"), "target": F("id", "the target"), "melee": F("bool", "Fisticuffs"),
        "weapon": F("str", "the weapon (fists, or a close combat weapon, in a fight)"),
        "shot": F("int", "which shot of the volley"), "value": F("int", "the modified S or F"),
        "modifiers": F("list", "the modifiers, in words"), "die": F("int", "the d6 to hit"), "hit": F("bool", "hit"),
        "distance_in": F("float", "head to head, inches (0 in a fight)"),
        "cover": F("str", "none, partial or full")}),
    EventKind("attack_result", "what the shot or the strike did", {
        "unit": F("id", "the attacker"), "target": F("id", "the target"),
        "damage": F("int", "0 no effect or a miss, 1 knocked down, 2 wounded, 3 out of action"),
        "result": F("str", "miss, dodged, no_effect, headlock, knocked_down, knocked_down_nerve, wounded, "
                           "out_of_action"), "state": F("str", "the target's state after it")}),
    EventKind("wound_roll", "a roll on a wound table (Wounding, Fisticuffs)", {
        "unit": F("id", "the one hurt"), "by": F("id?", "who hurt him (None: a fall)"),
        "table": F("str", "shooting or fisticuffs"), "die": F("int", "the die that counts"),
        "dice": F("list", "every die (DEAD EYE: two)"), "modifier": F("int", "added to the die"),
        "modifiers": F("list", "in words"), "result": F("str", "the table's row")}),
    EventKind("lucky", "a lucky object took the blow (Hero Points)", {
        "unit": F("id", "the lucky one"), "object": F("str", "what the bullet hit"), "by": F("id?", "the shooter")}),
    EventKind("down", "a figure goes down (Wounding): lay it on its front or on its back", {
        "unit": F("id", "the figure"), "state": F("str", "knocked_down, wounded or unconscious"),
        "posture": F("str", "on_back (knocked down) or face_down (wounded, unconscious)"),
        "needs_nerve": F("bool", "must pass a Nerve test to get up"), "by": F("id?", "who did it")}),
    EventKind("died", "out of action: replaced by a dead counter", {
        "unit": F("id", "the figure"), "by": F("id?", "who did it")}),
    EventKind("fled", "a Nerve test failed: removed from play", {
        "unit": F("id", "the figure"), "because": F("id?", "the casualty that broke his nerve")}),
    EventKind("vengeance", "a Marked Man's killer is out of action", {
        "unit": F("id", "the Marked Man"), "killer": F("id", "his quarry")}),
    EventKind("blood_brother", "a Blood Brother rolls on his table", {
        "unit": F("id", "the Blood Brother"), "friend": F("id", "his friend, wounded or out of action"),
        "die": F("int", "the d6"), "result": F("str", "blaze_of_glory, marked_man, hold_a_grudge, yellow_dog"),
        "killer": F("id?", "a Marked Man's quarry")}),
    EventKind("recovery", "a wounded figure's attempt to recover (Hero Points)", {
        "unit": F("id", "the figure"), "outcome": F("str", "recovered, still_wounded, spent (out of action)")}),
    EventKind("attributes_lost", "recovering from a wound: the d6 taken off S, F, R and N", {
        "unit": F("id", "the figure"), "points": F("int", "the d6"), "split": F("list", "S, F, R, N taken off"),
        "left": F("dict", "the characteristics left")}),
    EventKind("out_of_ammo", "a double among the shots: the weapon is empty", {
        "unit": F("id", "the shooter"), "weapon": F("str", "the weapon")}),
    EventKind("reloaded", "a weapon is reloaded", {"unit": F("id", "the figure"), "weapon": F("str", "the weapon")}),
    EventKind("countershot", "QUICK DRAW: an instant countershot", {
        "unit": F("id", "the quick drawer"), "target": F("id", "the one who shot at him"),
        "weapon": F("str", "his weapon"), "side": F("id", "his side")}),
    EventKind("engaged", "a fistfight begins", {"unit": F("id", "the attacker"), "target": F("id", "his opponent")}),
    EventKind("fight_round", "every figure of a fistfight has had its turn to strike", {
        "units": F("list", "the strike order")}),
    EventKind("no_fight_back", "knocked off his feet (or held in a headlock): no strike this turn", {
        "unit": F("id", "the figure")}),
    EventKind("headlock", "a headlock: an R test or no fight back", {
        "unit": F("id", "who holds"), "target": F("id", "who is held")}),
    EventKind("disengaged", "trying to pull out of a fistfight", {
        "unit": F("id", "the figure"), "pulled_out": F("bool", "the R roll passed")}),
    EventKind("finished_off", "a wounded figure taken out of action in contact", {
        "unit": F("id", "who does it"), "target": F("id", "the wounded figure"),
        "hero_given": F("bool", "a Goody gives up a Hero Point for such a low down deed")}),
])
