"""`bow3d demo`: the main job on the bundled demo battlefield, headless, on a fresh machine."""

from __future__ import annotations

import argparse
from pathlib import Path

from bow3d.errors import UserInputError
from bow3d.ldraw import BUNDLED_LIBRARY, Library, load_model

NAME = "demo"
ORDER = 1
HELP = "load the bundled demo battlefield and write pictures of it (no window needed)"
DESCRIPTION = """Load the bundled demo battlefield with the bundled starter part library (or
LDRAWDIR's official library when set), report what it holds, and write pictures of it into
the output folder (default ./bow3d-demo; existing files are never overwritten)."""

DEMO_DIR = BUNDLED_LIBRARY.parent / "scenes"
DEMO_MODELS = ("village.ldr", "village.mpd", "los-gallery.ldr")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", default="bow3d-demo", metavar="DIR", help="folder for the pictures")
    parser.add_argument("--size", default="1280x720", metavar="WxH", help="picture size (default 1280x720)")


def demo_battlefield() -> Path:
    """The first bundled demo model that exists."""
    for name in DEMO_MODELS:
        if (DEMO_DIR / name).is_file():
            return DEMO_DIR / name
    raise UserInputError(f"no demo battlefield in {DEMO_DIR}; is this a complete bow3d checkout?")


def free_name(folder: Path, stem: str, suffix: str) -> Path:
    """folder/stem.suffix, or stem-2, stem-3, ... when taken: the user's files stay untouched."""
    candidate, n = folder / f"{stem}{suffix}", 1
    while candidate.exists():
        n += 1
        candidate = folder / f"{stem}-{n}{suffix}"
    return candidate


def run(args: argparse.Namespace) -> int:
    from bow3d.commands.render import parse_size
    from bow3d.view.still import render_still

    size = parse_size(args.size)
    battlefield = demo_battlefield()
    library = Library.from_env()
    model = load_model(battlefield, library)
    out_dir = Path(args.output)
    if out_dir.exists() and not out_dir.is_dir():
        raise UserInputError(f"{out_dir} exists and is not a folder; choose another --output")
    out_dir.mkdir(parents=True, exist_ok=True)
    print(f"{battlefield.name}: {len(model.instances):,} parts ({len(model.unique_part_names())} distinct), "
          f"{model.triangle_count():,} triangles, library {library.describe()}, "
          f"{len(model.missing_parts)} missing parts, loaded in {model.load_seconds:.2f} s")
    for view in ("iso", "top", "low"):
        out = free_name(out_dir, f"{battlefield.stem}-{view}", ".png")
        stats = render_still(model, out, size, view)
        print(f"wrote {out} ({stats.triangles:,} triangles, {stats.draw_seconds:.2f} s)")
    return 0
