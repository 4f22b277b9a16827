"""Blaze of Glory's words: the battle-log line of every event, in English, in the book's words.

Layer: rulesets (Blaze of Glory). Events hold facts only (bow3d.rulesets.blaze_of_glory.events);
this narrator turns them into the lines a player reads in `replay show`, the play UI's log and the
film's captions, and writes the referee's sentence on a line of sight (`bow3d los`). Rewording a
line here changes no replay and no verification.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bow3d.rules.events import Event, Narrator

# the roll itself ('rolled') and the choice ('decided') say it all in a log
QUIET_KINDS = frozenset({"roll_requested", "decision_requested"})
STATE_WORDS = {"knocked_down": "KNOCKED DOWN and lies on his back", "wounded": "WOUNDED and lies on his front",
               "unconscious": "only unconscious: he lies on his front, a dead marker beside him"}
RESULT_WORDS = {"miss": "a miss", "dodged": "dodged", "no_effect": "no effect", "headlock": "a HEADLOCK",
                "knocked_down": "KNOCK DOWN", "knocked_down_nerve": "KNOCK DOWN (N test)", "wounded": "WOUND",
                "out_of_action": "OUT OF ACTION"}
PURPOSE_WORDS = {"climb": "to climb", "drop": "to jump down", "leap": "to leap from roof to roof",
                 "fall": "after his fall", "dodge": "to dodge (DODGE & WEAVE)", "strike": "to land a punch",
                 "headlock": "to break the headlock", "disengage": "to pull out of the fight",
                 "get_up": "to get up", "nerve_casualty": "as a friend goes OUT OF ACTION",
                 "nerve_failer": "as a friend's nerve breaks beside him", "nerve_activation": "at the sight of his "
                 "fallen friends", "run": "for an extra run roll", "shoot": "for another go shooting",
                 "reload": "to reload", "recover": "to recover from his wound", "lucky": "for a lucky shot",
                 "ignore_reflexes": "to ignore a failed REFLEX roll", "ignore_nerve": "to ignore a failed NERVE roll"}
BROTHER_WORDS = {"blaze_of_glory": "BLAZE OF GLORY! He charges the nearest enemy, all guns blazing",
                 "marked_man": "MARKED MAN: he will hunt down {killer}", "hold_a_grudge": "HOLD A GRUDGE: he fights "
                 "on as usual, the S.O.B will get his sooner or later", "yellow_dog": "YELLOW DOG: he runs like a dog"}
THROW_WORDS = {"deck": "shuffles the deck", "shoot": "shoots", "wound": "rolls to wound", "run": "rolls to run",
               "unconscious": "rolls: unconscious or dead", "come_round": "rolls to come round",
               "recovery": "rolls the points taken off", "blood_brother": "rolls for his blood brother",
               "countershot": "fires back"}


def _spec_words(spec: dict[str, Any]) -> str:
    if spec.get("kind") == "dice":
        count, sides = spec.get("count"), spec.get("sides")
        return f"{count}d{sides}" + (" (the best counts)" if spec.get("keep") == "lowest" and count > 1 else "")
    if spec.get("kind") == "shuffle":
        return f"the {len(spec.get('cards', []))} cards"
    return str(spec.get("kind", "?"))


def _outcome(spec: dict[str, Any], outcome: Any) -> str:
    if spec.get("kind") == "shuffle":
        return "top card " + str(outcome[0]) if outcome else "no card"
    if isinstance(outcome, list):
        return ", ".join(str(v) for v in outcome)
    return str(outcome)


def _rolled(e: Event) -> str:
    d = e.data
    about = d.get("about") or {}
    who = about.get("unit") or d["side"]
    if d["purpose"].endswith("_test"):
        return f"{who} rolls {_outcome(d['spec'], d['outcome'])} ({_spec_words(d['spec'])})"
    what = THROW_WORDS.get(d["purpose"], d["purpose"].replace("_", " "))
    return f"{who} {what}: {_outcome(d['spec'], d['outcome'])}"


def _test(e: Event) -> str:
    d = e.data
    mods = f" ({'; '.join(d['modifiers'])})" if d["modifiers"] else ""
    verdict = "passes" if d["passed"] else "fails"
    if d["test"] == "H":
        return f"{d['unit']} {verdict} a HERO test {PURPOSE_WORDS.get(d['purpose'], d['purpose'])}: " \
               f"{d['die']} against {d['value']}"
    return f"{d['unit']} {verdict} his {d['test']} test {PURPOSE_WORDS.get(d['purpose'], d['purpose'])}: " \
           f"{d['die']} against {d['value']}{mods}"


def _moved(e: Event) -> str:
    d = e.data
    verb = "runs" if d["run"] else "moves"
    if not d["path"] or float(d["distance_in"]) <= 0:
        return f"{d['unit']} stays put"
    return f"{d['unit']} {verb} {float(d['distance_in']):.1f} inches"


def _attack(e: Event) -> str:
    d = e.data
    if d["melee"]:
        how = "with his fists" if d["weapon"] == "fists" else f"with his {d['weapon']}"
        return f"{d['unit']} swings at {d['target']} {how} (F {d['value']}): {'a hit' if d['hit'] else 'misses'}"
    mods = f"; {', '.join(d['modifiers'])}" if d["modifiers"] else ""
    cover = f", {d['cover']} cover" if d["cover"] not in ("none", "hidden") else ""
    return (f"{d['unit']} fires his {d['weapon']} at {d['target']} ({float(d['distance_in']):.1f} inches{cover}; "
            f"needs {d['value']} or less{mods}): rolls {d['die']}, {'HIT' if d['hit'] else 'miss'}")


def _attack_result(e: Event, following: Sequence[Event]) -> str:
    d = e.data
    return f"{d['unit']} on {d['target']}: {RESULT_WORDS.get(d['result'], d['result'])}"


def _down(e: Event) -> str:
    d = e.data
    words = STATE_WORDS.get(d["state"], d["state"])
    nerve = "; he needs a NERVE test to get up" if d["needs_nerve"] else ""
    return f"{d['unit']} is {words}{nerve}"


def _brother(e: Event) -> str:
    d = e.data
    words = BROTHER_WORDS[d["result"]].format(killer=d.get("killer"))
    return f"{d['unit']}, blood brother of {d['friend']}, rolls {d['die']}: {words}"


def _decided(e: Event) -> str:
    """A player's choice in the book's words ('Black Bart keeps his Hero Point'), not the engine's
    ('outlaws decides (hero point): False')."""
    d, about = e.data, e.data.get("about") or {}
    unit, choice = about.get("unit", d["side"]), d["choice"]
    yes = choice is True or (isinstance(choice, (list, tuple)) and choice[:1] == [True])
    if d["decision"] == "hero_point":
        use = PURPOSE_WORDS.get(about.get("use", ""), "")
        return f"{unit} will spend a HERO POINT {use}".rstrip() if yes else f"{unit} keeps his Hero Point"
    if d["decision"] == "countershot":
        return (f"{unit} goes for a QUICK DRAW at {about.get('target')}" if yes
                else f"{unit} holds his fire")
    if d["decision"] == "duck_and_dive":
        return f"{unit} DUCKS AND DIVES" if yes else f"{unit} takes what comes"
    if d["decision"] == "fist_target":
        return f"{unit} goes for {choice}"
    if d["decision"] == "attribute_loss":
        return f"{unit} takes the loss of {about.get('points')} as {choice}"
    return f"{d['side']} decides ({d['decision'].replace('_', ' ')}): {choice}"


LINES: dict[str, Callable[[Event], str]] = {
    "game_started": lambda e: (f"BLAZE OF GLORY: the Goodies ({e.data['goodies']}) against the Baddies "
                               f"({e.data['baddies']})"),
    "round_started": lambda e: f"Round {e.round}: {e.data['cards']} cards are shuffled",
    "card_turned": lambda e: (f"{e.data['card']} is turned: {e.data['unit']} is gone, the card is put aside"
                              if e.data["skipped"] else f"{e.data['card']} is turned"),
    "turn_started": lambda e: (f"{e.data['unit']} goes out in a BLAZE OF GLORY" if e.data["frenzy"]
                               else f"{e.data['unit']} is Active"),
    "turn_ended": lambda e: f"{e.data['unit']}'s turn is over",
    "round_ended": lambda e: f"round {e.round} is over",
    "round_limit": lambda e: "time's up; still in the fight: " + ", ".join(
        f"{side} {n}" for side, n in e.data["fighting"].items()),
    "game_over": lambda e: (f"game over: {e.data['winner'] + ' win' if e.data['winner'] else 'a draw'}"
                            f" ({e.data['result']})"),
    "roll_requested": lambda e: f"{e.data['side']} to roll {_spec_words(e.data['spec'])}",
    "rolled": _rolled,
    "decision_requested": lambda e: f"{e.data['side']} decides ({e.data['decision'].replace('_', ' ')})",
    "decided": _decided,
    "test": _test,
    "reroll": lambda e: f"{e.data['unit']} rolls again ({e.data['skill'].upper()})",
    "hero_point": lambda e: (f"{e.data['unit']} spends a HERO POINT {PURPOSE_WORDS.get(e.data['use'], e.data['use'])}"
                             f": {'it works' if e.data['passed'] else 'his luck runs out'}"),
    "moved": _moved,
    "level_change": lambda e: {"climb": f"{e.data['unit']} climbs to story {e.data['to_story']}",
                               "drop": f"{e.data['unit']} jumps down to story {e.data['to_story']}",
                               "leap": f"{e.data['unit']} leaps for the next roof"}[e.data["kind"]],
    "fell": lambda e: (f"{e.data['unit']} falls {e.data['stories']} stor{'y' if e.data['stories'] == 1 else 'ies'}"
                       if e.data["stories"] else f"{e.data['unit']} slips and falls"),
    "landed": lambda e: f"{e.data['unit']} {'lands badly' if e.data['hurt'] else 'lands on his feet'}",
    "run": lambda e: f"{e.data['unit']} runs: {e.data['inches']} inches",
    "stood_up": lambda e: f"{e.data['unit']} gets up",
    "stayed_down": lambda e: f"{e.data['unit']} stays down, playing dead and hoping to be left alone",
    "came_round": lambda e: (f"{e.data['unit']} comes round" if e.data["woke"]
                             else f"{e.data['unit']} is still out cold"),
    "shots": lambda e: (f"{e.data['unit']} fires his scatter gun: {len(e.data['targets'])} under the template"
                        if e.data["template"] else f"{e.data['unit']} shoots {len(e.data['targets'])} "
                        f"shot{'s' if len(e.data['targets']) != 1 else ''} with his {e.data['weapon']}"),
    "attack": _attack,
    "wound_roll": lambda e: (f"{e.data['unit']}: {e.data['die']}{e.data['modifier']:+d} on the "
                             f"{'Hand to Hand' if e.data['table'] == 'fisticuffs' else 'wound'} table: "
                             f"{RESULT_WORDS.get(e.data['result'], e.data['result'])}"),
    "lucky": lambda e: f"LUCKY SHOT! The blow hits {e.data['unit']}'s {e.data['object']}: he is knocked over",
    "down": _down,
    "died": lambda e: f"{e.data['unit']} goes OUT OF ACTION",
    "fled": lambda e: (f"{e.data['unit']}'s nerve breaks: he throws down his weapons and runs like the cowardly cur "
                       f"that he is"),
    "vengeance": lambda e: f"{e.data['unit']} has his vengeance on {e.data['killer']}",
    "blood_brother": _brother,
    "recovery": lambda e: {"recovered": f"{e.data['unit']} recovers from his wound",
                           "still_wounded": f"{e.data['unit']} remains wounded",
                           "spent": f"{e.data['unit']}'s luck has run out"}[e.data["outcome"]],
    "attributes_lost": lambda e: (f"{e.data['unit']} loses {e.data['points']}: " + ", ".join(
        f"{k[0].upper()}{v}" for k, v in e.data["left"].items()) + " left"),
    "out_of_ammo": lambda e: f"{e.data['unit']}'s {e.data['weapon']} is OUT OF AMMO",
    "reloaded": lambda e: f"{e.data['unit']} reloads his {e.data['weapon']}",
    "countershot": lambda e: f"QUICK DRAW! {e.data['unit']} fires back at {e.data['target']}",
    "engaged": lambda e: f"{e.data['unit']} piles into {e.data['target']}: FISTICUFFS!",
    "fight_round": lambda e: "the brawl goes on",
    "no_fight_back": lambda e: f"{e.data['unit']} cannot fight back",
    "headlock": lambda e: f"{e.data['unit']} gets {e.data['target']} in a HEADLOCK",
    "disengaged": lambda e: (f"{e.data['unit']} pulls out of the fight" if e.data["pulled_out"]
                             else f"{e.data['unit']} fails to pull out of the fight"),
    "finished_off": lambda e: (f"{e.data['unit']} finishes off {e.data['target']}"
                               + (", a low down deed that costs him a Hero Point" if e.data["hero_given"] else "")),
}


class EnglishNarrator(Narrator):
    """Blaze of Glory's battle log in English."""

    language = "en"

    def line(self, event: Event, following: Sequence[Event] = ()) -> str | None:
        if event.kind == "attack_result":
            return _attack_result(event, following)
        say = LINES.get(event.kind)
        return say(event) if say is not None else event.kind.replace("_", " ")

    def log_line(self, event: Event, following: Sequence[Event] = ()) -> str | None:
        return None if event.kind in QUIET_KINDS else self.line(event, following)


# -- the referee's sentence on a line of sight (bow3d los) -------------------------------------------
def _blocker_words(b: dict[str, Any]) -> str:
    if b.get("kind") == "decor":
        where = f", {b['file']} line {b['line']}" if b.get("file") else ""
        return f"{b.get('part')} ({b.get('material')}, {b.get('colour')}{where})"
    return f"{b.get('kind')} {b.get('id')}"


def percent(fraction: float) -> str:
    if 0.0 < fraction < 0.005:
        return "<1%"
    if 0.995 <= fraction < 1.0:
        return ">99%"
    return f"{fraction:.0%}"


def sight_sentence(report: Any, verdict: Any) -> str:
    """The verdict in one paragraph, as a referee would say it (Shooting: partial and full cover)."""
    named = [f"{_blocker_words(b)}: {percent(b['share'])}" for b in verdict.deciding[:3]]
    distance = f"{verdict.distance_in:.1f} inches"
    if not verdict.visible:
        why = f"hidden by {'; '.join(named)}" if named else "nothing of him faces the shooter"
        return f"{report.firer} cannot see {report.target}: {why}; {distance}."
    seen = f"{percent(1.0 - verdict.hidden_share)} seen"
    partial, opening, full = verdict.thresholds
    if verdict.cover == "full":
        how = "through an opening, a blocker rising above his head" if verdict.through_opening and \
            verdict.hard_share < full else f"at least {full:.0%} hidden"
        cover = f"FULL COVER, -2 ({percent(verdict.hard_share)} hidden by the scenery, {how}: {'; '.join(named)})"
    elif verdict.cover == "partial":
        cover = f"PARTIAL COVER, -1 ({percent(verdict.cover_share)} hidden: {'; '.join(named)}; partial from " \
                f"{partial:.0%}, full from {full:.0%} or {opening:.0%} through an opening)"
    elif named:
        cover = f"no cover ({percent(verdict.cover_share)} hidden by {'; '.join(named)}, under {partial:.0%})"
    else:
        cover = "no cover: in the open"
    return f"{report.firer} can see {report.target}: {seen}, {cover}; {distance}."
