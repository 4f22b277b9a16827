"""A persistent disk cache of flattened parts, shared safely between processes.

Layer: ldraw. An entry is keyed by the part file's content (plus the cache format, the
library roots and the primitive resolution) and lists every file its geometry came from
with size, mtime and content hash: an entry whose dependencies changed is a miss.
Entries are written to a temporary file and renamed into place, so a reader never sees
half an entry and two writers of the same part cannot corrupt each other.
Location: $BOW3D_CACHE_DIR, else the platform's user cache folder (XDG_CACHE_HOME honoured).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

import numpy as np

from bow3d.ldraw.flatten import FlatPart

CACHE_FORMAT = "bow3d-part-cache/3"
_ARRAYS = ("positions", "triangles", "tri_colour", "tri_certified", "tri_detail", "edges",
           "edge_colour", "optional_edges", "optional_colour", "studs")


def default_cache_dir() -> Path:
    """$BOW3D_CACHE_DIR, else the user cache folder (platformdirs; XDG_CACHE_HOME on Linux)."""
    override = os.environ.get("BOW3D_CACHE_DIR")
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("bow3d", appauthor=False))


def content_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


class PartCache:
    """get/put flattened parts by key; every failure to read or write is a silent miss."""

    def __init__(self, directory: Path | None = None):
        self.directory = (directory or default_cache_dir()) / "parts-v1"
        self.hits = 0
        self.misses = 0

    def key(self, part_hash: str, path: str, context: str) -> str:
        """The entry name: the part file's content hash with everything else that shapes the result."""
        return content_hash("\0".join([CACHE_FORMAT, context, path, part_hash]).encode())

    def _file(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.npz"

    def get(self, key: str) -> FlatPart | None:
        try:
            with np.load(self._file(key), allow_pickle=False) as data:
                manifest = json.loads(str(data["manifest"]))
                if manifest.get("format") != CACHE_FORMAT or not _dependencies_unchanged(manifest["deps"]):
                    self.misses += 1
                    return None
                arrays = {name: data[name] for name in _ARRAYS}
        except (OSError, KeyError, ValueError, json.JSONDecodeError, EOFError):
            self.misses += 1
            return None
        self.hits += 1
        return FlatPart(**arrays, dependencies=frozenset(d[0] for d in manifest["deps"]))

    def put(self, key: str, part: FlatPart, known: dict[str, tuple[int, int, str]] | None = None) -> None:
        """Store a part; `known` maps paths to (size, mtime_ns, hash) taken when they were read."""
        deps = []
        for path in sorted(part.dependencies):
            if known and path in known:
                deps.append([path, *known[path]])
                continue
            try:
                stat = os.stat(path)
                deps.append([path, stat.st_size, stat.st_mtime_ns, content_hash(Path(path).read_bytes())])
            except OSError:
                return  # a dependency vanished while loading: do not cache a stale part
        target = self._file(key)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
            with os.fdopen(fd, "wb") as handle:
                np.savez(handle, manifest=np.array(json.dumps({"format": CACHE_FORMAT, "deps": deps})),
                         **{name: getattr(part, name) for name in _ARRAYS})
            os.replace(tmp, target)
        except OSError:
            try:
                os.unlink(tmp)
            except (OSError, UnboundLocalError):
                pass


def _dependencies_unchanged(deps: list[list]) -> bool:
    for path, size, mtime_ns, digest in deps:
        try:
            stat = os.stat(path)
        except OSError:
            return False
        if stat.st_size == size and stat.st_mtime_ns == mtime_ns:
            continue
        try:
            if content_hash(Path(path).read_bytes()) != digest:
                return False
        except OSError:
            return False
    return True
