"""`bow3d setup SCENE|BATTLEFIELD.ldr [-o OUT.yaml]`: set up armies on a battlefield and save a scene file."""

from __future__ import annotations

import argparse
import math
import shlex
from pathlib import Path

from bow3d.errors import UserInputError
from bow3d.i18n import _

NAME = "setup"
ORDER = 36
HELP = "set up armies on a battlefield: place, turn and remove units, points against a budget, save a scene"
DESCRIPTION = """Open a window on a scene (or on a bare LDraw battlefield with the sheets of another scene) to
set up the armies: click a cell to place a unit of the chosen sheet for the chosen side (it faces the
middle of the table), click a unit to choose it, click a cell to move it there, , and . turn it 45
degrees, X or Delete takes it off, Ctrl+Z takes back the last of these steps, 1-9 picks the sheet,
S the side, Ctrl+S saves, Ctrl+Q quits. Units are not placed on roofs or wall tops (a cell more than
two bricks above the ground around it).
Each side's deployment zone is drawn in its colour (BOW 1.3 names none: bow3d draws the third of the
table each army stands nearest); the army list gives each side's units and points (the ruleset's
cost points, BOW Annex A.4) against --budget, and counts units outside their zone.

The scene is saved to -o (default: the scene itself, or BATTLEFIELD.yaml beside the .ldr), its
battlefield and models named relative to it. An existing file is replaced only when you press Ctrl+S
a second time; without a window, only with --force (else exit 2).

Without a display, --offscreen-script FILE sets up from a text file of commands, one a line:
  side ID | sheet NAME | place I J | choose ID | move I J | turn DEG | remove | undo | save | screenshot PNG
(the same handlers as the mouse and keys; # starts a comment), then stops.

examples:
  bow3d setup scenes/village.yaml -o my-village.yaml --budget 200
  bow3d setup scenes/village.ldr --sheets scenes/village.yaml -o skirmish.yaml
  bow3d setup scenes/village.yaml --offscreen-script scenes/village-setup.txt -o village-setup.yaml --budget 250"""

COMMANDS = {"side": 1, "sheet": 1, "place": 2, "choose": 1, "move": 2, "turn": 1, "remove": 0, "undo": 0,
            "save": 0, "screenshot": 1}
MAX_SCRIPT_NUMBER = 100_000  # degrees or cells: more is a slip, and nan or inf would reach the window
MAX_SCRIPT_BYTES = 4 * 1024 * 1024  # about 200,000 lines: a set-up of any table, not a file that fills memory


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a scene file (.yaml), or an LDraw battlefield (.ldr, .mpd) to set up anew")
    parser.add_argument("-o", "--output", metavar="OUT.yaml", help="the scene file to save (default: the scene "
                        "itself, or BATTLEFIELD.yaml beside the battlefield)")
    parser.add_argument("--sheets", metavar="SCENE", help="with a battlefield: the scene whose ruleset, sides, "
                        "sheets and unit models to use (default: the bundled village)")
    parser.add_argument("--budget", type=int, metavar="POINTS", help="each army's points budget (shown against "
                        "its cost)")
    parser.add_argument("--offscreen-script", metavar="FILE", help="no window: set up from the commands of FILE")
    parser.add_argument("--force", action="store_true", help="replace -o if it exists without asking")
    parser.add_argument("--size", default="1280x720", metavar="WxH", help="window size (default 1280x720)")
    parser.add_argument("--library", metavar="DIR", help="LDraw library folder (default: $LDRAWDIR, else the "
                        "bundled starter library)")


def parse_setup_script(text: str, source: str) -> list[tuple[int, str, tuple[str, ...]]]:
    """(line, command, args) of a set-up script; UserInputError naming the file and line for a bad one."""
    steps = []
    for number, raw in enumerate(text.splitlines(), start=1):
        try:
            words = shlex.split(raw, comments=True)
        except ValueError as error:
            raise UserInputError(_("{source}:{line}: {error} in {text!r}; close the quote").format(
                source=source, line=number, error=error, text=raw.strip())) from None
        if not words:
            continue
        command, args = words[0].lower(), tuple(words[1:])
        if command not in COMMANDS:
            raise UserInputError(_("{source}:{line}: unknown command {command!r} (known: {known})").format(
                source=source, line=number, command=command, known=", ".join(COMMANDS)))
        if len(args) != COMMANDS[command]:
            raise UserInputError(_("{source}:{line}: {command} takes {count} argument(s), got {got}").format(
                source=source, line=number, command=command, count=COMMANDS[command], got=len(args)))
        try:
            numbers = [int(a) for a in args] if command in ("place", "move") else [float(a) for a in args] \
                if command == "turn" else []
        except ValueError:
            raise UserInputError(_("{source}:{line}: {command} needs numbers, got {got}").format(
                source=source, line=number, command=command, got=" ".join(args))) from None
        if not all(math.isfinite(n) and abs(n) <= MAX_SCRIPT_NUMBER for n in numbers):
            raise UserInputError(_("{source}:{line}: {command} needs finite numbers of at most {most:,}, got "
                                   "{got}; write plain numbers of degrees or cells").format(
                source=source, line=number, command=command, most=MAX_SCRIPT_NUMBER, got=" ".join(args)[:40]))
        steps.append((number, command, args))
    return steps


def run_script(ui, steps, source: str) -> None:
    """Call the set-up UI's handlers as the script says."""
    for line, command, a in steps:
        where = f"{source}:{line}"
        if command == "side":
            try:
                ui.on_side(a[0])
            except UserInputError as refused:   # the window's own refusal, with the script's line
                raise UserInputError(f"{where}: {refused}") from None
        elif command == "sheet":
            if a[0] not in ui.sheets:
                raise UserInputError(_("{where}: no sheet {sheet!r} (sheets: {sheets})").format(
                    where=where, sheet=a[0], sheets=", ".join(ui.sheets)))
            ui.on_sheet(ui.sheets.index(a[0]) + 1)
        elif command in ("place", "move"):
            if (command == "place") == (ui.selected is not None):
                ui.on_click_unit(None if command == "place" else ui.selected)
            if ui.on_click_cell((int(a[0]), int(a[1]))) is None:
                raise UserInputError(f"{where}: {command} {a[0]} {a[1]}: {ui.hud.lines.prompt}")  # the prompt is in words already
        elif command == "choose":
            if a[0] not in {u.id for u in ui.scene.units}:
                raise UserInputError(_("{where}: no unit {unit!r} on the battlefield (vehicles are not set up here)").format(
                    where=where, unit=a[0]))
            ui.selected = None
            ui.on_click_unit(a[0])
        elif command == "turn":
            ui.on_turn(float(a[0]))
        elif command == "remove":
            ui.on_remove()
        elif command == "undo":
            ui.on_undo()
        elif command == "save":
            ui.on_save()
        else:
            shot = Path(a[0])
            if shot.exists() or shot.suffix.lower() != ".png":
                raise UserInputError(_("{where}: screenshot {file}: give a new .png file name").format(where=where, file=a[0]))
            ui.viewer.screenshot(str(shot))


def _scene_to_set_up(args: argparse.Namespace):
    """The scene to edit, the file it saves to, and the units whose models new units wear."""
    from bow3d.bundled import demo_scene
    from bow3d.commands.render import is_scene
    from bow3d.rulesets import load_scene

    source = Path(args.file)
    if not source.is_file():
        raise UserInputError(_("{source}: no such file").format(source=source))
    if is_scene(source):
        if args.sheets:
            raise UserInputError(_("--sheets goes with a bare battlefield (.ldr); a scene brings its own sheets"))
        scene = load_scene(source)
        return scene, Path(args.output) if args.output else source, list(scene.units)
    template = load_scene(args.sheets or demo_scene())
    scene = template.model_copy(deep=True)
    scene.path = template.path  # the template's models are named relative to it until saved
    scene.name = source.stem
    scene.battlefield = str(source.resolve())
    scene.units, scene.vehicles, scene.doors = [], [], []
    return scene, Path(args.output) if args.output else source.with_suffix(".yaml"), list(template.units)


def run(args: argparse.Namespace) -> int:
    from bow3d.commands.render import parse_size
    from bow3d.ldraw import Library
    from bow3d.ldraw.files import read_capped

    scene, out, looks = _scene_to_set_up(args)
    if out.suffix.lower() not in (".yaml", ".yml"):
        raise UserInputError(_("{out}: -o must name a .yaml scene file").format(out=out))
    steps = None
    if args.offscreen_script:
        path = Path(args.offscreen_script)
        if not path.is_file():
            raise UserInputError(_("{path}: no such set-up script").format(path=path))
        try:
            text = read_capped(path, MAX_SCRIPT_BYTES, _("a set-up script")).decode("utf-8")
        except UnicodeDecodeError as error:
            raise UserInputError(_("{path}: not UTF-8 text ({reason} at byte {start}); save the set-up script as "
                                   "UTF-8").format(path=path, reason=error.reason, start=error.start)) from None
        steps = parse_setup_script(text, str(path))
    from bow3d.view.apps.setup_ui import SetupUI
    from bow3d.view.apps.viewer import open_base

    base = open_base(offscreen=steps is not None, size=parse_size(args.size), title=f"bow3d setup - {out.name}")
    try:
        ui = SetupUI(base, scene, out, budget=args.budget, library=Library.from_env(args.library), force=args.force,
                     ask=steps is None, looks=looks)
        if steps is None:
            base.run()
            return 0
        run_script(ui, steps, str(args.offscreen_script))
        for line in ui.army_lines():
            print(line.strip())
        if ui.saved is not None:
            print(f"saved {ui.saved}")
        return 0
    finally:
        if steps is not None:
            base.destroy()
