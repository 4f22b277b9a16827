"""LDraw colours: the LDConfig.ldr table, local !COLOUR, direct colours, 16 and 24.

Layer: ldraw. Codes are int32 throughout. Inside a flattened part, 16 means "the colour
of the reference that placed me" and 24 "that colour's edge colour"; once a concrete
colour c replaces 16, 24 becomes `c | EDGE_OF` so that it still resolves to c's edge.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bow3d.ldraw.parse import COLOUR_CODE_LIMIT, ColourDefinition

MAIN_COLOUR = 16
EDGE_COLOUR = 24
EDGE_OF = COLOUR_CODE_LIMIT  # flag: "the edge colour of the code in the low bits" (0x40000000)
DIRECT_FLAG = 0x2000000  # 0x2RRGGBB: a direct opaque colour
UNKNOWN_RGBA = (255, 0, 255, 255)  # magenta: a colour nobody defined, drawn so it is seen

# Without any LDConfig.ldr, these keep models readable (a few codes every model uses).
_FALLBACK = {
    0: ("Black", (27, 42, 52), (128, 128, 128)),
    1: ("Blue", (0, 85, 191), (51, 51, 51)),
    2: ("Green", (37, 122, 62), (51, 51, 51)),
    4: ("Red", (201, 26, 9), (51, 51, 51)),
    14: ("Yellow", (242, 205, 55), (51, 51, 51)),
    15: ("White", (255, 255, 255), (51, 51, 51)),
    71: ("Light_Bluish_Grey", (160, 165, 169), (51, 51, 51)),
    72: ("Dark_Bluish_Grey", (108, 110, 104), (51, 51, 51)),
}


@dataclass(frozen=True)
class Colour:
    """One resolved LDraw colour."""

    code: int
    name: str
    rgba: tuple[int, int, int, int]
    edge_rgba: tuple[int, int, int, int]
    finish: str = "solid"

    @property
    def is_transparent(self) -> bool:
        return self.rgba[3] < 255


class ColourTable:
    """Colour codes to RGBA; unknown codes resolve to magenta and are reported by `unknown`."""

    def __init__(self, definitions: list[ColourDefinition] | None = None):
        self._colours: dict[int, Colour] = {}
        if not definitions:
            for code, (name, rgb, edge) in _FALLBACK.items():
                self._colours[code] = Colour(code, name, (*rgb, 255), (*edge, 255))
        for definition in definitions or []:
            self.define(definition)
        self.unknown: set[int] = set()

    def define(self, d: ColourDefinition) -> None:
        """Add or replace a colour (a model's local !COLOUR overrides LDConfig)."""
        if isinstance(d.edge, int):
            other = self._colours.get(d.edge)
            edge = other.rgba if other else (0, 0, 0, 255)
        else:
            edge = (*d.edge, 255)
        self._colours[d.code] = Colour(d.code, d.name, (*d.value, d.alpha), edge, d.finish)

    def __contains__(self, code: int) -> bool:
        return self.get(code) is not None

    def get(self, code: int) -> Colour | None:
        """The colour of a code, a direct colour or an edge-of code; None when undefined."""
        if code < 0:
            return None
        if code in self._colours:
            return self._colours[code]
        if code & EDGE_OF:
            base = self.get(code & ~EDGE_OF)
            if base is None:
                return None
            return Colour(code, f"Edge_of_{base.name}", base.edge_rgba, base.edge_rgba)
        if code & 0xF000000 == DIRECT_FLAG and code < 0x3000000:
            rgb = ((code >> 16) & 255, (code >> 8) & 255, code & 255)
            return Colour(code, f"#{code & 0xFFFFFF:06X}", (*rgb, 255), (51, 51, 51, 255))
        return None

    def name(self, code: int) -> str:
        colour = self.get(code)
        return colour.name if colour else f"Unknown_Colour_{code}"

    def rgba(self, codes: np.ndarray) -> np.ndarray:
        """(N,) int32 codes -> (N, 4) uint8, one lookup per distinct code."""
        codes = np.asarray(codes, dtype=np.int64)
        unique, inverse = np.unique(codes, return_inverse=True)
        table = np.empty((unique.shape[0], 4), np.uint8)
        for i, code in enumerate(unique.tolist()):  # distinct codes only, a handful
            colour = self.get(code)
            if colour is None:
                self.unknown.add(code)
                table[i] = UNKNOWN_RGBA
            else:
                table[i] = colour.rgba
        return table[inverse.reshape(-1)]

    def codes(self) -> list[int]:
        return sorted(self._colours)


def substitute_main_colour(codes: np.ndarray, colour: int | np.ndarray) -> np.ndarray:
    """Replace 16 by `colour` and 24 by its edge colour (vectorised; colour may be per row)."""
    colour = np.asarray(colour, dtype=np.int32)
    if colour.ndim == 0 and int(colour) == MAIN_COLOUR:
        return codes
    edge = np.where(colour == EDGE_COLOUR, EDGE_COLOUR, colour | EDGE_OF)
    edge = np.where(colour == MAIN_COLOUR, EDGE_COLOUR, edge)
    out = np.where(codes == MAIN_COLOUR, colour, codes)
    return np.where(codes == EDGE_COLOUR, edge, out).astype(np.int32)
