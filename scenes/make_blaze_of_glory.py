"""Generate the bundled Blaze of Glory town: western-town.ldr (the decor), western-town.yaml (the scene)
and its figures (figures/western-*.ldr).

Run from the repository root (deterministic: the same bytes every time); scenes/make_scenes.py
writes these files with the others (its --out writes the same tree elsewhere):

    python scenes/make_blaze_of_glory.py             # rewrites the western town's files in scenes/
    python scenes/make_blaze_of_glory.py --out DIR

The town, 96 x 64 studs of tan baseplates (30 x 20 inches; 1 inch = 3.175 studs), LDraw's corner at
the origin (scene [x, y] studs = LDraw (X, Z) / 20), heights in stories of six bricks:
- Main Street runs east-west (y 24-40 studs) between two boardwalks of reddish brown plates;
- north side: the SALOON (two stories: a balcony at the first floor with a balustrade, the upper
  rooms' roof at the second floor with a parapet), the GENERAL STORE (a flat roof at the first floor
  behind a false front), the BARBER's (a flat roof at the first floor, 4 studs - 1.26 inches - from
  the store's: a roof leap) and the BANK (a roof at the second floor behind a parapet);
- south side: the SHERIFF's office and the HOTEL, their roofs lifted off like a tabletop building's
  (their rooms are played in: windows with sills 56 LDU up), and the LIVERY's corral of low wooden
  walls with a horse;
- in the street: water troughs (6 x 2 studs, two bricks high), crates (2 x 2 studs, two bricks and a
  tile; some stacked two high), barrels (2489), a low stone wall at the west end.
Windows have no glass (sight passes through them); every part is in the bundled starter library.
Figures: lawmen and citizens (the Goodies) and outlaws (the Baddies) with cowboy hats (3629),
revolvers (30132), rifles (30141) and scatter guns (2561); standard minifigs, soles at Y = 0,
facing LDraw -Z like every bundled figure.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bricks import (
    BRICK,
    BRICKS_1XN,
    GRIP,
    I3,
    L_ARM,
    L_ARM_POS,
    L_HAND,
    L_HAND_POS,
    LEG_PIVOT_Y,
    PLATE,
    PLATES_1XN,
    R_ARM,
    R_ARM_POS,
    R_HAND,
    R_HAND_POS,
    SOLES_Y,
    STUD,
    baseplates,
    header,
    part,
    row_1xn,
    rx,
    ry,
    split_run,
)

HERE = Path(__file__).resolve().parent
TOWN_X, TOWN_Y = 96, 64
TAN, DARK_TAN, BROWN, REDDISH_BROWN, DARK_BROWN = 19, 28, 6, 70, 308
WHITE, BLACK, GREY, DARK_GREY, RED, BLUE, GREEN, DARK_RED, SAND_BLUE = 15, 0, 71, 72, 4, 1, 2, 320, 379
TRANS_BLUE = 43


# ---------------------------------------------------------------- building blocks at any height

def plates(colour: int, x0: int, z0: int, sx: int, sz: int, y_top: float) -> list[str]:
    """A rectangle of plates whose tops are at LDraw Y `y_top`: N x 8 plates, 1 x N rows for the rest."""
    pieces = {6: "3036.dat", 4: "3035.dat", 2: "3034.dat"}
    lines, x = [], x0
    while x < x0 + sx:
        run = min(8, x0 + sx - x)
        z = z0
        if run == 8:
            for size in split_run(sz, (6, 4, 2)):
                lines.append(part(colour, (STUD * (x + 4), y_top, STUD * (z + size / 2)), I3, pieces[size]))
                z += size
        while z < z0 + sz:
            lines += row_1xn(colour, x, z, run, True, y_top, PLATES_1XN)
            z += 1
        x += run
    return lines


def wall_at(colour: int, x0: int, z0: int, length: int, along_x: bool, courses: int, y0: float,
            openings=(), bond: int = 0) -> list[str]:
    """A 1-stud-thick wall standing on LDraw Y `y0`; openings = [(offset, width, first course, last course)]."""
    lines = []
    for c in range(courses):
        free, start = [], 0
        cut = sorted((o, o + w) for o, w, c0, c1 in openings if c0 <= c <= c1)
        for a, b in cut + [(length, length)]:
            if a > start:
                free.append((start, a - start))
            start = max(start, b)
        for offset, run in free:
            first = 2 if (c + bond) % 2 and run > 3 else None
            x, z = (x0 + offset, z0) if along_x else (x0, z0 + offset)
            lines += row_1xn(colour, x, z, run, along_x, y0 - BRICK * (c + 1), BRICKS_1XN, first)
    return lines


def frame(colour: int, name: str, x0: int, z0: int, offset: int, along_x: bool, y_top: float) -> str:
    """A window or door frame (4 studs wide, origin at its top) set in a wall at `offset`."""
    mid = offset + 2
    pos = (STUD * (x0 + mid), y_top, STUD * (z0 + 0.5)) if along_x else (STUD * (x0 + 0.5), y_top, STUD * (z0 + mid))
    return part(colour, pos, I3 if along_x else ry(90), name)


def storey(x0: int, z0: int, width: int, depth: int, colour: int, frame_colour: int, y0: float, courses: int = 6,
           doors=(), windows=()) -> list[str]:
    """Four walls of one storey on LDraw Y `y0`, interlocking corners; doors (60596, open: no leaf in the way)
    and windows (60594, no glass, sill 56 LDU above the floor) as [(side, offset)]."""
    sides = {"south": (x0, z0, width, True), "north": (x0, z0 + depth - 1, width, True),
             "west": (x0, z0, depth, False), "east": (x0 + width - 1, z0, depth, False)}
    lines = [f"0 // storey at studs ({x0}, {z0}), {width} x {depth}, floor at LDraw Y {y0:g}"]
    for name, (wx, wz, length, along_x) in sides.items():
        openings = [(o, 4, 0, 5) for s, o in doors if s == name] + [(o, 4, 2, 4) for s, o in windows if s == name]
        for c in range(courses):
            own = (c % 2 == 0) == along_x
            lo, n = (0, length) if own else (1, length - 2)
            sx, sz = (wx + lo, wz) if along_x else (wx, wz + lo)
            shifted = [(o - lo, w, c0 - c, c1 - c) for o, w, c0, c1 in openings]
            lines += wall_at(colour, sx, sz, n, along_x, 1, y0 - BRICK * c, shifted, bond=c)
        for s, o in doors:
            if s == name:
                lines.append(frame(frame_colour, "60596.dat", wx, wz, o, along_x, y0 - BRICK * 6))
        for s, o in windows:
            if s == name:
                lines.append(frame(frame_colour, "60594.dat", wx, wz, o, along_x, y0 - BRICK * 5))
    return lines


def flat_roof(x0: int, z0: int, width: int, depth: int, y_walls: float, colour: int, rim_colour: int,
              rim: int = 1, rim_sides=("south", "north", "west", "east")) -> list[str]:
    """Plates over the walls (their tops at `y_walls`) and a rim `rim` courses high on the given sides."""
    y_roof = y_walls - PLATE
    lines = plates(colour, x0, z0, width, depth, y_roof)
    runs = {"south": (x0, z0, width, True), "north": (x0, z0 + depth - 1, width, True),
            "west": (x0, z0 + 1, depth - 2, False), "east": (x0 + width - 1, z0 + 1, depth - 2, False)}
    for side in rim_sides:
        x, z, n, along_x = runs[side]
        lines += wall_at(rim_colour, x, z, n, along_x, rim, y_roof)
    return lines


def crate(x: float, z: float, high: int = 1) -> list[str]:
    """A crate: 2 x 2 reddish brown bricks, two per crate, a tan tile lid; `high` crates stacked."""
    lines = [part(REDDISH_BROWN, (STUD * x, -BRICK * (c + 1), STUD * z), I3, "3003.dat") for c in range(2 * high)]
    return lines + [part(TAN, (STUD * x, -BRICK * 2 * high - PLATE, STUD * z), I3, "3068b.dat")]


def trough(x0: int, z0: int, along_x: bool = True) -> list[str]:
    """A water trough 6 x 2 studs, two bricks high, water (trans blue plates) just under the rim."""
    lines = []
    for c in range(2):
        for k in (0, 1):
            x, z = (x0, z0 + k) if along_x else (x0 + k, z0)
            lines += row_1xn(REDDISH_BROWN, x, z, 6, along_x, -BRICK * (c + 1), BRICKS_1XN)
    x, z = (x0 + 1, z0) if along_x else (x0, z0 + 1)
    for k in (0, 1):
        xx, zz = (x, z + k) if along_x else (x + k, z)
        lines += row_1xn(TRANS_BLUE, xx, zz, 4, along_x, -2 * BRICK - PLATE, PLATES_1XN)
    return lines


def barrel(x: float, z: float, colour: int = BROWN) -> str:
    """A barrel (2489): its origin at its top, 40 LDU above the ground."""
    return part(colour, (STUD * x, -40, STUD * z), I3, "2489.dat")


def boardwalk(x0: int, z0: int, length: int, depth: int) -> list[str]:
    return [f"0 // boardwalk at studs ({x0}, {z0}), {length} x {depth}"] + plates(REDDISH_BROWN, x0, z0, length, depth,
                                                                                  -PLATE)


# ---------------------------------------------------------------- the town

def saloon() -> list[str]:
    """Two stories: the bar room (roofed: its roof is the balcony and the upper floor) and the upper rooms,
    set back 6 studs so that a balcony runs along the front at the first floor, behind a balustrade."""
    x0, z0, w, d = 6, 44, 22, 16
    L = ["0 // THE SALOON: two stories, a balcony at the first floor, the upper roof at the second"]
    L += storey(x0, z0, w, d, REDDISH_BROWN, WHITE, 0, doors=[("south", 9)], windows=[("south", 2), ("south", 16),
                                                                                       ("east", 6), ("west", 6)])
    L += flat_roof(x0, z0, w, d, -6 * BRICK, DARK_BROWN, REDDISH_BROWN, rim=0)
    floor = -6 * BRICK - PLATE
    L += ["0 // the balcony's balustrade: a brick and a plate rail along the front"]
    L += wall_at(REDDISH_BROWN, x0, z0, w, True, 1, floor)
    L += row_1xn(TAN, x0, z0, w, True, floor - BRICK - PLATE, PLATES_1XN)
    L += storey(x0, z0 + 6, w, d - 6, REDDISH_BROWN, WHITE, floor, windows=[("south", 3), ("south", 15)])
    L += flat_roof(x0, z0 + 6, w, d - 6, floor - 6 * BRICK, DARK_BROWN, TAN)
    return L


def store() -> list[str]:
    """One story, a flat roof behind a false front two courses above it."""
    x0, z0, w, d = 34, 44, 16, 14
    L = ["0 // THE GENERAL STORE: a flat roof at the first floor behind a false front"]
    L += storey(x0, z0, w, d, TAN, DARK_BROWN, 0, doors=[("south", 6)], windows=[("south", 1), ("south", 11)])
    L += flat_roof(x0, z0, w, d, -6 * BRICK, DARK_BROWN, TAN, rim=2, rim_sides=("south",))
    return L


def barber() -> list[str]:
    x0, z0, w, d = 54, 44, 10, 12
    L = ["0 // THE BARBER'S: a flat roof at the first floor, 4 studs from the store's"]
    L += storey(x0, z0, w, d, WHITE, RED, 0, doors=[("south", 3)])
    L += flat_roof(x0, z0, w, d, -6 * BRICK, DARK_GREY, WHITE, rim=1, rim_sides=("south",))
    return L


def bank() -> list[str]:
    x0, z0, w, d = 70, 44, 20, 16
    L = ["0 // THE BANK: two stories of stone, a roof at the second floor behind a parapet"]
    L += storey(x0, z0, w, d, GREY, DARK_GREY, 0, doors=[("south", 8)], windows=[("south", 2), ("south", 14)])
    L += storey(x0, z0, w, d, GREY, DARK_GREY, -6 * BRICK, windows=[("south", 2), ("south", 8), ("south", 14),
                                                                   ("west", 6)])
    L += flat_roof(x0, z0, w, d, -12 * BRICK, DARK_GREY, GREY)
    return L


def sheriff() -> list[str]:
    """One story, its roof lifted off: the office is played in; windows on the street and the west."""
    x0, z0, w, d = 8, 6, 16, 14
    L = ["0 // THE SHERIFF'S OFFICE: its roof lifted off, so the room is played in"]
    L += storey(x0, z0, w, d, DARK_TAN, DARK_BROWN, 0, doors=[("north", 6)], windows=[("north", 1), ("north", 11),
                                                                                       ("west", 5)])
    return L


def hotel() -> list[str]:
    x0, z0, w, d = 56, 6, 18, 14
    L = ["0 // THE HOTEL: its roof lifted off, the lobby is played in"]
    L += storey(x0, z0, w, d, SAND_BLUE, WHITE, 0, doors=[("north", 7)], windows=[("north", 2), ("north", 12),
                                                                                   ("east", 5)])
    return L


def corral() -> list[str]:
    """The livery's corral: low walls of reddish brown bricks (two courses), a gate to the street, a horse."""
    x0, z0, w, d = 30, 6, 18, 14
    L = ["0 // THE LIVERY CORRAL: low wooden walls two bricks high, a gate on the street, a horse"]
    L += wall_at(REDDISH_BROWN, x0, z0, w, True, 2, 0)
    L += wall_at(REDDISH_BROWN, x0, z0 + d - 1, 7, True, 2, 0)
    L += wall_at(REDDISH_BROWN, x0 + 11, z0 + d - 1, w - 11, True, 2, 0)
    L += wall_at(REDDISH_BROWN, x0, z0 + 1, d - 2, False, 2, 0)
    L += wall_at(REDDISH_BROWN, x0 + w - 1, z0 + 1, d - 2, False, 2, 0)
    L.append(part(BROWN, (STUD * 36, -57, STUD * 11), ry(90), "4493c01.dat"))
    L += [part(TAN, (STUD * 43, -BRICK, STUD * 10), I3, "3001.dat"),
          part(TAN, (STUD * 43, -2 * BRICK, STUD * 10), I3, "3001.dat")]
    return L


def street() -> list[str]:
    L = ["0 // MAIN STREET: troughs, crates, barrels, a low stone wall at the west end"]
    L += ["0 // water troughs"] + trough(47, 33, along_x=False) + trough(8, 36, along_x=True) + trough(80, 24)
    L += ["0 // crates (2 x 2 studs), some stacked two high"]
    L += crate(68, 26) + crate(68, 24) + crate(66, 22.5, high=2)
    L += crate(36, 36.5) + crate(38, 36.5, high=2)
    L += crate(26, 26) + crate(86, 37, high=2)
    L += ["0 // barrels"] + [barrel(x, z) for x, z in ((51, 38.5), (53.5, 38.5), (28, 22.5), (76, 22.5), (4, 22.5))]
    L += ["0 // a low stone wall at the west end of the street"] + wall_at(DARK_GREY, 1, 27, 10, False, 2, 0)
    return L


def town_decor() -> list[str]:
    L = header("Western town: the bundled Blaze of Glory table, 96 x 64 studs (decor only; figures in "
               "western-town.yaml)", "western-town.ldr")
    L += ["0 // ground: six 32 x 32 tan baseplates, corner at the origin"]
    L += baseplates(TOWN_X, TOWN_Y, TAN)
    L += boardwalk(2, 40, 92, 4) + boardwalk(2, 20, 92, 4)
    L += saloon() + store() + barber() + bank() + sheriff() + hotel() + corral() + street()
    return L + [""]


# ---------------------------------------------------------------- figures

ITEMS = {  # (part, rotation in the hand frame, offset of the item's origin from the grip)
    "revolver": ("30132.dat", rx(-90), (0, 0, 0)),
    "rifle": ("30141.dat", rx(-90), (0, 0, 0)),
    "shotgun": ("2561.dat", rx(-90), (0, 0, 0)),
}


def cowboy(torso: int, legs: int, hat_colour: int, right: str | None = None, left: str | None = None,
           hat: str = "3629.dat", item_colour: int = BLACK, arms: int | None = None) -> list[str]:
    """A standing minifig (facing -Z, soles at Y = 0) with a hat and a gun in one or both hands."""
    arms = torso if arms is None else arms
    lines = [(torso, np.zeros(3), I3, "973.dat"), (14, np.array([0, -24, 0]), I3, "3626bp01.dat"),
             (legs, np.array([0, 32, 0]), I3, "3815.dat"), (legs, np.array([0, LEG_PIVOT_Y, 0]), I3, "3816.dat"),
             (legs, np.array([0, LEG_PIVOT_Y, 0]), I3, "3817.dat"), (hat_colour, np.array([0, -24, 0]), I3, hat)]
    for arm_pos, arm, hand_pos, hand, name, item in ((R_ARM_POS, R_ARM, R_HAND_POS, R_HAND, "3818.dat", right),
                                                     (L_ARM_POS, L_ARM, L_HAND_POS, L_HAND, "3819.dat", left)):
        turn = rx(-45.0 if item else 0.0)
        lines.append((arms, arm_pos, turn @ arm, name))
        hp, hr = arm_pos + turn @ (hand_pos - arm_pos), turn @ hand
        lines.append((14, hp, hr, "3820.dat"))
        if item:
            item_part, rot, offset = ITEMS[item]
            lines.append((item_colour, hp + hr @ (GRIP + np.array(offset, dtype=float)), hr @ rot, item_part))
    return [part(c, pos - np.array([0, SOLES_Y, 0]), rot, name) for c, pos, rot, name in lines]


FIGURES = {  # file -> (title, cowboy() arguments)
    "western-marshal.ldr": ("Marshal: white shirt, black hat, two revolvers",
                            dict(torso=WHITE, legs=BLACK, hat_colour=BLACK, right="revolver", left="revolver")),
    "western-deputy-rifle.ldr": ("Deputy: tan shirt, brown hat, a rifle",
                                 dict(torso=TAN, legs=DARK_BROWN, hat_colour=BROWN, right="rifle", item_colour=BROWN)),
    "western-deputy-shotgun.ldr": ("Deputy: tan shirt, brown hat, a scatter gun",
                                   dict(torso=TAN, legs=DARK_BROWN, hat_colour=BROWN, right="shotgun",
                                        item_colour=BROWN)),
    "western-citizen-rifle.ldr": ("Citizen: green shirt, tan hat, a rifle",
                                  dict(torso=GREEN, legs=BLUE, hat_colour=TAN, right="rifle", item_colour=BROWN)),
    "western-clerk.ldr": ("The hotel clerk: white shirt, grey trousers, a tan hat, a rifle",
                          dict(torso=WHITE, legs=DARK_GREY, hat_colour=TAN, right="rifle", item_colour=BROWN)),
    "western-citizen-revolver.ldr": ("Citizen: blue shirt, a police hat (the town's constable), a revolver",
                                     dict(torso=BLUE, legs=BLUE, hat_colour=BLACK, hat="3624.dat", right="revolver")),
    "western-outlaw-boss.ldr": ("Outlaw boss: black shirt and hat, two revolvers",
                                dict(torso=BLACK, legs=BLACK, hat_colour=BLACK, right="revolver", left="revolver",
                                     item_colour=DARK_GREY)),
    "western-outlaw-rifle.ldr": ("Outlaw: dark red shirt, black hat, a rifle",
                                 dict(torso=DARK_RED, legs=BLACK, hat_colour=BLACK, right="rifle", item_colour=BROWN)),
    "western-outlaw-revolver.ldr": ("Outlaw: red shirt, brown hat, a revolver",
                                    dict(torso=RED, legs=DARK_BROWN, hat_colour=BROWN, right="revolver")),
    "western-outlaw-shotgun.ldr": ("Outlaw: dark brown shirt, black hat, a scatter gun",
                                   dict(torso=DARK_BROWN, legs=BLACK, hat_colour=BLACK, right="shotgun",
                                        item_colour=BROWN)),
}


def figure_files() -> dict[str, str]:
    out = {}
    for name, (title, spec) in FIGURES.items():
        lines = header(f"{title}: a standard minifig facing -Z, soles at Y = 0", name) + cowboy(**spec) + [""]
        out[f"figures/{name}"] = "\n".join(lines)
    return out


# ---------------------------------------------------------------- the scene file

SHEETS = {  # Blaze of Glory characters (Introduction: SHOOT, FISTICUFFS, REFLEXES, NERVE; level 1-4)
    "marshal": dict(level=4, shoot=6, fisticuffs=4, reflexes=5, nerve=5, weapons=["pistol", "pistol"],
                    skills=["quick draw", "true grit", "dead eye"]),
    "deputy-rifle": dict(level=2, shoot=4, fisticuffs=3, reflexes=4, nerve=4, weapons=["rifle", "pistol"],
                         skills=["sharpshooter"]),
    "deputy-shotgun": dict(level=2, shoot=4, fisticuffs=4, reflexes=3, nerve=4, weapons=["shotgun", "knife"],
                           skills=["nerves of steel"]),
    "citizen-rifle": dict(level=1, shoot=4, fisticuffs=2, reflexes=3, nerve=3, weapons=["rifle"]),
    "citizen-revolver": dict(level=1, shoot=3, fisticuffs=3, reflexes=3, nerve=3, weapons=["pistol"]),
    "outlaw-boss": dict(level=3, shoot=5, fisticuffs=4, reflexes=5, nerve=5, weapons=["pistol", "pistol", "knife"],
                        skills=["quick draw", "dodge and weave"]),
    "gunslinger": dict(level=3, shoot=4, fisticuffs=3, reflexes=4, nerve=4, weapons=["rifle", "pistol"],
                       skills=["sharpshooter", "blood brother"]),
    "brawler": dict(level=2, shoot=3, fisticuffs=5, reflexes=4, nerve=3, weapons=["pistol", "club"],
                    skills=["pugilist"]),
    "outlaw-shotgun": dict(level=1, shoot=3, fisticuffs=3, reflexes=3, nerve=3, weapons=["shotgun"]),
    "outlaw-rifle": dict(level=1, shoot=3, fisticuffs=3, reflexes=4, nerve=3, weapons=["rifle"]),
}

UNITS = [  # id, side, sheet, model, position [x, y] studs, facing degrees
    ("marshal", "law", "marshal", "western-marshal.ldr", (23.5, 26.0), 0),
    ("deputy-rifle", "law", "deputy-rifle", "western-deputy-rifle.ldr", (11.0, 17.5), 90),
    ("deputy-shotgun", "law", "deputy-shotgun", "western-deputy-shotgun.ldr", (35.0, 17.5), 90),
    ("citizen-rifle", "law", "citizen-rifle", "western-citizen-rifle.ldr", (17.0, 47.0), 270),
    ("citizen-revolver", "law", "citizen-revolver", "western-citizen-revolver.ldr", (45.5, 36.0), 0),
    ("hotel-clerk", "law", "citizen-rifle", "western-clerk.ldr", (60.0, 17.5), 90),
    ("black-bart", "outlaws", "outlaw-boss", "western-outlaw-boss.ldr", (64.5, 32.5), 180),
    ("gunslinger", "outlaws", "gunslinger", "western-outlaw-rifle.ldr", (80.0, 52.0), 225),
    ("brawler", "outlaws", "brawler", "western-outlaw-revolver.ldr", (12.0, 33.0), 270),
    ("scattergun", "outlaws", "outlaw-shotgun", "western-outlaw-shotgun.ldr", (70.5, 25.0), 180),
    ("rifleman", "outlaws", "outlaw-rifle", "western-outlaw-rifle.ldr", (59.0, 50.0), 250),
]


def _num(v: float) -> str:
    text = f"{float(v):.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def town_yaml() -> str:
    head = """# Western town: the bundled Blaze of Glory table (96 x 64 studs, 30 x 20 inches), generated by
# scenes/make_blaze_of_glory.py (do not edit). [x, y] studs = LDraw (X, Z) / 20; 1 inch = 3.175 studs.
# The Goodies (law: the marshal, two deputies, three armed townsmen) hold the west of Main Street, the
# sheriff's office, the corral and the hotel; the Baddies (outlaws: Black Bart and his gang, "usually the
# smaller force") came in from the east, one of them already down the street by the saloon's trough.
# Line-of-sight examples (docs/blaze-of-glory.md):
#   bow3d los scenes/western-town.yaml black-bart citizen-revolver   partial cover behind a water trough
#   bow3d los scenes/western-town.yaml marshal scattergun            partial cover behind crates
#   bow3d los scenes/western-town.yaml brawler deputy-rifle          full cover through the sheriff's window
#   bow3d los scenes/western-town.yaml marshal black-bart            no cover: in the open
format: bow3d-scene/1
name: Western town
battlefield: western-town.ldr
ruleset:
  name: blaze-of-glory
  goodies: law
  baddies: outlaws
  blood_brothers: {gunslinger: black-bart}   # Skills: BLOOD BROTHER, specified before the game
  partial_cover: 0.25     # hidden share (by the scenery) from which a target is in partial cover
  opening_cover: 0.4      # ... in full cover seen through an opening (a window: a blocker above his head)
  full_cover: 0.8         # ... in full cover whatever hides him
sides:
  - {id: law, name: The Law (Goodies), colour: 1}
  - {id: outlaws, name: Black Bart's gang (Baddies), colour: 4}
"""
    out = [head.rstrip("\n"), "sheets:"]
    for name, sheet in SHEETS.items():
        fields = ", ".join(f"{k}: [{', '.join(v)}]" if isinstance(v, list) else f"{k}: {v}" for k, v in sheet.items())
        out.append(f"  {name}: {{{fields}}}")
    out.append("units:")
    for id, side, sheet, model, (x, y), facing in UNITS:
        out.append(f"  - {{id: {id}, side: {side}, sheet: {sheet}, model: figures/{model}, "
                   f"position: [{_num(x)}, {_num(y)}], facing: {_num(facing)}}}")
    return "\n".join(out) + "\n"


def town_files() -> dict[str, str]:
    """Every file of the western town, by path relative to scenes/."""
    files = {"western-town.ldr": "\n".join(town_decor()), "western-town.yaml": town_yaml(), **figure_files()}
    return {rel: text if text.endswith("\n") else text + "\n" for rel, text in files.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=HERE, help="folder to write (default: this scenes/ folder)")
    args = parser.parse_args(argv)
    for rel, text in sorted(town_files().items()):
        path = args.out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")
    print(f"wrote {len(town_files())} files under {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
