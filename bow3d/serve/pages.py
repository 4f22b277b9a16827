"""The server's pages (HTML) and their scripts (bow3d/serve/static), in the language asked for.

Layer: serve (text only). A page carries its words as JSON (`bow3d-words`: English -> the language
spoken), so the scripts say everything in the page's language; the battle log and the choices' words
come from the server already worded (the ruleset's narrator and presentation).
"""

from __future__ import annotations

import html
import json
from importlib import resources
from typing import Any

from bow3d.i18n import LANGUAGES, N_, _
from bow3d.view.report.viewer_js import LOADER_JS

STATIC = {"icon.svg": "image/svg+xml", "room.js": "text/javascript", "lobby.js": "text/javascript", "serve.css": "text/css",
          "referee.js": "text/javascript", "referee.css": "text/css"}

# the scripts' words (English as the scripts write them); each page sends them in its language
WORDS = (
    N_("Connecting..."), N_("Connected"), N_("Connection lost: reconnecting..."), N_("Your turn"),
    N_("Waiting for {side}"), N_("The AI plays {side}"), N_("You watch this game"), N_("You play {side}"),
    N_("Round {round}"), N_("Commit"), N_("Cancel"), N_("Take back"), N_("Agree to take back"),
    N_("{side} asks to take back the last record"), N_("Battle log"), N_("Choices"), N_("Pieces"),
    N_("Chance of success: {percent}"), N_("Invite links"), N_("Copy"), N_("Copied"),
    N_("Download the replay"), N_("Create the room"), N_("human"), N_("seed (empty: any)"),
    N_("rounds at most"), N_("Play this link yourself"), N_("Send this link to your opponent"),
    N_("Spectators (read only)"), N_("Referee a line of sight"), N_("Rooms"), N_("The 3D view could not start: "),
    N_("Drag to turn, pinch or wheel to zoom."), N_("End the turn"), N_("no unit"), N_("dead"),
    N_("This link is not a seat of this room: open the link you were given."),
    N_("Keep these links: a seat's link is the only key to it."), N_("Open the seat"), N_("AI: {name}"),
    N_("{n} moves: tap a lit cell on the battlefield, or choose here"),
)


def words(lang: str) -> dict[str, str]:
    """The scripts' words in the language spoken now (call inside bow3d.i18n.speaking)."""
    return {w: _(w) for w in WORDS}


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _json(value: Any) -> str:
    """JSON for a <script type="application/json"> block (no '<': neither '</script' nor '<!--' can end it)."""
    return json.dumps(value, ensure_ascii=False).replace("<", "\\u003c")


def _page(title: str, lang: str, body: str, data: dict[str, Any], script: str, module: str = "") -> str:
    blocks = "\n".join(f'<script type="application/json" id="{_e(k)}">{_json(v)}</script>' for k, v in data.items())
    languages = " ".join(f'<a href="?lang={code}" hreflang="{code}"{" aria-current=page" if code == lang else ""}>'
                         f"{_e(name)}</a>" for code, name in LANGUAGES.items())
    return f"""<!doctype html>
<html lang="{_e(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<title>{_e(title)}</title>
<link rel="icon" href="/static/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/serve.css">
</head>
<body>
<header><a class="home" href="/">bow3d</a> <span class="title">{_e(title)}</span>
<nav class="languages">{languages}</nav></header>
{body}
{blocks}
<script type="application/json" id="bow3d-words">{_json(words(lang))}</script>
{module}
<script type="module" src="/static/{_e(script)}"></script>
</body>
</html>
"""


def lobby_page(scenes: list[dict[str, Any]], lang: str, referee: bool) -> str:
    """The front page: every scene served, a form to create a room of it, the referee's links."""
    heading = _("Play a scene with a friend, or referee a line of sight")
    hint = _("Create a room: each side gets a link; send one to your opponent, keep yours. Anyone with the "
             "spectators' link watches.")
    body = f"""<main class="lobby">
<h1>{_e(heading)}</h1>
<p class="hint">{_e(hint)}</p>
<div id="scenes"></div>
<section id="created" hidden></section>
</main>"""
    return _page(_("bow3d: rooms"), lang, body, {"bow3d-scenes": scenes, "bow3d-referee": referee}, "lobby.js")


def room_page(room: str, title: str, lang: str, three: dict[str, Any]) -> str:
    """A room's page: the battlefield in 3D, what the game awaits, the choices of the seat, the log."""
    canvas, log, replay = _("the battlefield in 3D"), _("Battle log"), _("Download the replay")
    body = f"""<main class="room">
<section class="view"><canvas id="battle-canvas" aria-label="{_e(canvas)}"></canvas>
<p id="view-status" class="status"></p></section>
<section class="panel">
<p id="who" class="who"></p>
<p id="turn" class="turn" role="status" aria-live="polite"></p>
<p id="error" class="error" role="alert" hidden></p>
<div id="take-back" class="take-back" hidden></div>
<div id="preview" class="preview" hidden></div>
<div id="units" class="units"></div>
<div id="choices" class="choices"></div>
<details id="log-box" open><summary>{_e(log)}</summary><ol id="log" class="log"></ol></details>
<p class="links"><a id="replay-link" href="/api/rooms/{_e(room)}/replay">{_e(replay)}</a></p>
</section>
</main>"""
    loader = f'<script type="module">\n{LOADER_JS}\nwindow.bow3dLoadThree = loadThree;\n</script>'
    return _page(f"{title}: bow3d", lang, body, {"bow3d-room": {"room": room, "lang": lang}, "bow3d-three": three},
                 "room.js", module=loader)


def missing_page(lang: str) -> str:
    words = _("No such room on this server.")
    return _page("bow3d", lang, f"<main><p>{_e(words)}</p></main>", {}, "lobby.js")


def static_file(name: str) -> tuple[str, str] | None:
    """(text, media type) of a script or style sheet of the pages; None for any other name."""
    media = STATIC.get(name)
    if media is None:
        return None
    try:
        return resources.files("bow3d.serve").joinpath("static", name).read_text(encoding="utf-8"), media
    except (FileNotFoundError, OSError):
        return None
