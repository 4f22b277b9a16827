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

from bow3d.ldraw.starter import bricks, equipment, minifig, openings, plants, primitives, vehicles
from bow3d.ldraw.starter.ldconfig import format_ldconfig
from bow3d.ldraw.starter.part import Part, format_part

FAMILIES = (primitives, bricks, openings, plants, minifig, equipment, vehicles)

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


def generate(out: Path) -> list[Path]:
    """Write the starter library into `out` (created if needed); returns the files written.

    Files of an earlier generation that are no longer produced are removed from parts/ and p/,
    so the folder always equals the generator's output.
    """
    out = Path(out)
    files = library_files()
    written = []
    for rel, text in files.items():
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("ascii"))
        written.append(path)
    for sub in ("parts", "p"):
        for stale in sorted((out / sub).rglob("*.dat")) if (out / sub).is_dir() else []:
            if stale.relative_to(out).as_posix() not in files:
                stale.unlink()
    return written


__all__ = ["Part", "README", "format_part", "generate", "library_files", "starter_parts"]
