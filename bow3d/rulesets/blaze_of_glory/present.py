"""Blaze of Glory at the table: its choices in words, where a move ends, a volley's odds (Shooting: each
shot's modified S, the wound table), the figures as they lie (Wounds and status) and their sheets.

Layer: rulesets (Blaze of Glory; pure Python over its own modules). Positions in studs; the book measures
in inches (bow3d.rulesets.blaze_of_glory.book converts).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from bow3d.i18n import N_, _, percent, term
from bow3d.rules.game import Game
from bow3d.rules.records import Action
from bow3d.rules.table import Odds, Piece, Presentation, Preview
from bow3d.rulesets.blaze_of_glory.actions import (
    Disengage,
    EndTurn,
    Fight,
    FightOn,
    Finish,
    Move,
    Reload,
    Run,
    RunMove,
    Shoot,
)
from bow3d.rulesets.blaze_of_glory.narrator import RESULT_WORDS
from bow3d.rulesets.blaze_of_glory.odds import p_pass, wound_distribution
from bow3d.rulesets.blaze_of_glory.shooting import kind_of, shot_value
from bow3d.rulesets.blaze_of_glory.state import STANDING

STATUS_WORDS = {"knocked_down": N_("knocked down"), "wounded": N_("wounded"), "unconscious": N_("unconscious"),
                "out_of_action": N_("out of action"), "fled": N_("fled")}


class BlazePresentation(Presentation):
    move_kinds = ("move", "run_move")

    def pieces(self, state: Any) -> tuple[Piece, ...]:
        """Every figure; one out of action or fled is shown fallen (Wounds)."""
        return tuple(self.figure(f) for f in state.figures.values())

    def figure(self, f: Any) -> Piece:
        said = [_status(f.status)] if f.status != STANDING else []
        said += [_("{n} Hero Points").format(n=f.hero)] if f.hero else []
        said += [_("in a fistfight with {who}").format(who=", ".join(f.engaged))] if f.engaged else []
        posture = f.posture if f.posture in ("on_back", "face_down", "gone") else "standing"  # out of action: fallen
        return Piece(f.id, f.side, "unit", f.sheet, (float(f.position[0]), float(f.position[1])), float(f.facing),
                     f.on_table, words=", ".join(said), posture=posture)

    def words(self, action: Action, game: Game | None = None) -> str:
        if isinstance(action, (Move, RunMove)):
            end = action.path[-1]
            words = _("run to ({x}, {y})") if isinstance(action, RunMove) else _("move to ({x}, {y})")
            return words.format(x=f"{end[0]:.1f}", y=f"{end[1]:.1f}")
        if isinstance(action, Run):
            return _("run (a Hero Point)") if action.hero else _("run")
        if isinstance(action, Shoot):
            shots = len(action.targets)
            return _("shoot {target} with the {weapon} ({n} shots)").format(
                target=", ".join(dict.fromkeys(action.targets)), weapon=action.weapon, n=shots) + (
                _(", a Hero Point") if action.hero else "")
        if isinstance(action, Reload):
            return _("reload the {weapon}").format(weapon=action.weapon)
        if isinstance(action, Fight):
            return _("fight {target}").format(target=action.target)
        if isinstance(action, FightOn):
            return _("fight on")
        if isinstance(action, Disengage):
            return _("pull out of the fight")
        if isinstance(action, Finish):
            return _("finish off {target}").format(target=action.target)
        if isinstance(action, EndTurn):
            return _("end the turn")
        return super().words(action, game)

    def preview(self, game: Game, action: Action) -> Preview:
        """A move's path; a volley's chance of at least one hit and the wound table's odds (Shooting)."""
        words = self.words(action, game)
        if isinstance(action, (Move, RunMove)):
            start = game.state.figures[action.unit].position
            path = [(float(start[0]), float(start[1]))] + [(float(p[0]), float(p[1])) for p in action.path]
            return Preview(words, tuple(path))
        if not isinstance(action, Shoot) or game.check(action) is not None:
            return Preview(words, sight=isinstance(action, Shoot))
        kind = kind_of(action.weapon)
        hits = []
        for index, target in enumerate(action.targets):
            shot = shot_value(game, action.unit, action.weapon, target, len(action.targets), index)
            if isinstance(shot, dict):
                hits.append(p_pass(shot["value"]))
        if not hits:
            return Preview(words, sight=True)
        miss_all = math.prod(1 - p for p in hits)
        wound = wound_distribution(kind.wound_modifier)
        worst = sorted(((p, r) for r, p in wound.items() if p > 0 and r != "no_effect"), reverse=True)[:2]
        said = _("{chance} to hit at least once ({each} a shot); a hit: {wounds}").format(
            chance=percent(1 - miss_all), each=", ".join(percent(p) for p in hits),
            wounds=", ".join(f"{term(RESULT_WORDS, r, plain=True)} {percent(p)}" for p, r in worst))
        return Preview(words, odds=Odds(1 - miss_all, sum(hits), said), sight=True)

    def at_cell(self, game: Game, unit: str, cell: tuple[int, int], legal: Sequence[Action]) -> Action | None:
        """A straight move (or the run's move) to the cell's centre, when the rules accept it."""
        listed = super().at_cell(game, unit, cell, legal)
        if listed is not None:
            return listed
        point = (cell[0] + 0.5, cell[1] + 0.5)
        for cls in (Move, RunMove):
            move = cls(unit, (point,))
            if game.check(move) is None:
                return move
        return None


def _status(status: str) -> str:
    return term(STATUS_WORDS, status, plain=True)
