"""Texture maps of LDraw's !TEXMAP extension: the three projections, as texture coordinates.

Layer: ldraw (numpy only). Points are in the LDraw frame of the file whose `0 !TEXMAP START`
or `NEXT` line gave the projection (LDU); a texture coordinate (u, v) is in image terms:
u = 0 at the image's left edge and 1 at its right, v = 0 at its top row and 1 at its bottom
(a renderer whose v runs upwards draws 1 - v). Coordinates outside 0..1 lie off the image:
the surface keeps its own colour there.

More: docs/modules/ldraw.md#texmap.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

METHODS = {"PLANAR": 0, "CYLINDRICAL": 1, "SPHERICAL": 2}  # method -> angles it takes after its 9 numbers
_TINY = 1e-9  # LDU: a projection whose defining points coincide projects nothing


@dataclass(frozen=True)
class TexMap:
    """One `0 !TEXMAP START|NEXT <method> <9 numbers> [angles] <image> [GLOSSMAP <image>]`."""

    method: str  # "PLANAR", "CYLINDRICAL" or "SPHERICAL"
    points: tuple[float, ...]  # 9 numbers: p1, p2, p3 (LDraw frame of the file that named it)
    angles: tuple[float, ...]  # degrees: () planar, (a,) cylindrical, (a, b) spherical
    image: str  # the PNG's name as written ('3622p06.png')
    glossmap: str = ""

    def is_degenerate(self) -> bool:
        """True when the points or angles define no projection (coincident points, a zero angle)."""
        p1, p2, p3 = np.asarray(self.points, np.float64).reshape(3, 3)
        if any(abs(a) < _TINY for a in self.angles):
            return True
        if self.method == "PLANAR":
            return bool(np.linalg.norm(p2 - p1) < _TINY or np.linalg.norm(p3 - p1) < _TINY)
        return bool(np.linalg.norm(np.cross(p2 - p1, p3 - p1)) < _TINY if self.method == "SPHERICAL"
                    else np.linalg.norm(np.cross(p3 - p2, p1 - p2)) < _TINY)


def parse_texmap(words: list[str]) -> TexMap:
    """A TexMap from the words after START or NEXT ('PLANAR', 9 numbers, angles, image[, 'GLOSSMAP', image]).

    Raises ValueError saying what is wrong."""
    if not words or words[0].upper() not in METHODS:
        named = words[0] if words else "(none)"
        raise ValueError(f"unknown projection {named!r}: use PLANAR, CYLINDRICAL or SPHERICAL")
    method = words[0].upper()
    count = 9 + METHODS[method]
    numbers = [float(w) for w in words[1:1 + count]]  # ValueError on a word that is not a number
    if len(numbers) != count or len(words) < count + 2:
        raise ValueError(f"{method} needs {count} numbers and an image name")
    if not np.isfinite(numbers).all():
        raise ValueError(f"{method} has a number that is not finite")
    rest = words[1 + count:]
    glossmap = ""
    if len(rest) >= 3 and rest[-2].upper() == "GLOSSMAP":
        glossmap, rest = rest[-1], rest[:-2]
    return TexMap(method, tuple(numbers[:9]), tuple(numbers[9:]), " ".join(rest), glossmap)


class TexmapBlocks:
    """The !TEXMAP state of a file being read: START pushes a projection (a stack), NEXT holds one for
    the next line only, FALLBACK..END is geometry for renderers without textures (not read here)."""

    def __init__(self) -> None:
        self.stack: list[int] = []  # indices into the file's texmaps, -1 for a bad projection
        self.next: int | None = None  # a NEXT waiting for its line (-1: its projection was bad)
        self.in_fallback = False

    def command(self, words: list[str], texmaps: list[TexMap]) -> list[str]:
        """Apply `0 !TEXMAP <words>`; a good projection is appended to `texmaps`. Returns what to report."""
        command = words[0].upper() if words else ""
        if command in ("START", "NEXT"):
            said, texmap = [], None
            try:
                texmap = parse_texmap(words[1:])
            except ValueError as error:
                said.append(f"!TEXMAP {command}: {error}; the geometry it covers is drawn untextured")
            if texmap is not None and texmap.is_degenerate():
                said.append(f"!TEXMAP {command}: the points or angles of the {texmap.method} projection define no "
                            "projection; the geometry it covers is drawn untextured")
                texmap = None
            if texmap is not None and texmap.glossmap:
                said.append(f"!TEXMAP GLOSSMAP {texmap.glossmap} not drawn (the colour image is)")
            index = -1
            if texmap is not None:
                index = len(texmaps)
                texmaps.append(texmap)
            if command == "START":
                self.stack.append(index)
                self.in_fallback = False
            else:
                self.next = index
            return said
        if command in ("FALLBACK", "END") and not self.stack:
            return [f"!TEXMAP {command} without a START; ignored"]
        if command == "FALLBACK":
            self.in_fallback = True
        elif command == "END":
            self.stack.pop()
            self.in_fallback = False
        else:
            return [f"!TEXMAP {command or '(nothing)'}: use START, NEXT, FALLBACK or END; ignored"]
        return []

    def takes_textured_line(self) -> bool:
        """A `0 !:` line is geometry here: inside START..FALLBACK, or the line a NEXT names."""
        return self.next is not None or (bool(self.stack) and not self.in_fallback)

    def take(self) -> int:
        """The projection of the geometry line being read (-1: none); a NEXT's is used by one line only."""
        if self.next is not None:
            index, self.next = self.next, None
            return index
        return self.stack[-1] if self.stack and not self.in_fallback else -1


def texture_coords(texmap: TexMap, points: np.ndarray) -> np.ndarray:
    """(N, 2) float64 image coordinates (u right, v down, 0..1 over the image) of (N, 3) LDraw points."""
    points = np.asarray(points, np.float64).reshape(-1, 3)
    p1, p2, p3 = np.asarray(texmap.points, np.float64).reshape(3, 3)
    if texmap.method == "PLANAR":
        across, down = p2 - p1, p3 - p1
        rel = points - p1
        return np.stack([rel @ across / (across @ across), rel @ down / (down @ down)], axis=1)
    if texmap.method == "CYLINDRICAL":
        axis = p1 - p2  # top to bottom: v grows down the image as down the cylinder
        length = np.linalg.norm(axis)
        unit = axis / length
        front = (p3 - p2) - ((p3 - p2) @ unit) * unit  # p3's direction, square to the axis
        front /= np.linalg.norm(front)
        side = np.cross(front, unit)
        rel = points - p2
        height = rel @ unit
        angle = np.degrees(np.arctan2(rel @ side, rel @ front))
        return np.stack([0.5 + angle / texmap.angles[0], height / length], axis=1)
    front = (p2 - p1) / np.linalg.norm(p2 - p1)
    north = np.cross(front, p3 - p1)
    north /= np.linalg.norm(north)
    side = np.cross(north, front)
    rel = points - p1
    radius = np.maximum(np.linalg.norm(rel, axis=1), _TINY)
    longitude = np.degrees(np.arctan2(rel @ side, rel @ front))
    latitude = np.degrees(np.arcsin(np.clip(rel @ north / radius, -1.0, 1.0)))
    return np.stack([0.5 + longitude / texmap.angles[0], 0.5 - latitude / texmap.angles[1]], axis=1)


def triangle_coords(texmap: TexMap, corners: np.ndarray) -> np.ndarray:
    """(T, 3, 2) float32 image coordinates of triangles' corners (T, 3, 3).

    Round projections wrap: a triangle across the seam behind the image (its corners' u more
    than half a turn apart) has its low corners moved one turn up, so it is not drawn with
    the whole image squeezed into it backwards."""
    corners = np.asarray(corners, np.float64).reshape(-1, 3, 3)
    uv = texture_coords(texmap, corners.reshape(-1, 3)).reshape(-1, 3, 2)
    if texmap.method != "PLANAR" and uv.shape[0]:
        turn = 360.0 / texmap.angles[0]  # one full turn in u
        u = uv[:, :, 0]
        across = (u.max(axis=1) - u.min(axis=1)) > turn / 2
        low = across[:, None] & (u < u.mean(axis=1, keepdims=True))
        u[low] += turn
    return uv.astype(np.float32)
