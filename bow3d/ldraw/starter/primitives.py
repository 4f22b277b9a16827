"""Primitives of the starter library (p/): the stud that tops every brick and plate.

Layer: ldraw (generator side). `stud.dat` is named so that `bow3d.ldraw.flatten.is_top_stud`
recognises it: its base centre is the origin and it grows 4 LDU up (along LDraw -Y), radius
6 LDU, like the official primitive of the same name. An octagonal prism keeps the 57,600 studs
of a 5x5-baseplate battlefield light.
"""

from __future__ import annotations

from bow3d.ldraw.starter.geometry import cylinder
from bow3d.ldraw.starter.part import Part

STUD_RADIUS = 6.0
STUD_HEIGHT = 4.0
STUD_SIDES = 8


def parts() -> list[Part]:
    """The primitives, written to p/."""
    stud = cylinder(STUD_RADIUS, -STUD_HEIGHT, 0.0, sides=STUD_SIDES)
    stud.hide_edges_below = 0.0  # the base sits on the part: no outline there
    return [Part("stud.dat", "Stud", [stud], folder="p")]
