"""`bow3d serve [SCENE ...]`: the browser's bow3d: rooms to play a friend, spectators, the phone referee."""

from __future__ import annotations

import argparse
import contextlib
import socket
from pathlib import Path

from bow3d.errors import UserInputError
from bow3d.i18n import _

NAME = "serve"
ORDER = 50
HELP = "serve rooms and the referee page to browsers: play a friend over the network, settle a line of sight from a phone"
DESCRIPTION = """Start a web server that any phone, tablet or computer opens in its browser (nothing to
install there):
- the front page lists the scenes served; create a room of one (each side played by a person or by one
  of the ruleset's AIs) and get one link a seat and one for spectators: keep yours, send the other to
  your opponent. A seat's link is its only key (an unguessable token after '#', which browsers never
  send in a request, so it is in no log); spectators only watch.
- a room's page shows the battlefield in 3D, what the game awaits, your choices with their odds (a
  choice that aims is previewed: Commit plays it), the battle log, and a take-back when both players
  agree (games between people only; a throw stands);
- the referee page of a scene (/referee/NAME): drag the figures to where they stand on the real table
  and ask 'can A see B': the same verdict as 'bow3d los'.

Every room's game is its replay (ROOMS/ID.bowreplay beside the database), written record by record:
a server stopped at any moment, even killed, goes on from the last record when started again, and
every game verifies with 'bow3d replay verify' (the page links its replay).

It listens on 127.0.0.1 (this computer only) unless told: to let phones on your network in, give
--host 0.0.0.0 and open http://THIS-COMPUTER'S-ADDRESS:PORT/ on them (the address is printed). Rooms,
seats and tokens are kept in SQLite (--db, default in bow3d's data folder, $BOW3D_DATA_DIR to move it).
three.js comes from a copy installed beside the server (npm install -g three@0.187.0; --three DIR),
each file's hash checked, so the pages need no internet; without one they load it from the jsDelivr CDN.

examples:
  bow3d serve
  bow3d serve scenes/village.yaml scenes/western-town.yaml --port 8765
  bow3d serve --host 0.0.0.0 --db games.sqlite"""

DEFAULT_SCENES = ("village.yaml", "war-of-bros.yaml", "western-town.yaml", "los-gallery.yaml")
DEFAULT_PORT = 8765
WS_MAX_BYTES = 16 * 1024 * 1024   # frames above this are closed by the protocol; above 64 kB they get an error frame


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("scenes", nargs="*", metavar="SCENE", help="scene files to offer (default: the bundled "
                        "village, War of Bros field, Western town and line-of-sight gallery)")
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this "
                        "computer only; 0.0.0.0: every network it is on)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"the port (default {DEFAULT_PORT}; 0: any "
                        "free one)")
    parser.add_argument("--db", metavar="FILE", help="the SQLite database of rooms, seats and tokens (default: "
                        "serve/bow3d.sqlite in bow3d's data folder); the rooms' replays go in rooms/ beside it")
    parser.add_argument("--library", metavar="DIR", help="LDraw library folder (default: $LDRAWDIR, else the "
                        "bundled starter library)")
    parser.add_argument("--three", metavar="DIR", help="the folder of three.js 0.187.0 to serve (default: npm's "
                        "global one when installed, else the pages load it from the CDN)")
    parser.add_argument("--ai-delay", type=float, default=0.4, metavar="SECONDS", help="pause after each AI record "
                        "so that people can follow (default 0.4)")
    parser.add_argument("--check", action="store_true", help="start, ask the front page and the scenes once, "
                        "print what was served, and stop (for scripts)")


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)  # asyncio sets TCP_NODELAY on such sockets only
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        raise UserInputError(_("--host {host} --port {port}: cannot listen there ({value}); choose another "
                               "--port (0: any free one)").format(host=host, port=port,
                                                                 value=error.strerror or error)) from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def lan_address() -> str | None:
    """This computer's address on its network (the one a phone on the same Wi-Fi opens), if any."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("10.254.254.254", 1))  # no packet is sent: this only picks the outgoing interface
        address = probe.getsockname()[0]
        return None if address.startswith("127.") else address
    return None


def _three(folder: str | None):
    """The local three.js module graph to serve, or None (the pages then use the CDN)."""
    from bow3d.view.report.three import find_three, local_graph

    try:
        return local_graph(find_three(folder))
    except UserInputError:
        if folder is not None:
            raise
        return None


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from bow3d.bundled import scenes_dir
    from bow3d.ldraw import Library
    from bow3d.ldraw.userlib import data_dir
    from bow3d.serve.app import Server, create_app, three_spec
    from bow3d.serve.catalogue import Catalogue
    from bow3d.serve.referee import Referee
    from bow3d.serve.store import Store

    if not 0 <= args.port <= 65535:
        raise UserInputError(_("--port {port}: give 0 to 65535").format(port=args.port))
    if not 0 <= args.ai_delay <= 60:
        raise UserInputError(_("--ai-delay {value}: give 0 to 60 seconds").format(value=args.ai_delay))
    paths = [Path(p) for p in args.scenes] or [scenes_dir() / name for name in DEFAULT_SCENES]
    library = Library.from_env(args.library)
    catalogue = Catalogue(paths, library)
    db = Path(args.db) if args.db else data_dir() / "serve" / "bow3d.sqlite"
    if db.exists() and not db.is_file():
        raise UserInputError(_("--db {db}: not a file").format(db=db))
    try:
        db.parent.mkdir(parents=True, exist_ok=True)
        store = Store(db)
    except (OSError, Exception) as error:  # noqa: BLE001 (sqlite3 and the file system: one line, exit 2)
        raise UserInputError(_("--db {db}: cannot be opened as bow3d's database ({value})")
                             .format(db=db, value=error)) from None
    server = Server(catalogue, store, db.parent, ai_delay=args.ai_delay, three=_three(args.three))
    server.referee = Referee(catalogue, lambda: three_spec(server))
    sock = _bind(args.host, args.port)
    host, port = sock.getsockname()[:2]
    url = f"http://{'localhost' if host in ('127.0.0.1', '::1') else host}:{port}/"
    print(_("bow3d serve: {n} scene(s), rooms in {db}").format(n=len(catalogue.entries), db=db))
    print(_("open {url} in a browser").format(url=url))
    if args.host in ("127.0.0.1", "localhost", "::1"):
        print(_("(this computer only; to let phones on your network in: bow3d serve --host 0.0.0.0)"))
    else:
        lan = lan_address()
        if lan is not None:
            print(_("on a phone on the same network: http://{lan}:{port}/").format(lan=lan, port=port))
    print(_("three.js: {where}").format(where=_("served from {folder}").format(folder=server.three.folder)
                                         if server.three is not None else _("from the jsDelivr CDN (pages need the internet)")))
    config = uvicorn.Config(create_app(server), log_level="warning" if args.check else "info",
                            ws_max_size=WS_MAX_BYTES, lifespan="on")
    userver = uvicorn.Server(config)
    if args.check:
        return _check(userver, sock, url, catalogue)
    userver.run(sockets=[sock])
    return 0


def _check(userver, sock: socket.socket, url: str, catalogue) -> int:
    """Serve in a thread, ask the front page and each scene's glTF, stop."""
    import threading
    import time
    import urllib.request

    thread = threading.Thread(target=userver.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not userver.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        with urllib.request.urlopen(url, timeout=30) as answer:
            page = answer.read()
        sizes = []
        for name in catalogue.entries:
            with urllib.request.urlopen(f"{url}scene/{name}.glb", timeout=120) as answer:
                sizes.append(f"{name} ({len(answer.read()) / 1e6:.1f} MB)")
        scripts = []
        for name in ("room.js", "referee.js", "lobby.js", "serve.css"):
            with urllib.request.urlopen(f"{url}static/{name}", timeout=30) as answer:
                scripts.append(f"{name} ({len(answer.read()):,} bytes)")
    finally:
        userver.should_exit = True
        thread.join(timeout=30)
    print(_("checked: the front page ({n:,} bytes), the scenes' glTF: {value}").format(n=len(page), value=", ".join(sizes)))
    print(_("the pages' scripts: {value}").format(value=", ".join(scripts)))
    return 0
