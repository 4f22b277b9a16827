"""The `bow3d balance` chart: each side's score with its 95 % interval, before and after the suggested
change, and each sheet's value against its cost points.

Layer: view. Drawn with numpy (rectangles and lines) and Panda3D's PNMTextMaker (its built-in font:
no graphics pipe, no window, works headless), written through bow3d.paths (never through a link; an
existing file only with `force`). Reads the report's plain mapping (bow3d.replay.balance_search
.BalanceReport.as_dict()), nothing else.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import numpy as np

from bow3d.i18n import _, decimal, percent
from bow3d.paths import new_file_name

WIDTH, HEIGHT = 1280, 720
WHITE, INK, GRID, FAIR = (255, 255, 255), (30, 30, 35), (220, 222, 226), (205, 235, 205)
PALETTE = [(40, 90, 200), (200, 45, 40), (60, 150, 70), (200, 150, 30)]
LEFT = (80, 130, 520, 540)      # x0, y0, x1, y1 of the sides' panel (pixels, y down)
RIGHT = (800, 130, 1240, 540)   # the sheets' panel (labels to its left)


def _lighter(rgb: tuple[int, int, int], amount: float = 0.55) -> tuple[int, int, int]:
    return tuple(int(c + (255 - c) * amount) for c in rgb)  # type: ignore[return-value]


class Canvas:
    """An RGB picture (numpy, y down) with rectangles, lines and words."""

    def __init__(self, width: int, height: int) -> None:
        from panda3d.core import LColor, PNMTextMaker, TextProperties

        self.pixels = np.full((height, width, 3), WHITE, np.uint8)
        self.words: list[tuple[str, int, int, int, tuple[int, int, int], str]] = []
        self._font = TextProperties.get_default_font()
        self._makers: dict[int, PNMTextMaker] = {}
        self._new_maker = PNMTextMaker
        self._colour = LColor

    def maker(self, size: int):
        """One text maker per pixel size (a maker keeps the glyphs it drew, at the size it drew them)."""
        if size not in self._makers:
            maker = self._new_maker(self._font)
            maker.set_pixel_size(size)
            self._makers[size] = maker
        return self._makers[size]

    def rect(self, x0: float, y0: float, x1: float, y1: float, rgb) -> None:
        h, w, _depth = self.pixels.shape
        xa, xb = sorted((int(round(x0)), int(round(x1))))
        ya, yb = sorted((int(round(y0)), int(round(y1))))
        self.pixels[max(ya, 0):min(yb, h), max(xa, 0):min(xb, w)] = rgb

    def hline(self, x0: float, x1: float, y: float, rgb, width: int = 1) -> None:
        self.rect(x0, y - width // 2, x1, y - width // 2 + width, rgb)

    def vline(self, x: float, y0: float, y1: float, rgb, width: int = 1) -> None:
        self.rect(x - width // 2, y0, x - width // 2 + width, y1, rgb)

    def text(self, words: str, x: float, y: float, size: int = 15, rgb=INK, align: str = "left") -> None:
        """Words with their baseline at y; align 'left', 'right' or 'center' on x."""
        self.words.append((words, int(x), int(y), size, rgb, align))

    def text_width(self, words: str, size: int = 15) -> int:
        return int(self.maker(size).calc_width(words))

    def save(self, out: str | Path, force: bool = False) -> Path:
        from panda3d.core import Filename, PNMImage, PNMTextMaker, StringStream

        h, w, _depth = self.pixels.shape
        image = PNMImage()
        if not image.read(StringStream(f"P6 {w} {h} 255\n".encode() + self.pixels.tobytes()), "chart.ppm"):
            raise RuntimeError("the chart could not be handed to Panda3D's image")
        aligns = {"left": PNMTextMaker.A_left, "right": PNMTextMaker.A_right, "center": PNMTextMaker.A_center}
        for words, x, y, size, rgb, align in self.words:
            maker = self.maker(size)
            maker.set_fg(self._colour(*(c / 255 for c in rgb), 1))
            maker.set_align(aligns[align])
            maker.generate_into(words, image, x, y)
        with new_file_name(out, force=force) as tmp:
            if not image.write(Filename.from_os_specific(str(tmp))):
                raise RuntimeError(f"{out}: Panda3D could not write the PNG")
        return Path(out)


def draw_balance_chart(report: dict[str, Any], out: str | Path, colours: dict[str, tuple[int, int, int]] | None = None,
                       *, force: bool = False) -> Path:
    """Draw the chart of a balance report (its as_dict()) to the PNG `out`; see the module docstring."""
    canvas = Canvas(WIDTH, HEIGHT)
    base, after = report["base"], report.get("confirmed")
    sides = list(base["sides"])
    colours = {side: (colours or {}).get(side, PALETTE[i % len(PALETTE)]) for i, side in enumerate(sides)}
    name = Path(str(report.get("scene", "scene"))).name
    canvas.text(_("Balance of {name}: {games} AI-against-AI games per run ({engine} engine, {workers} workers)")
                .format(name=name, games=base["games"], engine=report["engine"].get("engine", "?"),
                        workers=report["engine"].get("workers", "?")),
                WIDTH / 2, 40, 22, align="center")
    _sides_panel(canvas, base, after, sides, colours)
    _sheets_panel(canvas, base)
    lines = textwrap.wrap(report.get("suggestion", ""), 140)[:4]
    for i, line in enumerate(lines):
        canvas.text(line, 40, 630 + 22 * i, 15)
    return canvas.save(out, force=force)


def _sides_panel(canvas: Canvas, base: dict, after: dict | None, sides: list[str], colours: dict) -> None:
    x0, y0, x1, y1 = LEFT
    target = 1.0 / max(len(sides), 1)

    def y_of(share: float) -> float:
        return y1 - (y1 - y0) * share

    canvas.text(_("Each side's score (wins + half the draws)"), (x0 + x1) / 2, y0 - 42, 17, align="center")
    canvas.text(_("bars: the score; whiskers: its 95 % confidence interval"), (x0 + x1) / 2, y0 - 20, 13,
                (90, 90, 95), align="center")
    canvas.rect(x0, y_of(target + 0.05), x1, y_of(target - 0.05), FAIR)
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        canvas.hline(x0, x1, y_of(tick), GRID)
        canvas.text(percent(tick), x0 - 8, y_of(tick) + 5, 14, align="right")
    runs = [(_("as it is"), base)] + ([(_("with the suggestion"), after)] if after else [])
    group = (x1 - x0) / max(len(sides), 1)
    bar = min(70.0, group / (len(runs) + 1.5))
    for s, side in enumerate(sides):
        centre = x0 + group * (s + 0.5)
        for r, (_label, run) in enumerate(runs):
            data = run["sides"][side]
            left = centre + (r - len(runs) / 2) * bar + 4
            rgb = colours[side] if r == 0 else _lighter(colours[side])
            canvas.rect(left, y_of(data["score"]), left + bar - 8, y1, rgb)
            mid = left + (bar - 8) / 2
            low, high = data["ci95"]
            canvas.vline(mid, y_of(high), y_of(low), INK, 2)
            canvas.hline(mid - 8, mid + 8, y_of(high), INK, 2)
            canvas.hline(mid - 8, mid + 8, y_of(low), INK, 2)
            canvas.text(percent(data["score"], 1), mid, y_of(high) - 8, 14, align="center")
        points = base["sides"][side].get("cost_points")
        after_points = after["sides"][side].get("cost_points") if after else None
        cp = "" if points is None else " (" + _("{points} CP").format(points=f"{points:g}") + (
            "" if after_points in (None, points) else f" -> {after_points:g}") + ")"
        canvas.text(f"{side}{cp}", centre, y1 + 20, 15, align="center")
    canvas.hline(x0, x1, y1, INK, 2)
    canvas.rect(x0 + 300, y1 + 34, x0 + 314, y1 + 46, FAIR)  # the band's legend, below the bars and their labels
    band = _("fair: {low}-{high}").format(low=percent(target - 0.05), high=percent(target + 0.05))
    canvas.text(band, x0 + 320, y1 + 45, 13, (60, 120, 60))
    if len(runs) > 1:
        canvas.rect(x0 + 4, y1 + 34, x0 + 18, y1 + 46, (120, 120, 130))
        canvas.text(_("as it is"), x0 + 24, y1 + 45, 13)
        canvas.rect(x0 + 100, y1 + 34, x0 + 114, y1 + 46, _lighter((120, 120, 130)))
        canvas.text(_("with the suggestion applied"), x0 + 120, y1 + 45, 13)


def _sheets_panel(canvas: Canvas, base: dict) -> None:
    x0, y0, x1, y1 = RIGHT
    sheets = [s for s in base["sheets"] if s.get("value_per_cp") is not None] or base["sheets"]
    key = "value_per_cp" if any(s.get("value_per_cp") is not None for s in sheets) else "kills_per_game"
    canvas.text(_("Each sheet's value against its cost points"), (x0 + x1) / 2 - 100, y0 - 42, 17, align="center")
    canvas.text(_("bars: cost points of enemies taken out per game, per cost point of the unit"), (x0 + x1) / 2 - 100,
                y0 - 20, 13, (90, 90, 95), align="center")
    if not sheets:
        return
    top = max(max(float(s.get(key) or 0.0) for s in sheets), 1e-9)
    span = x1 - x0 - 250  # room for the numbers after the longest bar
    row = min(44.0, (y1 - y0) / len(sheets))
    for i, sheet in enumerate(sorted(sheets, key=lambda s: -(s.get(key) or 0.0))):
        y = y0 + row * i
        value = float(sheet.get(key) or 0.0)
        canvas.rect(x0, y + 6, x0 + span * value / top, y + row - 6, (110, 110, 125))
        cost = ", " + _("{points} CP").format(points=f"{sheet['cost']:g}") if sheet.get("cost") is not None else ""
        canvas.text(f"{sheet['sheet']} (x{sheet['units']}{cost})", x0 - 10, y + row / 2 + 5, 14, align="right")
        canvas.text(_("{value}  ({kills} kills, survives {survival})").format(
            value=decimal(value, 2), kills=decimal(sheet["kills_per_game"], 2), survival=percent(sheet["survival"])),
                    x0 + span * value / top + 8, y + row / 2 + 5, 13)
    canvas.vline(x0, y0, y0 + row * len(sheets), INK, 2)
