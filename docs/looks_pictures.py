"""Make the side-by-side pictures of docs/ that show issue 13's looks (official library in LDRAWDIR):

    python docs/looks_pictures.py shoot OUTDIR [--quality Q] [--edges]
        one picture per subject (SUBJECTS) into OUTDIR, by whatever bow3d is imported: run it with
        PYTHONPATH=/tmp/before (a `git worktree` of the commit before a change) for the "before" set
    python docs/looks_pictures.py pair LEFT.png RIGHT.png OUT.png
        two pictures of the same size side by side, a 4-pixel white gap between them

docs/4854-no-phantom-studs.png: 4854 tiled over, default quality (left) and --quality full (right).
docs/looks-*.png: the same view before issue 13's looks (left) and after (right); looks-textured*.png: before
and after textures (!TEXMAP planar: 3622p06, 39266p01; spherical: the globe 61287p01); looks-village-edges.png and
looks-round-edges.png: with edges, before and after conditional (type 5) lines drawn as silhouettes.
docs/lod-village-still.png: `render_still(village, 960x540, "iso", "default")`, before and after level of detail by
size on screen. docs/lod-far-no-cracks.png: the village at --quality draft (the far level everywhere) from a low
camera at its near corner (800x450, 30 degrees), before and after the far level keeps parts' outlines.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

TILED_4854 = """0 4854 with its top tiled over
1 72 0 0 0 1 0 0 0 1 0 0 0 1 4854.dat
1 15 -20 -8 -20 1 0 0 0 1 0 0 0 1 3068b.dat
1 15 20 -8 -20 1 0 0 0 1 0 0 0 1 3068b.dat
1 15 -20 -8 20 1 0 0 0 1 0 0 0 1 3068b.dat
1 15 20 -8 20 1 0 0 0 1 0 0 0 1 3068b.dat
"""

# name: (LDraw text or a file under the repository, view, size)
SUBJECTS = {
    "4854-tiled": (TILED_4854, "low", (640, 480)),
    "head": ("1 14 0 0 0 1 0 0 0 1 0 0 0 1 3626bp01.dat\n", "front", (480, 480)),
    "tyre": ("1 0 0 0 0 1 0 0 0 1 0 0 0 1 6015.dat\n1 71 0 0 0 1 0 0 0 1 0 0 0 1 6014a.dat\n", "iso", (480, 480)),
    "textured": ("1 15 0 0 0 1 0 0 0 1 0 0 0 1 3622p06.dat\n", "front", (480, 480)),
    "textured-round": ("1 15 -45 0 0 -1 0 0 0 1 0 0 0 -1 61287p01.dat\n"
                       "1 15 55 0 0 1 0 0 0 1 0 0 0 1 39266p01.dat\n", "front", (640, 360)),
    "chrome": ("1 383 0 0 0 1 0 0 0 1 0 0 0 1 3941.dat\n1 334 50 0 0 1 0 0 0 1 0 0 0 1 4589.dat\n1 80 -50 0 0 1 0 0 0 1 0 0 0 1 3062b.dat\n", "iso",
               (640, 480)),
    "village": ("scenes/village.ldr", "iso", (960, 540)),
    "round-edges": ("1 15 0 0 0 1 0 0 0 1 0 0 0 1 3941.dat\n1 14 45 0 0 1 0 0 0 1 0 0 0 1 3626bp01.dat\n"
                    "1 71 -50 -10 0 0 0 1 0 1 0 -1 0 0 6014a.dat\n1 0 -50 -10 0 0 0 1 0 1 0 -1 0 0 6015.dat\n",
                    "iso", (640, 400)),
}


def shoot(out_dir: Path, quality: str = "default", edges: bool = False, only: list[str] | None = None) -> None:
    from bow3d.ldraw import Library, load_model
    from bow3d.view.output.still import render_still

    library = Library([Path(os.environ["LDRAWDIR"])])
    out_dir.mkdir(parents=True, exist_ok=True)
    root = Path(__file__).resolve().parent.parent
    for name, (source, view, size) in SUBJECTS.items():
        if only and name not in only:
            continue
        path = root / source if source.endswith((".mpd", ".ldr")) else out_dir / f"{name}.ldr"
        if not source.endswith((".mpd", ".ldr")):
            path.write_text(source)
        model = load_model(path, library, cache=False)
        stats = render_still(model, out_dir / f"{name}.png", size, view, quality,
                             edges or name == "village" or name.endswith("-edges"),
                             force=True)
        print(f"{name}: {stats.triangles:,} triangles, {stats.draw_seconds:.2f} s to draw")


def pair(left: Path, right: Path, out: Path, gap: int = 4) -> None:
    from panda3d.core import PNMImage

    a, b = PNMImage(), PNMImage()
    if not (a.read(str(left)) and b.read(str(right))):
        raise SystemExit(f"cannot read {left} or {right}")
    both = PNMImage(a.get_x_size() + gap + b.get_x_size(), max(a.get_y_size(), b.get_y_size()), 3)
    both.fill(1, 1, 1)
    both.copy_sub_image(a, 0, 0)
    both.copy_sub_image(b, a.get_x_size() + gap, 0)
    both.write(str(out))
    print(f"wrote {out}")


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["shoot"]:
        quality = args[args.index("--quality") + 1] if "--quality" in args else "default"
        only = args[args.index("--only") + 1].split(",") if "--only" in args else None
        shoot(Path(args[1]), quality, "--edges" in args, only)
    elif args[:1] == ["pair"] and len(args) == 4:
        pair(Path(args[1]), Path(args[2]), Path(args[3]))
    else:
        raise SystemExit(__doc__)
