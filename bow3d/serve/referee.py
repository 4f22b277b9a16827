"""The referee page: a phone in one hand at the table, the figures moved where they stand, 'can A see B'.

Layer: serve. `GET /referee/{scene}` is the page (bow3d/serve/static/referee.js draws the scene's glTF
with three.js); `POST /api/referee/{scene}/los` answers a question with the JSON of `bow3d los SCENE FIRER
TARGET --json` (bow3d.world.report.sight_json: the same world, ruleset and words) plus the placed
figures' glTF poses, the ruleset's range rings and its length unit; `/poses` gives the poses alone and
`/scene` the placements written as a scene file (YAML), to save beside the scene. A placement is
[x_studs, y_studs, facing_deg] (0 = +X, 90 = +Y; design.md's frame). One World per scene, built on first
use and asked under a lock, every figure put back at its scene position or its placement before each
question. Bodies are JSON of at most MAX_BODY_BYTES, validated (pydantic); anything else gets HTTP 400
`{"type": "error", "code", "message"}` naming the field.
"""

from __future__ import annotations

import copy
import html
import json
import threading
from collections.abc import Callable
from typing import Annotated, Any, Literal

import anyio
import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from bow3d.errors import Bow3dError
from bow3d.i18n import LANGUAGES, N_, _, speaking
from bow3d.rules.table import Piece
from bow3d.rulesets import parse_scene
from bow3d.scene.model import ID_PATTERN
from bow3d.serve.catalogue import Catalogue, SceneEntry
from bow3d.serve.messages import error_frame
from bow3d.view.report.viewer_js import LOADER_JS
from bow3d.world import World
from bow3d.world.report import referee_sight, sight_json

MAX_BODY_BYTES = 64 * 1024      # a request's JSON body (a real one is under 4 kB)
MAX_PLACEMENTS = 256
STUDS_LIMIT = 100_000.0         # |x|, |y| in studs; the battlefield decides what is on it
FACING_LIMIT = 3600.0           # |facing| in degrees (kept modulo 360)
DECIMALS = 3                    # placements are kept to a thousandth of a stud and of a degree

Id = Annotated[str, Field(min_length=1, max_length=64, pattern=ID_PATTERN)]
Studs = Annotated[float, Field(strict=True, allow_inf_nan=False, ge=-STUDS_LIMIT, le=STUDS_LIMIT)]
Degrees = Annotated[float, Field(strict=True, allow_inf_nan=False, ge=-FACING_LIMIT, le=FACING_LIMIT)]
Placement = tuple[Studs, Studs, Degrees]

# the script's words (English as referee.js writes them); the page sends them in its language
WORDS = (
    N_("Firer"), N_("Target"), N_("Turn left"), N_("Turn right"), N_("Tape"), N_("Save as a scene"),
    N_("Copy the link"), N_("Link copied"), N_("Seen"), N_("Hidden by"), N_("Distance"), N_("Range"),
    N_("Front arc"), N_("in the front arc"), N_("outside the front arc"), N_("nothing in the way"),
    N_("Choose a firer and a target: tap a figure, then Firer or Target."), N_("Asking the referee..."),
    N_("Tap two points to measure."), N_("Tap a second point."), N_("{distance} studs"),
    N_("{distance} inches"), N_("Selected: {id}"), N_("Nothing selected"), N_("Put every figure back"),
    N_("The 3D view could not start: "), N_("The referee could not answer: "),
    N_("Drag a figure to move it; drag elsewhere to turn the view, pinch to zoom."),
    N_("beyond every band"), N_("Share this position"), N_("Firer's eye"),
)


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    placements: dict[Id, Placement] = Field(default_factory=dict, max_length=MAX_PLACEMENTS)
    lang: Literal["en", "fr"] | None = None


class Placements(_Body):
    """Where figures stand on the real table: id -> [x_studs, y_studs, facing_deg]; the others stand where
    the scene puts them."""


class Question(_Body):
    """'Can FIRER see TARGET' with the figures placed so."""

    firer: Id
    target: Id


class Refused(ValueError):
    """A request refused before any work: `code` says why, the text names the field."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml's writer: the same text, 4 times faster


class Bench:
    """One scene's referee: its World (built on first use) and the lock every question takes."""

    def __init__(self, entry: SceneEntry) -> None:
        self.entry = entry
        self.lock = threading.Lock()
        self._world: World | None = None
        self._data = yaml.safe_load(entry.path.read_text(encoding="utf-8-sig"))   # checked by the catalogue

    def world(self) -> World:
        """Call under `lock`."""
        if self._world is None:
            self._world = World.from_scene(self.entry.scene, self.entry.library)
        return self._world

    def figures(self) -> dict[str, Any]:
        """id -> the scene's unit or vehicle that stands on the battlefield by itself (not aboard)."""
        scene = self.entry.scene
        return {item.id: item for item in (*scene.units, *scene.vehicles) if item.position is not None}

    def check(self, placements: dict[str, tuple[float, float, float]]) -> dict[str, tuple[float, float, float]]:
        """The placements rounded and facing kept in [0, 360); Refused naming the first bad one. Call under
        `lock` (it reads the world's battlefield)."""
        figures = self.figures()
        aboard = {unit for vehicle in self.entry.scene.vehicles for unit in (vehicle.occupants or [])}
        world = self.world()
        out = {}
        for id_, (x, y, facing) in placements.items():
            if id_ not in figures:
                why = (_("{id} rides a vehicle: move the vehicle") if id_ in aboard else
                       _("no unit or vehicle {id} in this scene")).format(id=id_)
                raise Refused("unknown-unit", f"placements.{id_}: {why}")
            x, y = round(x, DECIMALS), round(y, DECIMALS)
            if not world.is_on_battlefield((x, y)):
                raise Refused("off-battlefield", f"placements.{id_}: " + _("[{x:g}, {y:g}] is off the "
                                                                           "battlefield").format(x=x, y=y))
            out[id_] = (x, y, round(facing % 360.0, DECIMALS) % 360.0)
        return out

    def place(self, placements: dict[str, tuple[float, float, float]]) -> None:
        """Every figure at its placement or its scene position (units aboard follow their vehicle)."""
        world = self.world()
        for id_, item in self.figures().items():
            x, y, facing = placements.get(id_, (*item.position, item.facing))
            if id_ in placements or world.is_on_battlefield((x, y)):
                world.place(id_, (x, y), facing)

    def scene_text(self, placements: dict[str, tuple[float, float, float]]) -> str:
        """The scene file with the figures at their placements (the file's own data, read when the bench
        was made, with new positions and facings); Refused when it is not a valid scene (two figures on one
        cell, say), so that every answer is one `bow3d los` gives on the file."""
        data = copy.deepcopy(self._data)
        for group in ("units", "vehicles"):
            for item in data.get(group) or []:
                if (p := placements.get(item.get("id"))) is not None:
                    item["position"], item["facing"] = [_number(p[0]), _number(p[1])], _number(p[2])
        text = (f"# {self.entry.path.name} with the figures where the referee page placed them: save it beside "
                f"{self.entry.path.name} (its battlefield and figures are named relative to it).\n"
                + yaml.dump(data, Dumper=DUMPER, sort_keys=False, allow_unicode=True, default_flow_style=None,
                            width=100))
        try:
            parse_scene(text, f"{self.entry.name}.yaml")
        except Bow3dError as error:
            raise Refused("bad-placement", str(error).strip().split("\n")[-1].strip()) from None
        return text

    def poses(self, placements: dict[str, tuple[float, float, float]]) -> dict[str, Any]:
        """Each figure's glTF node transform (the catalogue's placer: heights from the battlefield)."""
        scene = self.entry.scene
        pieces = []
        for item in scene.vehicles:
            x, y, facing = placements.get(item.id, (*item.position, item.facing))
            pieces.append(Piece(item.id, item.side, "vehicle", item.sheet, (x, y), facing))
            for seat, unit in enumerate(item.occupants or []):
                pieces.append(Piece(unit, scene.unit(unit).side, "unit", scene.unit(unit).sheet, None, facing,
                                    aboard=item.id, seat=seat))
        for item in scene.units:
            if item.position is not None:
                x, y, facing = placements.get(item.id, (*item.position, item.facing))
                pieces.append(Piece(item.id, item.side, "unit", item.sheet, (x, y), facing))
        return self.entry.node_poses(pieces)

    def answer(self, question: Question, lang: str) -> dict[str, Any]:
        """What `bow3d los SCENE FIRER TARGET --json` prints for the scene with these placements, with the
        figures' poses, the ruleset's range rings (out past the target) and its length unit."""
        with self.lock, speaking(lang):
            placements = self.check(question.placements)
            self.scene_text(placements)
            self.place(placements)
            world, ruleset, params = self.world(), self.entry.ruleset, self.entry.scene.ruleset
            for role, id_ in (("firer", question.firer), ("target", question.target)):
                if id_ not in world.bodies:
                    raise Refused("unknown-unit", f"{role}: " + _("no unit or vehicle {id} in this scene")
                                  .format(id=id_))
            if question.firer == question.target:
                raise Refused("same-unit", "target: " + _("{firer} cannot be its own target")
                              .format(firer=question.firer))
            try:
                report, verdict, text = referee_sight(world, ruleset, params, question.firer, question.target)
            except Bow3dError as error:
                raise Refused("cannot-see", str(error)) from None
            facts = sight_json(report, verdict, text, samples=False)
            rings = []
            for radius, words in ruleset.range_rings(params, report.distance_studs):
                rings.append([round(float(radius), 3), words])
                if radius >= report.distance_studs:
                    break
            facts.update(placements={k: list(v) for k, v in placements.items()}, poses=self.poses(placements),
                         rings=rings, length_unit=getattr(ruleset, "length_unit", "studs"))
            return facts


class Referee:
    """The referee page and its API (routes()), one Bench per scene of the catalogue."""

    def __init__(self, catalogue: Catalogue, three: Callable[[], dict]) -> None:
        self.catalogue = catalogue
        self.three = three
        self._benches: dict[str, Bench] = {}
        self._benches_lock = threading.Lock()

    def bench(self, name: Any) -> Bench | None:
        entry = self.catalogue.get(name)
        if entry is None:
            return None
        with self._benches_lock:
            found = self._benches.get(entry.name)
            if found is None:  # read once: the scene's YAML, not on every request
                found = self._benches[entry.name] = Bench(entry)
            return found

    def routes(self) -> list[BaseRoute]:
        return [Route("/referee/{scene}", self.page), Route("/api/referee/{scene}/los", self.los, methods=["POST"]),
                Route("/api/referee/{scene}/poses", self.poses, methods=["POST"]),
                Route("/api/referee/{scene}/scene", self.scene, methods=["POST"])]

    # -- the page ---------------------------------------------------------------------------------
    async def page(self, request: Request) -> Response:
        lang = _language(request)
        bench = self.bench(request.path_params["scene"])
        with speaking(lang):
            if bench is None:
                return HTMLResponse(missing_page(lang), status_code=404)
            return HTMLResponse(referee_page(bench.entry, lang, self.three()))

    # -- the API ----------------------------------------------------------------------------------
    async def los(self, request: Request) -> Response:
        return await self._serve(request, Question, lambda bench, body, lang: bench.answer(body, lang))

    async def poses(self, request: Request) -> Response:
        def work(bench: Bench, body: Any, lang: str) -> dict[str, Any]:
            with bench.lock, speaking(lang):
                placements = bench.check(body.placements)
            return {"placements": {k: list(v) for k, v in placements.items()}, "poses": bench.poses(placements)}

        return await self._serve(request, Placements, work)

    async def scene(self, request: Request) -> Response:
        def work(bench: Bench, body: Any, lang: str) -> str:
            with bench.lock, speaking(lang):
                return bench.scene_text(bench.check(body.placements))

        name = request.path_params["scene"]
        return await self._serve(request, Placements, work, lambda text: Response(
            text, media_type="application/yaml", headers={
                "content-disposition": f'attachment; filename="{name}-referee.yaml"'}))

    async def _serve(self, request: Request, model: type[_Body], work: Callable[[Bench, Any, str], Any],
                     respond: Callable[[Any], Response] = JSONResponse) -> Response:
        bench = self.bench(request.path_params["scene"])
        if bench is None:
            return JSONResponse(error_frame("no-such-scene", "no such scene"), status_code=404)
        try:
            body = model.model_validate(await _read_json(request))
        except Refused as error:
            return JSONResponse(error_frame(error.code, str(error)), status_code=400)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "body"
            return JSONResponse(error_frame("bad-request", f"{where}: {first['msg']}"), status_code=400)
        lang = body.lang or _language(request)
        try:
            result = await anyio.to_thread.run_sync(work, bench, body, lang)
        except Refused as error:
            return JSONResponse(error_frame(error.code, str(error)), status_code=400)
        return respond(result)


async def _read_json(request: Request) -> Any:
    """The body's JSON object; Refused when over MAX_BODY_BYTES, not JSON or not an object."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise Refused("too-large", f"a request body is at most {MAX_BODY_BYTES:,} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            raise Refused("too-large", f"a request body is at most {MAX_BODY_BYTES:,} bytes")
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise Refused("bad-json", "the body is not JSON") from None
    if not isinstance(data, dict):
        raise Refused("bad-json", "send a JSON object: {firer, target, placements}")
    return data


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else float(value)


def _language(request: Request) -> str:
    asked = request.query_params.get("lang")
    if asked in LANGUAGES:
        return str(asked)
    for part in request.headers.get("accept-language", "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return "en"


# --- HTML ------------------------------------------------------------------------------------------
def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _json(value: Any) -> str:
    """JSON for a <script type="application/json"> block ('</' cannot close the block)."""
    return json.dumps(value, ensure_ascii=False).replace("<", "\\u003c")


def _head(title: str, lang: str) -> str:
    return f"""<!doctype html>
<html lang="{_e(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<title>{_e(title)}</title>
<link rel="icon" href="/static/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/referee.css">
</head>"""


def referee_page(entry: SceneEntry, lang: str, three: dict[str, Any]) -> str:
    """The page of one scene (call inside bow3d.i18n.speaking(lang))."""
    languages = " ".join(f'<a href="?lang={code}" hreflang="{code}"{" aria-current=page" if code == lang else ""}>'
                         f"{_e(code.upper())}</a>" for code in LANGUAGES)
    figures = [{"id": item.id, "side": item.side, "kind": kind,
                "position": list(item.position) if item.position is not None else None, "facing": item.facing}
               for kind, items in (("unit", entry.scene.units), ("vehicle", entry.scene.vehicles)) for item in items]
    data = {"scene": entry.name, "title": entry.title, "lang": lang, "ruleset": entry.ruleset.name,
            "length_unit": getattr(entry.ruleset, "length_unit", "studs"), "figures": figures,
            "sides": entry.sides()}
    title = _("Referee: {scene}").format(scene=entry.title)
    canvas = _("the battlefield in 3D")
    return f"""{_head(title, lang)}
<body class="referee">
<header><a class="home" href="/">bow3d</a><h1>{_e(title)}</h1><nav class="languages">{languages}</nav></header>
<main>
<section class="view">
<canvas id="referee-canvas" aria-label="{_e(canvas)}"></canvas>
<p id="view-status" class="status" role="status"></p>
</section>
<section class="panel">
<div class="tools" role="toolbar">
<button type="button" id="make-firer" class="firer"></button>
<button type="button" id="make-target" class="target"></button>
<button type="button" id="turn-left" aria-label=""><span aria-hidden="true">&#x21BA;</span> 45&deg;</button>
<button type="button" id="turn-right" aria-label=""><span aria-hidden="true">&#x21BB;</span> 45&deg;</button>
<button type="button" id="tape" aria-pressed="false"></button>
<button type="button" id="eye" aria-pressed="false"></button>
</div>
<p id="selected" class="selected"></p>
<div id="verdict" class="verdict" aria-live="polite">
<p id="pair" class="pair"></p>
<p id="verdict-text" class="sentence"></p>
<dl class="facts">
<dt id="share-label"></dt><dd id="share"></dd>
<dt id="distance-label"></dt><dd id="distance"></dd>
<dt id="range-label"></dt><dd id="range"></dd>
<dt id="arc-label"></dt><dd id="arc"></dd>
</dl>
<p id="blockers-label" class="blockers-label"></p>
<ul id="blockers" class="blockers"></ul>
</div>
<p id="tape-result" class="tape-result" hidden></p>
<p id="error" class="error" role="alert" hidden></p>
<div class="actions">
<button type="button" id="save-scene"></button>
<button type="button" id="copy-link"></button>
<button type="button" id="reset"></button>
</div>
<input id="link" class="link" readonly hidden aria-label="">
<p class="hint" id="hint"></p>
</section>
</main>
<script type="application/json" id="bow3d-referee">{_json(data)}</script>
<script type="application/json" id="bow3d-three">{_json(three)}</script>
<script type="application/json" id="bow3d-words">{_json({w: _(w) for w in WORDS})}</script>
<script type="module">
{LOADER_JS}
window.bow3dLoadThree = loadThree;
</script>
<script type="module" src="/static/referee.js"></script>
</body>
</html>
"""


def missing_page(lang: str) -> str:
    words, scenes = _("No such scene on this server."), _("The scenes")
    return f"""{_head("bow3d", lang)}
<body class="referee"><main><p>{_e(words)} <a href="/">{_e(scenes)}</a></p>
</main></body></html>
"""


__all__ = ["MAX_BODY_BYTES", "Placements", "Question", "Referee", "referee_page"]
