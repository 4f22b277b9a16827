"""War of Bros dice: the book's notation, die sizes in ascending order, Up, Focus and penetration.

Layer: rulesets (War of Bros; pure Python). The book's dice are d4 to d20 ("Items Required To
Play: Set Of Dice"); a save or a roll of several dice keeps the highest ("Multiple Die Saves");
a Focus adds 1 to the result ("Evasion Focus", "Damage Focus"...); Up makes the die one size
bigger along the book's table "Die Sizes In Ascending Order":

    d4, d6, d8, d10, d12, d12+1, d12+2, d12+3, d20   (then d20+1, d20+2, ... as the tables go on)

More: docs/modules/rulesets-war-of-bros.md#dice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from fractions import Fraction

from bow3d.rules.chance import Dice

D12_SIZE = 4                 # index of the d12 in the ascending table
D20_SIZE = 8                 # index of the d20
LADDER = (4, 6, 8, 10, 12)   # sizes 0..4 are plain dice
MAX_DICE = 12                # a sheet's dice (sane bound; the book's largest save is 4 dice)
_NOTATION = re.compile(r"^\s*(\d*)\s*d\s*(\d+)\s*(?:\+\s*(\d+))?\s*\**\s*$", re.IGNORECASE)
NONE_WORDS = ("", "-", "--", "---", "----", "none")


def size_faces(size: int) -> tuple[int, int]:
    """(faces of the die, bonus added to its result) of a size index of the ascending table."""
    if size < 0:
        raise ValueError(f"no die below d4 (size {size})")
    if size <= D12_SIZE:
        return LADDER[size], 0
    if size < D20_SIZE:
        return 12, size - D12_SIZE
    return 20, size - D20_SIZE


def size_of(faces: int, plus: int = 0) -> int:
    """The size index of dN (+plus as a size of the table: d12+1..3, d20+k)."""
    if faces in LADDER and (faces < 12 or plus == 0):
        return LADDER.index(faces)
    if faces == 12:
        return D12_SIZE + plus
    if faces == 20:
        return D20_SIZE + plus
    raise ValueError(f"d{faces} is not a War of Bros die (d4, d6, d8, d10, d12, d20)")


@dataclass(frozen=True)
class DiceRoll:
    """`count` dice of a size of the ascending table, the highest kept, plus `focus`."""

    count: int
    size: int
    focus: int = 0

    def __post_init__(self) -> None:
        if not 1 <= self.count <= MAX_DICE:
            raise ValueError(f"a roll has 1 to {MAX_DICE} dice, not {self.count}")
        if self.size < 0:
            raise ValueError("no die below d4")

    # -- reading and writing -------------------------------------------------------------
    @classmethod
    def parse(cls, text: str | None) -> DiceRoll | None:
        """'2d8', 'd12+1', '3d20 + 2', 'd6+1' (a Focus), '---' (None). ValueError names what is wrong."""
        if text is None:
            return None
        words = str(text).strip().lower()
        if words in NONE_WORDS:
            return None
        match = _NOTATION.match(words)
        if not match:
            raise ValueError(f"{text!r} is not dice: write d4, 2d8, d12+1 or --- for none")
        count = int(match.group(1) or 1)
        faces, plus = int(match.group(2)), int(match.group(3) or 0)
        if faces == 12 and plus <= 3 or faces == 20:
            return cls(count, size_of(faces, plus))
        return cls(count, size_of(faces), plus)

    def __str__(self) -> str:
        faces, bonus = size_faces(self.size)
        plus = bonus + self.focus
        return f"{self.count if self.count > 1 else ''}d{faces}" + (f"+{plus}" if plus else "")

    # -- what it is ------------------------------------------------------------------------
    @property
    def faces(self) -> int:
        return size_faces(self.size)[0]

    @property
    def bonus(self) -> int:
        """What is added to the highest die: the size's own (d12+2) and the Focus."""
        return size_faces(self.size)[1] + self.focus

    @property
    def lowest(self) -> int:
        return 1 + self.bonus

    @property
    def highest(self) -> int:
        return self.faces + self.bonus

    def spec(self) -> Dice:
        """The engine's chance spec of the throw (bow3d.rules.chance.Dice, the highest kept)."""
        return Dice(self.count, self.faces, keep="highest")

    def value(self, faces: tuple[int, ...]) -> int:
        """The result of a throw: the highest die plus the bonus ("Multiple Die Saves")."""
        return max(faces) + self.bonus

    def distribution(self) -> dict[int, Fraction]:
        """Exact P(result = v): P(max of n dN = k) = (k^n - (k-1)^n) / N^n, shifted by the bonus."""
        n, faces = self.count, self.faces
        total = faces ** n
        return {k + self.bonus: Fraction(k ** n - (k - 1) ** n, total) for k in range(1, faces + 1)}

    # -- changed by the rules ----------------------------------------------------------------
    def up(self, steps: int = 1) -> DiceRoll:
        """A bigger die ("... Up: increase the size of the dice")."""
        return replace(self, size=self.size + steps)

    def more(self, dice: int = 1) -> DiceRoll:
        """More dice of the same size (Vital Attack: "add 1 die")."""
        return replace(self, count=min(MAX_DICE, self.count + dice))

    def with_focus(self, focus: int) -> DiceRoll:
        return replace(self, focus=self.focus + focus)

    def penetrated(self, steps: int) -> DiceRoll | None:
        """After `steps` of Armor or Shield Penetration: dice taken away first, then sizes; None
        when a d4 was reduced ("the Armor Save is negated")."""
        count, size = self.count, self.size
        for _ in range(max(0, steps)):
            if count > 1:
                count -= 1
            elif size > 0:
                size -= 1
            else:
                return None
        return replace(self, count=count, size=size)


def needed_dice(text: str) -> DiceRoll:
    """Dice that must be there (a weapon's damage and accuracy: its sheet refuses '---'); ValueError if none."""
    roll = DiceRoll.parse(text)
    if roll is None:
        raise ValueError(f"{text!r}: dice are needed here, not none")
    return roll


def parse_dice(text: str | None) -> DiceRoll | None:
    return DiceRoll.parse(text)


def format_dice(roll: DiceRoll | None) -> str:
    return "---" if roll is None else str(roll)
