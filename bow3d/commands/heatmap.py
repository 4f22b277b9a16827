"""`bow3d heatmap SCENE --from UNIT -o map.png`: where on the battlefield a unit can see, and cover."""

from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bow3d.batch import Job
from bow3d.errors import UserInputError
from bow3d.i18n import _, current, ngettext, percent, speaking
from bow3d.paths import check_new, make_folder

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

--all-units: a map for every unit on the battlefield, written as DIR/heatmap-UNIT.png; the units are
shared among workers (--engine local, the default, or ray; each builds the world once), with a
progress bar; Ctrl+C keeps the pictures already written.

examples:
  bow3d heatmap scenes/village.yaml --from blue-rifle-2 -o blue-rifle-2.png
  bow3d heatmap scenes/village.yaml --cover red -o red-cover.png
  bow3d heatmap scenes/village.yaml --all-units -o village-heatmaps/ --engine ray"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("scene", help="a scene file (.yaml)")
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--from", dest="viewer", metavar="UNIT", help="the unit whose sight is mapped")
    what.add_argument("--cover", metavar="SIDE", help="map cover for a minifig of this side against all enemies")
    what.add_argument("--all-units", action="store_true", help="one map per unit on the battlefield, into the "
                      "folder -o, shared among workers (--engine local|ray)")
    parser.add_argument("-o", "--output", required=True, metavar="PNG|DIR", help="the picture to write (with "
                        "--all-units: the folder for heatmap-UNIT.png)")
    parser.add_argument("--force", action="store_true", help="overwrite the picture if it exists")
    parser.add_argument("--allow-missing", action="store_true", help="map even when LDraw parts of the scene are "
                        "missing from the library")
    parser.add_argument("--library", metavar="DIR", help="LDraw library folder (default: $LDRAWDIR, else the "
                        "bundled starter library)")
    from bow3d.commands.simulate import add_engine_arguments

    add_engine_arguments(parser, "every core (--all-units)")


def run(args: argparse.Namespace) -> int:
    from bow3d.commands.los import load_world
    from bow3d.progress import bar as progress_bar
    from bow3d.world.heatmap import cover_map

    if args.all_units:
        return run_all_units(args)
    if args.engine != "local" or args.address or args.workers is not None:
        raise UserInputError(_("--engine, --address and --workers go with --all-units (one map per "
                               "unit, shared among the workers)"))
    out = Path(args.output)
    if out.suffix.lower() != ".png":
        raise UserInputError(_("{out}: the picture must be a .png file").format(out=out))
    check_new(out, force=args.force)  # up front, before the long work: no link, nothing replaced without --force
    from bow3d.rulesets import ruleset_of

    scene, world = load_world(args.scene, args.library, args.allow_missing)
    ruleset = ruleset_of(scene)
    cells = int(np.isfinite(world.grid.heights).sum())
    if args.viewer:
        world.body(args.viewer)
        with progress_bar(cells, _("cell"), _("seen from {viewer}").format(viewer=args.viewer),
                          not args.no_progress) as bar:
            line = visibility_picture(scene, world, args.viewer, out, args.force, bar.update)
        print(line)
    else:
        sides = sorted({b.side for b in world.bodies.values() if b.side})
        if args.cover not in sides:
            raise UserInputError(_("--cover {cover!r}: unknown side (sides: {value})")
                                 .format(cover=args.cover, value=', '.join(sides) or 'none'))
        enemies = [b for b in world.bodies.values() if b.kind == "unit" and b.side != args.cover
                   and world.active[b.index]]
        if not enemies:
            raise UserInputError(_("--cover {cover}: no enemy unit on the battlefield").format(cover=args.cover))
        with progress_bar(cells * len(enemies), _("cell"), _("cover"), not args.no_progress) as bar:
            heat, counts = cover_map(world, args.cover, lambda f: ruleset.in_cover(f, scene.ruleset), bar.update)
        from bow3d.view.output.heatmap_picture import cover_colours, cover_legend, draw_heatmap_picture

        colours = cover_colours(counts.astype(float), len(enemies))
        colours[~np.isfinite(heat.visible_fraction)] = np.nan
        gunners = [b.id for b in enemies if b.seat is not None]
        title = (_("Cover for {side}: from how many of the {n} enemy positions a minifig on each cell is covered "
                   "or hidden").format(side=args.cover, n=len(enemies))
                 + (_(" (a vehicle's gunner looks out of it: {gunners})").format(gunners=", ".join(gunners))
                    if gunners else ""))
        draw_heatmap_picture(scene, world, colours, out, title, [(b.id, (230, 60, 40)) for b in enemies],
                             legend=cover_legend(len(enemies)), force=args.force)
        print(title)
    print(_("wrote {files}").format(files=out))
    return 0


def visibility_picture(scene, world, viewer: str, out: Path, force: bool, progress=None) -> str:
    """Map what `viewer` sees and draw it to `out`; returns the one-line summary."""
    from bow3d.rulesets import ruleset_of
    from bow3d.view.output.heatmap_picture import draw_heatmap_picture, visibility_colours, visibility_legend
    from bow3d.world.heatmap import visibility_map

    ruleset = ruleset_of(scene)
    threshold = ruleset.cover_share(scene.ruleset)  # the ruleset judges; the world measured
    heat = visibility_map(world, viewer, progress)
    colours = visibility_colours(heat.visible_fraction, threshold)
    colours[~np.isfinite(heat.visible_fraction)] = np.nan
    f = heat.visible_fraction[np.isfinite(heat.visible_fraction)]
    seen = float((f > 0).mean()) if f.size else 0.0
    open_ = float(((f > 0) & ~ruleset.in_cover(f, scene.ruleset)).mean()) if f.size else 0.0
    title = _("Seen from {viewer}: a minifig on {seen} of the cells can be seen, on {open} in the open.").format(
        viewer=viewer, seen=percent(seen), open=percent(open_))
    draw_heatmap_picture(scene, world, colours, out, title, [(viewer, (40, 90, 230))],
                         legend=visibility_legend(threshold), force=force)
    return title


@dataclass(frozen=True)
class UnitHeatmapJob(Job):
    """One unit's visibility map and picture per item (a unit id), on the batch executor: each worker
    builds the scene's world once; the picture comes back as PNG bytes (the parent writes it)."""

    scene: str
    library: str | None
    allow_missing: bool = False
    language: str = "en"   # the language of the pictures' words (the command's)

    def open(self) -> _HeatmapTable:
        return _HeatmapTable(self)


class _HeatmapTable:
    def __init__(self, job: UnitHeatmapJob) -> None:
        from bow3d.commands.los import load_world
        from bow3d.replay.simulate import library_folder

        self.scene, self.world = load_world(job.scene, library_folder(job.library), job.allow_missing)
        self.folder = tempfile.mkdtemp(prefix="bow3d-heatmaps-")
        self.language = job.language

    def run(self, unit: str) -> tuple[str, bytes, str]:
        out = Path(self.folder) / f"{unit}.png"
        try:
            with speaking(self.language):
                line = visibility_picture(self.scene, self.world, unit, out, True)
            return unit, out.read_bytes(), line
        finally:
            out.unlink(missing_ok=True)

    def __del__(self) -> None:
        import shutil

        shutil.rmtree(getattr(self, "folder", ""), ignore_errors=True)


def run_all_units(args: argparse.Namespace) -> int:
    """--all-units: one picture per unit on the battlefield, the units shared among the workers."""
    from bow3d.batch import open_executor
    from bow3d.commands.los import load_world
    from bow3d.commands.simulate import engine_workers
    from bow3d.paths import write_new
    from bow3d.replay.simulate import library_choice

    folder = Path(args.output)
    if folder.suffix.lower() == ".png":
        raise UserInputError(_("{folder}: with --all-units, -o names a folder (one picture per unit "
                               "goes there)").format(folder=folder))
    if folder.exists() and not folder.is_dir():   # refused before the world is built (make_folder says it again)
        raise UserInputError(_("{folder}: exists and is not a folder; choose another {option}").format(
            folder=folder, option="-o"))
    scene, world = load_world(args.scene, args.library, args.allow_missing)  # refused here, once, when broken
    units = [b.id for b in world.bodies.values() if b.kind == "unit" and world.active[b.index]]
    if not units:
        raise UserInputError(_("{scene}: no unit on the battlefield to map").format(scene=args.scene))
    make_folder(folder, "-o")
    targets = {unit: folder / f"heatmap-{unit}.png" for unit in units}
    for target in targets.values():
        check_new(target, force=args.force)
    del world
    job = UnitHeatmapJob(str(Path(args.scene).resolve()), library_choice(args.library), args.allow_missing,
                         current())
    done = 0
    try:
        with open_executor(args.engine, engine_workers(args, len(units)), args.address) as executor:
            for unit, data, line in executor.map(job, units, total=len(units), label=_("heatmaps"), unit=_("unit"),
                                                 progress=not args.no_progress):
                write_new(targets[unit], data, force=args.force)
                done += 1
                print(f"{line} -> {targets[unit]}", flush=True)
    except KeyboardInterrupt:
        print(_("interrupted: {done} of {n} pictures written in {folder}").format(done=done, n=len(units),
                                                                                  folder=folder), file=sys.stderr)
        return 130
    print(ngettext("wrote {n} picture in {folder}", "wrote {n} pictures in {folder}", done).format(n=done,
                                                                                                   folder=folder))
    return 0
