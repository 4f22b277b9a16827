"""The dice of one attack step: the attacker's roll and each target's save ("Accuracy Step" to
"Vitality Step", "Multiple Die Saves", "Vital Attack", the penetration modifiers, Rail Driven).

Layer: rulesets (War of Bros; pure Python).

More: docs/modules/rulesets-war-of-bros.md#saves.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from bow3d.rulesets.war_of_bros.dice import DiceRoll
from bow3d.rulesets.war_of_bros.profile import Profile, WeaponProfile

STEPS = ("accuracy", "shield", "armor", "vitality")
SAVE_WORD = {"accuracy": "evasion", "shield": "shield", "armor": "armor", "vitality": "vitality"}
FAIL_WORD = {"accuracy": "evaded", "shield": "shield", "armor": "armor", "vitality": "vitality"}


@dataclass(frozen=True)
class AttackDice:
    """What the attacker rolls in each step (None damage: a fixed value, `fixed`)."""

    accuracy: DiceRoll | None
    damage: DiceRoll | None
    fixed: int | None = None           # Incendiary: "a Damage Roll equal to 4"
    halve_damage: bool = False         # Rail Driven
    accuracy_bonus: int = 0
    damage_bonus: int = 0

    def roll(self, step: str) -> DiceRoll | None:
        return self.accuracy if step == "accuracy" else self.damage

    def value(self, step: str, faces: tuple[int, ...] | None) -> Fraction:
        """The attacker's result for the step from its dice (or the fixed value)."""
        if step != "accuracy" and self.fixed is not None:
            return Fraction(self.fixed)
        dice = self.roll(step)
        assert dice is not None and faces is not None  # without a fixed value there are dice, and their faces
        raw = dice.value(faces) + (self.accuracy_bonus if step == "accuracy" else self.damage_bonus)
        if step != "accuracy" and self.halve_damage:
            return Fraction(raw, 2)
        return Fraction(raw)

    def distribution(self, step: str) -> dict[Fraction, Fraction]:
        """Exact P(attacker's result = v) for the step."""
        if step != "accuracy" and self.fixed is not None:
            return {Fraction(self.fixed): Fraction(1)}
        bonus = self.accuracy_bonus if step == "accuracy" else self.damage_bonus
        out: dict[Fraction, Fraction] = {}
        dice = self.roll(step)
        assert dice is not None  # without a fixed value there are dice
        for v, p in dice.distribution().items():
            key = Fraction(v + bonus, 2) if step != "accuracy" and self.halve_damage else Fraction(v + bonus)
            out[key] = out.get(key, Fraction(0)) + p
        return out


def attack_dice(weapon: WeaponProfile, *, vital: bool = False, opportunity_by: Profile | None = None) -> AttackDice:
    """The attacker's dice for a weapon: Vital Attack adds a die; an Attack Of Opportunity adds the threat
    bonus (accuracy and damage) and Threat Focus (damage)."""
    accuracy, damage = weapon.accuracy, weapon.damage
    if vital:
        accuracy, damage = accuracy.more(), damage.more()
    bonus = opportunity_by.threat_bonus if opportunity_by is not None else 0
    focus = opportunity_by.threat_focus if opportunity_by is not None else 0
    return AttackDice(accuracy, damage, None, weapon.rail_driven, bonus, bonus + focus)


def fixed_damage(value: int) -> AttackDice:
    return AttackDice(None, None, value)


@dataclass(frozen=True)
class Save:
    """A target's save in one step: its dice (after penetration) and what is taken from its result."""

    dice: DiceRoll
    minus: int = 0

    def value(self, faces: tuple[int, ...]) -> int:
        return self.dice.value(faces) - self.minus

    @property
    def highest(self) -> int:
        return self.dice.highest - self.minus

    def distribution(self) -> dict[int, Fraction]:
        return {v - self.minus: p for v, p in self.dice.distribution().items()}

    def can_win(self, attack: Fraction) -> bool:
        """"Multiple Die Saves": a save that cannot score higher than the attack is not rolled."""
        return self.highest > attack


def save_of(profile: Profile, step: str, part: str, weapon: WeaponProfile | None) -> Save | None:
    """The target's save in a step, against a weapon, hit on `part` ('front' | 'side' | 'back'); None:
    no save (the attack goes on)."""
    if step == "accuracy":
        return Save(profile.evasion) if profile.evasion is not None else None
    if step == "vitality":
        return Save(profile.vitality) if profile.vitality is not None else None
    if step == "shield":
        dice = profile.shield_from(part)
        steps, minus = (weapon.shield_penetration, weapon.shield_pen_focus) if weapon else (0, 0)
    else:
        dice = profile.armor_from(part)
        steps, minus = (weapon.armor_penetration, weapon.armor_pen_focus) if weapon else (0, 0)
    if dice is None:
        return None
    dice = dice.penetrated(steps)
    return None if dice is None else Save(dice, minus)


def next_step(step: str, profile: Profile) -> str | None:
    """The step after `step` for a target that was beaten; None: it perishes."""
    if step == "accuracy":
        return "shield"
    if step == "shield":
        return "armor"
    if step == "armor":
        return "vitality" if profile.living else None
    return None


def reactive_armor_active(profile: Profile, weapon: WeaponProfile | None, part: str) -> bool:
    """"Penetration Versus Reactive": penetration that takes the armor below a d4 negates Reactive Armor."""
    if not profile.reactive_armor:
        return False
    return save_of(profile, "armor", part, weapon) is not None


def reactive_shield_active(profile: Profile, weapon: WeaponProfile | None, part: str = "front") -> bool:
    """Reactive Shield (it negates Vital Attacks and Attacks Of Opportunity on the unit), unless shield
    penetration takes its shield below a d4."""
    if not profile.reactive_shield:
        return False
    if profile.shield_from(part) is None:
        return True
    return save_of(profile, "shield", part, weapon) is not None
