"""A replay that travels: one `.bowpack` file with the replay and everything it needs to re-play.

Layer: replay. A pack is a zip file (deflated, members sorted, timestamps fixed: the same replay
packs to the same bytes) holding:

    bowpack.json               the manifest (PackManifest), written first
    village-seed1.bowreplay    the replay, as written
    scene/village.yaml         the scene, and beside it every file of the scene's own that it
    scene/village.ldr          needs: the battlefield, the unit and vehicle models, their
    scene/figures/jeep.ldr     sub-models and any part that is not the library's
    ldraw/LDConfig.ldr         with --with-parts only: the library files the models use
    ldraw/parts/3001.dat       (parts, sub-parts, primitives), under their library paths

More: docs/modules/replay.md#pack.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import stat
import tempfile
import time
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bow3d.errors import ReplayError
from bow3d.i18n import _
from bow3d.ldraw.budget import DEFAULT_MAX_BYTES_READ, MAX_FILE_BYTES
from bow3d.ldraw.library import find_child

FORMAT = "bow3d-pack"
VERSION = 2
SUFFIX = ".bowpack"
MANIFEST = "bowpack.json"
SCENE_FOLDER = "scene"
LIBRARY_FOLDER = "ldraw"
MAX_MEMBERS = 50_000
MAX_MEMBER_BYTES = MAX_FILE_BYTES       # one file (bow3d reads no LDraw file bigger)
# All of it, unpacked: the replay, and what loading its scene may read (the load budget's LDraw text). A pack
# is refused before a byte is written when its members say more, and while unpacking when they hold more.
MAX_PACK_BYTES = MAX_MEMBER_BYTES + DEFAULT_MAX_BYTES_READ
MAX_MANIFEST_BYTES = 16 * 1024 * 1024
# The unpacked packs kept (bow3d's cache): the least recently opened are removed past either bound.
CACHE_MAX_BYTES = 2 * MAX_PACK_BYTES
CACHE_MAX_PACKS = 32
_SIZE_FILE = ".bow3d-unpacked"   # in each unpacked pack: its size in bytes (the cache's bookkeeping)
_ZIP_MAGIC = b"PK\x03\x04"
_ENCRYPTED = 0x1  # a zip member's general purpose flag: encrypted (APPNOTE 4.4.4)


class PackManifest(BaseModel):
    """bowpack.json: what the pack holds and how to use it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    format: str = FORMAT
    version: int = VERSION
    replay: str = Field(description="the replay member (top level)")
    scene: str = Field(description="the scene member, under scene/")
    library: str | None = Field(None, description="the replay header's library: 'bundled', 'external' or None")
    parts: str = Field(description="'included': the library files are under ldraw/; 'named': only named")
    library_files: list[str] = Field(description="the LDraw library files the models use, by library path")
    files: dict[str, str] = Field(description="member -> sha256 of its bytes (every member but this manifest)")
    part_digests: dict[str, str] = Field(description="library path -> sha256 of every library file the models use, "
                                         "as the packer's library had it (version 2)")
    bow3d: str = Field("", description="the bow3d that packed it")


@dataclass(frozen=True)
class PackContents:
    """An opened pack: where it was unpacked, and its replay, scene and (when included) library there."""

    pack: Path
    root: Path
    manifest: PackManifest
    replay: Path
    scene: Path
    library: Path | None  # an LDraw library root (LDConfig.ldr, parts/, p/) when the parts are included
    upgraded_from: int | None = None  # the manifest's version when older than VERSION (read through UPGRADES)


def is_pack(path: str | os.PathLike) -> bool:
    """True when `path` is a file that starts like a zip file (what a .bowpack is); ReplayError for a file
    named .bowpack that is not one."""
    try:
        with open(path, "rb") as handle:
            found = handle.read(4) == _ZIP_MAGIC
    except OSError:
        return False
    if not found and Path(path).suffix.lower() == SUFFIX and os.path.isfile(path):
        raise ReplayError(_("{path}: not a bow3d pack (not a zip file); make one with bow3d replay pack")
                          .format(path=path))
    return found


# --- reading -------------------------------------------------------------------------------------

def _refuse(pack: Path, what: str) -> ReplayError:
    return ReplayError(f"{pack}: {what}; the pack is damaged or not made by bow3d (make it again with "
                       "bow3d replay pack)")


def _check_name(pack: Path, name: str) -> str:
    """A member name as a safe relative path, or a refusal naming it."""
    pure = PurePosixPath(name)
    if (not name or "\\" in name or name.startswith("/") or ":" in pure.parts[0] or "\x00" in name
            or any(part in ("", ".", "..") for part in name.split("/"))):
        raise _refuse(pack, f"member name {name!r} is not a plain relative path")
    return name


def _check_members(pack: Path, archive: zipfile.ZipFile) -> dict[str, zipfile.ZipInfo]:
    infos = archive.infolist()
    if len(infos) > MAX_MEMBERS:
        raise _refuse(pack, f"{len(infos):,} members, more than a pack may hold ({MAX_MEMBERS:,})")
    members: dict[str, zipfile.ZipInfo] = {}
    seen: set[str] = set()
    total = 0
    for info in infos:
        if info.is_dir():
            continue
        name = _check_name(pack, info.filename)
        kind = stat.S_IFMT(info.external_attr >> 16)  # 0: no Unix mode recorded (a plain file)
        if kind and kind != stat.S_IFREG:
            raise _refuse(pack, f"member {name!r} is not a plain file (a link or a special file)")
        if info.flag_bits & _ENCRYPTED:
            raise _refuse(pack, f"member {name!r} is encrypted (bow3d packs never are)")
        if name.lower() in seen:
            raise _refuse(pack, f"member {name!r} is there twice")
        seen.add(name.lower())
        if info.file_size > MAX_MEMBER_BYTES:
            raise _refuse(pack, f"member {name!r} unpacks to {info.file_size:,} bytes, more than "
                                f"{MAX_MEMBER_BYTES:,}")
        total += info.file_size
        if total > MAX_PACK_BYTES:
            raise _over_budget(pack, name, total)
        members[name] = info
    return members


def _over_budget(pack: Path, name: str, total: int) -> ReplayError:
    return ReplayError(_("{pack} -> {name}: the pack unpacks to {total} bytes or more, more than the load budget "
                         "allows a pack ({limit} bytes: the replay and {text} bytes of LDraw text, "
                         "LoadBudget.max_bytes_read); refused before unpacking")
                       .format(pack=pack, name=name, total=f"{total:,}", limit=f"{MAX_PACK_BYTES:,}",
                               text=f"{DEFAULT_MAX_BYTES_READ:,}"))


def _read_member(pack: Path, archive: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int) -> bytes:
    """A member's bytes, never more than its declared size (a lying header is refused)."""
    try:
        with archive.open(info) as stream:
            blob = stream.read(min(info.file_size, limit) + 1)
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError, RuntimeError, zlib.error) as error:
        raise _refuse(pack, f"member {info.filename!r} cannot be unpacked ({error})") from None  # RuntimeError: a password asked
    if len(blob) > min(info.file_size, limit):
        raise _refuse(pack, f"member {info.filename!r} holds more than it says")
    return blob


def read_manifest(pack: Path, archive: zipfile.ZipFile,
                  members: dict[str, zipfile.ZipInfo]) -> tuple[PackManifest, int | None]:
    """The manifest, format and version first (a newer pack is refused plainly, an older one upgraded through
    UPGRADES), then every field; with the version it was upgraded from (None: the current one)."""
    from bow3d.textformats import load_json

    info = members.get(MANIFEST)
    if info is None:
        raise ReplayError(_("{pack}: a zip file, but not a bow3d pack (no {MANIFEST} in it)")
                          .format(pack=pack, MANIFEST=MANIFEST))
    raw = load_json(_read_member(pack, archive, info, MAX_MANIFEST_BYTES).decode("utf-8", "replace"),
                    f"{pack}:{MANIFEST}", error=ReplayError)
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise ReplayError(_('{pack}: {MANIFEST} is not a bow3d pack manifest ("format": "{FORMAT}")')
                          .format(pack=pack, MANIFEST=MANIFEST, FORMAT=FORMAT))
    version = raw.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ReplayError(_("{pack}: {MANIFEST}: version must be a whole number, got {version!r}")
                          .format(pack=pack, MANIFEST=MANIFEST, version=version))
    if version > VERSION:
        raise ReplayError(_("{pack}: written by a newer bow3d (pack version {version}); this bow3d "
                            "reads up to {VERSION}: upgrade bow3d to read it")
                          .format(pack=pack, version=version, VERSION=VERSION))
    upgraded = version if version < VERSION else None
    while version < VERSION:
        raw = UPGRADES[version](dict(raw))
        version += 1
        raw["version"] = version
    try:
        manifest = PackManifest.model_validate(raw)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ReplayError(_("{pack}: {MANIFEST}: {where}: {value}")
                          .format(pack=pack, MANIFEST=MANIFEST, where=where, value=first['msg'])) from None
    listed = set(manifest.files) | {MANIFEST}
    if set(members) != listed:
        extra = sorted(set(members) - listed)
        missing = sorted(listed - set(members))
        raise _refuse(pack, f"its members are not the manifest's (not listed: {extra[:3]}, missing: {missing[:3]})")
    for name in (manifest.replay, manifest.scene):
        if name not in manifest.files:
            raise _refuse(pack, f"{MANIFEST} names {name!r}, which is not in the pack")
    if set(manifest.part_digests) != set(manifest.library_files):
        raise _refuse(pack, f"{MANIFEST}: part_digests must name every library file, and only those")
    if manifest.parts == "included":
        for name in manifest.library_files:
            if manifest.files.get(f"{LIBRARY_FOLDER}/{name}") != manifest.part_digests[name]:
                raise ReplayError(_("{pack}: its part {name} is not the one it was packed with (its sha256 is not "
                                    "the manifest's part digest); refused as a forgery: the parts decide every line "
                                    "of sight").format(pack=pack, name=name))
    if "/" in manifest.replay or not manifest.scene.startswith(f"{SCENE_FOLDER}/"):
        raise _refuse(pack, f"{MANIFEST}: the replay must be at the top and the scene under {SCENE_FOLDER}/")
    return manifest, upgraded


def _upgrade_v1(raw: dict) -> dict:
    """Version 1 -> 2: no part digests were recorded; the pack's own parts stand for them (none checked
    against the packer's library: `upgraded_from` says so), named-only parts have none to compare."""
    found_files, found_names = raw.get("files"), raw.get("library_files")
    files: dict = found_files if isinstance(found_files, dict) else {}
    names: list = found_names if isinstance(found_names, list) else []
    included = raw.get("parts") == "included"
    raw["part_digests"] = {name: files.get(f"{LIBRARY_FOLDER}/{name}", "") if included else "" for name in names
                           if isinstance(name, str)}
    return raw


# UPGRADES[n] turns a version-n manifest (a plain dict) into version n + 1; read_manifest applies them in order.
UPGRADES = {1: _upgrade_v1}


def library_name(manifest: PackManifest) -> str:
    """The name of a pack's own parts, 'pack-' and 12 hex digits of their digests: what --allow-library takes
    to play a pack on parts that are not the library's (one name per set of parts, whatever the pack's file
    name)."""
    from bow3d.replay.digest import canonical_json

    return "pack-" + hashlib.sha256(canonical_json(manifest.part_digests)).hexdigest()[:12]


def _library_file(roots: list[Path], name: str) -> Path | None:
    """A library path ('parts/s/3004s01.dat') under the first root that has it, matched case-insensitively
    component by component (bow3d.ldraw.library.find_child)."""
    for root in roots:
        here: Path | None = root
        for part in PurePosixPath(name).parts:
            here = find_child(here, part.lower()) if here is not None else None
        if here is not None and here.is_file():
            return here
    return None


def differing_parts(digests: dict[str, str], library_roots: Path | list[Path]) -> list[str]:
    """The library paths whose file under the library's roots is missing or has another sha256 than `digests`
    says (a digest of '' is unknown: not compared)."""
    roots = [library_roots] if isinstance(library_roots, Path) else list(library_roots)
    differ = []
    for name, sha in sorted(digests.items()):
        if not sha:
            continue
        path = _library_file(roots, name)
        try:
            same = path is not None and hashlib.sha256(path.read_bytes()).hexdigest() == sha
        except OSError:
            same = False
        if not same:
            differ.append(name)
    return differ


def _pack_sha256(pack: Path) -> str:
    digest = hashlib.sha256()
    try:
        with open(pack, "rb") as handle:
            for chunk in iter(lambda: handle.read(1 << 20), b""):
                digest.update(chunk)
    except OSError as error:
        raise ReplayError(_("{pack}: cannot read the pack ({value})").format(pack=pack, value=error.strerror or error)) from None
    return digest.hexdigest()


def _unpacked_ok(root: Path, manifest: PackManifest) -> bool:
    """An earlier unpacking is whole and unchanged (a damaged cache entry is unpacked again)."""
    for name, sha in manifest.files.items():
        path = root / name
        try:
            if path.is_symlink() or not path.is_file() or hashlib.sha256(path.read_bytes()).hexdigest() != sha:
                return False
        except OSError:
            return False
    return True


def _cache_folder() -> Path:
    from bow3d.ldraw import default_cache_dir

    return default_cache_dir() / "packs"


def _contents(pack: Path, root: Path, manifest: PackManifest, upgraded_from: int | None) -> PackContents:
    library = root / LIBRARY_FOLDER if manifest.parts == "included" else None
    return PackContents(pack, root, manifest, root / manifest.replay, root / manifest.scene, library, upgraded_from)


def open_pack(path: str | os.PathLike, cache_dir: str | os.PathLike | None = None) -> PackContents:
    """Check a pack and unpack it (once: into the cache folder, under the pack's sha256; the least recently
    opened packs leave the cache past CACHE_MAX_BYTES or CACHE_MAX_PACKS). ReplayError, one line naming the
    pack, for anything wrong with it (module docstring)."""
    pack = Path(path)
    sha = _pack_sha256(pack)
    try:
        archive = zipfile.ZipFile(pack)
    except (zipfile.BadZipFile, OSError, EOFError, NotImplementedError, ValueError) as error:  # NotImplemented: a version
        raise ReplayError(_("{pack}: not a bow3d pack (not a readable zip file: {error})")
                          .format(pack=pack, error=error)) from None
    with archive:
        members = _check_members(pack, archive)
        manifest, upgraded = read_manifest(pack, archive, members)
        base = Path(cache_dir) if cache_dir is not None else _cache_folder()
        root = base / sha[:32]
        if root.is_dir() and _unpacked_ok(root, manifest):
            _touch(root)
            return _contents(pack, root, manifest, upgraded)
        unpacked = _unpack(pack, archive, members, base, root, manifest)
    _prune(base, keep=unpacked)
    return _contents(pack, unpacked, manifest, upgraded)


def _unpack(pack: Path, archive: zipfile.ZipFile, members: dict[str, zipfile.ZipInfo], base: Path, root: Path,
            manifest: PackManifest) -> Path:
    """Write the members, one at a time and checked as they stream (never more than they say, the whole within
    MAX_PACK_BYTES, each the manifest's sha256), into a fresh folder moved into place at the end; a temporary
    folder when the cache folder cannot be written. Nothing is left of a refused pack."""
    try:
        base.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".unpacking-", dir=base))
    except OSError:
        staging = Path(tempfile.mkdtemp(prefix="bow3d-pack-"))
        root = staging
    try:
        total = 0
        for name, sha_expected in manifest.files.items():
            target = staging / name
            target.parent.mkdir(parents=True, exist_ok=True)
            total = _write_member(pack, archive, members[name], target, sha_expected, total)
        if manifest.parts == "included":
            (staging / LIBRARY_FOLDER / "parts").mkdir(parents=True, exist_ok=True)
        (staging / _SIZE_FILE).write_text(str(total))
        if staging == root:
            return root
        if root.exists():
            shutil.rmtree(root, ignore_errors=True)  # a damaged earlier unpacking
        try:
            os.rename(staging, root)
        except OSError:
            if root.is_dir() and _unpacked_ok(root, manifest):  # another process unpacked it meanwhile
                shutil.rmtree(staging, ignore_errors=True)
                return root
            return staging
        return root
    except OSError as error:
        shutil.rmtree(staging, ignore_errors=True)
        raise ReplayError(_("{pack}: cannot unpack it into {base} ({value}); set BOW3D_CACHE_DIR to a "
                            "folder you may write to").format(pack=pack, base=base, value=error.strerror or error)) from None
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _write_member(pack: Path, archive: zipfile.ZipFile, info: zipfile.ZipInfo, target: Path, sha_expected: str,
                  total: int) -> int:
    """Stream one member into `target` (a new file); the pack's running total of bytes unpacked."""
    digest = hashlib.sha256()
    written = 0
    try:
        with archive.open(info) as stream, open(target, "xb") as handle:
            for chunk in iter(lambda: stream.read(1 << 20), b""):
                written += len(chunk)
                if written > info.file_size:
                    raise _refuse(pack, f"member {info.filename!r} holds more than it says")
                if total + written > MAX_PACK_BYTES:
                    raise _over_budget(pack, info.filename, total + written)
                digest.update(chunk)
                handle.write(chunk)
    except (zipfile.BadZipFile, EOFError, ValueError, NotImplementedError, RuntimeError, zlib.error) as error:
        raise _refuse(pack, f"member {info.filename!r} cannot be unpacked ({error})") from None
    if digest.hexdigest() != sha_expected:
        raise _refuse(pack, f"member {info.filename!r} is not what the manifest says (sha256 differs)")
    return total + written


def _touch(root: Path) -> None:
    """Mark an unpacked pack as just used (the cache removes the least recently used first)."""
    with contextlib.suppress(OSError):
        os.utime(root / _SIZE_FILE)


def _cached_size(path: Path) -> int:
    """An unpacked pack's size in bytes, from its size file (written then, for one unpacked before there was one)."""
    mark = path / _SIZE_FILE
    try:
        return int(mark.read_text())
    except (OSError, ValueError):
        size = sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink())
        with contextlib.suppress(OSError):
            mark.write_text(str(size))
        return size


def _prune(base: Path, keep: Path) -> None:
    """Remove the least recently used unpacked packs (and unpackings left over an hour by a killed process) until
    the cache holds at most CACHE_MAX_PACKS packs and CACHE_MAX_BYTES bytes; `keep` (just unpacked) stays."""
    entries: list[tuple[float, int, Path]] = []
    try:
        folders = [Path(entry.path) for entry in os.scandir(base) if entry.is_dir(follow_symlinks=False)]
    except OSError:
        return
    for path in folders:
        try:
            if path.name.startswith(".unpacking-"):
                if time.time() - path.stat().st_mtime > 3600:
                    shutil.rmtree(path, ignore_errors=True)
            elif len(path.name) == 32:
                size = _cached_size(path)
                entries.append(((path / _SIZE_FILE).stat().st_mtime, size, path))
        except OSError:
            continue
    entries.sort(key=lambda e: e[0], reverse=True)   # the most recently used first
    count, size = 0, 0
    for _mtime, bytes_, path in entries:
        if path != keep and (count + 1 > CACHE_MAX_PACKS or size + bytes_ > CACHE_MAX_BYTES):
            shutil.rmtree(path, ignore_errors=True)
            continue
        count, size = count + 1, size + bytes_


def describe(contents: PackContents) -> str:
    """One line: what a pack holds."""
    m = contents.manifest
    scene_files = sum(1 for name in m.files if name.startswith(f"{SCENE_FOLDER}/"))
    parts = (f"{len(m.library_files)} library files included" if m.parts == "included"
             else f"{len(m.library_files)} library files named")
    return f"{contents.pack}: {m.replay}, {m.scene} and {scene_files - 1} files of its own, {parts}"


__all__ = ["FORMAT", "MANIFEST", "SUFFIX", "UPGRADES", "VERSION", "PackContents", "PackManifest", "describe",
           "differing_parts", "is_pack", "library_name", "open_pack"]
