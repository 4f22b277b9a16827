"""Bricks, plates, tiles, baseplates, slopes, round bricks, cones, corners, logs: starter library.

Layer: ldraw (generator side), LDU, LDraw frame (-Y up). Official conventions: the origin is
the centre of the top face (stud bases at y = 0), a brick is 24 LDU high, a plate 8, a
baseplate 4, one stud pitch 20. Bodies are solid boxes (no hollow underside: simplified).
"""

from __future__ import annotations

import numpy as np

from bow3d.ldraw.starter.geometry import box, cylinder, lathe, prism, union
from bow3d.ldraw.starter.part import Part, stud_grid, studs

BRICK, PLATE, BASEPLATE = 24.0, 8.0, 4.0

# part number -> (description, studs along X, studs along Z, height in LDU)
BLOCKS = {
    "3005": ("Brick  1 x  1", 1, 1, BRICK), "3004": ("Brick  1 x  2", 2, 1, BRICK),
    "3622": ("Brick  1 x  3", 3, 1, BRICK), "3010": ("Brick  1 x  4", 4, 1, BRICK),
    "3009": ("Brick  1 x  6", 6, 1, BRICK), "3008": ("Brick  1 x  8", 8, 1, BRICK),
    "3003": ("Brick  2 x  2", 2, 2, BRICK), "3002": ("Brick  2 x  3", 3, 2, BRICK),
    "3001": ("Brick  2 x  4", 4, 2, BRICK), "3007": ("Brick  2 x  8", 8, 2, BRICK),
    "3006": ("Brick  2 x 10", 10, 2, BRICK), "2465": ("Brick  1 x 16", 16, 1, BRICK),
    "2454": ("Brick  1 x  2 x  5", 2, 1, 5 * BRICK),
    "3245c": ("Brick  1 x  2 x  2 without Understud", 2, 1, 2 * BRICK),
    "3024": ("Plate  1 x  1", 1, 1, PLATE), "3023": ("Plate  1 x  2", 2, 1, PLATE),
    "3023b": ("Plate  1 x  2", 2, 1, PLATE),
    "3710": ("Plate  1 x  4", 4, 1, PLATE), "3666": ("Plate  1 x  6", 6, 1, PLATE),
    "3460": ("Plate  1 x  8", 8, 1, PLATE), "3022": ("Plate  2 x  2", 2, 2, PLATE),
    "3021": ("Plate  2 x  3", 3, 2, PLATE), "3020": ("Plate  2 x  4", 4, 2, PLATE),
    "3795": ("Plate  2 x  6", 6, 2, PLATE), "3034": ("Plate  2 x  8", 8, 2, PLATE),
    "3958": ("Plate  6 x  6", 6, 6, PLATE), "3036": ("Plate  6 x  8", 8, 6, PLATE),
    "3035": ("Plate  4 x  8", 8, 4, PLATE),
    "3811": ("Baseplate 32 x 32", 32, 32, BASEPLATE), "3867": ("Baseplate 16 x 16", 16, 16, BASEPLATE),
    "4186": ("Baseplate 48 x 48", 48, 48, BASEPLATE),
    "3857": ("Baseplate 16 x 32", 32, 16, BASEPLATE),
}
TILES = {"3070b": ("Tile  1 x  1 with Groove", 1, 1), "3069b": ("Tile  1 x  2 with Groove", 2, 1),
         "3068b": ("Tile  2 x  2 with Groove", 2, 2), "2412a": ("Tile  1 x  2 Grille without Groove", 2, 1),
         "2412": ("Tile  1 x  2 Grille", 2, 1)}
SLOPES = {"3040": ("Slope Brick 45  2 x  1", 1), "3040b": ("Slope Brick 45  2 x  1", 1),
          "3039": ("Slope Brick 45  2 x  2", 2),
          "3038": ("Slope Brick 45  2 x  3", 3), "3037": ("Slope Brick 45  2 x  4", 4)}


def block(number: str, description: str, nx: int, nz: int, height: float) -> Part:
    """A rectangular brick, plate or baseplate with a stud on every cell."""
    body = box((-10.0 * nx, 0.0, -10.0 * nz), (10.0 * nx, height, 10.0 * nz))
    return Part(f"{number}.dat", description, [body], stud_grid(nx, nz))


def tile(number: str, description: str, nx: int, nz: int) -> Part:
    """A plate without studs (the groove at its foot is left out)."""
    return Part(f"{number}.dat", description, [box((-10.0 * nx, 0.0, -10.0 * nz), (10.0 * nx, PLATE, 10.0 * nz))])


def slope(number: str, description: str, nx: int) -> Part:
    """A 45-degree slope, two studs deep: a flat top row at z in [-10, 10] with studs, the slope
    falling towards -Z to a 4 LDU lip at z = -30."""
    section = [(0.0, 10.0), (0.0, -10.0), (20.0, -30.0), (24.0, -30.0), (24.0, 10.0)]  # (y, z)
    body = prism(section, axis=0, w0=-10.0 * nx, w1=10.0 * nx)
    return Part(f"{number}.dat", description, [body], stud_grid(nx, 1))


def corner_brick() -> Part:
    """2357: an L of three 1x1 cells, origin at the corner stud."""
    body = union([((-10.0, 0.0, -10.0), (30.0, BRICK, 10.0)), ((-10.0, 0.0, -10.0), (10.0, BRICK, 30.0))])
    return Part("2357.dat", "Brick  2 x  2 Corner", [body], studs([(0, 0, 0), (20, 0, 0), (0, 0, 20)]))


def round_parts() -> list[Part]:
    """Round bricks and plates: 16-sided prisms whose corners touch the official outline."""
    return [
        Part("3062b.dat", "Brick  1 x  1 Round with Hollow Stud", [cylinder(10.0, 0.0, BRICK, sides=16)],
             studs([(0, 0, 0)])),
        Part("4073.dat", "Plate  1 x  1 Round", [cylinder(10.0, 0.0, PLATE, sides=16)], studs([(0, 0, 0)])),
        Part("6141.dat", "Plate  1 x  1 Round", [cylinder(10.0, 0.0, PLATE, sides=16)], studs([(0, 0, 0)])),
        Part("4589.dat", "Cone  1 x  1", [lathe([(10.0, BRICK), (10.0, 20.0), (4.5, 0.0)], sides=16)],
             studs([(0, 0, 0)])),
        Part("3941.dat", "Brick  2 x  2 Round", [cylinder(20.0, 0.0, BRICK, sides=16)], stud_grid(2, 2)),
    ]


def slope_33() -> Part:
    """3298: a 33-degree slope 3 studs deep, 2 wide: flat top row with studs, a long fall to -Z."""
    section = [(0.0, 10.0), (0.0, -10.0), (20.0, -50.0), (24.0, -50.0), (24.0, 10.0)]  # (y, z)
    return Part("3298.dat", "Slope Brick 33  3 x  2", [prism(section, axis=0, w0=-20.0, w1=20.0)], stud_grid(2, 1))


def shutter_brick() -> Part:
    """3581: a 1x1x2 brick with two shutter holders standing out in front (towards -Z)."""
    body = union([((-10.0, 0.0, -10.0), (10.0, 48.0, 10.0)), ((-3.0, 0.0, -16.0), (3.0, 8.0, -10.0)),
                  ((-3.0, 40.0, -16.0), (3.0, 48.0, -10.0))])
    return Part("3581.dat", "Brick  1 x  1 x  2 with Shutter Holder", [body], studs([(0, 0, 0)]))


def corner_round() -> Part:
    """2577: a quarter-round 4x4 brick, the corner at the origin, curving round x > 0, z < 0."""
    t = np.linspace(0.0, np.pi / 2, 9)
    outline = [(0.0, 0.0)] + [(-80.0 * np.sin(a), 80.0 * np.cos(a)) for a in t]  # (z, x)
    body = prism(outline, axis=1, w0=0.0, w1=BRICK)
    cells = [(x, 0, z) for x in (10, 30, 50) for z in (-10, -30, -50)] + [(70, 0, -10), (10, 0, -70)]
    return Part("2577.dat", "Brick  4 x  4 Corner Round", [body], studs(cells))


def log(number: str, description: str, nx: int, half_depth: float) -> Part:
    """A log brick: two round logs along X (oval, `half_depth` LDU to the front and back) on a core."""
    core = box((-10.0 * nx, 1.0, -7.0), (10.0 * nx, BRICK - 1.0, 7.0))
    squash = np.diag([1.0, 1.0, half_depth / 5.95])
    logs = [cylinder(5.95, -10.0 * nx, 10.0 * nx, sides=8, centre=(y, 0.0), axis=0, flat_on_axes=True).moved(squash)
            for y in (6.0, 18.0)]
    return Part(f"{number}.dat", description, [core, *logs], stud_grid(nx, 1))


def parts() -> list[Part]:
    """Every brick-like part of the starter library."""
    out = [block(n, d, nx, nz, h) for n, (d, nx, nz, h) in BLOCKS.items()]
    out += [tile(n, d, nx, nz) for n, (d, nx, nz) in TILES.items()]
    out += [slope(n, d, nx) for n, (d, nx) in SLOPES.items()]
    out += [corner_brick(), *round_parts(), slope_33(), shutter_brick(), corner_round(),
            log("30136", "Brick  1 x  2 Log", 2, 9.9),
            log("30137", "Brick  1 x  4 Log", 4, 10.0)]
    return out


__all__ = ["BLOCKS", "SLOPES", "TILES", "parts"]
