"""`bow3d library install`: fetch the official LDraw library, check it, unpack it safely, use it from then on.

Layer: ldraw.

More: docs/modules/ldraw.md#install.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import tempfile
import time
import urllib.error
import urllib.request
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from bow3d.errors import LDrawError
from bow3d.i18n import _
from bow3d.ldraw.library import LibraryError, check_library_folder
from bow3d.ldraw.userlib import default_install_dir, record_installed

OFFICIAL_URL = "https://library.ldraw.org/library/updates/complete.zip"
MAX_DOWNLOAD_BYTES = 1 << 30  # complete.zip is about 100 MB
MAX_MEMBERS = 400_000  # the complete library holds about 25,000 files
MAX_MEMBER_BYTES = 64 * 1024 * 1024  # = bow3d.ldraw.budget.MAX_FILE_BYTES: nothing larger could be read
MAX_UNPACKED_BYTES = 4 << 30
MAX_DOWNLOAD_SECONDS = 3600.0  # the whole download: an hour at 30 kB/s for complete.zip
SOCKET_TIMEOUT_SECONDS = 60.0  # one read of the socket
INSTALLED_LIST = ".bow3d-installed.json"  # the files an install wrote, with their sha256
_LIST_FORMAT = "bow3d-installed-library"
_CHUNK = 1 << 20

Progress = Callable[[int, int | None], None]  # (bytes so far, total or None)


class InstallError(LDrawError):
    """The library could not be fetched, was not an LDraw library, or could not be unpacked safely."""


@dataclass(frozen=True)
class Installed:
    folder: Path
    parts: int
    source: str


def install_library(source: str | None = None, target: Path | None = None, progress: Progress | None = None,
                    opener: Callable = urllib.request.urlopen) -> Installed:
    """Fetch (or read) the library zip at `source`, unpack it to `target` (default: the user data folder)."""
    source = source or OFFICIAL_URL
    target = Path(target).expanduser().resolve() if target else default_install_dir()
    if target.exists() and not target.is_dir():
        raise InstallError(_("{target}: is a file; give --to a folder (it is created, or replaced when "
                             "it holds a library)").format(target=target))
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix=".bow3d-install-", dir=target.parent) as work:
            work_dir = Path(work)
            archive = _fetch(source, work_dir, progress, opener) if _is_url(source) else _local(source)
            unpacked = work_dir / "ldraw"
            unpack(archive, unpacked, source)
            try:
                check_library_folder(unpacked, f"unpacked from {source}")
            except LibraryError as error:
                raise InstallError(str(error)) from None
            _write_installed_list(unpacked, source)
            _swap_in(unpacked, target, work_dir)
        record_installed(target)
    except OSError as error:
        raise InstallError(_("{value}: cannot be written ({value2}); check the permissions and the "
                             "free space, or choose another folder with --to")
                           .format(value=error.filename or target, value2=error.strerror or error)) from None
    return Installed(target, count_parts(target), source)


def _is_url(source: str) -> bool:
    return source.lower().startswith(("http://", "https://"))


def _local(source: str) -> Path:
    path = Path(source).expanduser()
    if not path.is_file():
        raise InstallError(_("{source}: no such zip file; give --from a URL (https://...) or the path "
                             "of a zip of the LDraw library (complete.zip)").format(source=source))
    return path


def _fetch(url: str, work: Path, progress: Progress | None, opener: Callable) -> Path:
    """Stream `url` into a file in `work`, at most MAX_DOWNLOAD_BYTES."""
    out = work / "download.zip"
    deadline = time.monotonic() + MAX_DOWNLOAD_SECONDS
    try:
        with opener(url, timeout=SOCKET_TIMEOUT_SECONDS) as response, open(out, "xb") as handle:
            length = response.headers.get("Content-Length")
            total = int(length) if length and length.isdigit() else None
            if total is not None and total > MAX_DOWNLOAD_BYTES:
                raise InstallError(_("{url}: announces {total:,} bytes, more than an LDraw library "
                                     "({MAX_DOWNLOAD_BYTES:,}); check the URL")
                                   .format(url=url, total=total, MAX_DOWNLOAD_BYTES=MAX_DOWNLOAD_BYTES))
            done = 0
            read = getattr(response, "read1", response.read)  # what has come, not a whole chunk: the deadline is checked
            while chunk := read(_CHUNK):
                if time.monotonic() > deadline:
                    raise InstallError(_("{url}: the download did not finish within {seconds:,.0f} seconds "
                                         "({done:,} bytes came); try later, or download the zip yourself and "
                                         "use --from FILE.zip").format(url=url, seconds=MAX_DOWNLOAD_SECONDS, done=done))
                done += len(chunk)
                if done > MAX_DOWNLOAD_BYTES:
                    raise InstallError(_("{url}: sends more than {MAX_DOWNLOAD_BYTES:,} bytes; check "
                                         "the URL").format(url=url, MAX_DOWNLOAD_BYTES=MAX_DOWNLOAD_BYTES))
                handle.write(chunk)
                if progress:
                    progress(done, total)
    except urllib.error.HTTPError as error:
        raise InstallError(_("{url}: the server answered {code} {reason}; check the URL or try later, "
                             "or download the zip yourself and use --from FILE.zip")
                           .format(url=url, code=error.code, reason=error.reason)) from None
    except (urllib.error.URLError, OSError, ValueError) as error:
        reason = getattr(error, "reason", None) or error
        raise InstallError(_("{url}: cannot be downloaded ({reason}); check the connection or the URL, "
                             "or download the zip yourself and use --from FILE.zip").format(url=url, reason=reason)) from None
    return out


def _library_prefix(names: list[str], source: str) -> str:
    """The folder inside the zip that holds LDConfig.ldr and parts/: '' or 'ldraw/' (any case)."""
    for name in names:
        path = PurePosixPath(name)
        if path.name.lower() == "ldconfig.ldr" and len(path.parts) <= 2:
            prefix = "" if len(path.parts) == 1 else path.parts[0] + "/"
            if any(n.lower().startswith(prefix.lower() + "parts/") for n in names):
                return prefix
    raise InstallError(_("{source}: is no LDraw library (no LDConfig.ldr with a parts/ folder beside "
                         "it at the top of the zip or in one folder); use the official complete.zip")
                       .format(source=source))


def unpack(archive: Path, into: Path, source: str) -> None:
    """Unpack the library inside `archive` into the new folder `into` (see the module docstring)."""
    try:
        with zipfile.ZipFile(archive) as zf:
            members = zf.infolist()
            if len(members) > MAX_MEMBERS:
                raise InstallError(_("{source}: holds {value:,} files, more than an LDraw library "
                                     "({MAX_MEMBERS:,})")
                                   .format(source=source, value=len(members), MAX_MEMBERS=MAX_MEMBERS))
            names = [_safe_member_name(m, source) for m in members]
            prefix = _library_prefix([n for n in names if n], source)
            into.mkdir()
            written = 0
            for member, name in zip(members, names):
                if not name or not name.lower().startswith(prefix.lower()) or name == prefix:
                    continue
                written += _extract(zf, member, into / name[len(prefix):], into, source, written)
    except (zipfile.BadZipFile, EOFError, zlib.error, NotImplementedError, RuntimeError, ValueError) as error:
        # RuntimeError: an encrypted member; NotImplementedError: a compression or zip version Python lacks
        raise InstallError(_("{source}: is not a zip file ({error}); use the official complete.zip")
                           .format(source=source, error=error)) from None
    except OSError as error:
        raise InstallError(_("{into}: cannot be written ({value}); check the free space and "
                             "permissions, or choose another folder with --to")
                           .format(into=into, value=error.strerror or error)) from None


def _safe_member_name(member: zipfile.ZipInfo, source: str) -> str:
    """The member's name with '/' slashes; InstallError for links, special files and names that escape."""
    name = member.filename.replace("\\", "/")
    kind = stat.S_IFMT(member.external_attr >> 16)  # 0 when the zip does not say (many zippers)
    if kind and kind not in (stat.S_IFREG, stat.S_IFDIR):
        raise InstallError(_("{source}: member {filename!r} is a link or a special file; refused (an "
                             "LDraw library holds plain files only)").format(source=source, filename=member.filename))
    parts = PurePosixPath(name).parts
    if name.startswith("/") or (parts and ":" in parts[0]) or ".." in parts or "\0" in name:
        raise InstallError(_("{source}: member {filename!r} would be written outside the library "
                             "folder; refused").format(source=source, filename=member.filename))
    return "" if member.is_dir() else "/".join(p for p in parts if p not in ("", "."))


def _extract(zf: zipfile.ZipFile, member: zipfile.ZipInfo, path: Path, root: Path, source: str, so_far: int) -> int:
    """Write one member (a new file, never through a link); returns the bytes written."""
    if member.file_size > MAX_MEMBER_BYTES:
        raise InstallError(_("{source}: member {filename!r} holds {file_size:,} bytes, more than any "
                             "LDraw file may ({MAX_MEMBER_BYTES:,}); refused")
                           .format(source=source, filename=member.filename, file_size=member.file_size, MAX_MEMBER_BYTES=MAX_MEMBER_BYTES))
    path.parent.mkdir(parents=True, exist_ok=True)
    if not os.path.realpath(path).startswith(os.path.realpath(root) + os.sep):
        raise InstallError(_("{source}: member {filename!r} would be written outside the library folder")
                           .format(source=source, filename=member.filename))
    written = 0
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
    with os.fdopen(fd, "wb") as out, zf.open(member) as data:
        while chunk := data.read(_CHUNK):
            written += len(chunk)
            if written > min(member.file_size, MAX_MEMBER_BYTES) or so_far + written > MAX_UNPACKED_BYTES:
                raise InstallError(_("{source}: member {filename!r} unpacks to more than it says, or "
                                     "the library to more than {MAX_UNPACKED_BYTES:,} bytes; refused")
                                   .format(source=source, filename=member.filename, MAX_UNPACKED_BYTES=MAX_UNPACKED_BYTES))
            out.write(chunk)
    return written


def _swap_in(unpacked: Path, target: Path, work: Path) -> None:
    """Rename the unpacked library into place. An older library this install wrote (its every file as
    written) is moved aside first and removed after; a folder holding anything else is refused."""
    old = None
    if target.exists():
        if any(target.iterdir()):
            _check_replaceable(target)
            old = work / "previous"
            os.replace(target, old)
        else:
            target.rmdir()
    os.replace(unpacked, target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def _file_sha256(path: Path) -> str:
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def _write_installed_list(root: Path, source: str) -> None:
    """INSTALLED_LIST in `root`: every file unpacked there (relative, '/' slashes) and its sha256."""
    files = {}
    for folder, _dirs, names in os.walk(root):
        for name in names:
            path = Path(folder, name)
            files[path.relative_to(root).as_posix()] = _file_sha256(path)
    record = {"format": _LIST_FORMAT, "version": 1, "source": source, "files": dict(sorted(files.items()))}
    (root / INSTALLED_LIST).write_text(json.dumps(record, indent=0) + "\n", encoding="utf-8")


def _installed_files(target: Path) -> dict[str, str] | None:
    """The files an earlier install wrote into `target` (path -> sha256), None when it kept no list."""
    try:
        record = json.loads((target / INSTALLED_LIST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    files = record.get("files") if isinstance(record, dict) and record.get("format") == _LIST_FORMAT else None
    if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
        return None
    return files


def foreign_files(target: Path) -> list[str]:
    """The entries of `target` an install did not write, or changed since (relative paths, sorted); every
    file when no install list is there. Empty: the folder may be replaced, nothing of the user's is lost."""
    written = _installed_files(target) or {}
    found = []
    for folder, dirs, names in os.walk(target):
        for name in names + [d for d in dirs if Path(folder, d).is_symlink()]:
            path = Path(folder, name)
            relative = path.relative_to(target).as_posix()
            if relative == INSTALLED_LIST and written:
                continue
            try:
                same = not path.is_symlink() and path.is_file() and written.get(relative) == _file_sha256(path)
            except OSError:
                same = False
            if not same:
                found.append(relative)
    return sorted(found)


def _check_replaceable(target: Path) -> None:
    """InstallError unless `target` holds only a library an install wrote, every file as written."""
    try:
        check_library_folder(target, "--to")
    except LibraryError:
        raise InstallError(_("{target}: exists and holds something else than an LDraw library; "
                             "choose an empty or new folder with --to").format(target=target)) from None
    foreign = foreign_files(target)
    if not foreign:
        return
    named = ", ".join(foreign[:5]) + (_(" and {count:,} more").format(count=len(foreign) - 5) if len(foreign) > 5 else "")
    if _installed_files(target) is None:
        raise InstallError(_("{target}: holds an LDraw library that bow3d library install did not write (or "
                             "one written before it listed its files), which it will not replace: its files "
                             "may be yours. Choose a new or empty folder with --to, or move that folder away "
                             "yourself").format(target=target))
    raise InstallError(_("{target}: holds files bow3d library install did not write, or changed since: {named}; "
                         "nothing was replaced. Move them out of the folder, or choose a new or empty folder "
                         "with --to").format(target=target, named=named))


def count_parts(root: Path) -> int:
    """Part files (*.dat) directly in the library's parts/ folder (any case), not its subparts in parts/s/."""
    for entry in os.scandir(root):
        if entry.name.lower() == "parts" and entry.is_dir():
            return sum(1 for f in os.scandir(entry.path) if f.name.lower().endswith(".dat") and f.is_file())
    return 0
