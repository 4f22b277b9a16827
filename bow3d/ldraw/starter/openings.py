"""Windows, doors, fences and arches of the starter library, with real openings.

Layer: ldraw (generator side), LDU, LDraw frame (-Y up). The openings are holes through the
solid (sight passes through them), measured on the official parts by casting rays: a window
1x4x3 frame is open over x in [-34, 34], y in [6, 64]; the 1x4x6 door frame over y in
[6, 136]; the glazed door has four panes, the barred door nine slots, the fence lattice four
gaps, the 1x6 arch a stepped vault. Glass is a separate part in LEGO and is not included.
"""

from __future__ import annotations

from dataclasses import dataclass

from bow3d.ldraw.starter.geometry import cylinder, union
from bow3d.ldraw.starter.part import Part, Ref, stud_grid, studs

STUD_TOWARDS_MINUS_Z = (1.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 1.0, 0.0)  # stud grows along -Z
STUD_TOWARDS_PLUS_Z = (1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, -1.0, 0.0)  # stud grows along +Z
X, Z = 0, 2


@dataclass(frozen=True)
class Opening:
    """A hole through a part: the box cut out (LDraw corners `lo`, `hi`), the axis sight passes
    along (X or Z), and `frame`, a point of the part beside the hole (a ray through it hits)."""

    lo: tuple[float, float, float]
    hi: tuple[float, float, float]
    axis: int
    frame: tuple[float, float, float]

    @property
    def box(self) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
        return self.lo, self.hi


def _grid(xs, ys, depth: float, frame_x: float, skip=()) -> list[Opening]:
    """Openings on a grid of x and y spans through +-depth along Z (frames probed at frame_x)."""
    return [Opening((x0, y0, -depth), (x1, y1, depth), Z, (frame_x, (y0 + y1) / 2, 0.0))
            for y0, y1 in ys for x0, x1 in xs if (x0, y0) not in skip]


BARRED_X = ((6.0, 18.0), (26.0, 38.0), (46.0, 58.0))
BARRED_Y = ((9.0, 46.0), (51.0, 89.0), (94.0, 131.0))
OPENINGS: dict[str, list[Opening]] = {
    "60594": [Opening((-34.0, 6.0, -10.0), (34.0, 64.0, 10.0), Z, (37.0, 35.0, 0.0))],
    "60596": [Opening((-34.0, 6.0, -10.0), (34.0, 136.0, 10.0), Z, (37.0, 70.0, 0.0))],
    "30179": [Opening((-32.0, 8.0, -10.0), (32.0, 144.0, 10.0), Z, (36.0, 70.0, 0.0))],
    "3853": [Opening((-36.0, 4.0, -12.0), (36.0, 60.0, 10.0), Z, (38.0, 30.0, 0.0))],
    "60623": _grid(((4.0, 29.0), (35.0, 60.0)), ((13.0, 33.0), (39.0, 59.0)), 2.0, 32.0),
    "60621": _grid(BARRED_X, BARRED_Y, 4.0, 22.0, skip=((46.0, 51.0),))
    + [Opening((46.0, 51.0, -4.0), (58.0, 60.0, 4.0), Z, (22.0, 55.5, 0.0)),
       Opening((46.0, 80.0, -4.0), (58.0, 89.0, 4.0), Z, (22.0, 84.5, 0.0))],
    "3854": [Opening((-2.0, y0, -30.0), (2.0, y1, -2.0), X, (0.0, 30.0, -16.0)) for y0, y1 in ((4.0, 28.0),
                                                                                                (32.0, 56.0))],
    "3633": [Opening((x0, 4.0, -2.0), (x1, 16.0, 2.0), Z, (x1 + 2.0, 10.0, 0.0))
             for x0, x1 in ((-36.0, -22.0), (-18.0, -2.0), (2.0, 18.0), (22.0, 36.0))],
    "3455": [Opening((-40.0, 17.0, -10.0), (40.0, 24.0, 10.0), Z, (45.0, 20.0, 0.0)),
             Opening((-34.0, 14.0, -10.0), (34.0, 17.0, 10.0), Z, (37.0, 15.5, 0.0)),
             Opening((-24.0, 11.0, -10.0), (24.0, 14.0, 10.0), Z, (0.0, 5.0, 0.0))],
}


def _holes(number: str) -> list:
    return [o.box for o in OPENINGS[number]]


def frame(number: str, description: str, height: float) -> Part:
    """A 1x4 frame (window or door) `height` LDU tall with one opening and two studs on top."""
    body = union([((-40.0, 0.0, -10.0), (40.0, height, 10.0))], holes=_holes(number))
    return Part(f"{number}.dat", description, [body], stud_grid(2, 1))


def old_window() -> Part:
    """3853: the classic 1x4x3 window frame, with a lintel and a sill standing out in front."""
    boxes = [((-40.0, 0.0, -12.0), (40.0, 72.0, 10.0)), ((-44.0, 0.0, -16.0), (44.0, 4.0, 10.0)),
             ((-44.0, 60.0, -16.0), (44.0, 68.0, 10.0))]
    return Part("3853.dat", "Window  1 x  4 x  3", [union(boxes, holes=_holes("3853"))], stud_grid(2, 1))


def window_pane() -> Part:
    """3854: a lattice pane for 3853, hinged at its origin, two panes of glass-less lattice."""
    body = union([((-2.0, -1.0, -34.0), (2.0, 61.0, 2.0))], holes=_holes("3854"))
    return Part("3854.dat", "Window  1 x  2 x  3 Pane", [body])


def door() -> Part:
    """60623: a door leaf hinged at its origin, four panes open, a stud handle on both faces."""
    leaf = union([((-3.0, 5.0, -2.0), (67.0, 135.0, 2.0)), ((52.0, 62.0, -3.0), (64.0, 74.0, 3.0))],
                 holes=_holes("60623"))
    hinges = [cylinder(4.0, y0, y1, sides=8) for y0, y1 in ((3.0, 15.0), (125.0, 137.0))]
    handles = [Ref("stud.dat", (58.0, 68.0, -3.0), STUD_TOWARDS_MINUS_Z),
               Ref("stud.dat", (58.0, 68.0, 3.0), STUD_TOWARDS_PLUS_Z)]
    return Part("60623.dat", "Door  1 x  4 x  6 with 4 Panes and Stud Handle", [leaf, *hinges], handles)


def fence() -> Part:
    """3633: a 1x4x1 fence, a thin lattice with four gaps on a full-width base, no studs."""
    body = union([((-40.0, 16.0, -10.0), (40.0, 24.0, 10.0)), ((-40.0, 0.0, -2.0), (40.0, 16.0, 2.0))],
                 holes=_holes("3633"))
    return Part("3633.dat", "Fence Lattice  1 x  4 x  1", [body])


def frame_type_1() -> Part:
    """30179: a 1x4x6 door frame without a sill (open to the floor), four studs on top."""
    body = union([((-40.0, 0.0, -10.0), (40.0, 144.0, 10.0))], holes=_holes("30179"))
    return Part("30179.dat", "Door  1 x  4 x  6 Frame Type 1", [body], stud_grid(4, 1))


def barred_door() -> Part:
    """60621: a door leaf hinged at its origin, nine slots between bars, a stud handle each side."""
    leaf = union([((-2.0, 4.5, -4.0), (68.0, 136.0, 4.0))], holes=_holes("60621"))
    hinges = [cylinder(4.0, y0, y1, sides=8) for y0, y1 in ((2.75, 14.0), (126.0, 137.25))]
    handles = [Ref("stud.dat", (58.0, 70.0, -4.0), STUD_TOWARDS_MINUS_Z),
               Ref("stud.dat", (58.0, 70.0, 4.0), STUD_TOWARDS_PLUS_Z)]
    return Part("60621.dat", "Door  1 x  4 x  6 Barred", [leaf, *hinges], handles)


def arch() -> Part:
    """3455: a 1x6 arch, its vault cut in three steps under a brick-high span."""
    body = union([((-60.0, 0.0, -10.0), (60.0, 24.0, 10.0))], holes=_holes("3455"))
    return Part("3455.dat", "Arch  1 x  6", [body], studs([(x, 0.0, 0.0) for x in (-50, -30, -10, 10, 30, 50)]))


def parts() -> list[Part]:
    """Every part with an opening."""
    return [frame("60594", "Window  1 x  4 x  3 without Shutter Tabs", 72.0),
            frame("60596", "Door  1 x  4 x  6 Frame", 144.0), old_window(), window_pane(), door(), fence(),
            frame_type_1(), barred_door(), arch()]
