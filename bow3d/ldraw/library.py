"""Find LDraw files: --library, else LDRAWDIR, else the installed library, else the bundled starter library;
case-insensitive, any slash.

Layer: ldraw. Search order for a reference, after the MPD's own blocks: the referencing
file's folder (models only), then each library root's parts/, p/, models/, then the same
under unofficial/. `s/...` names live in parts/s, `48/...` and `8/...` in p/48 and p/8.
The `resolution` option swaps a primitive for its p/48 (high) or p/8 (low) version when
one exists. No reference can resolve outside these folders: absolute names and `..` that
would climb out are refused (the caller turns that into a diagnostic), and so is a file that
leads, through links, out of the library roots and the referencing model's folder, or that is
not a plain file (a named pipe, a device): see `bow3d.ldraw.files`.

More: docs/modules/ldraw.md#library.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from bow3d.bundled import STARTER_LIBRARY as BUNDLED_LIBRARY  # the checkout's, or the installed wheel's
from bow3d.errors import LDrawError
from bow3d.i18n import _
from bow3d.ldraw.budget import LoadBudget
from bow3d.ldraw.files import UnsafeReference, contained
from bow3d.ldraw.parse import LDrawFile, normalise_name
from bow3d.ldraw.userlib import installed_library

_SEARCH_DIRS = ("parts", "p", "models")
_UNOFFICIAL = "unofficial"
RESOLUTIONS = ("normal", "high", "low")


class LibraryError(LDrawError):
    """The chosen LDraw library folder is missing, not a folder, or lacks LDConfig.ldr or parts/."""


def _index_folder(folder: Path, depth: int = 2) -> dict[str, Path]:
    """Lowercase relative names ('s/3001s01.dat') -> paths, for files up to `depth` levels down."""
    index: dict[str, Path] = {}
    stack = [(folder, "")]
    while stack:
        current, prefix = stack.pop()
        try:
            entries = list(os.scandir(current))
        except OSError:
            continue
        for entry in entries:
            key = prefix + entry.name.lower()
            if entry.is_dir(follow_symlinks=False):
                if prefix.count("/") + 1 < depth:
                    stack.append((Path(entry.path), key + "/"))
            else:
                index.setdefault(key, Path(entry.path))
    return index


def safe_name(name: str) -> str:
    """Normalise a reference name; raise UnsafeReference if it is absolute or climbs out."""
    norm = normalise_name(name)
    if norm.startswith("/") or (len(norm) > 1 and norm[1] == ":"):
        raise UnsafeReference(_("'{name}' is an absolute path; references must stay inside the library")
                              .format(name=name))
    parts: list[str] = []
    for piece in norm.split("/"):
        if piece in ("", "."):
            continue
        if piece == "..":
            if not parts:
                raise UnsafeReference(_("'{name}' climbs out of the library folders").format(name=name))
            parts.pop()
        else:
            parts.append(piece)
    if not parts:
        raise UnsafeReference(_("'{name}' names no file").format(name=name))
    return "/".join(parts)


@dataclass
class Library:
    """An ordered list of LDraw library roots (each with parts/, p/, models/, LDConfig.ldr)."""

    roots: list[Path]
    resolution: str = "normal"
    budget: LoadBudget = field(default_factory=LoadBudget)
    _dirs: list[dict[str, Path]] = field(default_factory=list, repr=False)
    _part_dirs: list[dict[str, Path]] = field(default_factory=list, repr=False)  # parts/ and p/ only
    _local: dict[Path, dict[str, Path]] = field(default_factory=dict, repr=False)
    _allowed: tuple[str, ...] = field(default=(), repr=False)  # resolved folders files may come from

    def __post_init__(self) -> None:
        if self.resolution not in RESOLUTIONS:
            raise ValueError(f"resolution must be one of {RESOLUTIONS}, not {self.resolution!r}")
        self.roots = [Path(r).expanduser().resolve() for r in self.roots]
        allowed = [str(root) for root in self.roots]
        for root in self.roots:
            for base in (root, root / _UNOFFICIAL):
                for sub in _SEARCH_DIRS:
                    folder = find_child(base, sub)
                    if folder is not None:
                        self._dirs.append(_index_folder(folder))
                        if sub != "models":
                            self._part_dirs.append(self._dirs[-1])
                        allowed.append(os.path.realpath(folder))  # parts/ may be a link to elsewhere
        self._allowed = tuple(dict.fromkeys(allowed))

    @classmethod
    def from_env(cls, override: str | os.PathLike[str] | None = None, resolution: str = "normal",
                 budget: LoadBudget | None = None) -> Library:
        """`override` (--library), else $LDRAWDIR, else the library `bow3d library install` installed, else the
        bundled starter library; checked (LibraryError)."""
        root, where = choose_library(override)
        check_library_folder(root, where)
        return cls([root], resolution=resolution, budget=budget or LoadBudget())

    @property
    def is_bundled(self) -> bool:
        return self.roots == [BUNDLED_LIBRARY.resolve()]

    def exists(self) -> bool:
        return any(root.is_dir() for root in self.roots)

    def ldconfig(self) -> Path | None:
        """The first root's LDConfig.ldr (any case)."""
        for root in self.roots:
            found = find_child(root, "ldconfig.ldr")
            if found is not None:
                return found
        return None

    def find(self, name: str, referencing_dir: Path | None = None,
             folders: dict[Path, dict[str, Path]] | None = None) -> Path | None:
        """The file a reference names, or None. Raises UnsafeReference for escaping names, links
        that lead out of the library and the referencing folder, and anything but a plain file.

        `folders` caches the listings of referencing folders (a loader passes its own, so that
        a file added next to a model is seen by the next load); by default the library keeps them.
        """
        key = safe_name(name)
        if referencing_dir is not None:
            folders = self._local if folders is None else folders
            local = folders.get(referencing_dir)
            if local is None:
                local = folders[referencing_dir] = _index_folder(referencing_dir, depth=3)
            if key in local:
                return contained(local[key], (os.path.realpath(referencing_dir),) + self._allowed, name)
        if self.resolution != "normal" and "/" not in key:
            prefix = "48/" if self.resolution == "high" else "8/"
            for index in self._dirs:
                if prefix + key in index:
                    return contained(index[prefix + key], self._allowed, name)
        for index in self._dirs:
            if key in index:
                return contained(index[key], self._allowed, name)
        return None

    def has_part(self, name: str) -> bool:
        """True when `name` is a file of the library's parts/ or p/ folders (official or unofficial)."""
        try:
            key = safe_name(name)
        except UnsafeReference:
            return False
        return any(key in index for index in self._part_dirs)

    def is_part_file(self, f: LDrawFile, name: str) -> bool:
        """Is `f`, referenced as `name`, one part (a parts-list entry) or a sub-model to expand?

        Its header says (`LDrawFile.header_kind`: Part, Subpart, Primitive, Shortcut; Model), and a
        file without one is a part only when the library has a part of that name: an MPD block or a
        file beside the model named `fig_medic_1.dat` (the MLCad habit) is a sub-model.
        """
        kind = f.header_kind
        return kind == "part" if kind else self.has_part(name)

    def allows(self, path: str | os.PathLike[str]) -> Path:
        """`path` resolved, when it lies in the library and is a plain file; else UnsafeReference."""
        return contained(path, self._allowed, os.path.basename(path))

    def describe(self) -> str:
        return ", ".join(str(r) for r in self.roots) + (" (bundled starter library)" if self.is_bundled else "")


def choose_library(override: str | os.PathLike[str] | None = None) -> tuple[Path, str]:
    """(folder, how it was chosen) in the order --library, LDRAWDIR, the installed library, the bundled one."""
    if override:
        return Path(override).expanduser(), "--library"
    if os.environ.get("LDRAWDIR"):
        return Path(os.environ["LDRAWDIR"]).expanduser(), "LDRAWDIR"
    installed = installed_library()
    if installed is not None:
        return installed, _("installed by bow3d library install")
    return BUNDLED_LIBRARY, _("the bundled starter library")


def check_library_folder(root: Path, where: str) -> None:
    """Raise LibraryError unless `root` is a folder with LDConfig.ldr and parts/ (any case)."""
    fix = ("point LDRAWDIR (or --library) at the folder that holds LDConfig.ldr and parts/, "
           "or leave LDRAWDIR unset to use the bundled starter library")
    if where.startswith("installed"):
        fix = "run `bow3d library install` again, or set LDRAWDIR (or --library) to another library"
    if not root.exists():
        raise LibraryError(_("{root}: the LDraw library ({where}) does not exist; {fix}")
                           .format(root=root, where=where, fix=fix))
    if not root.is_dir():
        raise LibraryError(_("{root}: the LDraw library ({where}) is a file, not a folder; {fix}")
                           .format(root=root, where=where, fix=fix))
    ldconfig, parts = find_child(root, "ldconfig.ldr"), find_child(root, "parts")
    if ldconfig is not None and ldconfig.is_file() and parts is not None and parts.is_dir():
        return
    try:
        entries = sorted(entry.name for entry in os.scandir(root))
    except OSError as error:
        raise LibraryError(_("{root}: the LDraw library ({where}) cannot be read ({strerror}); {fix}")
                           .format(root=root, where=where, strerror=error.strerror, fix=fix)) from None
    found = ", ".join(entries[:8]) + (f", ... ({len(entries)} entries)" if len(entries) > 8 else "")
    lacks = " and ".join(n for n, ok in (("LDConfig.ldr", ldconfig is not None and ldconfig.is_file()),
                                         ("parts/", parts is not None and parts.is_dir())) if not ok)
    raise LibraryError(_("{root}: the LDraw library ({where}) has no {lacks} (found: {value}); {fix}")
                       .format(root=root, where=where, lacks=lacks, value=found or 'nothing, it is empty', fix=fix))


def find_child(folder: Path, name: str) -> Path | None:
    """`folder/name` matched case-insensitively (LDraw libraries come as PARTS/ or parts/); `name` in lower case."""
    direct = folder / name
    if direct.exists():
        return direct
    try:
        for entry in os.scandir(folder):
            if entry.name.lower() == name:
                return Path(entry.path)
    except OSError:
        pass
    return None
