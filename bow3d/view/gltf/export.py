"""`export_gltf`: a model, a scene, a replay or a pack -> one .glb or .gltf file, written safely.

Layer: view. What the input is comes from its name (.ldr/.mpd/.dat: an LDraw model; .yaml/.yml: a
scene; .bowreplay: a replay; a .bowpack, or any zip file: a pack); what is written from the output's
(.glb binary, .gltf JSON with its buffer embedded). Output files are never replaced without `force`
(bow3d.paths), and the output is checked before any work starts.
"""

from __future__ import annotations

import os
import time
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bow3d.errors import UserInputError
from bow3d.i18n import _
from bow3d.ldraw.parse import LDRAW_SUFFIXES

SCENE_SUFFIXES = (".yaml", ".yml")
REPLAY_SUFFIXES = (".bowreplay",)
OUTPUT_SUFFIXES = (".glb", ".gltf")


@dataclass(frozen=True)
class ExportStats:
    """What was written."""

    path: Path
    kind: str  # "model" | "scene" | "replay"
    bytes: int
    nodes: int
    meshes: int
    materials: int
    triangles: int
    units: tuple[str, ...]
    animated: bool
    duration_s: float
    seconds: float


def input_kind(path: str | os.PathLike) -> str:
    """'model', 'scene' or 'replay' (a pack is a replay), from the file's name (and a pack's first bytes)."""
    from bow3d.replay.pack import is_pack

    source = Path(path)
    suffix = source.suffix.lower()
    if suffix in REPLAY_SUFFIXES or is_pack(source):
        return "replay"
    if suffix in SCENE_SUFFIXES:
        return "scene"
    if suffix in LDRAW_SUFFIXES:
        return "model"
    raise UserInputError(_("{source}: cannot tell what to export from the name: give an LDraw model "
                           "({value}), a scene ({value2}), a replay (.bowreplay) or a pack (.bowpack)")
                         .format(source=source, value=', '.join(LDRAW_SUFFIXES), value2=', '.join(SCENE_SUFFIXES)))


def _output(out: str | os.PathLike, force: bool) -> Path:
    from bow3d.paths import check_new

    target = Path(out)
    if target.suffix.lower() not in OUTPUT_SUFFIXES:
        raise UserInputError(_("{target}: the output must end in .glb (binary glTF) or .gltf (glTF "
                               "JSON)").format(target=target))
    return check_new(target, force=force)


def build_document(source: str | os.PathLike, *, scale: str = "metres", quality: str = "full",
                   scene: str | os.PathLike | None = None, library: Any = None,
                   max_seconds: float | None = None, budget: Any = None,
                   allow_library: Collection[str] = ()) -> tuple[str, Any]:
    """(kind, bow3d.view.gltf.document.Document) of a model, scene, replay or pack (see export_gltf)."""
    from bow3d.ldraw import Library, load_model
    from bow3d.view.gltf.document import model_document, replay_document, scene_document

    kind = input_kind(source)
    if kind == "replay":
        from bow3d.replay import open_replay

        document, _unused = replay_document(open_replay(source, scene, allow_library=allow_library), quality=quality,
                                            scale=scale, max_seconds=max_seconds)
        return kind, document
    if library is None or isinstance(library, str | os.PathLike):  # a folder (--library), else LDRAWDIR's
        library = Library.from_env(library, budget=budget)
    if kind == "scene":
        from bow3d.rulesets import load_scene

        document, *_unused = scene_document(load_scene(source, library=library), library, quality=quality, scale=scale)
        return kind, document
    return kind, model_document(load_model(source, library), quality=quality, scale=scale)


def export_gltf(source: str | os.PathLike, out: str | os.PathLike, *, scale: str = "metres", quality: str = "full",
                scene: str | os.PathLike | None = None, library: Any = None, force: bool = False,
                max_seconds: float | None = None, budget: Any = None,
                allow_library: Collection[str] = ()) -> ExportStats:
    """Write `source` (model, scene, replay or pack) as glTF to `out` (.glb or .gltf).

    `scale` 'metres' (1 LDU = 0.4 mm) or 'ldu'; `quality` 'full' (every LDraw triangle), 'default'
    (low-poly studs, no tubes) or 'draft' (no studs, detailed parts simplified); `scene` where a replay's
    scene is when not where its header says; `library` the LDraw library (or its folder) for a model or a
    scene (default LDRAWDIR, else the bundled one; a replay uses its own), `budget` its LoadBudget when
    it is made here (bow3d.ldraw.budget: what loading and exporting may cost), `allow_library` a pack's
    libraries allowed by name (bow3d.replay.open_replay). Raises UserInputError
    (and its kinds) for bad input, for one that places no triangle ("nothing to export") and for one
    whose export would pass the budget (BudgetExceeded); nothing is written then."""
    from bow3d.paths import write_new

    started = time.perf_counter()
    target = _output(out, force)
    kind, document = build_document(source, scale=scale, quality=quality, scene=scene, library=library,
                                    max_seconds=max_seconds, budget=budget, allow_library=allow_library)
    if document.triangles == 0:  # a valid file of nothing would only hide why (lines skipped, edges only)
        raise UserInputError(_("{source}: nothing to export: it places no triangles at --quality {quality} "
                               "(glTF gets faces, not edge lines); `bow3d inspect {source}` says what it holds "
                               "and which lines were skipped").format(source=source, quality=quality))
    data = document.builder.glb() if target.suffix.lower() == ".glb" else document.builder.gltf_text()
    write_new(target, data, force=force)
    return ExportStats(target, kind, len(data), document.nodes, document.meshes, document.materials,
                       document.triangles, document.units, document.animated, document.duration_s,
                       time.perf_counter() - started)
