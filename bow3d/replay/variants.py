"""Variants of a scene: small edits of its armies, shipped to workers beside the scene's path.

Layer: replay (scenes through bow3d.rulesets). `bow3d balance` tries and measures changes to the
armies without writing a file per try: a variant is the scene file plus a tuple of edits, each a
frozen value (hashable, picklable, a few bytes), applied where the scene is read (in each worker,
once). An edited scene is checked again by its ruleset's schema, as if it had been written so.

    SwapSheet("red-rifle-2", "spearman")     the unit plays with another of the scene's sheets
    RemoveUnit("red-archer-2")               the unit leaves the battlefield (and its vehicle's seat)
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bow3d.errors import SceneError
from bow3d.i18n import _, semicolon
from bow3d.scene.paths import allowed_folders, is_inside


@dataclass(frozen=True)
class SwapSheet:
    """`unit` plays with the scene's sheet `sheet` (with that sheet's first weapon)."""

    unit: str
    sheet: str

    def words(self, scene: Any) -> str:
        return _("swap {unit}'s sheet {old} for {new}").format(unit=self.unit, old=scene.unit(self.unit).sheet,
                                                               new=self.sheet)

    def apply(self, data: dict[str, Any]) -> None:
        if self.sheet not in data["sheets"]:
            raise SceneError(_("no sheet '{sheet}' in the scene (sheets: {value})")
                             .format(sheet=self.sheet, value=', '.join(data['sheets'])))
        unit = _unit(data, self.unit)
        unit["sheet"] = self.sheet
        unit.pop("weapon", None)


@dataclass(frozen=True)
class RemoveUnit:
    """`unit` is taken out of the scene (and out of the vehicle that carried it)."""

    unit: str

    def words(self, scene: Any) -> str:
        return _("take {unit} ({sheet}) out").format(unit=self.unit, sheet=scene.unit(self.unit).sheet)

    def apply(self, data: dict[str, Any]) -> None:
        _unit(data, self.unit)
        data["units"] = [u for u in data["units"] if u["id"] != self.unit]
        for vehicle in data.get("vehicles", []):
            vehicle["occupants"] = [o for o in vehicle.get("occupants", []) if o != self.unit]


SceneEdit = SwapSheet | RemoveUnit


def _unit(data: dict[str, Any], unit_id: str) -> dict[str, Any]:
    for unit in data["units"]:
        if unit["id"] == unit_id:
            return unit
    raise SceneError(_("no unit '{unit_id}' in the scene (units: {value})")
                     .format(unit_id=unit_id, value=', '.join(u['id'] for u in data['units'])))


def apply_edits(scene: Any, edits: tuple[SceneEdit, ...]) -> Any:
    """A new scene: `scene` with the edits applied in order, checked by its ruleset's schema, at the
    same path (its files resolve as the original's). No edits: the scene itself."""
    if not edits:
        return scene
    from bow3d.rulesets import parse_scene
    from bow3d.scene.io import format_scene, scene_to_data

    data = scene_to_data(scene)
    for edit in edits:
        edit.apply(data)
    edited = scene.model_validate(data)  # the same model: fields checked
    source = f"{scene.path or '<scene>'} with {'; '.join(edit.words(scene) for edit in edits)}"
    edited = parse_scene(format_scene(edited), source)  # the ruleset's checks across fields
    edited.path = scene.path
    return edited


def describe_edits(scene: Any, edits: tuple[SceneEdit, ...]) -> str:
    return semicolon().join(edit.words(scene) for edit in edits) or _("no change")


def unreadable_from(scene: Any, folder: str | Path) -> list[str]:
    """The files of the scene (battlefield, models; not library parts) that a copy written in `folder` could
    not read: a scene reads files in its own folder or below it, or in BOW3D_ALLOW_PATHS (bow3d.scene.paths)."""
    target = Path(folder).resolve()
    allowed = [target, *allowed_folders()]
    names = [scene.battlefield, *(item.model for group in (scene.units, scene.vehicles) for item in group)]
    found = []
    for name in dict.fromkeys(names):
        path = scene.resolve(name)
        if path.is_file() and not any(is_inside(path.resolve(), place) for place in allowed):
            found.append(name)
    return found


def relocated(scene: Any, folder: str | Path) -> Any:
    """The scene as it would read from `folder`: its battlefield and model files that are files of the
    scene (not library parts) named relative to that folder, so that a copy written there finds them."""
    target = Path(folder).resolve()
    data = scene.model_dump(mode="python")

    def moved(name: str) -> str:
        path = scene.resolve(name)
        if not path.is_file():
            return name  # a library part or model: found through the library, wherever the scene is
        return Path(os.path.relpath(path.resolve(), target)).as_posix()

    data["battlefield"] = moved(scene.battlefield)
    for group in ("units", "vehicles"):
        for item in data[group]:
            item["model"] = moved(item["model"])
    copy = scene.model_validate(data)
    copy.path = target / (scene.path.name if scene.path is not None else "scene.yaml")
    return copy
