"""What a replay's header says its scene is: the scene's meaning, hashed, not its file's bytes.

Layer: replay (reads scenes through their ruleset's schema, LDraw models through bow3d.ldraw).
A replay must re-play on the same battlefield with the same armies; it need not care how the
scene file is written.

More: docs/modules/replay.md#digest.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from bow3d.errors import Bow3dError, ReplayError
from bow3d.i18n import _

MEANING = "bow3d-scene-meaning/1"   # scene_digest(): the scene's meaning and its models' geometry
FILE_BYTES = "file-bytes"           # version-2 replays: the sha256 of the scene file's bytes
METHODS = (MEANING, FILE_BYTES)
_ROUND = 4  # decimals kept of transforms (LDU and rotation entries) and part geometry


def file_sha256(path: str | os.PathLike) -> str:
    """The sha256 of a file's bytes, in hex."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def canonical_json(value: Any) -> bytes:
    """Sorted keys, no spaces, no NaN: the same data always gives the same bytes."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False, ensure_ascii=True).encode()


def _in_library(key: str, prefixes: tuple[str, ...]) -> bool:
    return key.startswith(prefixes)


def _geometry_sha256(part: Any) -> str:
    """The sha256 of a flattened part's geometry (positions rounded, triangles, colours, winding certified)."""
    digest = hashlib.sha256()
    for array in (np.round(part.positions.astype(np.float64), _ROUND), part.triangles, part.tri_colour,
                  part.tri_certified):
        digest.update(np.ascontiguousarray(array).tobytes())
        digest.update(b"|")
    return digest.hexdigest()


def _part_identity(model: Any, key: str, prefixes: tuple[str, ...]) -> str:
    """A part of the library (or a missing one) by its name; any other by its flattened geometry."""
    if key.startswith("missing:"):
        return "name:" + key.removeprefix("missing:").rsplit("/", 1)[-1]
    if _in_library(key, prefixes):
        return "name:" + Path(key).name.lower()
    return "geometry:" + _geometry_sha256(model.parts[key])


def library_parts(model: Any, into: dict[str, str]) -> None:
    """Add each library part a loaded model places to `into`: its name (lower case) -> the first 16 hex digits
    of its geometry's sha256 (what the header's `parts` records: the library's parts decide every line of
    sight, though the scene digest names them only by name)."""
    prefixes = tuple(str(root) + os.sep for root in model.library.roots)
    for key, part in model.parts.items():
        name = Path(key).name.lower()
        if name not in into and not key.startswith("missing:") and _in_library(key, prefixes):
            into[name] = _geometry_sha256(part)[:16]   # once a scene: its figures share most of their parts


def differing_geometry(recorded: dict[str, str], found: dict[str, str]) -> list[str]:
    """The part names whose geometry is not the recorded one (or that are recorded and not found, or found and
    not recorded), sorted."""
    return sorted(name for name in set(recorded) | set(found) if recorded.get(name) != found.get(name))


def model_digest(model: Any) -> str:
    """The sha256 of a loaded model's placed parts (module docstring); (N,) instances, any order."""
    table = model.table
    prefixes = tuple(str(root) + os.sep for root in model.library.roots)
    identities = [_part_identity(model, key, prefixes) for key in table.keys]
    names = sorted(set(identities))
    rank = np.asarray([names.index(i) for i in identities], np.float64)
    if len(table):
        rows = np.column_stack([rank[table.part], table.colour.astype(np.float64),
                                table.inverted.astype(np.float64),
                                np.round(table.transform.reshape(-1, 16), _ROUND) + 0.0])  # + 0.0: no -0.0
        rows = rows[np.lexsort(rows.T[::-1])]
    else:
        rows = np.zeros((0, 19))
    digest = hashlib.sha256(canonical_json(names))
    digest.update(np.ascontiguousarray(rows, np.float64).tobytes())
    return digest.hexdigest()


def _model_path(scene: Any, name: str, library: Any) -> Path | None:
    """A unit's or vehicle's model file beside the scene; None when it is a library part or model."""
    path = Path(scene.resolve(name))
    return path if path.is_file() else None


def scene_meaning(scene: Any, library: Any = None, parts: dict[str, str] | None = None) -> dict[str, Any]:
    """The canonical document scene_digest() hashes (for tests and for a look at what counts); `parts`, when
    given, gets the library parts its models place (library_parts)."""
    from bow3d.ldraw import Library, load_model
    from bow3d.rulesets import ruleset_of

    library = library or Library.from_env()
    narrowed = ruleset_of(scene).scene_model.model_validate(scene.model_dump(mode="python"))
    data = narrowed.model_dump(mode="json", exclude_defaults=True)
    models: dict[str, dict[str, str]] = {}

    def geometry(name: str, path: Path | None) -> dict[str, str]:
        key = str(path) if path is not None else f"library:{name}"
        if key not in models:
            if path is None:  # a library part or model named directly: by its name, as inside models
                models[key] = {"ldraw": "name:" + Path(name.replace("\\", "/")).name.lower()}
                found = library.find(name) if parts is not None else None
                if found is not None and parts is not None:
                    with contextlib.suppress(Bow3dError):
                        library_parts(load_model(found, library), parts)
            else:
                try:
                    model = load_model(path, library)
                    models[key] = {"ldraw": model_digest(model)}
                    if parts is not None:
                        library_parts(model, parts)
                except Bow3dError as error:
                    raise ReplayError(_("{path}: cannot read {name!r} to identify the scene: {error}")
                                      .format(path=scene.path, name=name, error=error)) from None
        return models[key]

    data["battlefield"] = geometry(scene.battlefield, Path(scene.battlefield_path))
    for group in ("units", "vehicles"):
        for item, source in zip(data.get(group, []), getattr(scene, group)):
            item["model"] = geometry(source.model, _model_path(scene, source.model, library))
    return data


def scene_digest(scene: Any, library: Any = None) -> dict[str, str]:
    """The header's `scene_digest` of a loaded scene: {"method": MEANING, "sha256": ...}.

    `library` (a bow3d.ldraw.Library; default LDRAWDIR, else the bundled one) only resolves names:
    library parts stand by their names, so any library gives the same digest."""
    return {"method": MEANING, "sha256": hashlib.sha256(canonical_json(scene_meaning(scene, library))).hexdigest()}


def scene_identity(scene: Any, library: Any = None) -> tuple[dict[str, str], dict[str, str]]:
    """(scene_digest(scene, library), the library parts its models place: library_parts), in one load."""
    parts: dict[str, str] = {}
    meaning = scene_meaning(scene, library, parts)
    return {"method": MEANING, "sha256": hashlib.sha256(canonical_json(meaning)).hexdigest()}, dict(sorted(parts.items()))


def check_scene_digest(expected: Any, scene: Any, path: Path, library: Any = None,
                       parts: dict[str, str] | None = None) -> str | None:
    """None when `scene` (read from `path`) is the one `expected` (the header's scene_digest) names; else
    one line saying how it differs. `parts`, when given, gets the library parts its models place (read with
    `library`), whatever the method."""
    method, want = expected.method, expected.sha256
    if parts is not None and method == FILE_BYTES:
        scene_meaning(scene, library, parts)
    if method == FILE_BYTES:
        got = file_sha256(path)
        if got == want:
            return None
        return _("{path} has sha256 {got}..., the replay was written for {want}... (a version-2 replay names its "
                 "scene by the file's bytes: the scene file changed since, or this is not its scene)").format(
            path=path, got=got[:12], want=want[:12])
    got = hashlib.sha256(canonical_json(scene_meaning(scene, library, parts))).hexdigest()
    if got == want:
        return None
    return _("{path} means another game: its armies, rules or battlefield differ from the ones the replay was "
             "played on (scene digest {got}..., the replay's {want}...)").format(path=path, got=got[:12], want=want[:12])
