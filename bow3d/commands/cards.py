"""`bow3d cards SCENE -o cards.pdf|png`: the scene's description sheets on printable pages."""

from __future__ import annotations

import argparse
from pathlib import Path

from bow3d.errors import UserInputError
from bow3d.i18n import _, ngettext

NAME = "cards"
ORDER = 42
HELP = "print the scene's description sheets as cards (PDF or PNG, A4 or Letter)"
DESCRIPTION = """Draw every description sheet the scene's units and vehicles use, one card per sheet and
side, eight cards to a page, to cut out and lay beside the battlefield. A BOW sheet is drawn as the
rule book draws it (§1.4.1): the 6x8 plate with one coloured 1x1 plate per Ability point (white
Action budget, green Move, dark grey and black Attack/Damage and Dodge/Armor, red or yellow HP and
Treat/Repair) and a clone of the minifig in the top left corner; other rulesets' sheets are tables
of their fields. Under each card: the units that use it.

-o names a .pdf (every page in one file) or a .png (page 1; more pages go to NAME-2.png, ...).
Pages are drawn at 150 dots per inch for --paper a4 (210 x 297 mm, the default) or letter
(8.5 x 11 in); print at 100 % (actual size). --paper screen draws 1280x720 pages of nine cards
each, to show on a screen. Nothing is overwritten without --force.

examples:
  bow3d cards scenes/village.yaml -o cards.pdf
  bow3d cards scenes/village.yaml -o village-cards.png --paper letter
  bow3d cards scenes/village.yaml -o village-screen.png --paper screen
  bow3d cards scenes/western-town.yaml -o western-cards.pdf"""

PAPERS = ("a4", "letter", "screen")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("scene", help="a scene file (.yaml)")
    parser.add_argument("-o", "--output", required=True, metavar="OUT.pdf|OUT.png", help="the file to write")
    parser.add_argument("--paper", choices=PAPERS, default="a4", help="paper size (default a4), or screen: 1280x720 "
                        "pixels")
    parser.add_argument("--force", action="store_true", help="overwrite the output (and its other pages) if they exist")
    parser.add_argument("--library", metavar="DIR", help="LDraw library folder (default: $LDRAWDIR, else the "
                        "bundled starter library)")


def page_paths(out: Path, pages: int) -> list[Path]:
    """Where the pages go: the PDF alone, or OUT.png, OUT-2.png, ... one a page."""
    if out.suffix.lower() == ".pdf":
        return [out]
    return [out] + [out.with_name(f"{out.stem}-{n}{out.suffix}") for n in range(2, pages + 1)]


def run(args: argparse.Namespace) -> int:
    from bow3d.ldraw import Library
    from bow3d.paths import check_new, write_new
    from bow3d.rulesets import load_scene
    from bow3d.view.output.los_picture import write_png
    from bow3d.view.output.pdf_pages import format_pdf
    from bow3d.view.output.unit_cards import card_origins, cards_of, draw_pages, page_size_mm

    out = Path(args.output)
    if out.suffix.lower() not in (".pdf", ".png"):
        raise UserInputError(_("{out}: -o must name a .pdf or a .png file").format(out=out))
    path = Path(args.scene)
    if not path.is_file():
        raise UserInputError(_("{scene}: no such scene file").format(scene=args.scene))
    scene = load_scene(path)
    cards = cards_of(scene)
    if not cards:
        raise UserInputError(_("{scene}: no unit or vehicle on the battlefield, so no sheet to print")
                             .format(scene=args.scene))
    targets = page_paths(out, -(-len(cards) // len(card_origins(args.paper))))
    for target in targets:  # up front, before the drawing: nothing replaced without --force
        check_new(target, force=args.force)
    pages = draw_pages(scene, Library.from_env(args.library), args.paper)
    if out.suffix.lower() == ".pdf":
        write_new(out, format_pdf(pages, page_size_mm(args.paper)), force=args.force)
    else:
        for target, page in zip(targets, pages):
            write_png(page, target, force=args.force)
    names = ", ".join(str(t) for t in targets)
    print(ngettext("wrote {cards} cards on {n} {paper} page: {names}",
                   "wrote {cards} cards on {n} {paper} pages: {names}", len(pages)).format(cards=len(cards), n=len(pages), paper=args.paper, names=names))
    return 0
