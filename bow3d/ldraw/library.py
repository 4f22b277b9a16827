"""Find LDraw files: LDRAWDIR, else the bundled starter library; case-insensitive, any slash.

Layer: ldraw. Search order for a reference, after the MPD's own blocks: the referencing
file's folder (models only), then each library root's parts/, p/, models/, then the same
under unofficial/. `s/...` names live in parts/s, `48/...` and `8/...` in p/48 and p/8.
The `resolution` option swaps a primitive for its p/48 (high) or p/8 (low) version when
one exists. No reference can resolve outside these folders: absolute names and `..` that
would climb out are refused (the caller turns that into a diagnostic).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from bow3d.ldraw.parse import normalise_name

from bow3d.bundled import STARTER_LIBRARY as BUNDLED_LIBRARY  # the checkout's, or the installed wheel's
_SEARCH_DIRS = ("parts", "p", "models")
_UNOFFICIAL = "unofficial"
RESOLUTIONS = ("normal", "high", "low")


class UnsafeReference(ValueError):
    """A reference that would leave the library and model folders."""


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
            if entry.is_dir():
                if prefix.count("/") + 1 < depth:
                    stack.append((Path(entry.path), key + "/"))
            else:
                index.setdefault(key, Path(entry.path))
    return index


def safe_name(name: str) -> str:
    """Normalise a reference name; raise UnsafeReference if it is absolute or climbs out."""
    norm = normalise_name(name)
    if norm.startswith("/") or (len(norm) > 1 and norm[1] == ":"):
        raise UnsafeReference(f"'{name}' is an absolute path; references must stay inside the library")
    parts: list[str] = []
    for piece in norm.split("/"):
        if piece in ("", "."):
            continue
        if piece == "..":
            if not parts:
                raise UnsafeReference(f"'{name}' climbs out of the library folders")
            parts.pop()
        else:
            parts.append(piece)
    if not parts:
        raise UnsafeReference(f"'{name}' names no file")
    return "/".join(parts)


@dataclass
class Library:
    """An ordered list of LDraw library roots (each with parts/, p/, models/, LDConfig.ldr)."""

    roots: list[Path]
    resolution: str = "normal"
    _dirs: list[dict[str, Path]] = field(default_factory=list, repr=False)
    _local: dict[Path, dict[str, Path]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if self.resolution not in RESOLUTIONS:
            raise ValueError(f"resolution must be one of {RESOLUTIONS}, not {self.resolution!r}")
        self.roots = [Path(r).expanduser().resolve() for r in self.roots]
        for root in self.roots:
            for base in (root, root / _UNOFFICIAL):
                for sub in _SEARCH_DIRS:
                    folder = _find_child(base, sub)
                    if folder is not None:
                        self._dirs.append(_index_folder(folder))

    @classmethod
    def from_env(cls, override: str | os.PathLike[str] | None = None, resolution: str = "normal") -> "Library":
        """`override`, else $LDRAWDIR, else the bundled starter library."""
        chosen = override or os.environ.get("LDRAWDIR")
        return cls([Path(chosen) if chosen else BUNDLED_LIBRARY], resolution=resolution)

    @property
    def is_bundled(self) -> bool:
        return self.roots == [BUNDLED_LIBRARY.resolve()]

    def exists(self) -> bool:
        return any(root.is_dir() for root in self.roots)

    def ldconfig(self) -> Path | None:
        """The first root's LDConfig.ldr (any case)."""
        for root in self.roots:
            found = _find_child(root, "ldconfig.ldr")
            if found is not None:
                return found
        return None

    def find(self, name: str, referencing_dir: Path | None = None) -> Path | None:
        """The file a reference names, or None. Raises UnsafeReference for escaping names."""
        key = safe_name(name)
        if referencing_dir is not None:
            local = self._local.get(referencing_dir)
            if local is None:
                local = self._local[referencing_dir] = _index_folder(referencing_dir, depth=3)
            if key in local:
                return local[key]
        if self.resolution != "normal" and "/" not in key:
            prefix = "48/" if self.resolution == "high" else "8/"
            for index in self._dirs:
                if prefix + key in index:
                    return index[prefix + key]
        for index in self._dirs:
            if key in index:
                return index[key]
        return None

    def describe(self) -> str:
        return ", ".join(str(r) for r in self.roots) + (" (bundled starter library)" if self.is_bundled else "")


def _find_child(folder: Path, name: str) -> Path | None:
    """`folder/name` matched case-insensitively (LDraw libraries come as PARTS/ or parts/)."""
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
