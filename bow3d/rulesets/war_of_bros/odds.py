"""Exact odds of one War of Bros attack: miss by cover, evaded, stopped by shield or armor, vitality
held, perished ("Quick Order Of Operation"), and `bow3d odds --ruleset war-of-bros`.

Layer: rulesets (War of Bros; pure Python). Exact rational arithmetic (fractions) over the dice's
distributions (bow3d.rulesets.war_of_bros.saves: the same steps the game plays): no sampling. The
book's shortcuts ("Multiple Die Saves": a save that cannot score higher is not rolled) change which
dice are thrown, not who wins, so they change nothing here; tests compare these numbers with a
brute-force enumeration of every face of every die.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from bow3d.i18n import N_, _, current
from bow3d.rulesets.war_of_bros.cover import CLASSES, MISS_ON
from bow3d.rulesets.war_of_bros.dice import DiceRoll
from bow3d.rulesets.war_of_bros.saves import STEPS, AttackDice, Save

OUTCOMES = ("cover", "evaded", "shield", "armor", "vitality", "perished")
WORDS = {"cover": N_("miss by cover"), "evaded": N_("evaded"), "shield": N_("stopped by shield"),
         "armor": N_("stopped by armor"), "vitality": N_("vitality held"), "perished": N_("perished")}


@dataclass(frozen=True)
class AttackOdds:
    """P(each outcome) of one attack on one target (fractions summing to 1)."""

    outcomes: dict[str, Fraction]

    @property
    def p_perish(self) -> Fraction:
        return self.outcomes["perished"]

    def to_dict(self) -> dict[str, float]:
        names = {"cover": "p_miss_cover", "evaded": "p_evaded", "shield": "p_shield", "armor": "p_armor",
                 "vitality": "p_vitality_held", "perished": "p_perish"}
        return {names[k]: float(v) for k, v in self.outcomes.items()}


def beaten(attack: AttackDice, step: str, save: Save | None) -> Fraction:
    """P(the attacker's result >= the save's result) in one step (no save: certain)."""
    if save is None:
        return Fraction(1)
    saves = save.distribution()
    total = Fraction(0)
    for a, pa in attack.distribution(step).items():
        total += pa * sum((ps for s, ps in saves.items() if s <= a), Fraction(0))
    return total


def attack_odds(attack: AttackDice, saves: dict[str, Save | None], cover: str = "none",
                mechanized: bool = False) -> AttackOdds:
    """The outcome of one attack against one target whose saves per step are `saves` (accuracy: its
    evasion, then shield, armor, vitality; a Mechanized target has no vitality step)."""
    outcomes = {k: Fraction(0) for k in OUTCOMES}
    miss = Fraction(MISS_ON[cover], 4)
    outcomes["cover"] = miss
    going = 1 - miss
    for step in STEPS:
        if step == "vitality" and mechanized:
            break
        p = beaten(attack, step, saves.get(step))
        outcomes["evaded" if step == "accuracy" else step] += going * (1 - p)
        going *= p
    outcomes["perished"] = going
    return AttackOdds(outcomes)


# -- `bow3d odds` ------------------------------------------------------------------------------------
def add_odds_arguments(group: Any) -> None:
    """War of Bros' options of `bow3d odds` (the shared --cover, --json and --ruleset are the command's)."""
    dice = "DICE"
    group.add_argument("--accuracy", metavar=dice, help="war-of-bros: the weapon's Accuracy Dice, e.g. 2d8")
    group.add_argument("--evasion", metavar=dice, help="war-of-bros: the target's Evasion Dice (--- or omitted: none)")
    group.add_argument("--damage", metavar=dice, help="war-of-bros: the weapon's Damage Dice, e.g. d8")
    group.add_argument("--shield", metavar=dice, help="war-of-bros: the target's Shield Dice (omitted: none)")
    group.add_argument("--armor", metavar=dice, help="war-of-bros: the target's Armor Dice (omitted: none)")
    group.add_argument("--vitality", metavar=dice, help="war-of-bros: the target's Vitality Dice (omitted: none; "
                       "with --mechanized there is no Vitality Step)")
    group.add_argument("--focus", action="store_true", help="war-of-bros: +1 to the attacker's accuracy and damage "
                       "results (a Focus; dice like d8+1 give a Focus to one roll)")
    group.add_argument("--vital", action="store_true", help="war-of-bros: a Vital Attack (from behind): one more "
                       "accuracy and damage die")
    group.add_argument("--rail", action="store_true", help="war-of-bros: Rail Driven: every damage result halved, "
                       "cover ignored")
    group.add_argument("--armor-pen", type=int, default=0, metavar="N", help="war-of-bros: Armor Penetration steps")
    group.add_argument("--shield-pen", type=int, default=0, metavar="N", help="war-of-bros: Shield Penetration steps")
    group.add_argument("--mechanized", action="store_true", help="war-of-bros: the target is Mechanized (it perishes "
                       "once its armor is beaten)")


def _dice(args: Any, name: str, needed: bool = False) -> DiceRoll | None:
    from bow3d.errors import UserInputError

    text = getattr(args, name, None)
    try:
        roll = DiceRoll.parse(text)
    except ValueError as error:
        raise UserInputError(_("--{name} {text}: {error}").format(name=name, text=text, error=error)) from None
    if roll is None and needed:
        raise UserInputError(_("war-of-bros odds need --{name} (the weapon's {value} Dice, e.g. d8)")
                             .format(name=name, value=name.title()))
    if roll is not None and roll.faces ** roll.count > 10 ** 9:
        raise UserInputError(_("--{name} {text}: too many dice").format(name=name, text=text))
    return roll


def odds_report(args: Any) -> tuple[list[str], dict[str, Any]]:
    """The odds `bow3d odds --ruleset war-of-bros` prints (lines) and its JSON; UserInputError for bad options."""
    from bow3d.errors import UserInputError

    cover = args.cover or "none"
    if cover == "yes":
        raise UserInputError(_("--cover needs a level in war-of-bros: light, medium, heavy or total"))
    if cover not in CLASSES:
        raise UserInputError(_("--cover {cover}: war-of-bros cover is light, medium, heavy or total")
                             .format(cover=cover))
    if args.armor_pen < 0 or args.shield_pen < 0:
        raise UserInputError(_("--armor-pen and --shield-pen are 0 or more steps"))
    accuracy, damage = _dice(args, "accuracy", True), _dice(args, "damage", True)
    assert accuracy is not None and damage is not None  # needed: _dice refuses none
    if args.vital:
        accuracy, damage = accuracy.more(), damage.more()
    bonus = 1 if args.focus else 0
    attack = AttackDice(accuracy, damage, None, bool(args.rail), bonus, bonus)
    shield, armor = _dice(args, "shield"), _dice(args, "armor")
    shield = shield.penetrated(args.shield_pen) if shield is not None else None
    armor = armor.penetrated(args.armor_pen) if armor is not None else None
    saves = {"accuracy": _save(_dice(args, "evasion")), "shield": _save(shield), "armor": _save(armor),
             "vitality": _save(_dice(args, "vitality"))}
    if args.rail:
        cover = "none"
    odds = attack_odds(attack, saves, cover, bool(args.mechanized))
    head = _("accuracy {accuracy} vs evasion {evasion}; damage {damage}{halved}{bonus} vs shield {shield}, armor "
             "{armor}, {vitality}; cover {cover}").format(
        accuracy=accuracy, evasion=_words(saves["accuracy"]), damage=damage, halved=_(" (halved)") if args.rail else "",
        bonus=" +1" if bonus else "", shield=_words(saves["shield"]), armor=_words(saves["armor"]),
        vitality=_("no vitality (mechanized)") if args.mechanized else _("vitality {dice}").format(
            dice=_words(saves["vitality"])), cover=_(COVER_LEVELS[cover]) if cover in COVER_LEVELS else cover)
    width = max(18, *(len(_(w)) for w in WORDS.values()))
    lines = [head] + [f"{_(WORDS[k]):<{width}} {_number(100 * float(v))} %   ({v})" for k, v in odds.outcomes.items()]
    data = {"accuracy": str(accuracy), "damage": str(damage), "evasion": _words(saves["accuracy"]),
            "shield": _words(saves["shield"]), "armor": _words(saves["armor"]),
            "vitality": None if args.mechanized else _words(saves["vitality"]), "cover": cover,
            "focus": bool(args.focus), "vital": bool(args.vital), "rail": bool(args.rail), **odds.to_dict(),
            "exact": {k: str(v) for k, v in odds.outcomes.items()}}
    return lines, data


def _save(roll: DiceRoll | None) -> Save | None:
    return Save(roll) if roll is not None else None


COVER_LEVELS = {"none": N_("none"), "light": N_("light"), "medium": N_("medium"), "heavy": N_("heavy"),
                "total": N_("total")}


def _number(value: float) -> str:
    """A percentage as the table writes it ('  12.345'), the language's way."""
    text = f"{value:7.3f}"
    return text.replace(".", ",") if current() == "fr" else text


def _words(save: Save | None) -> str:
    return "---" if save is None else str(save.dice)
