"""Trees, bushes, leaves and rock panels of the starter library.

Layer: ldraw (generator side), LDU, LDraw frame (-Y up). Trees and the bush are solids of
revolution whose profiles follow the official parts' silhouettes (crown radius and height,
trunk, round base); leaves are flat plates on the official outline; rock panels are stepped
height maps whose tops carry the official studs.
"""

from __future__ import annotations

from bow3d.ldraw.starter.geometry import hull_prism, lathe, union
from bow3d.ldraw.starter.part import Part, studs

# (radius, y) from the foot up; radii to the polygon corners (12 sides, corners on the axes)
TREES = {
    "3470": ("Plant Tree Oval  4 x  4 x  6",
             [(26, 8), (26, 0), (7, 0), (7, -32), (18, -36), (30, -46), (40, -58), (42.82, -72), (42.82, -96),
              (38, -112), (29, -126), (16, -135.88)]),
    "3471": ("Plant Tree Pyramidal  4 x  4 x  6.667 Type 1",
             [(26, 8), (26, 0), (7, 0), (7, -31), (43.95, -31), (34, -58), (24, -86), (14, -114), (8, -139),
              (6, -151)]),
    "2435": ("Plant Tree Pyramidal  3 x  3 x  4",
             [(26, 8), (26, 0), (7, 0), (7, -10), (31.94, -10), (22, -40), (12, -70), (6, -80), (5, -91)]),
    "6064": ("Plant Bush",
             [(22, 0), (30, -12), (36, -30), (38.61, -50), (38.61, -70), (35, -90), (28, -104), (16, -116)]),
}

# Leaves: outline corners (x, z) of the flat plate (y from 0 to 8) and stud positions (x, z)
LEAVES = {
    "2423": ("Plant Leaves  4 x  3",
             [(-10, 10), (10, 10), (26, -14), (26, -46), (10, -68), (-10, -68), (-26, -46), (-26, -14)],
             [(0, 0), (-20, -20), (20, -20), (-20, -40), (20, -40), (0, -60)]),
    "2417": ("Plant Leaves  6 x  5",
             [(-48, 48), (48, 48), (48, -10), (30, -50), (10, -68), (-10, -68), (-30, -50), (-48, -10)],
             [(40, 40), (20, 40), (-20, 40), (-40, 40), (40, 20), (-40, 20), (40, 0), (0, 0), (-40, 0),
              (20, -20), (-20, -20), (20, -40), (-20, -40), (0, -60)]),
}

# Rock panels: stud-cell centres x and z, bottom y, and the top y of each column (rows by z, None =
# a column without a stud, whose top is `fill`). Tops follow the official studs except where two
# columns would touch only along an edge (not a closed solid): there the lower one is raised.
ROCKS = {
    "6082": ("Panel  4 x 10 x  6 Rock Rectangular", [90, 70, 50, 30, 10, -10, -30, -50, -70, -90],
             [-30, -10, 10, 30], 144.0, 48.0,
             [[120, 48, None, 48, 0, 96, 96, 120, 120, 120],
              [96, 24, 0, 0, 0, 0, 0, 0, 24, 96],
              [24, 0, 0, None, None, None, None, 0, 0, 24],
              [24, 0, 8, None, None, None, None, 8, 0, 24]]),
    "6083": ("Panel  3 x  8 x  7 Rock Triangular", [70, 50, 30, 10, -10, -30, -50, -70], [20, 0, -20], 168.0, 0.0,
             [[120, 72, 24, 0, 0, 24, 72, 120],
              [120, 72, 48, 24, 24, 48, 72, 120],
              [144, 96, 72, 96, 144, 72, 96, 144]]),
}


def tree(number: str, description: str, profile) -> Part:
    """A tree or bush as one solid of revolution about the part's vertical axis."""
    return Part(f"{number}.dat", description, [lathe(profile, sides=12, crease_deg=50.0)])


def leaves(number: str, description: str, outline, stud_xz) -> Part:
    """A plate of leaves: the outline extruded 8 LDU, studs on top."""
    body = hull_prism([(z, x) for x, z in outline], axis=1, w0=0.0, w1=8.0)
    return Part(f"{number}.dat", description, [body], studs([(x, 0.0, z) for x, z in stud_xz]))


def rock(number: str, description: str, xs, zs, bottom: float, fill: float, tops) -> Part:
    """A rock panel: one column per stud cell from `bottom` up to its top, studs on the tops."""
    boxes, stud_at = [], []
    for z, row in zip(zs, tops):
        for x, top in zip(xs, row):
            y = fill if top is None else float(top)
            boxes.append(((x - 10.0, y, z - 10.0), (x + 10.0, bottom, z + 10.0)))
            if top is not None:
                stud_at.append((x, y, z))
    return Part(f"{number}.dat", description, [union(boxes)], studs(stud_at))


ROCK_BOTTOM = [(38.0, 8.0), (40.0, 0.0), (36.0, -18.0), (26.0, -31.0), (12.0, -37.25)]  # (radius, y)


def rock_bottoms() -> list[Part]:
    """42291 (and its alias 30294): a low, eight-faceted rock 4x4 studs across."""
    return [Part(f"{n}.dat", "Rock  4 x  4 x  1.667 Bottom", [lathe(ROCK_BOTTOM, sides=8, crease_deg=30.0)])
            for n in ("42291", "30294")]


def parts() -> list[Part]:
    """Every plant and rock part."""
    out = [tree(n, d, p) for n, (d, p) in TREES.items()]
    out += [leaves(n, d, o, s) for n, (d, o, s) in LEAVES.items()]
    out += [rock(n, *spec) for n, spec in ROCKS.items()] + rock_bottoms()
    return out
