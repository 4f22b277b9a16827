"""BOW 1.3 where the book leaves room: the readings, each a named parameter, and the revisions.

Layer: rulesets (BOW). Each reading is a parameter of a scene's `ruleset:` (bow3d.rulesets.bow.sheets.
BowParams). A scene that does not set one plays it as the game's revision says: a new game is played
with the current revision (REVISION) and its replay records it (`ruleset.revision` in the header);
a replay is re-played with the revision its header names, and a header without one was written
before the readings had names: revision 1. So a replay keeps re-playing as it was played when the
readings improve, and a scene's file keeps its meaning (it gets today's readings for a new game).

Also cites BOW 1.3 §2.4.2, §2.3.2, §2.3.3, §2.4.4, §3.6.3, §3.1, §3.5, §3.4. More:
docs/modules/rulesets-bow.md#readings.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from bow3d.i18n import _

REVISION = 2
REVISIONS = (1, 2)


@dataclass(frozen=True)
class Readings:
    """The readings a game is played with (module docstring): the scene's, else its revision's."""

    range_edge: str = "lower"
    glass_hides: bool = False
    dispute_covers: bool = False
    reach: str = "touch"
    sector_from: str = "mover"
    occupant_bodies: bool = True
    exposed_occupants: bool = False
    weapon_seats: bool = True


BY_REVISION = {
    1: Readings(range_edge="lower", glass_hides=True, dispute_covers=True, reach="footprints", sector_from="contact",
                occupant_bodies=False, exposed_occupants=True, weapon_seats=False),
    2: Readings(),
}
NAMES = tuple(f.name for f in fields(Readings))


def readings(params: Any, revision: int | None = None) -> Readings:
    """The readings of a game: every one the scene's `ruleset:` sets, the others its revision's
    (None: the current REVISION)."""
    revision = REVISION if revision is None else int(revision)
    if revision not in BY_REVISION:
        from bow3d.errors import RulesError

        raise RulesError(_("BOW has revisions {value} of its readings, not {revision!r}")
                         .format(value=', '.join(map(str, REVISIONS)), revision=revision))
    base = BY_REVISION[revision]
    given = {name: getattr(params, name, None) for name in NAMES}
    return Readings(**{name: (value if value is not None else getattr(base, name)) for name, value in given.items()})
