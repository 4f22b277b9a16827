"""Where a unit or vehicle model stands, as a 4x4 matrix, exactly as the film places it.

Layer: view, numpy only (no Panda3D). World frame Z up, LDU. The rules of bow3d.view.graph.scene_nodes and
bow3d.view.film.stage, written as matrices: a model turned about Z by (facing - 270) degrees, its origin at
the position (20x, 20y), its lowest point on the highest ground under its feet; a unit falling in its
close-up pitched back by 90 degrees times the fall (lifted as it goes), a dead one lying on its back;
a unit aboard a vehicle in its seat when the vehicle shows its crew, else not drawn (None).

    placer = Placer(scene, library, battlefield_model)
    matrix = placer.matrix("blue-1", pose, fall=0.0, poses=poses)   # (4, 4) model -> world, or None
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bow3d.i18n import _
from bow3d.units import LDU_PER_STUD as STUD_LDU
from bow3d.view.film.timeline import Pose
from bow3d.view.graph.ground import GroundHeights


def rotation_z(degrees: float) -> np.ndarray:
    a = math.radians(degrees)
    m = np.eye(4)
    m[:2, :2] = [[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]]
    return m


def rotation_x(degrees: float) -> np.ndarray:
    a = math.radians(degrees)
    m = np.eye(4)
    m[1:3, 1:3] = [[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]]
    return m


def translation(x: float, y: float, z: float) -> np.ndarray:
    m = np.eye(4)
    m[:3, 3] = (x, y, z)
    return m


def matrix_to_trs(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A rigid (4, 4) matrix as translation (3,), rotation quaternion (x, y, z, w) and scale (3,)."""
    m = np.asarray(matrix, np.float64)
    scale = np.linalg.norm(m[:3, :3], axis=0)
    r = m[:3, :3] / np.where(scale > 1e-12, scale, 1.0)
    trace = r[0, 0] + r[1, 1] + r[2, 2]
    if trace > 0:
        s = math.sqrt(trace + 1.0) * 2
        q = [(r[2, 1] - r[1, 2]) / s, (r[0, 2] - r[2, 0]) / s, (r[1, 0] - r[0, 1]) / s, 0.25 * s]
    elif r[0, 0] > r[1, 1] and r[0, 0] > r[2, 2]:
        s = math.sqrt(1.0 + r[0, 0] - r[1, 1] - r[2, 2]) * 2
        q = [0.25 * s, (r[0, 1] + r[1, 0]) / s, (r[0, 2] + r[2, 0]) / s, (r[2, 1] - r[1, 2]) / s]
    elif r[1, 1] > r[2, 2]:
        s = math.sqrt(1.0 + r[1, 1] - r[0, 0] - r[2, 2]) * 2
        q = [(r[0, 1] + r[1, 0]) / s, 0.25 * s, (r[1, 2] + r[2, 1]) / s, (r[0, 2] - r[2, 0]) / s]
    else:
        s = math.sqrt(1.0 + r[2, 2] - r[0, 0] - r[1, 1]) * 2
        q = [(r[0, 2] + r[2, 0]) / s, (r[1, 2] + r[2, 1]) / s, 0.25 * s, (r[1, 0] - r[0, 1]) / s]
    quaternion = np.asarray(q)
    return m[:3, 3].copy(), quaternion / np.linalg.norm(quaternion), scale


@dataclass
class Figure:
    """A unit's or vehicle's model and the measures its placement needs (model frame, LDU)."""

    id: str
    kind: str  # "unit" | "vehicle"
    side: str
    sheet: str
    model_ref: str
    model: Any  # bow3d.ldraw.Model
    path: Path
    lo: np.ndarray
    hi: np.ndarray
    feet_half_extent: tuple[float, float]
    lying_lift: float  # lying on its back: how far its lowest point is below the origin, turned
    seats: list[np.ndarray] = field(default_factory=list)
    exposed_occupants: bool = True


def _feet_half_extent(model: Any, lo: np.ndarray) -> tuple[float, float]:
    from bow3d.view.graph.scene_nodes import _feet_half_extent as feet  # the film's own rule

    return feet(model, lo)


def _read_seats(path: Path) -> list[np.ndarray]:
    try:
        from bow3d.scene.seats import read_seats
    except ImportError:  # where the scene layer does not read seats yet
        from bow3d.view.graph.scene_nodes import read_seats
    return list(read_seats(path))


class Placer:
    """Matrices of a scene's units and vehicles in any pose (module docstring)."""

    def __init__(self, scene: Any, library: Any, battlefield: Any, load: Any = None):
        from bow3d.ldraw import load_model

        self.scene = scene
        self.library = library
        self.battlefield = battlefield
        mesh = battlefield.mesh
        self.ground = GroundHeights.from_mesh(mesh.positions, mesh.triangles, mesh.tri_detail)
        load = load or (lambda path: load_model(path, library))
        self.figures: dict[str, Figure] = {}
        models: dict[str, tuple[Any, Path]] = {}
        for kind, items in (("vehicle", scene.vehicles), ("unit", scene.units)):
            for item in items:
                if item.model not in models:
                    path = self._model_path(item.model)
                    models[item.model] = (load(path), path)
                model, path = models[item.model]
                self.figures[item.id] = self._figure(item, kind, model, path)
        self._ground_cache: dict[tuple, float] = {}

    def _model_path(self, ref: str) -> Path:
        from bow3d.errors import SceneError

        path = Path(self.scene.resolve(ref))
        if path.is_file():
            return path
        found = self.library.find(ref)
        if found is None:
            raise SceneError(_("{path}: model {ref!r} is neither a file beside the scene nor a part of "
                               "the LDraw library ({value}); fix the path")
                             .format(path=self.scene.path, ref=ref, value=self.library.describe()))
        return Path(found)

    def _figure(self, item: Any, kind: str, model: Any, path: Path) -> Figure:
        bounds = model.bounds()
        lo, hi = bounds[0].astype(np.float64), bounds[1].astype(np.float64)
        positions = model.mesh.positions.astype(np.float64)
        lying = (positions @ rotation_x(-90.0)[:3, :3].T)[:, 2].min() if positions.shape[0] else 0.0
        sheet = self.scene.sheet(item.sheet)
        figure = Figure(item.id, kind, item.side, item.sheet, item.model, model, path, lo, hi,
                        _feet_half_extent(model, lo), float(-lying))
        if kind == "vehicle":
            figure.seats = _read_seats(path)
            figure.exposed_occupants = bool(getattr(sheet, "exposed_occupants", True))
        return figure

    # --- poses -------------------------------------------------------------------------------
    def ground_under(self, figure: Figure, position: tuple[float, float], heading: float) -> float:
        key = (figure.id, round(position[0], 4), round(position[1], 4), round(heading, 3))
        if key not in self._ground_cache:
            self._ground_cache[key] = self.ground.under_footprint(
                (position[0] * STUD_LDU, position[1] * STUD_LDU), figure.feet_half_extent, heading)
        return self._ground_cache[key]

    def root(self, figure: Figure, pose: Pose) -> np.ndarray:
        """Where the model's root stands: at the position, on the ground, turned by (facing - 270)."""
        heading = pose.facing_deg - 270.0
        z = self.ground_under(figure, pose.position, heading)
        return translation(pose.position[0] * STUD_LDU, pose.position[1] * STUD_LDU, z) @ rotation_z(heading)

    def matrix(self, id_: str, pose: Pose, fall: float = 0.0, poses: Mapping[str, Pose] | None = None
               ) -> np.ndarray | None:
        """The model -> world matrix of `id_` in `pose` (`fall` 0..1: toppling in its close-up); None when it
        is not drawn (aboard a vehicle that hides its crew, or off the table)."""
        figure = self.figures[id_]
        poses = poses or {}
        if pose.aboard is not None and pose.alive and pose.aboard in self.figures and pose.aboard in poses:
            carrier = self.figures[pose.aboard]
            if not carrier.exposed_occupants or pose.seat >= len(carrier.seats):
                return None
            seat = carrier.seats[pose.seat]
            return self.root(carrier, poses[pose.aboard]) @ translation(seat[0], seat[1], seat[2] - carrier.lo[2])
        if pose.aboard is not None or math.isnan(pose.position[0]):
            return None
        root = self.root(figure, pose)
        if figure.kind != "unit":
            return root @ translation(0.0, 0.0, -figure.lo[2])
        if not pose.alive:  # lying on its back (scene_nodes.set_alive): its lowest point on the ground
            return root @ translation(0.0, 0.0, figure.lying_lift) @ rotation_x(-90.0)
        if fall:  # toppling (stage: pitched back, lifted over its heels as it goes)
            depth = 0.5 * (figure.hi[1] - figure.lo[1])
            lift = 0.25 * (figure.hi[2] - figure.lo[2]) * math.sin(math.pi * fall) + depth * fall
            return root @ translation(0.0, 0.0, -figure.lo[2] + lift) @ rotation_x(-90.0 * fall)
        return root @ translation(0.0, 0.0, -figure.lo[2])


def scene_poses(scene: Any) -> dict[str, Pose]:
    """The poses a scene file sets up: positions and facings, units aboard in their seats."""
    poses: dict[str, Pose] = {}
    for vehicle in scene.vehicles:
        poses[vehicle.id] = Pose((float(vehicle.position[0]), float(vehicle.position[1])), float(vehicle.facing))
    for unit in scene.units:
        carrier = scene.aboard(unit.id)
        if carrier is not None:
            poses[unit.id] = Pose((math.nan, math.nan), float(unit.facing), True, carrier.id,
                                  seat=carrier.occupants.index(unit.id))
        elif unit.position is not None:
            poses[unit.id] = Pose((float(unit.position[0]), float(unit.position[1])), float(unit.facing))
    return poses
