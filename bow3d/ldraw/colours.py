"""LDraw colours: the LDConfig.ldr table, local !COLOUR, direct and dithered colours, 16 and 24.

Layer: ldraw. Codes are int32 throughout. Inside a flattened part, 16 means "the colour
of the reference that placed me" and 24 "that colour's edge colour"; once a concrete
colour c replaces 16, 24 becomes `c | EDGE_OF` so that it still resolves to c's edge.

More: docs/modules/ldraw.md#colours.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bow3d.ldraw.colour_defs import COLOUR_CODE_LIMIT, ColourDefinition, ColourMaterial
from bow3d.ldraw.ldconfig_table import standard_colours

MAIN_COLOUR = 16
# LDConfig's codes that bow3d names (sheets, markers, figures): Black, Blue, Green, Red, Yellow, White, Dark_Bluish_Grey
BLACK, BLUE, GREEN, RED, YELLOW, WHITE, DARK_GREY = 0, 1, 2, 4, 14, 15, 72
EDGE_COLOUR = 24
EDGE_OF = COLOUR_CODE_LIMIT  # flag: "the edge colour of the code in the low bits" (0x40000000)
DIRECT_FLAG = 0x2000000  # 0x2RRGGBB: a direct opaque colour
DIRECT_TRANSPARENT = 0x3000000  # 0x3RRGGBB: a direct transparent colour
LEGACY_ALPHA = 128  # 0x3RRGGBB and half-transparent dithers: "ostensibly 50 % opaque" (LDView)
DIRECT_EDGE = (51, 51, 51, 255)  # edge colour of direct and dithered colours (LDConfig's usual dark grey)
UNKNOWN_RGBA = (255, 0, 255, 255)  # magenta: a colour nobody defined, drawn so it is seen

# Without any LDConfig.ldr, LDConfig's standard colours keep models readable (bow3d.ldraw.ldconfig_table).
def _rgb(text: str) -> tuple[int, int, int]:
    return int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16)


_FALLBACK = {code: (name, _rgb(value), _rgb(edge))
             for code, (name, value, edge, extra) in standard_colours().items() if not extra}


@dataclass(frozen=True)
class Colour:
    """One resolved LDraw colour: RGBA 0-255, its edge colour and its finish, as data a renderer reads.

    finish: 'solid', 'chrome', 'pearlescent', 'rubber', 'matte_metallic', 'metal', or the kind of
    its `material` ('glitter', 'speckle'); luminance 0-255 (glow in the dark).
    """

    code: int
    name: str
    rgba: tuple[int, int, int, int]
    edge_rgba: tuple[int, int, int, int]
    finish: str = "solid"
    luminance: int = 0
    material: ColourMaterial | None = None

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
            other = self.get(d.edge)
            edge = other.rgba if other else (0, 0, 0, 255)
        else:
            edge = (*d.edge, 255)
        self._colours[d.code] = Colour(d.code, d.name, (*d.value, d.alpha), edge, d.finish, d.luminance, d.material)

    def __contains__(self, code: int) -> bool:
        return self.get(code) is not None

    def get(self, code: int) -> Colour | None:
        """The colour of a code, a direct or dithered colour or an edge-of code; None when undefined."""
        if code < 0:
            return None
        if code in self._colours:
            return self._colours[code]
        if code & EDGE_OF:
            base = self.get(code & ~EDGE_OF)
            if base is None:
                return None
            return Colour(code, f"Edge_of_{base.name}", base.edge_rgba, base.edge_rgba)
        return legacy_colour(code)

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

    def describe_unknown(self, code: int) -> str:
        """Why `code` has no colour, in words for a diagnostic."""
        shown = f"{code} (0x{code:07X})" if code >= 0x1000000 else str(code)
        if code >= 0x8000000 or 0x1000000 <= code < DIRECT_FLAG:
            return (f"unknown colour {shown}: not a colour of LDConfig.ldr or of a !COLOUR line, and not one of "
                    "the direct or dithered forms 0x2RRGGBB, 0x3RRGGBB, 0x4RGBRGB-0x7xxxxxx")
        return f"unknown colour {shown}: neither LDConfig.ldr nor a !COLOUR line of the model defines it"


def legacy_colour(code: int) -> Colour | None:
    """A direct (0x2RRGGBB, 0x3RRGGBB) or dithered (0x4-0x7) colour; None for any other code."""
    kind = code >> 24
    if kind in (2, 3):
        rgb = ((code >> 16) & 255, (code >> 8) & 255, code & 255)
        transparent = kind == 3
        return Colour(code, f"{'Trans_' if transparent else ''}#{code & 0xFFFFFF:06X}",
                      (*rgb, LEGACY_ALPHA if transparent else 255), DIRECT_EDGE)
    if kind not in (4, 5, 6, 7):
        return None
    first, second = _rgb12((code >> 12) & 0xFFF), _rgb12(code & 0xFFF)
    if kind == 7:
        return Colour(code, "Invisible", (0, 0, 0, 0), (0, 0, 0, 0))
    if kind == 4:
        red, green, blue = ((a + b) // 2 for a, b in zip(first, second))  # the average, rounded down
        return Colour(code, f"Dither_#{red:02X}{green:02X}{blue:02X}", (red, green, blue, 255), DIRECT_EDGE)
    rgb = first if kind == 5 else second  # the other half is fully transparent
    return Colour(code, f"Trans_Dither_#{rgb[0]:02X}{rgb[1]:02X}{rgb[2]:02X}", (*rgb, LEGACY_ALPHA), DIRECT_EDGE)


def _rgb12(value: int) -> tuple[int, int, int]:
    """A 12-bit RGB (4 bits a channel) as 0-255 channels (each times 17)."""
    return ((value >> 8) & 15) * 17, ((value >> 4) & 15) * 17, (value & 15) * 17


def substitute_main_colour(codes: np.ndarray, colour: int | np.ndarray) -> np.ndarray:
    """Replace 16 by `colour` and 24 by its edge colour (vectorised; colour may be per row)."""
    colour = np.asarray(colour, dtype=np.int32)
    if colour.ndim == 0 and int(colour) == MAIN_COLOUR:
        return codes
    edge = np.where(colour == EDGE_COLOUR, EDGE_COLOUR, colour | EDGE_OF)
    edge = np.where(colour == MAIN_COLOUR, EDGE_COLOUR, edge)
    out = np.where(codes == MAIN_COLOUR, colour, codes)
    return np.where(codes == EDGE_COLOUR, edge, out).astype(np.int32)
