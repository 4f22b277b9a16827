"""Cross-field, file and battlefield checks of a scene, each problem a `SceneIssue` (path, what, fix).

Layer: scene. `check_references` runs on every parse (ids, sides, sheets, occupants, cells;
the ruleset checks its own sheets, weapons and seats); `check_files` needs the scene's folder (battlefield and model files exist,
confined: bow3d.scene.paths);
`check_battlefield` loads the battlefield (bow3d.ldraw, cached per file) and refuses units and
vehicles outside its extent seen from above, in studs, and unit models without triangles.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from bow3d.errors import Bow3dError, SceneError
from bow3d.i18n import _
from bow3d.ldraw import Library, load_model
from bow3d.scene.issues import FieldPath, LineMap, SceneIssue, raise_issues
from bow3d.scene.model import Door, Scene, Unit, Vehicle
from bow3d.scene.paths import ScenePathRefused, confined_path, resolve_model
from bow3d.units import LDU_PER_STUD as STUD_LDU


def _known(names) -> str:
    names = list(names)
    return ", ".join(names) if names else _("none")


def check_references(scene: Scene, ruleset_checks: Callable[[Scene], list[SceneIssue]] | None = None
                     ) -> list[SceneIssue]:
    """Ids, sides, sheets, occupants and cells that do not fit together, with the ruleset's own
    checks (`ruleset_checks`: sheets, weapons, seats) after the sheet references."""
    issues: list[SceneIssue] = []
    issues += _check_sides(scene)
    issues += _check_ids(scene)
    issues += _check_sides_and_sheets(scene)
    if ruleset_checks is not None:
        issues += ruleset_checks(scene)
    issues += _check_boarding(scene)
    issues += _check_cells(scene)
    return issues


def _check_sides(scene: Scene) -> list[SceneIssue]:
    seen: dict[str, int] = {}
    issues = []
    for i, side in enumerate(scene.sides):
        if side.id in seen:
            issues.append(SceneIssue(("sides", i, "id"), _("duplicate side '{id}' (also sides[{value}])")
                                                         .format(id=side.id, value=seen[side.id]),
                                     _("give each side its own id")))
        seen.setdefault(side.id, i)
    return issues


def _placed(scene: Scene) -> tuple[tuple[str, Sequence[Unit | Vehicle]], ...]:
    """The scene's units and vehicles, each list with its field name."""
    return ("units", scene.units), ("vehicles", scene.vehicles)


def _check_ids(scene: Scene) -> list[SceneIssue]:
    """Units, vehicles and doors share one id space."""
    seen: dict[str, FieldPath] = {}
    issues = []
    groups: tuple[tuple[str, Sequence[Unit | Vehicle | Door]], ...] = (
        ("units", scene.units), ("vehicles", scene.vehicles), ("doors", scene.doors))
    for group, items in groups:
        for i, item in enumerate(items):
            if item.id in seen:
                other = seen[item.id]
                issues.append(SceneIssue((group, i, "id"), _("duplicate id '{id}' (also "
                                                             "{value}[{value2}])")
                                                           .format(id=item.id, value=other[0], value2=other[1]),
                                         _("give each unit, vehicle and door its own id")))
            else:
                seen[item.id] = (group, i)
    return issues


def _check_sides_and_sheets(scene: Scene) -> list[SceneIssue]:
    """Every unit and vehicle names a side and a sheet of the scene (the ruleset checks the sheets)."""
    sides = [s.id for s in scene.sides]
    issues = []
    for group, items in _placed(scene):
        for i, item in enumerate(items):
            if item.side not in sides:
                issues.append(SceneIssue((group, i, "side"), _("unknown side '{side}' (known: {value})")
                                                             .format(side=item.side, value=_known(sides)),
                                         _("use one of them or add the side under sides:")))
            if item.sheet not in scene.sheets:
                issues.append(SceneIssue((group, i, "sheet"),
                                         _("unknown sheet '{sheet}' (known: {value})")
                                         .format(sheet=item.sheet, value=_known(scene.sheets)),
                                         _("use one of them or add the sheet under sheets:")))
    return issues


def _check_boarding(scene: Scene) -> list[SceneIssue]:
    """Occupants are known units, in one vehicle each, within the seats; aboard <=> no position."""
    units = {u.id: i for i, u in enumerate(scene.units)}
    aboard: dict[str, tuple[str, int, str, int]] = {}
    issues = []
    for k, vehicle in enumerate(scene.vehicles):
        for n, uid in enumerate(vehicle.occupants):
            path = ("vehicles", k, "occupants", n)
            if uid not in units:
                issues.append(SceneIssue(path, _("unknown unit '{uid}' (units: {value})")
                                               .format(uid=uid, value=_known(units)),
                                         _("list unit ids only (each occupant is also a unit under "
                                           "units:)")))
            elif uid in aboard:
                other = aboard[uid]
                issues.append(SceneIssue(path, _("unit '{uid}' is already aboard vehicles[{value}] "
                                                 "'{id}'")
                                               .format(uid=uid, value=other[1], id=scene.vehicles[other[1]].id),
                                         _("a unit rides one vehicle at a time: remove it from one of "
                                           "them")))
            else:
                aboard[uid] = path
    for i, unit in enumerate(scene.units):
        if unit.id in aboard and unit.position is not None:
            k = aboard[unit.id][1]
            issues.append(SceneIssue(("units", i, "position"),
                                     _("unit '{id}' is aboard vehicles[{k}] '{id2}' and also has a "
                                       "position").format(id=unit.id, k=k, id2=scene.vehicles[k].id),
                                     _("remove its position (it rides the vehicle) or remove it from "
                                       "the occupants")))
        elif unit.id not in aboard and unit.position is None:
            issues.append(SceneIssue(("units", i, "position"), _("missing (the unit is aboard no "
                                                                 "vehicle)"),
                                     _("give its position [x, y] in studs, or list it in a vehicle's "
                                       "occupants")))
    return issues


def _check_cells(scene: Scene) -> list[SceneIssue]:
    """Two units (or vehicles) on one stud-grid cell (C1: cell = floor of the position)."""
    taken: dict[tuple[int, int], tuple[str, int]] = {}
    issues = []
    for group, items in _placed(scene):
        for i, item in enumerate(items):
            cell = item.cell
            if item.position is None or cell is None:  # aboard a vehicle
                continue
            if cell in taken:
                g, j = taken[cell][0], taken[cell][1]
                other = (scene.units if g == "units" else scene.vehicles)[j].id
                issues.append(SceneIssue((group, i, "position"),
                                         _("{value} is on cell {cell}, already taken by {g}[{j}] "
                                           "'{other}'")
                                         .format(value=list(item.position), cell=cell, g=g, j=j, other=other), _("move one of them to another stud (e.g. "
                                                         "[{value:g}, {value2:g}])")
                                                       .format(value=cell[0] + 1.5, value2=cell[1] + 0.5)))
            else:
                taken[cell] = (group, i)
    for i, door in enumerate(scene.doors):
        if not door.open and door.cell in taken:
            g, j = taken[door.cell]
            other = (scene.units if g == "units" else scene.vehicles)[j].id
            issues.append(SceneIssue(("doors", i, "cell"), _("closed door on cell {value}, where "
                                                             "{g}[{j}] '{other}' stands")
                                                           .format(value=tuple(door.cell), g=g, j=j, other=other), _("open the door (open: true) or move the "
                                                            "unit")))
    return issues


def check_files(scene: Scene, library: Library | None = None) -> list[SceneIssue]:
    """The battlefield and every unit/vehicle model are regular files in the scene's folder, the LDraw
    library or a BOW3D_ALLOW_PATHS folder, after following links (bow3d.scene.paths); naming the path tried."""
    files = _SceneFiles(scene, library)
    issues = []
    try:
        files.confined(scene.battlefield)
    except ScenePathRefused as refused:
        issues.append(SceneIssue(("battlefield",), refused.problem, refused.fix))
    for group, i, item in _bodies(scene):
        try:
            files.model(item.model)
        except ScenePathRefused as refused:
            issues.append(SceneIssue((group, i, "model"), refused.problem, refused.fix))
    return issues


def check_unit_models(scene: Scene, library: Library | None = None) -> list[SceneIssue]:
    """Every unit and vehicle model loads and has triangles (the 3D world sees, hits and stands on
    them); a model that cannot be found is check_files' business. Runs with check_battlefield."""
    files = _SceneFiles(scene, library)
    issues = []
    for group, i, item in _bodies(scene):
        try:
            path = files.model(item.model)
        except ScenePathRefused:
            continue
        problem = files.empty_model(path)
        if problem:
            issues.append(SceneIssue((group, i, "model"), _("'{model}' {problem}")
                                                          .format(model=item.model, problem=problem),
                                     _("draw the unit in it, or name another model")))
    return issues


def _bodies(scene: Scene):
    for group, items in _placed(scene):
        for i, item in enumerate(items):
            yield group, i, item


class _SceneFiles:
    """The scene's folder, its library (made on first need) and the models already looked at."""

    def __init__(self, scene: Scene, library: Library | None):
        self.base = scene.path.parent if scene.path is not None else Path.cwd()
        self._library = library
        self._models: dict[Path, str | None] = {}

    def library(self) -> Library:
        if self._library is None:
            self._library = Library.from_env()
        return self._library

    def confined(self, relpath: str) -> Path:
        """confined_path, with the library roots looked up only for paths outside the scene's folder."""
        try:
            return confined_path(self.base, relpath)
        except ScenePathRefused:
            return confined_path(self.base, relpath, self.library().roots)

    def model(self, name: str) -> Path:
        """A unit's model: a file of the scene's own (confined), else a library part or model."""
        if os.path.lexists(self.base / name):
            return self.confined(name)  # the library only when the file leads outside the scene's folder
        return resolve_model(self.base, name, self.library())

    def empty_model(self, path: Path) -> str | None:
        """Why a model cannot stand for a unit (it cannot be loaded, or has no triangles), or None."""
        if path not in self._models:
            try:
                model = load_model(path, self.library())
                self._models[path] = None if model.triangle_count() > 0 else \
                    "has no triangles (nothing to see, hit or stand on)"
            except Bow3dError as error:
                self._models[path] = f"cannot be loaded ({error})"
        return self._models[path]


_BATTLEFIELDS: dict[tuple, tuple[np.ndarray, int, Any]] = {}


def battlefield_extent(path: str | os.PathLike[str], library: Library | None = None) -> np.ndarray:
    """(2, 2) [[xmin, ymin], [xmax, ymax]] of a battlefield seen from above, in studs (cached per file)."""
    return _battlefield(path, library)[0]


def _battlefield(path: str | os.PathLike[str], library: Library | None) -> tuple[np.ndarray, int, Any]:
    """(extent in studs as battlefield_extent, triangle count, its colour table: the library's LDConfig and
    the file's own !COLOUR lines) of a battlefield file, cached per file."""
    file_path = Path(path).resolve()
    try:
        stat = file_path.stat()
    except OSError:
        raise SceneError(_("{path}: no such battlefield file; check the path").format(path=path)) from None
    library = library or Library.from_env()
    key = (str(file_path), stat.st_size, stat.st_mtime_ns, tuple(str(r) for r in library.roots))
    if key not in _BATTLEFIELDS:
        model = load_model(file_path, library)
        _BATTLEFIELDS[key] = (model.bounds()[:, :2] / STUD_LDU, model.triangle_count(), model.colours)
    return _BATTLEFIELDS[key]


def side_colour_warnings(scene: Scene, library: Library | None = None) -> list[str]:
    """Sides whose colour the players could not tell apart on the table (their rings, titles and dice take it): a
    code that is no colour of the battlefield's LDraw library, two sides of one colour. Warnings: the scene plays."""
    colours = _battlefield(_SceneFiles(scene, library).confined(scene.battlefield), library)[2]
    warnings = []
    for side in scene.sides:
        if side.colour not in colours:
            warnings.append(_("side {side}: colour {code} is no LDraw colour of the library (its rings are drawn grey); "
                              "give a code of LDConfig.ldr, e.g. 1 blue, 4 red, 2 green, 14 yellow")
                            .format(side=side.id, code=side.colour))
    seen: dict[int, str] = {}
    for side in scene.sides:
        if side.colour in seen:
            warnings.append(_("sides {first} and {second} are both colour {code} ({name}): their rings and titles "
                              "look alike; give each side its own colour")
                            .format(first=seen[side.colour], second=side.id, code=side.colour,
                                    name=colours.name(side.colour)))
        else:
            seen[side.colour] = side.id
    return warnings


def _studs(value: float) -> str:
    return f"{round(float(value), 1):g}"


def check_battlefield(scene: Scene, library: Library | None = None) -> list[SceneIssue]:
    """Units and vehicles whose position lies outside the battlefield's XY extent (studs); unit
    models without triangles (check_unit_models): the checks that load geometry."""
    try:
        extent, triangles, _colours = _battlefield(_SceneFiles(scene, library).confined(scene.battlefield), library)
    except ScenePathRefused as refused:
        return [SceneIssue(("battlefield",), refused.problem, refused.fix)]
    except Bow3dError as error:
        return [SceneIssue(("battlefield",), _("cannot be loaded ({error})").format(error=error), _("fix the battlefield file"))]
    if triangles == 0:  # else every unit "lies outside the battlefield, which spans x 0 to 0"
        return [SceneIssue(("battlefield",), _("'{file}' has nothing in it to stand on or hide behind (no part with "
                                               "triangles)").format(file=scene.battlefield),
                           _("build the battlefield in it (a baseplate at least), or name another file"))]
    (x0, y0), (x1, y1) = extent
    span = f"x {_studs(x0)} to {_studs(x1)}, y {_studs(y0)} to {_studs(y1)} studs"
    issues = []
    for group, items in _placed(scene):
        for i, item in enumerate(items):
            if item.position is None:
                continue
            x, y = item.position
            if not (x0 <= x <= x1 and y0 <= y <= y1):
                issues.append(SceneIssue((group, i, "position"),
                                         _("[{x:g}, {y:g}] lies outside the battlefield, which spans "
                                           "{span}").format(x=x, y=y, span=span),
                                         _("move it onto the battlefield")))
    for i, door in enumerate(scene.doors):
        x, y = door.cell[0] + 0.5, door.cell[1] + 0.5
        if not (x0 <= x <= x1 and y0 <= y <= y1):
            issues.append(SceneIssue(("doors", i, "cell"), _("{value} lies outside the battlefield, "
                                                             "which spans {span}")
                                                           .format(value=list(door.cell), span=span), _("give the cell of the doorway on the "
                                                        "battlefield")))
    return issues + check_unit_models(scene, library)


def validate_scene(scene: Scene, *, battlefield: bool = True, library: Library | None = None) -> None:
    """Run every check on a scene in memory; raises SceneError listing the problems."""
    source = str(scene.path) if scene.path is not None else "<scene>"
    lines = None
    if scene.path is not None and Path(scene.path).is_file():
        lines = LineMap.of(Path(scene.path).read_text(encoding="utf-8-sig"))
    issues = check_references(scene) + check_files(scene, library)
    if battlefield and not any(issue.path == ("battlefield",) for issue in issues):
        issues += check_battlefield(scene, library)
    raise_issues(issues, source, lines)

