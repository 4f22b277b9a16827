"""The documented kinds of BOW 1.3's events: each a kind plus typed fields, no words.

Layer: rulesets (BOW). Positions and distances in studs, facings and angles in degrees. The
engine's kinds (roll_requested, rolled, decision_requested, decided) come with every schema;
BOW's throws are `{"kind": "bricks", "n": N, "p": P}` specs whose outcome is the number of bricks
on edge, and their purpose is one of bow3d.rulesets.bow.chance.PURPOSES. A test checks every
event of random playouts against this schema, and snapshots it.
"""

from __future__ import annotations

from bow3d.rules.events import EventKind, EventSchema, FieldSpec

F = FieldSpec

SCHEMA = EventSchema([
    EventKind("game_started", "the game begins (BOW §2.2)", {"sides": F("list", "the sides, in scene order")}),
    EventKind("starting_tie", "the starting rolls tie: the tied sides roll again (§2.2)", {
        "sides": F("list", "the tied sides"), "edges": F("int", "the tied result, bricks on edge")}),
    EventKind("starting_player", "the side that starts the first round (§2.2)", {
        "side": F("id", "the starting side"), "edges": F("int", "its result, bricks on edge")}),
    EventKind("round_started", "a round begins (§2.2)", {
        "starter": F("id", "the side that plays first"),
        "marking": F("str", "'add' (odd rounds) or 'remove' (even): what played units do with a marking brick")}),
    EventKind("turn_started", "a unit's turn begins", {"unit": F("id", "the unit")}),
    EventKind("turn_ended", "a unit's turn ends", {"unit": F("id", "the unit"),
                                                   "actions": F("int", "actions it used")}),
    EventKind("round_ended", "the round (the event's round) is over", {}),
    EventKind("game_over", "the game ends", {"winner": F("id?", "the winning side, None for a draw"),
                                             "result": F("str", "'win', 'draw' or 'points' (round limit)")}),
    EventKind("round_limit", "the round limit is reached: cost points of the units in play decide (Annex A.4)", {
        "points": F("dict", "side -> cost points in play")}),
    EventKind("moved", "a unit moves (or turns on the spot) on the stud grid (§2.3.1)", {
        "unit": F("id", "the unit"), "from": F("cell", "its cell before"), "to": F("cell", "its cell after"),
        "path": F("list", "the cells walked, the start excluded (empty: turned on the spot)"),
        "facing": F("float", "its facing after, degrees")}),
    EventKind("grabbed", "a unit picks up an object (§2.3.2)", {
        "unit": F("id", "the unit"), "item": F("str", "the object"), "cell": F("cell", "where it lay")}),
    EventKind("thrown", "a unit throws an object (§2.3.2)", {
        "unit": F("id", "the unit"), "item": F("str", "the object"), "to": F("cell", "where it lands")}),
    EventKind("given", "a unit gives an object to a friend (§2.3.2)", {
        "unit": F("id", "the giver"), "item": F("str", "the object"), "receiver": F("id", "the receiver")}),
    EventKind("switched", "a unit takes a weapon from its bag in hand (§2.3.2)", {
        "unit": F("id", "the unit"), "weapon": F("str", "the weapon"), "damage": F("int", "its damage value")}),
    EventKind("door", "a unit opens or closes a door (§2.3.3)", {
        "unit": F("id", "the unit"), "door": F("id", "the door"), "open": F("bool", "open after")}),
    EventKind("got_on", "a unit gets on a vehicle (§2.3.3)", {
        "unit": F("id", "the unit"), "vehicle": F("id", "the vehicle"), "seat": F("int", "0 = the pilot's seat")}),
    EventKind("got_off", "a unit gets off a vehicle (§2.3.3)", {
        "unit": F("id", "the unit"), "vehicle": F("id", "the vehicle"), "to": F("cell", "the cell it gets off to")}),
    EventKind("speed_changed", "a pilot changes the vehicle's speed (§3.3)", {
        "vehicle": F("id", "the vehicle"), "speed": F("int", "the new speed (x 5 studs)"),
        "previous": F("int", "the speed before")}),
    EventKind("landed", "a flying vehicle lands (§3.2)", {"vehicle": F("id", "the vehicle")}),
    EventKind("turned", "a pilot turns the vehicle on the spot (§3.3)", {
        "vehicle": F("id", "the vehicle"), "delta_deg": F("float", "the turn, counter-clockwise positive"),
        "facing": F("float", "its facing after, degrees")}),
    EventKind("vehicle_moved", "a vehicle's straight move (§3.3)", {
        "vehicle": F("id", "the vehicle"), "from": F("point", "position before, studs"),
        "to": F("point", "position after, studs"), "distance": F("float", "studs travelled")}),
    EventKind("collision", "a moving vehicle hits something (§3.6)", {
        "vehicle": F("id", "the moving vehicle"), "kind": F("str", "'decor', 'ground', 'unit' or 'vehicle'"),
        "other": F("id?", "the unit or vehicle hit"), "sector": F("str?", "'front', 'side' or 'back' of a hit vehicle"),
        "relative_speed": F("int", "the speed rolled against (§3.6.3)")}),
    EventKind("stopped", "a vehicle stops (§3.6)", {"vehicle": F("id", "the vehicle"),
                                                     "against": F("id?", "the unit it stops against, if any")}),
    EventKind("left_field", "a vehicle leaves the battlefield with its occupants", {
        "vehicle": F("id", "the vehicle"), "occupants": F("list", "the units aboard")}),
    EventKind("attack", "an attack with its brick counts (§2.4.2)", {
        "unit": F("id", "the attacker"), "target": F("id", "the target"), "weapon": F("str", "the weapon"),
        "attack_bricks": F("int", "attack/damage bricks after the range penalty"),
        "dodge_bricks": F("int", "dodge/armor bricks, +1 when covered"),
        "range_penalty": F("int", "bricks taken off for range"), "covered": F("bool", "the target is covered"),
        "distance": F("float?", "head to head, studs (None in melee)"), "melee": F("bool", "a melee strike")}),
    EventKind("dispute_result", "a visibility dispute is decided (§2.4.2 option)", {
        "won": F("bool", "the target counts as visible"), "unit": F("id", "the attacker"),
        "target": F("id", "the target"), "attacker_edges": F("int", "the attacker's result"),
        "defender_edges": F("int", "the defender's result")}),
    EventKind("attack_result", "the rolls of an attack weighed (§2.4.2)", {
        "unit": F("id", "the attacker"), "target": F("id", "the target"), "attack": F("int", "attack bricks on edge"),
        "dodge": F("int", "dodge bricks on edge"), "damage": F("int", "damage dealt (0 = no effect)")}),
    EventKind("damaged", "damage points taken (§2.4.3, §3.5)", {
        "id": F("id", "the unit or vehicle"), "amount": F("int", "damage taken now"),
        "damage": F("int", "damage points now"), "hp": F("int", "its health points")}),
    EventKind("died", "a unit dies (§2.4.3)", {"unit": F("id", "the unit")}),
    EventKind("destroyed", "a vehicle is destroyed (§3.5)", {"vehicle": F("id", "the vehicle")}),
    EventKind("placed", "a unit is put down by the rules", {
        "unit": F("id", "the unit"), "position": F("point", "where, studs"),
        "reason": F("str", "'thrown_out' (its vehicle destroyed, §3.5) or 'pushed_aside' (run over, §3.6.1)")}),
    EventKind("treat", "a treatment or repair with its brick counts (§2.4.4)", {
        "unit": F("id", "the medic or mechanic"), "target": F("id", "the one treated"),
        "treat_bricks": F("int", "treat/repair bricks"), "resist_bricks": F("int", "the target's damage points"),
        "repair": F("bool", "a repair (yellow HP) rather than a treatment (red HP)")}),
    EventKind("treat_result", "the rolls of a treatment weighed (§2.4.4)", {
        "unit": F("id", "the medic"), "target": F("id", "the one treated"), "treat": F("int", "treat bricks on edge"),
        "resist": F("int", "resisting bricks on edge"), "healed": F("int", "damage points removed"),
        "damage": F("int", "damage points left")}),
])
