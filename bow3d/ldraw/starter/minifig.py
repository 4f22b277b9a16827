"""Minifigure parts and headgear of the starter library, at the official offsets.

Layer: ldraw (generator side), LDU, LDraw frame (-Y up). A standard minifigure puts the torso
at the origin (its neck top; the torso is 32 LDU tall), the head and headgear at y = -24, the
hips at y = 32, the legs at y = 44 (soles at y = 72), the arms at (+-15.552, 9, 0) tilted 10
degrees, the hands on the arms' ends. So the top of the head (under its stud) is 96 LDU above
the soles and the printed eyes (head y = 10) 86 LDU above them: the height line of sight is
measured from. Figures face LDraw -Z.
"""

from __future__ import annotations

import numpy as np

from bow3d.ldraw.colours import BLACK, BLUE
from bow3d.ldraw.starter.geometry import Shell, box, cylinder, lathe, prism, union
from bow3d.ldraw.starter.part import Part, studs

MIRROR_X = np.diag([-1.0, 1.0, 1.0])
HEAD_RADIUS = 13.0  # to the flats of a 16-sided head: the face print sits on a flat at z = -13
EYE_Y = 10.0  # head frame: 72 + 24 - 10 = 86 LDU above the soles


def torso(number: str, description: str, stripes: bool) -> Part:
    """The torso: a trapezoid 30 LDU wide at the shoulders, 38 at the hips, 20 deep; a neck post."""
    outline = [(-15.0, 0.0), (15.0, 0.0), (19.0, 16.0), (19.0, 32.0), (-19.0, 32.0), (-19.0, 16.0)]  # (x, y)
    body = prism(outline, axis=2, w0=-10.0, w1=10.0)
    neck = cylinder(6.0, -12.0, 2.0, sides=8)
    shells = [body, neck]
    if stripes:  # the print: two vertical blue stripes (braces) on the chest, just proud of it
        shells += [box((x0, 1.0, -10.4), (x0 + 3.0, 31.0, -9.0)).coloured(BLUE) for x0 in (-9.5, 6.5)]
    return Part(f"{number}.dat", description, shells)


def hips() -> Part:
    """3815: the hip block with two pegs up into the torso and the leg axle disc below."""
    block = union([((-18.0, 0.0, -10.0), (18.0, 8.0, 10.0)), ((-16.0, -11.0, -8.0), (-4.0, 0.0, 8.0)),
                   ((4.0, -11.0, -8.0), (16.0, 0.0, 8.0))])
    axle = cylinder(12.0, -3.0, 3.0, sides=16, centre=(9.0, 0.0), axis=0).moved(np.diag([1.0, 1.0, 10.0 / 12.0]))
    return Part("3815.dat", "Minifig Hips", [block, axle])


def leg(number: str, description: str, mirrored: bool) -> Part:
    """A leg (3816 right, at x < 0; 3817 left, its mirror image), foot forward (towards -Z)."""
    shell = union([((-19.5, -9.0, -9.0), (-1.5, 20.0, 9.0)), ((-19.5, 20.0, -11.0), (-1.5, 28.0, 9.0))])
    return Part(f"{number}.dat", description, [shell.moved(MIRROR_X) if mirrored else shell])


def arm(number: str, description: str, mirrored: bool) -> Part:
    """An arm (3818 right, reaching to x < 0; 3819 left): shoulder at the origin, forearm forward."""
    shell = union([((-6.0, -6.5, -6.5), (7.0, 4.0, 6.5)), ((-8.0, 4.0, -9.0), (2.0, 14.0, 5.0)),
                   ((-10.07, 14.0, -13.44), (0.0, 22.44, -2.0))])
    return Part(f"{number}.dat", description, [shell.moved(MIRROR_X) if mirrored else shell])


def hand() -> Part:
    """3820: a C-shaped grip open towards -Z (a real slot a weapon's grip passes through), wrist pin."""
    shell = union([((-6.0, -7.69, -10.0), (6.0, 4.61, -4.0)), ((-6.0, -7.69, -15.52), (-2.0, 4.61, -10.0)),
                   ((2.0, -7.69, -15.52), (6.0, 4.61, -10.0)), ((-3.0, -3.0, -4.0), (3.0, 3.0, 13.0))])
    return Part("3820.dat", "Minifig Hand", [shell])


def head_shell() -> Shell:
    """A 16-sided head 26 LDU across the flats, rounded at the top, a narrower neck at the bottom."""
    profile = [(9.5, 24.0), (9.5, 21.0), (13.0, 19.0), (13.0, 3.0), (11.0, 0.0)]
    return lathe(profile, sides=16, flat_on_axes=True, crease_deg=30.0)


def face() -> list[Shell]:
    """The standard grin: two eye blocks and a U-shaped smile, black, 0.55 LDU off the front flat."""
    front = -HEAD_RADIUS - 0.55
    eyes = [box((x0, EYE_Y - 1.5, front), (x0 + 3.0, EYE_Y + 1.5, -11.0)) for x0 in (-6.0, 3.0)]
    smile = union([((-4.0, 16.0, front), (4.0, 17.2, -11.5)), ((-5.5, 14.6, front), (-4.0, 17.2, -11.5)),
                   ((4.0, 14.6, front), (5.5, 17.2, -11.5))])
    return [s.coloured(BLACK) for s in [*eyes, smile]]


def heads() -> list[Part]:
    """3626b (plain) and 3626bp01 (standard grin), each with the stud on top."""
    top = studs([(0.0, 0.0, 0.0)])
    return [Part("3626b.dat", "Minifig Head with Blocked Hollow Stud", [head_shell()], top),
            Part("3626bp01.dat", "Minifig Head with Standard Grin Pattern", [head_shell(), *face()], top)]


def cup(inner: float, outer_profile, bottom: float) -> Shell:
    """Headgear crown: a cup over the head (inner radius `inner`, open below `bottom`), the outer
    surface following `outer_profile` [(radius, y), ...] from the bottom rim up."""
    profile = [(0.0, -5.0), (inner, -3.0), (inner, bottom), *outer_profile]
    return lathe(profile, sides=16, crease_deg=30.0)


def headgear() -> list[Part]:
    """Hats and helmets, placed like the head (y = -24 on a standard figure); faces stay visible."""
    police = [cup(13.3, [(14.5, 6.44), (14.5, 0.0), (16.9, -6.0), (16.9, -9.44), (0.0, -9.44)], 6.44),
              box((-9.0, 3.0, -18.27), (9.0, 6.0, -12.0))]
    helmet = cup(13.6, [(16.0, 6.0), (16.0, -6.0), (12.0, -13.0), (6.0, -17.0), (0.0, -17.0)], 6.0)
    neck_guard = union([((-21.0, 4.0, 13.6), (21.0, 23.0, 20.72)), ((-21.0, 4.0, -8.0), (-13.6, 23.0, 13.6)),
                        ((13.6, 4.0, -8.0), (21.0, 23.0, 13.6))])
    chin_guard = union([((-16.0, 4.0, 13.6), (16.0, 24.0, 16.0)), ((-16.0, 4.0, -16.0), (-13.6, 24.0, 13.6)),
                        ((13.6, 4.0, -16.0), (16.0, 24.0, 13.6)), ((-13.6, 19.0, -16.0), (13.6, 24.0, -13.6))])
    cap = [cup(13.2, [(14.0, 6.0), (14.0, 0.0), (10.0, -8.0), (5.0, -10.92), (0.0, -10.92)], 6.0),
           box((-10.0, 6.5, -28.0), (10.0, 8.98, -10.0))]
    return [Part("3624.dat", "Minifig Police Hat", police),
            Part("3844.dat", "Minifig Helmet Castle with Neck Protector", [helmet, neck_guard]),
            Part("3896.dat", "Minifig Helmet Castle with Chin-Guard", [helmet, chin_guard]),
            Part("4485.dat", "Minifig Cap with Long Flat Peak", cap)]


def parts() -> list[Part]:
    """Every minifigure part."""
    return [torso("973", "Minifig Torso", False),
            torso("973p01", "Minifig Torso with Vertical Striped Red/Blue Pattern", True),
            hips(), leg("3816", "Minifig Leg Right", False), leg("3817", "Minifig Leg Left", True),
            arm("3818", "Minifig Arm Right", False), arm("3819", "Minifig Arm Left", True), hand(),
            *heads(), *headgear()]
