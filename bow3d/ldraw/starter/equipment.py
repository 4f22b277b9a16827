"""Minifigure equipment of the starter library: weapons, shields, torch.

Layer: ldraw (generator side), LDU, LDraw frame (-Y up). Like the official parts, each item's
origin is where the hand holds it (a grip 4 LDU thick along the hand's slot), so an item placed
with the official matrices sits in the hand; outlines follow the official bounding boxes.
"""

from __future__ import annotations

from bow3d.ldraw.starter.geometry import cylinder, hull_prism, union
from bow3d.ldraw.starter.part import Part

# part -> (description, boxes (lo, hi) whose union is the item)
ITEMS = {
    "3847": ("Minifig Sword Shortsword",
             [((-1.0, -58.0, -4.0), (1.0, -8.0, 4.0)), ((-4.0, -8.0, -16.0), (4.0, -4.0, 16.0)),
              ((-2.0, -4.0, -2.0), (2.0, 18.0, 2.0)), ((-3.0, 18.0, -3.0), (3.0, 22.0, 3.0))]),
    "2530": ("Minifig Sword Cutlass",
             [((-1.0, -62.0, -8.0), (1.0, -8.0, 2.0)), ((-6.0, -8.0, -12.0), (6.0, -2.0, 8.0)),
              ((-2.0, -2.0, -2.0), (2.0, 10.0, 2.0)), ((-3.0, 10.0, -3.0), (3.0, 14.0, 3.0))]),
    "2561": ("Minifig Gun Musket",
             [((-2.0, -34.0, -4.0), (2.0, 24.0, 4.0)), ((-6.0, 20.0, -8.0), (6.0, 32.0, 12.0)),
              ((-3.0, 32.0, -14.0), (3.0, 52.0, 0.0)), ((-3.0, 52.0, -22.34), (3.0, 75.66, -6.0))]),
    "2562": ("Minifig Gun Flintlock Pistol",
             [((-2.0, -32.39, -33.71), (2.0, -22.0, 2.0)), ((-6.0, -26.0, -14.0), (6.0, -16.0, 5.0)),
              ((-2.0, -16.0, -4.0), (2.0, 10.0, 5.0))]),
    "30141": ("Minifig Gun Rifle",
              [((-2.5, -16.76, -72.0), (2.5, -8.0, 37.36)), ((-2.5, -8.0, -16.0), (2.5, -2.0, 36.0)),
               ((-2.0, -2.0, -6.0), (2.0, 6.0, 2.0)), ((-4.84, -12.0, -30.0), (4.84, -8.0, -20.0))]),
    "4499": ("Minifig Bow with Arrow",
             [((-2.0, -57.33, 10.0), (2.0, -45.0, 16.0)), ((-2.0, -45.0, 4.0), (2.0, -30.0, 12.0)),
              ((-2.0, -30.0, -1.0), (2.0, 20.0, 5.0)), ((-2.0, 20.0, 4.0), (2.0, 32.63, 12.0)),
              ((-1.0, -17.0, -24.0), (1.0, -13.0, 44.5)), ((-4.0, -17.0, 36.0), (4.0, -13.0, 44.5))]),
    "3848": ("Minifig Battleaxe",
             [((-2.0, -56.0, -4.0), (2.0, 60.0, 4.0)), ((-4.0, -62.0, -4.0), (4.0, -56.0, 4.0)),
              ((-1.5, -58.0, 4.0), (1.5, -26.0, 26.0))]),
    "3849": ("Minifig Lance",
             [((-3.0, -3.0, -150.0), (3.0, 3.0, 26.0)), ((-2.0, 3.0, -2.0), (2.0, 16.0, 2.0))]),
    "3959": ("Minifig Torch",
             [((-3.0, -3.0, -8.0), (3.0, 3.0, 28.0)), ((-2.0, 3.0, -2.0), (2.0, 16.0, 2.0))]),
}

# Round guards and heads along Z: part -> (radius, z0, z1)
DISCS = {"3849": (10.0, -14.0, -8.0), "3959": (10.0, -24.0, -6.0)}

# Shields: outline (x, y) of the plate, its depth z0..z1, and the clip behind it
SHIELDS = {
    "3846": ("Minifig Shield Triangular", [(-20, -14), (20, -14), (20, 6), (0, 32.37), (-20, 6)], (-10.0, -7.0),
             ((-3.0, -4.0, -8.0), (3.0, 4.0, 14.0))),
    "2586": ("Minifig Shield Ovoid", [(-12, -34.5), (12, -34.5), (20, -26), (20, 10), (8, 37.5), (-8, 37.5),
                                      (-20, 10), (-20, -26)], (-8.0, -5.0), ((-3.0, -4.0, -6.0), (3.0, 4.0, 8.0))),
}


def item(number: str, description: str, boxes) -> Part:
    """A hand-held item: the union of its boxes, plus a round guard or head where it has one."""
    shells = [union(boxes)]
    if number in DISCS:
        radius, z0, z1 = DISCS[number]
        shells.append(cylinder(radius, z0, z1, sides=16, axis=2))
    return Part(f"{number}.dat", description, shells)


def shield(number: str, description: str, outline, depth, clip) -> Part:
    """A shield: a plate on the official outline and the clip the hand holds."""
    plate = hull_prism(outline, axis=2, w0=depth[0], w1=depth[1])
    return Part(f"{number}.dat", description, [plate, union([clip])])


def parts() -> list[Part]:
    """Every item of equipment."""
    return [item(n, d, b) for n, (d, b) in ITEMS.items()] + [shield(n, *s) for n, s in SHIELDS.items()]
