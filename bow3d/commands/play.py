"""`bow3d play SCENE`: play BOW in 3D, hot-seat or against the AI; the game is written as a replay."""

from __future__ import annotations

import argparse
import datetime
import shlex
from dataclasses import dataclass
from pathlib import Path

from bow3d.commands.render import is_scene, parse_size
from bow3d.errors import UserInputError
from bow3d.i18n import _
from bow3d.ldraw import Library
from bow3d.paths import free_path
from bow3d.view.camera.choices import QUALITIES

NAME = "play"
ORDER = 35
HELP = "play a scene in 3D, hot-seat or against the AI (the game is saved as a replay)"
DESCRIPTION = """Play a scene of any ruleset ('bow3d rulesets' lists them: BOW 1.3, War of Bros, Blaze of Glory)
in a 3D window. Hot-seat by default (the players share the mouse);
--vs-ai SIDE lets the AI play that side; --vs-ai SIDE:NAME picks one of the ruleset's opponents
(BOW: greedy, ai or strong; see 'bow3d arena'). Every action and brick roll is written to a replay
file as it happens (never overwriting one); watch it with 'bow3d replay FILE'.

Mouse: left click one of your units (its reachable cells light up, its description sheet
appears), then a lit cell to move there, or an enemy to aim (the odds and the line of sight
are shown before anything happens), Enter commits, Esc cancels. Left drag orbits, right
drag pans, the wheel zooms.
Keys: 1-9 the listed actions (the answers to a question of the rules too), N chooses your next
unit, Space ends the unit's turn (BOW: a marking brick goes beside it; War of Bros: its step), the
ruleset's own keys (BOW: [ and ] change a piloted vehicle's speed, , and . turn it 45 degrees, M
drives: the compulsory move; the window's help line lists them), Ctrl+Z takes back the last record in a hot-seat game (a throw stands), Ctrl+Q quits (the
replay keeps the game so far), T lays a measuring tape (drag from a unit or a point to another, or
click both ends: the distance in the ruleset's unit and its range band; G measures a point on the
ground instead of at a standing minifig's head height). Resting the pointer on a cell rings the enemies that would
see a minifig there; a chosen melee unit rings in magenta the enemies it reaches now and frames in
magenta the cells from which a charge would reach one. A move is previewed too: click a lit cell (it is marked), then
Enter or the same cell again commits, Esc cancels.

--resume FILE.bowreplay goes on with a game stopped before its end: its records are played again
(the seeded throws and the AI's choices come out as recorded) into a new replay (--replay, default
FILE-resumed.bowreplay here), which holds the whole game; the sides are played as the file says. Brick rolls are thrown for you: the
bricks tumble onto the tray (Bullet physics) and land as recorded.

Without a display, --offscreen-script FILE plays from a text file of commands, one a line:
  click-unit ID | click-cell I J | click X Y (pixels) | drag X1 Y1 X2 Y2 (pixels: the left button pressed,
  moved, released) | key N | next-unit (N) | confirm | cancel | undo | end-turn | press K (a ruleset's key)
  speed +1|-1 | turn DEG | drive | screenshot PNG | # comments
  tape A B (the measuring tape, T: each end a unit ID or a cell I,J) | tape-mode (T) | heads (G) | hover I J (who sees that cell)
  camera X,Y,Z:TX,TY,TZ (studs) or unit:ID (as bow3d view --camera)
(the same handlers as the mouse and keys), then stops; the replay holds the game so far.

examples:
  bow3d play scenes/village.yaml
  bow3d play scenes/village.yaml --vs-ai red --seed 42
  bow3d play scenes/village.yaml --vs-ai red:strong
  bow3d play scenes/western-town.yaml --vs-ai law
  bow3d play scenes/village.yaml --offscreen-script scenes/village-moves.txt --replay test.bowreplay
  bow3d play scenes/village.yaml --offscreen-script scenes/village-measure.txt --replay measure.bowreplay
  bow3d play --resume test.bowreplay --offscreen-script scenes/village-moves-2.txt --replay test-2.bowreplay"""

COMMANDS = {"click-unit": 1, "click-cell": 2, "click": 2, "key": 1, "confirm": 0, "cancel": 0, "end-turn": 0,
            "undo": 0, "speed": 1, "turn": 1, "drive": 0, "screenshot": 1, "tape": 2, "hover": 2, "camera": 1,
            "drag": 4, "heads": 0, "tape-mode": 0, "next-unit": 0, "press": 1}


@dataclass(frozen=True)
class ScriptLine:
    """One command of an offscreen play script: its line number, name and arguments."""

    line: int
    command: str
    args: tuple[str, ...]


def parse_play_script(text: str, source: str = "<script>") -> list[ScriptLine]:
    """The commands of a play script; UserInputError naming the file and line for a bad one."""
    lines = []
    for number, raw in enumerate(text.splitlines(), start=1):
        try:
            words = shlex.split(raw, comments=True)
        except ValueError as error:  # an unclosed quote
            raise UserInputError(_("{source}:{number}: {error} in {value!r}; close the quote")
                                 .format(source=source, number=number, error=error, value=raw.strip())) from None
        if not words:
            continue
        command, args = words[0].lower(), tuple(words[1:])
        if command not in COMMANDS:
            raise UserInputError(_("{source}:{number}: unknown command {command!r} (known: {value})")
                                 .format(source=source, number=number, command=command, value=', '.join(COMMANDS)))
        if len(args) != COMMANDS[command]:
            raise UserInputError(_("{source}:{number}: {command} takes {value} argument(s), got "
                                   "{value2}")
                                 .format(source=source, number=number, command=command, value=COMMANDS[command], value2=len(args)))
        numeric = {"click-cell": int, "click": float, "drag": float, "key": int, "speed": int, "turn": float,
                   "hover": int}.get(command)
        if numeric is not None:
            try:
                [numeric(a) for a in args]
            except ValueError:
                raise UserInputError(_("{source}:{number}: {command} needs numbers, got {value}")
                                     .format(source=source, number=number, command=command, value=' '.join(args))) from None
        lines.append(ScriptLine(number, command, args))
    return lines


def _tape_end(ui, word: str, where: str):
    """A tape end of a script: a unit or vehicle id, or a cell 'I,J' (its centre on the ground)."""
    if word in ui.nodes.pieces:
        return word
    try:
        i, j = (int(v) for v in word.split(","))
    except ValueError:
        raise UserInputError(f"{where}: tape {word}: give a unit id or a cell as I,J") from None
    x, y = (i + 0.5) * 20.0, (j + 0.5) * 20.0
    return (x, y, float(ui.nodes.ground.heights([[x, y]])[0]))


DRAG_STEPS = 8  # pointer moves between a script drag's press and release


def drag(viewer, x1: float, y1: float, x2: float, y2: float) -> None:
    """A left drag from pixel (x1, y1) to (x2, y2): pressed, moved in DRAG_STEPS, released (the window's
    mouse handlers: a tape in tape mode, else the camera orbits)."""
    viewer.on_left_press(x1, y1)
    for k in range(1, DRAG_STEPS + 1):
        viewer.on_pointer_move(x1 + (x2 - x1) * k / DRAG_STEPS, y1 + (y2 - y1) * k / DRAG_STEPS)
    viewer.on_left_release(x2, y2)


def run_script(ui, script: list[ScriptLine], source: str) -> None:
    """Call the play UI's handlers as the script says."""
    for step in script:
        a = step.args
        if step.command == "click-unit":
            if a[0] not in ui.nodes.pieces:
                raise UserInputError(_("{source}:{line}: no unit or vehicle {value!r} in the scene")
                                     .format(source=source, line=step.line, value=a[0]))
            ui.on_click_unit(a[0])
        elif step.command == "click-cell":
            ui.on_click_cell((int(a[0]), int(a[1])))
        elif step.command == "click":
            ui.on_mouse_click(float(a[0]), float(a[1]))
        elif step.command == "drag":
            drag(ui.viewer, *(float(v) for v in a))
        elif step.command == "key":
            ui.on_key(int(a[0]))
        elif step.command == "press":
            ui.on_ruleset_key(a[0])
        elif step.command == "speed":
            ui.on_speed(int(a[0]))
        elif step.command == "turn":
            ui.on_turn(float(a[0]))
        elif step.command == "tape":
            ui.aids.clear_tape()
            for end in a:
                ui.on_tape_end(_tape_end(ui, end, f"{source}:{step.line}"))
        elif step.command == "camera":
            from bow3d.view.camera.camera_options import parse_camera

            ui.viewer.look_from(parse_camera(a[0]))
            ui.aids.update()
        elif step.command == "hover":
            ui.on_hover_cell((int(a[0]), int(a[1])))
        elif step.command == "screenshot":
            ui.settle()
            if Path(a[0]).exists() or Path(a[0]).suffix.lower() != ".png":
                raise UserInputError(_("{source}:{line}: screenshot {value}: give a new .png file name "
                                       "(bow3d never overwrites a picture from a script)")
                                     .format(source=source, line=step.line, value=a[0]))
            ui.viewer.screenshot(a[0])
        else:
            getattr(ui, {"confirm": "on_confirm", "cancel": "on_cancel", "end-turn": "on_end_turn",
                         "drive": "on_drive", "undo": "on_undo", "heads": "on_tape_heads",
                         "tape-mode": "on_tape_mode", "next-unit": "on_next_unit"}[step.command])()
        ui.settle()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("scene", nargs="?", help="the scene file (.yaml); with --resume, the replay's")
    parser.add_argument("--vs-ai", action="append", default=[], metavar="SIDE[:NAME]",
                        help="the AI plays this side (repeat for several; all sides: the AI plays itself); "
                        "NAME picks the opponent: greedy, ai (default) or strong, e.g. red:strong")
    parser.add_argument("--replay", metavar="FILE", help="where the replay goes (default: a new "
                        "SCENE-YYYYmmdd-HHMMSS.bowreplay in the current folder; never overwritten)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the brick rolls and the AI (default: "
                        "from the clock; recorded in the replay)")
    parser.add_argument("--max-rounds", type=int, default=30, metavar="N", help="end the game after N rounds "
                        "(default 30)")
    parser.add_argument("--size", default="1280x720", metavar="WxH", help="window size (default 1280x720)")
    parser.add_argument("--quality", default="default", choices=QUALITIES, help="level of detail")
    parser.add_argument("--library", metavar="DIR", help="LDraw library folder (default: $LDRAWDIR, else the "
                        "bundled starter library)")
    parser.add_argument("--resume", metavar="FILE.bowreplay", help="go on with the game of this replay (stopped "
                        "before its end), into a new replay")
    parser.add_argument("--offscreen-script", metavar="FILE", help="no window: play the commands of FILE "
                        "(see above) offscreen, then stop")


def run(args: argparse.Namespace) -> int:
    from bow3d.rulesets import load_scene

    resumed = _resumed(args) if args.resume else None
    if resumed is None and not args.scene:
        raise UserInputError(_("bow3d play needs a scene file (.yaml), or --resume FILE.bowreplay"))
    source = resumed.scene_path() if resumed is not None else Path(args.scene)
    if not is_scene(source):
        raise UserInputError(_("{source}: bow3d play needs a scene file (.yaml); see 'bow3d scene "
                               "--help'").format(source=source))
    scene = resumed.scene() if resumed is not None else load_scene(source)
    sides = [side.id for side in scene.sides]
    from bow3d.replay.opponents import check_opponents

    chosen = {}
    for item in args.vs_ai:
        side, _unused, name = item.partition(":")
        if side not in sides:
            raise UserInputError(_("--vs-ai {item}: no such side in {name} (sides: {value})")
                                 .format(item=item, name=source.name, value=', '.join(sides)))
        chosen[side] = name or "ai"
    check_opponents(scene, chosen, "--vs-ai {side}:{name}")
    if args.max_rounds < 1:
        raise UserInputError(_("--max-rounds {max_rounds}: give at least 1").format(max_rounds=args.max_rounds))
    script = None
    if args.offscreen_script:
        path = Path(args.offscreen_script)
        if not path.is_file():
            raise UserInputError(_("{path}: no such play script").format(path=path))
        script = parse_play_script(path.read_text(encoding="utf-8"), str(path))
    default = free_path(".", f"{Path(args.resume).stem}-resumed", ".bowreplay") if resumed is not None else None
    replay = Path(args.replay) if args.replay else default or _free_replay_name(source)
    if replay.exists():
        raise UserInputError(_("{replay} exists already; bow3d never overwrites a replay: choose "
                               "another name").format(replay=replay))
    if not replay.parent.exists():
        raise UserInputError(_("{replay}: the folder {parent} does not exist")
                             .format(replay=replay, parent=replay.parent))
    seed = args.seed if args.seed is not None else int(datetime.datetime.now().timestamp()) % 2**31
    players = {side: chosen.get(side, "human") for side in sides}
    library = Library.from_env(args.library)
    records = None
    if resumed is not None:  # the game as it was set up: its seed, players, round limit and library
        header = resumed.header
        seed, players, args.max_rounds = header.seed, dict(header.players), header.max_rounds
        library = Library.from_env(args.library) if args.library else resumed.library()
        records = [entry.record for entry in resumed.entries]
    size = parse_size(args.size)
    from bow3d.view.apps.play_ui import PlayUI
    from bow3d.view.apps.viewer import open_base
    from bow3d.view.output.offscreen import RenderUnavailable

    try:
        base = open_base(offscreen=script is not None, size=size, title=f"bow3d play - {source.name}")
    except RenderUnavailable as error:
        raise RenderUnavailable(_("{value}; without a display, play from a script with "
                                  "--offscreen-script FILE, or let the AI play: bow3d simulate")
                                .format(value=str(error).split('. Without')[0].rstrip('.'))) from None
    ui = None
    try:
        ui = PlayUI(base, scene, replay, players=players, seed=seed, library=library,
                    quality=args.quality, animate=script is None, max_rounds=args.max_rounds, resume=records)
        if script is not None:
            run_script(ui, script, str(args.offscreen_script))
        else:
            base.run()
        state = ui.game.state
        outcome = ((_("game over, {side} wins").format(side=ui.game.winner) if ui.game.winner else
                    _("game over, no one wins")) if ui.game.is_over else
                   _("stopped in round {round}").format(round=state.round))
        print(_("{outcome}; {n} records written to {replay} (seed {seed})").format(
            outcome=outcome, n=len(ui.game.records), replay=replay, seed=seed))
        return 0
    finally:
        if ui is not None:
            ui.close()
        if script is not None:
            base.destroy()


def _resumed(args: argparse.Namespace):
    """The replay to resume (bow3d.replay.opened.OpenReplay), refused with one line when it cannot go on."""
    from bow3d.replay.opened import open_replay

    path = Path(args.resume)
    if not path.is_file():
        raise UserInputError(_("--resume {path}: no such replay file").format(path=path))
    opened = open_replay(path)
    if opened.replay.end is not None:
        raise UserInputError(_("--resume {path}: that game is over; watch it with 'bow3d replay {path}'")
                             .format(path=path))
    if opened.header.chance.mode != "seeded":
        raise UserInputError(_("--resume {path}: its throws were not made by bow3d's seeded generator, "
                               "so the game cannot go on from it").format(path=path))
    if args.vs_ai or args.seed is not None:
        raise UserInputError(_("--resume plays on with the replay's own seed and players: leave out "
                               "--vs-ai and --seed"))
    return opened


def _free_replay_name(scene: Path) -> Path:
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    return free_path(".", f"{scene.stem}-{stamp}", ".bowreplay")
