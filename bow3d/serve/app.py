"""The ASGI application: pages, the scenes' glTF, three.js, the rooms' WebSockets (Starlette).

Layer: serve. `Server` holds the catalogue, the store and the live rooms; `create_app(server)` gives
the Starlette app that uvicorn runs (bow3d.commands.serve). The rooms' blocking work (the rules, the
world's rays) runs in worker threads, one call at a time per room; the event loop only moves frames.
A seat's token comes in the WebSocket's first message (or a request's JSON), never in a URL: the
pages keep it in the address's #fragment, which browsers never send, so no log ever holds one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from bow3d.errors import Bow3dError
from bow3d.i18n import LANGUAGES, _, speaking
from bow3d.serve import pages
from bow3d.serve.catalogue import Catalogue
from bow3d.serve.messages import (
    MAX_MESSAGE_BYTES,
    PROTOCOL,
    RATE,
    Act,
    BadMessage,
    Hello,
    Ping,
    Preview,
    RateLimit,
    TakeBack,
    error_frame,
    parse,
)
from bow3d.serve.room import Refused, Room, players_of
from bow3d.serve.store import ROOM_ID, SPECTATOR, Store

log = logging.getLogger("bow3d.serve")
MAX_BODY_BYTES = 64 * 1024       # a request's JSON body
MAX_ROUNDS_ALLOWED = 100
HELLO_SECONDS = 10.0             # a WebSocket that has not said hello with a token by then is closed
SEND_SECONDS = 5.0               # a connection that takes longer to take a frame is closed (it holds up no room)
MAX_CONNECTIONS_PER_ROOM = 64
MAX_LIVE_ROOMS = 256             # rooms in memory (each with its 3D world); finished, unwatched ones go first
CREATE_RATE, CREATE_BURST = 5.0, 60  # rooms created a second on average, and at once (the whole server)


@dataclass(eq=False)  # one per socket, kept in sets by identity
class Connection:
    websocket: WebSocket
    role: str
    lang: str
    last: Any = None                    # the last state frame sent (frames are kept per state, role and language)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class Server:
    """The rooms of one server: created, opened (re-played from their replays after a restart), driven
    (throws and AI seats played as they come) and watched (each change sent to every connection)."""

    def __init__(self, catalogue: Catalogue, store: Store, data_dir: Path, *, ai_delay: float = 0.4,
                 three: Any = None, referee: Any = None) -> None:
        self.catalogue, self.store, self.data_dir = catalogue, store, Path(data_dir)
        self.ai_delay = ai_delay
        self.three = three                  # bow3d.view.report.three.ModuleGraph: served at /three/
        self.referee = referee              # bow3d.serve.referee.Referee, when the referee page is served
        self.rooms: dict[str, Room] = {}
        self.connections: dict[str, set[Connection]] = {}
        self._opening: dict[str, asyncio.Lock] = {}
        self.refused: dict[str, str] = {}   # room -> why it cannot be opened here (its scene changed...)
        self._drivers: dict[str, asyncio.Task] = {}
        self._limiters: dict[str, anyio.CapacityLimiter] = {}  # one worker thread at a time a room
        self._creating = RateLimit(CREATE_RATE, CREATE_BURST)
        (self.data_dir / "rooms").mkdir(parents=True, exist_ok=True)

    # -- rooms -------------------------------------------------------------------------------
    async def create_room(self, scene: Any, seats: dict[str, str], seed: int | None, max_rounds: int,
                          lang: str = "en") -> tuple[str, dict[str, str]]:
        entry = self.catalogue.get(scene)
        if entry is None:
            raise Refused("no-such-scene", _("no scene {scene!r} here; the scenes: {value}")
                          .format(scene=str(scene)[:80], value=", ".join(self.catalogue.entries)))
        with speaking(lang):
            players = players_of(entry, seats)
        if not 1 <= max_rounds <= MAX_ROUNDS_ALLOWED:
            raise Refused("bad-rounds", _("max_rounds {value}: give 1 to {limit}").format(value=max_rounds,
                                                                                         limit=MAX_ROUNDS_ALLOWED))
        if not self._creating.allow():
            raise Refused("too-many", _("too many rooms created at once: try again in a moment"))
        self.unload_finished()
        if len(self.rooms) >= MAX_LIVE_ROOMS:
            raise Refused("full", _("this server plays {n} games at once already: try again later")
                          .format(n=len(self.rooms)))
        if seed is None:
            import secrets

            seed = secrets.randbelow(2**31)
        row, tokens = await anyio.to_thread.run_sync(
            lambda: self.store.create_room(entry.name, str(entry.path), seed, max_rounds, players,
                                           "rooms/{room}.bowreplay"))
        room = await self.room(row.id)
        assert room is not None
        self.drive(room)
        return row.id, tokens

    async def room(self, room_id: str) -> Room | None:
        """The live room, opened (its game re-played from its replay) on first use; None if no such room."""
        if not isinstance(room_id, str) or not ROOM_ID.match(room_id):
            return None
        if room_id in self.rooms:
            return self.rooms[room_id]
        lock = self._opening.setdefault(room_id, asyncio.Lock())
        async with lock:
            if room_id in self.rooms:
                return self.rooms[room_id]
            row = await anyio.to_thread.run_sync(self.store.room, room_id)
            if row is None:
                return None
            entry = self.catalogue.by_path(row.scene_path) or self.catalogue.get(row.scene)
            if entry is None:
                log.warning("room %s: its scene %s is not served now; start the server with it", room_id, row.scene)
                return None
            try:
                room = await anyio.to_thread.run_sync(Room.open, row, entry, self.data_dir)
            except Bow3dError as error:  # its replay cannot go on here: said once, in the log and to who asks
                self.refused[room_id] = str(error)
                log.warning("room %s cannot be opened: %s", room_id, error)
                return None
            self.rooms[room_id] = room
            self._opening.pop(room_id, None)
            return room

    def limiter(self, room: Room) -> anyio.CapacityLimiter:
        """The room's one worker thread: its calls wait for each other, never for other rooms' threads."""
        found = self._limiters.get(room.row.id)
        if found is None:
            found = self._limiters[room.row.id] = anyio.CapacityLimiter(1)
        return found

    async def call(self, room: Room, function: Any, *args: Any) -> Any:
        return await anyio.to_thread.run_sync(function, *args, limiter=self.limiter(room))

    def unload_finished(self) -> None:
        """Forget the finished games nobody watches (their replays keep them: they re-open on demand)."""
        for room_id, room in list(self.rooms.items()):
            task = self._drivers.get(room_id)
            if room.game.is_over and not self.connections.get(room_id) and (task is None or task.done()):
                room.close()
                del self.rooms[room_id]
                self._limiters.pop(room_id, None)
                self._drivers.pop(room_id, None)

    async def resume_all(self) -> None:
        """Open every room with a game to go on (after a restart) and let its throws and AI seats play."""
        try:
            rows = await anyio.to_thread.run_sync(self.store.rooms)
        except Exception:  # a damaged database: said, and the server serves what it can
            log.exception("the rooms cannot be read from %s", self.store.path)
            return
        for row in rows:
            try:
                if await anyio.to_thread.run_sync(_finished, self.data_dir / row.replay):
                    continue  # opened when someone asks for it
                room = await self.room(row.id)
            except Exception:  # one room's damage stops no other room
                log.exception("room %s cannot be resumed", row.id)
                continue
            if room is not None and room.ai_to_play():
                self.drive(room)

    def drive(self, room: Room) -> None:
        """Play the room's throws and AI seats until a human must act (a task; one per room)."""
        task = self._drivers.get(room.row.id)
        if task is not None and not task.done():
            return
        self._drivers[room.row.id] = asyncio.get_running_loop().create_task(self._drive(room))

    async def _drive(self, room: Room) -> None:
        try:
            while True:
                while await self.call(room, room.step):
                    await self.broadcast(room)
                    if self.ai_delay:
                        await asyncio.sleep(self.ai_delay)
                await self.broadcast(room)
                if not room.ai_to_play():  # a human's record may have come during the broadcast
                    break
        except Exception:  # a room's failure is logged; the server and other rooms go on
            log.exception("room %s stopped playing", room.row.id)

    async def broadcast(self, room: Room) -> None:
        for connection in list(self.connections.get(room.row.id, ())):
            await self.send_state(room, connection)

    async def send_state(self, room: Room, connection: Connection, force: bool = False) -> None:
        async with connection.lock:
            frame = await self.call(room, room.frame, connection.role, connection.lang)
            if not force and frame is connection.last:
                return
            with anyio.move_on_after(SEND_SECONDS) as waited, contextlib.suppress(Exception):
                await connection.websocket.send_text(json.dumps(frame, ensure_ascii=False))
                connection.last = frame
            if waited.cancelled_caught:  # a peer that does not read holds up no room: it is let go
                self.connections.get(room.row.id, set()).discard(connection)
                with contextlib.suppress(Exception):
                    await connection.websocket.close(code=1013)

    async def close(self) -> None:
        for task in self._drivers.values():
            task.cancel()
        for room in self.rooms.values():
            room.close()


# --- HTTP ------------------------------------------------------------------------------------------
def language(request: Request) -> str:
    asked = request.query_params.get("lang")
    if asked in LANGUAGES:
        return str(asked)
    accept = request.headers.get("accept-language", "")
    for part in accept.split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return "en"


async def read_json(request: Request) -> Any:
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            raise Refused("too-large", _("a request body is at most {limit:,} bytes").format(limit=MAX_BODY_BYTES))
    try:
        return json.loads(body)
    except (ValueError, RecursionError):
        raise Refused("bad-json", _("the body is not JSON")) from None


def refused(error: Refused, status: int = 400) -> JSONResponse:
    return JSONResponse(error_frame(error.code, str(error)), status_code=status)


def create_app(server: Server) -> Starlette:
    async def lobby(request: Request) -> Response:
        lang = language(request)
        with speaking(lang):
            return HTMLResponse(pages.lobby_page(server.catalogue.summaries(), lang, server.referee is not None))

    async def scenes(request: Request) -> Response:
        return JSONResponse(server.catalogue.summaries())

    async def create(request: Request) -> Response:
        with speaking(language(request)):
            return await _create(request)

    async def _create(request: Request) -> Response:
        try:
            data = await read_json(request)
            if not isinstance(data, dict):
                raise Refused("bad-json", _("send a JSON object: {value}").format(value="{scene, seats, seed, max_rounds}"))
            seats = data.get("seats", {})
            seed = data.get("seed")
            max_rounds = data.get("max_rounds", 30)
            if not isinstance(seats, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                      for k, v in seats.items()):
                raise Refused("bad-seat", _("seats: give {value}").format(value="{side: 'human' | opponent}"))
            if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**31):
                raise Refused("bad-seed", _("seed: give a whole number from 0 to {limit}").format(limit=2**31 - 1))
            if not isinstance(max_rounds, int) or isinstance(max_rounds, bool):
                raise Refused("bad-rounds", _("max_rounds: give a whole number"))
            lang = language(request)
            room_id, tokens = await server.create_room(data.get("scene"), seats, seed, max_rounds, lang)
        except Refused as error:
            return refused(error)
        links = {role: f"/room/{room_id}#{token}" for role, token in tokens.items()}
        return JSONResponse({"room": room_id, "links": links}, status_code=201)

    async def room_info(request: Request) -> Response:
        room = await server.room(request.path_params["room"])
        if room is None:
            why = server.refused.get(request.path_params["room"])
            if why is not None:
                return JSONResponse(error_frame("cannot-open", why), status_code=409)
            return JSONResponse(error_frame("no-such-room", "no such room"), status_code=404)
        return JSONResponse({"room": room.row.id, "scene": room.entry.name, "records": room.records,
                             "over": room.game.is_over, "players": room.row.players,
                             "winner": room.game.winner})

    async def room_replay(request: Request) -> Response:
        room = await server.room(request.path_params["room"])
        if room is None:
            return JSONResponse(error_frame("no-such-room", "no such room"), status_code=404)
        data = await anyio.to_thread.run_sync(room.replay.read_bytes)
        return Response(data, media_type="application/x-ndjson", headers={
            "content-disposition": f'attachment; filename="{room.entry.name}-{room.row.id}.bowreplay"'})

    async def room_page(request: Request) -> Response:
        lang = language(request)
        room = await server.room(request.path_params["room"])
        if room is None:
            with speaking(lang):
                return HTMLResponse(pages.missing_page(lang), status_code=404)
        with speaking(lang):
            return HTMLResponse(pages.room_page(room.row.id, room.entry.title, lang, three_spec(server)))

    async def scene_glb(request: Request) -> Response:
        entry = server.catalogue.get(request.path_params["scene"])
        if entry is None:
            return JSONResponse(error_frame("no-such-scene", "no such scene"), status_code=404)
        data = await anyio.to_thread.run_sync(entry.glb)
        return Response(data, media_type="model/gltf-binary", headers={"cache-control": "max-age=3600"})

    async def three_file(request: Request) -> Response:
        path = request.path_params["path"]
        graph = server.three
        module = None if graph is None or not graph.inline else next((m for m in graph.modules if m.path == path), None)
        if module is None:
            return Response("not found", status_code=404)
        return Response(module.source, media_type="text/javascript", headers={"cache-control": "max-age=86400"})

    async def static(request: Request) -> Response:
        found = pages.static_file(request.path_params["name"])
        if found is None:
            return Response("not found", status_code=404)
        text, media = found
        return Response(text, media_type=media)

    async def room_socket(websocket: WebSocket) -> None:
        await websocket.accept()
        room = await server.room(websocket.path_params["room"])
        if room is None:
            await websocket.send_json(error_frame("no-such-room", _("No such room on this server.")))
            await websocket.close(code=4404)
            return
        connection = await _hello(websocket, room)
        if connection is None:
            return
        watching = server.connections.setdefault(room.row.id, set())
        if len(watching) >= MAX_CONNECTIONS_PER_ROOM:
            with speaking(connection.lang):
                words = _("this room has {n} connections already: close a tab").format(n=len(watching))
            await websocket.send_json(error_frame("room-full", words))
            await websocket.close(code=1013)
            return
        watching.add(connection)
        try:
            await websocket.send_json({"type": "welcome", "protocol": PROTOCOL, "room": room.row.id,
                                       "role": connection.role})
            await server.send_state(room, connection, force=True)
            server.drive(room)  # a room re-opened on its AI's turn plays on
            await _serve(websocket, room, connection)
        except WebSocketDisconnect:
            pass
        finally:
            server.connections.get(room.row.id, set()).discard(connection)

    async def _hello(websocket: WebSocket, room: Room) -> Connection | None:
        limit = RateLimit()
        deadline = anyio.current_time() + HELLO_SECONDS  # for the whole hello, not each message
        while True:
            try:
                with anyio.fail_after(max(0.0, deadline - anyio.current_time())):
                    raw = await websocket.receive_text()
            except (TimeoutError, WebSocketDisconnect, KeyError):
                with contextlib.suppress(Exception):
                    await websocket.close(code=4408)
                return None
            if not limit.allow():
                continue
            try:
                message = parse(raw)
            except BadMessage as error:
                await websocket.send_json(error_frame(error.code, str(error)))
                continue
            if not isinstance(message, Hello):
                await websocket.send_json(error_frame("hello-first", _("say hello with your link's token first")))
                continue
            role = await anyio.to_thread.run_sync(server.store.role, room.row.id, message.token)
            if role is None:
                with speaking(message.lang):
                    words = _("This link is not a seat of this room: open the link you were given.")
                await websocket.send_json(error_frame("bad-token", words))
                continue
            return Connection(websocket, role, message.lang)

    async def _serve(websocket: WebSocket, room: Room, connection: Connection) -> None:
        limit = RateLimit()
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                raise WebSocketDisconnect(message.get("code", 1000))
            raw = message.get("text")
            if raw is None:  # a binary frame
                await websocket.send_json(error_frame("bad-message", _("send JSON in text frames")))
                continue
            with speaking(connection.lang):  # the error frames below in the page's language
                await _answer(websocket, room, connection, limit, raw)

    async def _answer(websocket: WebSocket, room: Room, connection: Connection, limit: RateLimit, raw: str) -> None:
        """One message of a seat or spectator: acted on, or refused with an error frame."""
        if not limit.allow():
            if limit.say():
                words = _("too many messages: slow down (at most {n} a second)").format(n=int(RATE))
                await websocket.send_json(error_frame("too-many", words))
            return
        try:
            message = parse(raw)
            if connection.role == SPECTATOR and isinstance(message, Act | Preview | TakeBack):
                raise Refused("spectator", _("a spectator watches: only a seat's link can act"))
            if isinstance(message, Act):
                await server.call(room, spoken(connection.lang, room.act), connection.role, message.index,
                                  message.records)
                await server.broadcast(room)
                server.drive(room)
            elif isinstance(message, Preview):
                def preview(m: Preview = message) -> dict[str, Any]:
                    return room.preview(connection.role, m.index, m.records, connection.lang)

                await websocket.send_json(await server.call(room, preview))
            elif isinstance(message, TakeBack):
                outcome = await server.call(room, spoken(connection.lang, room.take_back), connection.role)
                await websocket.send_json({"type": "take_back", "outcome": outcome})
                for other in list(server.connections.get(room.row.id, ())):
                    await server.send_state(room, other, force=True)
            elif isinstance(message, Ping):
                await websocket.send_json({"type": "pong", "records": room.records})
            elif isinstance(message, Hello):
                await websocket.send_json(error_frame("hello-again", _("already said hello")))
        except BadMessage as error:
            await websocket.send_json(error_frame(error.code, str(error)))
        except Refused as error:
            await websocket.send_json(error_frame(error.code, str(error)))

    routes = [
        Route("/", lobby),
        Route("/api/scenes", scenes),
        Route("/api/rooms", create, methods=["POST"]),
        Route("/api/rooms/{room}", room_info),
        Route("/api/rooms/{room}/replay", room_replay),
        Route("/room/{room}", room_page),
        Route("/scene/{scene}.glb", scene_glb),
        Route("/three/{path:path}", three_file),
        Route("/static/{name}", static),
        WebSocketRoute("/ws/{room}", room_socket),
    ]
    if server.referee is not None:
        routes += server.referee.routes()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        task = asyncio.get_running_loop().create_task(server.resume_all())
        try:
            yield
        finally:
            task.cancel()
            await server.close()

    return Starlette(routes=routes, lifespan=lifespan)


def _finished(path: Path) -> bool:
    """Does the replay hold a finished game (its end line)? A missing or damaged one is not finished."""
    from bow3d.replay.format import read_replay

    try:
        return read_replay(path).end is not None
    except Bow3dError:
        return False


def spoken(lang: str, function: Any) -> Any:
    """`function` called in `lang` (a worker thread does not inherit the language of the connection)."""
    def call(*args: Any) -> Any:
        with speaking(lang):
            return function(*args)
    return call


def three_spec(server: Server) -> dict[str, Any]:
    """The module graph the page loads three.js with: from this server (the copy installed beside it,
    each file's hash pinned) when there is one, else from the CDN (pinned, with integrity hashes)."""
    from bow3d.view.report.three import cdn_graph

    graph = server.three
    if graph is None:
        return cdn_graph().spec()
    spec = graph.spec()
    spec["mode"], spec["base"] = "cdn", "/three/"
    for module in spec["modules"]:
        module.pop("source", None)
    return spec


__all__ = ["MAX_MESSAGE_BYTES", "SPECTATOR", "Server", "create_app"]
