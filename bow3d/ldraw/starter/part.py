"""A starter part (closed shells plus references to stud primitives) and its LDraw text.

Layer: ldraw (generator side). Output is deterministic: fixed number formatting (at most
three decimals, no '-0'), faces and edges in construction order, no dates.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike

from bow3d.ldraw.starter.geometry import EDGE, MAIN, Shell

AUTHOR = "bow3d starter library generator"
LICENSE = "Licensed under the MIT License : part of bow3d, see its LICENSE"
IDENTITY = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)


@dataclass(frozen=True)
class Ref:
    """A type-1 line: `file` placed at `position` with the row-major 3x3 `matrix`."""

    file: str
    position: tuple[float, float, float]
    matrix: tuple[float, ...] = IDENTITY
    colour: int = MAIN


@dataclass
class Part:
    """One generated file. `folder` is 'parts' or 'p' (primitives)."""

    name: str
    description: str
    shells: list[Shell] = field(default_factory=list)
    refs: list[Ref] = field(default_factory=list)
    folder: str = "parts"

    @property
    def path(self) -> str:
        return f"{self.folder}/{self.name}"


def studs(positions, file: str = "stud.dat") -> list[Ref]:
    """Top studs (base centre at each (x, y, z), growing up along -Y)."""
    return [Ref(file, (float(x), float(y), float(z))) for x, y, z in positions]


def stud_grid(nx: int, nz: int, y: float = 0.0, cx: float = 0.0, cz: float = 0.0) -> list[Ref]:
    """nx x nz studs on a 20 LDU pitch centred on (cx, cz), bases at height y."""
    xs = cx + 20.0 * (np.arange(nx) - (nx - 1) / 2)
    zs = cz + 20.0 * (np.arange(nz) - (nz - 1) / 2)
    return studs([(x, y, z) for z in zs for x in xs])


def fmt(value: float) -> str:
    """A coordinate as LDraw text: up to 3 decimals, trailing zeros dropped, never '-0'."""
    text = f"{float(value):.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _numbers(points: ArrayLike) -> str:
    return " ".join(fmt(v) for v in np.asarray(points, float).reshape(-1))


def format_part(part: Part) -> str:
    """The LDraw text of a generated part."""
    kind = "Unofficial_Primitive" if part.folder == "p" else "Unofficial_Part"
    lines = [f"0 {part.description}", f"0 Name: {part.name.replace('/', chr(92))}", f"0 Author: {AUTHOR}",
             f"0 !LDRAW_ORG {kind}", f"0 !LICENSE {LICENSE}", "", "0 BFC CERTIFY CCW", ""]
    for shell in part.shells:
        for face in shell.faces:
            kind_no = len(face.corners)
            lines.append(f"{kind_no} {face.colour} {_numbers(face.corners)}")
        for seg in shell.outline():
            lines.append(f"2 {EDGE} {_numbers(seg)}")
    for ref in part.refs:
        lines.append(f"1 {ref.colour} {_numbers(ref.position)} {_numbers(ref.matrix)} {ref.file}")
    return "\n".join(lines) + "\n"
