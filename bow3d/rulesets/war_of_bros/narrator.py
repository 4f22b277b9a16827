"""War of Bros' words: the battle-log line of every event, in the language spoken, in the book's own words.

Layer: rulesets (War of Bros). Events hold facts only (bow3d.rulesets.war_of_bros.events); this
narrator writes what `replay show`, the play UI's log and the film's captions say. Rewording a
line here changes no replay and no verification. The War of Bros book exists in English only: the
French words are bow3d's translation of its terms (jet de Précision for Accuracy Roll, sauvegarde
d'Évasion for Evasion Save, étape du Couvert for Cover Step, Premier Tour for First Turn, Cible
Principale for Primary Target, jetons de frag, Corps, épave ...), listed in bow3d.locale.GLOSSARY's
notes and in the French catalogue.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from bow3d.i18n import N_, _, current, decimal, speaking, term, whole_percent
from bow3d.rules.events import Event, Narrator

QUIET_KINDS = frozenset({"roll_requested", "decision_requested", "activation_ended", "step"})
# The book's terms (N_: in the catalogue; said in the language spoken where they are used)
STEP_ROLLS = {"accuracy": N_("Accuracy Roll"), "shield": N_("Damage Roll (Shield Step)"),
              "armor": N_("Damage Roll (Armor Step)"), "vitality": N_("Damage Roll (Vitality Step)")}
SAVES = {"accuracy": N_("Evasion Save"), "shield": N_("Shield Save"), "armor": N_("Armor Save"),
         "vitality": N_("Vitality Save")}
RESULTS = {
    "perished": N_("{target} perishes"), "evaded": N_("{target} makes its Evasion Save: a miss"),
    "shield": N_("a Shield Penetration Failure"), "armor": N_("an Armor Penetration Failure"),
    "vitality": N_("{target}'s Vitality Save holds"), "cover": N_("the attack is a miss (Cover Step)"),
    "terrain": N_("the attack is a miss: terrain higher than the unit is in the way (Impact Step)"),
    "cancelled": N_("the attack is cancelled"), "gone": N_("nothing left to hit"),
}
PURPOSES = {"placement_order": N_("order of Unit Placement"), "first_turn": N_("the First Turn"),
            "cover": N_("Cover Step"), "accuracy": N_("Accuracy Roll"), "damage": N_("Damage Roll"),
            "evasion_save": N_("Evasion Save"), "shield_save": N_("Shield Save"), "armor_save": N_("Armor Save"),
            "vitality_save": N_("Vitality Save")}
DECISIONS = {"intercepted": N_("a unit is on the line of fire"), "opportunity": N_("Attack Of Opportunity"),
             "escape": N_("escape the trample"), "primary_target": N_("Primary Target")}
COVERS = {"light": N_("light"), "medium": N_("medium"), "heavy": N_("heavy"), "total": N_("total")}


def _num(value: Any) -> str:
    text = f"{float(value):g}" if isinstance(value, (int, float)) else str(value)
    return text.replace(".", ",") if current() == "fr" and isinstance(value, (int, float)) else text


def _dice_words(spec: dict[str, Any]) -> str:
    if spec.get("kind") == "dice":
        count = int(spec.get("count", 1))
        return f"{count if count > 1 else ''}d{spec.get('sides')}"
    return str(spec.get("kind", "?"))


def _about(data: dict[str, Any]) -> str:
    about = data.get("about") or {}
    who = " -> ".join(str(about[k]) for k in ("unit", "target") if about.get(k))
    return f" ({who})" if who else ""


def _rolled(e: Event) -> str:
    d = e.data
    faces = d["outcome"] if isinstance(d["outcome"], list) else [d["outcome"]]
    kept = _(", keeps {face}").format(face=max(faces)) if len(faces) > 1 else ""
    return _("{side} rolls {dice} for the {purpose}{about}: {faces}{kept}").format(
        side=d["side"], dice=_dice_words(d["spec"]), purpose=term(PURPOSES, d["purpose"], plain=True), about=_about(d),
        faces=", ".join(map(str, faces)), kept=kept)


def _moved(e: Event) -> str:
    d = e.data
    cost = _("; {cm} cm of movement on difficult terrain").format(cm=_num(d["cost_cm"])) \
        if abs(d["cost_cm"] - d["distance_cm"]) > 1e-6 else ""
    facing = f"{float(d['facing']):.0f}"
    if d["distance_cm"] <= 0:
        return _("{unit} rotates to {facing} degrees").format(unit=d["unit"], facing=facing)
    return _("{unit} moves {cm} cm facing {facing} degrees{cost} ({left} cm left)").format(
        unit=d["unit"], cm=_num(d["distance_cm"]), facing=facing, cost=cost, left=_num(d["left_cm"]))


def _attack(e: Event) -> str:
    d = e.data
    kinds = {"opportunity": N_("Attack Of Opportunity: "), "reactive": N_("Reactive Armor counter-attacks: "),
             "trample": N_("Trample: "), "pierce": N_("Piercing: the projectile goes on: ")}
    kind = term(kinds, d["kind"]) if d["kind"] in kinds else ""
    where = _(" ({cm} cm, range {range} cm)").format(cm=_num(d["distance_cm"]), range=_num(d["range_cm"])) \
        if d.get("distance_cm") is not None else ""
    return kind + _("{unit} attacks {target} with its {weapon}{where}").format(
        unit=d["unit"], target=d["target"], weapon=d["weapon"], where=where)


def _impact(e: Event) -> str:
    d = e.data
    if d["airborne"]:
        return _("Impact Step: an airborne unit bypasses all cover ({unit} -> {target})").format(
            unit=d["unit"], target=d["target"])
    if not d["visible"]:
        return _("Impact Step: nothing of {target} is seen from {unit}").format(unit=d["unit"], target=d["target"])
    if d["cover"] == "none":
        return _("Impact Step: {target} is not behind cover ({hidden} hidden)").format(
            target=d["target"], hidden=whole_percent(float(d["hidden"])))
    return _("Impact Step: {target} is behind {cover} cover ({hidden} hidden; {material}: {given_by})").format(
        target=d["target"], cover=term(COVERS, d["cover"]), hidden=whole_percent(float(d["hidden"])), material=d["material"],
        given_by=_blocker(d["given_by"]))


def _blocker(given_by: str | None) -> str | None:
    """The event's blocker ('6064.dat, Green, war-of-bros.ldr line 60': cover.describe, stored as it is since
    the first War of Bros replays) with its file and line in the language spoken."""
    found = re.fullmatch(r"(.*), (\S+) line (\d+)", given_by or "")
    if found is None:
        return given_by
    return found.group(1) + _(", {file} line {line}").format(file=found.group(2), line=found.group(3))


def _save(e: Event) -> str:
    d = e.data
    words = _("{target}'s {save}: {value} against {against}: holds") if d["held"] else \
        _("{target}'s {save}: {value} against {against}: fails")
    return words.format(target=d["target"], save=term(SAVES, d["step"]), value=d["value"],
                        against=_num(d["against"]))


def _skipped(e: Event) -> str:
    d = e.data
    if d["highest"] is None:
        return _("{target} has no {save}: the attack goes on").format(target=d["target"], save=term(SAVES, d["step"]))
    return _("{target}'s {save} cannot score higher than {value}: no roll (Multiple Die Saves)").format(
        target=d["target"], save=term(SAVES, d["step"]), value=_num(d["value"]))


def _result(e: Event) -> str:
    d = e.data
    words = term(RESULTS, d["outcome"]).format(target=d["target"], unit=d["unit"])
    return _("{unit} on {target}: {words}").format(unit=d["unit"], target=d["target"], words=words)


def _placed(e: Event) -> str:
    d = e.data
    where = f"({decimal(float(d['position'][0]))}; {decimal(float(d['position'][1]))})" if current() == "fr" else \
        f"({float(d['position'][0]):.1f}, {float(d['position'][1]):.1f})"
    if d["reason"] == "ejected":
        return _("{unit} is ejected beside the wreck at {where}").format(unit=d["unit"], where=where)
    if d["reason"] == "escape":
        return _("{unit} escapes 6 cm to {where}").format(unit=d["unit"], where=where)
    return _("{unit} is placed at {where}, facing {facing} degrees").format(
        unit=d["unit"], where=where, facing=f"{float(d['facing']):.0f}")


def _order(e: Event) -> str:
    d = e.data
    rolls = ", ".join(f"{s} {d['rolls'].get(s, '?')}" for s in d["sides"])
    if d["purpose"] == "first_turn":
        return _("First Turn: {side} moves first (rolls: {rolls})").format(side=d["sides"][0], rolls=rolls)
    return _("Unit Placement: {side} places first (rolls: {rolls})").format(side=d["sides"][0], rolls=rolls)


RESULT_WORDS = {"win": N_("win"), "draw": N_("draw"), "power": N_("by unit power")}   # game_over's (turns.py)


def _game_over(e: Event) -> str:
    d = e.data
    rewards = ", ".join(f"{s} +{v}" for s, v in d["rewards"].items())
    who = _("{side} wins").format(side=d["winner"]) if d["winner"] else _("a draw")
    return _("The encounter ends: {outcome} ({result}); maximum unit power gained: {rewards}").format(
        outcome=who, result=term(RESULT_WORDS, d["result"]), rewards=rewards)


LINES: dict[str, Callable[[Event], str]] = {
    "game_started": lambda e: _("War of Bros: {sides} ({mode})").format(
        sides=_(" against ").join(e.data["sides"]), mode=e.data["mode"].replace("-", " ")),
    "roll_requested": lambda e: _("{side} rolls {dice}").format(side=e.data["side"], dice=_dice_words(e.data["spec"])),
    "rolled": _rolled,
    "decision_requested": lambda e: _("{side} decides: {decision}").format(
        side=e.data["side"], decision=term(DECISIONS, e.data["decision"])),
    "decided": lambda e: _("{side} decides ({decision}{about}): {choice}").format(
        side=e.data["side"], decision=term(DECISIONS, e.data["decision"]), about=_about(e.data),
        choice=e.data["choice"]),
    "order": _order,
    "order_tie": lambda e: _("{sides} tie at {value}: roll again").format(sides=", ".join(e.data["sides"]),
                                                                          value=e.data["value"]),
    "placed": _placed,
    "primary_target": lambda e: _("{side} selects {unit} as its Primary Target ({tokens} frag tokens)").format(
        side=e.data["side"], unit=e.data["unit"], tokens=e.data["tokens"]),
    "round_started": lambda e: (_("Round {round}: the First Turn, movement only").format(round=e.round)
                                if e.data["first_turn"] else _("Round {round}: {order}").format(
                                    round=e.round, order=_(", then ").join(e.data["order"]))),
    "turn_started": lambda e: _("{side}'s turn").format(side=e.data["side"]),
    "turn_ended": lambda e: _("{side} ends its turn").format(side=e.data["side"]),
    "round_ended": lambda e: _("round {round} is over").format(round=e.round),
    "activation_started": lambda e: _("{unit}: First Movement Step").format(unit=e.data["unit"]),
    "activation_ended": lambda e: _("{unit} is done ({cm} cm moved)").format(unit=e.data["unit"],
                                                                            cm=_num(e.data["moved_cm"])),
    "step": lambda e: _("{unit}: Final Movement Step").format(unit=e.data["unit"]),
    "moved": _moved,
    "cover_destroyed": lambda e: _("{unit} destroys the cover it touches ({parts} parts, {bodies} Bodies)").format(
        unit=e.data["unit"], parts=len(e.data["decor"]), bodies=len(e.data["bodies"])),
    "attack": _attack,
    "impact": _impact,
    "intercepted": lambda e: _("{other} is on the line of fire: {unit} attacks it instead").format(
        other=e.data["other"], unit=e.data["unit"]),
    "attack_cancelled": lambda e: _("{other} is on the line of fire: {unit} cancels its attack").format(
        other=e.data["other"], unit=e.data["unit"]),
    "cover_roll": lambda e: (_("Cover Step: total cover, no roll: a miss") if e.data["roll"] is None else
                             (_("Cover Step: a d4 of {roll} against {cover} cover: a miss") if e.data["missed"] else
                              _("Cover Step: a d4 of {roll} against {cover} cover: through")).format(
                                 roll=e.data["roll"], cover=term(COVERS, e.data["cover"]))),
    "attack_roll": lambda e: _("{unit}'s {roll}: {value}").format(unit=e.data["unit"],
                                                                 roll=term(STEP_ROLLS, e.data["step"]),
                                                                 value=_num(e.data["value"])),
    "save": _save,
    "save_skipped": _skipped,
    "attack_result": _result,
    "opportunity": lambda e: _("{unit} calls an Attack Of Opportunity on {target}").format(
        unit=e.data["unit"], target=e.data["target"]),
    "burning": lambda e: _("{unit} burns ({rounds} rounds)").format(unit=e.data["unit"], rounds=e.data["rounds"]),
    "burn": lambda e: _("{unit} burns: it saves against a Damage Roll of {damage}").format(
        unit=e.data["unit"], damage=e.data["damage"]),
    "burn_result": lambda e: _("the fire on {unit}: {words}").format(
        unit=e.data["unit"], words=term(RESULTS, e.data["outcome"]).format(target=e.data["unit"],
                                                                             unit=e.data["unit"])),
    "died": lambda e: (_("{unit} perishes under the tracks") if e.data["trampled"] else
                       _("{unit} perishes")).format(unit=e.data["unit"]),
    "destroyed": lambda e: _("{vehicle} perishes").format(vehicle=e.data["vehicle"]),
    "cover_left": lambda e: (_("a Body replaces {unit} (Light Cover, Difficult Terrain 2)") if e.data["kind"] == "body"
                             else _("a wreck replaces {unit} (Vehicle cover, units must go around it)")).format(
                                 unit=e.data["unit"]),
    "crew_lost": lambda e: _("{unit} finds no room and perishes inside {vehicle}").format(
        unit=e.data["unit"], vehicle=e.data["vehicle"]),
    "frag_lost": lambda e: _("{side} loses a frag token ({tokens} left)").format(side=e.data["side"],
                                                                               tokens=e.data["tokens"]),
    "side_out": lambda e: _("{side} has no frag token left: its units and covers leave the terrain").format(
        side=e.data["side"]),
    "round_limit": lambda e: _("round limit reached; unit power in play: {power}").format(
        power=", ".join(f"{s} {v}" for s, v in e.data["power"].items())),
    "game_over": _game_over,
}


class WarOfBrosNarrator(Narrator):
    """War of Bros' battle log in `language` (None: the language spoken; French: bow3d's translation of
    the book's terms, the module's docstring)."""

    quiet_kinds = QUIET_KINDS  # a battle log leaves these out

    results = RESULT_WORDS

    def __init__(self, language: str | None = None):
        self.language = language or current()

    def line(self, event: Event, following: Sequence[Event] = ()) -> str | None:
        with speaking(self.language):
            say = LINES.get(event.kind)
            return say(event) if say is not None else event.kind.replace("_", " ")



class EnglishNarrator(WarOfBrosNarrator):
    """War of Bros' battle log in English, whatever the language spoken."""

    language = "en"

    def __init__(self, language: str | None = None):
        super().__init__("en")
