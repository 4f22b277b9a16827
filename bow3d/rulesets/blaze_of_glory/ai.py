"""A heuristic Blaze of Glory player: shoots when the odds are good, moves to cover and range otherwise.

Layer: rulesets (Blaze of Glory; no world, view or replay import, no global random). It reads the
state, the sheets and the geometry through the rules' own questions, weighs shots by their exact
odds (bow3d.rulesets.blaze_of_glory.odds) with the rules' own modifiers (shooting.shot_value), and
breaks ties with the numpy Generator it is given, so a game is a function of its seed.

More: docs/modules/rulesets-blaze-of-glory.md#ai.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from bow3d.errors import RulesError
from bow3d.i18n import _
from bow3d.rules.pending import DecisionRequest
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
from bow3d.rulesets.blaze_of_glory.book import MOVE_IN, WEAPONS, inches, studs
from bow3d.rulesets.blaze_of_glory.fisticuffs import close_weapon
from bow3d.rulesets.blaze_of_glory.nerve import distance_in
from bow3d.rulesets.blaze_of_glory.odds import p_doubles, p_pass, wound_distribution
from bow3d.rulesets.blaze_of_glory.rolls import can_use_hero, characteristic
from bow3d.rulesets.blaze_of_glory.shooting import PISTOLS, firearms, kind_of, loaded, max_shots, plan_shots, shot_value
from bow3d.rulesets.blaze_of_glory.state import ACTED, BREAKING, ENGAGED, MOVE, MOVED, RAN, RUNNING, STANDING
from bow3d.rulesets.blaze_of_glory.terrain import CONTACT_STUDS, heights, in_contact, plan_path

HARM = {"out_of_action": 1.0, "wounded": 0.8, "knocked_down_nerve": 0.35, "knocked_down": 0.25, "no_effect": 0.0}
AMMO_COST = 0.25          # harm-equivalents lost when the gun runs dry
SHOOT_AT_LEAST = 0.12     # expected harm of a shot worth standing still for
EXTRA_SHOT_HERO = 2       # Hero Points kept in hand before buying an extra go shooting
TARGETS = 3               # nearest enemies weighed
HEADINGS = 16             # directions weighed for a move
SHARES = (1.0, 0.75, 0.5, 0.25)   # of the allowance
PLANNED = 4               # best-scored spots checked with the rules' path planner
CHECKED = 2               # best legal moves whose sight is asked of the world
COVER_VALUE = 1.0         # inches of approach a spot behind low cover is worth
COVER_LOW, COVER_HIGH = 20.0, 110.0   # LDU: an obstacle between these heights just ahead is cover
CLIMB_COST = 0.6          # per R test a move would ask


def _value(g: Any, unit: str, slot: str, target: str, shots: int, index: int = 0) -> float:
    """Expected harm of one shot (0 when it cannot be fired)."""
    shot = shot_value(g, unit, slot, target, shots, index)
    if not isinstance(shot, dict):
        return 0.0
    kind = kind_of(slot)
    dead_eye = g.ctx.sheet(g.state.figures[unit].sheet).has("dead eye") and not kind.template
    wound = wound_distribution(kind.wound_modifier, dead_eye)
    harm = sum(p * HARM.get(r, 0.0) for r, p in wound.items())
    return p_pass(shot["value"]) * harm


AI_VERSION = "blaze-of-glory-ai-1"   # what replay headers name; the ruleset's ai_version is this one


class BlazePlayer:
    """Chooses for one side: decisions asked of it, and the Active figure's actions (AI_VERSION)."""

    version = AI_VERSION

    def __init__(self, side: str, rng: Any = None) -> None:
        self.side = side
        self.rng = rng if rng is not None else np.random.default_rng(0)

    # -- decisions ----------------------------------------------------------------------------
    def choose(self, g: Any) -> Any:
        request = g.pending
        if isinstance(request, DecisionRequest):
            return request.answer(self._decide(g, request))
        unit = g.state.turn.unit
        if unit is None:
            raise RulesError(_("{side} is asked to play, but no figure is Active").format(side=self.side))
        action = self._act(g, unit)
        if g.check(action) is not None:   # a fallback that is always legal in a player phase
            action = next(iter(g.legal_actions()), EndTurn(unit))
        return action

    def _decide(self, g: Any, request: DecisionRequest) -> Any:
        options = request.options
        if request.decision in ("hero_point", "countershot"):
            return True if True in options else options[0]
        if request.decision == "duck_and_dive":
            return request.about.get("result") in ("out_of_action", "wounded", "knocked_down_nerve")
        if request.decision == "fist_target":
            return min(options, key=lambda o: (g.state.figures[o].status != "knocked_down",
                                               characteristic(g, o, "fisticuffs"), o))
        if request.decision == "attribute_loss":
            return self._split(g, request)
        return options[0]

    def _split(self, g: Any, request: DecisionRequest) -> Any:
        """Take the points where they hurt least: keep every characteristic above 0, shooting last."""
        unit = request.about["unit"]
        left = [characteristic(g, unit, c) for c in ("shoot", "fisticuffs", "reflexes", "nerve")]
        weight = (3.0, 1.0, 1.5, 2.0)

        def cost(split: tuple) -> tuple:
            after = [a - s for a, s in zip(left, split)]
            return (sum(1 for a in after if a <= 0), sum(w * s / max(a, 1) for w, s, a in zip(weight, split, left)),
                    split)
        return min(request.options, key=cost)

    # -- the Active figure --------------------------------------------------------------------
    def _act(self, g: Any, unit: str) -> Any:
        phase = g.state.turn.phase
        me = g.state.figures[unit]
        if phase == ENGAGED:
            return self._fist_choice(g, unit)
        if phase in (BREAKING, RUNNING):
            return self._move(g, unit, run=phase == RUNNING, away=phase == BREAKING)
        if phase == MOVE:
            finish = self._finish(g, unit)
            if finish is not None:
                return finish
            best = self._best_shot(g, unit)
            reload = self._reload_first(g, unit, best)
            if reload is not None:
                return reload
            covered = self._in_cover(g, unit)   # in cover: a shot from here beats walking out of it
            if best is not None and not g.state.turn.frenzy and (best[0] >= SHOOT_AT_LEAST or covered):
                return best[1]
            fight = self._fight(g, unit)
            if fight is not None:
                return fight
            return self._move(g, unit, run=False)
        if phase in (MOVED, RAN):
            best = self._best_shot(g, unit)
            if best is not None and best[0] > 0.0:
                return best[1]
            fight = self._fight(g, unit)
            if fight is not None:
                return fight
            if phase == MOVED and (g.state.turn.frenzy or g.state.turn.away_from or self._wants_to_run(g, unit)):
                return Run(unit)
            if phase == MOVED and not g.state.turn.frenzy:
                empty = [s for s in firearms(g, unit) if not loaded(g, unit, s)]
                if empty and can_use_hero(g, unit) and me.hero > EXTRA_SHOT_HERO:
                    return Reload(unit, empty[0], hero=True)
            return EndTurn(unit)
        if phase == ACTED:
            if can_use_hero(g, unit) and me.hero > EXTRA_SHOT_HERO and not g.state.turn.extra:
                best = self._best_shot(g, unit, hero=True)
                if best is not None and best[0] >= 2 * SHOOT_AT_LEAST:
                    return best[1]
            return EndTurn(unit)
        return EndTurn(unit)

    def _reload_first(self, g: Any, unit: str, best: tuple[float, Any] | None) -> Any:
        """Reload (the whole turn) an empty gun that would shoot better than the loaded ones."""
        empty = [s for s in firearms(g, unit) if not loaded(g, unit, s)]
        if not empty or g.state.turn.frenzy:
            return None
        if best is None:
            return Reload(unit, empty[0])
        me = g.state.figures[unit]
        enemies = [e for e in self._enemies(g, unit) if e.status == STANDING][:TARGETS]
        for slot in empty:
            most = max_shots(g, unit, slot)
            could = max((most * _value(g, unit, slot, e.id, most) for e in enemies
                         if distance_in(me, e) <= (kind_of(slot).range_in or 0) + 1e-9), default=0.0)
            if could > best[0] + SHOOT_AT_LEAST:
                return Reload(unit, slot)
        return None

    def _in_cover(self, g: Any, unit: str) -> bool:
        """The nearest standing enemy sees him in cover (or not at all)."""
        enemies = [e for e in self._enemies(g, unit) if e.status == STANDING]
        if not enemies:
            return False
        report = g.ask("sight", enemies[0].id, unit)
        if not report.visible:
            return True
        from bow3d.rulesets.blaze_of_glory.sight import judge_cover
        return judge_cover(report, g.ctx.partial_cover, g.ctx.opening_cover, g.ctx.full_cover).cover != "none"

    def _enemies(self, g: Any, unit: str) -> list[Any]:
        me = g.state.figures[unit]
        return sorted((f for f in g.state.figures.values() if f.side != me.side and f.on_table),
                      key=lambda f: (f.status != STANDING, distance_in(me, f), f.id))

    def _best_shot(self, g: Any, unit: str, hero: bool = False) -> tuple[float, Any] | None:
        """(expected harm less the ammo risk, Shoot) of the best legal volley, or None."""
        me = g.state.figures[unit]
        best: tuple[float, Any] | None = None
        goody = g.ctx.is_goody(me.side)   # a Goody does not shoot a man who is down and wounded
        enemies = [e for e in self._enemies(g, unit)
                   if e.status != "unconscious" and not (goody and e.status == "wounded")][:TARGETS]
        frenzy = g.state.turn.frenzy
        for slot in firearms(g, unit):
            if not loaded(g, unit, slot):
                continue
            kind = kind_of(slot)
            for enemy in enemies:
                if kind.range_in is not None and distance_in(me, enemy) > kind.range_in + 1:
                    continue
                lying = {"standing": 1.0, "knocked_down": 0.6}.get(enemy.status, 0.3)
                options: list[tuple[tuple[str, ...], float]] = []
                if kind.template:
                    options.append(((enemy.id,), self._template_value(g, unit, enemy.id)))
                elif slot == PISTOLS:
                    v = _value(g, unit, slot, enemy.id, 2, 0) + _value(g, unit, slot, enemy.id, 2, 1)
                    options.append(((enemy.id, enemy.id), v * lying))
                else:
                    most = max_shots(g, unit, slot)
                    for n in range(1, most + 1):
                        if frenzy and n != most:
                            continue
                        v = n * _value(g, unit, slot, enemy.id, n) * lying
                        if kind.runs_dry:
                            v -= AMMO_COST * p_doubles(n)
                        options.append(((enemy.id,) * n, v))
                for targets, value in options:
                    action = Shoot(unit, slot, targets, hero)
                    if value > 0 and (best is None or value > best[0] + 1e-9) and plan_shots(g, action)[1] is None:
                        best = (value, action)
        return best

    def _template_value(self, g: Any, unit: str, aim: str) -> float:
        plan, refusal = plan_shots(g, Shoot(unit, "shotgun", (aim,)))
        if refusal is not None or plan is None:
            return 0.0
        wound = wound_distribution(WEAPONS["shotgun"].wound_modifier)
        harm = sum(p * HARM.get(r, 0.0) for r, p in wound.items())
        side = g.state.figures[unit].side
        total = 0.0
        for shot in plan:
            sign = -1.5 if g.state.figures[shot["target"]].side == side else 1.0
            total += sign * p_pass(shot["value"]) * harm
        return total

    def _finish(self, g: Any, unit: str) -> Any:
        me = g.state.figures[unit]
        if g.ctx.is_goody(me.side):
            return None
        for other in g.state.figures.values():
            if other.side != me.side and other.status in ("wounded", "unconscious") and in_contact(g, unit, other.id):
                return Finish(unit, other.id)
        return None

    def _fight(self, g: Any, unit: str) -> Any:
        me = g.state.figures[unit]
        for other in self._enemies(g, unit):
            if other.in_fight and in_contact(g, unit, other.id):
                return Fight(unit, other.id)
        del me
        return None

    def _fist_choice(self, g: Any, unit: str) -> Any:
        me = g.state.figures[unit]
        mine = characteristic(g, unit, "fisticuffs") + (1 if close_weapon(g, unit) else 0)
        theirs = max((characteristic(g, o, "fisticuffs") for o in me.engaged), default=0)
        if mine + 1 >= theirs or characteristic(g, unit, "reflexes") <= 2:
            return FightOn(unit)
        return Disengage(unit)

    def _wants_to_run(self, g: Any, unit: str) -> bool:
        """Nothing in range to shoot at: run on towards the enemy."""
        me = g.state.figures[unit]
        reach = max((kind_of(s).range_in or 0.0 for s in firearms(g, unit)), default=0.0)
        enemies = self._enemies(g, unit)
        return bool(enemies) and distance_in(me, enemies[0]) > 0.75 * reach

    # -- moving ----------------------------------------------------------------------------------
    def _goal(self, g: Any, unit: str) -> tuple[Any, float]:
        """The enemy to close on and the distance (inches) to stop at."""
        me = g.state.figures[unit]
        enemies = [e for e in self._enemies(g, unit) if e.in_fight] or self._enemies(g, unit)
        turn = g.state.turn
        if turn.frenzy and turn.frenzy_enemy in g.state.figures:
            enemy = g.state.figures[turn.frenzy_enemy]
        elif me.vengeance is not None and g.state.figures[me.vengeance].on_table:
            enemy = g.state.figures[me.vengeance]
        else:
            enemy = enemies[0] if enemies else None
        ranges = [kind_of(s).range_in or 0.0 for s in firearms(g, unit) if loaded(g, unit, s)]
        want = 0.5 * max(ranges) if ranges else inches(CONTACT_STUDS) * 0.8
        return enemy, want

    def _move(self, g: Any, unit: str, run: bool, away: bool = False) -> Any:
        """Score spots within the allowance at once (distance to the wanted range, something low just in
        front of them towards the enemy), then check the best with the rules' path planner and the world."""
        me = g.state.figures[unit]
        cls = RunMove if run else Move
        allowance = g.state.turn.run_in if run else MOVE_IN
        enemy, want = self._goal(g, unit)
        stay = cls(unit, (me.position,))
        if enemy is None or allowance <= 0:
            return stay
        here, there = np.asarray(me.position, float), np.asarray(enemy.position, float)
        towards = math.atan2(*(there - here)[::-1]) + (math.pi if away else 0.0)
        angles = towards + np.radians(np.arange(0, 360, 360 / HEADINGS))
        reach = studs(allowance) - 0.01
        steps = reach * np.array(SHARES)
        ends = here + np.stack([np.outer(steps, np.cos(angles)), np.outer(steps, np.sin(angles))], -1).reshape(-1, 2)
        ends = np.round(ends, 3)
        gap = inches(float(np.hypot(*(there - here))))
        d = np.hypot(*(there - ends).T) / studs(1.0)
        if away:
            score = d
        else:
            score = min(gap, max(gap - want, 0.0)) - np.maximum(d - want, 0.0) - 0.3 * np.maximum(want - d, 0.0)
            score = score + COVER_VALUE * self._cover_hints(g, ends, there)
        score = score + 1e-6 * self.rng.random(len(ends))
        legal = []
        for k in np.argsort(-score):
            end = (float(ends[k, 0]), float(ends[k, 1]))
            plan = plan_path(g, unit, (end,), allowance)
            if plan.problem is not None or g.state.turn.level_changes + plan.tests > 3:
                continue
            legal.append((float(score[k]) - CLIMB_COST * plan.tests, end))
            if len(legal) >= PLANNED:
                break
        if not legal:
            return stay
        legal.sort(key=lambda s: -s[0])
        best_score, best_end = legal[0]
        if not away:
            for value, end in legal[:CHECKED]:   # ask the world whether the enemy is seen from there
                seen = self._sees_from(g, unit, end, enemy.id)
                value += 0.5 if seen else -0.3
                if value > best_score or end == best_end and seen:
                    best_score, best_end = value, end
        return cls(unit, (best_end,))

    def _cover_hints(self, g: Any, ends: np.ndarray, enemy: np.ndarray) -> np.ndarray:
        """(N,) 1.0 where something low (a crate, a trough, a low wall: 20 to 110 LDU above the spot) stands
        1 to 3 studs in front of the spot towards the enemy: partial cover; one batch of ground heights."""
        direction = enemy - ends
        direction /= np.maximum(np.hypot(*direction.T), 1e-6)[:, None]
        ahead = np.array([0.0, 1.0, 1.5, 2.0, 2.5, 3.0])
        probes = ends[:, None, :] + ahead[None, :, None] * direction[:, None, :]
        ground = heights(g, probes.reshape(-1, 2)).reshape(len(ends), len(ahead))
        ground = np.where(np.isfinite(ground), ground, -1e9)   # off the table: never cover
        rise = ground[:, 1:] - ground[:, :1]
        return np.any((rise >= COVER_LOW) & (rise <= COVER_HIGH), axis=1).astype(float)

    def _sees_from(self, g: Any, unit: str, end: tuple[float, float], enemy: str) -> bool:
        me = g.state.figures[unit]
        geometry = g.geometry
        geometry.place(unit, end, me.facing)
        try:
            return bool(geometry.sight(unit, enemy).visible)
        finally:
            geometry.place(unit, me.position, me.facing)
