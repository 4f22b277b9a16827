"""`bow3d scene check SCENE` and `bow3d scene from-ldraw MODEL -o SCENE.yaml`: validate and build scene files."""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from bow3d.errors import SceneError, UserInputError
from bow3d.i18n import N_, _, decimal, marked, ngettext
from bow3d.scene.model import DEFAULT_RULESET
from bow3d.units import LDU_PER_BRICK

NAME = "scene"
ORDER = 40
STRADDLE_LDU = LDU_PER_BRICK   # more than a brick of drop under a unit's base: it was placed in a wall or on an edge
HELP = "check a scene file, or build one from an LDraw battlefield with minifigs placed in it"
DESCRIPTION = """Scene files (format: bow3d-scene/1, YAML) name the battlefield, the sides, the BOW
description sheets, the units and the vehicles.

  check SCENE          validate everything (fields, ids, sides, sheets, weapons, cells, seats, files,
                       positions inside the battlefield) and print a summary; exit code 2 on a mistake
  from-ldraw MODEL     find the minifigs and vehicles placed in an LDraw model (sub-models, or loose
                       minifig parts) and write a scene, the decor and one model file per unit

examples:
  bow3d scene check scenes/village.yaml
  bow3d scene from-ldraw scenes/western-town.ldr -o western.yaml
  bow3d scene from-ldraw scenes/western-town.ldr -o western.yaml --side-default blue --force

Sides and sheets in the LDraw model: write `0 !BOW UNIT side=blue sheet=rifleman id=blue-1` inside a
minifig's sub-model or on the line just before its reference (or before its torso when the minifig
is loose parts), `0 !BOW VEHICLE side=blue sheet=jeep` for a vehicle; or name the sub-model after
the side (blue-rifleman.ldr).

Files a scene names (battlefield, unit and vehicle models) must be regular files inside the scene's
folder or the LDraw library, after following links; BOW3D_ALLOW_PATHS=DIR[:DIR...] allows other
folders. Written files never replace or follow what is there: no links, nothing without --force."""


FROM_LDRAW = """Make a scene of a battlefield built in an LDraw editor, minifigs and vehicles placed in it.

Minifigs are found as the innermost sub-model around one torso (973*) that is mostly minifig parts,
at any depth, one unit per placement (a building wing with a minifig inside is not one), or as
loose minifig parts (grouped around each torso). Position = the point under the torso's hips, in
studs; facing = where the torso looks. Vehicles: sub-models with a `0 !BOW VEHICLE` line, or
holding a horse (4493c01) or a steering wheel, or standing on wheels (two or more at its bottom,
nothing else on the ground: a wall with decorative tyres stays decor); the minifigs in or on them
are their occupants, the one nearest the steering wheel (else the front) first. Weapons and armour
held pick a default sheet (BOW Annex A.1 trooper + A.2 damage and armour values). Each unit and
vehicle is printed with why it was taken; sub-models that looked like one but stay decor are listed
with the reason, and a note names every minifig that sits, or stands under decor (a roof): in the
scene it would stand on top of it.

Sides, sheets, ids: `0 !BOW UNIT side=blue sheet=rifleman id=blue-1 weapon=rifle` inside the
minifig's sub-model, or on the line just before its reference (for loose parts: just before the
torso); `0 !BOW VEHICLE side=blue sheet=jeep id=blue-jeep` likewise; else a side named in the
sub-model's name (blue-rifleman.ldr); else side 'unassigned' (listed; the scene will not load until
you set them), or --side-default SIDE.

Written next to SCENE.yaml (never over existing files unless --force; your model is never changed):
  SCENE.yaml              the scene
  SCENE-decor.ldr         the model minus the units and vehicles (the battlefield)
  SCENE-units/ID.ldr      one model per unit and vehicle in its own frame (facing LDraw -Z, origin
                          at the footprint centre, lowest point at Y = 0)

examples:
  bow3d scene from-ldraw scenes/western-town.ldr -o western.yaml
  bow3d scene from-ldraw scenes/western-town.ldr -o western.yaml --side-default blue --force
  bow3d scene check western.yaml"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    check = sub.add_parser("check", help="validate a scene file and print a summary",
                           formatter_class=argparse.RawDescriptionHelpFormatter,
                           description="Validate a scene file: fields and types, ids, sides, sheets, weapons, two "
                           "units on one cell,\nseats and occupants, the battlefield and model files, and every "
                           "position inside the battlefield.\nMistakes are printed as FILE:LINE: FIELD PATH: "
                           "problem; fix (exit code 2).\n\nexamples:\n  bow3d scene check scenes/village.yaml\n"
                           "  bow3d scene check western.yaml --library ldraw_library")
    check.add_argument("scene", help="a scene file (.yaml)")
    check.add_argument("--library", metavar="DIR", help="LDraw library folder (default: $LDRAWDIR, else the "
                       "bundled starter library)")
    build = sub.add_parser("from-ldraw", help="build a scene from an LDraw model with minifigs and vehicles in it",
                           description=FROM_LDRAW, formatter_class=argparse.RawDescriptionHelpFormatter)
    build.add_argument("model", help="the LDraw battlefield (.ldr, .mpd) with minifigs and vehicles placed in it")
    build.add_argument("-o", "--output", required=True, metavar="SCENE.yaml", help="the scene file to write")
    build.add_argument("--force", action="store_true", help="replace the scene, decor and unit files if they exist")
    build.add_argument("--ruleset", default=DEFAULT_RULESET, metavar="NAME",
                       help="the ruleset whose default description sheets the figures get (default bow-1.3)")
    build.add_argument("--side-default", metavar="SIDE",
                       help="side of the minifigs that no !BOW meta line or sub-model name gives a side "
                       "(without it they are written as side: unassigned and the scene will not load "
                       "until you set them)")
    build.add_argument("--library", metavar="DIR", help="LDraw library folder (default: $LDRAWDIR, else the "
                       "bundled starter library)")


def run(args: argparse.Namespace) -> int:
    from bow3d.ldraw import Library

    library = Library.from_env(args.library)
    if args.action == "check":
        return _check(args.scene, library)
    return _from_ldraw(args, library)


def _check(path: str, library) -> int:
    from bow3d.rulesets import load_scene, ruleset_of
    from bow3d.scene import battlefield_extent, side_colour_warnings

    empty = _empty_library_warning(library)
    try:
        scene = load_scene(path, battlefield=True, library=library)
    except SceneError as error:
        if empty is None:
            raise
        raise SceneError(f"{error}\n  {empty}") from None   # the likely cause, named beside what it caused
    (x0, y0), (x1, y1) = battlefield_extent(scene.battlefield_path, library)
    ruleset = ruleset_of(scene)
    totals = ruleset.army_costs(scene) or {}
    print(_("{path}: OK ({format})").format(path=path, format=scene.format))
    labels = {key: _(key) for key in (N_("name"), N_("battlefield"), N_("ruleset"), N_("sheets"))}
    width = max(12, *(len(label) for label in labels.values()))
    print(f"  {labels['name']:<{width}} " + (scene.name or _("(none)")))
    print(f"  {labels['battlefield']:<{width}} " + _("{file} ({width} x {depth} studs, x {x0} to {x1}, y {y0} to {y1})")
          .format(file=scene.battlefield, width=f"{x1 - x0:.0f}", depth=f"{y1 - y0:.0f}", x0=decimal(x0), x1=decimal(x1),
                  y0=decimal(y0), y1=decimal(y1)))
    print(f"  {labels['ruleset']:<{width}} {scene.ruleset.name} ({marked(ruleset.title)}, {marked(ruleset.edition)})")
    sheets = ", ".join(f"{k} ({sheet_kind(getattr(v, 'kind', '?'))})" for k, v in scene.sheets.items()) or _("none")
    print(f"  {labels['sheets']:<{width}} {sheets}")
    for side in scene.sides:
        units, vehicles = scene.units_of(side.id), scene.vehicles_of(side.id)
        points = ", " + _("{points} CP").format(points=totals[side.id]) if side.id in totals else ""
        counted = ngettext("{n} unit", "{n} units", len(units)).format(n=len(units)) + ", " + ngettext(
            "{n} vehicle", "{n} vehicles", len(vehicles)).format(n=len(vehicles))
        print("  " + _("side {side}").format(side=f"{side.id:<8}") + f" {side.name}: {counted}{points}")
    warnings = [empty, ruleset.balance_warning(totals) if totals else None,
                *side_colour_warnings(scene, library), *_footing_warnings(scene, library)]
    for warning in filter(None, warnings):
        print(f"  {warning}")
    return 0


def _empty_library_warning(library) -> str | None:
    """A warning naming the library when none of its roots holds a part (parts/ empty): every part is then
    missing and drawn as a box, which the checks below cannot tell from a battlefield."""
    from bow3d.ldraw.install import count_parts

    if any(count_parts(root) for root in library.roots):
        return None
    return _("the LDraw library {library} has no parts (its parts/ folder holds no .dat file): every part of the "
             "battlefield and the models is missing and drawn as a box; give --library a full library, or run "
             "bow3d library install").format(library=", ".join(str(root) for root in library.roots))


def _footing_warnings(scene, library) -> list[str]:
    """Units whose base straddles a drop of more than STRADDLE_LDU (placed in a wall, or on a roof's edge): the
    world stands them on the highest part (C1), up where their sight lines are not what the player meant; units
    over no decor at all (a gap between baseplates, a battlefield of walls alone)."""
    import numpy as np

    from bow3d.world import World

    placed = [unit for unit in scene.units if unit.position is not None]
    if not placed:
        return []
    ground, drops = World.from_scene(scene, library).footing(np.array([unit.position for unit in placed]))
    warnings = []
    for unit, under, drop in zip(placed, ground.tolist(), drops.tolist()):
        where = {"unit": unit.id, "x": unit.position[0], "y": unit.position[1]}
        if not math.isfinite(under):
            warnings.append(_("unit {unit} at [{x:g}, {y:g}]: nothing of the battlefield is under it (no baseplate or "
                              "ground there), so it stands on thin air at the model's zero height; build ground under "
                              "it or move it").format(**where))
        elif drop > STRADDLE_LDU:
            warnings.append(_("unit {unit} at [{x:g}, {y:g}]: its base straddles a drop of {bricks} bricks (placed in a "
                              "wall, or on an edge?); it stands on the highest part, and sees and is seen from there; "
                              "move it onto even ground if that is not meant")
                            .format(**where, bricks=decimal(drop / LDU_PER_BRICK, 1)))
    return warnings


SHEET_KINDS = {"minifig": N_("minifig"), "vehicle": N_("vehicle")}


def sheet_kind(kind: str) -> str:
    """A description sheet's kind in the language spoken ('minifig', 'vehicle'; others as written)."""
    return _(SHEET_KINDS[kind]) if kind in SHEET_KINDS else kind


def _found(result, fid: str) -> str:
    """Where a unit or vehicle came from in the model, and why it was taken for one."""
    why = result.figures[fid].why
    return result.origins[fid] + (f": {why}" if why else "")


def _from_ldraw(args: argparse.Namespace, library) -> int:
    from bow3d.rulesets import get, load_scene
    from bow3d.scene.from_ldraw import scene_from_ldraw

    if args.side_default is not None and not args.side_default.strip():
        raise UserInputError(_("--side-default: give a side id, e.g. --side-default blue"))
    ruleset = get(args.ruleset)
    result = scene_from_ldraw(args.model, args.output, sheets=ruleset.sheet_defaults(),  # type: ignore[attr-defined]
                              library=library,
                              side_default=args.side_default, force=args.force)
    scene = result.scene
    print(_("found {units} units and {vehicles} vehicles in {model}:").format(
        units=len(scene.units), vehicles=len(scene.vehicles), model=args.model))
    for unit in scene.units:
        if unit.position is not None:
            where = _("at [{x}, {y}] facing {facing}").format(x=f"{unit.position[0]:g}", y=f"{unit.position[1]:g}",
                                                              facing=f"{unit.facing:g}")
        else:
            carrier = scene.aboard(unit.id)
            assert carrier is not None  # a unit without a position rides a vehicle (the scene checks say so)
            where = _("aboard {vehicle}").format(vehicle=carrier.id)
        print(f"  {unit.id:<16} {unit.side:<10} {unit.sheet:<22} {where}  ({_found(result, unit.id)})")
    for vehicle in scene.vehicles:
        where = _("at [{x}, {y}] facing {facing}, occupants: {occupants}").format(
            x=f"{vehicle.position[0]:g}", y=f"{vehicle.position[1]:g}", facing=f"{vehicle.facing:g}",
            occupants=", ".join(vehicle.occupants) or _("none"))
        print(f"  {vehicle.id:<16} {vehicle.side:<10} {vehicle.sheet:<22} {where}  ({_found(result, vehicle.id)})")
    for line in result.decor:
        print(_("kept as decor: {line}").format(line=line))
    out = Path(args.output)
    print(_("wrote {out}, {decor} (the decor) and {n} models in {folder}/").format(
        out=out, decor=result.decor_path.name, n=len(result.model_paths), folder=result.model_paths[0].parent.name)
          if result.model_paths else _("wrote {files}").format(files=out))
    for note in result.notes:
        print(_("note: {note}").format(note=note))
    if result.unassigned:
        print("\n" + _("{n} units have no side: {units}.").format(n=len(result.unassigned),
                                                                  units=", ".join(result.unassigned)))
        print(_("Set their side in the scene file (side: unassigned), or add `0 !BOW UNIT side=...` lines to the "
                "model and run again with --force, or pass --side-default SIDE. The scene will not load until "
                "every unit has a side."))
        return 0
    load_scene(out, library=library)  # the scene written must load
    print(_("check it with: {command}").format(command=f"bow3d scene check {out}"))
    return 0
