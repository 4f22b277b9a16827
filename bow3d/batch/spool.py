"""Results streamed to disk as they arrive, read back in order: memory stays flat however many.

Layer: base. A `Spool` appends each result as one JSON line, to a private temporary file (removed
when the spool is closed or collected) or to a file the user named (bow3d.paths.open_exclusive:
never an existing file or a link, line-buffered, so Ctrl+C or a crash keeps every finished line).
Iterating it reads the lines back, in the order they were appended. `discard_if_empty` removes a
user's file no line was written to (a batch that failed before its first result).
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from bow3d.paths import open_exclusive


class Spool:
    """An append-only sequence of results on disk: `append(result)`, `len()`, iteration, `path`."""

    def __init__(self, encode: Callable[[Any], dict], decode: Callable[[dict], Any], path: str | os.PathLike | None = None,
                 *, force: bool = False) -> None:
        self.encode, self.decode = encode, decode
        if path is None:
            self._file: IO[str] = tempfile.NamedTemporaryFile(  # noqa: SIM115 (held open until close())
                "w", encoding="utf-8", prefix="bow3d-results-", suffix=".jsonl", delete=True)
            self.path = Path(self._file.name)
            self.kept = False
        else:
            self._file = open_exclusive(path, "w", force=force)
            self.path = Path(path)
            self.kept = True
        self.count = 0

    def append(self, result: Any) -> None:
        self._file.write(json.dumps(self.encode(result), separators=(",", ":")) + "\n")
        self.count += 1

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[Any]:
        if not self._file.closed:
            self._file.flush()
        with open(self.path, encoding="utf-8") as lines:
            for index, line in enumerate(lines):
                if index >= self.count:
                    return
                yield self.decode(json.loads(line))

    def finish(self) -> None:
        """Flush what was written (a user's file is closed; a private one stays readable until `close`)."""
        if self.kept:
            self._file.close()
        elif not self._file.closed:
            self._file.flush()

    def discard_if_empty(self) -> None:
        """Close, and remove the user's file when no result was written to it (a batch that failed at once):
        an empty results file would read as a batch of no games."""
        self.close()
        if self.kept and self.count == 0:
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()

    def close(self) -> None:
        if not self._file.closed:
            self._file.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # interpreter shutdown
            self.close()
