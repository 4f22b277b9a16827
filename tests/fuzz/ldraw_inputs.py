"""Hostile LDraw inputs for the fuzz tests (the Trust issue), built from seeds, written to a folder.

Layer: tests. Shared by test_fuzz_ldraw.py and test_fuzz_cache.py; every input is a pure
function of its arguments, so a failing case can be rebuilt from its name and seed.
"""

from __future__ import annotations

import random

IDENTITY = "1 0 0 0 1 0 0 0 1"
BRICKS = ["3001.dat", "3003.dat", "3004.dat", "3005.dat", "3010.dat", "3022.dat", "3023.dat", "3039.dat",
          "3062b.dat", "4073.dat", "6141.dat", "3068b.dat"]


def town_mpd(rng: random.Random, houses: int = 8) -> str:
    """An editor-style MPD: a town of houses of walls of bricks, with headers, steps and NOFILEs."""
    out = ["0 FILE town.ldr\n0 Town\n0 Name: town.ldr\n0 Author: bow3d fuzz\n0 !LDRAW_ORG Model\n0 BFC CERTIFY CCW\n",
           "1 2 0 0 0 1 0 0 0 1 0 0 0 1 4186.dat\n"]
    out += [f"1 16 {rng.randint(-400, 400)} -8 {rng.randint(-400, 400)} {IDENTITY} house{h}.ldr\n0 STEP\n"
            for h in range(houses)]
    out.append("0 NOFILE\n")
    for h in range(houses):
        out.append(f"0 FILE house{h}.ldr\n0 House {h}\n0 Name: house{h}.ldr\n0 !LDRAW_ORG Model\n")
        for side in range(4):
            out.append(f"1 {rng.choice([16, 4, 14, 71])} {side * 80} 0 0 {IDENTITY} wall{rng.randrange(4)}.ldr\n")
        out.append(f"1 4 0 -96 0 {IDENTITY} roof.ldr\n1 16 20 0 0 {IDENTITY} door.ldr\n0 NOFILE\n")
    for w in range(4):
        out.append(f"0 FILE wall{w}.ldr\n0 Wall {w}\n0 !LDRAW_ORG Model\n")
        for course in range(4):
            for i in range(3):
                out.append(f"1 16 {i * 40 + course % 2 * 20} {-24 * course} 0 {IDENTITY} {rng.choice(BRICKS)}\n")
        out.append("0 NOFILE\n")
    out.append("0 FILE roof.ldr\n0 Roof\n" + "".join(f"1 16 {i * 20} 0 0 {IDENTITY} 3039.dat\n" for i in range(6)))
    out.append(f"0 FILE door.ldr\n0 Door\n1 6 0 0 0 {IDENTITY} 3001.dat\n1 6 0 -24 0 {IDENTITY} 3001.dat\n")
    return "".join(out)


def set_mpd(rng: random.Random, blocks: int = 80) -> str:
    """A big editor-style MPD (as an official set's): sub-models of sub-models (a DAG) and bricks."""
    out = []
    for b in range(blocks):
        name = "set.ldr" if b == 0 else f"sub{b}.ldr"
        out.append(f"0 FILE {name}\n0 Sub-model {b}\n0 Name: {name}\n0 Author: bow3d fuzz\n0 !LDRAW_ORG Model\n"
                   "0 BFC CERTIFY CCW\n")
        later = list(range(b + 1, blocks))
        for c in rng.sample(later, min(len(later), rng.randint(1, 4))):
            for _ in range(rng.randint(1, 3)):
                out.append(f"1 {rng.choice([16, 4, 15])} {rng.randint(-99, 99)} {rng.randint(-48, 0)} "
                           f"{rng.randint(-99, 99)} {IDENTITY} sub{c}.ldr\n")
        for _ in range(rng.randint(4, 12)):
            out.append(f"1 {rng.choice([16, 1, 71, 72])} {rng.randint(-99, 99)} {-8 * rng.randint(0, 9)} "
                       f"{rng.randint(-99, 99)} {IDENTITY} {rng.choice(BRICKS)}\n")
            if rng.random() < 0.2:
                out.append("0 STEP\n")
        out.append("0 NOFILE\n")
    return "".join(out)


def shuffled(text: str, rng: random.Random) -> str:
    """Every line of `text` in a random order (sub-model blocks end up using each other, over and over)."""
    lines = text.splitlines(keepends=True)
    rng.shuffle(lines)
    return "".join(lines)


def nesting(levels: int = 10, uses: int = 10, ext: str = "ldr", leaf: str = "3001.dat") -> dict[str, str]:
    """Files level0 .. level9, each using the next ten times (10^10 leaf placements if multiplied out)."""
    files = {}
    for k in range(levels):
        child = f"level{k + 1}.{ext}" if k + 1 < levels else leaf
        org = "0 !LDRAW_ORG Part\n" if ext == "dat" else "0 !LDRAW_ORG Model\n"
        files[f"level{k}.{ext}"] = f"0 Level {k}\n{org}" + "".join(
            f"1 16 {20 * i} 0 0 {IDENTITY} {child}\n" for i in range(uses))
    return files


def placed_many_times(count: int, part: str = "3070b.dat") -> str:
    """One file placing a part `count` times, one line each."""
    return "".join(f"1 4 {i % 1000 * 20} 0 {i // 1000 * 20} {IDENTITY} {part}\n" for i in range(count))
