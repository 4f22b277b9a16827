"""Generate the bundled scenes: village (64 x 64 studs) and los-gallery, their LDraw files and figures.

Rerun from the repository root (deterministic: the output is byte for byte the same every time):

    python scenes/make_scenes.py              # rewrites scenes/*.ldr, scenes/*.yaml, scenes/figures/*.ldr
    python scenes/make_scenes.py --out DIR    # writes the same tree under DIR (tests compare it)

Changing the village changes the games played on it: regenerate the bundled replays afterwards
(python replays/regenerate.py), or their verification diverges.

Conventions (bow3d scene format C1): the battlefield's corner is the LDraw origin, so a scene
position [x, y] in studs is LDraw (X, Z) = (20x, 20y); the baseplates' tops are at LDraw Y = 0
and their studs are the cell centres (i + 0.5, j + 0.5). Battlefield files hold the decor only;
each unit or vehicle model is its own file in figures/, facing LDraw -Z (facing 270), origin at
the centre of its footprint, its lowest point (soles, tyres, hooves) at Y = 0.

Minifig heights above the soles (standard assembly, LDU): legs 0-35 under the hips, hips visible
to 40 (torso's lower edge), torso 40-72, head 72-96 (stud to 100), head centre 84. So a wall of
40 LDU (1 brick + 2 plates) hides legs and hips but not the torso, and 144 LDU (6 bricks) hides
a whole minifig, hat included.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from armies import GALLERY_LANES, figure_files
from bricks import (
    BRICK,
    I3,
    LOGS_1XN,
    PLATE,
    PLATES_1XN,
    STUD,
    baseplates,
    header,
    house,
    part,
    plate_area,
    row_1xn,
    ry,
    shrub,
    tree,
    wall,
)
from make_blaze_of_glory import town_files
from make_war_of_bros import files as war_of_bros_files
from scene_yaml import gallery_yaml, village_yaml

HERE = Path(__file__).resolve().parent
VILLAGE_STUDS = 64
GALLERY_STUDS = 64


def village_decor() -> list[str]:
    """The village battlefield: four green baseplates, a road, four houses, walls, fences, trees, rocks."""
    L = header("Village: a 64 x 64 stud BOW battlefield (decor only; units are in village.yaml)", "village.ldr")
    L += ["0 // ground: four 32 x 32 baseplates, corner at the origin (scene [x, y] studs = LDraw (X, Z) / 20)"]
    L += baseplates(VILLAGE_STUDS, VILLAGE_STUDS, 2)
    L += ["0 // the road (east-west, studs 29-35) and a lane to the north (studs x 30-34), plates with studs"]
    L += plate_area(19, 0, 29, VILLAGE_STUDS, 6)
    for z in range(35, 63):
        L += row_1xn(28, 30, z, 4, True, -PLATE, PLATES_1XN)
    L += ["0 // houses: door frames open (see through front to back), windows without glass"]
    L += house(6, 40, 10, 8, 15, 4, 70, door_colour=4, doors=[("south", 1), ("north", 1)], windows=[("south", 5), ("west", 2),
                                                                                        ("east", 2)])
    L += house(40, 40, 10, 8, 19, 72, 15, door_colour=1, doors=[("west", 2), ("east", 2)], windows=[("south", 1), ("south", 5),
                                                                                      ("north", 3)])
    L += house(12, 14, 10, 8, 70, 320, 19, doors=[("north", 1), ("south", 1)], windows=[("north", 5), ("east", 2)],
               logs=True)
    L += house(44, 10, 10, 8, 71, 70, 15, doors=[("north", 3)], windows=[("east", 2), ("west", 2), ("south", 3)])
    L += ["0 // low stone walls, two bricks high (cover for legs and hips)"]
    L += wall(72, 2, 37, 4, True, 2) + wall(72, 13, 37, 6, True, 2)       # the white cottage's garden
    L += wall(72, 26, 40, 10, False, 2)                                    # east of the cottage
    L += wall(72, 6, 6, 14, False, 2)                                      # west of the log cabin (blue cover)
    L += wall(72, 38, 24, 14, True, 2)                                     # south of the road, by the barn
    L += wall(72, 56, 40, 12, False, 2)                                    # east of the tan house (red cover)
    L += wall(71, 22, 55, 6, True, 1) + wall(71, 36, 56, 6, True, 1)       # field edges, one brick
    L += ["0 // fences"]
    L += [part(15, (STUD * (x + 2), -BRICK, STUD * 52.5), I3, "3633.dat") for x in (40, 44, 48)]
    L += [part(70, (STUD * 24.5, -BRICK, STUD * (z + 2)), ry(90), "3633.dat") for z in (10, 14, 18)]
    L += [part(70, (STUD * (x + 2), -BRICK, STUD * 4.5), I3, "3633.dat") for x in (26, 30, 34)]
    L += ["0 // trees on trunks of 2x2 round bricks, bushes and shrubs"]
    L += tree(3, 3, "3471.dat", 1, 288) + tree(4, 57, "3470.dat", 1, 2) + tree(20, 59, "2435.dat", 1, 288)
    L += tree(28, 13, "3470.dat", 2, 10) + tree(37, 8, "2435.dat", 1, 2) + tree(61, 61, "3471.dat", 1, 288)
    L += tree(61, 4, "3470.dat", 1, 2) + tree(37, 47, "2435.dat", 1, 10) + tree(53, 57, "3470.dat", 1, 288)
    L += tree(9, 51, "2435.dat", 1, 2) + tree(2, 42, "3471.dat", 1, 2)
    L += [part(2, (STUD * 18, 0, STUD * 52), I3, "6064.dat"), part(288, (STUD * 46, 0, STUD * 58), I3, "6064.dat"),
          part(2, (STUD * 14, 0, STUD * 5), I3, "6064.dat")]
    L += shrub(28.5, 38.5, 2) + shrub(35.5, 38.5, 10, False) + shrub(36.5, 22.5, 2, True, 90)
    L += shrub(41.5, 27.5, 288, False) + shrub(24.5, 44.5, 10, False, 90)
    L += ["0 // a woodpile by the log cabin"]
    L += row_1xn(70, 14, 9, 4, True, -BRICK, LOGS_1XN) + row_1xn(70, 14, 10, 4, True, -BRICK, LOGS_1XN)
    L += row_1xn(70, 14, 9, 4, True, -2 * BRICK, LOGS_1XN) + row_1xn(70, 15, 10, 2, True, -2 * BRICK, LOGS_1XN)
    L += ["0 // rocks"]
    L += [part(72, (STUD * 12, -6 * BRICK, STUD * 61), ry(180), "6082.dat"),
          part(71, (STUD * 61.5, -7 * BRICK, STUD * 10), ry(-90), "6083.dat"),
          part(72, (STUD * 30, -7 * BRICK, STUD * 52), I3, "6083.dat")]
    return L + [""]


def gallery_decor() -> list[str]:
    """The LOS gallery: 64 x 64 studs of baseplates, ten lanes along +X, the walls of lanes 2-4."""
    L = header("LOS gallery: the classic line-of-sight situations side by side (units in los-gallery.yaml)",
               "los-gallery.ldr")
    L += baseplates(GALLERY_STUDS, GALLERY_STUDS, 2)
    for lane in GALLERY_LANES:
        z = lane.z
        if lane.key == "lowwall":  # 48 LDU (2 bricks): hides up to about 44 LDU of the target, legs and hips
            L += [f"0 // lane {lane.key}: a low wall 48 LDU high at x = {lane.wall_x}"]
            L += wall(72, lane.wall_x, int(z) - 3, 6, False, 2)
        elif lane.key == "fullwall":  # 144 LDU, taller than any minifig
            L += [f"0 // lane {lane.key}: a full wall 144 LDU high at x = {lane.wall_x}"]
            L += wall(72, lane.wall_x, int(z) - 3, 6, False, 6)
        elif lane.key == "window":  # sill 48 LDU (hides legs and hips), opening to 120 LDU
            L += [f"0 // lane {lane.key}: a wall 144 LDU high with a window (sill 48 LDU) at x = {lane.wall_x}"]
            L += wall(72, lane.wall_x, int(z) - 3, 6, False, 6, openings=[(1, 4, 2, 4)])
            L.append(part(15, (STUD * (lane.wall_x + 0.5), -5 * BRICK, STUD * (int(z) - 2 + 2)), ry(90), "60594.dat"))
    return L + [""]


def write_tree(out: Path) -> list[Path]:
    """Write every generated file under `out` (the scenes folder); return the paths written."""
    files: dict[str, str] = {}
    files["village.ldr"] = "\n".join(village_decor())
    files["los-gallery.ldr"] = "\n".join(gallery_decor())
    for name, lines in figure_files().items():
        files[f"figures/{name}"] = "\n".join(lines)
    files["village.yaml"] = village_yaml()
    files["los-gallery.yaml"] = gallery_yaml()
    files.update(town_files())
    files.update(war_of_bros_files())
    written = []
    for rel, text in sorted(files.items()):
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8", newline="\n")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=HERE, help="folder to write (default: this scenes/ folder)")
    args = parser.parse_args(argv)
    written = write_tree(args.out)
    print(f"wrote {len(written)} files under {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
