"""Reading files the way every hostile input expects: regular files only, in allowed folders, capped.

Layer: ldraw (imports only bow3d.errors). Nothing bow3d reads for a model may be a named pipe
(reading it would hang), a device (`/dev/zero` never ends) or a link leading out of the folders
the reader was given (`passwd.dat -> /etc/passwd` would show that file's lines in diagnostics).
So a file is opened without blocking and checked on the open descriptor (`fstat`, no race
with a swap after the check), and never more than a cap is read from it.

    real = contained(path, folders)          # the resolved path, or UnsafeReference
    data = read_capped(path, cap, what)      # bytes of a regular file, at most `cap`
    with open_capped(path, cap, what) as f:  # a binary stream that cannot pass `cap`
"""

from __future__ import annotations

import io
import os
import stat
from pathlib import Path

from bow3d.errors import LDrawError
from bow3d.i18n import _

_CHUNK = 1 << 20


class UnsafeReference(ValueError):
    """A reference that would leave the library and model folders, or names no plain file."""


def file_kind(mode: int) -> str:
    """'a named pipe', 'a device', ... for a diagnostic about something that is not a plain file."""
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "not a plain file"


def is_inside(real: str, folders: tuple[str, ...]) -> bool:
    """True when the resolved path `real` is one of `folders` (resolved) or lies below one."""
    return any(real == f or real.startswith(f if f.endswith(os.sep) else f + os.sep) for f in folders)


def contained(path: str | os.PathLike[str], folders: tuple[str, ...], name: str) -> Path:
    """`path` with every link resolved, checked to lie inside `folders` and to be a regular file.

    `name` is the reference as written, for the message. Raises UnsafeReference.
    """
    real = os.path.realpath(path)
    if not is_inside(real, folders):
        raise UnsafeReference(_("'{name}' leads outside the library and the model's folder (to "
                                "{real}); copy the file next to the model instead of linking to it")
                              .format(name=name, real=real))
    try:
        mode = os.stat(real).st_mode
    except OSError as error:
        raise UnsafeReference(_("'{name}' cannot be read ({value})").format(name=name, value=error.strerror or error)) from None
    if not stat.S_ISREG(mode):
        raise UnsafeReference(_("'{name}' is {value}, not a file; only plain files are read")
                              .format(name=name, value=file_kind(mode)))
    return Path(real)


def _open_regular(path: str | os.PathLike[str], what: str) -> tuple[int, os.stat_result]:
    """(descriptor, its fstat) of a regular file opened without blocking; LDrawError for anything else."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise LDrawError(_("{path}: {what} cannot be read ({value})")
                         .format(path=path, what=what, value=error.strerror or error)) from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise LDrawError(_("{path}: {what} is {value}, not a file; give a plain LDraw file")
                         .format(path=path, what=what, value=file_kind(info.st_mode)))
    return fd, info


def _too_big(path, what: str, cap: int) -> LDrawError:
    return LDrawError(f"{path}: {what} is larger than {cap // 2**20} MiB, more than any real LDraw file; "
                      "it is not read")


class _Capped(io.RawIOBase):
    """A raw reader of a descriptor that raises LDrawError past `cap` bytes (a file that grows)."""

    def __init__(self, fd: int, cap: int, path, what: str):
        self.fd, self.left, self.cap, self.path, self.what = fd, cap, cap, path, what

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        data = os.read(self.fd, min(len(buffer), self.left + 1))
        if len(data) > self.left:
            raise _too_big(self.path, self.what, self.cap)
        self.left -= len(data)
        buffer[:len(data)] = data
        return len(data)

    def close(self) -> None:
        if not self.closed:
            os.close(self.fd)
        super().close()


def open_capped(path: str | os.PathLike[str], cap: int, what: str = "the file") -> tuple[io.BufferedReader,
                                                                                        os.stat_result]:
    """(binary stream, fstat) of a regular file; the stream raises LDrawError past `cap` bytes."""
    fd, info = _open_regular(path, what)
    if info.st_size > cap:
        os.close(fd)
        raise _too_big(path, what, cap)
    return io.BufferedReader(_Capped(fd, cap, path, what), _CHUNK), info


def read_capped(path: str | os.PathLike[str], cap: int, what: str = "the file") -> bytes:
    """All bytes of a regular file of at most `cap` bytes; LDrawError otherwise (nothing hangs)."""
    stream, _unused = open_capped(path, cap, what)
    with stream:
        return stream.read()
