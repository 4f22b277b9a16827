"""Western parts of the starter library: the cowboy hat, the revolver and the barrel.

Layer: ldraw (generator side), LDU, LDraw frame (-Y up). The Blaze of Glory town
(scenes/make_blaze_of_glory.py) needs them; each carries the official part number, origin and
orientation, and its bounding box matches the official part within 1 LDU:

  3629   Minifig Hat Cowboy     placed like every hat (y = -24 on a standard figure): the crown
                                rises 16 LDU above the top of the head, the brim (46 across) sits
                                4 LDU below it
  30132  Minifig Gun Revolver   held like the flintlock pistol: the grip along Y through the
                                origin, the barrel forward (-Z) above the hand
  2489   Barrel 2 x 2 x 1.667   origin at the top (one stud on it), 40 LDU tall, 2 studs across

Crates and water troughs have no official part of their own: the town builds them of bricks.
"""

from __future__ import annotations

from bow3d.ldraw.starter.geometry import lathe, union
from bow3d.ldraw.starter.part import Part, studs


def cowboy_hat() -> Part:
    """3629: a crown over the head (hollow for the head's stud) and a wide round brim."""
    profile = [(0.0, -5.0), (13.3, -3.0), (13.3, 4.0), (23.0, 4.0), (23.0, 1.5), (15.0, 0.0), (15.0, -12.0),
               (11.0, -16.0), (0.0, -16.0)]
    return Part("3629.dat", "Minifig Hat Cowboy", [lathe(profile, sides=16, crease_deg=30.0)])


def revolver() -> Part:
    """30132: grip, frame with the cylinder, barrel forward, hammer behind."""
    shell = union([((-3.0, -12.0, -4.0), (3.0, 6.0, 4.0)),          # grip, the hand's slot round the origin
                   ((-6.0, -22.0, -8.0), (6.0, -12.0, 2.0)),        # frame and cylinder
                   ((-2.0, -27.59, -25.65), (2.0, -20.0, -8.0)),    # barrel
                   ((-2.0, -22.0, 2.0), (2.0, -16.0, 5.46))])       # hammer
    return Part("30132.dat", "Minifig Gun Revolver", [shell])


def barrel() -> Part:
    """2489: a bulging staved barrel, 40 LDU tall and 40 across, its origin at the top with one stud."""
    profile = [(16.0, 40.0), (19.0, 34.0), (20.0, 20.0), (19.0, 6.0), (16.0, 0.0)]
    return Part("2489.dat", "Barrel  2 x  2 x  1.667", [lathe(profile, sides=16)], studs([(0.0, 0.0, 0.0)]))


def parts() -> list[Part]:
    """Every Western part."""
    return [cowboy_hat(), revolver(), barrel()]
