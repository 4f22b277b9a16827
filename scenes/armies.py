"""The armies of the bundled scenes: figures, vehicles, BOW description sheets, unit placements, LOS lanes.

Used by make_scenes.py. Sheets follow BOW 1.3 Annex A: the basic trooper of A.1 (action budget 2,
move 5, dodge 1, attack 1, HP 1, treat 0) with damage and armor from the A.2 table (knife, spear
and lance 1; sword, axe, bow, gun 2; little vehicle weapon 3; helmet, shield 1 each). Costs by
A.4 are computed here too (cost_of) so the generator can keep the two sides balanced.
"""

from __future__ import annotations

from dataclasses import dataclass

from bricks import I3, header, minifig, part, ry

BLUE, RED = 1, 4

# ---------------------------------------------------------------- description sheets (BOW Annex A)


def trooper(armor: int, weapons: list[dict], treat: int = 0, hp: int = 1) -> dict:
    """The A.1 basic trooper with the given armor, weapons, treat and health points."""
    return {"kind": "minifig", "action_budget": 2, "move": 5, "attack": 1, "dodge": 1, "armor": armor, "hp": hp,
            "hp_colour": "red", "treat": treat, "treat_colour": "red", "weapons": weapons}


def melee(name: str, damage: int, reach: float) -> dict:
    return {"name": name, "kind": "melee", "damage": damage, "reach": reach}


def ranged(name: str, damage: int) -> dict:
    return {"name": name, "kind": "ranged", "damage": damage}


SHEETS: dict[str, dict] = {
    "swordsman": trooper(2, [melee("sword", 2, 2)], hp=2),      # helmet + shield; a veteran: wounds before dying
    "axeman": trooper(1, [melee("battle axe", 2, 2)]),          # helmet
    "spearman": trooper(1, [melee("spear", 1, 3)]),             # helmet
    "medic": trooper(0, [melee("knife", 1, 1)], treat=1),
    "rifleman": trooper(0, [ranged("rifle", 2), melee("knife", 1, 1)]),
    "archer": trooper(0, [ranged("bow", 2), melee("knife", 1, 1)]),
    "pistolier": trooper(0, [ranged("pistol", 2)]),
    "knight": trooper(2, [melee("lance", 1, 4), melee("knife", 1, 1)]),  # helmet + shield, rides the horse
    "jeep": {"kind": "vehicle", "speed": 4, "min_speed": 0, "flying": False, "dodge": 0, "armor": 5, "hp": 2,
             "seats": 2, "exposed_occupants": True,
             "weapons": [{"name": "machine gun", "kind": "ranged", "damage": 3, "arc": 180}]},
    "horse": {"kind": "vehicle", "speed": 2, "min_speed": 0, "flying": False, "dodge": 0, "armor": 3, "hp": 1,
              "seats": 1, "exposed_occupants": True, "weapons": []},
}
GALLERY_SHEETS = {"rifleman": SHEETS["rifleman"], "target": trooper(0, [melee("knife", 1, 1)])}


def cost_of(sheet: dict) -> int:
    """BOW 1.3 Annex A.4 cost points of a sheet with its first weapon."""
    weapons = sheet["weapons"]
    if sheet["kind"] == "vehicle":
        return (sheet["speed"] * 5 + sheet["dodge"] + sheet["armor"] + sum(w["damage"] for w in weapons)) * sheet["hp"]
    weapon = weapons[0] if weapons else None
    damage = weapon["damage"] if weapon else 0
    base = (sheet["action_budget"] + sheet["move"] + sheet["dodge"] + sheet["armor"] + sheet["attack"] + damage
            + sheet["treat"]) * sheet["hp"]
    return base * damage if weapon and weapon["kind"] == "ranged" else base


# ---------------------------------------------------------------- figures and vehicles

def _side_figures(side: str, torso: int) -> dict[str, list[str]]:
    grey, black, brown = 71, 0, 6
    kinds = {
        "swordsman": dict(hat="3844.dat", hat_colour=grey, right="sword", left="shield", item_colour=grey),
        "axeman": dict(hat="3896.dat", hat_colour=grey, right="axe", item_colour=grey),
        "spearman": dict(hat="3896.dat", hat_colour=grey, right="spear", item_colour=brown),
        "medic": dict(torso_colour=15, hat="4485.dat", hat_colour=15),
        "rifleman": dict(hat="4485.dat", hat_colour=torso, right="rifle", item_colour=black),
        "archer": dict(hat="4485.dat", hat_colour=brown, right="bow", item_colour=brown),
        "pistolier": dict(hat="3624.dat", hat_colour=black, right="pistol", item_colour=black),
        "driver": dict(hat="3624.dat", hat_colour=black, seated=True),
        "rider": dict(hat="3844.dat", hat_colour=grey, right="lance", left="shield", item_colour=brown, seated=True),
        "target": dict(),
        "gallery-firer": dict(hat="4485.dat", hat_colour=torso, right="rifle", item_colour=black, head="3626b.dat"),
        "gallery-target": dict(head="3626b.dat"),
    }
    out = {}
    for kind, spec in kinds.items():
        if kind == ("gallery-target" if side == "blue" else "gallery-firer"):
            continue  # the gallery's firers are blue, its targets red
        spec = dict(spec)
        colour = spec.pop("torso_colour", torso)
        seated = spec.get("seated", False)
        title = f"{side.title()} {kind}: a standard minifig{' (seated)' if seated else ''}, facing -Z, soles at Y = 0"
        name = f"{kind}.ldr" if kind.startswith("gallery-") else f"{side}-{kind}.ldr"
        lines = header(title, name)
        lines += minifig(colour, 0 if colour != 15 else 72, arms=colour, **spec) + [""]
        out[name] = lines
    return out


# Where a seated occupant's origin goes, in the vehicle model's frame (LDraw, LDU): read by `bow3d demo`.
JEEP_SEATS = [(20, -72, 32), (-20, -72, 32)]
HORSE_SEATS = [(0, -57, 14)]


def jeep() -> list[str]:
    """A small jeep, 4 x 8 studs, facing -Z: wheel plates 4600, rims 4624, tyres 3641, seats, wheel, windscreen."""
    y0 = -24  # tyres (radius 18 about the pins at y = 6) reach y = 24 below the wheel plates: lift all by 24
    L = header("Jeep: 4 x 8 studs, facing -Z, tyres at Y = 0 (a BOW vehicle)", "jeep.ldr",
               [f"0 // bow3d seat {i + 1}: {x} {y} {z}" for i, (x, y, z) in enumerate(JEEP_SEATS)])
    for z in (-50, 50):
        L.append(part(0, (0, y0, z), I3, "4600.dat"))
        for x, turn in ((26, 90), (-26, -90)):
            L.append(part(71, (x, y0 + 6, z), ry(turn), "4624.dat"))
            L.append(part(0, (x, y0 + 6, z), ry(turn), "3641.dat"))
    L.append(part(72, (0, y0 - 8, 0), ry(90), "3034.dat"))
    L += [part(72, (0, y0 - 32, z), ry(90), "3001.dat") for z in (-40, 40)]
    L.append(part(288, (0, y0 - 40, 0), ry(90), "3035.dat"))
    L.append(part(288, (0, y0 - 64, -70), I3, "3010.dat"))
    L.append(part(288, (0, y0 - 72, -70), I3, "3710.dat"))
    L.append(part(47, (0, y0 - 88, -30), I3, "3823.dat"))
    L.append(part(72, (20, y0 - 48, 0), I3, "3829c01.dat"))
    L += [part(0, (x, y0 - 48, 30), I3, "4079.dat") for x in (20, -20)]
    L += [part(288, (x, y0 - 64, 70), I3, "3010.dat") for x in (0,)]
    L.append(part(72, (0, y0 - 88, 70), I3, "3062b.dat"))
    L.append(part(0, (0, y0 - 98, 40), I3, "30141.dat"))
    return L + [""]


def horse() -> list[str]:
    """A horse (4493c01) facing -Z, hooves at Y = 0, footprint centred on the origin."""
    L = header("Horse: a BOW vehicle (speed 2, armor 3), facing -Z, hooves at Y = 0", "horse.ldr",
               [f"0 // bow3d seat {i + 1}: {x} {y} {z}" for i, (x, y, z) in enumerate(HORSE_SEATS)])
    return L + [part(70, (0, -57, 5), I3, "4493c01.dat"), ""]


def figure_files() -> dict[str, list[str]]:
    """Every model file of scenes/figures/ that a scene uses, by file name."""
    every = {**_side_figures("blue", BLUE), **_side_figures("red", RED), "jeep.ldr": jeep(), "horse.ldr": horse()}
    used = {p.model.removeprefix("figures/") for p in [*VILLAGE_UNITS, *VILLAGE_VEHICLES]}
    used |= {"gallery-firer.ldr", "gallery-target.ldr"}  # the LOS gallery's firers and targets
    return {name: lines for name, lines in every.items() if name in used}


# ---------------------------------------------------------------- the village's units

@dataclass(frozen=True)
class Placement:
    """A unit or vehicle of a scene: id, side, sheet, model file, position in studs, facing in degrees."""

    id: str
    side: str
    sheet: str
    model: str
    position: tuple[float, float] | None
    facing: float
    occupants: tuple[str, ...] = ()


def _unit(id: str, side: str, kind: str, sheet: str, x: float | None, y: float | None, facing: float) -> Placement:
    return Placement(id, side, sheet, f"figures/{side}-{kind}.ldr", None if x is None else (x, y), facing)


VILLAGE_UNITS = [  # blue holds the west (facing east, 0), red the east (facing west, 180)
    _unit("blue-sword", "blue", "swordsman", "swordsman", 12.5, 31.5, 0),
    _unit("blue-spear", "blue", "spearman", "spearman", 9.5, 26.5, 0),
    _unit("blue-medic", "blue", "medic", "medic", 3.5, 31.5, 0),
    _unit("blue-rifle-1", "blue", "rifleman", "rifleman", 3.5, 11.5, 0),
    _unit("blue-rifle-2", "blue", "rifleman", "rifleman", 9.5, 34.5, 0),
    _unit("blue-archer", "blue", "archer", "archer", 2.5, 16.5, 0),
    _unit("blue-driver", "blue", "driver", "pistolier", None, None, 0),
    _unit("red-sword", "red", "swordsman", "swordsman", 50.5, 29.5, 180),
    _unit("red-axe", "red", "axeman", "axeman", 53.5, 35.5, 180),
    _unit("red-spear", "red", "spearman", "spearman", 47.5, 31.5, 180),
    _unit("red-medic", "red", "medic", "medic", 61.5, 24.5, 180),
    _unit("red-archer-1", "red", "archer", "archer", 60.5, 43.5, 180),
    _unit("red-archer-2", "red", "archer", "archer", 60.5, 48.5, 180),
    _unit("red-rifle-1", "red", "rifleman", "rifleman", 51.5, 21.5, 180),
    _unit("red-rifle-2", "red", "rifleman", "rifleman", 61.5, 38.5, 180),
    _unit("red-pistol", "red", "pistolier", "pistolier", 44.5, 33.5, 180),
    _unit("red-knight", "red", "rider", "knight", None, None, 180),
]
VILLAGE_VEHICLES = [
    Placement("blue-jeep", "blue", "jeep", "figures/jeep.ldr", (21.0, 32.0), 0, ("blue-driver",)),
    Placement("red-horse", "red", "horse", "figures/horse.ldr", (56.5, 32.0), 180, ("red-knight",)),
]


# ---------------------------------------------------------------- the LOS gallery's lanes

@dataclass(frozen=True)
class Lane:
    """One lane of the LOS gallery: a firer and a target on the line z, and what the referee should say."""

    key: str
    z: float
    firer_x: float
    target_x: float
    target_facing: float
    wall_x: int | None
    expect: str


LANE_SPACING = 6  # studs between lane centres; walls are at most 6 studs long, sight lines 1 stud wide
GALLERY_LANES = [
    Lane("open", 4.5, 8.5, 28.5, 180, None, "visible, not covered, 20 studs, penalty 1, in arc"),
    Lane("lowwall", 10.5, 8.5, 28.5, 180, 25, "visible, covered (legs and hips hidden by a 48 LDU wall), in arc"),
    Lane("fullwall", 16.5, 8.5, 28.5, 180, 25, "not visible (144 LDU wall), in arc"),
    Lane("window", 22.5, 8.5, 28.5, 180, 25, "visible through the window, covered (sill 48 LDU, frame), in arc"),
    Lane("behind", 28.5, 20.5, 10.5, 0, None, "visible, not covered, 10 studs, NOT in the front arc"),
    Lane("range15", 34.5, 4.5, 19.5, 180, None, "visible, 15 studs head to head, penalty 0"),
    Lane("range16", 40.5, 4.5, 20.5, 180, None, "visible, 16 studs, penalty 1"),
    Lane("range30", 46.5, 4.5, 34.5, 180, None, "visible, 30 studs, penalty 1"),
    Lane("range31", 52.5, 4.5, 35.5, 180, None, "visible, 31 studs, penalty 2"),
    Lane("range46", 58.5, 4.5, 50.5, 180, None, "visible, 46 studs, penalty 3"),
]
