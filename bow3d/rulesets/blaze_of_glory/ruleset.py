"""Blaze of Glory as a ruleset of the engine: the wiring of its modules.

Layer: rulesets (Blaze of Glory). Nothing here decides a rule; it hands each module's checkers,
appliers and candidates to the engine (bow3d.rules.Game), the flow's resolver for every pending
answer, and says who Blaze of Glory is.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from bow3d.i18n import N_, _
from bow3d.rules.events import Event, Narrator
from bow3d.rules.records import Action
from bow3d.rules.ruleset import Ruleset
from bow3d.rulesets.blaze_of_glory import cards, fisticuffs, flow, movement, nerve, recovery, shooting  # noqa: F401
from bow3d.rulesets.blaze_of_glory.actions import (
    ACTION_CLASSES,
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
from bow3d.rulesets.blaze_of_glory.context import Context
from bow3d.rulesets.blaze_of_glory.events import SCHEMA
from bow3d.rulesets.blaze_of_glory.present import BlazePresentation
from bow3d.rulesets.blaze_of_glory.sheets import NAME, BlazeParams, BlazeScene, FigureSheet, check_scene
from bow3d.rulesets.blaze_of_glory.sight import judge_sight, weapon_rings
from bow3d.rulesets.blaze_of_glory.state import GameState

_CANDIDATES = (cards.candidates, movement.candidates, shooting.candidates, fisticuffs.candidates)


class BlazeRuleset(Ruleset):
    """Blaze of Glory, Tim Eagling's Wild West skirmish rules."""

    name = NAME
    title = N_("Blaze of Glory: Wild West skirmish (Tim Eagling)")
    edition = N_("web edition")
    languages = ("en", "fr")   # the book is English only: the French words are bow3d's translation (narrator.py)
    book = "blaze-of-glory-rules.txt"
    revision = 1          # the readings' revision (docs/blaze-of-glory.md); a replay records it
    ai_version = "blaze-of-glory-ai-1"   # bump when the AI's choices change: older replays are not re-derived
    scene_model = BlazeScene
    params_model = BlazeParams
    sheet_model = FigureSheet
    event_schema = SCHEMA
    action_classes = ACTION_CLASSES
    presentation_class = BlazePresentation  # its words, aims, odds and sheets at the table

    def __init__(self) -> None:
        super().__init__()
        for action, checker, applier in (
                (EndTurn, cards.check_end_turn, cards.apply_end_turn),
                (Move, movement.check_move, movement.apply_move),
                (Run, movement.check_run, movement.apply_run),
                (RunMove, movement.check_run_move, movement.apply_run_move),
                (Shoot, shooting.check_shoot, shooting.apply_shoot),
                (Reload, shooting.check_reload, shooting.apply_reload),
                (Fight, fisticuffs.check_fight, fisticuffs.apply_fight),
                (FightOn, fisticuffs.check_fight_on, fisticuffs.apply_fight_on),
                (Disengage, fisticuffs.check_disengage, fisticuffs.apply_disengage),
                (Finish, fisticuffs.check_finish, fisticuffs.apply_finish)):
            self.add_rule(action, checker, applier)
        self.add_resolver(flow.KIND, flow.resolve)

    # -- play --------------------------------------------------------------------------------
    def context(self, scene: Any, geometry: Any, *, max_rounds: int | None = None, revision: int | None = None  # type: ignore[override]  # each ruleset names its own options
                ) -> Context:
        """`max_rounds` ends the game after that many rounds (the figures still in the fight decide);
        `revision`: the readings a replay was played with (Blaze of Glory has one revision so far)."""
        if revision not in (None, self.revision):
            from bow3d.errors import RulesError
            raise RulesError(_("Blaze of Glory has revision {revision} of its readings, not "
                               "{revision2!r}").format(revision=self.revision, revision2=revision))
        return Context(scene, geometry, max_rounds)

    def initial_state(self, ctx: Context) -> GameState:
        return cards.initial_state(ctx)

    def begin(self, game: Any) -> list[Event]:
        return cards.begin(game)

    def candidates(self, game: Any) -> Iterator[Action]:
        for candidates in _CANDIDATES:
            yield from candidates(game)

    def after_record(self, game: Any) -> list[Event]:
        return cards.after_record(game)

    def side_to_play(self, state: GameState) -> str | None:
        unit = state.turn.unit
        return state.figures[unit].side if unit is not None else None

    def is_over(self, state: GameState) -> bool:
        return state.over

    def place_bodies(self, game: Any) -> None:
        cards.place_bodies(game)

    def restore(self, game: Any, before: GameState) -> None:
        """Place or remove the figures whose place differs between now and `before`."""
        for id, now in game.state.figures.items():
            then = before.figures[id]
            if then.on_table and (not now.on_table or (now.position, now.facing) != (then.position, then.facing)):
                game.geometry.place(id, then.position, then.facing)
            elif now.on_table and not then.on_table:
                game.geometry.remove(id)

    # -- around play -------------------------------------------------------------------------
    def judge_sight(self, report: Any, params: Any = None) -> Any:
        return judge_sight(report, params)

    length_unit = "in"

    def range_rings(self, params: Any = None, out_to_studs: float = 0.0) -> tuple[tuple[float, str], ...]:
        """The Weapon Ranges (thrown 6", pistol 12", bow 24", rifle 30"; over half a range is -1)."""
        return weapon_rings()

    def sight_sentence(self, report: Any, verdict: Any, language: str | None = None) -> str:
        from bow3d.rulesets.blaze_of_glory.narrator import sight_sentence

        return sight_sentence(report, verdict, language)

    def in_cover(self, visible_fraction: Any, params: Any = None) -> Any:
        """For heatmaps: hidden at least the partial-cover share (or not seen at all)."""
        import numpy as np

        return (1.0 - np.asarray(visible_fraction, float)) >= self.cover_share(params) - 1e-12

    def cover_share(self, params: Any = None) -> float:
        from bow3d.rulesets.blaze_of_glory.sheets import PARTIAL_COVER

        value = getattr(params, "partial_cover", None)
        return float(PARTIAL_COVER if value is None else value)

    def check_scene(self, scene: Any) -> list:
        return check_scene(scene)

    def narrator(self, language: str | None = None) -> Narrator:
        from bow3d.rulesets.blaze_of_glory.narrator import BlazeNarrator

        return BlazeNarrator(language)

    def player(self, side: str, rng: Any) -> Any:
        from bow3d.rulesets.blaze_of_glory.ai import BlazePlayer

        return BlazePlayer(side, rng)

    def add_odds_arguments(self, group: Any) -> None:
        from bow3d.rulesets.blaze_of_glory.odds import add_odds_arguments

        add_odds_arguments(group)

    def odds(self, args: Any) -> tuple[list[str], dict[str, Any]]:
        from bow3d.rulesets.blaze_of_glory.odds import odds_report

        return odds_report(args)


RULESET = BlazeRuleset()
