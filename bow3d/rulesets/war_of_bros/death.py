"""When a unit perishes: its Body or wreck, the crew a Mechanized unit ejects, frag tokens.

Layer: rulesets (War of Bros).

More: docs/modules/rulesets-war-of-bros.md#death.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bow3d.rules.events import Event
from bow3d.rulesets.war_of_bros import field, measures, plan
from bow3d.rulesets.war_of_bros.blocking import blocked_by
from bow3d.rulesets.war_of_bros.state import Obstacle, replace

if TYPE_CHECKING:
    from bow3d.rules.game import Game

EJECT_GAP_STUDS = 0.05   # the ejected crew stand this far from the wreck


def perish(g: Game, unit_id: str, by: str | None, trampled: bool = False) -> list[Event]:
    state = g.state
    unit = state.units[unit_id]
    if not unit.alive:
        return []
    profile = g.ctx.profile(unit_id)
    corners = tuple(measures.corners(g, unit_id)) if unit.position is not None else ()
    state.units[unit_id] = replace(unit, alive=False)
    if unit.on_field:
        g.geometry.remove(unit_id)
    events = [g.event("destroyed", vehicle=unit_id, by=by) if profile.mechanized else
              g.event("died", unit=unit_id, by=by, trampled=trampled)]
    if by is not None and by in state.units:
        killer = state.units[by]
        state.units[by] = replace(killer, kills=killer.kills + 1)
    if corners and not trampled and not g.ctx.params.remove_dead:
        kind = "wreck" if profile.mechanized else "body"
        obstacle = Obstacle(field.obstacle_id(unit_id, kind), kind, corners,
                            field.WRECK_MATERIAL if profile.mechanized else field.BODY_MATERIAL, unit.side,
                            field.WRECK_HEIGHT_LDU if profile.mechanized else field.BODY_HEIGHT_LDU)
        field.add_obstacle(g, obstacle)
        events.append(g.event("cover_left", unit=unit_id, obstacle=obstacle.id, kind=kind, material=obstacle.material))
    if profile.mechanized:
        events += _eject(g, unit_id)
    return events + _frag(g, unit_id)


def _eject(g: Game, mech_id: str) -> list[Event]:
    state = g.state
    mech = state.units[mech_id]
    width, depth = g.ctx.bases[mech_id]
    fx, fy = plan.unit_vector(mech.facing)
    lx, ly = -fy, fx
    events: list[Event] = []
    for crew_id in g.ctx.crews.get(mech_id, ()):
        crew = state.units.get(crew_id)
        if crew is None or not crew.alive or crew.aboard != mech_id:
            continue
        cw, cd = g.ctx.bases[crew_id]
        spots = [(lx, ly, width / 2 + cw / 2), (-lx, -ly, width / 2 + cw / 2), (-fx, -fy, depth / 2 + cd / 2),
                 (fx, fy, depth / 2 + cd / 2)]
        placed = None
        for dx, dy, off in spots:
            off += EJECT_GAP_STUDS
            for along in (0.0, cd + EJECT_GAP_STUDS, -(cd + EJECT_GAP_STUDS)):
                ax, ay = (fx, fy) if abs(dx * fx + dy * fy) < 0.5 else (lx, ly)
                centre = (mech.position[0] + dx * off + ax * along, mech.position[1] + dy * off + ay * along)
                if blocked_by(g, crew_id, g.ctx.corners(crew_id, centre, mech.facing)) is None:
                    placed = centre
                    break
            if placed is not None:
                break
        if placed is None:
            state.units[crew_id] = replace(crew, alive=False, aboard=None)
            events.append(g.event("died", unit=crew_id, by=None, trampled=False))
            events.append(g.event("crew_lost", unit=crew_id, vehicle=mech_id))
            continue
        state.units[crew_id] = replace(crew, aboard=None, placed=True, position=placed, facing=mech.facing,
                                       activated=True)
        g.geometry.place(crew_id, placed, mech.facing)
        events.append(g.event("placed", unit=crew_id, position=list(placed), facing=mech.facing, reason="ejected"))
    for crew_id in g.ctx.crews.get(mech_id, ()):   # those left inside (none listed: "perish inside of it")
        crew = state.units.get(crew_id)
        if crew is not None and crew.alive and crew.aboard == mech_id:
            state.units[crew_id] = replace(crew, alive=False, aboard=None)
            events.append(g.event("died", unit=crew_id, by=None, trampled=False))
    return events


def _frag(g: Game, unit_id: str) -> list[Event]:
    """Capture The Frag: a primary target lost costs a token; the last token lost removes the player."""
    state = g.state
    side = state.units[unit_id].side
    if g.ctx.params.mode != "capture-the-frag" or state.primary.get(side) != unit_id:
        return []
    state.frags[side] = max(0, state.frags.get(side, 0) - 1)
    state.primary[side] = None
    events = [g.event("frag_lost", side=side, unit=unit_id, tokens=state.frags[side])]
    if state.frags[side] == 0:
        return events + remove_side(g, side)
    if any(u.on_field for u in state.units.values() if u.side == side):
        state.tasks = (("primary", side),) + state.tasks
    return events


def remove_side(g: Game, side: str) -> list[Event]:
    """The player has lost: its units and its Bodies and wrecks leave the terrain."""
    state = g.state
    for unit in list(state.units.values()):
        if unit.side == side and unit.alive:
            if unit.on_field:
                g.geometry.remove(unit.id)
            state.units[unit.id] = replace(unit, alive=False, aboard=None)
    gone = [key for key, obstacle in state.obstacles.items() if obstacle.side == side]
    for key in gone:
        field.remove_obstacle(g, key)
    return [g.event("side_out", side=side, obstacles=sorted(gone))]
