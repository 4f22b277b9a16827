"""LDConfig.ldr of the starter library: the standard LDraw colour codes, names and values.

Layer: ldraw (generator side). The codes, names and RGB values are the public LDraw colour
standard (the same values as the LDConfig.ldr shipped with the official library), written
here from a table so that the starter library and an official one colour a model alike.
"""

from __future__ import annotations

from bow3d.ldraw.ldconfig_table import standard_colours


def colour_table() -> dict[int, tuple[str, str, str, str]]:
    """code -> (name, value, edge, extra), every colour of the starter LDConfig (bow3d.ldraw.ldconfig_table)."""
    return standard_colours()


def format_ldconfig() -> str:
    """The text of LDConfig.ldr."""
    lines = ["0 LDraw.org Configuration File (bow3d starter library)", "0 Name: LDConfig.ldr",
             "0 Author: bow3d starter library generator", "0 !LDRAW_ORG Unofficial_Configuration",
             "0 // Standard LDraw colour codes, names and values. Written by python -m bow3d.ldraw.starter", ""]
    for code, (name, value, edge, extra) in colour_table().items():
        line = f"0 !COLOUR {name:<28} CODE {code:>4} VALUE {value} EDGE {edge}"
        lines.append(line + (f" {extra}" if extra else ""))
    return "\n".join(lines) + "\n"
