"""Windows, doors and fences of the starter library, with real openings.

Layer: ldraw (generator side), LDU, LDraw frame (-Y up). The openings are holes through the
solid (sight passes through them), measured on the official parts: a window 1x4x3 frame is
open over x in [-34, 34], y in [6, 64]; the 1x4x6 door frame over y in [6, 136]; the door has
four panes; the fence lattice four gaps. Glass is a separate part in LEGO and is not included.
"""

from __future__ import annotations

from bow3d.ldraw.starter.geometry import cylinder, union
from bow3d.ldraw.starter.part import Part, Ref, stud_grid

STUD_TOWARDS_MINUS_Z = (1.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 1.0, 0.0)  # stud grows along -Z
STUD_TOWARDS_PLUS_Z = (1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, -1.0, 0.0)  # stud grows along +Z

# (lo, hi) of each opening, for the tests: part -> list of boxes that sight must pass through
OPENINGS = {
    "60594": [((-34.0, 6.0, -10.0), (34.0, 64.0, 10.0))],
    "60596": [((-34.0, 6.0, -10.0), (34.0, 136.0, 10.0))],
    "3853": [((-36.0, 4.0, -12.0), (36.0, 60.0, 10.0))],
    "60623": [((4.0, 13.0, -2.0), (29.0, 33.0, 2.0)), ((35.0, 13.0, -2.0), (60.0, 33.0, 2.0)),
              ((4.0, 39.0, -2.0), (29.0, 59.0, 2.0)), ((35.0, 39.0, -2.0), (60.0, 59.0, 2.0))],
    "3854": [((-2.0, 4.0, -30.0), (2.0, 28.0, -2.0)), ((-2.0, 32.0, -30.0), (2.0, 56.0, -2.0))],
    "3633": [((x0, 4.0, -2.0), (x1, 16.0, 2.0)) for x0, x1 in ((-36.0, -22.0), (-18.0, -2.0), (2.0, 18.0),
                                                                (22.0, 36.0))],
}


def frame(number: str, description: str, height: float) -> Part:
    """A 1x4 frame (window or door) `height` LDU tall with one opening and two studs on top."""
    body = union([((-40.0, 0.0, -10.0), (40.0, height, 10.0))], holes=OPENINGS[number])
    return Part(f"{number}.dat", description, [body], stud_grid(2, 1))


def old_window() -> Part:
    """3853: the classic 1x4x3 window frame, with a lintel and a sill standing out in front."""
    boxes = [((-40.0, 0.0, -12.0), (40.0, 72.0, 10.0)), ((-44.0, 0.0, -16.0), (44.0, 4.0, 10.0)),
             ((-44.0, 60.0, -16.0), (44.0, 68.0, 10.0))]
    return Part("3853.dat", "Window  1 x  4 x  3", [union(boxes, holes=OPENINGS["3853"])], stud_grid(2, 1))


def window_pane() -> Part:
    """3854: a lattice pane for 3853, hinged at its origin, two panes of glass-less lattice."""
    body = union([((-2.0, -1.0, -34.0), (2.0, 61.0, 2.0))], holes=OPENINGS["3854"])
    return Part("3854.dat", "Window  1 x  2 x  3 Pane", [body])


def door() -> Part:
    """60623: a door leaf hinged at its origin, four panes open, a stud handle on both faces."""
    leaf = union([((-3.0, 5.0, -2.0), (67.0, 135.0, 2.0)), ((52.0, 62.0, -3.0), (64.0, 74.0, 3.0))],
                 holes=OPENINGS["60623"])
    hinges = [cylinder(4.0, y0, y1, sides=8) for y0, y1 in ((3.0, 15.0), (125.0, 137.0))]
    handles = [Ref("stud.dat", (58.0, 68.0, -3.0), STUD_TOWARDS_MINUS_Z),
               Ref("stud.dat", (58.0, 68.0, 3.0), STUD_TOWARDS_PLUS_Z)]
    return Part("60623.dat", "Door  1 x  4 x  6 with 4 Panes and Stud Handle", [leaf, *hinges], handles)


def fence() -> Part:
    """3633: a 1x4x1 fence, a thin lattice with four gaps on a full-width base, no studs."""
    body = union([((-40.0, 16.0, -10.0), (40.0, 24.0, 10.0)), ((-40.0, 0.0, -2.0), (40.0, 16.0, 2.0))],
                 holes=OPENINGS["3633"])
    return Part("3633.dat", "Fence Lattice  1 x  4 x  1", [body])


def parts() -> list[Part]:
    """Every part with an opening."""
    return [frame("60594", "Window  1 x  4 x  3 without Shutter Tabs", 72.0),
            frame("60596", "Door  1 x  4 x  6 Frame", 144.0), old_window(), window_pane(), door(), fence()]
