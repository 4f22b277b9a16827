"""`bow3d render FILE -o out.png`: an offscreen still of an LDraw model, or of a scene with its units."""

from __future__ import annotations

import argparse
from pathlib import Path

from bow3d.errors import UserInputError
from bow3d.i18n import _, decimal, integer, ngettext
from bow3d.ldraw import Library, LoadBudget, load_model
from bow3d.ldraw.budget import DEFAULT_MAX_INSTANCES
from bow3d.paths import check_new
from bow3d.view.camera.choices import QUALITIES, VIEWS

NAME = "render"
ORDER = 20
HELP = "render an LDraw model or a scene (units, a line of sight) to a PNG, offscreen"
DESCRIPTION = """Render a still picture offscreen (no window needed): real LDraw colours, lighting,
transparent colours blended, optional edge lines. The default quality keeps a 5,000-part
battlefield fluid without a GPU (level of detail for studs and detailed parts, hidden studs
dropped); --quality full draws every triangle of every part. A model whose drawing would not fit
in memory (see --max-instances) is refused before anything is built, with exit code 2.

A scene file (.yaml) is drawn with its units and vehicles (side rings under them); --camera
picks the viewpoint: unit:ID over a unit's shoulder, or X,Y,Z:TX,TY,TZ in studs (camera
position : point looked at, Z up). --los FIRER:TARGET draws the line of sight between two
units (rays, blockers, range bands, front arc).

examples:
  bow3d render scenes/village.ldr -o battlefield.png
  bow3d render scenes/western-town.ldr -o top.png --view top --size 1920x1080 --edges
  bow3d render scenes/village.yaml -o village.png
  bow3d render scenes/village.yaml -o shoulder.png --camera unit:blue-rifle-2 --los blue-rifle-2:red-pistol
  bow3d render scenes/village.yaml -o high.png --camera=-10,-10,40:24,24,0   # write = before a minus"""


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
    parser.add_argument("--camera", metavar="SPEC", help="scenes: unit:ID (over the shoulder) or X,Y,Z:TX,TY,TZ "
                        "in studs; default: the --view direction framing everything")
    parser.add_argument("--los", metavar="FIRER:TARGET", help="scenes: draw the line of sight between two units")
    parser.add_argument("--max-instances", type=int, default=DEFAULT_MAX_INSTANCES, metavar="N",
                        help=f"refuse a model that places more than N part instances, or more than 50 triangles "
                        f"per allowed instance, or whose drawing would take more than 1,536 bytes of memory per "
                        f"allowed instance (default {DEFAULT_MAX_INSTANCES:,}: 2,929 MiB)")


def parse_size(text: str) -> tuple[int, int]:
    """'1280x720' -> (1280, 720); sizes from 16 to 8192 pixels."""
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise UserInputError(_("--size {text!r}: write it as WIDTHxHEIGHT, e.g. 1280x720").format(text=text)) from None
    if not (16 <= width <= 8192 and 16 <= height <= 8192):
        raise UserInputError(_("--size {text!r}: each side must be between 16 and 8192 pixels").format(text=text))
    return width, height


def run(args: argparse.Namespace) -> int:
    from bow3d.view.output.still import render_still  # panda3d is imported only when a picture is made

    size = parse_size(args.size)
    out = Path(args.output)
    if out.suffix.lower() != ".png":
        raise UserInputError(_("{out}: the output must be a .png file").format(out=out))
    source = Path(args.file)
    if source.resolve() == out.resolve():
        raise UserInputError(_("{out}: refusing to overwrite the input file").format(out=out))
    check_new(out, force=args.force)  # up front: no link, no special file, nothing replaced without --force
    library = Library.from_env(args.library, budget=LoadBudget(max_instances=args.max_instances))
    if is_scene(source):
        from bow3d.rulesets import load_scene
        from bow3d.view.camera.camera_options import parse_camera
        from bow3d.view.output.still import render_scene_still

        camera = parse_camera(args.camera) if args.camera else None
        scene = load_scene(source)
        los = parse_los(args.los, scene) if args.los else None
        stats = render_scene_still(scene, out, size, args.view, args.quality, args.edges, camera, library, los,
                                   force=args.force)
        units = ngettext("{n} unit", "{n} units", len(scene.units)).format(n=integer(len(scene.units)))
        vehicles = ngettext("{n} vehicle", "{n} vehicles", len(scene.vehicles)).format(n=integer(len(scene.vehicles)))
        print(_("wrote {out} ({width}x{height}, {units}, {vehicles}, {triangles} battlefield "
                "triangles, {seconds} s, {pipe})").format(
            out=out, width=size[0], height=size[1], units=units, vehicles=vehicles,
            triangles=integer(stats.triangles), seconds=decimal(stats.draw_seconds, 2), pipe=stats.pipe))
        return 0
    if args.los:
        raise UserInputError(_("{source}: --los needs a scene file (.yaml) with units").format(source=source))
    pose = None
    if args.camera:
        from bow3d.view.camera.camera_options import camera_pose, parse_camera

        spec = parse_camera(args.camera)
        if spec.unit is not None:
            raise UserInputError(_("{source}: --camera unit:ID needs a scene file (.yaml); use "
                                   "X,Y,Z:TX,TY,TZ").format(source=source))
        pose = camera_pose(spec)
    model = load_model(source, library)
    stats = render_still(model, out, size, args.view, args.quality, args.edges, pose, force=args.force)
    problems = (_(", {n} diagnostics (see bow3d inspect)").format(n=len(model.diagnostics))
                if model.diagnostics else "")
    print(_("wrote {out} ({width}x{height}, {triangles} triangles in {calls} draw calls, {seconds} s, "
            "{pipe}){problems}").format(out=out, width=size[0], height=size[1], triangles=integer(stats.triangles),
                                        calls=stats.draw_calls, seconds=decimal(stats.draw_seconds, 2),
                                        pipe=stats.pipe, problems=problems))
    return 0


def is_scene(path: Path) -> bool:
    """Scene files end in .yaml or .yml; anything else is taken as LDraw."""
    return path.suffix.lower() in (".yaml", ".yml")


def parse_los(text: str, scene) -> tuple[str, str]:
    """'blue-1:red-2' -> ("blue-1", "red-2"), both units or vehicles of the scene."""
    return unit_pair(text, scene, _("--los {text!r}: write FIRER:TARGET with two different unit ids, e.g. "
                                    "--los blue-1:red-2"),
                     _("--los {text!r}: no unit or vehicle {id!r} in the scene (known: {value})"))


def unit_pair(text: str, scene, malformed: str, unknown: str) -> tuple[str, str]:
    """'A:B' -> (A, B), two different units or vehicles of the scene; else UserInputError with the option's
    own words (`malformed` takes {text}; `unknown` takes {text}, {id} and {value}, the ids known)."""
    a, sep, b = text.partition(":")
    known = [u.id for u in scene.units] + [v.id for v in scene.vehicles]
    if not sep or not a or not b or a == b:
        raise UserInputError(malformed.format(text=text))
    for id in (a, b):
        if id not in known:
            raise UserInputError(unknown.format(text=text, id=id, value=', '.join(known)))
    return a, b


def _battlefield_of(path: Path) -> Path:
    """A scene file renders its battlefield; anything else is taken as LDraw."""
    if path.suffix.lower() in (".yaml", ".yml"):
        try:
            from bow3d.rulesets import load_scene
        except ImportError:
            raise UserInputError(_("{path}: scene files are not supported by this build").format(path=path)) from None
        scene = load_scene(path)
        return Path(path).parent / scene.battlefield
    return path
