"""`bow3d heatmap SCENE --from UNIT -o map.png`: where on the battlefield a unit can see, and cover."""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from bow3d.errors import UserInputError
from bow3d.paths import check_new

NAME = "heatmap"
ORDER = 36
HELP = "map, stud by stud, what a unit can see (or, with --cover, where cover is)"
DESCRIPTION = """For every stud cell of the battlefield: could a minifig standing there be seen by
the unit --from, and how covered would it be (BOW 1.3 §2.4.2: rays from the unit's eye to points
on the minifig's surface, cover from the ruleset's cover_threshold hidden). Drawn over a top-down
render: dark blue = cannot be seen, yellow = seen but covered, red = in the open.

--cover SIDE: for a minifig of SIDE on each cell, from how many enemy units' positions it
would be in cover (hidden at least cover_threshold, or not seen at all): red = from none,
yellow = from half of them, blue = from all of them.

The stand-in minifig is the model of the first enemy unit of --from (--cover: the first unit of
SIDE), facing the viewer, on the cell's ground.

examples:
  bow3d heatmap scenes/village.yaml --from blue-1 -o blue-1.png
  bow3d heatmap scenes/village.yaml --cover red -o red-cover.png"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("scene", help="a scene file (.yaml)")
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--from", dest="viewer", metavar="UNIT", help="the unit whose sight is mapped")
    what.add_argument("--cover", metavar="SIDE", help="map cover for a minifig of this side against all enemies")
    parser.add_argument("-o", "--output", required=True, metavar="PNG", help="the picture to write")
    parser.add_argument("--force", action="store_true", help="overwrite the picture if it exists")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--allow-missing", action="store_true", help="map even when LDraw parts of the scene are "
                        "missing from the library")
    parser.add_argument("--library", metavar="DIR", help="LDraw library folder (default: $LDRAWDIR, else the "
                        "bundled starter library)")


def run(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from bow3d.commands.los import load_world
    from bow3d.world.heatmap import cover_map, visibility_map

    out = Path(args.output)
    if out.suffix.lower() != ".png":
        raise UserInputError(f"{out}: the picture must be a .png file")
    check_new(out, force=args.force)  # up front, before the long work: no link, nothing replaced without --force
    from bow3d.rulesets import ruleset_of

    scene, world = load_world(args.scene, args.library, args.allow_missing)
    ruleset = ruleset_of(scene)
    threshold = ruleset.cover_share(scene.ruleset)  # the ruleset judges; the world measured
    cells = int(np.isfinite(world.grid.heights).sum())
    if args.viewer:
        world.body(args.viewer)
        with tqdm(total=cells, unit="cell", disable=args.no_progress, desc=f"seen from {args.viewer}") as bar:
            heat = visibility_map(world, args.viewer, bar.update)
        from bow3d.view.heatmap_picture import draw_heatmap_picture, visibility_colours

        colours = visibility_colours(heat.visible_fraction, threshold)
        colours[~np.isfinite(heat.visible_fraction)] = np.nan
        f = heat.visible_fraction[np.isfinite(heat.visible_fraction)]
        seen = float((f > 0).mean()) if f.size else 0.0
        open_ = float(((f > 0) & ~ruleset.in_cover(f, scene.ruleset)).mean()) if f.size else 0.0
        title = (f"Seen from {args.viewer}: a minifig on {seen:.0%} of the cells can be seen, on {open_:.0%} in the open."
                 f"  blue = hidden, yellow = covered, red = open")
        draw_heatmap_picture(scene, world, colours, out, title, [(args.viewer, (40, 90, 230))],
                             force=args.force)
        print(title.split("  ")[0])
    else:
        sides = sorted({b.side for b in world.bodies.values() if b.side})
        if args.cover not in sides:
            raise UserInputError(f"--cover {args.cover!r}: unknown side (sides: {', '.join(sides) or 'none'})")
        enemies = [b for b in world.bodies.values() if b.kind == "unit" and b.side != args.cover
                   and world.active[b.index]]
        if not enemies:
            raise UserInputError(f"--cover {args.cover}: no enemy unit on the battlefield")
        with tqdm(total=cells * len(enemies), unit="cell", disable=args.no_progress, desc="cover") as bar:
            heat, counts = cover_map(world, args.cover, lambda f: ruleset.in_cover(f, scene.ruleset), bar.update)
        from bow3d.view.heatmap_picture import cover_colours, draw_heatmap_picture

        colours = cover_colours(counts.astype(float), len(enemies))
        colours[~np.isfinite(heat.visible_fraction)] = np.nan
        title = (f"Cover for {args.cover}: from how many of the {len(enemies)} enemy positions a minifig on each "
                 f"cell is covered or hidden (red = none, yellow = half, blue = all)")
        draw_heatmap_picture(scene, world, colours, out, title, [(b.id, (230, 60, 40)) for b in enemies],
                             force=args.force)
        print(title)
    print(f"wrote {out}")
    return 0
