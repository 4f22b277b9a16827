"""`bow3d report REPLAY -o battle.html`: a battle report anyone can open, with a 3D view of the game."""

from __future__ import annotations

import argparse

from bow3d.commands.replay import add_allow_library
from bow3d.i18n import _, current, decimal, integer
from bow3d.view.camera.choices import QUALITIES
from bow3d.view.report.three import THREE_VERSION

NAME = "report"
ORDER = 46
HELP = "write a battle report of a replay: one HTML page with the log, the armies, pictures and a 3D view"
DESCRIPTION = """Write one self-contained HTML page of a replay (or a .bowpack) that opens from a
file, with no server:
- the result, and what `bow3d replay verify` says of the replay (a report is only made of a replay
  that verifies);
- an interactive 3D view of the battlefield (three.js loading the battle's glTF, as `bow3d export`
  writes it): drag to turn, wheel to zoom, a slider that moves the armies round by round, a play
  button that runs the film's time line;
- pictures of the key moments, shot from the film (the deaths, the end);
- the armies (units, sheets, points) and the battle log by round: every verdict and every throw in
  the words of the ruleset's narrator.

three.js is not part of bow3d: by default the page loads three.js """ + THREE_VERSION + """ from the jsDelivr
CDN, each module checked against its pinned sha384 (the page then needs the internet for its 3D
view); --offline carries three.js inside the page, read from a copy of three """ + THREE_VERSION + """ installed
with npm (npm's global one, `npm install -g three@""" + THREE_VERSION + """`, or the folder given after --offline;
never a node_modules found above the working folder), each file checked against its pinned sha384,
so the page works with no network at all (about 2.4 MB more).

examples:
  bow3d report replays/village-seed1.bowreplay -o village.html
  bow3d report village.bowpack -o battle.html --offline      # a pack from bow3d replay pack
  bow3d report replays/western-town-seed1.bowreplay -o western.html --no-pictures"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="REPLAY", help="a replay (.bowreplay) or a pack (.bowpack)")
    parser.add_argument("-o", "--output", required=True, metavar="OUT.html", help="the page to write")
    parser.add_argument("--offline", nargs="?", const=True, default=None, metavar="DIR",
                        help="carry three.js inside the page (npm's global three, or the one in the folder DIR; "
                        "each file checked against its pinned hash)")
    parser.add_argument("--no-pictures", action="store_true", help="leave out the pictures of key moments")
    parser.add_argument("--quality", default="default", choices=QUALITIES,
                        help="level of detail of the 3D view (default: default, low-poly studs; as bow3d export)")
    parser.add_argument("--scene", metavar="SCENE.yaml", help="the replay's scene, when it is not where the header says")
    parser.add_argument("--language", default=None, help="the narrator's and the page's language (default: the "
                        "language spoken, as --lang)")
    parser.add_argument("--force", action="store_true", help="overwrite the output if it exists")
    add_allow_library(parser)


def run(args: argparse.Namespace) -> int:
    from bow3d.view.report import write_report

    stats = write_report(args.file, args.output, offline=args.offline, pictures=not args.no_pictures,
                         scene=args.scene, force=args.force, language=args.language or current(),
                         quality=args.quality, allow_library=args.allow_library)
    three = (_("three.js {version} inside the page") if stats.three == "inline"
             else _("three.js {version} from the CDN")).format(version=stats.three_version)
    print(_("wrote {path}: {size} kB ({glb} kB of glTF, {pictures} pictures, {three}) in {seconds} s").format(
        path=stats.path, size=integer(round(stats.bytes / 1024)), glb=integer(round(stats.glb_bytes / 1024)),
        pictures=stats.pictures, three=three, seconds=decimal(stats.seconds)))
    for note in stats.notes:
        print(_("note: {note}").format(note=note))
    return 0
