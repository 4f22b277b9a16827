"""War of Bros at the table: its choices in words, where a move ends, an attack's odds of making the target
perish (with the cover the 3D world gives), the unit's profile as its sheet, and its state in words.

Layer: rulesets (War of Bros; pure Python over its own modules). Positions in studs, movement in cm
(bow3d.rulesets.war_of_bros.plan converts); a move is a heading and a distance from where the unit stands.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Any

from bow3d.i18n import N_, _, decimal, percent, term
from bow3d.rules.game import Game
from bow3d.rules.records import Action
from bow3d.rules.table import Aim, Odds, Piece, Presentation, Preview, SheetRow
from bow3d.rulesets.war_of_bros import cover as covers, measures, plan
from bow3d.rulesets.war_of_bros.actions import Attack, EndStep, EndTurn, Move, Place, Turn
from bow3d.rulesets.war_of_bros.ai import p_perish
from bow3d.rulesets.war_of_bros.narrator import COVERS, DECISIONS
from bow3d.rulesets.war_of_bros.profile import profile_of

PARTS = {"front": N_("front"), "side": N_("side"), "back": N_("back")}  # of a base, the edge a shot hits



class WarOfBrosPresentation(Presentation):
    move_kinds = ("move", "place")
    decisions = DECISIONS
    end_kinds = ("end_step", "end_turn")

    def piece(self, item: Any, kind: str, seat: int) -> Piece:
        base = super().piece(item, kind, seat)
        said = [_("activated")] if item.activated else []
        said += [_("burning ({n} rounds)").format(n=item.burning)] if item.burning else []
        said += [_("aboard {unit}").format(unit=item.aboard)] if item.aboard else []
        return dataclasses.replace(base, position=base.position if item.placed else None,
                                   beside=1 if item.activated else 0, words=", ".join(said))

    def words(self, action: Action, game: Game | None = None) -> str:
        if isinstance(action, Place):
            return _("place {unit} at ({x}, {y})").format(unit=action.unit, x=decimal(action.x, 1), y=decimal(action.y, 1))
        if isinstance(action, Move):
            return _("move {distance} cm, heading {heading}°").format(distance=decimal(action.distance, 1),
                                                                      heading=f"{action.heading:.0f}")
        if isinstance(action, Turn):
            return _("turn to face {facing}°").format(facing=f"{action.facing:.0f}")
        if isinstance(action, Attack):
            return _("attack {target} with {weapon}").format(target=action.target, weapon=action.weapon)
        if isinstance(action, EndStep):
            return _("end the step")
        if isinstance(action, EndTurn):
            return _("end the turn")
        return super().words(action, game)

    def aim(self, action: Action, game: Game | None = None) -> Aim:
        if isinstance(action, Move) and game is not None:
            end = _end_of(game, action)
            return Aim("point", at=end) if end is not None else Aim()
        return super().aim(action, game)

    def preview(self, game: Game, action: Action) -> Preview:
        """A move's straight path; an attack's chance that the target perishes (Impact to Vitality Steps,
        the cover class the world gives, the part of the base it hits)."""
        words = self.words(action, game)
        if isinstance(action, Move):
            start, end = game.state.units[action.unit].position, _end_of(game, action)
            return Preview(words, (tuple(start), end)) if start is not None and end is not None else Preview(words)
        if not isinstance(action, Attack) or game.check(action) is not None:
            return Preview(words)
        weapon = game.ctx.profile(action.unit).weapon(action.weapon)
        part = measures.part_hit(game, action.target, action.unit)
        cover = "none"
        if not (game.ctx.profile(action.unit).airborne or game.ctx.profile(action.target).airborne):
            verdict = covers.judge(game.ask("sight", action.unit, action.target), game.ctx.params)
            cover = "none" if weapon.rail_driven or (weapon.guided and verdict.cover == "light") else verdict.cover
        chance = p_perish(weapon, game.ctx.profile(action.target), part, cover)
        said = _("{chance} that {target} perishes (hit on its {part}, {cover} cover)").format(
            chance=percent(chance), target=action.target, part=term(PARTS, part),
            cover=term(COVERS, cover) if cover in COVERS else _("no"))
        return Preview(words, odds=Odds(chance, chance, said), sight=True)

    def sheet_rows(self, scene: Any, unit: str, piece: Piece | None = None) -> tuple[SheetRow, ...]:
        """The unit's profile as the rules read it (its template resolved: Unit Templates), then its state."""
        item = scene.body(unit)
        profile = profile_of(item.sheet, scene.sheet(item.sheet))
        rows = [SheetRow(_("category"), profile.category), SheetRow(_("rank"), profile.rank),
                SheetRow(_("unit power"), str(profile.unit_power)),
                SheetRow(_("movement"), _("{n} cm").format(n=decimal(profile.movement_cm, 1))),
                SheetRow(_("threat range"), _("{n} cm").format(n=decimal(profile.threat_cm, 1)))]
        rows += [SheetRow(label, str(dice)) for label, dice in ((_("evasion"), profile.evasion),
                                                                (_("vitality"), profile.vitality)) if dice is not None]
        rows += [SheetRow(w.name, _("damage {damage}, accuracy {accuracy}, range {range} cm").format(
            damage=w.damage, accuracy=w.accuracy, range=decimal(w.range_cm, 1))) for w in profile.weapons]
        if piece is not None and piece.words:
            rows.append(SheetRow(_("state"), piece.words))
        return tuple(r for r in rows if r.value)

    def at_cell(self, game: Game, unit: str, cell: tuple[int, int], legal: Sequence[Action]) -> Action | None:
        """A straight move to the cell's centre (as far as the movement left allows), when the rules accept it."""
        listed = super().at_cell(game, unit, cell, legal)
        me = game.state.units.get(unit)
        if listed is not None or me is None or me.position is None or game.state.phase != "play":
            return listed
        target = (cell[0] + 0.5, cell[1] + 0.5)
        studs = math.dist(me.position, target)
        if studs < 1e-6:
            return None
        heading = round(math.degrees(math.atan2(target[1] - me.position[1], target[0] - me.position[0])) % 360.0, 3)
        move = Move(unit, heading, round(plan.cm(studs), 3))
        return move if game.check(move) is None else None


def _end_of(game: Game, action: Move) -> tuple[float, float] | None:
    position = game.state.units[action.unit].position
    if position is None:
        return None
    dx, dy = plan.unit_vector(action.heading)
    far = plan.studs(action.distance)
    return (position[0] + dx * far, position[1] + dy * far)

