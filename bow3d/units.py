"""Lengths: the one definition of the stud, the brick and the plate in LDraw units, and conversions.

Layer: bottom (like bow3d.errors, whose error it raises; it imports no other part of bow3d), so
every layer may use it. Inside bow3d lengths are LDraw units (LDU); rules speak in studs, War of
Bros in centimetres, Blaze of Glory in inches. The LEGO module: 1 stud = 20 LDU = 8 mm, so
1 LDU = 0.4 mm, 1 cm = 25 LDU = 1.25 studs, 1 inch = 63.5 LDU = 3.175 studs (1 stud = 0.31496 in).
Heights: 1 brick = 24 LDU (9.6 mm), 1 plate = 8 LDU (a third of a brick).

    to_unit(40.0, "studs") == 2.0;  from_unit(3.0, "cm") == 75.0;  convert(8, "in", "cm") == 20.32
    Length.of(12, "in").studs == 38.1

Every function takes floats or numpy arrays (any shape; the result has the same shape).
"""

from __future__ import annotations

from dataclasses import dataclass

from bow3d.errors import UserInputError
from bow3d.i18n import _

LDU_PER_STUD = 20.0    # the stud pitch
LDU_PER_BRICK = 24.0   # a brick's height without its studs
LDU_PER_PLATE = 8.0    # a plate's height: a third of a brick
MM_PER_LDU = 0.4       # 1 stud = 8 mm
MM_PER_INCH = 25.4

LDU_PER_UNIT = {
    "ldu": 1.0,
    "studs": LDU_PER_STUD,
    "bricks": LDU_PER_BRICK,       # a height
    "plates": LDU_PER_PLATE,       # a height
    "mm": 1.0 / MM_PER_LDU,
    "cm": 10.0 / MM_PER_LDU,
    "in": MM_PER_INCH / MM_PER_LDU,
}
UNITS = tuple(LDU_PER_UNIT)


def ldu_per(unit: str) -> float:
    """LDU in one `unit` ('ldu', 'studs', 'bricks', 'plates', 'mm', 'cm', 'in')."""
    try:
        return LDU_PER_UNIT[unit]
    except (KeyError, TypeError):
        raise UserInputError(_("unknown length unit {unit!r}; use one of {value}")
                             .format(unit=unit, value=', '.join(UNITS))) from None


def to_unit(ldu, unit: str):
    """A length in LDU (float or array) expressed in `unit`."""
    return ldu / ldu_per(unit)


def from_unit(value, unit: str):
    """A length in `unit` (float or array) expressed in LDU."""
    return value * ldu_per(unit)


def convert(value, from_: str, to: str):
    """A length from one unit to another, e.g. convert(8, 'in', 'studs') == 25.4."""
    return value * (ldu_per(from_) / ldu_per(to))


@dataclass(frozen=True)
class Length:
    """A length, held in LDU, read in any unit: Length.of(3, 'cm').studs == 3.75."""

    ldu: float

    @classmethod
    def of(cls, value: float, unit: str) -> Length:
        return cls(float(from_unit(value, unit)))

    def to(self, unit: str) -> float:
        return float(to_unit(self.ldu, unit))

    @property
    def studs(self) -> float:
        return self.ldu / LDU_PER_STUD

    @property
    def bricks(self) -> float:
        return self.ldu / LDU_PER_BRICK

    @property
    def plates(self) -> float:
        return self.ldu / LDU_PER_PLATE

    @property
    def mm(self) -> float:
        return self.ldu * MM_PER_LDU

    @property
    def cm(self) -> float:
        return self.ldu * MM_PER_LDU / 10.0

    @property
    def inches(self) -> float:
        return self.ldu * MM_PER_LDU / MM_PER_INCH


__all__ = ["LDU_PER_BRICK", "LDU_PER_PLATE", "LDU_PER_STUD", "LDU_PER_UNIT", "Length", "MM_PER_INCH",
           "MM_PER_LDU", "UNITS", "convert", "from_unit", "ldu_per", "to_unit"]
