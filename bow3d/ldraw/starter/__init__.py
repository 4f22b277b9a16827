"""The starter LDraw library: simplified, dimensionally faithful parts written by code.

Layer: ldraw (generator side; numpy only). `python -m bow3d.ldraw.starter` writes the
repository's `ldraw_library/` (the fallback `Library.from_env()` uses when no LDRAWDIR is set).
Parts carry official part numbers and file names, share the official parts' origins and
orientations (bounding boxes within 1 LDU), are closed solids (BFC CERTIFY CCW) with studs as
`p/stud.dat` primitives, and keep real openings in windows, doors and fences.

    from bow3d.ldraw.starter import generate, starter_parts
    written = generate(Path("ldraw_library"))      # every file, deterministic bytes
"""

from __future__ import annotations

from pathlib import Path

from bow3d.errors import UserInputError
from bow3d.i18n import _
from bow3d.ldraw.starter import bricks, equipment, minifig, openings, plants, primitives, vehicles, western
from bow3d.ldraw.starter.ldconfig import format_ldconfig
from bow3d.ldraw.starter.part import AUTHOR, Part, format_part

FAMILIES = (primitives, bricks, openings, plants, minifig, equipment, vehicles, western)

README = """bow3d starter LDraw library
===========================

What it is: a small LDraw part library written by bow3d's own generator, so that bow3d runs
its main job on a fresh machine with nothing downloaded. Parts carry the official LDraw part
numbers and file names (a model built for the official library loads with it) but each has
its own simplified geometry: closed solids (BFC CERTIFY CCW) whose bounding boxes match the
official parts within 1 LDU, in the same origin and orientation, studs as the p/stud.dat
primitive, and real openings in windows, doors and fences (sight passes through them).
Minifigure parts keep the official offsets: a standing minifigure is 96 LDU from the soles
to the top of the head, its eyes about 86 LDU above the soles.

It is generated: do not edit these files by hand. Regenerate (byte for byte identical) with

    python -m bow3d.ldraw.starter            # writes ldraw_library/ in the repository
    python -m bow3d.ldraw.starter --out DIR  # elsewhere

An official LDraw library takes precedence: set LDRAWDIR=/path/to/ldraw (the folder with
LDConfig.ldr, parts/ and p/), or pass --library DIR to a command, and bow3d uses it instead.

Contents: LDConfig.ldr (standard colour codes, names and values), parts/ ({count} parts),
p/ (primitives). Licence: MIT, like bow3d. Part numbers and colour codes are those of LDraw.org.
"""


def starter_parts() -> list[Part]:
    """Every part and primitive of the starter library, sorted by path."""
    found: list[Part] = [part for family in FAMILIES for part in family.parts()]
    paths = [p.path for p in found]
    duplicates = sorted({p for p in paths if paths.count(p) > 1})
    if duplicates:
        raise ValueError(f"starter parts defined twice: {duplicates}")
    return sorted(found, key=lambda p: p.path)


def library_files() -> dict[str, str]:
    """Relative path -> text of every file of the starter library (LDConfig, README, parts)."""
    parts = starter_parts()
    files = {p.path: format_part(p) for p in parts}
    files["LDConfig.ldr"] = format_ldconfig()
    files["README.txt"] = README.replace("{count}", str(sum(p.folder == "parts" for p in parts)))
    return dict(sorted(files.items()))


def is_generated(path: Path) -> bool:
    """Whether a file was written by this generator (its header names the generator)."""
    try:
        with path.open("rb") as handle:
            head = handle.read(400).decode("ascii", "replace")
    except OSError:
        return False
    return f"0 Author: {AUTHOR}" in head or head.startswith(README.splitlines()[0])


def generate(out: Path) -> list[Path]:
    """Write the starter library into `out` (created if needed); returns the files written.

    `out` must be empty or hold an earlier starter library: a folder with any file the
    generator did not write (an official library, say) is refused with `UserInputError` and
    left untouched. Generated files no longer produced are removed, so the folder always
    equals the generator's output.
    """
    out = Path(out)
    existing = sorted(p for p in out.rglob("*") if p.is_file()) if out.is_dir() else []
    foreign = [p for p in existing if not is_generated(p)]
    if foreign:
        raise UserInputError(_("{out}: holds files the starter library generator did not write "
                               "({value}, {value2} in all); choose an empty folder or an earlier "
                               "starter library")
                             .format(out=out, value=foreign[0].relative_to(out).as_posix(), value2=len(foreign)))
    files = library_files()
    written = []
    for rel, text in files.items():
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("ascii"))
        written.append(path)
    for stale in existing:
        if stale.relative_to(out).as_posix() not in files:
            stale.unlink()
    return written


__all__ = ["Part", "README", "format_part", "generate", "is_generated", "library_files", "starter_parts"]
