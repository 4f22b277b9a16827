"""Titles over the film as plain data: where each role's title sits on the screen, how big it is, and a side
colour made readable on the dark card (no Panda3D; bow3d.view.film.title_overlay draws them).

Layer: view (pure Python). 2D coordinates: x from -aspect to +aspect, z from -1 (bottom) to +1 (top).
What each title says and when it shows is the shot's (bow3d.view.film.shots, frames.Title).
"""

from __future__ import annotations

BOLD_FONTS = ("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
              "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf", "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf",
              "/Library/Fonts/Arial Bold.ttf", "C:/Windows/Fonts/arialbd.ttf")
# role -> (scale, x (fraction of the aspect, -1 left .. 1 right), z, alignment)
LAYOUT = {"round": (0.13, 0.0, 0.55, "center"), "caption": (0.065, 0.0, 0.86, "center"),
          "unit": (0.07, -0.96, -0.70, "left"), "result": (0.06, -0.96, -0.86, "left")}
ROLL_CAPTION_SCALE = 0.045


def readable(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    """A side colour lightened enough to read on the dark card (dark blue becomes a brighter blue)."""
    r, g, b = rgb
    light = 0.299 * r + 0.587 * g + 0.114 * b
    if light >= 0.45:
        return rgb
    mix = (0.45 - light) / 0.55 + 0.2
    return min(1.0, r + (1.0 - r) * mix), min(1.0, g + (1.0 - g) * mix), min(1.0, b + (1.0 - b) * mix)
