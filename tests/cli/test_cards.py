"""`bow3d cards SCENE -o cards.pdf|png` (issue 17): every sheet of a scene on printable A4/Letter pages."""

from __future__ import annotations

import re
import zlib
from pathlib import Path

import numpy as np
import pytest

from bow3d.cli import main
from bow3d.commands.cards import page_paths
from bow3d.view.output.pdf_pages import format_pdf
from bow3d.view.output.unit_cards import (
    CARD_MM,
    COLUMNS,
    PAPERS_MM,
    ROWS,
    card_origins,
    cards_of,
    page_size_px,
    px,
    sheet_table,
)

ROOT = Path(__file__).resolve().parents[2]
VILLAGE = ROOT / "scenes" / "village.yaml"
WESTERN = ROOT / "scenes" / "western-town.yaml"


def test_one_card_per_sheet_and_side_with_the_units_that_use_it():
    from bow3d.rulesets import load_scene

    cards = cards_of(load_scene(VILLAGE))
    assert len(cards) == 16
    rifles = [c for c in cards if c.sheet == "rifleman" and c.side == "blue"]
    assert rifles and rifles[0].ids == ("blue-rifle-1", "blue-rifle-2")
    assert {c.sheet for c in cards} >= {"jeep", "horse"}  # vehicles' sheets too (BOW §1.4.2)


@pytest.mark.parametrize("paper", list(PAPERS_MM))
def test_the_cards_fit_the_paper_with_printable_margins(paper):
    width, height = page_size_px(paper)
    origins = card_origins(paper)
    assert len(origins) == COLUMNS * ROWS
    card_w, card_h = px(CARD_MM[0]), px(CARD_MM[1])
    lefts, tops = [x for x, _ in origins], [y for _, y in origins]
    margin = px(10.0)
    assert min(lefts) >= margin and max(lefts) + card_w <= width - margin
    assert min(tops) >= margin and max(tops) + card_h <= height - margin


def test_pages_go_to_one_pdf_or_numbered_pngs():
    assert page_paths(Path("cards.pdf"), 3) == [Path("cards.pdf")]
    assert page_paths(Path("out/cards.png"), 3) == [Path("out/cards.png"), Path("out/cards-2.png"),
                                                   Path("out/cards-3.png")]


def test_a_pdf_of_picture_pages_is_well_formed():
    pages = [np.full((20, 10, 3), 200, np.uint8), np.zeros((20, 10, 3), np.uint8)]
    data = format_pdf(pages, PAPERS_MM["a4"])
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    assert b"/Count 2" in data and b"/MediaBox [0 0 595.28 841.89]" in data
    start = int(re.search(rb"startxref\n(\d+)", data).group(1))
    assert data[start:start + 4] == b"xref"
    offsets = [int(line[:10]) for line in data[start:].split(b"\n")[3:] if re.match(rb"^\d{10} 00000 n", line)]
    for number, offset in enumerate(offsets, start=1):  # every object where the table says
        assert data[offset:].startswith(b"%d 0 obj" % number)
    stream = re.search(rb"/Width 10 /Height 20.*?stream\n", data, re.S)
    assert zlib.decompress(data[stream.end():stream.end() + 100])[:3] == bytes([200, 200, 200])


def test_sheets_of_other_rulesets_are_tables_of_their_fields():
    from bow3d.rulesets import load_scene

    scene = load_scene(WESTERN)
    rows = dict(sheet_table(scene.sheet("marshal")))
    assert rows["shoot"] == "6" and rows["weapons"] == "pistol, pistol" and "quick draw" in rows["skills"]


def test_bad_output_and_missing_scene_are_one_line_exit_2(tmp_path, capsys):
    assert main(["cards", str(VILLAGE), "-o", str(tmp_path / "cards.txt")]) == 2
    assert "-o must name a .pdf or a .png" in capsys.readouterr().err
    assert main(["cards", str(tmp_path / "nope.yaml"), "-o", str(tmp_path / "c.pdf")]) == 2
    assert "no such scene file" in capsys.readouterr().err


@pytest.mark.render
def test_cards_written_as_pdf_and_png_never_overwritten(tmp_path, capsys, renderer_available):
    from panda3d.core import PNMImage

    pdf = tmp_path / "cards.pdf"
    assert main(["cards", str(VILLAGE), "-o", str(pdf)]) == 0
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and b"/Count 2" in data  # 16 cards, 8 a page
    assert "wrote 16 cards on 2 a4 pages" in capsys.readouterr().out
    assert main(["cards", str(VILLAGE), "-o", str(pdf)]) == 2 and pdf.read_bytes() == data
    assert "already exists" in capsys.readouterr().err

    (tmp_path / "c-2.png").write_bytes(b"mine")  # page 2's name is taken: nothing is written
    assert main(["cards", str(VILLAGE), "-o", str(tmp_path / "c.png"), "--paper", "letter"]) == 2
    assert not (tmp_path / "c.png").exists() and (tmp_path / "c-2.png").read_bytes() == b"mine"
    assert main(["cards", str(VILLAGE), "-o", str(tmp_path / "c.png"), "--paper", "letter", "--force"]) == 0
    page = PNMImage()
    assert page.read(str(tmp_path / "c.png"))
    assert (page.get_x_size(), page.get_y_size()) == page_size_px("letter")
    x, y = card_origins("letter")[0]
    card = np.array([[page.get_xel(x + i, y + j) for i in range(0, px(CARD_MM[0]), 6)]
                     for j in range(0, px(CARD_MM[1]) - 50, 6)])
    green = (card[..., 1] > 0.5) & (card[..., 0] < 0.5) & (card[..., 2] < 0.5)
    assert green.mean() > 0.1  # the green 6x8 plate is on the first card


def test_a_screen_page_is_1280x720_with_nine_cards_inside_it():
    from bow3d.view.output.unit_cards import card_size_px, page_size_mm

    assert page_size_px("screen") == (1280, 720)
    origins = card_origins("screen")
    card_w, card_h = card_size_px("screen")
    assert len(origins) == 9
    assert min(x for x, _ in origins) >= 20 and max(x for x, _ in origins) + card_w <= 1280 - 20
    assert min(y for _, y in origins) >= 30 and max(y for _, y in origins) + card_h <= 720 - 10  # the title above
    assert page_size_mm("screen") == pytest.approx((1280 / 90 * 25.4, 720 / 90 * 25.4))
    assert page_size_px("a4") == (px(210.0), px(297.0))  # the papers as they were


@pytest.mark.render
def test_cards_on_screen_pages_are_1280x720_pngs(tmp_path, capsys, renderer_available):
    from panda3d.core import PNMImage

    assert main(["cards", str(VILLAGE), "-o", str(tmp_path / "s.png"), "--paper", "screen"]) == 0
    assert "wrote 16 cards on 2 screen pages" in capsys.readouterr().out
    for name in ("s.png", "s-2.png"):
        page = PNMImage()
        assert page.read(str(tmp_path / name)) and (page.get_x_size(), page.get_y_size()) == (1280, 720)
