"""A model, a scene or a replay as a glTF document: instanced parts, named units, the film's animation.

Layer: view (numpy, pygltflib; the film's director, no Panda3D drawing). The node tree:

    <scene name>                 root: bow3d's world (Z up, LDU) turned to glTF's Y up, scaled to metres
      battlefield village.ldr    extras: kind, file
        3001.dat @ village.ldr:27          one node per part instance (that part in that colour), placed by
        ...                                its world transform (TRS; sheared: a child holds the mesh);
                                           extras: part, colour, file, line
      blue-rifle-1               a unit (or vehicle): translation, rotation, scale (animated for a replay);
        3626bp01.dat @ blue-rifleman.ldr:5 extras: kind, side, side_name, sheet, model, and the sheet itself
      door cottage-door          a closed door: a box filling its cell (scale 0 while open)

More: docs/modules/view.md#document.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from bow3d.view.film.timeline import Pose
from bow3d.view.gltf.builder import LDU_METRES, GltfBuilder, transforms_to_trs, unicode_text
from bow3d.view.gltf.placement import Placer, matrix_to_trs, scene_poses

SAMPLE_RATE = 10.0  # poses per second of film sampled into the animation (linear in between)
DOOR_COLOUR = 70    # Reddish_Brown: a closed door, as the film draws it
SCALES = {"metres": LDU_METRES, "ldu": 1.0}
HIDDEN = np.zeros(3)
# Memory an export holds per part instance, at its peak (measured: 100,000 placed plates, 300 MB against
# the loaded model's 94 MB; a million, 2.7 GB): its node, its JSON, and the file's bytes.
EXPORT_BYTES_PER_INSTANCE = 2560


@dataclass(frozen=True)
class Document:
    """A built glTF document and what it holds."""

    builder: GltfBuilder
    nodes: int
    meshes: int
    materials: int
    triangles: int  # placed triangles (every instance of every mesh), as `bow3d inspect` counts them
    units: tuple[str, ...]
    animated: bool
    duration_s: float = 0.0


def _instances(builder: GltfBuilder, model: Any) -> list[int]:
    """One node per part instance of `model` (its own frame), named by part, file and line; a transform
    glTF cannot hold in one node (sheared, singular) gets a child node holding the mesh (transforms_to_trs)."""
    table = model.table
    count = len(table)
    budget = getattr(model, "budget", None)
    if budget is not None and count:  # refused before building, as render and the world are (LoadBudget)
        heaviest = model.placed_total(lambda part: 1)[1]
        budget.check_build(model.path, f"to export {count:,} part instances as glTF nodes",
                           count * EXPORT_BYTES_PER_INSTANCE, heaviest)
    translation, rotation, scale, inner, split = transforms_to_trs(table.transform)
    # the instance table's columns, not table[i] (that builds and keeps one object per instance); each
    # distinct name, file and colour name made Unicode text once, not once per node
    name_ids, distinct_names = table.name_ids()
    names = [unicode_text(n) for n in distinct_names]
    origins, where_of = np.unique(table.origin, return_inverse=True)
    where = [(unicode_text(file), int(line)) for file, line, _name in map(table.origins.where, origins.tolist())]
    colours = table.colour.tolist()
    colour_names = {c: unicode_text(table.colour_name(c)) for c in set(colours)}
    parts, inverted, missing = table.part.tolist(), table.inverted.tolist(), table.missing.tolist()
    t, q, s, r = translation.tolist(), rotation.tolist(), scale.tolist(), inner.tolist()
    nodes = []
    for i, w, n in zip(range(count), where_of.reshape(-1).tolist(), name_ids.tolist()):
        file, line = where[w]
        key, colour, part_name = table.keys[parts[i]], colours[i], names[n]
        mesh = builder.part_mesh(part_name, key, model.parts[key], colour, inverted[i], colour_names[colour])
        extras = {"part": part_name, "colour": colour, "colour_name": colour_names[colour], "file": file,
                  "line": line}
        if missing[i]:
            extras["missing"] = True
        name = f"{part_name} @ {file}:{line}"
        if split[i]:
            child = builder.node(name, mesh=mesh, trs=([0.0, 0.0, 0.0], r[i], [1.0, 1.0, 1.0]), extras=extras,
                                 text_checked=True)
            nodes.append(builder.node(name, children=[child], trs=(t[i], q[i], s[i]), extras={**extras, "sheared": True},
                                      text_checked=True))
        else:
            nodes.append(builder.node(name, mesh=mesh, trs=(t[i], q[i], s[i]), extras=extras, text_checked=True))
    return nodes


def _builder(colours: Any, quality: str) -> GltfBuilder:
    from bow3d.view.graph.batches import LOW_STUD_SIDES

    try:
        from bow3d.view.graph.batches import stud_template
    except ImportError:  # before the stud template moved to bow3d.ldraw.studs
        from bow3d.view.graph.batches import _stud_template as stud_template  # type: ignore[attr-defined,no-redef]
    return GltfBuilder(colours, quality, np.asarray(stud_template(LOW_STUD_SIDES), np.float64))


def _scale(scale: str) -> float:
    if scale not in SCALES:
        raise ValueError(f"scale must be one of {tuple(SCALES)}, not {scale!r}")
    return SCALES[scale]


def model_document(model: Any, *, quality: str = "full", scale: str = "metres", name: str | None = None) -> Document:
    """An LDraw model: its part instances under the root."""
    builder = _builder(model.colours, quality)
    nodes = _instances(builder, model)
    from pathlib import Path

    title = name or Path(model.path).name
    holder = builder.node(title, children=nodes, extras={"kind": "model", "file": Path(model.path).name})
    builder.root(title, [holder], _scale(scale), extras={"bow3d": {"kind": "model", "scale": scale}})
    return _document(builder, (), False)


def _document(builder: GltfBuilder, units: tuple[str, ...], animated: bool, duration: float = 0.0) -> Document:
    g = builder.gltf
    return Document(builder, len(builder.nodes), len(g.meshes), len(g.materials), builder.triangles, units, animated,
                    duration)


def _sheet_extras(sheet: Any) -> dict[str, Any]:
    if hasattr(sheet, "model_dump"):
        return sheet.model_dump(mode="json")
    return dict(sheet) if isinstance(sheet, Mapping) else {}


def _unit_trs(matrix: np.ndarray | None, last: tuple | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    if matrix is None:  # not drawn: shrunk to nothing where it last stood
        t, q = (last[0], last[1]) if last is not None else (np.zeros(3), np.array([0.0, 0.0, 0.0, 1.0]))
        return t, q, HIDDEN
    return matrix_to_trs(matrix)


def scene_document(scene: Any, library: Any, *, quality: str = "full", scale: str = "metres",
                   poses: Mapping[str, Pose] | None = None, doors: Mapping[str, bool] | None = None) -> tuple[
                       Document, Placer, dict[str, int], dict[str, int]]:
    """A scene: its battlefield, its units and vehicles as named nodes in `poses` (default: the scene's own),
    its doors. Returns the document, the placer, and the node of each unit, vehicle and door."""
    from pathlib import Path

    from bow3d.ldraw import load_model

    battlefield = load_model(scene.battlefield_path, library)
    placer = Placer(scene, library, battlefield)
    builder = _builder(battlefield.colours, quality)
    field_name = Path(scene.battlefield).name
    children = [builder.node(f"battlefield {field_name}", children=_instances(builder, battlefield),
                             extras={"kind": "battlefield", "file": field_name})]
    poses = dict(poses) if poses is not None else scene_poses(scene)
    unit_nodes: dict[str, int] = {}
    parts_of: dict[str, list[int]] = {}
    for id_, figure in placer.figures.items():
        if figure.model_ref not in parts_of:
            parts_of[figure.model_ref] = []
        side = scene.side(figure.side)
        extras = {"kind": figure.kind, "id": id_, "side": figure.side, "side_name": side.name,
                  "side_colour": int(side.colour), "sheet": figure.sheet, "model": figure.model_ref,
                  "sheet_fields": _sheet_extras(scene.sheet(figure.sheet))}
        pose = poses.get(id_)
        matrix = placer.matrix(id_, pose, 0.0, poses) if pose is not None else None
        t, q, s = _unit_trs(matrix, None)
        node = builder.node(id_, children=_instances(builder, figure.model), trs=(t, q, s), extras=extras)
        unit_nodes[id_] = node
        children.append(node)
    door_nodes = {}
    for door in getattr(scene, "doors", None) or []:
        x, y = (door.cell[0] + 0.5) * 20.0, (door.cell[1] + 0.5) * 20.0
        z = placer.ground.under_footprint((x, y), (8.0, 8.0), 0.0)
        mesh = builder.box_mesh(f"door {door.id}", (-9.5, -9.5, 0.0), (9.5, 9.5, door.height_ldu), DOOR_COLOUR)
        is_open = (doors or {}).get(door.id, door.open)
        node = builder.node(f"door {door.id}", mesh=mesh, trs=([x, y, z], [0.0, 0.0, 0.0, 1.0],
                                                                HIDDEN if is_open else np.ones(3)),
                            extras={"kind": "door", "id": door.id})
        door_nodes[door.id] = node
        children.append(node)
    title = scene.name or (Path(scene.path).stem if scene.path else "scene")
    builder.root(title, children, _scale(scale), extras={"bow3d": {"kind": "scene", "scale": scale,
                                                                   "units": sorted(unit_nodes)}})
    return _document(builder, tuple(unit_nodes), False), placer, unit_nodes, door_nodes


# --- the film's animation ----------------------------------------------------------------------

def film_times(film: Any, rate: float = SAMPLE_RATE) -> np.ndarray:
    """Sample times (s): every 1/rate of the film, every cut and the instant before it, the end."""
    duration = float(film.duration_s)
    times = set(np.round(np.arange(0.0, duration, 1.0 / rate), 4).tolist())
    for shot in film.shots:
        times.add(round(float(shot.start_s), 4))
        if shot.start_s > 1e-3:
            times.add(round(float(shot.start_s) - 1e-3, 4))
    times.add(round(duration, 4))
    return np.asarray(sorted(t for t in times if 0.0 <= t <= duration), np.float64)


def round_marks(film: Any) -> list[dict[str, Any]]:
    """Where each round starts on the film's time line, in order: [{"round": r, "time_s": t, "shown": bool}].

    A round the film's editor left out whole (a long game: only moves and misses in it) starts where the
    next shown round does, with "shown": false."""
    steps = film.timeline.steps
    shots = [(int(steps[shot.step].round), float(shot.start_s)) for shot in film.shots]
    marks = []
    for number in sorted({int(step.round) for step in steps}):
        start = next((t for r, t in shots if r >= number), float(film.duration_s))
        marks.append({"round": number, "time_s": round(start, 4), "shown": any(r == number for r, _ in shots)})
    return marks


def _reduce(times: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Keyframes where a value changes (the first and last always): linear in between, the same curve."""
    if len(times) <= 2:
        return times, values
    same_prev = np.all(np.isclose(values[1:-1], values[:-2], atol=1e-6), axis=1)
    same_next = np.all(np.isclose(values[1:-1], values[2:], atol=1e-6), axis=1)
    keep = np.concatenate([[True], ~(same_prev & same_next), [True]])
    return times[keep], values[keep]


def film_tracks(film: Any, placer: Placer, unit_nodes: Mapping[str, int], door_nodes: Mapping[str, int],
                rate: float = SAMPLE_RATE) -> list[tuple[int, str, np.ndarray, np.ndarray]]:
    """(node, path, times, values) of every unit, vehicle and door over the film (module docstring)."""
    times = film_times(film, rate)
    series: dict[str, list[tuple]] = {id_: [] for id_ in unit_nodes}
    doors: dict[str, list[float]] = {id_: [] for id_ in door_nodes}
    for t in times.tolist():
        frame = film.frame(t)
        for id_ in unit_nodes:
            pose = frame.poses.get(id_)
            matrix = None if pose is None else placer.matrix(id_, pose, float(frame.falling.get(id_, 0.0)),
                                                                frame.poses)
            last = series[id_][-1] if series[id_] else None
            series[id_].append(_unit_trs(matrix, last))
        for id_ in door_nodes:
            doors[id_].append(0.0 if frame.doors.get(id_, False) else 1.0)
    tracks = []
    for id_, node in unit_nodes.items():
        t_values = np.array([s[0] for s in series[id_]])
        q_values = np.array([s[1] for s in series[id_]])
        for i in range(1, len(q_values)):  # the short way round between neighbouring keys
            if np.dot(q_values[i], q_values[i - 1]) < 0:
                q_values[i] = -q_values[i]
        s_values = np.array([s[2] for s in series[id_]])
        for path, values in (("translation", t_values), ("rotation", q_values), ("scale", s_values)):
            keys, kept = _reduce(times, values)
            tracks.append((node, path, keys, kept))
    for id_, node in door_nodes.items():
        values = np.repeat(np.asarray(doors[id_])[:, None], 3, axis=1)
        keys, kept = _reduce(times, values)
        tracks.append((node, "scale", keys, kept))
    return tracks


def replay_document(opened: Any, *, quality: str = "full", scale: str = "metres", max_seconds: float | None = None,
                    language: str = "en", rate: float = SAMPLE_RATE, timeline: Any = None) -> tuple[Document, Any]:
    """An opened replay (bow3d.replay.open_replay): its scene at the start of the game, and the animation
    "battle" on the film's time line (`timeline`: the replay's, when already re-played). Returns the
    document and the film (bow3d.view.film.director.ShotList)."""
    from bow3d.view.film.director import direct
    from bow3d.view.film.timeline import side_styles, timeline_from_replay
    from bow3d.view.film.video import MAX_FILM_SECONDS

    scene = opened.scene()
    library = opened.library()
    if timeline is None:
        timeline = timeline_from_replay(opened, None, side_styles(scene), language)
    document, placer, unit_nodes, door_nodes = scene_document(scene, library, quality=quality, scale=scale,
                                                              poses=timeline.start, doors=timeline.start_doors)
    ground = placer.ground

    def ground_at(x: float, y: float) -> float:
        return float(ground.under_footprint((x, y), (8.0, 8.0), 0.0))

    def stand(id_: str, pose: Pose) -> float:
        figure = placer.figures.get(id_)
        if figure is None or math.isnan(pose.position[0]):
            return ground_at(pose.position[0] * 20.0, pose.position[1] * 20.0)
        return placer.ground_under(figure, pose.position, pose.facing_deg - 270.0)

    film = direct(timeline, placer.battlefield.bounds(), ground_at, 16 / 9,
                  MAX_FILM_SECONDS if max_seconds is None else max_seconds, stand)
    builder = document.builder
    rounds = round_marks(film)
    builder.animation("battle", film_tracks(film, placer, unit_nodes, door_nodes, rate),
                      extras={"duration_s": round(film.duration_s, 4), "rounds": rounds})
    extras = builder.gltf.scenes[0].extras
    extras["bow3d"] = {**extras.get("bow3d", {}), "kind": "replay", "duration_s": round(film.duration_s, 4),
                       "rounds": rounds, "winner": timeline.winner, "finished": timeline.finished}
    return _document(builder, document.units, True, film.duration_s), film
