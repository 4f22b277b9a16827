"""`bow3d render FILE -o out.png`: an offscreen still of an LDraw model or a scene's battlefield."""

from __future__ import annotations

import argparse
from pathlib import Path

from bow3d.errors import UserInputError
from bow3d.ldraw import Library, load_model
from bow3d.view.batches import QUALITIES
from bow3d.view.offscreen import VIEWS

NAME = "render"
ORDER = 20
HELP = "render an LDraw model (or a scene's battlefield) to a PNG, offscreen"
DESCRIPTION = """Render a still picture offscreen (no window needed): real LDraw colours, lighting,
transparent colours blended, optional edge lines. The default quality keeps a 5,000-part
battlefield fluid without a GPU (level of detail for studs and detailed parts, hidden studs
dropped); --quality full draws every triangle of every part.

examples:
  bow3d render battlefield.ldr -o battlefield.png
  bow3d render village.mpd -o top.png --view top --size 1920x1080 --edges"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="an LDraw file (.ldr, .mpd, .dat) or a scene file (.yaml)")
    parser.add_argument("-o", "--output", required=True, metavar="PNG", help="the picture to write")
    parser.add_argument("--size", default="1280x720", metavar="WxH", help="picture size (default 1280x720)")
    parser.add_argument("--view", default="iso", choices=list(VIEWS), help="camera direction (default iso)")
    parser.add_argument("--quality", default="default", choices=QUALITIES, help="level of detail (default: default)")
    parser.add_argument("--edges", action="store_true", help="draw LDraw edge lines")
    parser.add_argument("--library", metavar="DIR", help="LDraw library folder (default: $LDRAWDIR, else the "
                        "bundled starter library)")
    parser.add_argument("--force", action="store_true", help="overwrite the output if it exists")


def parse_size(text: str) -> tuple[int, int]:
    """'1280x720' -> (1280, 720); sizes from 16 to 8192 pixels."""
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise UserInputError(f"--size {text!r}: write it as WIDTHxHEIGHT, e.g. 1280x720") from None
    if not (16 <= width <= 8192 and 16 <= height <= 8192):
        raise UserInputError(f"--size {text!r}: each side must be between 16 and 8192 pixels")
    return width, height


def run(args: argparse.Namespace) -> int:
    from bow3d.view.still import render_still  # panda3d is imported only when a picture is made

    size = parse_size(args.size)
    out = Path(args.output)
    if out.suffix.lower() != ".png":
        raise UserInputError(f"{out}: the output must be a .png file")
    if not out.parent.exists():
        raise UserInputError(f"{out}: the folder {out.parent} does not exist")
    if out.exists() and not args.force:
        raise UserInputError(f"{out} already exists; choose another name or add --force to replace it")
    source = Path(args.file)
    if source.resolve() == out.resolve():
        raise UserInputError(f"{out}: refusing to overwrite the input file")
    model = load_model(_battlefield_of(source), Library.from_env(args.library))
    stats = render_still(model, out, size, args.view, args.quality, args.edges)
    problems = f", {len(model.diagnostics)} diagnostics (see bow3d inspect)" if model.diagnostics else ""
    print(f"wrote {out} ({size[0]}x{size[1]}, {stats.triangles:,} triangles in {stats.draw_calls} draw calls, "
          f"{stats.draw_seconds:.2f} s, {stats.pipe}){problems}")
    return 0


def _battlefield_of(path: Path) -> Path:
    """A scene file renders its battlefield; anything else is taken as LDraw."""
    if path.suffix.lower() in (".yaml", ".yml"):
        try:
            from bow3d.scene import load_scene
        except ImportError:
            raise UserInputError(f"{path}: scene files are not supported by this build") from None
        scene = load_scene(path)
        return Path(path).parent / scene.battlefield
    return path
