"""Write a `.bowpack`: a replay with its scene, models and non-library parts (bow3d.replay.pack reads one).

Layer: replay. The replay is opened as every command opens it (bow3d.replay.opened), so only a scene
the replay was played on is packed; the pack's layout, manifest and reader are bow3d.replay.pack's.
Members are sorted and their times fixed: the same replay packs to the same bytes.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import zipfile
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from bow3d import __version__
from bow3d.errors import ReplayError
from bow3d.i18n import _
from bow3d.paths import check_new, open_new
from bow3d.replay.opened import open_replay
from bow3d.replay.pack import LIBRARY_FOLDER, MANIFEST, SCENE_FOLDER, PackManifest

_ZIP_TIME = (1980, 1, 1, 0, 0, 0)       # fixed member times: the same replay packs to the same bytes


@dataclass(frozen=True)
class PackSummary:
    """What `write_pack` wrote."""

    path: Path
    replay: str
    scene_files: int
    library_files: int
    parts_included: bool
    bytes: int


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _model_files(path: Path, library: Any) -> set[Path]:
    """Every file a load of this LDraw model reads: the model, its sub-model files, its parts' files."""
    from bow3d.ldraw import load_model

    model = load_model(path, library)
    files = {Path(f.source) for f in model.table.origins.files}
    for part in model.parts.values():
        files.update(Path(d) for d in part.dependencies)
    files.add(Path(path))
    return {Path(os.path.realpath(f)) for f in files if os.path.isfile(f)}


def pack_members(scene: Any, library: Any) -> tuple[dict[str, Path], dict[str, Path]]:
    """The files a scene needs: (scene/ member -> file, library path -> file). ReplayError naming a file
    of the scene's that lies outside its folder."""
    folder = Path(os.path.realpath(scene.path)).parent
    roots = [Path(os.path.realpath(root)) for root in library.roots]
    wanted = {Path(os.path.realpath(scene.path))}
    models = [Path(scene.battlefield_path)]
    for item in [*scene.units, *scene.vehicles]:
        local = Path(scene.resolve(item.model))
        found = local if local.is_file() else library.find(item.model)
        if found is not None:
            models.append(Path(found))
    for model in dict.fromkeys(models):
        wanted |= _model_files(model, library)
    own: dict[str, Path] = {}
    shared: dict[str, Path] = {}
    for file in sorted(wanted):
        root = next((r for r in roots if _inside(file, r)), None)
        if root is not None:
            shared[file.relative_to(root).as_posix()] = file
        elif _inside(file, folder):
            own[f"{SCENE_FOLDER}/{file.relative_to(folder).as_posix()}"] = file
        else:
            raise ReplayError(_("{path}: needs {file}, which is outside the scene's folder ({folder}) "
                                "and the LDraw library; move it into the scene's folder to pack the "
                                "replay").format(path=scene.path, file=file, folder=folder))
    return own, shared


def write_pack(replay_path: str | os.PathLike, out: str | os.PathLike, *, with_parts: bool = False,
               scene: str | os.PathLike | None = None, force: bool = False,
               allow_library: Collection[str] = ()) -> PackSummary:
    """Pack a replay (or re-pack a pack) with its scene, models and non-library parts into `out`.

    The replay is opened as every command opens it (its scene found and checked against the header),
    so only a scene the replay was played on is packed. `with_parts` includes the library files too.
    Never overwrites `out` unless `force` (bow3d.paths)."""
    check_new(out, force=force)
    opened = open_replay(replay_path, scene, allow_library=allow_library)
    scene_obj = opened.scene()
    library = opened.library()
    own, shared = pack_members(scene_obj, library)
    replay_file = opened.pack.replay if opened.pack is not None else Path(replay_path)
    replay_name = PurePosixPath(replay_file.name).name
    members = dict(own)
    members[replay_name] = replay_file
    if with_parts:
        config = library.ldconfig()
        if config is not None:
            shared.setdefault("LDConfig.ldr", Path(os.path.realpath(config)))
        members.update({f"{LIBRARY_FOLDER}/{name}": path for name, path in shared.items()})
    data = {name: _read(path) for name, path in sorted(members.items())}
    digests = {name: hashlib.sha256(data.get(f"{LIBRARY_FOLDER}/{name}") or _read(path)).hexdigest()
               for name, path in shared.items()}
    scene_member = f"{SCENE_FOLDER}/{Path(os.path.realpath(scene_obj.path)).name}"
    manifest = PackManifest(
        replay=replay_name, scene=scene_member, library=opened.header.library,
        parts="included" if with_parts else "named", library_files=sorted(shared),
        files={name: hashlib.sha256(blob).hexdigest() for name, blob in data.items()}, part_digests=digests,
        bow3d=__version__)
    with (open_new(out, "wb", force=force) as handle,
          zipfile.ZipFile(handle, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive):
        _add(archive, MANIFEST, json.dumps(manifest.model_dump(mode="json"), indent=1).encode())
        for name, blob in data.items():
            _add(archive, name, blob)
    return PackSummary(Path(out), replay_name, len(own), len(shared), with_parts, Path(out).stat().st_size)


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as error:
        raise ReplayError(_("{path}: cannot be read to pack it ({value})")
                          .format(path=path, value=error.strerror or error)) from None


def _add(archive: zipfile.ZipFile, name: str, blob: bytes) -> None:
    info = zipfile.ZipInfo(name, _ZIP_TIME)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = (stat.S_IFREG | 0o644) << 16
    archive.writestr(info, blob)


__all__ = ["PackSummary", "pack_members", "write_pack"]
