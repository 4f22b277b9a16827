"""`bow3d view FILE`: the interactive 3D viewer (a window; orbit, pan and zoom; units, sheets, sight)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from bow3d.commands.render import is_scene, parse_los, parse_size, unit_pair
from bow3d.errors import UserInputError
from bow3d.i18n import _
from bow3d.ldraw import Library, Model, load_model
from bow3d.view.camera.choices import QUALITIES

if TYPE_CHECKING:
    from bow3d.scene import Scene

NAME = "view"
ORDER = 30
HELP = "open a 3D window on a scene (units, sheets, line of sight) or an LDraw model"
DESCRIPTION = """Open a window on a scene or a model: left drag orbits, right drag pans, the wheel zooms.
On a scene, click a unit to select it (a ring lights up, its description sheet appears as a
LEGO plate in the corner), then click another unit: the line of sight from the first to the
second is drawn (green rays seen, red rays hidden, blocking parts in orange, range bands
every 15 studs, the firer's front arc) and the referee's verdict is written at the top.
Keys: arrows orbit, W/A/S/D pan, +/- zoom, 1-7 named views, F frames everything,
E toggles edge lines, Q cycles the quality, C clears the selection, H hides the help, Esc quits.
On a scene, T lays a measuring tape: drag from a unit or a point to another (the tape follows the
pointer), or click both ends, for the 3D distance in the ruleset's unit and the range band it falls
in; units are measured from their heads, a point at a standing minifig's head height (G: on the
ground). --tape A:B starts with the tape laid between two units.
Without a display, --screenshot PNG opens offscreen, saves one frame and quits.

examples:
  bow3d view scenes/village.yaml
  bow3d view scenes/village.yaml --screenshot shot.png --los blue-rifle-2:red-pistol
  bow3d view scenes/village.yaml --screenshot sheet.png --select blue-rifle-2 --camera unit:blue-rifle-2
  bow3d view scenes/village.yaml --screenshot tape.png --tape blue-rifle-2:red-pistol
  bow3d view scenes/western-town.ldr --quality full --edges"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a scene file (.yaml) or an LDraw file (.ldr, .mpd, .dat)")
    parser.add_argument("--size", default="1280x720", metavar="WxH", help="window size (default 1280x720)")
    parser.add_argument("--quality", default="default", choices=QUALITIES, help="level of detail")
    parser.add_argument("--edges", action="store_true", help="draw LDraw edge lines")
    parser.add_argument("--antialias", action="store_true", help="4x multisampling: smoother edges, but on "
                        "software OpenGL (no graphics card) each frame takes several times as long")
    parser.add_argument("--library", metavar="DIR", help="LDraw library folder (default: $LDRAWDIR, else the "
                        "bundled starter library)")
    parser.add_argument("--screenshot", metavar="PNG", help="open offscreen, save one frame to PNG and quit "
                        "(for scripts and machines without a display)")
    parser.add_argument("--force", action="store_true", help="with --screenshot: overwrite the PNG if it exists")
    parser.add_argument("--camera", metavar="SPEC", help="start the camera at unit:ID (over the shoulder) or "
                        "X,Y,Z:TX,TY,TZ in studs")
    parser.add_argument("--select", metavar="UNIT", help="scenes: start with this unit selected (its sheet shown)")
    parser.add_argument("--los", metavar="FIRER:TARGET", help="scenes: start showing this line of sight")
    parser.add_argument("--tape", metavar="A:B", help="scenes: start with the measuring tape laid from unit A's "
                        "head to unit B's")


def run(args: argparse.Namespace) -> int:
    source = Path(args.file)
    size = parse_size(args.size)
    library = Library.from_env(args.library)
    if args.screenshot:
        shot = Path(args.screenshot)
        if shot.suffix.lower() != ".png":
            raise UserInputError(_("{shot}: the screenshot must be a .png file").format(shot=shot))
        if not shot.parent.exists():
            raise UserInputError(_("{shot}: the folder {parent} does not exist").format(shot=shot, parent=shot.parent))
        if shot.exists() and not args.force:
            raise UserInputError(_("{shot} already exists; choose another name or add --force to "
                                   "replace it").format(shot=shot))
    subject: Scene | Model
    if is_scene(source):
        from bow3d.rulesets import load_scene

        subject = load_scene(source)
        los = parse_los(args.los, subject) if args.los else None
        tape = parse_tape(args.tape, subject) if args.tape else None
        if args.select and args.select not in {u.id for u in subject.units} | {v.id for v in subject.vehicles}:
            raise UserInputError(_("--select {select}: no such unit or vehicle in {name}")
                                 .format(select=args.select, name=source.name))
    else:
        if args.select or args.los or args.tape:
            raise UserInputError(_("{source}: --select, --los and --tape need a scene file (.yaml)")
                                 .format(source=source))
        subject, los, tape = load_model(source, library), None, None
    from bow3d.view.apps.viewer import Viewer, open_base
    from bow3d.view.camera.camera_options import parse_camera
    from bow3d.view.output.offscreen import MULTISAMPLES

    camera = parse_camera(args.camera) if args.camera else None
    base = open_base(offscreen=bool(args.screenshot), size=size, title=f"bow3d - {source.name}",
                     multisamples=MULTISAMPLES if args.antialias else 0)
    try:
        viewer = Viewer(base, subject, args.quality, args.edges, library=library)
        if args.select:
            viewer.on_click_unit(args.select)
        if los:
            viewer.on_clear()
            viewer.on_click_unit(los[0])
            viewer.on_click_unit(los[1])
            print(viewer.verdict_text.getText())
        if tape:
            print(viewer.lay_tape(*tape).words)
        if camera is not None:
            viewer.look_from(camera, los[1] if los else None)
        if viewer.aids is not None:
            viewer.aids.update()  # the tape's label beside the tape, as the camera now sees it
        if args.screenshot:
            viewer.screenshot(args.screenshot)
            print(f"wrote {args.screenshot}")
            return 0
        base.run()
        return 0
    finally:
        if args.screenshot:
            base.destroy()


def parse_tape(text: str, scene) -> tuple[str, str]:
    """'blue-rifle-2:red-pistol' -> the two units (or vehicles) of the scene the tape runs between."""
    return unit_pair(text, scene, _("--tape {text!r}: write A:B with two different unit ids, e.g. "
                                    "--tape blue-rifle-2:red-pistol"),
                     _("--tape {text!r}: no unit or vehicle {id!r} in the scene (known: {value})"))
