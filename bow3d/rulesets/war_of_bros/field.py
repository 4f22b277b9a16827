"""Keeping the geometry in step with the rules: units placed and taken away, Bodies and wrecks added,
trampled cover taken away, and all of it undone.

Layer: rulesets (War of Bros). The geometry (the 3D world, or a test double) is told through its
protocol: place/remove for units, add_obstacle/remove_obstacle for Bodies and wrecks (so that the
sight reports name them with their material), remove_decor/restore_decor for destroyed cover.
Heights in LDU: a Body is a fallen unit, BODY_HEIGHT_LDU high; a wreck WRECK_HEIGHT_LDU.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bow3d.rulesets.war_of_bros.state import GameState, Obstacle

if TYPE_CHECKING:
    from bow3d.rules.game import Game

BODY_HEIGHT_LDU = 16.0    # a minifig lying on its base: two plates
WRECK_HEIGHT_LDU = 48.0   # a burnt-out hull: two bricks
BODY_MATERIAL, WRECK_MATERIAL = "body", "vehicle"


def obstacle_id(unit_id: str, kind: str) -> str:
    return f"{unit_id}~{kind}"


def add_obstacle(g: Game, obstacle: Obstacle) -> None:
    g.state.obstacles[obstacle.id] = obstacle
    g.geometry.add_obstacle(obstacle.id, [list(c) for c in obstacle.corners], obstacle.height_ldu, obstacle.material)


def remove_obstacle(g: Game, obstacle_id_: str) -> None:
    if g.state.obstacles.pop(obstacle_id_, None) is not None:
        g.geometry.remove_obstacle(obstacle_id_)


def remove_decor(g: Game, instances: list[int]) -> list[int]:
    """Take decor parts away (destroyed cover); returns those newly removed."""
    new = sorted(set(instances) - g.state.removed)
    if new:
        g.state.removed = g.state.removed | frozenset(new)
        g.geometry.remove_decor(instances=new)
    return new


def clean_start(g: Game) -> None:
    """A geometry used for an earlier game may still hold its Bodies, wrecks and destroyed decor."""
    bodies = getattr(g.geometry, "bodies", None)
    if isinstance(bodies, dict):
        for unit_id in g.ctx.unit_sheet:
            for kind in ("body", "wreck"):
                key = obstacle_id(unit_id, kind)
                if key in bodies:
                    g.geometry.remove_obstacle(key)
    removed = getattr(g.geometry, "removed_decor", None)
    if removed is not None and len(removed) and bool(removed.any()):
        g.geometry.restore_decor([int(k) for k in removed.nonzero()[0]])


def sync(g: Game, before: GameState) -> None:
    """Put the geometry back as it was in `before` (units, obstacles, decor): the undo of pop()."""
    now = g.state
    for unit_id, unit in now.units.items():
        then = before.units[unit_id]
        if then.on_field and (not unit.on_field or (unit.position, unit.facing) != (then.position, then.facing)):
            g.geometry.place(unit_id, then.position, then.facing)
        elif unit.on_field and not then.on_field:
            g.geometry.remove(unit_id)
    for key in set(now.obstacles) - set(before.obstacles):
        g.geometry.remove_obstacle(key)
    for key, obstacle in before.obstacles.items():
        if now.obstacles.get(key) != obstacle:
            g.geometry.add_obstacle(key, [list(c) for c in obstacle.corners], obstacle.height_ldu, obstacle.material)
    back = sorted(now.removed - before.removed)
    if back:
        g.geometry.restore_decor(back)
    again = sorted(before.removed - now.removed)
    if again:
        g.geometry.remove_decor(instances=again)
