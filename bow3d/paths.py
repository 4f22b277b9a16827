"""Output files that never replace, or write through, what the user has (any layer may import it).

Layer: bottom (imports only bow3d.errors). Every file bow3d writes goes the same way:
  1. the target is checked: a symbolic link (even a dangling one) or anything but a regular
     file is refused always; an existing file is refused unless `force`;
  2. the data goes to a temporary file created exclusively in the target's own folder
     (random name, O_EXCL: never an existing file, never through a link), flushed to disk;
  3. the temporary file is renamed into place (atomic): readers see the old file or the new
     one, never half of one. Without `force` the rename cannot replace a file that appeared
     meanwhile (a hard link is made, which fails on an existing name).
A failure at any step (full disk, no permission) raises one `UserInputError` naming the path,
and the temporary file is removed.

More: docs/modules/base.md#paths.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from bow3d.errors import UserInputError
from bow3d.i18n import _


def free_path(folder: str | Path, stem: str, suffix: str) -> Path:
    """folder/stem+suffix, or stem-2, stem-3, ... when taken: an existing file (or link) is never overwritten."""
    folder = Path(folder)
    candidate, n = folder / f"{stem}{suffix}", 1
    while os.path.lexists(candidate):
        n += 1
        candidate = folder / f"{stem}-{n}{suffix}"
    return candidate


def make_folder(path: str | os.PathLike[str], option: str) -> Path:
    """The folder at `path` (a command's `option`, e.g. '--replays'), made with its parents when missing.
    Raises UserInputError naming the option when a file stands there (or on the way) or the folder
    cannot be made (no permission, a read-only disk)."""
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise UserInputError(_("{folder}: exists and is not a folder; choose another {option}").format(
            folder=folder, option=option))
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserInputError(_("{folder}: the folder cannot be made ({value}); choose another {option}").format(
            folder=folder, value=_reason(error), option=option)) from None
    return folder


def check_new(path: str | os.PathLike[str], *, force: bool = False) -> Path:
    """The path, if bow3d may write it: its folder exists, it is no link and no special file, and it
    does not exist yet (or `force`). Raises UserInputError saying what to do otherwise."""
    out = Path(path)
    folder = out.parent
    try:
        info = os.lstat(out)
    except FileNotFoundError:
        info = None
    except OSError as error:
        raise UserInputError(_("{out}: cannot be written ({value})").format(out=out, value=_reason(error))) from None
    if info is not None:
        if stat.S_ISLNK(info.st_mode):
            raise UserInputError(_("{out}: is a symbolic link; bow3d never writes through links: "
                                   "remove the link or choose another name").format(out=out))
        if not stat.S_ISREG(info.st_mode):
            kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            raise UserInputError(_("{out}: is {kind}; choose a file name").format(out=out, kind=kind))
        if not force:
            raise UserInputError(_("{out}: already exists; choose another name or pass --force to "
                                   "replace it").format(out=out))
    if not folder.is_dir():
        raise UserInputError(_("{out}: the folder {folder} does not exist; create it or choose another "
                               "place").format(out=out, folder=folder))
    return out


def write_new(path: str | os.PathLike[str], data: bytes | str, *, force: bool = False,
              encoding: str = "utf-8") -> Path:
    """Write `data` (text is encoded with `encoding`) to `path` safely (see the module doc); returns the path."""
    payload = data.encode(encoding) if isinstance(data, str) else bytes(data)
    with open_new(path, "wb", force=force) as handle:
        handle.write(payload)
    return Path(path)


@contextlib.contextmanager
def open_new(path: str | os.PathLike[str], mode: str = "w", *, force: bool = False,
             encoding: str = "utf-8") -> Iterator[IO]:
    """A file object on a temporary file beside `path`, renamed into place when the block ends
    without an exception, removed when it raises. `mode` is "w" (text, `encoding`) or "wb"."""
    if mode not in ("w", "wb"):
        raise ValueError(f"open_new: mode must be 'w' or 'wb', not {mode!r}")
    with new_file_name(path, force=force) as tmp:
        try:
            with open(tmp, "r+b") if mode == "wb" else open(tmp, "r+", encoding=encoding) as handle:
                yield handle
                handle.flush()
        except OSError as error:
            raise UserInputError(_("{path}: cannot be written ({value})").format(path=path, value=_reason(error))) from None


@contextlib.contextmanager
def new_file_name(path: str | os.PathLike[str], *, force: bool = False) -> Iterator[Path]:
    """An empty temporary file in the target's folder, with the target's suffix (Panda3D picks the
    image format from it), for writers that take a file name; renamed into place when the block
    ends without an exception, removed otherwise."""
    out = check_new(path, force=force)
    try:
        fd, name = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.", suffix=f".tmp{out.suffix}")
    except OSError as error:
        raise UserInputError(_("{out}: cannot be written ({value})").format(out=out, value=_reason(error))) from None
    with contextlib.suppress(OSError, AttributeError):  # no fchmod (Windows): the default stays
        os.fchmod(fd, 0o666 & ~_umask())  # mkstemp makes it 0600; the user's file gets what open() would give
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        _sync(tmp, out)
        _commit(tmp, out, force)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def open_exclusive(path: str | os.PathLike[str], mode: str = "w", *, force: bool = False,
                   encoding: str = "utf-8") -> IO:
    """A brand-new file at `path`, opened for writing in place (O_EXCL, O_NOFOLLOW: never an existing
    file, never through a link), for writers whose partial output must survive a crash. With `force`
    an existing regular file is removed first. `mode` "w" (text, `encoding`, line-buffered) or "wb"."""
    if mode not in ("w", "wb"):
        raise ValueError(f"open_exclusive: mode must be 'w' or 'wb', not {mode!r}")
    out = check_new(path, force=force)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        if force and os.path.lexists(out):
            os.unlink(out)  # a regular file (check_new refused anything else)
        fd = os.open(out, flags, 0o666)
    except FileExistsError:
        raise UserInputError(_("{out}: already exists; choose another name or pass --force to replace "
                               "it").format(out=out)) from None
    except OSError as error:
        raise UserInputError(_("{out}: cannot be written ({value})").format(out=out, value=_reason(error))) from None
    if mode == "wb":
        return os.fdopen(fd, "wb")
    return os.fdopen(fd, "w", encoding=encoding, buffering=1)


def _umask() -> int:
    """The process's umask (read without changing it where /proc says it; else set and put back)."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _sync(tmp: Path, out: Path) -> None:
    """Flush what a writer wrote by name to the disk before the rename (a full disk shows here)."""
    try:
        fd = os.open(tmp, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as error:
        raise UserInputError(_("{out}: cannot be written ({value})").format(out=out, value=_reason(error))) from None


def _commit(tmp: Path, out: Path, force: bool) -> None:
    """Rename tmp to out: replacing a regular file only with `force`, never a link or anything else."""
    try:
        check_new(out, force=force)  # again: the target may have changed while the data was written
        if force:
            os.replace(tmp, out)
            return
        try:
            os.link(tmp, out)  # fails on an existing name: nothing that appeared meanwhile is replaced
        except FileExistsError:
            raise UserInputError(_("{out}: already exists; choose another name or pass --force to "
                                   "replace it").format(out=out)) from None
        except OSError as error:
            if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK,
                                   errno.ENOSYS):
                raise
            os.replace(tmp, out)  # a file system without hard links: checked just above
            return
        os.unlink(tmp)
    except OSError as error:
        raise UserInputError(_("{out}: cannot be written ({value})").format(out=out, value=_reason(error))) from None


def _reason(error: OSError) -> str:
    if error.errno == errno.ENOSPC:
        return _("the disk is full; free some space and run again")
    if error.errno in (errno.EACCES, errno.EPERM):
        return _("permission denied; choose a folder you may write to")
    if error.errno == errno.EROFS:
        return _("a read-only file system; choose a folder you may write to")
    if error.errno == errno.ENOTDIR:
        return _("a file stands where a folder is needed on the way")
    if error.errno == errno.EEXIST:
        return _("something that is not a folder stands there (a broken link?)")
    if error.errno == errno.ENOENT:
        return _("a folder on the way does not exist")
    return error.strerror or str(error)   # the system's own words (English) for the rarer failures
