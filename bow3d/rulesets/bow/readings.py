"""BOW 1.3 where the book leaves room: the readings, each a named parameter, and the revisions.

Layer: rulesets (BOW). Each reading is a parameter of a scene's `ruleset:` (bow3d.rulesets.bow.sheets.
BowParams). A scene that does not set one plays it as the game's revision says: a new game is played
with the current revision (REVISION) and its replay records it (`ruleset.revision` in the header);
a replay is re-played with the revision its header names, and a header without one was written
before the readings had names: revision 1. So a replay keeps re-playing as it was played when the
readings improve, and a scene's file keeps its meaning (it gets today's readings for a new game).

| reading (BowParams) | what it says | revision 1 | revision 2 |
|---|---|---|---|
| `range_edge` | §2.4.2: a head exactly 15, 30, 45 studs away (the liftarm's last stud) is in the lower band ('lower', the book's example: "just at the limit of the first 15 studs, so the firer will use a normal Attack") or the next ('upper') | lower | lower |
| `glass_hides` | §2.4.2 "not hidden behind something": does a transparent part (glass) hide? No: seen through, it still covers (it counts in the hidden share) | yes | no |
| `dispute_covers` | §2.4.2 optional visibility dispute: a won dispute makes the target visible; does it also cover it? The book never says so | yes | no |
| `reach` | §2.4.2 melee ("the weapon must be able to touch the target"), §2.3.2/§2.3.3 "close", §2.4.4 "in contact": 'footprints' (the gap between footprints seen from above) or 'touch' (3D, body to body, not through walls: bow3d.world.reach) | footprints | touch |
| `sector_from` | §3.6.3 "which side of the hit vehicle the moving vehicle comes from" (bow3d.sectors): at the 'contact' point, or the 'mover' (its centre when they touch) | contact | mover |
| `occupant_bodies` | §3.1, §3.5: occupants are bodies in their seats, seen, covered and reached for themselves (and covered by their vehicle); otherwise judged by their vehicle | no | yes |
| `exposed_occupants` | §3.5 "if an occupant is visible from outside": may a vehicle's occupants be attacked when its sheet does not say (`exposed_occupants` of the vehicle sheet, which wins) | yes | no |
| `weapon_seats` | §3.1 "which gunner controls which weapon", §3.4: a vehicle weapon is fired by the occupant of its seat (the weapon's `seat`; none given: the pilot's), one weapon per Attack action; otherwise by any occupant | no | yes |

The cover threshold (§2.4.2, `cover_threshold`, 25 %) and the range band (`range_band_studs`, 15)
are parameters too, the same in every revision.
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
