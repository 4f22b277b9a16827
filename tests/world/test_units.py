"""bow3d.units: the one stud, brick and plate, and conversions between studs, cm, mm, inches and LDU."""

from __future__ import annotations

import numpy as np
import pytest

from bow3d.errors import UserInputError
from bow3d.units import (
    LDU_PER_BRICK,
    LDU_PER_PLATE,
    LDU_PER_STUD,
    MM_PER_LDU,
    UNITS,
    Length,
    convert,
    from_unit,
    ldu_per,
    to_unit,
)


def test_the_lego_module():
    """1 stud = 20 LDU = 8 mm; 1 brick = 24 LDU; 1 plate = 8 LDU = a third of a brick; 1 LDU = 0.4 mm."""
    assert (LDU_PER_STUD, LDU_PER_BRICK, LDU_PER_PLATE, MM_PER_LDU) == (20.0, 24.0, 8.0, 0.4)
    assert LDU_PER_PLATE * 3 == LDU_PER_BRICK


@pytest.mark.parametrize("unit, one_stud", [("ldu", 20.0), ("studs", 1.0), ("mm", 8.0), ("cm", 0.8),
                                            ("in", 0.31496063), ("bricks", 20 / 24), ("plates", 2.5)])
def test_one_stud_in_every_unit(unit, one_stud):
    assert convert(1.0, "studs", unit) == pytest.approx(one_stud)
    assert to_unit(20.0, unit) == pytest.approx(one_stud)
    assert from_unit(one_stud, unit) == pytest.approx(20.0)
    assert Length.of(1, "studs").to(unit) == pytest.approx(one_stud)


def test_rule_book_lengths():
    """War of Bros bases in cm, Blaze of Glory moves in inches, BOW in studs."""
    assert convert(3, "cm", "studs") == pytest.approx(3.75)         # a 3 x 3 cm base is 3.75 studs wide
    assert convert(12, "in", "studs") == pytest.approx(38.1)        # 12" nerve range
    assert convert(8, "in", "cm") == pytest.approx(20.32)           # the shotgun template's length
    length = Length.of(2.5, "in")
    assert (length.ldu, length.studs, length.cm, length.mm, length.inches) == \
        pytest.approx((158.75, 7.9375, 6.35, 63.5, 2.5))
    assert Length(48.0).bricks == 2.0 and Length(48.0).plates == 6.0


def test_arrays_keep_their_shape():
    values = np.arange(6.0).reshape(2, 3)
    assert to_unit(values, "studs").shape == (2, 3)
    assert np.allclose(from_unit(to_unit(values, "in"), "in"), values)
    assert to_unit(np.zeros(0), "cm").shape == (0,)


def test_unknown_unit_is_a_user_error_listing_the_units():
    with pytest.raises(UserInputError, match="unknown length unit 'feet'.*studs.*cm.*in"):
        ldu_per("feet")
    assert set(UNITS) == {"ldu", "studs", "bricks", "plates", "mm", "cm", "in"}
