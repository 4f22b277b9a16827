"""LDConfig's standard colours: the one table of LDraw colour codes, names and values bow3d knows by heart.

Layer: ldraw (data only, it imports nothing). The values are the public LDraw colour standard (the same as the
LDConfig.ldr shipped with the official library). The starter library writes its LDConfig.ldr from it
(bow3d.ldraw.starter.ldconfig) and a colour table with no LDConfig.ldr to read falls back on it
(bow3d.ldraw.colours), so a marker, a side's ring and a model are coloured alike everywhere.
"""

from __future__ import annotations

# code: (name, value, edge, extra) -- extra is '' or e.g. 'ALPHA 128', 'METAL', 'CHROME'
SOLID = {
    0: ("Black", "#1B2A34", "#808080"), 1: ("Blue", "#1E5AA8", "#333333"), 2: ("Green", "#00852B", "#333333"),
    3: ("Dark_Turquoise", "#069D9F", "#333333"), 4: ("Red", "#B40000", "#333333"),
    5: ("Dark_Pink", "#D3359D", "#333333"), 6: ("Brown", "#543324", "#1E1E1E"),
    7: ("Light_Grey", "#8A928D", "#333333"), 8: ("Dark_Grey", "#545955", "#333333"),
    9: ("Light_Blue", "#97CBD9", "#333333"), 10: ("Bright_Green", "#58AB41", "#333333"),
    11: ("Light_Turquoise", "#00AAA4", "#333333"), 12: ("Salmon", "#F06D61", "#333333"),
    13: ("Pink", "#F6A9BB", "#333333"), 14: ("Yellow", "#FAC80A", "#333333"), 15: ("White", "#F4F4F4", "#333333"),
    17: ("Light_Green", "#ADD9A8", "#333333"), 18: ("Light_Yellow", "#FFD67F", "#333333"),
    19: ("Tan", "#D7BA8C", "#333333"), 20: ("Light_Violet", "#AFBED6", "#333333"),
    22: ("Purple", "#671F81", "#333333"), 23: ("Dark_Blue_Violet", "#0E3E9A", "#333333"),
    25: ("Orange", "#D67923", "#333333"), 26: ("Magenta", "#901F76", "#333333"), 27: ("Lime", "#A5CA18", "#333333"),
    28: ("Dark_Tan", "#897D62", "#333333"), 29: ("Bright_Pink", "#FF9ECD", "#333333"),
    30: ("Medium_Lavender", "#A06EB9", "#333333"), 31: ("Lavender", "#CDA4DE", "#333333"),
    68: ("Very_Light_Orange", "#FDC383", "#333333"), 69: ("Bright_Reddish_Lilac", "#8A12A8", "#333333"),
    70: ("Reddish_Brown", "#5F3109", "#808080"), 71: ("Light_Bluish_Grey", "#969696", "#333333"),
    72: ("Dark_Bluish_Grey", "#646464", "#333333"), 73: ("Medium_Blue", "#7396C8", "#333333"),
    74: ("Medium_Green", "#7FC475", "#333333"), 77: ("Light_Pink", "#FECCCF", "#333333"),
    78: ("Light_Nougat", "#FFC995", "#333333"), 84: ("Medium_Nougat", "#AA7D55", "#333333"),
    85: ("Medium_Lilac", "#441A91", "#333333"), 86: ("Light_Brown", "#7B5D41", "#333333"),
    89: ("Blue_Violet", "#1C58A7", "#333333"), 92: ("Nougat", "#BB805A", "#333333"),
    110: ("Violet", "#26469A", "#333333"), 115: ("Medium_Lime", "#B7D425", "#333333"),
    118: ("Aqua", "#9CD6CC", "#333333"), 151: ("Very_Light_Bluish_Grey", "#C8C8C8", "#333333"),
    191: ("Bright_Light_Orange", "#FCAC00", "#333333"), 212: ("Bright_Light_Blue", "#9DC3F7", "#333333"),
    216: ("Rust", "#872B17", "#333333"), 226: ("Bright_Light_Yellow", "#FFEC6C", "#333333"),
    232: ("Sky_Blue", "#77C9D8", "#333333"), 272: ("Dark_Blue", "#19325A", "#333333"),
    288: ("Dark_Green", "#00451A", "#808080"), 308: ("Dark_Brown", "#352100", "#808080"),
    313: ("Maersk_Blue", "#ABD9FF", "#333333"), 320: ("Dark_Red", "#720012", "#333333"),
    321: ("Dark_Azure", "#469BC3", "#333333"), 322: ("Medium_Azure", "#68C3E2", "#333333"),
    323: ("Light_Aqua", "#D3F2EA", "#333333"), 326: ("Yellowish_Green", "#E2F99A", "#333333"),
    330: ("Olive_Green", "#77774E", "#333333"), 335: ("Sand_Red", "#88605E", "#333333"),
    351: ("Medium_Dark_Pink", "#F785B1", "#333333"), 366: ("Earth_Orange", "#D86D2C", "#333333"),
    373: ("Sand_Purple", "#75657D", "#333333"), 378: ("Sand_Green", "#708E7C", "#333333"),
    379: ("Sand_Blue", "#70819A", "#333333"), 484: ("Dark_Orange", "#91501C", "#333333"),
}
TRANSPARENT = {
    33: ("Trans_Dark_Blue", "#0020A0", "#000B38"), 34: ("Trans_Green", "#237841", "#174F2B"),
    35: ("Trans_Bright_Green", "#56E646", "#27AF18"), 36: ("Trans_Red", "#C91A09", "#660D05"),
    37: ("Trans_Dark_Pink", "#DF6695", "#B9275F"), 38: ("Trans_Neon_Orange", "#FF800D", "#A85100"),
    39: ("Trans_Very_Light_Blue", "#C1DFF0", "#6FB4DC"), 40: ("Trans_Brown", "#635F52", "#2A2823"),
    41: ("Trans_Medium_Blue", "#559AB7", "#326276"), 42: ("Trans_Neon_Green", "#C0FF00", "#739900"),
    43: ("Trans_Light_Blue", "#AEE9EF", "#59D1DE"), 44: ("Trans_Bright_Reddish_Lilac", "#96709F", "#5F4365"),
    45: ("Trans_Pink", "#FC97AC", "#F9345B"), 46: ("Trans_Yellow", "#F5CD2F", "#B49208"),
    47: ("Trans_Clear", "#FCFCFC", "#C9C9C9"),
}
SPECIAL = {  # finishes: metallic, pearlescent, chrome, glow
    21: ("Glow_In_Dark_Opaque", "#E0FFB0", "#B8FF4D", "ALPHA 240 LUMINANCE 15"),
    80: ("Metallic_Silver", "#767676", "#333333", "METAL"), 81: ("Metallic_Green", "#C2C06F", "#333333", "METAL"),
    82: ("Metallic_Gold", "#DBAC34", "#333333", "METAL"), 83: ("Pearl_Black", "#0A1327", "#333333", "PEARLESCENT"),
    134: ("Copper", "#764D3B", "#333333", "PEARLESCENT"),
    135: ("Pearl_Light_Grey", "#A0A0A0", "#333333", "PEARLESCENT"),
    137: ("Metallic_Blue", "#5B7590", "#333333", "PEARLESCENT"),
    142: ("Pearl_Light_Gold", "#DEAC66", "#333333", "PEARLESCENT"),
    148: ("Pearl_Dark_Grey", "#484D48", "#333333", "PEARLESCENT"),
    179: ("Pearl_Silver", "#898788", "#333333", "PEARLESCENT"),
    297: ("Pearl_Gold", "#AA7F2E", "#333333", "PEARLESCENT"),
    334: ("Chrome_Gold", "#DFC176", "#C2982E", "CHROME"), 383: ("Chrome_Silver", "#CECECE", "#9C9C9C", "CHROME"),
}
META = {16: ("Main_Colour", "#FFFF80", "#333333"), 24: ("Edge_Colour", "#7F7F7F", "#333333")}


def standard_colours() -> dict[int, tuple[str, str, str, str]]:
    """code -> (name, '#RRGGBB' value, '#RRGGBB' edge, extra), every standard colour, by code."""
    table = {code: (*entry, "") for code, entry in {**SOLID, **META}.items()}
    table.update({code: (*entry, "ALPHA 128") for code, entry in TRANSPARENT.items()})
    table.update(SPECIAL)
    return dict(sorted(table.items()))
