"""Output file names that never replace a user's file (imported by any layer; no I/O but a look)."""

from __future__ import annotations

from pathlib import Path


def free_path(folder: str | Path, stem: str, suffix: str) -> Path:
    """folder/stem+suffix, or stem-2, stem-3, ... when taken: an existing file is never overwritten."""
    folder = Path(folder)
    candidate, n = folder / f"{stem}{suffix}", 1
    while candidate.exists():
        n += 1
        candidate = folder / f"{stem}-{n}{suffix}"
    return candidate
