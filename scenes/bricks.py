"""LDraw building blocks for the bundled scenes: clean type-1 lines, brick walls, houses, trees, figures, vehicles.

Used by make_scenes.py (run that, not this). Everything here writes LDraw's own frame: -Y up,
LDU (1 stud = 20, 1 brick = 24, 1 plate = 8). Battlefield helpers take stud coordinates on the
ground (x along LDraw X, z along LDraw Z; the battlefield's corner is the origin, so a stud
coordinate is also the scene's [x, y] in studs) and a course number (0 = the first brick on the
baseplate, whose top is LDraw Y = 0).

Only parts of the starter library (ldraw_library/) are used; each is also in the official library.
"""

from __future__ import annotations

import math

import numpy as np

STUD, BRICK, PLATE = 20, 24, 8
I3 = np.eye(3)


def ry(deg: float) -> np.ndarray:
    """Rotation about LDraw's vertical axis (Y), LDraw matrix convention."""
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])


def rx(deg: float) -> np.ndarray:
    """Rotation about LDraw X (a minifig's shoulder axis)."""
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def num(value: float) -> str:
    """A clean LDraw number: at most 3 decimals, no trailing zeros, never '-0'."""
    text = f"{round(float(value), 3):.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def part(colour: int, pos, rot, name: str) -> str:
    """One LDraw type-1 line."""
    m = np.asarray(rot, dtype=float).ravel()
    return " ".join(["1", str(colour), *(num(v) for v in pos), *(num(v) for v in m), name])


# ---------------------------------------------------------------- battlefield decor

BRICKS_1XN = {8: "3008.dat", 6: "3009.dat", 4: "3010.dat", 3: "3622.dat", 2: "3004.dat", 1: "3005.dat"}
LOGS_1XN = {4: "30137.dat", 2: "30136.dat", 1: "3005.dat"}
PLATES_1XN = {8: "3460.dat", 6: "3666.dat", 4: "3710.dat", 2: "3023.dat", 1: "3024.dat"}
SLOPES_2XN = {4: "3037.dat", 3: "3038.dat", 2: "3039.dat", 1: "3040.dat"}


def split_run(length: int, sizes, first: int | None = None) -> list[int]:
    """Cut a run of `length` studs into piece lengths from `sizes` (greedy; `first` starts it, for bonds)."""
    pieces: list[int] = []
    if first is not None and length > first:
        pieces.append(first)
        length -= first
    for size in sorted(sizes, reverse=True):
        while length >= size:
            pieces.append(size)
            length -= size
    return pieces


def row_1xn(colour: int, x0: float, z0: float, length: int, along_x: bool, y_top: float, table=BRICKS_1XN,
            first: int | None = None) -> list[str]:
    """A straight row of 1xN pieces from stud (x0, z0), `length` studs long, pieces' tops at LDraw Y `y_top`."""
    lines, at = [], 0
    for size in split_run(length, table, first):
        mid = at + size / 2
        if along_x:
            lines.append(part(colour, (STUD * (x0 + mid), y_top, STUD * (z0 + 0.5)), I3, table[size]))
        else:
            lines.append(part(colour, (STUD * (x0 + 0.5), y_top, STUD * (z0 + mid)), ry(90), table[size]))
        at += size
    return lines


def wall(colour: int, x0: int, z0: int, length: int, along_x: bool, courses: int, openings=(), base: int = 0,
         table=BRICKS_1XN, bond_from: int = 0) -> list[str]:
    """A 1-stud-thick wall of `courses` bricks; `openings` = [(offset, width, first course, last course)] left empty."""
    lines = []
    for c in range(base, base + courses):
        free, start = [], 0
        cut = sorted((o, o + w) for o, w, c0, c1 in openings if c0 <= c <= c1)
        for a, b in cut + [(length, length)]:
            if a > start:
                free.append((start, a - start))
            start = max(start, b)
        for offset, run in free:
            first = 2 if (c + bond_from) % 2 and run > 3 else None
            x, z = (x0 + offset, z0) if along_x else (x0, z0 + offset)
            lines += row_1xn(colour, x, z, run, along_x, -BRICK * (c + 1), table, first)
    return lines


def frame_part(colour: int, name: str, x0: int, z0: int, offset: int, along_x: bool, course: int, height: int,
               width: int = 4) -> str:
    """A window or door frame (1 x width x height, origin at its top) set in a wall at `offset` studs."""
    mid = offset + width / 2
    pos = (STUD * (x0 + mid), -BRICK * (course + height), STUD * (z0 + 0.5)) if along_x else \
        (STUD * (x0 + 0.5), -BRICK * (course + height), STUD * (z0 + mid))
    return part(colour, pos, I3 if along_x else ry(90), name)


def door_leaf(colour: int, x0: int, z0: int, offset: int, along_x: bool, outward: bool) -> str:
    """A door (60623) hinged in its 60596 frame and swung 90 degrees open, out of the house.

    In the frame's own axes the closed door sits at (-30, +4, 0) from the frame's origin; turning it
    by +90 degrees about its hinge opens it towards the frame's -Z (-90: towards +Z). `outward`
    means towards the low side (south for walls along X, west for walls along Z).
    """
    mid = offset + 2
    frame = np.array([STUD * (x0 + mid), -BRICK * 6, STUD * (z0 + 0.5)]) if along_x else \
        np.array([STUD * (x0 + 0.5), -BRICK * 6, STUD * (z0 + mid)])
    turn = I3 if along_x else ry(90)
    return part(colour, frame + turn @ np.array([-30.0, 4.0, 0.0]), turn @ ry(90 if outward else -90), "60623.dat")


def house(x0: int, z0: int, width: int, depth: int, wall_colour: int, roof_colour: int, frame_colour: int,
          doors=(), windows=(), logs: bool = False, courses: int = 6, door_colour: int = 70) -> list[str]:
    """A house on the outer footprint [x0, x0+width) x [z0, z0+depth) studs with a gabled roof of slopes.

    doors / windows: [(side, offset)] with side in 'south' (low z), 'north', 'west' (low x), 'east' and
    offset in studs from the wall's low end. Doors are 60596 frames (4 x 6 bricks) with their leaf
    (60623) swung open outwards, so the doorway is open,
    windows 60594 frames (4 x 3 bricks, no glass) on one course of bricks. Walls are `courses` high;
    the corners interlock (the long walls own the corners on even courses).
    """
    table = LOGS_1XN if logs else BRICKS_1XN
    sides = {"south": (x0, z0, width, True), "north": (x0, z0 + depth - 1, width, True),
             "west": (x0, z0, depth, False), "east": (x0 + width - 1, z0, depth, False)}
    lines = [f"0 // house at studs ({x0}, {z0}), {width} x {depth}"]
    for name, (wx, wz, length, along_x) in sides.items():
        openings = [(o, 4, 0, 5) for s, o in doors if s == name] + [(o, 4, 1, 3) for s, o in windows if s == name]
        for c in range(courses):  # interlocking corners: X walls own them on even courses, Z walls on odd
            own = (c % 2 == 0) == along_x
            lo, n = (0, length) if own else (1, length - 2)
            sx, sz = (wx + lo, wz) if along_x else (wx, wz + lo)
            shifted = [(o - lo, w, c0, c1) for o, w, c0, c1 in openings]
            lines += wall(wall_colour, sx, sz, n, along_x, 1, shifted, base=c, table=table)
        for s, o in doors:
            if s == name:
                lines.append(frame_part(frame_colour, "60596.dat", wx, wz, o, along_x, 0, 6))
                lines.append(door_leaf(door_colour, wx, wz, o, along_x, outward=name in ("south", "west")))
        for s, o in windows:
            if s == name:
                lines.append(frame_part(frame_colour, "60594.dat", wx, wz, o, along_x, 1, 3))
    lines += roof(x0, z0, width, depth, courses, roof_colour, wall_colour)
    return lines


def roof(x0: int, z0: int, width: int, depth: int, courses: int, colour: int, gable_colour: int) -> list[str]:
    """A gabled roof of 45-degree slopes (ridge along X), overhanging the long walls by one stud."""
    lines, z1 = [], z0 + depth
    k = 0
    while True:
        y_top = -BRICK * (courses + k + 1)
        front, back = z0 - 1 + k, z1 - 1 - k  # front row covers [front, front+2), back row [back, back+2)
        at = 0
        for size in split_run(width, SLOPES_2XN):
            cx = STUD * (x0 + at + size / 2)
            lines.append(part(colour, (cx, y_top, STUD * front + 30), I3, SLOPES_2XN[size]))
            lines.append(part(colour, (cx, y_top, STUD * back + 10), ry(180), SLOPES_2XN[size]))
            at += size
        if front + 2 >= back:
            return lines
        for z in range(front + 2, back):  # gable fill under the next course
            lines += row_1xn(gable_colour, x0, z, width, True, y_top, first=2 if z % 2 else None)
        k += 1


def baseplates(size_x: int, size_z: int, colour: int = 2) -> list[str]:
    """32x32 baseplates (3811) covering [0, size_x) x [0, size_z) studs, top surface at LDraw Y = 0."""
    return [part(colour, (STUD * (x + 16), 0, STUD * (z + 16)), I3, "3811.dat")
            for z in range(0, size_z, 32) for x in range(0, size_x, 32)]


def plate_area(colour: int, x0: int, z0: int, size_x: int, size_z: int) -> list[str]:
    """A rectangle of plates (studs kept: BOW §1.3) on the baseplate: 6x8, 4x8, 2x8 ... pieces."""
    lines = []
    pieces = {6: "3036.dat", 4: "3035.dat", 2: "3034.dat"}  # N x 8 plates, 8 along X
    x = x0
    while x < x0 + size_x:
        run = min(8, x0 + size_x - x)
        z = z0
        for size in split_run(size_z, (6, 4, 2)):
            if run == 8:
                lines.append(part(colour, (STUD * (x + 4), -PLATE, STUD * (z + size / 2)), I3, pieces[size]))
            else:
                for dz in range(size):
                    lines += row_1xn(colour, x, z + dz, run, True, -PLATE, PLATES_1XN)
            z += size
        x += run
    return lines


def tree(x: float, z: float, kind: str, trunk: int = 1, leaves: int = 2, trunk_colour: int = 6) -> list[str]:
    """A tree: `trunk` 2x2 round bricks (3941) and a plant on top; (x, z) is the trunk's centre in studs."""
    lines = [part(trunk_colour, (STUD * x, -BRICK * (i + 1), STUD * z), I3, "3941.dat") for i in range(trunk)]
    lines.append(part(leaves, (STUD * x, -BRICK * trunk - PLATE, STUD * z), I3, kind))
    return lines


def shrub(x: float, z: float, colour: int = 2, big: bool = True, turn: float = 0) -> list[str]:
    """A low shrub: leaves (2417 or 2423) on a 1x1 round brick; about 40 LDU high (hides legs)."""
    return [part(6, (STUD * x, -BRICK, STUD * z), I3, "3062b.dat"),
            part(colour, (STUD * x, -BRICK - PLATE, STUD * z), ry(turn), "2417.dat" if big else "2423.dat")]


# ---------------------------------------------------------------- figures

# The standard minifig, torso at the origin (LDraw library HELP lines and assemblies 76382 / 10679b).
R_ARM_POS, R_ARM = np.array([-15.552, 9, 0]), np.array([[0.985, -0.17, 0], [0.17, 0.985, 0], [0, 0, 1]])
L_ARM_POS, L_ARM = np.array([15.552, 9, 0]), np.array([[0.985, 0.17, 0], [-0.17, 0.985, 0], [0, 0, 1]])
R_HAND_POS = np.array([-23.69, 26.774, -9.898])
R_HAND = np.array([[0.985, -0.12, 0.12], [0.17, 0.696, -0.696], [0, 0.707, 0.707]])
L_HAND_POS = np.array([23.69, 26.774, -9.898])
L_HAND = np.array([[0.985, 0.12, -0.12], [-0.17, 0.696, -0.696], [0, 0.707, 0.707]])
GRIP = np.array([0.0, 0.0, -10.0])  # the hand's grip, hand frame; a held item's grip axis is the hand's Y
SOLES_Y = 72  # legs (at y=44) reach y=72 below the torso origin: the lowest point of a standing minifig
LEG_PIVOT_Y = 44

# Held items: (rotation in the hand frame, offset of the item's origin from the grip along the grip axis).
ITEMS = {
    "sword": ("3847.dat", I3, (0, -12, 0)), "cutlass": ("2530.dat", I3, (0, -2, 0)),
    "pistol": ("2562.dat", rx(-90), (0, 0, 0)), "rifle": ("30141.dat", rx(-90), (0, 0, 0)),
    "bow": ("4499.dat", ry(90), (0, 1, 0)), "spear": ("3849.dat", rx(-90), (0, 28, 0)),
    "axe": ("3848.dat", ry(180), (0, -12, 0)), "lance": ("3849.dat", rx(-90), (0, -24, 0)),
    "shield": ("3846.dat", ry(90), (0, -12, 0)), "round-shield": ("2586.dat", ry(90) @ np.array([[0, 1, 0], [-1, 0, 0], [0, 0, 1]]), (0, -1, 0)),
}


def minifig(torso: int, legs: int, arms: int | None = None, hat: str | None = None, hat_colour: int = 0,
            right: str | None = None, left: str | None = None, item_colour: int = 72, torso_part: str = "973.dat",
            seated: bool = False, raise_right: float = -45.0, raise_left: float = -45.0,
            head: str = "3626bp01.dat") -> list[str]:
    """A standard minifig facing LDraw -Z, origin at the footprint centre, soles at LDraw Y = 0.

    Standing: torso at y = -72 (head at -96, hips at -40, legs at -28). Seated: legs turned 90 degrees
    forward at the hip pivot; the lowest point (the back of the legs) is put at Y = 0 as well.
    head: 3626bp01 (with a face) or 3626b (plain: its box is centred on the neck in every library, so
    head-to-head distances are exact). right/left: keys of ITEMS held in that hand; an arm that holds something is raised (degrees about
    the shoulder axis) so that swords stand up and guns point forward.
    """
    arms = torso if arms is None else arms
    lines: list[tuple[int, np.ndarray, np.ndarray, str]] = [
        (torso, np.zeros(3), I3, torso_part), (14, np.array([0, -24, 0]), I3, head),
        (legs, np.array([0, 32, 0]), I3, "3815.dat")]
    leg_rot = rx(-90) if seated else I3  # legs turned forward (-Z)
    lines += [(legs, np.array([0, LEG_PIVOT_Y, 0]), leg_rot, "3816.dat"),
              (legs, np.array([0, LEG_PIVOT_Y, 0]), leg_rot, "3817.dat")]
    if hat:
        lines.append((hat_colour, np.array([0, -24, 0]), I3, hat))
    for arm_pos, arm, hand_pos, hand, name, item, lift in (
            (R_ARM_POS, R_ARM, R_HAND_POS, R_HAND, "3818.dat", right, raise_right),
            (L_ARM_POS, L_ARM, L_HAND_POS, L_HAND, "3819.dat", left, raise_left)):
        turn = rx(lift if item else 0.0)
        lines.append((arms, arm_pos, turn @ arm, name))
        hp, hr = arm_pos + turn @ (hand_pos - arm_pos), turn @ hand
        lines.append((14, hp, hr, "3820.dat"))
        if item:
            item_part, rot, offset = ITEMS[item]
            lines.append((item_colour if item not in ("shield", "round-shield") else torso,
                          hp + hr @ (GRIP + np.array(offset, dtype=float)), hr @ rot, item_part))
    lowest = 53.0 if seated else SOLES_Y  # seated: the backs of the legs (44 + 9) and the hips reach y = 53
    return [part(c, pos - np.array([0, lowest, 0]), rot, name) for c, pos, rot, name in lines]


def header(title: str, name: str, extra=()) -> list[str]:
    """An LDraw file header (title, name, author, BFC)."""
    return [f"0 {title}", f"0 Name: {name}", "0 Author: bow3d scenes/make_scenes.py (generated; do not edit)",
            *extra, "0 BFC CERTIFY CCW", ""]
