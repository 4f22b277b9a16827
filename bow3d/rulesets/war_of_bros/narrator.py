"""War of Bros' words: the battle-log line of every event, in English, in the book's own words.

Layer: rulesets (War of Bros). Events hold facts only (bow3d.rulesets.war_of_bros.events); this
narrator writes what `replay show`, the play UI's log and the film's captions say. Rewording a
line here changes no replay and no verification.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bow3d.rules.events import Event, Narrator

QUIET_KINDS = frozenset({"roll_requested", "decision_requested", "activation_ended", "step"})
STEP_ROLLS = {"accuracy": "Accuracy Roll", "shield": "Damage Roll (Shield Step)", "armor": "Damage Roll (Armor Step)",
              "vitality": "Damage Roll (Vitality Step)"}
SAVES = {"accuracy": "Evasion Save", "shield": "Shield Save", "armor": "Armor Save", "vitality": "Vitality Save"}
RESULTS = {
    "perished": "{target} perishes", "evaded": "{target} makes its Evasion Save: a miss",
    "shield": "a Shield Penetration Failure", "armor": "an Armor Penetration Failure",
    "vitality": "{target}'s Vitality Save holds", "cover": "the attack is a miss (Cover Step)",
    "terrain": "the attack is a miss: terrain higher than the unit is in the way (Impact Step)",
    "cancelled": "the attack is cancelled", "gone": "nothing left to hit",
}
PURPOSES = {"placement_order": "order of Unit Placement", "first_turn": "the First Turn", "cover": "Cover Step",
            "accuracy": "Accuracy Roll", "damage": "Damage Roll", "evasion_save": "Evasion Save",
            "shield_save": "Shield Save", "armor_save": "Armor Save", "vitality_save": "Vitality Save"}
DECISIONS = {"intercepted": "a unit is on the line of fire", "opportunity": "Attack Of Opportunity",
             "escape": "escape the trample", "primary_target": "Primary Target"}


def _num(value: Any) -> str:
    return f"{float(value):g}" if isinstance(value, (int, float)) else str(value)


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
    purpose = PURPOSES.get(d["purpose"], d["purpose"].replace("_", " "))
    kept = f", keeps {max(faces)}" if len(faces) > 1 else ""
    return f"{d['side']} rolls {_dice_words(d['spec'])} for the {purpose}{_about(d)}: {', '.join(map(str, faces))}{kept}"


def _moved(e: Event) -> str:
    d = e.data
    cost = f"; {_num(d['cost_cm'])} cm of movement on difficult terrain" if abs(d["cost_cm"] - d["distance_cm"]) > 1e-6 \
        else ""
    if d["distance_cm"] <= 0:
        return f"{d['unit']} rotates to {float(d['facing']):.0f} degrees"
    return (f"{d['unit']} moves {_num(d['distance_cm'])} cm facing {float(d['facing']):.0f} degrees{cost} "
            f"({_num(d['left_cm'])} cm left)")


def _attack(e: Event) -> str:
    d = e.data
    kind = {"opportunity": "Attack Of Opportunity: ", "reactive": "Reactive Armor counter-attacks: ",
            "trample": "Trample: ", "pierce": "Piercing: the projectile goes on: "}.get(d["kind"], "")
    where = f" ({_num(d['distance_cm'])} cm, range {_num(d['range_cm'])} cm)" if d.get("distance_cm") is not None else ""
    return f"{kind}{d['unit']} attacks {d['target']} with its {d['weapon']}{where}"


def _impact(e: Event) -> str:
    d = e.data
    if d["airborne"]:
        return f"Impact Step: an airborne unit bypasses all cover ({d['unit']} -> {d['target']})"
    if not d["visible"]:
        return f"Impact Step: nothing of {d['target']} is seen from {d['unit']}"
    if d["cover"] == "none":
        return f"Impact Step: {d['target']} is not behind cover ({float(d['hidden']):.0%} hidden)"
    return (f"Impact Step: {d['target']} is behind {d['cover']} cover ({float(d['hidden']):.0%} hidden; "
            f"{d['material']}: {d['given_by']})")


def _save(e: Event) -> str:
    d = e.data
    how = "holds" if d["held"] else "fails"
    return f"{d['target']}'s {SAVES[d['step']]}: {d['value']} against {_num(d['against'])}: {how}"


def _skipped(e: Event) -> str:
    d = e.data
    if d["highest"] is None:
        return f"{d['target']} has no {SAVES[d['step']]}: the attack goes on"
    return f"{d['target']}'s {SAVES[d['step']]} cannot score higher than {_num(d['value'])}: no roll (Multiple Die Saves)"


def _result(e: Event) -> str:
    d = e.data
    words = RESULTS.get(d["outcome"], d["outcome"]).format(target=d["target"], unit=d["unit"])
    return f"{d['unit']} on {d['target']}: {words}"


def _placed(e: Event) -> str:
    d = e.data
    where = f"({float(d['position'][0]):.1f}, {float(d['position'][1]):.1f})"
    if d["reason"] == "ejected":
        return f"{d['unit']} is ejected beside the wreck at {where}"
    if d["reason"] == "escape":
        return f"{d['unit']} escapes 6 cm to {where}"
    return f"{d['unit']} is placed at {where}, facing {float(d['facing']):.0f} degrees"


def _order(e: Event) -> str:
    d = e.data
    rolls = ", ".join(f"{s} {d['rolls'].get(s, '?')}" for s in d["sides"])
    if d["purpose"] == "first_turn":
        return f"First Turn: {d['sides'][0]} moves first (rolls: {rolls})"
    return f"Unit Placement: {d['sides'][0]} places first (rolls: {rolls})"


def _game_over(e: Event) -> str:
    d = e.data
    rewards = ", ".join(f"{s} +{v}" for s, v in d["rewards"].items())
    who = f"{d['winner']} wins" if d["winner"] else "a draw"
    return f"The encounter ends: {who} ({d['result']}); maximum unit power gained: {rewards}"


LINES: dict[str, Callable[[Event], str]] = {
    "game_started": lambda e: f"War of Bros: {' against '.join(e.data['sides'])} ({e.data['mode'].replace('-', ' ')})",
    "roll_requested": lambda e: f"{e.data['side']} rolls {_dice_words(e.data['spec'])}",
    "rolled": _rolled,
    "decision_requested": lambda e: f"{e.data['side']} decides: {DECISIONS.get(e.data['decision'], e.data['decision'])}",
    "decided": lambda e: (f"{e.data['side']} decides ({DECISIONS.get(e.data['decision'], e.data['decision'])}"
                          f"{_about(e.data)}): {e.data['choice']}"),
    "order": _order,
    "order_tie": lambda e: f"{', '.join(e.data['sides'])} tie at {e.data['value']}: roll again",
    "placed": _placed,
    "primary_target": lambda e: f"{e.data['side']} selects {e.data['unit']} as its Primary Target "
                                f"({e.data['tokens']} frag tokens)",
    "round_started": lambda e: (f"Round {e.round}: the First Turn, movement only" if e.data["first_turn"] else
                                f"Round {e.round}: {', then '.join(e.data['order'])}"),
    "turn_started": lambda e: f"{e.data['side']}'s turn",
    "turn_ended": lambda e: f"{e.data['side']} ends its turn",
    "round_ended": lambda e: f"round {e.round} is over",
    "activation_started": lambda e: f"{e.data['unit']}: First Movement Step",
    "activation_ended": lambda e: f"{e.data['unit']} is done ({_num(e.data['moved_cm'])} cm moved)",
    "step": lambda e: f"{e.data['unit']}: Final Movement Step",
    "moved": _moved,
    "cover_destroyed": lambda e: (f"{e.data['unit']} destroys the cover it touches "
                                  f"({len(e.data['decor'])} parts, {len(e.data['bodies'])} Bodies)"),
    "attack": _attack,
    "impact": _impact,
    "intercepted": lambda e: f"{e.data['other']} is on the line of fire: {e.data['unit']} attacks it instead",
    "attack_cancelled": lambda e: f"{e.data['other']} is on the line of fire: {e.data['unit']} cancels its attack",
    "cover_roll": lambda e: (f"Cover Step: total cover, no roll: a miss" if e.data["roll"] is None else
                             f"Cover Step: a d4 of {e.data['roll']} against {e.data['cover']} cover: "
                             + ("a miss" if e.data["missed"] else "through")),
    "attack_roll": lambda e: f"{e.data['unit']}'s {STEP_ROLLS[e.data['step']]}: {_num(e.data['value'])}",
    "save": _save,
    "save_skipped": _skipped,
    "attack_result": _result,
    "opportunity": lambda e: f"{e.data['unit']} calls an Attack Of Opportunity on {e.data['target']}",
    "burning": lambda e: f"{e.data['unit']} burns ({e.data['rounds']} rounds)",
    "burn": lambda e: f"{e.data['unit']} burns: it saves against a Damage Roll of {e.data['damage']}",
    "burn_result": lambda e: f"the fire on {e.data['unit']}: {RESULTS.get(e.data['outcome'], e.data['outcome'])}"
                             .format(target=e.data["unit"], unit=e.data["unit"]),
    "died": lambda e: f"{e.data['unit']} perishes" + (" under the tracks" if e.data["trampled"] else ""),
    "destroyed": lambda e: f"{e.data['vehicle']} perishes",
    "cover_left": lambda e: (f"a Body replaces {e.data['unit']} (Light Cover, Difficult Terrain 2)"
                             if e.data["kind"] == "body" else
                             f"a wreck replaces {e.data['unit']} (Vehicle cover, units must go around it)"),
    "crew_lost": lambda e: f"{e.data['unit']} finds no room and perishes inside {e.data['vehicle']}",
    "frag_lost": lambda e: f"{e.data['side']} loses a frag token ({e.data['tokens']} left)",
    "side_out": lambda e: f"{e.data['side']} has no frag token left: its units and covers leave the terrain",
    "round_limit": lambda e: "round limit reached; unit power in play: " + ", ".join(
        f"{s} {v}" for s, v in e.data["power"].items()),
    "game_over": _game_over,
}


class EnglishNarrator(Narrator):
    """War of Bros' battle log in English."""

    language = "en"

    def line(self, event: Event, following: Sequence[Event] = ()) -> str | None:
        say = LINES.get(event.kind)
        return say(event) if say is not None else event.kind.replace("_", " ")

    def log_line(self, event: Event, following: Sequence[Event] = ()) -> str | None:
        return None if event.kind in QUIET_KINDS else self.line(event, following)
