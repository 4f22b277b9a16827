"""Set-up mode (issue 17): place, turn and remove units from the scene's sheets on a battlefield, see the
deployment zones and each army's points against a budget, save a scene file.

Layer: view.

Also cites BOW 1.3 Annex A.4. More: docs/modules/view.md#setup-ui.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from bow3d.errors import UserInputError
from bow3d.i18n import _, ngettext
from bow3d.paths import write_new
from bow3d.rulesets import ruleset_of
from bow3d.view.graph import markers

if TYPE_CHECKING:
    from bow3d.view.graph.scene_nodes import SceneNodes

ZONE_SHARE = 1.0 / 3.0    # each side's deployment zone: this share of the table from its edge
ZONE_ALPHA = 90
MAX_SHEETS = 9            # keys 1-9
ROOF_LDU = 2 * markers.BRICK_LDU + 0.5  # more than two bricks above the floor around it: a roof or a wall's top
FLOOR_RADIUS = 8          # studs round a cell where its floor is looked for...
FLOOR_SHARE = 10.0        # ...the floor: this percentile of those cells' heights (streets and yards, not roofs)


def height_above_floor(ground, cell: tuple[int, int], radius: int = FLOOR_RADIUS) -> float:
    """LDU from the floor around `cell` (the FLOOR_SHARE percentile of the cell centres' heights within `radius`
    studs) up to the cell's own ground height; `ground` answers heights((N, 2) LDU) -> (N,)."""
    offsets = np.arange(-radius, radius + 1, dtype=np.float64)
    around = np.stack(np.meshgrid(offsets, offsets), axis=-1).reshape(-1, 2) + np.asarray(cell, np.float64) + 0.5
    heights = np.asarray(ground.heights(around * markers.STUD_LDU), np.float64)
    heights = heights[np.isfinite(heights)]  # off the battlefield: no ground
    here = float(ground.heights(((np.asarray(cell, np.float64) + 0.5) * markers.STUD_LDU)[None])[0])
    return here - float(np.percentile(heights, FLOOR_SHARE))


def zones_of(scene, bounds_studs: tuple[float, float, float, float]) -> dict[str, tuple[float, float, float, float]]:
    """Side id -> its deployment zone (x0, x1, y0, y1) in studs: a third of the table from the edge its units
    stand nearest, along the axis that parts the first two sides (X when none stands yet)."""
    x0, x1, y0, y1 = bounds_studs
    sides = [s.id for s in scene.sides]
    centres = {}
    for side in sides:
        points = [u.position for u in scene.units if u.side == side and u.position is not None]
        if points:
            centres[side] = np.mean(points, axis=0)
    along_y = len(centres) >= 2 and (lambda a, b: abs(a[1] - b[1]) > abs(a[0] - b[0]))(*list(centres.values())[:2])
    low, high = (y0, y1) if along_y else (x0, x1)
    depth = (high - low) * ZONE_SHARE
    zones = {}
    for k, side in enumerate(sides[:2]):
        if side in centres and len(centres) >= 2:
            other = next(c for s, c in centres.items() if s != side)
            near_low = centres[side][1 if along_y else 0] <= other[1 if along_y else 0]
        else:
            near_low = k == 0
        a, b = (low, low + depth) if near_low else (high - depth, high)
        zones[side] = (x0, x1, a, b) if along_y else (a, b, y0, y1)
    return zones


def is_in_zone(position, zone) -> bool:
    return zone is not None and zone[0] <= position[0] <= zone[1] and zone[2] <= position[1] <= zone[3]


def _same_file(copy: Path, source: Path) -> bool:
    """`copy` is a regular file (no link) with the bytes of `source`."""
    return copy.is_file() and not copy.is_symlink() and copy.read_bytes() == source.read_bytes()


def relative_to(path: Path, folder: Path) -> str:
    """`path` as the saved scene names it: relative to the scene's folder (forward slashes)."""
    return Path(os.path.relpath(path.resolve(), folder.resolve())).as_posix()


class SetupUI:
    """Set-up of `scene` in a Panda3D window (or offscreen buffer) `base`, saved to `out` (.yaml)."""

    def __init__(self, base, scene, out: str | Path, *, budget: int | None = None, library=None,
                 force: bool = False, ask: bool = True, looks=()):
        from bow3d.view.apps.viewer import Viewer
        from bow3d.view.table.hud import Hud

        self.base, self.scene, self.out = base, scene, Path(out)
        self.budget, self.force, self.ask = budget, force, ask
        self.looks = list(looks)  # units whose models new units wear (a bare battlefield's template's)
        self.ruleset = ruleset_of(scene)
        self.viewer = Viewer(base, scene, library=library)
        self.viewer.click_handler = self.on_mouse_click
        nodes = self.viewer.nodes
        assert nodes is not None  # a viewer on a scene has its nodes
        self.nodes: SceneNodes = nodes
        self.sheets = [name for name, sheet in scene.sheets.items()  # minifigs: vehicles carry crews, set up apart
                       if str(getattr(sheet, "kind", None) or (sheet.get("kind") if isinstance(sheet, dict) else "")
                              ) != "vehicle"][:MAX_SHEETS]
        self.side = scene.sides[0].id
        self.sheet = self.sheets[0] if self.sheets else None
        self.selected: str | None = None
        self.message = ""
        self.saved: Path | None = None
        self._asked_to_replace = False
        self.history: list[tuple[str, list]] = []  # (the step's words, the units before it): Ctrl+Z
        box = self.nodes.bounds()
        self.bounds_studs = (box[0][0] / 20.0, box[1][0] / 20.0, box[0][1] / 20.0, box[1][1] / 20.0)
        self.zones = zones_of(scene, self.bounds_studs)
        self._zones_node = None
        self.hud = Hud(base)
        self.viewer.help_text.setText(_("left click: a cell places a unit (or moves the chosen one), a unit chooses it | "
                                        "1-9: sheet | S: side | , .: turn | X or Delete: remove | Ctrl+Z: take back | Ctrl+S: save | "
                                        "drag: orbit, wheel: zoom | Ctrl+Q: quit"))
        self._bind()
        self._draw_zones()
        self._refresh()

    def _bind(self) -> None:
        b = self.base
        for n in range(1, MAX_SHEETS + 1):
            b.accept(str(n), self.on_sheet, [n])
        b.accept("s", self.on_next_side)
        b.accept(",", self.on_turn, [45.0])
        b.accept(".", self.on_turn, [-45.0])
        b.accept("x", self.on_remove)
        b.accept("delete", self.on_remove)
        b.accept("control-z", self.on_undo)
        b.accept("control-s", self.on_save)
        b.accept("control-q", b.userExit)
        b.accept("escape", self.on_click_unit, [None])

    # --- handlers -----------------------------------------------------------------------------
    def on_mouse_click(self, x: float, y: float) -> None:
        from bow3d.view.camera.picking import pick_cell, pick_unit

        unit = pick_unit(self.base, self.nodes, (x, y))
        if unit is not None:
            self.on_click_unit(unit)
            return
        cell = pick_cell(self.base, self.nodes, (x, y))
        if cell is not None:
            self.on_click_cell(cell)

    def on_side(self, side: str) -> None:
        if side not in {s.id for s in self.scene.sides}:
            raise UserInputError(_("no side {side!r} in the scene (sides: {sides})").format(
                side=side, sides=", ".join(s.id for s in self.scene.sides)))
        self.side = side
        self._refresh()

    def on_next_side(self) -> None:
        ids = [s.id for s in self.scene.sides]
        self.on_side(ids[(ids.index(self.side) + 1) % len(ids)])

    def on_sheet(self, number: int) -> None:
        if 1 <= number <= len(self.sheets):
            self.sheet = self.sheets[number - 1]
            self._refresh()

    def on_click_unit(self, id: str | None) -> None:
        """Choose a unit (again, or None: forget it); vehicles and their crews stay as the scene has them."""
        if id is not None and id not in {u.id for u in self.scene.units}:
            self._say(_("{vehicle}: vehicles stay where the scene file puts them").format(vehicle=id))
            return
        self.selected = None if id is None or id == self.selected else id
        self._refresh()

    def on_click_cell(self, cell: tuple[int, int]) -> str | None:
        """Move the chosen unit to the cell, or place a new one there; returns the unit's id."""
        position = (int(cell[0]) + 0.5, int(cell[1]) + 0.5)
        x0, x1, y0, y1 = self.bounds_studs
        if not (x0 <= position[0] <= x1 and y0 <= position[1] <= y1):
            self._say(_("cell {cell} is off the battlefield").format(cell=f"({cell[0]}, {cell[1]})"))
            return None
        if any(u.position is not None and math.floor(u.position[0]) == cell[0] and math.floor(u.position[1]) == cell[1]
               for u in self.scene.units):
            self._say(_("a unit stands on {cell} already").format(cell=f"({cell[0]}, {cell[1]})"))
            return None
        above = height_above_floor(self.nodes.ground, (int(cell[0]), int(cell[1])))
        if above > ROOF_LDU:
            self._say(_("cell {cell} is {bricks} bricks above the ground around it (a roof, a wall's top, a "
                        "tree): choose a cell on the ground").format(cell=f"({cell[0]}, {cell[1]})",
                                                              bricks=f"{above / markers.BRICK_LDU:.0f}"))
            return None
        if self.selected is not None:
            unit = self.scene.unit(self.selected)
            self._remember(_("moving {unit}").format(unit=unit.id))
            unit.position = position
            self.nodes.set_pose(unit.id, position, unit.facing)
            self._refresh()
            return unit.id
        return self._place(position)

    def on_turn(self, delta_deg: float) -> None:
        if self.selected is None:
            return
        unit = self.scene.unit(self.selected)
        self._remember(_("turning {unit}").format(unit=unit.id))
        unit.facing = (unit.facing + delta_deg) % 360.0
        self.nodes.set_pose(unit.id, tuple(unit.position), unit.facing)
        self._refresh()

    def on_remove(self) -> None:
        if self.selected is None:
            return
        id, self.selected = self.selected, None
        self._remember(_("taking {unit} off").format(unit=id))
        self.scene.units = [u for u in self.scene.units if u.id != id]
        self.nodes.remove_piece(id)
        self._say(_("{unit} taken off").format(unit=id))

    def on_undo(self) -> str | None:
        """Ctrl+Z: the units as they were before the last step (placing, move, turn, removal); returns its words."""
        if not self.history:
            self._say(_("nothing to take back"))
            return None
        words, before = self.history.pop()
        now = {u.id for u in self.scene.units}
        self.scene.units = before
        for id in now - {u.id for u in before}:
            self.nodes.remove_piece(id)
        for unit in before:
            if unit.id not in now:
                self.nodes.add_unit(unit)
            elif unit.position is not None:
                self.nodes.set_pose(unit.id, tuple(unit.position), unit.facing)
        if self.selected is not None and self.selected not in {u.id for u in before}:
            self.selected = None
        self._say(_("taken back: {step}").format(step=words))
        return words

    def _remember(self, words: str) -> None:
        """Keep the units as they are now, before the step `words` changes them (on_undo)."""
        self.history.append((words, [u.model_copy(deep=True) for u in self.scene.units]))

    def on_save(self) -> Path | None:
        """Write the scene to `out`: a new file; an existing one only with `force`, or when asked twice in a
        window (without a window, UserInputError: the command exits 2)."""
        from bow3d.errors import Bow3dError
        from bow3d.scene import save_scene

        try:
            scene, copies = self.to_save()
        except Bow3dError as error:
            if not self.ask:
                raise
            self._say(str(error).splitlines()[0])
            return None
        exists = self.out.exists() or self.out.is_symlink()
        if exists and not self.force and not self._asked_to_replace:
            if not self.ask:
                raise UserInputError(_("{out} exists; give another -o file, or --force to replace it").format(out=self.out))
            self._asked_to_replace = True
            self._say(_("{file} exists: Ctrl+S again replaces it").format(file=self.out))
            return None
        for source, copy in copies.items():
            if not _same_file(copy, source):  # else saved the same way before
                copy.parent.mkdir(parents=True, exist_ok=True)
                write_new(copy, source.read_bytes(), force=self.force)  # to_save refused a file of the player's
        self.saved = save_scene(scene, self.out, overwrite=True)
        self._asked_to_replace = False
        self._say(_("saved {file}").format(file=self.out))
        return self.saved

    # --- the scene ------------------------------------------------------------------------------
    def to_save(self):
        """(A copy of the scene with its files named relative to the file it is saved to, the unit models
        to copy beside it: {source: copy}); SceneError (before anything is written) when that file could
        not name them (outside its folder and the library)."""
        from bow3d.scene.checks import check_files
        from bow3d.scene.io import raise_issues

        folder = self.out.parent
        scene = self.scene.model_copy(deep=True)
        scene.battlefield = relative_to(self.scene.battlefield_path, folder)
        copies = self._models_to_copy(folder)
        copied = set()
        for item in [*scene.units, *scene.vehicles]:
            path = self.scene.resolve(item.model)
            if path.resolve() in copies:
                copied.add(item.id)
            if path.is_file():
                item.model = relative_to(copies.get(path.resolve(), path), folder)
        scene.path = self.out
        checked = scene.model_copy(deep=True)  # the copies are checked as they are written
        checked.units = [u for u in checked.units if u.id not in copied]
        checked.vehicles = [v for v in checked.vehicles if v.id not in copied]
        issues = check_files(checked, self.nodes.library)
        if issues:  # the first says which file and what to do
            raise_issues(issues[:1], str(self.out), None)
        return scene, copies

    def _models_to_copy(self, folder: Path) -> dict[Path, Path]:
        """The placed units' models the saved scene could not name (a bare battlefield set up with the
        bundled village's or another folder's sheets: a scene reads files only in its folder and the
        library, bow3d.scene.paths) -> their copies in OUT-units/ beside it, so that it loads anywhere."""
        from bow3d.scene.paths import allowed_folders, is_inside

        reach = [folder.resolve(), *(Path(r).resolve() for r in self.nodes.library.roots), *allowed_folders()]
        copies: dict[Path, Path] = {}
        for item in [*self.scene.units, *self.scene.vehicles]:
            path = self.scene.resolve(item.model).resolve()
            if path.is_file() and not any(is_inside(path, f) for f in reach):
                copies[path] = folder / f"{self.out.stem}-units" / path.name
        if len(set(copies.values())) < len(copies):
            raise UserInputError(_("two unit models named alike in different folders ({names}): save the "
                                   "scene beside them, or rename one").format(
                names=", ".join(sorted({c.name for c in copies.values()}))))
        for source, copy in copies.items():
            if (copy.exists() or copy.is_symlink()) and not self.force and not _same_file(copy, source):
                raise UserInputError(_("{copy}: exists (a copy of the unit model {source} goes there); move it "
                                       "away, or --force to replace it").format(copy=copy, source=source))
        return copies

    def _place(self, position: tuple[float, float]) -> str | None:
        from bow3d.scene.model import Unit

        if self.sheet is None:
            self._say(_("the scene has no sheet to place units from"))
            return None
        model = self._model_for(self.side, self.sheet)
        if model is None:
            self._say(_("no model for a {sheet}: the scene has no unit to copy it from").format(sheet=self.sheet))
            return None
        taken = {u.id for u in self.scene.units} | {v.id for v in self.scene.vehicles}
        n = 1
        while f"{self.side}-{self.sheet}-{n}" in taken:
            n += 1
        unit = Unit(id=f"{self.side}-{self.sheet}-{n}", side=self.side, sheet=self.sheet, model=model,
                    position=position, facing=self._facing_for(self.side))
        self._remember(_("placing {unit}").format(unit=unit.id))
        self.scene.units.append(unit)
        self.nodes.add_unit(unit)
        self._refresh()
        return unit.id

    def _model_for(self, side: str, sheet: str) -> str | None:
        """The model a new unit wears: a unit's of that side and sheet, else of that sheet, else of that side."""
        for match in (lambda u: u.side == side and u.sheet == sheet, lambda u: u.sheet == sheet,
                      lambda u: u.side == side, lambda u: True):
            found = next((u.model for u in [*self.scene.units, *self.looks] if match(u)), None)
            if found is not None:
                return found
        return None

    def _facing_for(self, side: str) -> float:
        """Towards the middle of the table from the side's zone."""
        zone = self.zones.get(side)
        if zone is None:
            return 270.0
        x0, x1, y0, y1 = self.bounds_studs
        dx, dy = (x0 + x1) / 2 - (zone[0] + zone[1]) / 2, (y0 + y1) / 2 - (zone[2] + zone[3]) / 2
        return round(math.degrees(math.atan2(dy, dx)) % 360.0 / 45.0) * 45.0 % 360.0

    # --- what is drawn ----------------------------------------------------------------------------
    def army_lines(self) -> list[str]:
        """Per side: its units, points against the budget, those outside its zone; then the sheet list."""
        costs = self.ruleset.army_costs(self.scene) or {}
        lines = []
        for side in self.scene.sides:
            units = [u for u in self.scene.units if u.side == side.id]
            outside = sum(1 for u in units if u.position is not None and not is_in_zone(u.position,
                                                                                         self.zones.get(side.id)))
            line = ngettext("{side}: {n} unit", "{side}: {n} units", len(units)).format(side=side.name, n=len(units))
            if side.id in costs:
                points = (_("{points} / {budget} points").format(points=costs[side.id], budget=self.budget)
                          if self.budget else _("{points} points").format(points=costs[side.id]))
                if self.budget and costs[side.id] > self.budget:
                    points += " " + _("(over budget by {n})").format(n=costs[side.id] - self.budget)
                line += ", " + points
            if outside:
                line += ", " + _("{n} outside the zone").format(n=outside)
            lines.append(("> " if side.id == self.side else "  ") + line)
        return lines

    def sheet_lines(self) -> list[str]:
        return [f"{'> ' if sheet == self.sheet else '  '}{n}. {sheet}" for n, sheet in enumerate(self.sheets, 1)]

    def _say(self, words: str) -> None:
        self.message = words
        self._refresh()

    def _refresh(self) -> None:
        from bow3d.view.table.hud import HudLines

        status = _("Set-up: {side} places {sheet}").format(side=self.scene.side(self.side).name, sheet=self.sheet)
        if self.selected:
            status += " | " + _("{unit} chosen").format(unit=self.selected)
        prompt = self.message or _("click a cell to place, a unit to choose it; Ctrl+S saves {file}").format(
            file=self.out)
        self.message = ""
        self.viewer.stats_text.setText(self.viewer._stats())
        self.hud.show(HudLines(status, tuple(self.army_lines() + [""] + self.sheet_lines()), prompt))
        self.nodes.highlight(self.selected)

    def _draw_zones(self) -> None:
        """Each side's zone: a translucent strip of its colour on the table, its frame seen through walls."""
        from bow3d.view.table.table_aids import add_xray

        if self._zones_node is not None:
            self._zones_node.remove_node()
        fills, frames = [], []
        for side in self.scene.sides:
            zone = self.zones.get(side.id)
            if zone is None:
                continue
            x0, x1, y0, y1 = (v * markers.STUD_LDU for v in zone)
            grid = np.stack(np.meshgrid(np.linspace(x0, x1, 9), np.linspace(y0, y1, 9)), axis=-1).reshape(-1, 2)
            top = float(np.median(self.nodes.ground.heights(grid))) + markers.STUD_HEIGHT + 0.5  # on the baseplate
            rgba = markers.ldraw_rgba(side.colour, self.nodes.colours)
            fills.append((markers.box_corners((x0, y0, top), (x1, y1, top + 1.0)), (*rgba[:3], ZONE_ALPHA)))
            frame = markers.frame_corners((x1 - x0) / 2 - 4, (y1 - y0) / 2 - 4, 4.0, 4.0, z=top)
            frames.append((frame + [(x0 + x1) / 2, (y0 + y1) / 2, 0.0], (*rgba[:3], 255)))
        self._zones_node = self.base.render.attach_new_node("deployment-zones")
        markers.solid_node(self._zones_node, "zone-fills", fills, unlit=True)
        add_xray(markers.solid_node(self._zones_node, "zone-frames", frames, unlit=True), 0.5)
