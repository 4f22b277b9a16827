"""Writer of tests/data/scenes/mlcad-town.mpd: a town as MLCad-era authors saved it (issue 13).

Run `python tests/scene/mlcad_town.py` to rewrite the file; test_mlcad_town checks that the committed
file is what this writes. Every block is named `*.dat` (the main model too) and has no `!LDRAW_ORG`
header, as MLCad wrote them; minifigs are sub-models (`fig_medic_1.dat`, placed twice) or loose parts
in a shop; a guard stands under the roof of a wing; a wing holds a helmet, a sword and a shield
and no torso; two wings hold two tyres each (hung on a wall, leaning on the ground beside it); a
car stands on four wheels with a seated driver; colours are LDConfig codes, direct (0x2RRGGBB,
0x3RRGGBB) and dithered (0x4RGBRGB) ones; one packed part has an old `0 LDRAW_ORG` header.
`TRUTH` says what a reader must find.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tests.scene.editor12 import EYE, line, minifig_lines, placed, yaw

OUTPUT = Path(__file__).resolve().parent.parent / "data" / "scenes" / "mlcad-town.mpd"
TURN = (0, 0, 1, 0, 1, 0, -1, 0, 0)  # a quarter turn about the vertical
SEATED_LEGS = (1, 0, 0, 0, 0, 1, 0, -1, 0)  # legs turned forward about X: a sitting minifig
BROWN, GLASS, DITHER = 0x2B5651D, 0x3A0C8F0, 0x4F000F0  # direct opaque, direct transparent, dithered

TRUTH = {
    "parts": 124,  # placed parts through every sub-model, as a parts list counts them (sign.dat is one)
    "units": ["fig_guard.dat", "fig_knight.dat", "fig_medic_1.dat", "fig_medic_1.dat", "loose parts"],
    "vehicles": {"car.dat": ["fig_driver.dat"]},
    "decor": ["house_2.dat", "wing_a.dat", "wing_b.dat", "wing_garage.dat", "wing_shed.dat"],
    "roofed": "fig_guard.dat",  # stands under the guard room's roof
}


def wall(colour: int, x: float, z: float, courses: int, along_x: bool = True, part: str = "3010.dat") -> list[str]:
    """A 1 x 4 wall `courses` bricks high with its middle at (x, z), standing on Y = 0."""
    return [line(colour, (x, -24 * (k + 1), z), EYE if along_x else TURN, part) for k in range(courses)]


def figure(held: str | None = None, hat: str | None = None, torso: str = "973.dat", head: str = "3626b.dat",
           seated: bool = False, colour: int = 4) -> list[str]:
    """A standard minifig with its torso at the origin (as MLCad's minifig generator writes them)."""
    out = []
    for c, pos, matrix, part in minifig_lines(colour, 0, held, hat=hat):
        part = {"973.dat": torso, "3626b.dat": head}.get(part, part)
        if seated and part in ("3816.dat", "3817.dat"):
            matrix = SEATED_LEGS
        out.append(line(c, pos, matrix, part))
    return out


def block(name: str, title: str, body: list[str]) -> list[str]:
    return [f"0 FILE {name}", f"0 {title}", f"0 Name: {name}", "0 Author: bow3d tests (MLCad style)", *body, ""]


def build() -> str:
    main = [line(2, (0, 0, 0), EYE, "3811.dat"),
            line(16, (-160, 0, -160), EYE, "house_1.dat"), line(16, (160, 0, -160), EYE, "house_2.dat"),
            line(16, (0, -72, 100), EYE, "fig_medic_1.dat"), line(16, (80, -72, 100), yaw(200), "fig_medic_1.dat"),
            line(16, (-100, -72, 160), yaw(45), "fig_knight.dat"), line(16, (160, 0, 160), EYE, "car.dat"),
            line(14, (-250, -8, 250), EYE, "sign.dat")]
    house_1 = [line(16, (0, 0, 0), EYE, "wing_a.dat"), line(16, (0, 0, 120), EYE, "wing_deco.dat"),
               line(16, (-120, 0, 0), EYE, "wing_b.dat")]
    wing_a = (wall(BROWN, 0, -50, 5) + wall(BROWN, 0, 50, 5) + wall(BROWN, -50, 0, 5, False)
              + wall(BROWN, 50, 0, 5, False) + [line(DITHER, (0, -128, 0), EYE, "3036.dat"),
                                               line(16, (0, -72, 0), EYE, "fig_guard.dat")])
    wing_deco = wall(72, 0, 0, 3) + [line(0, (-20, -96, 0), EYE, "3844.dat"), line(0, (10, -72, 0), TURN, "3847.dat"),
                                     line(15, (30, -96, -12), EYE, "3846.dat")]
    shopkeeper = placed(np.eye(3), (0, -72, 30), [(c, p, m, {"973.dat": "973p01.dat", "3626b.dat": "3626bp01.dat"}
                                                   .get(part, part)) for c, p, m, part in minifig_lines(15, 1)])
    wing_b = (wall(71, 0, -20, 4) + wall(71, -50, 20, 4, False) + wall(71, 50, 20, 4, False)
              + [line(GLASS, (16, -84, -20), TURN, "3854.dat")] + shopkeeper)
    house_2 = [line(16, (0, 0, 0), EYE, "wing_garage.dat"), line(16, (0, 0, 100), EYE, "wing_shed.dat")]
    tyre_ground = [line(0, (x, -18, 20), EYE, "3641.dat") for x in (-20, 20)]
    tyre_high = [line(0, (x, -60, 12), EYE, "3641.dat") for x in (-20, 20)]
    car = ([line(0, (x, -18, z), TURN, part) for x in (-30, 30) for z in (-40, 40) for part in ("3641.dat", "4624.dat")]
           + [line(4, (0, -26, 0), TURN, "3034.dat"), line(0, (0, -34, 10), EYE, "4079.dat"),
              line(16, (0, -70, 10), EYE, "fig_driver.dat")])
    sign = ["0 LDRAW_ORG Unofficial_Part UPDATE 2003-01", "3 16 -10 0 0 10 0 0 0 -20 0"]
    blocks = [
        block("town.dat", "Town", main), block("house_1.dat", "House", house_1),
        block("wing_a.dat", "Guard room", wing_a), block("wing_deco.dat", "Armoury wall", wing_deco),
        block("wing_b.dat", "Shop", wing_b), block("house_2.dat", "Garage", house_2),
        block("wing_garage.dat", "Garage wall", wall(4, 0, 0, 3) + tyre_ground),
        block("wing_shed.dat", "Shed wall", wall(4, 0, 0, 4) + tyre_high),
        block("car.dat", "Car", car),
        block("fig_medic_1.dat", "Medic", figure(hat="3624.dat", torso="973p01.dat", colour=15)),
        block("fig_guard.dat", "Guard", figure("3847.dat", hat="3844.dat", colour=1)),
        block("fig_knight.dat", "Knight", figure("3849.dat", hat="3896.dat", colour=4)),
        block("fig_driver.dat", "Driver", figure(hat="4485.dat", seated=True, colour=14)),
        block("sign.dat", "Sign", sign),
    ]
    return "\n".join(line for b in blocks for line in b)


if __name__ == "__main__":
    OUTPUT.write_text(build())
    print(f"wrote {OUTPUT}")
