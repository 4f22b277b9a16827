"""Which side of a footprint a point lies on (front, side or back): the one definition of the sectors.

Layer: bottom (pure Python, like bow3d.units; it imports nothing of bow3d), so the world
(bow3d.world.vehicles), the rules' flat test geometry (bow3d.rules.flat) and the rulesets share it: BOW
1.3's collision sectors (§3.6.3, below) and War of Bros' Front, Side and Back of a base (the edge the line
from its centre crosses; through a corner, front or back) are the same four wedges.

The book: "It depends on which side of the hit vehicle, the moving vehicle comes from. [...] You
can define three sectors around the red vehicle according to its direction": the front sector
(relative speed = the sum of the speeds), the two side sectors (the mover's speed), the back sector
(the difference).

More: docs/modules/base.md#sectors.
"""

from __future__ import annotations

import math

FRONT, SIDE, BACK = "front", "side", "back"
MOVER, CONTACT = "mover", "contact"     # where the sector is read: the mover's centre, or the contact point
READINGS = (MOVER, CONTACT)
TIE = 1e-9


def sector_in_frame(along: float, across: float, half_length: float, half_width: float) -> str:
    """The sector of a point given in the hit vehicle's frame: `along` its facing from the footprint's
    centre, `across` it (either side), for a footprint `2 * half_length` long and `2 * half_width` wide."""
    ahead = along / max(half_length, TIE)
    aside = abs(across) / max(half_width, TIE)
    if ahead >= aside - TIE:
        return FRONT
    if -ahead >= aside - TIE:
        return BACK
    return SIDE


def collision_sector(centre: tuple[float, float], facing_deg: float, length: float, width: float,
                     point: tuple[float, float]) -> str:
    """'front' | 'side' | 'back': the sector of the hit vehicle (its footprint's centre, facing in
    degrees (0 = +X, counter-clockwise), length along the facing and width, any one unit) in which
    `point` lies (the moving vehicle's centre at contact, or the contact point)."""
    a = math.radians(facing_deg)
    dx, dy = point[0] - centre[0], point[1] - centre[1]
    along = dx * math.cos(a) + dy * math.sin(a)
    across = -dx * math.sin(a) + dy * math.cos(a)
    return sector_in_frame(along, across, length / 2.0, width / 2.0)
