"""War of Bros as a ruleset of the bow3d engine: the wiring of its modules.

Layer: rulesets (War of Bros). Nothing here decides a rule; it hands each module's checkers,
appliers, candidates and resolvers to the engine (bow3d.rules.Game) and says who War of Bros is.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from bow3d.i18n import N_
from bow3d.rules.events import Event, Narrator
from bow3d.rules.records import Action
from bow3d.rules.ruleset import Ruleset
from bow3d.rulesets.war_of_bros import checks, combat, field, movement, reactions, turns
from bow3d.rulesets.war_of_bros.actions import ACTION_CLASSES, Attack, EndStep, EndTurn, Move, Place, Turn
from bow3d.rulesets.war_of_bros.context import Context
from bow3d.rulesets.war_of_bros.cover import CoverVerdict, judge, sight_sentence, weapon_rings
from bow3d.rulesets.war_of_bros.events import SCHEMA
from bow3d.rulesets.war_of_bros.present import WarOfBrosPresentation
from bow3d.rulesets.war_of_bros.sheets import NAME, UnitSheet, WarOfBrosParams, WarOfBrosScene
from bow3d.rulesets.war_of_bros.state import GameState

SETTLE_LIMIT = 256   # after a record: tasks, ends of activations and turns, until the game waits


class WarOfBrosRuleset(Ruleset):
    """War of Bros (YuLabs), the whole rule book, refereed on the 3D battlefield."""

    name = NAME
    title = N_("War of Bros (YuLabs)")
    edition = N_("free edition, undated")
    languages = ("en", "fr")   # the book is English only: the French words are bow3d's translation (narrator.py)
    book = "war-of-bros-rules.txt"
    scene_model = WarOfBrosScene
    params_model = WarOfBrosParams
    sheet_model = UnitSheet
    event_schema = SCHEMA
    action_classes = ACTION_CLASSES
    presentation_class = WarOfBrosPresentation  # its words, aims, odds and sheets at the table
    ai_version = "war-of-bros-ai-2"   # bump when the AI's choices change (keep the older one in retired_opponents)

    def __init__(self) -> None:
        super().__init__()
        for action, checker, applier in (
                (Place, turns.place_refusal, turns.apply_place),
                (Move, movement.check_move, movement.apply_move),
                (Turn, movement.check_turn, movement.apply_turn),
                (Attack, combat.check_attack, combat.apply_attack),
                (EndStep, turns.check_end_step, turns.apply_end_step),
                (EndTurn, turns.check_end_turn, turns.apply_end_turn)):
            self.add_rule(action, checker, applier)
        self.add_resolver("order", turns.resolve_order)
        for table in (combat.RESOLVERS, reactions.RESOLVERS):
            for kind, resolver in table.items():
                self.add_resolver(kind, resolver)

    # -- play --------------------------------------------------------------------------------
    def context(self, scene: Any, geometry: Any, *, max_rounds: int | None = None) -> Context:  # type: ignore[override]  # each ruleset names its own options
        """`max_rounds` ends the encounter after that many rounds (the unit power in play decides)."""
        return Context(scene, geometry, max_rounds)

    def initial_state(self, ctx: Context) -> GameState:
        return turns.initial_state(ctx)

    def begin(self, game: Any) -> list[Event]:
        return turns.begin(game)

    def candidates(self, game: Any) -> Iterator[Action]:
        yield from turns.candidates(game)
        yield from _play_candidates(game)

    def after_record(self, game: Any) -> list[Event]:
        """Tasks (reactions, strikes) until one waits; then the end of the encounter, of an activation,
        of a turn."""
        events: list[Event] = []
        for _ in range(SETTLE_LIMIT):
            state = game.state
            if state.phase == "over":
                break
            events += reactions.run_tasks(game)
            if state.pending is not None:
                break
            ended = turns.check_end(game)
            if ended:
                events += ended
                break
            more = _housekeeping(game)
            events += more
            if not more and not state.tasks:
                break
        return events

    def side_to_play(self, state: GameState) -> str | None:
        return state.side_to_play

    def is_over(self, state: GameState) -> bool:
        return state.phase == "over"

    def place_bodies(self, game: Any) -> None:
        turns.place_bodies(game)

    def restore(self, game: Any, before: GameState) -> None:
        field.sync(game, before)

    # -- around play -------------------------------------------------------------------------
    def judge_sight(self, report: Any, params: Any = None) -> CoverVerdict:
        return judge(report, params, report.distance("cm") if hasattr(report, "distance") else None)

    def sight_sentence(self, report: Any, verdict: Any, language: str | None = None) -> str:
        return sight_sentence(report, verdict, language)

    length_unit = "cm"

    def range_rings(self, params: Any = None, out_to_studs: float = 0.0) -> tuple[tuple[float, str], ...]:
        """The Starting Weapons' ranges (no penalty bands: a weapon reaches or it does not)."""
        return weapon_rings()

    def in_cover(self, visible_fraction: Any, params: Any = None) -> Any:
        """Heatmaps: hidden at least the cover threshold (behind cover, or not seen at all)."""
        import numpy as np

        return (1.0 - np.asarray(visible_fraction, float)) >= self.cover_share(params) - 1e-12

    def cover_share(self, params: Any = None) -> float:
        return float(getattr(params, "cover_threshold", None) or WarOfBrosParams().cover_threshold)

    def check_scene(self, scene: Any) -> list:
        return checks.check_scene(scene)

    def narrator(self, language: str | None = None) -> Narrator:
        from bow3d.rulesets.war_of_bros.narrator import WarOfBrosNarrator

        return WarOfBrosNarrator(language)

    def player(self, side: str, rng: Any) -> Any:
        from bow3d.rulesets.war_of_bros.ai import WarOfBrosAI

        return WarOfBrosAI(side, rng)

    def retired_opponents(self) -> dict[str, Any]:
        from bow3d.rulesets.war_of_bros.ai import FIRST_AI_VERSION, FirstWarOfBrosAI

        return {FIRST_AI_VERSION: FirstWarOfBrosAI}

    def army_costs(self, scene: Any) -> dict[str, int]:
        return checks.army_costs(scene)

    def cost_lines(self, scene: Any) -> list:
        return checks.cost_lines(scene)

    def add_odds_arguments(self, group: Any) -> None:
        from bow3d.rulesets.war_of_bros.odds import add_odds_arguments

        add_odds_arguments(group)

    def odds(self, args: Any) -> tuple[list[str], dict[str, Any]]:
        from bow3d.rulesets.war_of_bros.odds import odds_report

        return odds_report(args)


def _housekeeping(g: Any) -> list[Event]:
    """An activation whose unit perished, or that must skip its Final Movement Step, ends; a player with
    nothing left to move passes the turn."""
    state = g.state
    if state.phase != "play" or state.pending is not None or state.tasks:
        return []
    if state.active is not None:
        unit = state.units[state.active]
        if not unit.on_field or (state.step == "final" and unit.penalised):
            return turns.end_activation(g)
        return []
    if not turns.activatable(g, state.side_to_play):
        return turns.next_side(g)
    return []


HEADINGS = tuple(range(0, 360, 45))


def _play_candidates(g: Any) -> Iterator[Action]:
    """Moves in eight headings (all the movement left, and half), turns to face each enemy, attacks on each
    enemy with each weapon: what `legal_actions()` tries (the AI builds its own)."""
    import math

    state = g.state
    if state.phase != "play" or state.pending is not None:
        return
    units = [state.active] if state.active else turns.activatable(g, state.side_to_play)
    for uid in units:
        unit = state.units[uid]
        left = g.ctx.profile(uid).movement_cm - unit.moved_cm
        for heading in HEADINGS:
            for share in (1.0, 0.5):
                if left * share > 0.05:
                    yield Move(uid, float(heading), round(left * share, 3))
        enemies = [u for u in state.units.values() if u.side != unit.side and u.on_field]
        for enemy in enemies:
            bearing = math.degrees(math.atan2(enemy.position[1] - unit.position[1],
                                              enemy.position[0] - unit.position[0])) % 360.0
            yield Turn(uid, round(bearing, 3))
            for weapon in g.ctx.profile(uid).weapons:
                yield Attack(uid, enemy.id, weapon.name)
