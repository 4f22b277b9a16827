"""`bow3d scene from-ldraw`: a battlefield built in an LDraw editor, minifigs and vehicles included, to a scene.

Layer: scene. `scene_from_ldraw(model, scene_path)` finds the minifigs and vehicles
(bow3d.scene.figures), gives them sides, sheets and ids, and writes, never over an existing file
unless `force`:
  <scene>.yaml                the scene (C1)
  <stem>-decor.ldr            the model minus the units and vehicles (its sub-models kept; an MPD)
  <stem>-units/<id>.ldr       one model per unit and vehicle in its own frame (C1: facing LDraw -Z,
                              origin at the footprint centre, lowest point at Y = 0)
The user's model is never modified. Placing each unit model at its position and facing (rotate
about the vertical by facing - 270 degrees, origin to the position, lowest point on the ground)
reproduces the original.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from bow3d.errors import SceneError, UserInputError
from bow3d.i18n import _, semicolon
from bow3d.ldraw import LDRAW_TO_WORLD, Library, Model, load_model
from bow3d.ldraw.colours import EDGE_OF
from bow3d.paths import check_new, write_new
from bow3d.scene import equipment as eq
from bow3d.scene.checks import check_references
from bow3d.scene.figures import (
    COLOUR_SIDES,
    STUD_LDU,
    UNASSIGNED,
    Figure,
    _world_points,
    find_figures_explained,
    side_from_name,
)
from bow3d.scene.io import save_scene
from bow3d.scene.model import ID_PATTERN, Scene, Side, Unit, Vehicle
from bow3d.scene.structure import Structure, model_structure
from bow3d.textformats import format_path


@dataclass
class FromLDrawResult:
    """What `scene_from_ldraw` found and wrote."""

    scene: Scene
    scene_path: Path
    decor_path: Path
    model_paths: list[Path]
    unassigned: list[str] = field(default_factory=list)  # ids of units and vehicles without a side
    notes: list[str] = field(default_factory=list)
    origins: dict[str, str] = field(default_factory=dict)  # id -> where in the model it came from
    figures: dict[str, Figure] = field(default_factory=dict)  # id -> what was found (instances of `model`)
    model: Model | None = None  # the model as loaded
    decor: list[str] = field(default_factory=list)  # sub-models that looked like a minifig or vehicle, kept as decor


def placement_matrix(position: tuple[float, float], facing: float, ground_ldu: float) -> np.ndarray:
    """(4, 4) world matrix that places a unit model per C1: turn by facing - 270 about Z, origin to the position."""
    a = math.radians(facing - 270.0)
    m = np.eye(4)
    m[:2, :2] = [[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]]
    m[:3, 3] = (position[0] * STUD_LDU, position[1] * STUD_LDU, ground_ldu)
    return m


def _num(value: float) -> str:
    text = f"{value:.6f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _colour(code: int, colours) -> str:
    """A placed instance's colour as an LDraw colour token; an edge-of code (a part placed in 24 inside a
    sub-model of a concrete colour) has no number of its own: its RGB is written as a direct colour."""
    if code >= EDGE_OF:
        found = colours.get(code)
        return f"0x2{found.rgba[0]:02X}{found.rgba[1]:02X}{found.rgba[2]:02X}" if found else "24"
    return f"0x{code:07X}" if code >= 0x2000000 else str(code)


def unit_model_text(model: Model, indices: list[int], header: list[str], position: tuple[float, float],
                    facing: float) -> str:
    """LDraw text of the given instances in a unit's own frame (C1), so that placing it reproduces them."""
    ground = float(_world_points(model, indices)[:, 2].min()) if indices else 0.0
    to_local = np.linalg.inv(LDRAW_TO_WORLD) @ np.linalg.inv(placement_matrix(position, facing, ground))
    lines = list(header)
    for i in indices:
        inst = model.instances[i]
        if "(loose geometry)" in inst.name:
            continue
        m = to_local @ inst.transform
        if inst.inverted:
            lines.append("0 BFC INVERTNEXT")
        numbers = [m[0, 3], m[1, 3], m[2, 3], *m[:3, :3].reshape(-1)]
        lines.append(f"1 {_colour(inst.colour, model.colours)} " + " ".join(_num(v) for v in numbers) + f" {inst.name}")
    return "\n".join(lines) + "\n"


def decor_text(structure: Structure, drop: set[tuple[str, int]], decor_name: str) -> str:
    """The model's text minus the dropped lines, as one MPD (external local sub-models inlined)."""
    main = structure.main_source
    out: list[str] = []
    base = Path(main).parent
    for source in [main] + [s for s in structure.local_sources if s != main]:
        lines = Path(source).read_text(encoding="utf-8-sig", errors="replace").splitlines()
        is_mpd = any(line.strip().upper().startswith("0 FILE ") for line in lines)
        if not is_mpd:
            name = decor_name if source == main else Path(os.path.relpath(source, base)).as_posix()
            out.append(f"0 FILE {name}")
        out += [line.rstrip() for n, line in enumerate(lines, start=1) if (source, n) not in drop]
        out.append("0 NOFILE" if is_mpd and source != main else "")
    return "\n".join(line for line in out if line != "") + "\n"


META_KEYS = {"unit": ("side", "sheet", "id", "weapon"), "vehicle": ("side", "sheet", "id")}


def check_meta(figures: list[Figure], side_default: str | None, notes: list[str]) -> None:
    """Refuse `!BOW` values that cannot be ids (SceneError naming the line); note unknown keys and low gear."""
    if side_default is not None and not re.match(ID_PATTERN, side_default):
        raise SceneError(_("--side-default {side_default!r}: a side id is letters, digits, '-', '_' or "
                           "'.'").format(side_default=side_default))
    for f in figures:
        where = (f"{Path(f.meta_lines[0][0]).name}:{f.meta_lines[0][1]}" if f.meta_lines else f.origin)
        command = f"!BOW {f.kind.upper()}"
        for key, value in f.meta.items():
            if key not in META_KEYS[f.kind]:
                notes.append(_("{where}: {command} {key}=...: unknown key, ignored (known: {known})").format(
                    where=where, command=command, key=key, known=", ".join(META_KEYS[f.kind])))
            elif key != "weapon" and (not re.match(ID_PATTERN, value) or len(value) > 64):
                raise SceneError(_("{where}: {command} {key}={value}: not a valid id; use letters, "
                                   "digits, '-', '_' or '.' (starting with a letter or digit), e.g. "
                                   "side=blue").format(where=where, command=command, key=key, value=value))
        if f.below_soles_ldu > 2.0:
            notes.append(_("{origin}: held equipment reaches {ldu} LDU below the feet; placed on the ground the "
                           "unit will stand on it (hold it higher in the model)").format(
                origin=f.origin, ldu=f"{f.below_soles_ldu:.0f}"))


def _assign_sides(units: list[Figure], vehicles: list[Figure], side_default: str | None) -> dict[int, str]:
    """Side per figure (by id()): !BOW meta, else a side in the sub-model name, else the vehicle's or pilot's."""
    known = {f.meta["side"] for f in units + vehicles + [o for v in vehicles for o in v.occupants]
             if f.meta.get("side")}
    sides: dict[int, str] = {}
    everyone = units + vehicles + [o for v in vehicles for o in v.occupants]
    for f in everyone:
        side = f.meta.get("side") or (side_from_name(f.name_hint, known) if f.name_hint else None)
        if side:
            sides[id(f)] = side
    for v in vehicles:
        if id(v) not in sides and v.occupants and id(v.occupants[0]) in sides:
            sides[id(v)] = sides[id(v.occupants[0])]
        for o in v.occupants:
            if id(o) not in sides and id(v) in sides:
                sides[id(o)] = sides[id(v)]
    for f in everyone:
        sides.setdefault(id(f), side_default or UNASSIGNED)
    return sides


def _unique(wanted: str, taken: set[str]) -> str:
    candidate, n = wanted, 2
    while candidate in taken:
        candidate, n = f"{wanted}-{n}", n + 1
    taken.add(candidate)
    return candidate


def _sheet_for(fig: Figure, sheets: dict, notes: list[str], defaults: eq.SheetDefaults) -> str:
    if fig.kind == "vehicle":
        suggested, sheet = defaults.vehicle_sheet(fig.vehicle_kind or "vehicle",
                                                  max(fig.seats, len(fig.occupants), 1), fig.titles)
    else:
        suggested, sheet = defaults.unit_sheet(fig.titles)
    wanted = fig.meta.get("sheet") or suggested
    if wanted not in sheets:
        sheets[wanted] = sheet
    elif sheets[wanted] != sheet:
        merged = defaults.merge(sheets[wanted], sheet)
        if merged is not None:
            sheets[wanted] = merged
        elif "sheet" not in fig.meta:
            for n in range(2, 100):
                if sheets.get(f"{wanted}-{n}", sheet) == sheet:
                    wanted = f"{wanted}-{n}"
                    sheets[wanted] = sheet
                    break
        else:
            notes.append(_("{origin}: carries other weapons than sheet '{sheet}' (first use kept)").format(
                origin=fig.origin, sheet=wanted))
    return wanted


def _build_scene(model_path: Path, model: Model, units: list[Figure], vehicles: list[Figure],
                 side_default: str | None, decor_name: str, units_dir: str, notes: list[str],
                 defaults: eq.SheetDefaults) -> tuple[Scene, dict[str, Figure], list[str]]:
    sides = _assign_sides(units, vehicles, side_default)
    taken: set[str] = set()
    ids: dict[int, str] = {}
    counters: dict[str, int] = {}
    ordered = units + [o for v in vehicles for o in v.occupants] + vehicles
    for f in ordered:  # ids given in !BOW meta first, so that generated ones avoid them
        if f.meta.get("id") and f.meta["id"] not in taken:
            ids[id(f)] = _unique(f.meta["id"], taken)
    for f in ordered:
        if id(f) not in ids:
            prefix = sides[id(f)] + ("-" + (f.vehicle_kind or "vehicle") if f.kind == "vehicle" else "")
            while True:
                counters[prefix] = counters.get(prefix, 0) + 1
                candidate = f"{prefix}-{counters[prefix]}"
                if candidate not in taken:
                    ids[id(f)] = _unique(candidate, taken)
                    break
    sheets: dict = {}
    scene_units, scene_vehicles, by_id = [], [], {}
    for f in units + [o for v in vehicles for o in v.occupants]:
        uid = ids[id(f)]
        sheet = _sheet_for(f, sheets, notes, defaults)
        position = None if f.aboard else (round(f.position[0], 2), round(f.position[1], 2))
        weapon = f.meta.get("weapon")
        if weapon is not None and weapon not in defaults.weapon_names(sheets[sheet]):
            notes.append(_("{origin}: weapon={weapon} is not among the weapons found ({found}); the sheet's "
                           "first is used").format(origin=f.origin, weapon=weapon,
                                                   found=", ".join(defaults.weapon_names(sheets[sheet])) or _("none")))
            weapon = None
        scene_units.append(Unit(id=uid, side=sides[id(f)], sheet=sheet, model=f"{units_dir}/{uid}.ldr",
                                position=position, facing=round(f.facing, 1), weapon=weapon))
        by_id[uid] = f
    for f in vehicles:
        vid = ids[id(f)]
        scene_vehicles.append(Vehicle(id=vid, side=sides[id(f)], sheet=_sheet_for(f, sheets, notes, defaults),
                                      model=f"{units_dir}/{vid}.ldr",
                                      position=(round(f.position[0], 2), round(f.position[1], 2)),
                                      facing=round(f.facing, 1), occupants=[ids[id(o)] for o in f.occupants]))
        by_id[vid] = f
    side_ids = list(dict.fromkeys(s for s in sides.values() if s != UNASSIGNED)) or ["blue", "red"]
    torso_colour: dict[str, int] = {}
    for f in units:
        if f.torso >= 0:
            torso_colour.setdefault(sides[id(f)], model.instances[f.torso].colour)
    scene_sides = [Side(id=s, name=f"{s.capitalize()} army", colour=COLOUR_SIDES.get(s, torso_colour.get(s, 0)))
                   for s in side_ids]
    unassigned = [uid for uid, f in by_id.items() if sides[id(f)] == UNASSIGNED]
    scene_model = getattr(defaults, "scene_model", None) or Scene  # the ruleset's scene model reads its sheets
    scene = scene_model(name=model_path.stem, battlefield=decor_name, ruleset=defaults.ruleset, sides=scene_sides,
                  sheets=sheets, units=scene_units, vehicles=scene_vehicles)
    return scene, by_id, unassigned


def _check_outputs(outputs: list[Path], units_folder: Path, force: bool) -> None:
    """Refuse, before anything is written, outputs that exist (unless `force`) and any that is a
    link or not a regular file (bow3d.paths.check_new); the units folder must be no link either."""
    if units_folder.is_symlink() or (units_folder.exists() and not units_folder.is_dir()):
        raise SceneError(_("{units_folder}: is a symbolic link or not a folder; bow3d writes the unit "
                           "models into a folder of its own: remove it or choose another -o name")
                         .format(units_folder=units_folder))
    problems = []
    for path in outputs:
        if os.path.lexists(path):
            try:
                check_new(path, force=force)
            except UserInputError as error:
                problems.append(str(error))
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise SceneError(problems[0] + more)


def scene_from_ldraw(model_path: str | os.PathLike[str], scene_path: str | os.PathLike[str], *,
                     sheets: eq.SheetDefaults, library: Library | None = None, side_default: str | None = None,
                     force: bool = False) -> FromLDrawResult:
    """Turn an LDraw battlefield with minifigs and vehicles placed in it into a scene (see the module doc),
    with the default description sheets of a ruleset (`sheets`, e.g. bow3d.rulesets.bow.BOW_SHEETS).

    Raises SceneError when nothing is found or an output exists (unless `force`); the model is never written.
    """
    model_file = Path(model_path)
    out = Path(scene_path)
    if out.suffix.lower() not in (".yaml", ".yml"):
        raise SceneError(_("{out}: a scene file ends in .yaml; give -o NAME.yaml").format(out=out))
    library = library or Library.from_env()
    model = load_model(model_file, library)
    structure = model_structure(model, library)
    units, vehicles, notes, decor = find_figures_explained(model, structure)
    check_meta(units + vehicles + [o for v in vehicles for o in v.occupants], side_default, notes)
    if not units and not vehicles:
        raise SceneError(_("{model_file}: no minifig found (no torso part 973*); place minifigs in the "
                           "model (as sub-models or loose parts) and run again").format(model_file=model_file))
    stem = out.stem
    decor_name, units_dir = f"{stem}-decor.ldr", f"{stem}-units"
    scene, by_id, unassigned = _build_scene(model_file, model, units, vehicles, side_default, decor_name,
                                            units_dir, notes, sheets)
    decor_path = out.parent / decor_name
    model_paths = [out.parent / units_dir / f"{fid}.ldr" for fid in by_id]
    outputs = [out, decor_path] + model_paths
    originals = {model_file.resolve(), *(Path(s).resolve() for s in structure.local_sources)}
    clash = [p for p in outputs if p.resolve() in originals]
    if clash:
        raise SceneError(_("{value}: is the model being read; write the scene into another folder or "
                           "name").format(value=clash[0]))
    _check_outputs(outputs, out.parent / units_dir, force)
    drop = {line for f in by_id.values() for line in f.drop_lines}
    write_outputs = [(decor_path, decor_text(structure, drop, decor_name))]
    for path, (fid, fig) in zip(model_paths, by_id.items()):
        item = next((u for u in scene.units if u.id == fid), None) or scene.vehicle(fid)
        header = [f"0 {fid}", f"0 Name: {fid}.ldr", "0 Author: bow3d scene from-ldraw",
                  f"0 !BOW {'UNIT' if fig.kind == 'unit' else 'VEHICLE'} side={item.side} sheet={item.sheet} id={fid}",
                  f"0 // from {fig.origin} in {model_file.name}",
                  "0 // own frame: facing LDraw -Z, origin at the footprint centre, lowest point at Y = 0"]
        placed = item.position if item.position is not None else fig.position
        write_outputs.append((path, unit_model_text(model, fig.instances, header, placed, item.facing)))
    try:
        for path, text in write_outputs:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_new(path, text, force=force)
    except OSError as error:
        raise SceneError(_("{value}: cannot be written ({value2})")
                         .format(value=error.filename or out.parent, value2=error.strerror or error)) from None
    except UserInputError as error:
        raise SceneError(str(error)) from None
    save_scene(scene, out, overwrite=force)
    for issue in check_references(scene):
        if not (issue.path[-1:] == ("side",) and UNASSIGNED in issue.problem):
            notes.append(f"{format_path(issue.path)}: {issue.problem}{semicolon()}{issue.fix}")
    return FromLDrawResult(scene, out, decor_path, model_paths, unassigned, notes,
                           {fid: f.origin for fid, f in by_id.items()}, by_id, model, decor)
