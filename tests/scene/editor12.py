"""Writer of tests/data/scenes/editor-12.mpd: a battlefield as an LDraw editor saves it, with 12 minifigs.

Run `python tests/scene/editor12.py` to rewrite the file; test_from_ldraw checks that the committed
file is what this writes. Minifigs are built with the standard LDraw minifig offsets (torso at the
origin, hips at Y=32, legs at Y=44, head at Y=-24, arms at X=+-15.552 Y=9, hands and held items as
LDraw minifig generators place them). Six are sub-models (two placed twice, two inside a squad
sub-model; turned by angles that are not multiples of 90 degrees), six are loose parts; some stand
on raised plates and bricks; sides come from `0 !BOW UNIT` lines or from sub-model names.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
OUTPUT = HERE.parent / "data" / "scenes" / "editor-12.mpd"

# Standard minifig offsets (LDraw, relative to the torso): (colour, x, y, z, 3x3 matrix row-major, part)
R_ARM = (0.985, -0.17, 0, 0.17, 0.985, 0, 0, 0, 1)
L_ARM = (0.985, 0.17, 0, -0.17, 0.985, 0, 0, 0, 1)
R_HAND = (0.985, -0.12019, 0.12019, 0.17, 0.696395, -0.696395, 0, 0.707, 0.707)
L_HAND = (0.985, 0.12019, -0.12019, -0.17, 0.696395, -0.696395, 0, 0.707, 0.707)
HELD_R = ((-24.091066, 27.914725, -26.513407), (0.985, -0.086269, 0.146455, 0.17, 0.49985, -0.848577, 0, 0.861499,
                                                  0.507462))
HELD_L = ((24.091066, 27.914725, -26.513407), (0.985, 0.086269, -0.146455, -0.17, 0.49985, -0.848577, 0, 0.861499,
                                                0.507462))
EYE = (1, 0, 0, 0, 1, 0, 0, 0, 1)


WEAPON_OF = {"30141.dat": "rifle", "4499.dat": "bow", "2561.dat": "musket", "3847.dat": "sword", "3849.dat": "lance",
             None: None}
FIGURES = {  # what each minifig sub-model should be found as: side, weapon in hand, parts
    "blue-rifleman.ldr": {"side": "blue", "weapon": "rifle", "parts": 11},
    "archer.ldr": {"side": "red", "weapon": "bow", "parts": 10},
    "musketeer.ldr": {"side": "blue", "weapon": "musket", "parts": 11},
    "red-swordsman.ldr": {"side": "red", "weapon": "sword", "parts": 12},
}


def minifig_lines(torso_colour: int, legs_colour: int, held: str | None = None, shield: bool = False,
                  hat: str | None = None) -> list[tuple[int, tuple[float, float, float], tuple, str]]:
    """The parts of a standard minifig relative to its torso at the origin, facing LDraw -Z."""
    parts = [(torso_colour, (0, 0, 0), EYE, "973.dat"), (legs_colour, (0, 32, 0), EYE, "3815.dat"),
             (legs_colour, (0, 44, 0), EYE, "3816.dat"), (legs_colour, (0, 44, 0), EYE, "3817.dat"),
             (torso_colour, (-15.552, 9, 0), R_ARM, "3818.dat"), (torso_colour, (15.552, 9, 0), L_ARM, "3819.dat"),
             (14, (-23.8634, 26.5956, -10.321), R_HAND, "3820.dat"), (14, (23.8634, 26.5956, -10.321), L_HAND, "3820.dat"),
             (14, (0, -24, 0), EYE, "3626b.dat")]
    if hat:
        parts.append((0, (0, -24, 0), EYE, hat))
    if held in ("3847.dat", "2530.dat", "3848.dat"):  # blades: held as LDraw minifig generators hold a sword
        parts.append((0, HELD_R[0], HELD_R[1], held))
    elif held == "2561.dat":  # the musket is drawn along its Y axis: laid level, pointing forward
        parts.append((0, HELD_R[0], (1, 0, 0, 0, 0, -1, 0, 1, 0), held))
    elif held:  # rifles, bows, lances: in the right hand, unturned (pointing forward or up, clear of the ground)
        parts.append((0, HELD_R[0], EYE, held))
    if shield:
        parts.append((15, HELD_L[0], HELD_L[1], "3846.dat"))
    return parts


def yaw(facing_deg: float) -> np.ndarray:
    """LDraw rotation about -Y (vertical) that turns a model facing LDraw -Z (facing 270) to `facing_deg`."""
    f = math.radians(facing_deg)
    s, c = -math.cos(f), -math.sin(f)
    return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])


def fmt(v: float) -> str:
    text = f"{v:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def line(colour: int, pos, matrix, part: str) -> str:
    m = np.asarray(matrix, float).reshape(3, 3)
    return f"1 {colour} " + " ".join(fmt(v) for v in (*pos, *m.reshape(-1))) + f" {part}"


def placed(rotation: np.ndarray, origin, parts) -> list[str]:
    out = []
    for colour, pos, matrix, part in parts:
        p = rotation @ np.asarray(pos, float) + np.asarray(origin, float)
        out.append(line(colour, p, rotation @ np.asarray(matrix, float).reshape(3, 3), part))
    return out


def build() -> tuple[str, list[dict]]:
    """(MPD text, truth): truth lists each minifig's position [x, y] in studs and facing in degrees."""
    truth: list[dict] = []
    main = ["0 FILE editor-12.ldr", "0 Editor-12 battlefield", "0 Name: editor-12.ldr", "0 Author: bow3d tests",
            "0 !LDRAW_ORG Unofficial_Model", "0 STEP",
            line(2, (0, 0, 0), EYE, "3811.dat"),
            line(4, (-200, -24, -100), EYE, "3001.dat"), line(4, (-200, -48, -100), EYE, "3001.dat"),
            line(71, (150, -24, 150), yaw(300), "3001.dat")]

    def stand(x: float, z: float, kind: str) -> float:
        """A raised stand under a minifig at LDraw (x, z); returns the ground height Y on top of it."""
        if kind == "plate":
            main.append(line(72, (x, -8, z), EYE, "3022.dat"))
            return -8.0
        if kind == "brick":
            main.append(line(72, (x, -24, z), EYE, "3003.dat"))
            return -24.0
        return 0.0

    # Sub-model minifigs (soles at the sub-model origin for some, the torso at the origin for others).
    placements = [  # (sub-model, studs x, studs y, facing, stand, meta before the line)
        ("blue-rifleman.ldr", 3.5, 4.5, 37.0, None, None),
        ("blue-rifleman.ldr", -6.5, 9.5, 200.0, "plate", None),
        ("archer.ldr", 8.5, -7.5, 123.0, "brick", None),
        ("musketeer.ldr", -10.5, -4.5, 301.5, None, "0 !BOW UNIT side=blue sheet=musketeer id=blue-musketeer"),
    ]
    soles_at_origin = {"blue-rifleman.ldr": True, "archer.ldr": False, "musketeer.ldr": True,
                       "red-swordsman.ldr": True}
    main.append("0 STEP")
    for name, x, y, facing, kind, meta in placements:
        ground = stand(x * 20, y * 20, kind)
        offset = 0.0 if soles_at_origin[name] else -72.0
        if meta:
            main.append(meta)
        main.append(line(16, (x * 20, ground + offset, y * 20), yaw(facing), name))
        truth.append({"position": (x, y), "facing": facing, "ground": -ground, "source": name, **FIGURES[name]})
    # A squad sub-model holding two swordsmen, placed turned by 15 degrees.
    squad_yaw, squad_at = 195.0, (12.0, 10.0)
    squad_members = [((-50.0, 0.0), 0.0), ((50.0, 10.0), 20.0)]  # (LDraw x, z in the squad), extra turn
    main.append(line(16, (squad_at[0] * 20, 0, squad_at[1] * 20), yaw(squad_yaw), "red-squad.ldr"))
    rot = yaw(squad_yaw)
    for (sx, sz), turn in squad_members:
        world = rot @ np.array([sx, 0.0, sz]) + np.array([squad_at[0] * 20, 0, squad_at[1] * 20])
        truth.append({"position": (world[0] / 20, world[2] / 20), "facing": (squad_yaw + turn) % 360,
                      "ground": 0.0, "source": "red-swordsman.ldr", **FIGURES["red-swordsman.ldr"]})
    # Loose minifigs: the parts written straight into the main model, `0 !BOW UNIT` before the torso.
    loose = [  # (studs x, y, facing, stand, side, held, shield, hat)
        (-12.5, 12.5, 0.0, None, "red", "3847.dat", True, "3844.dat"),
        (0.5, -12.5, 90.0, "brick", "red", "30141.dat", False, "4485.dat"),
        (14.5, -2.5, 250.0, None, "blue", "2561.dat", False, None),
        (-2.5, 0.5, 310.0, "plate", "blue", "3849.dat", True, "3896.dat"),
        (6.5, 13.5, 47.0, None, "red", "4499.dat", False, None),
        (-13.5, -12.5, 163.0, None, "blue", None, False, "3624.dat"),
    ]
    for x, y, facing, kind, side, held, shield, hat in loose:
        ground = stand(x * 20, y * 20, kind)
        main.append("0 STEP")
        main.append(f"0 !BOW UNIT side={side}")
        colour = 1 if side == "blue" else 4
        main += placed(yaw(facing), (x * 20, ground - 72, y * 20), minifig_lines(colour, 0, held, shield, hat))
        truth.append({"position": (x, y), "facing": facing, "ground": -ground, "source": "loose", "side": side,
                      "weapon": WEAPON_OF.get(held), "parts": 9 + bool(held) + shield + bool(hat)})
    main.append("0 NOFILE")

    def figure_file(name: str, title: str, colour: int, held: str | None, shield: bool, hat: str | None,
                    meta: str | None, soles: bool) -> list[str]:
        head = [f"0 FILE {name}", f"0 {title}", f"0 Name: {name}", "0 Author: bow3d tests",
                "0 !LDRAW_ORG Unofficial_Model"]
        if meta:
            head.append(meta)
        return head + placed(np.eye(3), (0, -72 if soles else 0, 0), minifig_lines(colour, 0, held, shield, hat)) \
            + ["0 NOFILE"]

    files = figure_file("blue-rifleman.ldr", "Blue rifleman", 1, "30141.dat", False, "3844.dat", None, True)
    files += figure_file("archer.ldr", "Archer", 4, "4499.dat", False, None, "0 !BOW UNIT side=red sheet=archer",
                         False)
    files += figure_file("musketeer.ldr", "Musketeer", 1, "2561.dat", False, "4485.dat", None, True)
    files += figure_file("red-swordsman.ldr", "Red swordsman", 4, "3847.dat", True, "3844.dat", None, True)
    squad = ["0 FILE red-squad.ldr", "0 Red squad", "0 Name: red-squad.ldr", "0 !LDRAW_ORG Unofficial_Model"]
    for (sx, sz), turn in squad_members:
        squad.append(line(16, (sx, 0, sz), yaw(270 + turn), "red-swordsman.ldr"))
    squad.append("0 NOFILE")
    return "\n".join(main + files + squad) + "\n", truth


if __name__ == "__main__":
    text, _ = build()
    OUTPUT.write_text(text)
    print(f"wrote {OUTPUT}")
