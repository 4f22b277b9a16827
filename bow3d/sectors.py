"""Which side of a footprint a point lies on (front, side or back): the one definition of the sectors.

Layer: bottom (pure Python, like bow3d.units; it imports nothing of bow3d), so the world
(bow3d.world.vehicles), the rules' flat test geometry (bow3d.rules.flat) and the rulesets share it: BOW
1.3's collision sectors (§3.6.3, below) and War of Bros' Front, Side and Back of a base (the edge the line
from its centre crosses; through a corner, front or back) are the same four wedges.

The book: "It depends on which side of the hit vehicle, the moving vehicle comes from. [...] You
can define three sectors around the red vehicle according to its direction": the front sector
(relative speed = the sum of the speeds), the two side sectors (the mover's speed), the back sector
(the difference). Our reading (figure: docs/collision-sectors.png):

- the sectors are the four wedges around the hit vehicle cut by its footprint's diagonals (the
  lines from its centre through its corners): the wedge beyond its front edge is the front sector,
  beyond its rear edge the back sector, beyond either long side a side sector;
- "the side the moving vehicle comes from" is where the moving vehicle is when it touches: the
  wedge holding the moving vehicle's centre at the moment of contact (`MOVER`, BOW revision 2);
- a centre exactly on a diagonal counts for the front or back sector.

Revision 1 of the BOW ruleset read it at the contact point instead (`CONTACT`: the wedge holding the
point where the two vehicles first touch); replays of that revision are re-played with it.
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
