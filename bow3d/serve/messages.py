"""What a browser may send, as pydantic models, and the error frame it gets for anything else.

Layer: serve. Every WebSocket message is one JSON object, at most MAX_MESSAGE_BYTES, validated here
before anything reads it; a connection sends at most RATE messages a second on average (BURST at
once). A bad, oversized or too frequent message gets an error frame and changes nothing: the room
goes on. No field names a file: a scene is named from the server's catalogue, a unit by its id.
"""

from __future__ import annotations

import json
import time
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from bow3d.i18n import _

MAX_MESSAGE_BYTES = 64 * 1024   # a real message is under 1 kB
RATE = 20.0                     # messages a second a connection may send on average...
BURST = 40                      # ...and at once
PROTOCOL = 1                    # the frames' version, sent in the welcome frame

Token = Annotated[str, Field(min_length=8, max_length=128, pattern=r"^[A-Za-z0-9_-]+$")]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Hello(_Message):
    """The first message: the seat's or spectator's token (never in a URL, so never in a log) and the
    language the page speaks."""

    type: Literal["hello"]
    token: Token
    lang: Literal["en", "fr"] = "en"


class Act(_Message):
    """Play choice `index` of the list sent with record count `records` (a stale list is refused)."""

    type: Literal["act"]
    index: int = Field(ge=0, le=100_000)
    records: int = Field(ge=0, le=10_000_000)


class Preview(_Message):
    """What choice `index` would do (path, odds), before committing it."""

    type: Literal["preview"]
    index: int = Field(ge=0, le=100_000)
    records: int = Field(ge=0, le=10_000_000)


class TakeBack(_Message):
    """Ask to take back the last record, or agree to the other side's asking."""

    type: Literal["take_back"]


class Ping(_Message):
    type: Literal["ping"]


Message = Annotated[Hello | Act | Preview | TakeBack | Ping, Field(discriminator="type")]
_ADAPTER: TypeAdapter[Any] = TypeAdapter(Message)


class BadMessage(ValueError):
    """A message refused before it is read: `code` says why, the text names the field."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def parse(raw: str | bytes) -> Any:
    """The message in `raw` (a text frame), or BadMessage naming what is wrong."""
    size = len(raw.encode("utf-8", "replace") if isinstance(raw, str) else raw)
    if size > MAX_MESSAGE_BYTES:
        raise BadMessage("too-large", _("message of {size:,} bytes; a message is at most {limit:,}")
                         .format(size=size, limit=MAX_MESSAGE_BYTES))
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise BadMessage("bad-json", _("not a JSON object: send one JSON object a message")) from None
    if not isinstance(data, dict):
        raise BadMessage("bad-json", _("not a JSON object: send one JSON object a message"))
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "message"
        raise BadMessage("bad-message", f"{where}: {first['msg']}") from None


def error_frame(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}


class RateLimit:
    """A token bucket: RATE a second, BURST at once. `allow()` False: drop the message (and say so once a
    second at most, so a flood gets few answers)."""

    def __init__(self, rate: float = RATE, burst: int = BURST) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.last = time.monotonic()
        self.last_said = 0.0
        self.dropped = 0

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.dropped += 1
        return False

    def say(self) -> bool:
        """Whether to send a 'too many' error frame now (once a second at most)."""
        now = time.monotonic()
        if now - self.last_said >= 1.0:
            self.last_said = now
            return True
        return False
