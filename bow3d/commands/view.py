"""`bow3d view FILE`: the interactive 3D viewer (a window; orbit, pan and zoom)."""

from __future__ import annotations

import argparse
from pathlib import Path

from bow3d.commands.render import _battlefield_of, parse_size
from bow3d.ldraw import Library, load_model
from bow3d.view.batches import QUALITIES

NAME = "view"
ORDER = 30
HELP = "open a 3D window on an LDraw model or a scene's battlefield"
DESCRIPTION = """Open a window on a model: left drag orbits, right drag pans, the wheel zooms.
Keys: arrows orbit, W/A/S/D pan, +/- zoom, 1-7 named views, F frames everything,
E toggles edge lines, Q cycles the quality, H hides the help, Esc quits.
Needs a display; on a machine without one, use 'bow3d render' for pictures.

examples:
  bow3d view scenes/village.ldr
  bow3d view mymodel.mpd --quality full --edges"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="an LDraw file (.ldr, .mpd, .dat) or a scene file (.yaml)")
    parser.add_argument("--size", default="1280x720", metavar="WxH", help="window size (default 1280x720)")
    parser.add_argument("--quality", default="default", choices=QUALITIES, help="level of detail")
    parser.add_argument("--edges", action="store_true", help="draw LDraw edge lines")
    parser.add_argument("--library", metavar="DIR", help="LDraw library folder (default: $LDRAWDIR, else the "
                        "bundled starter library)")
    parser.add_argument("--screenshot", metavar="PNG", help="open offscreen, save one frame to PNG and quit "
                        "(for scripts and machines without a display)")


def run(args: argparse.Namespace) -> int:
    from bow3d.view.viewer import Viewer, open_base

    size = parse_size(args.size)
    model = load_model(_battlefield_of(Path(args.file)), Library.from_env(args.library))
    base = open_base(offscreen=bool(args.screenshot), size=size, title=f"bow3d - {Path(args.file).name}")
    viewer = Viewer(base, model, args.quality, args.edges)
    if args.screenshot:
        viewer.screenshot(args.screenshot)
        print(f"wrote {args.screenshot}")
        base.destroy()
        return 0
    base.run()
    return 0
