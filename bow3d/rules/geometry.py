"""The geometric questions the rules ask (contract C2), as structural protocols: facts, no verdicts.

Layer: rules (the engine). The rules never import bow3d.world; `bow3d.world.World` implements these
protocols structurally (it does not import this module), and so does the flat test double
`bow3d.rules.flat.FlatGeometry`. Units: studs on the stud grid, degrees for facings
(0 = world +X, 90 = world +Y, counter-clockwise from above). Ids are the scene's unit and
vehicle ids. A unit aboard a vehicle is not on the field: the rules ask about its vehicle
instead (they pass the vehicle id), or, when occupants are bodies of their own (a ruleset's reading),
seat them (`seat`) and ask about them by their own ids.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

Cell = tuple[int, int]
"""A stud-grid cell (i, j): the 1x1-stud square [i, i+1) x [j, j+1), centre (i + 0.5, j + 0.5)."""


@runtime_checkable
class SightReport(Protocol):
    """What the rules read from a line-of-sight report (the world's report has more)."""

    visible: bool            # some of the target seen from the firer's eye with nothing in the way
    visible_fraction: float  # the share of the target, as seen from the eye, that nothing hides
    # (optional) transparent_fraction: float, the share seen only through transparent parts (glass)
    distance_studs: float    # head to head, 3D, studs
    in_front_arc: bool       # target centre in the firer's front half space (180 degrees)
    blockers: tuple          # what hides the target: each with kind, share, material (may be empty)


@runtime_checkable
class Contact(Protocol):
    """The first thing a straight vehicle move (or a turn on the spot) runs into."""

    kind: str                # 'decor' | 'unit' | 'vehicle' | 'ground' (flying vehicle) | 'edge' (left the battlefield)
    other: str | None        # id of the unit or vehicle hit
    distance_studs: float    # travelled before the contact
    sector: str | None       # 'front' | 'side' | 'back' of the hit vehicle holding the mover's centre (bow3d.sectors)
    # (optional) contact_sector: str | None, the same at the contact point


@runtime_checkable
class Geometry(Protocol):
    """Spatial queries on the battlefield; the rules keep it in step with place/remove."""

    def sight(self, firer: str, target: str) -> SightReport:
        """What the firer's eye sees of the target (facts; the ruleset judges cover from them)."""
        ...

    def distance_studs(self, a: str, b: str) -> float:
        """Head to head, 3D, in studs."""
        ...

    def in_front_arc(self, viewer: str, target: str, arc_deg: float = 180.0) -> bool:
        """Whether the target's centre is within the viewer's arc centred on its facing."""
        ...

    def within_reach(self, attacker: str, target: str, reach_studs: float) -> bool:
        """Footprints within `reach_studs` of each other, seen from above (melee reach, an older reading)."""
        ...

    def is_close(self, a: str, b: str) -> bool:
        """Footprints within 1 stud, seen from above: the hands can touch (an older reading)."""
        ...

    def touch_gap_studs(self, a: str, b: str) -> float:
        """How far a hand or a weapon of `a` must reach to touch `b`: body to body, in 3D, along a line
        no wall cuts; inf when walls stand between them (reach and "close")."""
        ...

    def seat(self, unit: str, vehicle: str, seat: int) -> None:
        """A unit aboard a vehicle, as a body in seat `seat` (0 = the first), moving with it; `place`
        stands it on the ground again, `remove` takes it away."""
        ...

    def reachable_cells(self, unit: str, move_studs: int) -> dict[Cell, int]:
        """Cell -> steps (8-connected, diagonal = 1) around obstacles; own cell -> 0."""
        ...

    def path(self, unit: str, to: Cell, move_studs: int) -> list[Cell] | None:
        """Shortest 8-connected path excluding the start cell, or None when out of reach."""
        ...

    def can_throw(self, unit: str, to: Cell, max_studs: float) -> bool:
        """Within range and not through walls."""
        ...

    def free_cells_near(self, vehicle: str) -> list[Cell]:
        """Free cells next to the vehicle (getting off, occupants of a destroyed vehicle)."""
        ...

    def place(self, id: str, position: tuple[float, float], facing_deg: float) -> None:
        """Move (or put back) a unit or vehicle; no full rebuild."""
        ...

    def remove(self, id: str) -> None:
        """Take a unit or vehicle off the field (dead, boarded, destroyed, left the field)."""
        ...

    def set_door(self, door: str, cell: Cell, open: bool) -> None:
        """Open or close a door: closed, it fills its cell for sight, moves and sweeps."""
        ...

    def sweep(self, vehicle: str, distance_studs: float) -> Contact | None:
        """Straight move of the vehicle footprint along its facing; first contact or None."""
        ...

    def turn_contacts(self, vehicle: str, delta_deg: float) -> Contact | None:
        """Rotation on the spot by delta_deg (counter-clockwise positive); first contact or None."""
        ...


__all__ = ["Cell", "Contact", "Geometry", "SightReport"]
