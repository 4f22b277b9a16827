"""`python -m bow3d.ldraw.starter [--out DIR]`: write the starter LDraw library."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bow3d.errors import Bow3dError
from bow3d.ldraw.library import BUNDLED_LIBRARY
from bow3d.ldraw.starter import generate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bow3d.ldraw.starter",
        description="Write bow3d's starter LDraw library: simplified parts with the official part numbers,\n"
                    "LDConfig.ldr and README.txt. Deterministic: the same bytes every run. The output\n"
                    "folder must be empty or hold an earlier starter library (anything else is refused).",
        epilog="examples:\n  python -m bow3d.ldraw.starter            # regenerate ldraw_library/\n"
               "  python -m bow3d.ldraw.starter --out /tmp/lib",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=BUNDLED_LIBRARY, metavar="DIR",
                        help=f"output folder (default: {BUNDLED_LIBRARY})")
    args = parser.parse_args(argv)
    try:
        written = generate(args.out)
    except Bow3dError as error:
        print(f"bow3d: error: {error}", file=sys.stderr)
        return 2
    parts = sum(1 for p in written if p.parent.name == "parts")
    print(f"wrote {len(written)} files ({parts} parts) to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
