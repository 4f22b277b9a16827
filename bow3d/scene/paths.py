"""The files a scene names (battlefield, unit and vehicle models), resolved and confined.

Layer: scene (no I/O but looks at the file system). A scene file is shared like a document, so
the paths in it may not reach anywhere on the reader's machine: after resolving symbolic links,
a path must lead inside the scene's own folder or one of the LDraw library roots, to a regular
file (never a folder, a device or a pipe: `battlefield: /dev/zero` would never end).

The explicit override is the environment variable BOW3D_ALLOW_PATHS: folders (separated by
os.pathsep, ':' on Linux and macOS) whose files scenes may name too, e.g.
    BOW3D_ALLOW_PATHS=~/lego/battlefields bow3d los my-scene.yaml blue-1 red-1
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path

from bow3d.errors import SceneError

ALLOW_ENV = "BOW3D_ALLOW_PATHS"


class ScenePathRefused(SceneError):
    """A path of a scene file that leads outside the allowed folders or to something not a file."""

    def __init__(self, relpath: str, problem: str, fix: str):
        super().__init__(f"{relpath}: {problem}; {fix}")
        self.problem, self.fix = problem, fix


def allowed_folders(environ: Mapping[str, str] = os.environ) -> list[Path]:
    """The folders BOW3D_ALLOW_PATHS lets scenes name files in (resolved; none when unset)."""
    text = environ.get(ALLOW_ENV, "")
    return [Path(part).expanduser().resolve() for part in text.split(os.pathsep) if part.strip()]


def is_inside(path: Path, folder: Path) -> bool:
    """Both resolved: `path` is `folder` or below it."""
    return path == folder or folder in path.parents


def confined_path(scene_dir: str | os.PathLike[str], relpath: str | os.PathLike[str],
                  roots: Iterable[str | os.PathLike[str]] = (), *,
                  allow: Iterable[str | os.PathLike[str]] | None = None) -> Path:
    """The resolved path of a file a scene names (relative to `scene_dir`, or absolute).

    Allowed: inside `scene_dir`, a library root of `roots`, or a folder of `allow` (default: the
    BOW3D_ALLOW_PATHS folders), after resolving symbolic links; and only a regular file. Raises
    ScenePathRefused (with .problem and .fix) otherwise, a missing file included ("no such file").
    """
    base = Path(scene_dir).resolve()
    resolved = (base / Path(relpath)).resolve()
    folders = [base, *(Path(r).resolve() for r in roots),
               *(allowed_folders() if allow is None else (Path(a).expanduser().resolve() for a in allow))]
    if not any(is_inside(resolved, folder) for folder in folders):
        raise ScenePathRefused(str(relpath), f"leads outside the scene's folder and the LDraw library (to {resolved})",
                               "keep the scene's files in its folder, or allow that folder with "
                               f"{ALLOW_ENV}={resolved.parent}")
    try:
        mode = os.stat(resolved).st_mode
    except FileNotFoundError:
        raise ScenePathRefused(str(relpath), f"no such file '{base / Path(relpath)}'",
                               "check the path (relative to the scene file's folder)") from None
    except OSError as error:
        raise ScenePathRefused(str(relpath), f"cannot be read ({error.strerror or error})",
                               "check the file's permissions") from None
    if not stat.S_ISREG(mode):
        kind = "a folder" if stat.S_ISDIR(mode) else "not a regular file"
        raise ScenePathRefused(str(relpath), f"is {kind} ({resolved})", "name an LDraw file (.ldr, .mpd, .dat)")
    return resolved


def resolve_model(scene_dir: str | os.PathLike[str], name: str, library) -> Path:
    """A unit's or vehicle's model: a file of the scene's own (confined_path), else a part or model of
    `library` (a bow3d.ldraw.Library: its own lookup never leaves it). Raises ScenePathRefused."""
    local = Path(scene_dir) / name
    if os.path.lexists(local):
        try:
            return confined_path(scene_dir, name)
        except ScenePathRefused:
            return confined_path(scene_dir, name, library.roots)
    try:
        found = library.find(name)
    except ValueError:  # an absolute name or one climbing out of the library
        found = None
    if found is None:
        raise ScenePathRefused(name, f"no such file '{local}' and no library part or model '{name}' "
                               f"(library: {library.describe()})",
                               "check the path (relative to the scene file's folder) or set LDRAWDIR")
    return Path(found)
