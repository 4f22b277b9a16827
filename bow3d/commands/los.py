"""`bow3d los SCENE FIRER [TARGET]`: the line-of-sight referee: the world's facts, the ruleset's verdict."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from bow3d.errors import UserInputError
from bow3d.i18n import _
from bow3d.world.report import missing_words, referee_sight, sight_json

NAME = "los"
ORDER = 35
HELP = "referee a line of sight: visible, covered, range penalty, front arc (BOW 2.4.2)"
DESCRIPTION = """Settle 'can my unit see yours?' with the 3D geometry of the scene: rays from the
firer's eye (the centre of its head) over the target's silhouette as the eye sees it, studs
included (sight method silhouette-1; the JSON names the method). The verdict names what hides
the target (decor part, colour, file and line; or a unit or vehicle id) and how much, says
whether the target is covered (hidden share at least the ruleset's cover_threshold, default
25 %), the head-to-head distance in studs with its range penalty (-1 brick per 15 studs beyond
the first 15) and whether the target is in the firer's front arc. The geometry is measured by
the 3D world; the verdict (covered, range penalty) is the scene's ruleset's (BOW 1.3 §2.4.2 for
bow-1.3 scenes).

With only FIRER: every enemy unit, best target first.
--json prints the world's facts (visible fraction, blockers with their share, material and
distance along the line of fire, heights, distance) and the ruleset's `verdict` object beside
them, with the sentence as `text`.
--png draws the view from the firer's eye: where the rays meet the target, green (seen) or red
(hidden), blockers outlined, and a top-down inset with the line of fire, the 15/30/45-stud
range bands and the front arc.

examples:
  bow3d los scenes/village.yaml blue-rifle-2 red-pistol
  bow3d los scenes/village.yaml blue-rifle-2 red-pistol --json
  bow3d los scenes/village.yaml blue-rifle-2 red-pistol --png sight.png
  bow3d los scenes/village.yaml blue-rifle-2"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("scene", help="a scene file (.yaml)")
    parser.add_argument("firer", help="id of the unit that looks (or fires)")
    parser.add_argument("target", nargs="?", help="id of the unit looked at; omitted: every enemy, best first")
    parser.add_argument("--json", action="store_true", help="print the report as JSON (samples included)")
    parser.add_argument("--png", metavar="PNG", help="draw the view from the firer's eye to this picture")
    parser.add_argument("--size", default="1280x720", metavar="WxH", help="picture size (default 1280x720)")
    parser.add_argument("--force", action="store_true", help="overwrite the picture if it exists")
    parser.add_argument("--library", metavar="DIR", help="LDraw library folder (default: $LDRAWDIR, else the "
                        "bundled starter library)")
    parser.add_argument("--allow-missing", action="store_true", help="judge even when LDraw parts of the scene are "
                        "missing from the library (the verdict says it is incomplete)")


def check_complete(world, scene_path: str, allow_missing: bool) -> None:
    """A verdict on a world built without some of its parts (magenta boxes stand in for them) is not
    given unless asked for: one line naming the parts and what to do."""
    missing = getattr(world, "missing_parts", ())
    if missing and not allow_missing:
        library = getattr(world, "library", None)
        where = f" in {library.describe()}" if library is not None else ""
        raise UserInputError(_("{scene_path}: {value}{where}; a verdict would be computed without "
                               "them: point LDRAWDIR (or --library) at a library that has them, or add "
                               "--allow-missing to judge anyway (the verdict then says it is "
                               "incomplete)").format(scene_path=scene_path, value=missing_words(missing), where=where))


def load_world(scene_path: str, library_dir: str | None, allow_missing: bool = False):
    """(scene, World) from a scene file (validated with its ruleset), errors as one line; refused when
    LDraw parts are missing, unless `allow_missing`."""
    from bow3d.ldraw import Library
    from bow3d.rulesets import load_scene
    from bow3d.world import World

    path = Path(scene_path)
    if not path.is_file():
        raise UserInputError(_("{scene_path}: no such scene file").format(scene_path=scene_path))
    library = Library.from_env(library_dir)
    scene = load_scene(path, battlefield=True, library=library)  # a unit off the battlefield: named with its line
    world = World.from_scene(scene, library)
    check_complete(world, scene_path, allow_missing)
    return scene, world


def check_picture_path(text: str, force: bool) -> Path:
    """The picture's path, checked before the long work (bow3d.paths.check_new: no link, no special
    file, an existing one only with --force)."""
    from bow3d.paths import check_new

    out = Path(text)
    if out.suffix.lower() != ".png":
        raise UserInputError(_("{out}: the picture must be a .png file").format(out=out))
    return check_new(out, force=force)


def rank(judged: list) -> list:
    """Best target first: in the front arc, visible, then not covered, then most visible, then nearest."""
    return sorted(judged, key=lambda rv: (not rv[0].in_front_arc, not rv[0].visible, bool(getattr(rv[1], "covered", 0)),
                                          -round(rv[0].visible_fraction, 6), rv[0].distance_studs, rv[0].target))


def run(args: argparse.Namespace) -> int:
    from bow3d.rulesets import ruleset_of

    out = check_picture_path(args.png, args.force) if args.png else None
    if out is not None and not args.target:
        raise UserInputError(_("--png needs a TARGET: the picture shows one line of sight"))
    scene, world = load_world(args.scene, args.library, args.allow_missing)
    ruleset = ruleset_of(scene)
    world.body(args.firer)

    def judged(target: str) -> tuple:
        return referee_sight(world, ruleset, scene.ruleset, args.firer, target)

    if args.target:
        report, verdict, text = judged(args.target)
        print(json.dumps(sight_json(report, verdict, text), indent=2) if args.json else text)
        if out is not None:
            from bow3d.commands.render import parse_size
            from bow3d.view.output.los_picture import draw_los_picture

            draw_los_picture(scene, world, report, out, parse_size(args.size), verdict=verdict, text=text,
                             force=args.force)
            if not args.json:
                print(_("wrote {path}").format(path=out))
        return 0
    enemies = world.enemies_of(args.firer, kinds=("unit", "vehicle"))  # a horse or a jeep is a target too
    if not enemies:
        raise UserInputError(_("{firer} has no enemy on the battlefield").format(firer=args.firer))
    reports = rank([judged(e) for e in enemies])
    if args.json:
        print(json.dumps([sight_json(r, v, t, samples=False) for r, v, t in reports], indent=2))
    else:
        for _report, _verdict, text in reports:
            print(text)
    return 0
