"""BOW 1.3 (Bricks Only Wargame) as a ruleset of the engine: the wiring of its modules.

Layer: rulesets (BOW). Nothing here decides a rule; it hands each module's checkers, appliers,
candidates and resolvers to the engine (bow3d.rules.Game) and says who BOW is.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from bow3d.i18n import N_
from bow3d.rules.events import Event, Narrator
from bow3d.rules.records import Action
from bow3d.rules.ruleset import Ruleset
from bow3d.rulesets.bow import combat, handling, mishaps, treat, turns, vehicles
from bow3d.rulesets.bow.actions import (
    ACTION_CLASSES,
    Attack,
    ChangeDirection,
    ChangeSpeed,
    CompulsoryMove,
    Door,
    DriftMove,
    EndTurn,
    GetOff,
    GetOn,
    Give,
    Grab,
    Move,
    SwitchWeapon,
    Throw,
    Treat,
)
from bow3d.rulesets.bow.context import Context
from bow3d.rulesets.bow.cost import BALANCE_TOLERANCE_PCT, balance_warning
from bow3d.rulesets.bow.events import SCHEMA
from bow3d.rulesets.bow.present import BowPresentation
from bow3d.rulesets.bow.readings import REVISION
from bow3d.rulesets.bow.resolvers import RESOLVERS
from bow3d.rulesets.bow.sheets import NAME, BowParams, BowScene, Sheet, check_scene
from bow3d.rulesets.bow.sight import judge_sight, range_rings
from bow3d.rulesets.bow.state import GameState

_CANDIDATES = (turns.candidates, handling.candidates, vehicles.candidates, combat.candidates, treat.candidates)


class BowRuleset(Ruleset):
    """BOW 1.3, the basic rules, with its optional rules as parameters (`BowParams`)."""

    name = NAME
    title = N_("BOW: Bricks Only Wargame")
    edition = N_("1.3 (English edition)")
    languages = ("en", "fr")   # its narrator speaks both (bow3d/locale/fr: the French rule book's words)
    book = "bow-rules-1.3-en.md"
    scene_model = BowScene
    params_model = BowParams
    sheet_model = Sheet
    event_schema = SCHEMA
    ai_version = "bow-ai-2"   # bump when the AI's choices change (keep the older one in retired_opponents)
    revision = REVISION       # the readings (bow3d.rulesets.bow.readings); a replay re-plays with its own
    action_classes = ACTION_CLASSES
    presentation_class = BowPresentation  # its words, aims, odds, sheets and keys at the table

    def __init__(self) -> None:
        super().__init__()
        for action, checker, applier in (
                (EndTurn, turns.check_end_turn, turns.apply_end_turn),
                (Move, handling.check_move, handling.apply_move),
                (Grab, handling.check_grab, handling.apply_grab),
                (Throw, handling.check_throw, handling.apply_throw),
                (Give, handling.check_give, handling.apply_give),
                (SwitchWeapon, handling.check_switch, handling.apply_switch),
                (Door, handling.check_door, handling.apply_door),
                (GetOn, vehicles.check_get_on, vehicles.apply_get_on),
                (GetOff, vehicles.check_get_off, vehicles.apply_get_off),
                (ChangeSpeed, vehicles.check_speed, vehicles.apply_speed),
                (ChangeDirection, vehicles.check_direction, vehicles.apply_direction),
                (CompulsoryMove, vehicles.check_compulsory, vehicles.apply_compulsory),
                (DriftMove, vehicles.check_drift, vehicles.apply_drift),
                (Attack, combat.check_attack, combat.apply_attack),
                (Treat, treat.check_treat, treat.apply_treat)):
            self.add_rule(action, checker, applier)
        for kind, resolver in RESOLVERS.items():
            self.add_resolver(kind, resolver)

    # -- play --------------------------------------------------------------------------------
    def context(self, scene: Any, geometry: Any, *, max_rounds: int | None = None,  # type: ignore[override]  # each ruleset names its own options
                doors: Iterable[tuple[str, Any, bool]] | None = None, revision: int | None = None) -> Context:
        """`max_rounds` ends the game after that many rounds (result by points, Annex A.4); `doors`
        lists (door id, cell, open) of the doors units may open or close (default: the scene's);
        `revision` the readings' revision (default the current one; a replay passes its own)."""
        ctx = Context(scene, geometry, max_rounds, REVISION if revision is None else int(revision))
        if doors is None:
            doors = [(d.id, tuple(d.cell), bool(d.open)) for d in getattr(scene, "doors", None) or []]
        ctx.doors = [(door_id, tuple(cell), bool(is_open)) for door_id, cell, is_open in doors]
        ctx.door_cells = {door_id: cell for door_id, cell, _open in ctx.doors}
        return ctx

    def initial_state(self, ctx: Context) -> GameState:
        return turns.initial_state(ctx, ctx.doors)

    def begin(self, game: Any) -> list[Event]:
        return turns.begin(game)

    def candidates(self, game: Any) -> Iterator[Action]:
        for candidates in _CANDIDATES:
            yield from candidates(game)

    def after_record(self, game: Any) -> list[Event]:
        return turns.after_record(game)

    def side_to_play(self, state: GameState) -> str | None:
        return state.side_to_play

    def is_over(self, state: GameState) -> bool:
        return state.phase == "over"

    def place_bodies(self, game: Any) -> None:
        turns.place_bodies(game)

    def restore(self, game: Any, before: GameState) -> None:
        """Place or remove what differs between the current state and `before`; doors too."""
        for table_now, table_then in ((game.state.units, before.units), (game.state.vehicles, before.vehicles)):
            for id, now in table_now.items():
                then = table_then[id]
                on_now = now.in_play and now.position is not None and getattr(now, "aboard", None) is None
                on_then = then.in_play and then.position is not None and getattr(then, "aboard", None) is None
                if on_then and (not on_now or (now.position, now.facing) != (then.position, then.facing)):
                    game.geometry.place(id, then.position, then.facing)
                elif on_now and not on_then:
                    game.geometry.remove(id)
        if game.ctx.readings.occupant_bodies:  # §3.1, §3.5: the occupants back in their seats
            for vehicle in before.vehicles.values():
                if vehicle.in_play:
                    for seat, unit in enumerate(vehicle.seats):
                        if unit is not None and before.units[unit].in_play:
                            game.geometry.seat(unit, vehicle.id, seat)
        for door, was_open in before.doors.items():
            if game.state.doors.get(door) != was_open:
                game.geometry.set_door(door, game.ctx.door_cells[door], was_open)

    # -- around play -------------------------------------------------------------------------
    def judge_sight(self, report: Any, params: Any = None) -> Any:
        return judge_sight(report, params)

    def range_rings(self, params: Any = None, out_to_studs: float = 0.0) -> tuple[tuple[float, str], ...]:
        """§2.4.2: a band every `range_band_studs` (15), -1 attack brick each beyond the first."""
        return range_rings(params, out_to_studs)

    def sight_sentence(self, report: Any, verdict: Any, language: str | None = None) -> str:
        from bow3d.rulesets.bow.narrator import sight_sentence

        return sight_sentence(report, verdict, language)

    def in_cover(self, visible_fraction: Any, params: Any = None) -> Any:
        """BOW §2.4.2 for heatmaps: hidden at least the cover threshold (covered, or not seen at all)."""
        import numpy as np

        return (1.0 - np.asarray(visible_fraction, float)) >= self.cover_share(params) - 1e-12

    def cover_share(self, params: Any = None) -> float:
        from bow3d.rulesets.bow.context import DEFAULT_COVER_THRESHOLD

        return float(getattr(params, "cover_threshold", None) or DEFAULT_COVER_THRESHOLD)

    def check_scene(self, scene: Any) -> list:
        return check_scene(scene)

    def narrator(self, language: str | None = None) -> Narrator:
        from bow3d.rulesets.bow.narrator import BowNarrator

        return BowNarrator(language)

    def player(self, side: str, rng: Any) -> Any:
        from bow3d.rulesets.bow.ai import AIPlayer

        return AIPlayer(side, rng)

    def opponents(self) -> dict[str, str]:
        from bow3d.rulesets.bow.greedy import GREEDY_VERSION
        from bow3d.rulesets.bow.strong import STRONG_VERSION

        return {"greedy": GREEDY_VERSION, "ai": self.ai_version, "strong": STRONG_VERSION}

    def _named_opponent(self, name: str, side: str, rng: Any) -> Any:
        from bow3d.rulesets.bow.greedy import GREEDY_VERSION, GreedyPlayer
        from bow3d.rulesets.bow.strong import STRONG_VERSION, StrongPlayer

        if name in ("greedy", GREEDY_VERSION):
            return GreedyPlayer(side, rng)
        if name in ("strong", STRONG_VERSION):
            return StrongPlayer(side, rng)
        return super()._named_opponent(name, side, rng)

    def retired_opponents(self) -> dict[str, Any]:
        from bow3d.rulesets.bow.ai import FIRST_AI_VERSION, FirstAIPlayer
        from bow3d.rulesets.bow.strong import SECOND_STRONG_VERSION, SecondStrongPlayer

        return {FIRST_AI_VERSION: FirstAIPlayer, SECOND_STRONG_VERSION: SecondStrongPlayer}

    def clocked_opponents(self) -> tuple[str, ...]:
        return ("bow-strong-1",)   # the first `strong`: a search stopped by a time budget (strong.py)

    def is_reproducible(self, version: str) -> bool:
        """Every BOW opponent named today (none reads a clock) and the retired ones (bow-ai-1,
        bow-strong-2); not bow-strong-1, whose search stopped on a time budget."""
        return super().is_reproducible(version) or (version not in self.clocked_opponents()
                                                    and version in self.opponents().values())

    mishap_kinds = mishaps.KINDS  # §3.6: a friend run over, a crash

    def mishap_tally(self, sides: dict[str, str]) -> mishaps.MishapTally:
        return mishaps.MishapTally(sides)

    balance_tolerance_pct = BALANCE_TOLERANCE_PCT  # §1.4.3: armies of about the same cost points

    def balance_warning(self, totals: dict[str, int], tolerance_pct: float | None = None) -> str | None:
        return balance_warning(totals, BALANCE_TOLERANCE_PCT if tolerance_pct is None else tolerance_pct)

    def army_costs(self, scene: Any) -> dict[str, int]:
        from bow3d.rulesets.bow.cost import army_costs

        return army_costs(scene)

    def add_odds_arguments(self, group: Any) -> None:
        from bow3d.rulesets.bow.odds import add_odds_arguments

        add_odds_arguments(group)

    def odds(self, args: Any) -> tuple[list[str], dict[str, Any]]:
        from bow3d.rulesets.bow.odds import odds_report

        return odds_report(args)

    def cost_lines(self, scene: Any) -> list:
        from bow3d.rulesets.bow.cost import cost_lines

        return cost_lines(scene)

    def sheet_defaults(self) -> Any:
        """Default sheets for figures found in an LDraw model (scene from-ldraw)."""
        from bow3d.rulesets.bow.equipment import BOW_SHEETS

        return BOW_SHEETS


RULESET = BowRuleset()


def action_from_record(record: dict[str, Any]) -> Action:
    """The BOW action or answer (roll, decide) a record stands for; RulesError when malformed."""
    return RULESET.parse(record)
