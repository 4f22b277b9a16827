"""A persistent disk cache of flattened parts, shared safely between processes.

Layer: ldraw. An entry is keyed by the part file's content (plus the cache format, the
library roots and the primitive resolution) and lists every file its geometry came from
with size, mtime and content hash: an entry whose dependencies changed is a miss.
Entries are written to a temporary file and renamed into place, so a reader never sees
half an entry and two writers of the same part cannot corrupt each other.
Location: $BOW3D_CACHE_DIR, else the platform's user cache folder (XDG_CACHE_HOME honoured).

The cache heals: an entry is untrusted data. It is read (a plain file, at most
MAX_ENTRY_BYTES, never through a link) and checked whole (zip members stored, CRCs, every
array's dtype, shape and index range, the manifest's form) before it is used; any entry
that fails is a miss, is removed (a debug note on the `bow3d.ldraw.cache` logger) and is
written again by the load that missed it. Nothing in the cache can make a load fail.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import logging
import os
import re
import shutil
import stat
import tempfile
import zipfile
from collections import OrderedDict
from pathlib import Path

import numpy as np

from bow3d.ldraw.budget import MAX_FILE_BYTES
from bow3d.ldraw.files import read_capped
from bow3d.ldraw.flatten import FlatPart

CACHE_FORMAT = "bow3d-part-cache/7"  # 4: the manifest names its key; 5: only real top studs, stud colours;
# 6: textures (tri_texture, tex_uv, the manifest's texture names); 7: bow-tie quads drawn by their outline,
# file names with inner double spaces or tabs kept as written
MAX_ENTRY_BYTES = 512 * 1024 * 1024  # far above any flattened part (5 M primitives is ~150 MB)
MAX_DEPENDENCIES = 10_000  # files one part is built from (real parts: a few dozen)
_LOG = logging.getLogger(__name__)
# The header numpy writes: {'descr': '<f4', 'fortran_order': False, 'shape': (12, 3), } padded with spaces.
_NPY_HEADER = re.compile(rb"\{'descr': '([<>|][a-zA-Z]\d{1,9})', 'fortran_order': (False|True), "
                         rb"'shape': \(((?:\d{1,18}, ?)*\d{0,18})\), \} *\n")
# name -> (dtype, shape: a number is fixed, a letter a length that arrays with the same letter share)
_ARRAYS = {
    "positions": ("<f4", ("V", 3)), "triangles": ("<i4", ("T", 3)), "tri_colour": ("<i4", ("T",)),
    "tri_certified": ("|b1", ("T",)), "tri_detail": ("|b1", ("T",)), "edges": ("<i4", ("E", 2)),
    "edge_colour": ("<i4", ("E",)), "optional_edges": ("<i4", ("O", 4)), "optional_colour": ("<i4", ("O",)),
    "studs": ("<f4", ("S", 4, 4)), "stud_colour": ("<i4", ("S",)),
    "tri_texture": ("<i4", ("T",)), "tex_uv": ("<f4", ("X", 3, 2)),
}
MAX_TEXTURE_NAMES = 1_000  # distinct images one part uses (real parts: one or two)


class _BadEntry(ValueError):
    """A cache entry that cannot be used; the message says why (for the debug note)."""


def default_cache_dir() -> Path:
    """$BOW3D_CACHE_DIR, else the user cache folder (platformdirs; XDG_CACHE_HOME on Linux)."""
    override = os.environ.get("BOW3D_CACHE_DIR")
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("bow3d", appauthor=False))


def content_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


class _Decoded:
    """Entries decoded in this process, by file and the file's (size, mtime_ns, inode): the figures of a scene
    share most of their parts, and each model's load read and unzipped them again (181 entries for the
    village's 16 figures, a quarter of a second). Bounded by DECODED_BYTES of arrays, least recently used out;
    the parts' arrays are made read-only, as they are shared."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.entries: OrderedDict[Path, tuple[tuple[int, int, int], tuple[FlatPart, list, bool], int]] = OrderedDict()
        self.nbytes = 0

    @staticmethod
    def _stamp(target: Path) -> tuple[int, int, int] | None:
        try:
            info = os.lstat(target)
        except OSError:
            return None
        return (info.st_size, info.st_mtime_ns, info.st_ino) if stat.S_ISREG(info.st_mode) else None

    def get(self, target: Path) -> tuple[FlatPart, list, bool] | None:
        found = self.entries.get(target)
        if found is None or self._stamp(target) != found[0]:
            return None
        self.entries.move_to_end(target)
        return found[1]

    def put(self, target: Path, decoded: tuple[FlatPart, list, bool]) -> None:
        stamp = self._stamp(target)
        if stamp is None:
            return
        part = decoded[0]
        arrays = [value for value in vars(part).values() if isinstance(value, np.ndarray)]
        for array in arrays:
            array.flags.writeable = False
        size = sum(array.nbytes for array in arrays)
        old = self.entries.pop(target, None)
        if old is not None:
            self.nbytes -= old[2]
        self.entries[target] = (stamp, decoded, size)
        self.nbytes += size
        while self.nbytes > self.budget and self.entries:
            _unused, (_stamp, _decoded, dropped) = self.entries.popitem(last=False)
            self.nbytes -= dropped


DECODED_BYTES = 256 * 1024 * 1024
_DECODED = _Decoded(DECODED_BYTES)


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
        """The cached part, or None (a miss) when absent, stale or unreadable (then it is removed)."""
        entry = self.get_entry(key)
        return None if entry is None else entry[0]

    def get_entry(self, key: str) -> tuple[FlatPart, bool] | None:
        """(the cached part, whether its file said something when it was read: `put`'s `reparse`), or None."""
        target = self._file(key)
        decoded = _DECODED.get(target)
        if decoded is None:
            try:
                data = _read_entry(target)
                if data is None:
                    self.misses += 1
                    return None
                decoded = _decode(data, key)
            except Exception as error:  # noqa: BLE001 - untrusted bytes: any failure to decode is a miss
                self.discard(target, f"{type(error).__name__}: {error}")
                self.misses += 1
                return None
            _DECODED.put(target, decoded)
        part, deps, reparse = decoded
        if not _dependencies_unchanged(deps):
            self.misses += 1
            return None
        self.hits += 1
        return part, reparse

    def discard(self, target: Path, why: str) -> None:
        """Remove an unusable entry (file, link or folder) so that the next put writes it afresh."""
        _LOG.debug("part cache: %s is unusable (%s); removed, it will be rebuilt", target, why)
        try:
            if os.path.isdir(target) and not os.path.islink(target):
                shutil.rmtree(target, ignore_errors=True)
            else:
                os.unlink(target)
        except OSError:
            pass

    def put(self, key: str, part: FlatPart, known: dict[str, tuple[int, int, str]] | None = None,
            reparse: bool = False) -> None:
        """Store a part; `known` maps paths to (size, mtime_ns, hash) taken when they were read; `reparse`:
        its file said something when read (diagnostics, colours) that a load using the entry must read again."""
        deps = []
        for path in sorted(part.dependencies):
            if known and path in known:
                deps.append([path, *known[path]])
                continue
            try:
                info = os.stat(path)
                deps.append([path, info.st_size, info.st_mtime_ns, content_hash(read_capped(path, MAX_FILE_BYTES))])
            except (OSError, ValueError):
                return  # a dependency vanished or changed kind while loading: do not cache a stale part
        target = self._file(key)
        try:
            _clear_way(target)
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
            with os.fdopen(fd, "wb") as handle:
                np.savez(handle, manifest=np.array(json.dumps({"format": CACHE_FORMAT, "key": key, "deps": deps,
                                                               "reparse": bool(reparse),
                                                               "textures": list(part.textures)})),
                         **{name: getattr(part, name) for name in _ARRAYS})
            os.replace(tmp, target)
        except OSError:
            with contextlib.suppress(OSError, UnboundLocalError):
                os.unlink(tmp)


def _clear_way(target: Path) -> None:
    """Remove what would stop an entry being written: a shard that is a file or a link, a folder
    or link where the entry goes (left by something else, or by damage)."""
    for path in (target.parent, target):
        try:
            info = os.lstat(path)
        except OSError:
            continue
        if path == target.parent and stat.S_ISDIR(info.st_mode):
            continue
        if stat.S_ISDIR(info.st_mode):
            shutil.rmtree(path, ignore_errors=True)
        elif path == target.parent or not stat.S_ISREG(info.st_mode):
            os.unlink(path)


def _read_entry(target: Path) -> bytes | None:
    """The bytes of an entry file, None when there is none; _BadEntry when it is not a plain file."""
    try:
        info = os.lstat(target)
    except (FileNotFoundError, NotADirectoryError):
        return None
    if not stat.S_ISREG(info.st_mode):
        raise _BadEntry("not a plain file")
    if info.st_size > MAX_ENTRY_BYTES:
        raise _BadEntry(f"{info.st_size} bytes, more than an entry can hold")
    fd = os.open(target, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise _BadEntry("not a plain file")
        data = handle.read(MAX_ENTRY_BYTES + 1)
    if len(data) > MAX_ENTRY_BYTES:
        raise _BadEntry("grew past the size an entry can hold")
    return data


def _decode(data: bytes, key: str) -> tuple[FlatPart, list, bool]:
    """A FlatPart and its dependency list from an entry's bytes, every field checked (and that
    it is the entry of `key`: another entry's bytes under this name are not this part)."""
    members: dict[str, np.ndarray] = {}
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for info in archive.infolist():
            name = info.filename.removesuffix(".npy")
            if name not in _ARRAYS and name != "manifest" or name in members:
                raise _BadEntry(f"unexpected member {info.filename!r}")
            if info.compress_type != zipfile.ZIP_STORED or info.file_size > len(data):
                raise _BadEntry(f"member {info.filename!r} is compressed or larger than the entry")
            members[name] = _npy(archive.read(info), name)  # read() checks the CRC
    manifest = json.loads(str(members.pop("manifest")[()]))
    if not isinstance(manifest, dict) or manifest.get("format") != CACHE_FORMAT:
        raise _BadEntry("manifest of another format")
    if manifest.get("key") != key:
        raise _BadEntry("the entry of another part")
    deps = manifest.get("deps")
    if not (isinstance(deps, list) and 0 < len(deps) <= MAX_DEPENDENCIES and all(
            isinstance(d, list) and len(d) == 4 and isinstance(d[0], str) and isinstance(d[3], str)
            and all(isinstance(n, int) and not isinstance(n, bool) for n in d[1:3]) for d in deps)):
        raise _BadEntry("manifest dependencies are not [path, size, mtime, hash] lists")
    reparse = manifest.get("reparse", False)
    if not isinstance(reparse, bool):
        raise _BadEntry("manifest reparse is not true or false")
    textures = manifest.get("textures", [])
    if not (isinstance(textures, list) and len(textures) <= MAX_TEXTURE_NAMES
            and all(isinstance(t, str) for t in textures)):
        raise _BadEntry("manifest textures are not a list of names")
    _check_shapes(members, len(textures))
    return FlatPart(**members, dependencies=frozenset(d[0] for d in deps), textures=tuple(textures)), deps, reparse


def _npy_header(raw: bytes) -> tuple[tuple[int, ...], bool, np.dtype, int] | None:
    """(shape, fortran order, dtype, data offset) of a .npy header as numpy writes it (one regular
    expression, no literal_eval), None when it is written any other way (then numpy's reader decides)."""
    if raw[:6] != b"\x93NUMPY" or len(raw) < 10 or raw[6:8] != b"\x01\x00":
        return None
    end = 10 + int.from_bytes(raw[8:10], "little")
    found = _NPY_HEADER.fullmatch(raw[10:end])
    if found is None:
        return None
    shape = tuple(int(n) for n in found.group(3).split(b",") if n.strip())
    return shape, found.group(2) == b"True", np.dtype(found.group(1).decode()), end


def _npy(raw: bytes, name: str) -> np.ndarray:
    """One .npy member, its header checked against what the entry may hold before any allocation."""
    header = _npy_header(raw)
    if header is not None:
        shape, fortran, dtype, offset = header
    else:
        stream = io.BytesIO(raw)
        version = np.lib.format.read_magic(stream)
        read = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
        shape, fortran, dtype = read(stream)  # a checked literal; nothing is allocated yet
        offset = stream.tell()
    if name == "manifest":
        if dtype.kind != "U" or shape != () or fortran:
            raise _BadEntry("manifest is not one string")
    elif dtype.str != _ARRAYS[name][0] or fortran or len(shape) != len(_ARRAYS[name][1]):
        raise _BadEntry(f"{name} has dtype {dtype.str} and shape {shape}")
    count = int(np.prod(shape, dtype=object)) * dtype.itemsize
    if count != len(raw) - offset:
        raise _BadEntry(f"{name} holds {len(raw) - offset} bytes for a {shape} array")
    return np.frombuffer(raw, dtype=dtype, offset=offset).reshape(shape).copy()


def _check_shapes(arrays: dict[str, np.ndarray], texture_names: int = 0) -> None:
    """Every array present, lengths that agree, vertex and texture indices in range, finite coordinates."""
    if set(arrays) != set(_ARRAYS):
        raise _BadEntry(f"arrays missing: {sorted(set(_ARRAYS) - set(arrays))}")
    lengths: dict[str, int] = {}
    for name, (_, shape) in _ARRAYS.items():
        for want, got in zip(shape, arrays[name].shape):
            if (lengths.setdefault(want, got) != got) if isinstance(want, str) else (want != got):
                raise _BadEntry(f"{name} has shape {arrays[name].shape}")
    vertices = lengths["V"]
    for name in ("triangles", "edges", "optional_edges"):
        index = arrays[name]
        if index.size and (index.min() < 0 or index.max() >= vertices):
            raise _BadEntry(f"{name} points past the {vertices} vertices")
    texture = arrays["tri_texture"]
    if texture.size and (texture.min() < -1 or texture.max() >= texture_names):
        raise _BadEntry(f"tri_texture points past the {texture_names} texture names")
    if int((texture >= 0).sum()) != lengths["X"]:
        raise _BadEntry("tex_uv does not hold one row per textured triangle")
    if not (np.isfinite(arrays["positions"]).all() and np.isfinite(arrays["studs"]).all()):
        raise _BadEntry("coordinates that are not finite")


def _dependencies_unchanged(deps: list[list]) -> bool:
    """True when every file is as it was: same size, and same mtime or same content (plain files only)."""
    for path, size, mtime_ns, digest in deps:
        try:
            info = os.stat(path)
        except (OSError, ValueError):
            return False
        if not stat.S_ISREG(info.st_mode) or info.st_size != size:
            return False
        if info.st_mtime_ns == mtime_ns:
            continue
        try:
            if content_hash(read_capped(path, min(size, MAX_FILE_BYTES))) != digest:
                return False
        except (OSError, ValueError):
            return False
    return True
