"""`bow3d cards`: every description sheet of a scene on printable pages (A4 or Letter).

Layer: view. One card per sheet and side in use (the troopers of a side share their sheet, BOW 1.3
§1.4.1), in scene order, CARD_MM each, COLUMNS x ROWS to a page at DPI dots per inch. A BOW sheet
is drawn as the rule book draws it: the 6x8 plate of coloured 1x1 plates (bow3d.view.table.sheet_overlay,
printed dark on white), the unit's clone in the top left corner; other rulesets' sheets as tables of
their fields as written. Under each card: the units that use it. Words: bow3d.view.output.picture_words.
Pages are (H, W, 3) uint8 arrays; bow3d.view.output.pdf_pages writes them as a PDF. Besides the papers, a
screen page (SCREENS: 1280x720 pixels, SCREEN_COLUMNS x SCREEN_ROWS cards at SCREEN_DPI) shows the cards
on a monitor or a projector.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np

from bow3d.i18n import _
from bow3d.rules.table import sheet_table
from bow3d.rulesets import ruleset_of
from bow3d.view.output.picture_words import Label, draw_words

PAPERS_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
DPI = 150
CARD_MM = (90.0, 58.0)        # the plate and its words, a caption strip under them
COLUMNS, ROWS = 2, 4          # 186 x 250 mm of cards: over 14 mm margins on A4 and Letter
GAP_MM = 6.0
SCREENS = {"screen": (1280, 720)}  # a page the size of a 720p screen, in pixels
SCREEN_DPI = 90                    # the cards a little smaller there...
SCREEN_COLUMNS, SCREEN_ROWS = 3, 3  # ...nine to a page
CAPTION_PX = 44               # the card's bottom strip: the units that use the sheet
INK = (25, 28, 32)
CUT_LINE = (170, 170, 170)
WHITE_RGBA = (1.0, 1.0, 1.0, 1.0)


@dataclass(frozen=True)
class Card:
    """One card: a sheet as one side uses it, and the units and vehicles that do."""

    sheet: str
    side: str
    ids: tuple[str, ...]


def cards_of(scene) -> list[Card]:
    """One card per (sheet, side) used on the battlefield, in scene order (units first, then vehicles)."""
    found: dict[tuple[str, str], list[str]] = {}
    for item in [*scene.units, *scene.vehicles]:
        found.setdefault((item.sheet, item.side), []).append(item.id)
    return [Card(sheet, side, tuple(ids)) for (sheet, side), ids in found.items()]


def px(mm: float, dpi: int = DPI) -> int:
    return int(round(mm / 25.4 * dpi))


def dpi_of(paper: str) -> int:
    return SCREEN_DPI if paper in SCREENS else DPI


def page_size_px(paper: str) -> tuple[int, int]:
    if paper in SCREENS:
        return SCREENS[paper]
    width, height = PAPERS_MM[paper]
    return px(width), px(height)


def page_size_mm(paper: str) -> tuple[float, float]:
    """The page in millimetres (a PDF's page size): the paper's, or a screen's pixels at SCREEN_DPI."""
    if paper in SCREENS:
        w, h = SCREENS[paper]
        return w / SCREEN_DPI * 25.4, h / SCREEN_DPI * 25.4
    return PAPERS_MM[paper]


def card_size_px(paper: str) -> tuple[int, int]:
    return px(CARD_MM[0], dpi_of(paper)), px(CARD_MM[1], dpi_of(paper))


def card_origins(paper: str) -> list[tuple[int, int]]:
    """Top left pixel of each card slot on a page, row by row, the block of cards centred on the paper."""
    page_w, page_h = page_size_px(paper)
    (card_w, card_h), gap = card_size_px(paper), px(GAP_MM, dpi_of(paper))
    columns, rows = (SCREEN_COLUMNS, SCREEN_ROWS) if paper in SCREENS else (COLUMNS, ROWS)
    block_w, block_h = columns * card_w + (columns - 1) * gap, rows * card_h + (rows - 1) * gap
    left, top = (page_w - block_w) // 2, (page_h - block_h) // 2
    top += 8 if paper in SCREENS else 0  # room for the page's title above the cards
    return [(left + c * (card_w + gap), top + r * (card_h + gap)) for r in range(rows) for c in range(columns)]


def is_drawn(scene) -> bool:
    """Does the scene's ruleset build its sheets as studs on a plate (BOW 1.3 §1.4.1), not as words?"""
    return ruleset_of(scene).presentation().sheet_plate is not None


def draw_pages(scene, library, paper: str = "a4") -> list[np.ndarray]:
    """The pages of the scene's cards, each (H, W, 3) uint8 at DPI."""
    from bow3d.view.output.offscreen import OffscreenRenderer

    cards = cards_of(scene)
    slots = card_origins(paper)
    page_w, page_h = page_size_px(paper)
    card_w, card_h = card_size_px(paper)
    pictures = _sheet_pictures(scene, library, cards, (card_w, card_h - CAPTION_PX)) if is_drawn(scene) else {}
    pages = []
    renderer = OffscreenRenderer(page_w, page_h)
    try:
        renderer.render.hide()
        for first in range(0, len(cards), len(slots)):
            image = np.full((page_h, page_w, 3), 255, np.uint8)
            labels = [Label(_("{scene} ({ruleset}): description sheets, page {page} of {pages}").format(
                scene=scene.name or _("scene"), ruleset=scene.ruleset.name, page=first // len(slots) + 1,
                pages=-(-len(cards) // len(slots))),
                            slots[0][0], slots[0][1] - 14, 16, INK, outline=False)]
            for card, (x, y) in zip(cards[first:first + len(slots)], slots):
                if card in pictures:
                    image[y:y + card_h - CAPTION_PX, x:x + card_w] = pictures[card]
                else:
                    labels += _table_labels(scene, card, x, y, card_w)
                _cut_lines(image, x, y, card_w, card_h)
                labels += _caption(card, x, y + card_h - CAPTION_PX, card_w)
            pages.append(draw_words(renderer, image, labels))
    finally:
        renderer.close()
    return pages


def _cut_lines(image: np.ndarray, x: int, y: int, w: int, h: int) -> None:
    image[y, x:x + w] = image[y + h - 1, x:x + w] = CUT_LINE
    image[y:y + h, x] = image[y:y + h, x + w - 1] = CUT_LINE


def _caption(card: Card, x: int, y: int, width: int) -> list[Label]:
    words = f"{card.side}: {', '.join(card.ids)}"
    return [Label(words, x + 10, y + 18, 15, INK, wrap_px=width - 20, outline=False)]


def _table_labels(scene, card: Card, x: int, y: int, width: int) -> list[Label]:
    labels = [Label(f"{card.sheet}", x + 12, y + 30, 22, INK, outline=False)]
    for k, (field, value) in enumerate(sheet_table(scene.sheet(card.sheet))[:9]):
        labels.append(Label(field, x + 12, y + 58 + 21 * k, 15, (90, 90, 90), outline=False))
        labels.append(Label(value[:38], x + 150, y + 58 + 21 * k, 15, INK, outline=False))
    return labels


class _PrintedSheet:
    """The viewer's sheet overlay over a whole offscreen buffer, printed: white paper, dark words."""

    def __init__(self, renderer):
        from bow3d.view.table.sheet_overlay import SheetOverlay

        class Printed(SheetOverlay):
            LABEL_RGBA = tuple(c / 255 for c in INK) + (1.0,)

        self.overlay = Printed(SimpleNamespace(win=renderer.buffer), region=(0.0, 1.0, 0.0, 1.0))
        self.overlay.region.set_clear_color(WHITE_RGBA)


def _sheet_pictures(scene, library, cards: list[Card], size: tuple[int, int]) -> dict[Card, np.ndarray]:
    """Each BOW card's plate, rendered (size = (width, height) px), with the clone of its first unit."""
    from panda3d.core import NodePath

    from bow3d.view.graph.scene_nodes import attach_scene
    from bow3d.view.output.offscreen import OffscreenRenderer

    nodes = attach_scene(NodePath("cards"), scene, library)  # for the clones in the sheets' corners
    present = ruleset_of(scene).presentation()
    renderer = OffscreenRenderer(*size)
    pictures = {}
    try:
        printed = _PrintedSheet(renderer)
        for card in cards:
            first = card.ids[0]
            item = scene.body(first)
            printed.overlay.show(card.sheet, present.sheet_rows(scene, item.id), plate=present.sheet_plate_of(scene, item.id),
                                 clone=nodes.prototype(first), side_rgba=nodes.pieces[first].side_rgba)
            pictures[card] = renderer.frame().copy()
    finally:
        renderer.close()
    return pictures
