"""The `0 !COLOUR` meta command (LDraw Colour Definition Language Extension, ldraw.org article 299).

Layer: ldraw (imports nothing of bow3d). One line, read into a `ColourDefinition`:

    0 !COLOUR name CODE x VALUE v EDGE e [ALPHA a] [LUMINANCE l]
              [ CHROME | PEARLESCENT | RUBBER | MATTE_METALLIC | METAL | MATERIAL <params> ]

`MATERIAL GLITTER VALUE v [ALPHA a] [LUMINANCE l] FRACTION f VFRACTION vf (SIZE s | MINSIZE min
MAXSIZE max)` and `MATERIAL SPECKLE ...` (the same without VFRACTION) become a `ColourMaterial`
with every parameter as data, for a renderer to draw; the tags after MATERIAL are read apart from
the colour's own, so the material's VALUE never replaces the colour's (LDConfig's glitter and
opal colours). Any other MATERIAL kind is kept by name with the parameters it has. Tags are
case-insensitive; RGB values take `#` or `0x`.
"""

from __future__ import annotations

from dataclasses import dataclass

COLOUR_CODE_LIMIT = 1 << 30  # codes in files run 0 .. 2^30 - 1; the bits above are bow3d's own flags
FINISHES = ("solid", "chrome", "pearlescent", "rubber", "matte_metallic", "metal")  # plus material kinds
_FINISH_TAGS = {"CHROME", "PEARLESCENT", "RUBBER", "MATTE_METALLIC", "METAL"}
_VALUED = {"CODE", "VALUE", "EDGE", "ALPHA", "LUMINANCE"}
_MATERIAL_VALUED = {"VALUE", "ALPHA", "LUMINANCE", "FRACTION", "VFRACTION", "SIZE", "MINSIZE", "MAXSIZE"}


@dataclass(frozen=True)
class ColourMaterial:
    """`MATERIAL <kind> ...` of a !COLOUR: flecks of `rgba` over the colour (glitter, speckle).

    fraction: share of the surface the flecks cover; vfraction (glitter): share of the volume;
    size, or min_size and max_size: fleck size in LDU (None when not given); luminance 0-255.
    """

    kind: str  # 'glitter', 'speckle', or another kind's name in lower case
    rgba: tuple[int, int, int, int]
    fraction: float = 0.0
    vfraction: float = 0.0
    size: float | None = None
    min_size: float | None = None
    max_size: float | None = None
    luminance: int = 0


@dataclass(frozen=True)
class ColourDefinition:
    """A `0 !COLOUR` meta command (LDConfig.ldr or local to a model)."""

    name: str
    code: int
    value: tuple[int, int, int]
    edge: tuple[int, int, int] | int  # an RGB value, or another colour's code
    alpha: int = 255
    finish: str = "solid"  # one of FINISHES, or the material's kind ('glitter', 'speckle')
    line: int = 0
    luminance: int = 0  # 0-255: light the colour gives off (glow in the dark)
    material: ColourMaterial | None = None


def parse_colour_meta(words: list[str], line: int = 0) -> ColourDefinition:
    """`words` of a meta line after the `0` ('!COLOUR', name, tags...) -> ColourDefinition.

    Raises ValueError (the caller writes the diagnostic) when a required tag is missing or a
    number is out of range: CODE 0 to COLOUR_CODE_LIMIT - 1, ALPHA and LUMINANCE 0 to 255.
    """
    if len(words) < 2:
        raise ValueError("no name")
    fields: dict[str, str] = {}
    finish = "solid"
    i = 2
    while i < len(words):
        key = words[i].upper()
        if key == "MATERIAL":
            material = _material(words[i + 1:])
            return _definition(words[1], fields, material.kind, line, material)
        if key in _VALUED and i + 1 < len(words):
            fields[key] = words[i + 1]
            i += 2
            continue
        if key in _FINISH_TAGS:
            finish = key.lower()
        i += 1
    return _definition(words[1], fields, finish, line, None)


def _definition(name: str, fields: dict[str, str], finish: str, line: int,
                material: ColourMaterial | None) -> ColourDefinition:
    value = parse_rgb(fields["VALUE"])
    edge_token = fields.get("EDGE", "#000000")
    edge = parse_rgb(edge_token) if edge_token.startswith(("#", "0x", "0X")) else int(edge_token)
    code = int(fields["CODE"])
    alpha, luminance = _byte(fields.get("ALPHA", "255")), _byte(fields.get("LUMINANCE", "0"))
    if not 0 <= code < COLOUR_CODE_LIMIT or (isinstance(edge, int) and not 0 <= edge < COLOUR_CODE_LIMIT):
        raise ValueError("code out of range")
    return ColourDefinition(name=name, code=code, value=value, edge=edge, alpha=alpha, finish=finish, line=line,
                            luminance=luminance, material=material)


def _material(words: list[str]) -> ColourMaterial:
    """The words after MATERIAL: its kind, then its own tags."""
    if not words:
        raise ValueError("MATERIAL without a kind")
    kind = words[0].lower()
    fields: dict[str, str] = {}
    i = 1
    while i < len(words):
        key = words[i].upper()
        if key in _MATERIAL_VALUED and i + 1 < len(words):
            fields[key] = words[i + 1]
            i += 2
        else:
            i += 1
    rgb = parse_rgb(fields["VALUE"]) if "VALUE" in fields else (255, 255, 255)
    size = {k: _size(fields[k]) if k in fields else None for k in ("SIZE", "MINSIZE", "MAXSIZE")}
    return ColourMaterial(kind=kind, rgba=(*rgb, _byte(fields.get("ALPHA", "255"))),
                          fraction=_share(fields.get("FRACTION", "0")), vfraction=_share(fields.get("VFRACTION", "0")),
                          size=size["SIZE"], min_size=size["MINSIZE"], max_size=size["MAXSIZE"],
                          luminance=_byte(fields.get("LUMINANCE", "0")))


def parse_rgb(token: str) -> tuple[int, int, int]:
    """'#RRGGBB' or '0xRRGGBB' -> (r, g, b); ValueError otherwise."""
    digits = token[1:] if token.startswith("#") else token[2:] if token[:2].lower() == "0x" else ""
    if not 1 <= len(digits) <= 8:
        raise ValueError(f"not an RGB value: {token!r}")
    value = int(digits[-6:], 16)
    return (value >> 16) & 255, (value >> 8) & 255, value & 255


def _byte(token: str) -> int:
    value = int(token)
    if not 0 <= value <= 255:
        raise ValueError("not a byte")
    return value


def _share(token: str) -> float:
    value = float(token)
    if not 0.0 <= value <= 1.0:
        raise ValueError("not a fraction from 0 to 1")
    return value


def _size(token: str) -> float:
    value = float(token)
    if not 0.0 <= value <= 1e4:
        raise ValueError("not a size in LDU")
    return value
