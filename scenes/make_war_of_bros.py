"""Generate the bundled War of Bros scene: scenes/war-of-bros.yaml, war-of-bros.ldr and its figures.

Rerun from the repository root (deterministic; `python scenes/make_scenes.py` writes these too):

    python scenes/make_war_of_bros.py             # rewrites scenes/war-of-bros.*, scenes/figures/wob-*.ldr
    python scenes/make_war_of_bros.py --out DIR   # the same files under DIR

The battlefield: 96 x 128 studs (76.8 x 102.4 cm: the book's "one meter" table, a little narrower),
baseplates with every cover class of the book's table "Cover Provided By Various Materials":
sandbags (Sand, light), a greenhouse wall of clear bricks (Glass, light), bushes and trees (Bush,
medium), crates, fences and a log pile (Wood, medium), a truck wreck (Vehicle, medium), a barred
gate (Obstructions, medium), a ruined house (Building, heavy), rocks and stone walls (Stone,
heavy), a barricade (total), and two marshes (Difficult Terrain 3). Blue holds the south (facing
+Y, 90 degrees), red the north (facing 270); each brings 27 unit power ("Establish The Encounter"):
a Lieutenant, two Sergeants, four Privates (the Starting Units with their weapons) and a
Mechanized Private with its two crew. Only parts of the starter library (ldraw_library/) are used.
Changing the battlefield changes the games played on it: regenerate the bundled replay afterwards.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bricks import BRICK, I3, PLATE, STUD, baseplates, header, minifig, num, part, ry, shrub, tree, wall

HERE = Path(__file__).resolve().parent
WIDTH, DEPTH = 96, 128
BLUE, RED = 1, 4
SAND, BARRICADE, HULL, BUILDING = 19, 72, 0, 15    # colours the scene's materials: mapping names
MARSHES = (((30.0, 46.0), (44.0, 56.0)), ((52.0, 68.0), (72.0, 84.0)))   # (x0, x1), (y0, y1) studs


def mirror(y: float) -> float:
    """The north half is the south half turned about the table's middle line."""
    return DEPTH - y


# ---------------------------------------------------------------- the battlefield

def sandbags(x0: int, y0: int, length: int, courses: int = 2) -> list[str]:
    """Tan 2 x 2 bricks (the scene calls 3003 in Tan 'sand'): a line `length` studs long, 2 deep."""
    return [part(SAND, (STUD * (x + 1), -BRICK * (c + 1), STUD * (y0 + 1)), I3, "3003.dat")
            for c in range(courses) for x in range(x0, x0 + length, 2)]


def crates(x0: int, y0: int, courses: int = 2) -> list[str]:
    """A stack of Reddish_Brown 2 x 2 bricks, 4 x 2 studs (brown bricks are wood)."""
    return [part(70, (STUD * (x + 1), -BRICK * (c + 1), STUD * (y0 + 1)), I3, "3003.dat")
            for c in range(courses) for x in (x0, x0 + 2)]


def fence(x0: int, y0: int, count: int) -> list[str]:
    """Lattice fences (3633, 'Fence': wood) along X."""
    return [part(70, (STUD * (x0 + 4 * k + 2), -BRICK, STUD * (y0 + 0.5)), I3, "3633.dat") for k in range(count)]


def half(y) -> list[str]:
    """The features of one half; `y` maps the south half's y (studs) to this half's."""
    L = []
    lo = lambda a, b: int(min(y(a), y(b)))  # noqa: E731  (the lower edge of a row a..b after the turn)
    L += ["0 // sandbags (Sand: light cover)"] + sandbags(30, lo(34, 36), 16) + sandbags(70, lo(40, 42), 8)
    L += ["0 // crates (Wood: medium cover)"] + crates(58, lo(36, 38)) + crates(12, lo(42, 44))
    L += ["0 // a fence (Wood)"] + fence(76, lo(30, 31), 3)
    L += ["0 // bushes and a tree (Bush: medium cover)"]
    L += [part(2, (STUD * 20, 0, STUD * y(38)), I3, "6064.dat"), part(2, (STUD * 48, 0, STUD * y(46)), I3, "6064.dat")]
    L += shrub(25.5, y(40.5), 2) + tree(6, y(50), "3470.dat", 1, 2)
    L += ["0 // a low stone wall (Stone: heavy cover)"] + wall(71, 84, lo(50, 51), 8, True, 2)
    return L


def battlefield() -> list[str]:
    L = header("War of Bros battlefield: 96 x 128 studs, every cover class of the book (units in war-of-bros.yaml)",
               "war-of-bros.ldr")
    L += ["0 // ground: twelve 32 x 32 baseplates, corner at the origin (scene [x, y] studs = LDraw (X, Z) / 20)"]
    L += baseplates(WIDTH, DEPTH, 2)
    L += ["0 // the south half (blue)"] + half(lambda v: v)
    L += ["0 // the north half (red): the south half turned about the middle line"] + half(mirror)
    L += ["0 // marshes (Difficult Terrain 3, marked in the scene): blue plates on the ground"]
    for (x0, x1), (y0, y1) in MARSHES:
        for x in range(int(x0), int(x1), 8):
            for yy in range(int(y0), int(y1), 6):
                L.append(part(1, (STUD * (x + 4), -PLATE, STUD * (yy + 3)), I3, "3036.dat"))
    L += ["0 // a ruined house of white bricks (the scene calls 3009 in White 'building': heavy cover);",
          "0 // its east wall fallen to one course, windows without glass"]
    L += wall(BUILDING, 8, 56, 14, True, 4, openings=[(5, 4, 1, 3)], table={6: "3009.dat", 2: "3004.dat",
                                                                           1: "3005.dat"})
    L += wall(BUILDING, 8, 71, 14, True, 4, openings=[(5, 4, 1, 3)], table={6: "3009.dat", 2: "3004.dat",
                                                                           1: "3005.dat"})
    L += wall(BUILDING, 8, 57, 14, False, 4, openings=[(5, 4, 0, 3)], table={6: "3009.dat", 2: "3004.dat",
                                                                            1: "3005.dat"})
    L += wall(BUILDING, 21, 57, 14, False, 1, table={6: "3009.dat", 2: "3004.dat", 1: "3005.dat"})
    L += ["0 // a greenhouse wall of clear bricks (Glass: light cover)"]
    L += wall(47, 34, 60, 8, False, 3, table={2: "3004.dat"})
    L += ["0 // a truck wreck: black 2 x 4 bricks (the scene calls 3001 in Black 'vehicle'), wheels (Vehicle)"]
    for z in (61, 67):
        L.append(part(0, (STUD * 53, -BRICK, STUD * z), I3, "4600.dat"))
        for dx, turn in ((-26, -90), (26, 90)):
            L.append(part(71, (STUD * 53 + dx, -18, STUD * z), ry(turn), "4624.dat"))
            L.append(part(0, (STUD * 53 + dx, -18, STUD * z), ry(turn), "3641.dat"))
    for z in (60, 64):
        for c in (1, 2):
            L += [part(HULL, (STUD * x, -BRICK * (c + 1), STUD * (z + 2)), ry(90), "3001.dat") for x in (52, 54)]
    L += ["0 // a barred gate standing alone (Obstructions: medium cover)"]
    L.append(part(0, (STUD * 27, -6 * BRICK, STUD * 64.5), I3, "60621.dat"))
    L += ["0 // the barricade: dark grey 1 x 16 bricks (the scene calls 2465 in Dark_Bluish_Grey 'barricade': total)"]
    L += [part(BARRICADE, (STUD * 74, -BRICK * (c + 1), STUD * 63.5), I3, "2465.dat") for c in range(2)]
    L += ["0 // rocks (Stone: heavy cover)"]
    L += [part(72, (STUD * 90, -6 * BRICK, STUD * 44), ry(90), "6082.dat"),
          part(71, (STUD * 6, -7 * BRICK, STUD * 84), ry(-90), "6083.dat")]
    return L + [""]


# ---------------------------------------------------------------- the units

FIGURES = {  # kind: minifig options (the weapon in hand stands for the book's: Rifle, Machine Gun, Carbine)
    "lieutenant": dict(hat="3624.dat", hat_colour=0, right="rifle", item_colour=0),
    "sergeant": dict(hat="3896.dat", hat_colour=72, right="rifle", item_colour=72),
    "private": dict(hat="4485.dat", hat_colour=None, right="pistol", item_colour=0),
    "crew": dict(hat="3624.dat", hat_colour=0),
}


def figure(side: str, kind: str, torso: int) -> list[str]:
    spec = dict(FIGURES[kind])
    if spec.get("hat_colour") is None:
        spec["hat_colour"] = torso
    lines = header(f"War of Bros {side} {kind}: a standard minifig facing -Z, soles at Y = 0", f"wob-{side}-{kind}.ldr")
    return lines + minifig(torso, 72, arms=torso, **spec) + [""]


def tank(side: str, colour: int) -> list[str]:
    """A Mechanized Private: 6 x 14 studs on a 6 x 12 cm base, facing -Z, wheels at Y = 0."""
    y0 = -24
    L = header(f"War of Bros {side} tank: a Mechanized unit, 6 x 14 studs, facing -Z, wheels at Y = 0",
               f"wob-{side}-tank.ldr")
    for z in (-100, 0, 100):
        L.append(part(0, (0, y0, z), I3, "4600.dat"))
        for x, turn in ((26, 90), (-26, -90)):
            L.append(part(71, (x, y0 + 6, z), ry(turn), "4624.dat"))
            L.append(part(0, (x, y0 + 6, z), ry(turn), "3641.dat"))
    L += [part(72, (0, y0 - 8, -60), ry(90), "3036.dat"), part(72, (0, y0 - 8, 80), I3, "3958.dat")]
    L += [part(colour, (x, y0 - 32, z), ry(90), "3001.dat") for x in (-40, 0, 40) for z in (-80, 0, 80)]
    L += [part(colour, (x, y0 - 56, z), ry(90), "3001.dat") for x in (-20, 20) for z in (-40, 40)]
    L += [part(72, (0, y0 - 80, 20), I3, "3941.dat"), part(72, (0, y0 - 80, -50), ry(90), "3010.dat"),
          part(colour, (0, y0 - 104, 20), I3, "3941.dat")]
    return L + [""]


class U:
    """A unit of the scene: id, side, sheet, model, position (studs) or None (crew), facing."""

    def __init__(self, id, side, sheet, model, x=None, y=None, facing=90.0):
        self.id, self.side, self.sheet, self.model = id, side, sheet, model
        self.position = None if x is None else (x, y)
        self.facing = facing


def army(side: str) -> tuple[list[U], U]:
    """One side's units (27 unit power) and its Mechanized unit; the north side mirrored."""
    north = side == "red"
    y = mirror if north else (lambda v: v)
    facing = 270.0 if north else 90.0
    fig = lambda kind: f"figures/wob-{side}-{kind}.ldr"  # noqa: E731
    units = [U(f"{side}-lt", side, "lieutenant", fig("lieutenant"), 40.0, y(17.0), facing),
             U(f"{side}-sgt-1", side, "sergeant", fig("sergeant"), 26.0, y(19.0), facing),
             U(f"{side}-sgt-2", side, "sergeant", fig("sergeant"), 66.0, y(19.0), facing)]
    units += [U(f"{side}-pvt-{k + 1}", side, "private", fig("private"), x, y(22.0), facing)
              for k, x in enumerate((16.0, 34.0, 58.0, 78.0))]
    units += [U(f"{side}-crew-{k}", side, "crew", fig("crew")) for k in (1, 2)]
    mech = U(f"{side}-tank", side, "tank", f"figures/wob-{side}-tank.ldr", 50.0, y(12.0), facing)
    return units, mech


SHEETS = """sheets:                        # War of Bros sheets: the book's templates, lengths in cm
  lieutenant: {template: starter/lieutenant}   # Light Infantry Lieutenant: Rifle and Sidearm (9 unit power)
  sergeant: {template: starter/sergeant}       # Light Infantry Sergeant: Machine Gun and Sidearm (3)
  private: {template: starter/private}         # Light Infantry Private: Carbine and Knife (1)
  crew: {template: light-infantry/private}     # the Mechanized Private's crew: the Private's default outfit
  tank:                                        # Mechanized Private (8): 5 upgrade points, 3 spent
    template: mechanized/private
    weapons: [Area Weapon, MR-52 Assault]
"""


def scene_yaml() -> str:
    def unit_lines(u: U, vehicle: bool = False, crew=()) -> list[str]:
        out = [f"  - id: {u.id}", f"    side: {u.side}", f"    sheet: {u.sheet}", f"    model: {u.model}"]
        if u.position is not None:
            out.append(f"    position: [{num(u.position[0])}, {num(u.position[1])}]")
        out.append(f"    facing: {num(u.facing)}")
        if vehicle:
            out.append(f"    occupants: [{', '.join(crew)}]")
        return out

    blue, blue_tank = army("blue")
    red, red_tank = army("red")
    marshes = "\n".join(f"    - {{name: marsh, difficulty: 3, area: [[{num(x0)}, {num(y0)}], [{num(x1)}, {num(y0)}], "
                        f"[{num(x1)}, {num(y1)}], [{num(x0)}, {num(y1)}]]}}" for (x0, x1), (y0, y1) in MARSHES)
    head = f"""# War of Bros: the bundled battlefield (96 x 128 studs = 76.8 x 102.4 cm), generated by
# scenes/make_war_of_bros.py (do not edit). Positions in studs (1 stud = 8 mm), facings in degrees.
# Blue holds the south (facing 90), red the north (facing 270); 27 unit power each: a Lieutenant,
# two Sergeants, four Privates and a Mechanized Private whose two crew (its occupants) are ejected
# when it perishes. Bases (3 x 3 cm, 6 x 12 cm) come from the sheets' categories.
# Cover classes by material (the book's table): sandbags sand (light), the greenhouse glass (light),
# bushes and trees plant (medium: Bush), crates, fences and logs wood (medium), the truck wreck
# vehicle (medium), the barred gate metal (medium: Obstructions), the ruined house building (heavy),
# rocks and stone walls stone (heavy), the barricade (total).
format: bow3d-scene/1
name: War of Bros
battlefield: war-of-bros.ldr
ruleset:
  name: war-of-bros
  mode: domination                # Alternate Game Modes: the standard one
  unit_power: 27                  # Establish The Encounter: 27 for players new to the game
  start_distance_cm: 60           # Unit Placement: the closest units of two players at least 60 cm apart
  cover_threshold: 0.25           # our reading: behind cover from 25 % hidden
  blocker_share: 0.05             # our reading: a blocker hiding less than 5 % gives no cover
  terrain:                        # Difficult Terrain marked on the table
{marshes}
sides:
  - {{id: blue, name: Blue army, colour: {BLUE}}}
  - {{id: red, name: Red army, colour: {RED}}}
materials:                        # what some parts are made of, for the Cover Step
  3003.dat@{SAND}: sand              # tan 2 x 2 bricks: sandbags
  2465.dat@{BARRICADE}: barricade         # dark grey 1 x 16 bricks: the barricade
  3001.dat@{HULL}: vehicle            # black 2 x 4 bricks: the truck wreck's hull
  3009.dat@{BUILDING}: building          # white bricks of the ruined house
  3004.dat@{BUILDING}: building
  3005.dat@{BUILDING}: building
"""
    lines = [head + SHEETS + "units:"]
    for u in blue + red:
        lines += unit_lines(u)
    lines.append("vehicles:")
    for tank_unit, units in ((blue_tank, blue), (red_tank, red)):
        crew = [u.id for u in units if u.sheet == "crew"]
        lines += unit_lines(tank_unit, vehicle=True, crew=crew)
    return "\n".join(lines) + "\n"


def files() -> dict[str, str]:
    """Every generated file, by path relative to scenes/."""
    out = {"war-of-bros.ldr": "\n".join(battlefield()), "war-of-bros.yaml": scene_yaml()}
    for side, colour in (("blue", BLUE), ("red", RED)):
        for kind in FIGURES:
            out[f"figures/wob-{side}-{kind}.ldr"] = "\n".join(figure(side, kind, colour))
        out[f"figures/wob-{side}-tank.ldr"] = "\n".join(tank(side, colour))
    return out


def write_tree(out: Path) -> list[Path]:
    written = []
    for rel, text in sorted(files().items()):
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
