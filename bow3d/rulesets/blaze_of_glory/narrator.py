"""Blaze of Glory's words: the battle-log line of every event, in the language spoken, in the book's words.

Layer: rulesets (Blaze of Glory). Events hold facts only (bow3d.rulesets.blaze_of_glory.events);
this narrator turns them into the lines a player reads in `replay show`, the play UI's log and the
film's captions, and writes the referee's sentence on a line of sight (`bow3d los`). Rewording a
line here changes no replay and no verification. The Blaze of Glory book exists in English only:
the French words are bow3d's translation of its terms (POINT DE HÉROS for HERO POINT, test de
SANG-FROID for NERVE test, À TERRE, BLESSÉ, HORS DE COMBAT, CRAVATE for HEADLOCK, BAGARRE for
FISTICUFFS, DÉGAINE RAPIDE for QUICK DRAW, COUVERT PARTIEL / TOTAL, pouces, étages ...).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bow3d.i18n import N_, _, current, decimal, ngettext, semicolon, speaking, term, whole_percent as percent
from bow3d.rules.events import Event, Narrator
from bow3d.rulesets.blaze_of_glory.modifier_words import say

# the roll itself ('rolled') and the choice ('decided') say it all in a log
QUIET_KINDS = frozenset({"roll_requested", "decision_requested"})
# The book's terms (N_: in the catalogue; said in the language spoken where they are used)
STATE_WORDS = {"knocked_down": N_("KNOCKED DOWN and lies on his back"), "wounded": N_("WOUNDED and lies on his front"),
               "unconscious": N_("only unconscious: he lies on his front, a dead marker beside him")}
RESULT_WORDS = {"miss": N_("a miss"), "dodged": N_("dodged"), "no_effect": N_("no effect"),
                "headlock": N_("a HEADLOCK"), "knocked_down": N_("KNOCK DOWN"),
                "knocked_down_nerve": N_("KNOCK DOWN (N test)"), "wounded": N_("WOUND"),
                "out_of_action": N_("OUT OF ACTION")}
PURPOSE_WORDS = {"climb": N_("to climb"), "drop": N_("to jump down"), "leap": N_("to leap from roof to roof"),
                 "fall": N_("after his fall"), "dodge": N_("to dodge (DODGE & WEAVE)"), "strike": N_("to land a punch"),
                 "headlock": N_("to break the headlock"), "disengage": N_("to pull out of the fight"),
                 "get_up": N_("to get up"), "nerve_casualty": N_("as a friend goes OUT OF ACTION"),
                 "nerve_failer": N_("as a friend's nerve breaks beside him"),
                 "nerve_activation": N_("at the sight of his fallen friends"), "run": N_("for an extra run roll"),
                 "shoot": N_("for another go shooting"), "reload": N_("to reload"),
                 "recover": N_("to recover from his wound"), "lucky": N_("for a lucky shot"),
                 "ignore_reflexes": N_("to ignore a failed REFLEX roll"),
                 "ignore_nerve": N_("to ignore a failed NERVE roll")}
BROTHER_WORDS = {"blaze_of_glory": N_("BLAZE OF GLORY! He charges the nearest enemy, all guns blazing"),
                 "marked_man": N_("MARKED MAN: he will hunt down {killer}"),
                 "hold_a_grudge": N_("HOLD A GRUDGE: he fights on as usual, the S.O.B will get his sooner or later"),
                 "yellow_dog": N_("YELLOW DOG: he runs like a dog")}
THROW_WORDS = {"deck": N_("shuffles the deck"), "shoot": N_("shoots"), "wound": N_("rolls to wound"),
               "run": N_("rolls to run"), "unconscious": N_("rolls: unconscious or dead"),
               "come_round": N_("rolls to wake up"), "recovery": N_("rolls the points taken off"),
               "blood_brother": N_("rolls for his blood brother"), "countershot": N_("fires back")}
COVER_WORDS = {"partial": N_("partial"), "full": N_("full")}


def _inches(value: Any) -> str:
    return decimal(float(value))


def _spec_words(spec: dict[str, Any]) -> str:
    if spec.get("kind") == "dice":
        count, sides = spec.get("count"), spec.get("sides")
        best = spec.get("keep") == "lowest" and count is not None and count > 1
        return f"{count}d{sides}" + (_(" (the best counts)") if best else "")
    if spec.get("kind") == "shuffle":
        return _("the {n} cards").format(n=len(spec.get("cards", [])))
    return str(spec.get("kind", "?"))


def _outcome(spec: dict[str, Any], outcome: Any) -> str:
    if spec.get("kind") == "shuffle":
        return _("top card {card}").format(card=outcome[0]) if outcome else _("no card")
    if isinstance(outcome, list):
        return ", ".join(str(v) for v in outcome)
    return str(outcome)


def _rolled(e: Event) -> str:
    d = e.data
    about = d.get("about") or {}
    who = about.get("unit") or d["side"]
    if d["purpose"].endswith("_test"):
        return _("{who} rolls {outcome} ({dice})").format(who=who, outcome=_outcome(d["spec"], d["outcome"]),
                                                         dice=_spec_words(d["spec"]))
    return _("{who} {what}: {outcome}").format(who=who, what=term(THROW_WORDS, d["purpose"], plain=True),
                                               outcome=_outcome(d["spec"], d["outcome"]))


def _test(e: Event) -> str:
    d = e.data
    mods = f" ({'; '.join(say(m) for m in d['modifiers'])})" if d["modifiers"] else ""
    purpose = term(PURPOSE_WORDS, d["purpose"])
    if d["test"] == "H":
        words = _("{unit} passes a HERO test {purpose}: {die} against {value}") if d["passed"] else \
            _("{unit} fails a HERO test {purpose}: {die} against {value}")
        return words.format(unit=d["unit"], purpose=purpose, die=d["die"], value=d["value"])
    words = _("{unit} passes his {test} test {purpose}: {die} against {value}{mods}") if d["passed"] else \
        _("{unit} fails his {test} test {purpose}: {die} against {value}{mods}")
    return words.format(unit=d["unit"], test=d["test"], purpose=purpose, die=d["die"], value=d["value"], mods=mods)


def _moved(e: Event) -> str:
    d = e.data
    if not d["path"] or float(d["distance_in"]) <= 0:
        return _("{unit} stays put").format(unit=d["unit"])
    words = _("{unit} runs {inches} inches") if d["run"] else _("{unit} moves {inches} inches")
    return words.format(unit=d["unit"], inches=_inches(d["distance_in"]))


def _attack(e: Event) -> str:
    d = e.data
    if d["melee"]:
        how = _("with his fists") if d["weapon"] == "fists" else _("with his {weapon}").format(weapon=d["weapon"])
        words = _("{unit} swings at {target} {how} (F {value}): a hit") if d["hit"] else \
            _("{unit} swings at {target} {how} (F {value}): misses")
        return words.format(unit=d["unit"], target=d["target"], how=how, value=d["value"])
    mods = semicolon() + ", ".join(say(m) for m in d["modifiers"]) if d["modifiers"] else ""
    cover = _(", {cover} cover").format(cover=term(COVER_WORDS, d["cover"])) \
        if d["cover"] not in ("none", "hidden") else ""
    words = _("{unit} fires his {weapon} at {target} ({inches} inches{cover}; needs {value} or less{mods}): rolls "
              "{die}, HIT") if d["hit"] else _("{unit} fires his {weapon} at {target} ({inches} inches{cover}; needs "
                                              "{value} or less{mods}): rolls {die}, miss")
    return words.format(unit=d["unit"], weapon=d["weapon"], target=d["target"], inches=_inches(d["distance_in"]),
                        cover=cover, value=d["value"], mods=mods, die=d["die"])


def _attack_result(e: Event, following: Sequence[Event]) -> str:
    d = e.data
    return _("{unit} on {target}: {result}").format(unit=d["unit"], target=d["target"],
                                                    result=term(RESULT_WORDS, d["result"]))


def _down(e: Event) -> str:
    d = e.data
    words = _("{unit} is {state}; he needs a NERVE test to get up") if d["needs_nerve"] else _("{unit} is {state}")
    return words.format(unit=d["unit"], state=term(STATE_WORDS, d["state"]))


def _brother(e: Event) -> str:
    d = e.data
    words = term(BROTHER_WORDS, d["result"]).format(killer=d.get("killer"))
    return _("{unit}, blood brother of {friend}, rolls {die}: {words}").format(unit=d["unit"], friend=d["friend"],
                                                                             die=d["die"], words=words)


def _decided(e: Event) -> str:
    """A player's choice in the book's words ('Black Bart keeps his Hero Point'), not the engine's
    ('outlaws decides (hero point): False')."""
    d, about = e.data, e.data.get("about") or {}
    unit, choice = about.get("unit", d["side"]), d["choice"]
    yes = choice is True or (isinstance(choice, (list, tuple)) and choice[:1] == [True])
    if d["decision"] == "hero_point":
        use = _(PURPOSE_WORDS[about.get("use", "")]) if about.get("use", "") in PURPOSE_WORDS else ""
        return _("{unit} will spend a HERO POINT {use}").format(unit=unit, use=use).rstrip() if yes else \
            _("{unit} keeps his Hero Point").format(unit=unit)
    if d["decision"] == "countershot":
        return (_("{unit} goes for a QUICK DRAW at {target}").format(unit=unit, target=about.get("target")) if yes
                else _("{unit} holds his fire").format(unit=unit))
    if d["decision"] == "duck_and_dive":
        return (_("{unit} DUCKS AND DIVES") if yes else _("{unit} takes what comes")).format(unit=unit)
    if d["decision"] == "fist_target":
        return _("{unit} goes for {choice}").format(unit=unit, choice=choice)
    if d["decision"] == "attribute_loss":
        return _("{unit} takes the loss of {points} as {choice}").format(unit=unit, points=about.get("points"),
                                                                         choice=choice)
    return _("{side} decides ({decision}): {choice}").format(side=d["side"], decision=d["decision"].replace("_", " "),
                                                             choice=choice)


def _level(e: Event) -> str:
    words = {"climb": N_("{unit} climbs to story {story}"), "drop": N_("{unit} jumps down to story {story}"),
             "leap": N_("{unit} leaps for the next roof")}
    return term(words, e.data["kind"]).format(unit=e.data["unit"], story=e.data.get("to_story"))


def _fell(e: Event) -> str:
    if not e.data["stories"]:
        return _("{unit} slips and falls").format(unit=e.data["unit"])
    return ngettext("{unit} falls {n} story", "{unit} falls {n} stories", e.data["stories"]).format(
        unit=e.data["unit"], n=e.data["stories"])


def _shots(e: Event) -> str:
    d = e.data
    if d["template"]:
        return _("{unit} fires his scatter gun: {n} under the template").format(unit=d["unit"], n=len(d["targets"]))
    return ngettext("{unit} shoots {n} shot with his {weapon}", "{unit} shoots {n} shots with his {weapon}",
                    len(d["targets"])).format(unit=d["unit"], n=len(d["targets"]), weapon=d["weapon"])


def _wound_roll(e: Event) -> str:
    d = e.data
    words = _("{unit}: {die}{modifier} on the Hand to Hand table: {result}") if d["table"] == "fisticuffs" else \
        _("{unit}: {die}{modifier} on the wound table: {result}")
    return words.format(unit=d["unit"], die=d["die"], modifier=f"{d['modifier']:+d}",
                        result=term(RESULT_WORDS, d["result"]))


def _recovery(e: Event) -> str:
    words = {"recovered": N_("{unit} recovers from his wound"), "still_wounded": N_("{unit} remains wounded"),
             "spent": N_("{unit}'s luck has run out")}
    return term(words, e.data["outcome"]).format(unit=e.data["unit"])


GAME_RESULTS = {"win": N_("win"), "draw": N_("draw"), "survivors": N_("most survivors")}   # game_over's (cards.py)


def _game_over(e: Event) -> str:
    d = e.data
    outcome = _("{side} win").format(side=d["winner"]) if d["winner"] else _("a draw")
    return _("game over: {outcome} ({result})").format(outcome=outcome, result=term(GAME_RESULTS, d["result"]))


LINES: dict[str, Callable[[Event], str]] = {
    "game_started": lambda e: _("BLAZE OF GLORY: the Goodies ({goodies}) against the Baddies ({baddies})").format(
        goodies=e.data["goodies"], baddies=e.data["baddies"]),
    "round_started": lambda e: _("Round {round}: {cards} cards are shuffled").format(round=e.round,
                                                                                    cards=e.data["cards"]),
    "card_turned": lambda e: (_("{card} is turned: {unit} is gone, the card is put aside") if e.data["skipped"]
                              else _("{card} is turned")).format(card=e.data["card"], unit=e.data.get("unit")),
    "turn_started": lambda e: (_("{unit} goes out in a BLAZE OF GLORY") if e.data["frenzy"]
                               else _("{unit} is Active")).format(unit=e.data["unit"]),
    "turn_ended": lambda e: _("{unit}'s turn is over").format(unit=e.data["unit"]),
    "round_ended": lambda e: _("round {round} is over").format(round=e.round),
    "round_limit": lambda e: _("time's up; still in the fight: {sides}").format(sides=", ".join(
        f"{side} {n}" for side, n in e.data["fighting"].items())),
    "game_over": _game_over,
    "roll_requested": lambda e: _("{side} to roll {dice}").format(side=e.data["side"], dice=_spec_words(e.data["spec"])),
    "rolled": _rolled,
    "decision_requested": lambda e: _("{side} decides ({decision})").format(
        side=e.data["side"], decision=e.data["decision"].replace("_", " ")),
    "decided": _decided,
    "test": _test,
    "reroll": lambda e: _("{unit} rolls again ({skill})").format(unit=e.data["unit"], skill=e.data["skill"].upper()),
    "hero_point": lambda e: (_("{unit} spends a HERO POINT {use}: it works") if e.data["passed"] else
                             _("{unit} spends a HERO POINT {use}: his luck runs out")).format(
                                 unit=e.data["unit"], use=term(PURPOSE_WORDS, e.data["use"])),
    "moved": _moved,
    "level_change": _level,
    "fell": _fell,
    "landed": lambda e: (_("{unit} lands badly") if e.data["hurt"] else _("{unit} lands on his feet")).format(
        unit=e.data["unit"]),
    "run": lambda e: _("{unit} runs: {inches} inches").format(unit=e.data["unit"], inches=e.data["inches"]),
    "stood_up": lambda e: _("{unit} gets up").format(unit=e.data["unit"]),
    "stayed_down": lambda e: _("{unit} stays down, playing dead and hoping to be left alone").format(
        unit=e.data["unit"]),
    "came_round": lambda e: (_("{unit} wakes up") if e.data["woke"] else _("{unit} is still out cold")).format(
        unit=e.data["unit"]),
    "shots": _shots,
    "attack": _attack,
    "wound_roll": _wound_roll,
    "lucky": lambda e: _("LUCKY SHOT! The blow hits {unit}'s {object}: he is knocked over").format(
        unit=e.data["unit"], object=e.data["object"]),
    "down": _down,
    "died": lambda e: _("{unit} goes OUT OF ACTION").format(unit=e.data["unit"]),
    "fled": lambda e: _("{unit}'s nerve breaks: he throws down his weapons and runs like the cowardly cur that he "
                        "is").format(unit=e.data["unit"]),
    "vengeance": lambda e: _("{unit} has his vengeance on {killer}").format(unit=e.data["unit"],
                                                                           killer=e.data["killer"]),
    "blood_brother": _brother,
    "recovery": _recovery,
    "attributes_lost": lambda e: _("{unit} loses {points}: {left} left").format(
        unit=e.data["unit"], points=e.data["points"],
        left=", ".join(f"{k[0].upper()}{v}" for k, v in e.data["left"].items())),
    "out_of_ammo": lambda e: _("{unit}'s {weapon} is OUT OF AMMO").format(unit=e.data["unit"], weapon=e.data["weapon"]),
    "reloaded": lambda e: _("{unit} reloads his {weapon}").format(unit=e.data["unit"], weapon=e.data["weapon"]),
    "countershot": lambda e: _("QUICK DRAW! {unit} fires back at {target}").format(unit=e.data["unit"],
                                                                                 target=e.data["target"]),
    "engaged": lambda e: _("{unit} piles into {target}: FISTICUFFS!").format(unit=e.data["unit"],
                                                                            target=e.data["target"]),
    "fight_round": lambda e: _("the brawl goes on"),
    "no_fight_back": lambda e: _("{unit} cannot fight back").format(unit=e.data["unit"]),
    "headlock": lambda e: _("{unit} gets {target} in a HEADLOCK").format(unit=e.data["unit"], target=e.data["target"]),
    "disengaged": lambda e: (_("{unit} pulls out of the fight") if e.data["pulled_out"]
                             else _("{unit} fails to pull out of the fight")).format(unit=e.data["unit"]),
    "finished_off": lambda e: (_("{unit} finishes off {target}, a low down deed that costs him a Hero Point")
                               if e.data["hero_given"] else _("{unit} finishes off {target}")).format(
                                   unit=e.data["unit"], target=e.data["target"]),
}


class BlazeNarrator(Narrator):
    """Blaze of Glory's battle log in `language` (None: the language spoken; French: bow3d's translation of
    the book's terms, the module's docstring)."""

    quiet_kinds = QUIET_KINDS  # a battle log leaves these out

    results = GAME_RESULTS

    def __init__(self, language: str | None = None):
        self.language = language or current()

    def line(self, event: Event, following: Sequence[Event] = ()) -> str | None:
        with speaking(self.language):
            if event.kind == "attack_result":
                return _attack_result(event, following)
            say = LINES.get(event.kind)
            return say(event) if say is not None else event.kind.replace("_", " ")



class EnglishNarrator(BlazeNarrator):
    """Blaze of Glory's battle log in English, whatever the language spoken."""

    language = "en"

    def __init__(self, language: str | None = None):
        super().__init__("en")


# -- the referee's sentence on a line of sight (bow3d los) -------------------------------------------
def _blocker_words(b: dict[str, Any]) -> str:
    if b.get("kind") == "decor":
        where = _(", {file} line {line}").format(file=b["file"], line=b["line"]) if b.get("file") else ""
        return f"{b.get('part')} ({b.get('material')}, {b.get('colour')}{where})"
    return f"{b.get('kind')} {b.get('id')}"


def sight_sentence(report: Any, verdict: Any, language: str | None = None) -> str:
    """The verdict in one paragraph, as a referee would say it (Shooting: partial and full cover), in
    `language` (default: the language spoken)."""
    with speaking(language or current()):
        return _sight_sentence(report, verdict)


def _sight_sentence(report: Any, verdict: Any) -> str:
    named = semicolon().join(f"{_blocker_words(b)}: {percent(b['share'])}" for b in verdict.deciding[:3])
    distance = _("{inches} inches").format(inches=decimal(verdict.distance_in))
    if not verdict.visible:
        why = _("hidden by {named}").format(named=named) if named else _("nothing of him faces the shooter")
        return _("{firer} cannot see {target}: {why}; {distance}.").format(firer=report.firer, target=report.target,
                                                                          why=why, distance=distance)
    seen = _("{share} seen").format(share=percent(1.0 - verdict.hidden_share))
    partial, opening, full = verdict.thresholds
    if verdict.cover == "full":
        how = _("through an opening, a blocker rising above his head") if verdict.through_opening and \
            verdict.hard_share < full else _("at least {share} hidden").format(share=percent(full))
        cover = _("FULL COVER, -2 ({share} hidden by the scenery, {how}: {named})").format(
            share=percent(verdict.hard_share), how=how, named=named)
    elif verdict.cover == "partial":
        cover = _("PARTIAL COVER, -1 ({share} hidden: {named}; partial from {partial}, full from {full} or {opening} "
                  "through an opening)").format(share=percent(verdict.cover_share), named=named,
                                                partial=percent(partial), full=percent(full),
                                                opening=percent(opening))
    elif named:
        cover = _("no cover ({share} hidden by {named}, under {partial})").format(
            share=percent(verdict.cover_share), named=named, partial=percent(partial))
    else:
        cover = _("no cover: in the open")
    return _("{firer} can see {target}: {seen}, {cover}; {distance}.").format(
        firer=report.firer, target=report.target, seen=seen, cover=cover, distance=distance)
