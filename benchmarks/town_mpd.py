"""A big town MPD built the way real town models are, from parts of the official LDraw subset (seeded).

`write_town(path, blocks)`: streets of 48 x 48 baseplates, each block a sub-model with four houses
picked from a few dozen house designs (each house a few wing sub-models: brick courses of mixed
1xN and 2xN bricks in several colours, windows, doors, slopes on the roof), gardens with trees,
plants, fences and rocks, parked cars on wheels, and minifig sub-models (named the MLCad way,
`fig_NN.dat`, no headers) standing in the streets. The sub-model tree is four to five levels deep;
each distinct sub-model is written once, as editors save MPDs. About 1,000 part instances a block.
"""

from __future__ import annotations

import random
from pathlib import Path

EYE = "1 0 0 0 1 0 0 0 1"
TURNS = ["1 0 0 0 1 0 0 0 1", "0 0 1 0 1 0 -1 0 0", "-1 0 0 0 1 0 0 0 -1", "0 0 -1 0 1 0 1 0 0"]
WALL_COLOURS = [4, 15, 14, 71, 72, 19, 70, 1, 2, 28]
BRICKS_X = [("3010.dat", 4), ("3009.dat", 6), ("3004.dat", 2), ("3622.dat", 3), ("3008.dat", 8)]
MINIFIG = [("973.dat", 0, 0, 0), ("3815.dat", 0, 32, 0), ("3816.dat", 0, 44, 0), ("3817.dat", 0, 44, 0),
           ("3818.dat", -15.552, 9, 0), ("3819.dat", 15.552, 9, 0), ("3820.dat", -23.86, 26.6, -10.32),
           ("3820.dat", 23.86, 26.6, -10.32), ("3626bp01.dat", 0, -24, 0)]
HATS = ["3624.dat", "3629.dat", "4485.dat", "3844.dat", "3896.dat"]
HELD = ["3847.dat", "30141.dat", "2561.dat", "3849.dat", "4499.dat", "3959.dat"]
GARDEN = [("3470.dat", 2), ("3471.dat", 2), ("2435.dat", 2), ("6064.dat", 2), ("2423.dat", 2), ("42291.dat", 0)]


def _ref(colour: int, x: float, y: float, z: float, turn: str, name: str) -> str:
    return f"1 {colour} {x:g} {y:g} {z:g} {turn} {name}"


def _wing(rng: random.Random, name: str, length: int, courses: int) -> list[str]:
    """A wall `length` studs long, `courses` bricks high, with a window and a door."""
    colour = rng.choice(WALL_COLOURS)
    lines = [f"0 FILE {name}", f"0 Wing {name}", f"0 Name: {name}", "0 Author: bow3d benchmark", ""]
    window_at, door_at = rng.randrange(1, max(2, length - 6)), rng.randrange(0, max(1, length - 4))
    for course in range(courses):
        x = 0
        offset = course % 2
        while x < length:
            part, size = rng.choice(BRICKS_X)
            if offset:
                part, size, offset = "3004.dat", 2, 0
            size = min(size, length - x)
            part = {1: "3005.dat", 2: "3004.dat", 3: "3622.dat", 4: "3010.dat", 5: "3010.dat",
                    6: "3009.dat", 7: "3009.dat", 8: "3008.dat"}[size] if size < 8 else part
            lines.append(_ref(colour, (x + size / 2) * 20, -24 * (course + 1), 0, EYE, part))
            x += size
    lines.append(_ref(15, (window_at + 2) * 20, -24 * 4, 0, EYE, rng.choice(["60594.dat", "3853.dat"])))
    lines.append(_ref(47, (window_at + 2) * 20, -24 * 4, 0, EYE, "3854.dat"))
    lines.append(_ref(4, (door_at + 2) * 20, -24 * 6, 0, EYE, rng.choice(["60596.dat", "30179.dat"])))
    lines.append(_ref(rng.choice([4, 1, 70]), (door_at + 2) * 20, -24 * 6, 0, EYE,
                      rng.choice(["60621.dat", "60623.dat"])))
    return lines + [""]


def _house(rng: random.Random, name: str, wings: list[str]) -> list[str]:
    lines = [f"0 FILE {name}", f"0 House {name}", f"0 Name: {name}", "0 Author: bow3d benchmark", ""]
    length = 16
    for k, wing in enumerate(rng.sample(wings, 4)):
        x, z = [(0, -length * 10), (length * 10, 0), (0, length * 10), (-length * 10, 0)][k]
        lines.append(_ref(16, x - (length * 10 if k % 2 == 0 else 0), 0, z - (0 if k % 2 == 0 else length * 10),
                          TURNS[k], wing))
    roof = rng.choice([4, 72, 70, 1])
    for row in range(length // 2):
        for col in range(length // 4):
            lines.append(_ref(roof, -length * 10 + col * 80 + 40, -24 * 8, -length * 10 + row * 40 + 20, EYE,
                              rng.choice(["3037.dat", "3039.dat", "3038.dat", "3035.dat"])))
    return lines + [""]


def _figure(rng: random.Random, name: str) -> list[str]:
    torso, legs = rng.choice(WALL_COLOURS), rng.choice([0, 1, 72, 70])
    lines = [f"0 FILE {name}", f"0 Minifig {name}", f"0 Name: {name}", "0 Author: bow3d benchmark", ""]
    for part, x, y, z in MINIFIG:
        colour = torso if part in ("973.dat", "3818.dat", "3819.dat") else legs if y >= 32 else 14
        lines.append(_ref(colour, x, y, z, EYE, part))
    lines.append(_ref(0, 0, -24, 0, EYE, rng.choice(HATS)))
    lines.append(_ref(0, -24.09, 27.91, -26.51, EYE, rng.choice(HELD)))
    return lines + [""]


def _car(rng: random.Random, name: str) -> list[str]:
    lines = [f"0 FILE {name}", f"0 Car {name}", f"0 Name: {name}", "0 Author: bow3d benchmark", ""]
    for x in (-30, 30):
        for z in (-40, 40):
            lines += [_ref(0, x, -18, z, TURNS[1], "3641.dat"), _ref(71, x, -18, z, TURNS[1], "4624.dat")]
    body = rng.choice([4, 1, 14, 15])
    lines += [_ref(body, 0, -26, 0, TURNS[1], "3034.dat"), _ref(71, 0, -34, 10, EYE, "4079.dat"),
              _ref(0, 0, -34, -30, EYE, "3829c01.dat"), _ref(47, 0, -50, -50, EYE, "3823.dat"),
              _ref(body, 0, -34, 50, TURNS[1], "3021.dat")]
    return lines + [""]


def _block(rng: random.Random, name: str, houses: list[str], figures: list[str], cars: list[str]) -> list[str]:
    lines = [f"0 FILE {name}", f"0 Block {name}", f"0 Name: {name}", "0 Author: bow3d benchmark", "",
             _ref(2, 0, 0, 0, EYE, "4186.dat")]
    for k, (x, z) in enumerate([(-220, -220), (220, -220), (-220, 220), (220, 220)]):
        lines.append(_ref(16, x, 0, z, TURNS[k], rng.choice(houses)))
    for _ in range(24):
        part, colour = rng.choice(GARDEN)
        lines.append(_ref(colour, rng.randrange(-22, 23) * 20, 0, rng.randrange(-22, 23) * 20, rng.choice(TURNS), part))
    for k in range(12):
        lines.append(_ref(15, -470 + k * 80, -24, 470, EYE, "3633.dat"))
    for _ in range(16):
        lines.append(_ref(16, rng.randrange(-22, 23) * 20, -72, rng.randrange(-22, 23) * 20, rng.choice(TURNS),
                          rng.choice(figures)))
    for _ in range(3):
        lines.append(_ref(16, rng.randrange(-20, 21) * 20, 0, rng.randrange(-20, 21) * 20, rng.choice(TURNS),
                          rng.choice(cars)))
    return lines + [""]


def write_town(path: Path, blocks: int = 40, seed: int = 13, suffix: str = ".dat") -> Path:
    """Write the town MPD (`blocks` street blocks, about 1,000 instances each) and return its path; sub-models
    are named `*.dat` (MLCad) or, with suffix=".ldr", as LDCad and Studio name them."""
    rng = random.Random(seed)
    wings = [f"wing_{k:02d}{suffix}" for k in range(40)]
    houses = [f"house_{k:02d}{suffix}" for k in range(24)]
    figures = [f"fig_{k:02d}{suffix}" for k in range(20)]
    cars = [f"car_{k}{suffix}" for k in range(5)]
    side = max(1, round(blocks ** 0.5))
    main = ["0 FILE town.ldr", "0 Town", "0 Name: town.ldr", "0 Author: bow3d benchmark", ""]
    names = []
    for k in range(blocks):
        names.append(f"block_{k:03d}{suffix}")
        main.append(_ref(16, (k % side) * 960, 0, (k // side) * 960, EYE, names[-1]))
    out = main + [""]
    for name in names:
        out += _block(rng, name, houses, figures, cars)
    for name in houses:
        out += _house(rng, name, wings)
    for name in wings:
        out += _wing(rng, name, 16, 8)
    for name in figures:
        out += _figure(rng, name)
    for name in cars:
        out += _car(rng, name)
    path.write_text("\n".join(out) + "\n")
    return path
