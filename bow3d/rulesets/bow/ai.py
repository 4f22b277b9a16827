"""A heuristic BOW player: weighs its units' options and plays the best one.

Layer: rulesets (BOW; no world, view or replay import, no global random). It reads the game state,
the description sheets and the geometry protocol (C2), and weighs attacks and treatments by
their exact odds (bow3d.rulesets.bow.odds) with the rules' own brick counts (combat.attack_plan).
Ties are broken by a numpy Generator passed in, so a game is a function of its seed.

Also cites BOW 1.3 §2.4.2, §2.4.3, §2.3.1, §2.4.4, §3.3, §3.6.2. More:
docs/modules/rulesets-bow.md#ai.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from bow3d.errors import RulesError
from bow3d.i18n import _
from bow3d.rulesets.bow.actions import Action, Attack, CompulsoryMove, DriftMove, EndTurn, GetOff, GetOn, Move, Treat
from bow3d.rulesets.bow.ai_board import _bearing, _Board, _turn_between
from bow3d.rulesets.bow.ai_pilots import Pilots
from bow3d.rulesets.bow.combat import attack_plan
from bow3d.rulesets.bow.context import sheet_value
from bow3d.rulesets.bow.handling import move_studs
from bow3d.rulesets.bow.odds import attack_odds, treat_odds
from bow3d.rulesets.bow.queries import actors, drifting_vehicles, piloted
from bow3d.rulesets.bow.sight import is_covered, sees

# Weights, in expected damage points (a kill of the last HP is worth KILL_VALUE more).
KILL_VALUE = 1.5
TREAT_VALUE = 2.0           # one HP back is one hit less from death
COVER_VALUE = 0.45          # per enemy shooter asked: the cell is covered from him
HIDDEN_VALUE = 0.35         # per enemy shooter asked: the cell is out of his sight
EXPOSED_PENALTY = 0.15      # per enemy shooter that would see the cell in the open
GRID_COVER_HINT = 0.1       # an obstacle next to the cell towards the nearest enemy (before asking)
ADVANCE_VALUE = 0.35        # per Move worth of studs towards the best range band
SEEK_VALUE = 0.25           # no target in sight: per Move worth of studs towards the enemy
FOLLOW_VALUE = 0.15         # medic with nobody to treat: per Move worth of studs towards his friends
WOUNDED_PULL = 0.6          # medic: per Move worth of studs towards a wounded friend
WAIT_FOR_MEDIC = 1.0        # a wounded unit walking away from the medic beside him
MOVE_COST = 0.02            # a move that gains nothing is not made
REORIENT_VALUE = 0.15       # turning on the spot to face an enemy behind (front arc)
BOARD_VALUE = 0.3           # taking a free pilot's seat
MAX_UNITS = 2               # units weighed in full at the start of a turn (first version; now all)
TARGETS = 2                 # nearest targets in front weighed per weapon
REFINE = 1                  # obstacle-side moves per choice whose cover is asked too
SHOOTERS = 1                # enemy shooters asked per move
CAN_WIN = (COVER_VALUE + EXPOSED_PENALTY) * SHOOTERS  # the most a cover check can add to a move
TIE = 1e-9
PASS_COST = 0.12            # ending a turn without acting (a unit always has a small step or a shot)
URGENCY_WEIGHT = 0.2        # every unit weighed: per point of urgency, its options first (who is in reach)
UNPLAYED_KILL = 0.75        # a kill of a unit that has not played yet this round: its action is lost too
FOLLOW_UP = 0.5             # a move: per point of the best shot it allows next, over the shot from here
FOLLOWED = 4                # best moves per choice whose follow-up shot is asked (apply, weigh, pop)
AI_VERSION = "bow-ai-2"
FIRST_AI_VERSION = "bow-ai-1"


class AIPlayer(Pilots):
    """Plays one side: `choose(game)` returns an action the rules accept (AI_VERSION).

    What it weighs beyond its first version (FirstAIPlayer), each a flag of the class:
    `plans_courses` a pilot weighs every course it can still set, checked where the vehicle will
    face (courses.py), never one into a wall or over a friend, and stops to get off when every
    course is blocked (`dismounts`); `weighed_units` every unit of the side, not the 2 most urgent;
    `riders_shoot` enemies aboard vehicles shoot too; `follow_up` a move is worth the shot it
    allows from where it ends (close in rather than trade 1-brick shots); `pass_cost` a unit
    that ends its turn without acting gives up something.
    """

    name = "ai"
    version = AI_VERSION
    weighed_units: int | None = None
    plans_courses = True
    dismounts = True
    riders_shoot = True
    follow_up = True
    pass_cost = PASS_COST
    urgency_weight = URGENCY_WEIGHT
    unplayed_kill = UNPLAYED_KILL

    def __init__(self, side: str, rng: np.random.Generator) -> None:
        self.side = side
        self.rng = rng

    # -- choosing ------------------------------------------------------------------------
    def choose(self, game: Any) -> Action:
        """The best-weighed action now (ties broken by the generator)."""
        return self._pick(game, self.options(game))

    def options(self, game: Any) -> list[tuple[float, Action]]:
        """Every option weighed now, (score, action), best first not guaranteed; the rules' checker
        has the last word (see _pick)."""
        board = _Board(game, self.side, riders_shoot=self.riders_shoot)
        units = actors(game)
        if not units or game.state.phase != "play":
            return [(self._score_any(board, a), a) for a in game.legal_actions()]
        active = game.state.active_unit
        if active is not None and self._spent(board, active):
            return [(0.01, CompulsoryMove(active)), (0.0, EndTurn(active))]
        urgency = {}
        if active is None:
            urgency = {u: self._urgency(board, u) for u in units}
            units = sorted(units, key=lambda u: -urgency[u])[:self.weighed_units]
        options: list[tuple[float, Action]] = []
        for unit in units:
            options += self._options(board, unit)
        self._refine_moves(board, options)
        if self.follow_up:
            self._follow_up(board, options)
        if not urgency or not self.urgency_weight:
            return options
        # who is in reach acts first (the actor of a drifting vehicle's move counts as its unit)
        return [(score + self.urgency_weight * urgency.get(getattr(action, "unit", ""), 0.0), action)
                for score, action in options]

    def _refine_moves(self, b: _Board, options: list[tuple[float, Action]]) -> None:
        """Ask the geometry about the cover of the best move that could win, and of the REFINE
        best next to an obstacle (§2.4.2)."""
        best = max(score for score, _unused in options)
        ranked = sorted((i for i, (score, action) in enumerate(options)
                         if isinstance(action, Move) and score > best - CAN_WIN
                         and action.to != (int(b.units[action.unit].position[0] // 1),
                                           int(b.units[action.unit].position[1] // 1))),
                        key=lambda i: -options[i][0])
        top = ranked[:1]
        top += [i for i in ranked if options[i][1] in b.hinted and i not in top][:REFINE]
        here: dict[str, float] = {}
        for i in top:
            score, action = options[i]
            assert isinstance(action, Move)  # ranked holds moves only
            unit = b.units[action.unit]
            if unit.id not in here:  # the same question where the unit stands (no move: a cached answer)
                here[unit.id] = self._cover_check(b, unit, unit.position, unit.facing)
            there = self._cover_check(b, unit, (action.to[0] + 0.5, action.to[1] + 0.5), action.facing)
            options[i] = (score + there - here[unit.id], action)

    def _spent(self, b: _Board, unit_id: str) -> bool:
        """The unit has used its whole action budget (BOW §2.2): only free actions remain."""
        unit = b.units[unit_id]
        return unit.actions_used >= int(sheet_value(b.sheet(unit.sheet), "action_budget", 1)) and \
            not drifting_vehicles(b.game)

    def _pick(self, game: Any, options: list[tuple[float, Action]]) -> Action:
        """The best option the rules accept; equal best ones drawn by the generator."""
        options = sorted(options, key=lambda o: -o[0])
        best: list[Action] = []
        top = -math.inf
        for score, action in options:
            if best and score < top - TIE:
                break
            if game.refusal(action) is None:
                if not best:
                    top = score
                best.append(action)
        if not best:
            legal = game.legal_actions()
            if not legal:
                raise RulesError(_("the AI of {side} has no legal action (is a brick roll pending?)")
                                 .format(side=self.side))
            return legal[0]
        return best[0] if len(best) == 1 else best[int(self.rng.integers(len(best)))]

    def _urgency(self, b: _Board, unit_id: str) -> float:
        """A cheap guess at how much a unit has to do now (who plays first in a turn)."""
        unit = b.units[unit_id]
        sheet = b.sheet(unit.sheet)
        where = b.position_of(unit_id)
        if int(sheet_value(sheet, "treat")) > 0 and self._wounded_near(b, unit, 1.5):
            return 4.0
        distance, _unused = b.nearest_enemy(where)
        if unit.aboard is not None:
            return 2.5 if piloted(b.game, unit_id) is not None else 1.0 + 1.0 / (1.0 + distance)
        weapon = b.game.ctx.weapon(unit.sheet, unit.weapon)
        if sheet_value(weapon, "kind", "ranged") == "melee":
            reach = float(sheet_value(weapon, "reach", 1)) + 1.5
        else:
            reach = b.game.ctx.range_band * (int(sheet_value(sheet, "attack")) + int(sheet_value(weapon, "damage")))
        return (3.0 if distance <= reach else 1.0) + 1.0 / (1.0 + distance)

    # -- one unit's options ----------------------------------------------------------------
    def _options(self, b: _Board, unit_id: str) -> list[tuple[float, Action]]:
        unit = b.units[unit_id]
        options: list[tuple[float, Action]] = [(-self.pass_cost if unit.actions_used == 0 else 0.0, EndTurn(unit_id))]
        attacks = self._attacks(b, unit)
        options += attacks
        options += self._treats(b, unit)
        options += [(0.01, DriftMove(unit_id, vid)) for vid in drifting_vehicles(b.game)
                    if b.vehicles[vid].side == self.side]
        if unit.aboard is not None:
            if not self.plans_courses:
                return options + self._piloting(b, unit)
            return self._steering(b, unit, options)
        options += self._boarding(b, unit)
        options += self._moves(b, unit, can_attack=bool(attacks))
        return options

    def _score_any(self, b: _Board, action: Action) -> float:
        """Weigh one action of legal_actions() (outside the normal play phase)."""
        if isinstance(action, Attack):
            return self._attack_score(b, action)
        if isinstance(action, (DriftMove, CompulsoryMove)):
            return 0.01
        if isinstance(action, GetOff):
            return -0.3
        return 0.0 if isinstance(action, EndTurn) else -0.5

    def _attacks(self, b: _Board, unit: Any) -> list[tuple[float, Action]]:
        """Attacks with the weapon in hand (or the vehicle's) on enemies within a plausible range."""
        ctx = b.game.ctx
        weapons = []
        if unit.aboard is not None:
            weapons += list(sheet_value(b.sheet(b.vehicles[unit.aboard].sheet), "weapons", []))
        if unit.weapon is not None:
            weapons.append(ctx.weapon(unit.sheet, unit.weapon))
        where = b.position_of(unit.id)
        if where is None:
            return []
        skill = int(sheet_value(b.sheet(unit.sheet), "attack"))
        facing = b.vehicles[unit.aboard].facing if unit.aboard is not None else unit.facing
        targets = [(e.id, b.position_of(e.id)) for e in b.enemies]
        targets += [(v.id, v.position) for v in b.vehicles.values() if v.side != self.side and v.in_play]
        by_distance = sorted((math.dist(where, at), id, at) for id, at in targets if at is not None)
        options: list[tuple[float, Action]] = []
        for weapon in weapons:
            if weapon is None:
                continue
            if sheet_value(weapon, "kind", "ranged") == "melee":
                reach = float(sheet_value(weapon, "reach", 1)) + 4.0  # body to body, vehicles are big
            else:
                reach = ctx.range_band * (skill + int(sheet_value(weapon, "damage"))) + 0.5
            arc = float(sheet_value(weapon, "arc", 180))
            asked = 0
            for distance, target, at in by_distance:
                if distance > reach or asked >= TARGETS:
                    break
                if arc < 360 and distance > 1.5 and _turn_between(facing, _bearing(where, at)) > arc / 2 + 5:
                    continue  # behind the unit (§2.4.2 front arc; the checker has the last word)
                asked += 1
                action = Attack(unit.id, target, weapon.name)
                score = self._attack_score(b, action)
                if score > -1.0:
                    options.append((score, action))
        return options

    def _attack_score(self, b: _Board, action: Attack) -> float:
        """Expected damage plus the chance to kill, with the rules' own brick counts (§2.4.2)."""
        plan, _unused = attack_plan(b.game, action)
        if plan is None or plan["attack"] <= 0:
            return -1.0
        target = b.units.get(action.target) or b.vehicles[action.target]
        odds = attack_odds(int(plan["attack"]), int(plan["dodge"]), b.game.ctx.p)
        left = int(sheet_value(b.sheet(target.sheet), "hp", 1)) - int(target.damage)
        kill = sum(p for k, p in odds.damage_distribution.items() if k >= max(left, 1))
        # §2.2: sides alternate units; one killed before it has played this round loses its action too
        before_it_acts = self.unplayed_kill if getattr(target, "played", True) is False else 0.0
        return odds.expected_damage + (KILL_VALUE + before_it_acts) * kill

    def _treats(self, b: _Board, unit: Any) -> list[tuple[float, Action]]:
        """BOW §2.4.4: treat a wounded friend within touch (the checker decides colour and contact)."""
        treat = int(sheet_value(b.sheet(unit.sheet), "treat"))
        where = b.position_of(unit.id)
        if treat <= 0 or where is None:
            return []
        options: list[tuple[float, Action]] = []
        for other in list(b.units.values()) + list(b.vehicles.values()):
            at = b.position_of(other.id)
            if other.side == self.side and other.damage > 0 and other.id != unit.id and at is not None \
                    and math.dist(at, where) <= 8.0:
                odds = treat_odds(treat, int(other.damage), b.game.ctx.p)
                options.append((TREAT_VALUE * odds.success, Treat(unit.id, other.id)))
        return options

    def _wounded_near(self, b: _Board, medic: Any, within: float) -> bool:
        colour = sheet_value(b.sheet(medic.sheet), "treat_colour", "red")
        where = b.position_of(medic.id)
        return where is not None and any(
            f.damage > 0 and sheet_value(b.sheet(f.sheet), "hp_colour", "red") == colour
            and (at := b.position_of(f.id)) is not None and math.dist(at, where) <= within
            for f in b.friends(medic.id))

    def _boarding(self, b: _Board, unit: Any) -> list[tuple[float, Action]]:
        """Take the free pilot's seat of a friendly vehicle close by (§2.3.3)."""
        options: list[tuple[float, Action]] = []
        for vehicle in b.vehicles.values():
            if vehicle.side == self.side and vehicle.in_play and vehicle.seats and vehicle.seats[0] is None \
                    and vehicle.position is not None and math.dist(vehicle.position, unit.position) <= 6.0:
                options.append((BOARD_VALUE, GetOn(unit.id, vehicle.id, 0)))
        return options

    # -- moves -----------------------------------------------------------------------------
    def _moves(self, b: _Board, unit: Any, can_attack: bool) -> list[tuple[float, Action]]:
        """Every reachable cell scored at once (numpy), cover guessed from the grid (the best
        moves are then asked about cover by _refine_moves)."""
        game = b.game
        start = unit.position
        if start is None or not len(b.enemy_xy):
            return []
        move = max(1, move_studs(game, unit))
        reach = game.ask("reachable_cells", unit.id, move)
        here_cell = unit.cell
        cells = np.array([c for c in reach if c != here_cell], int).reshape(-1, 2)
        options: list[tuple[float, Action]] = []
        d_now, enemy = b.nearest_enemy(start)
        if enemy is not None and _turn_between(unit.facing, _bearing(start, tuple(enemy))) > 90:
            options.append((REORIENT_VALUE, Move(unit.id, unit.cell, round(_bearing(start, tuple(enemy)), 1))))
        if not len(cells):
            return options
        centres = cells + 0.5
        gaps = np.hypot(centres[:, None, 0] - b.enemy_xy[None, :, 0], centres[:, None, 1] - b.enemy_xy[None, :, 1])
        nearest = np.argmin(gaps, axis=1)
        d_new = gaps[np.arange(len(cells)), nearest]
        scores = self._intent(b, unit, centres, d_now, d_new, move, can_attack)
        # cover, first guess: every enemy shooter in range sees the cell in the open, an obstacle
        # next to it is a hint; counted as a change from where the unit stands (no gain, no move)
        here = np.array([start])
        gaps_here = np.hypot(here[:, None, 0] - b.enemy_xy[None, :, 0], here[:, None, 1] - b.enemy_xy[None, :, 1])
        scores -= EXPOSED_PENALTY * ((gaps <= b.shooter_range[None, :]).sum(axis=1)
                                     - (gaps_here <= b.shooter_range[None, :]).sum())
        hints = self._grid_cover(game, unit, np.vstack([cells, [unit.cell]]),
                                 b.enemy_xy[np.append(nearest, np.argmin(gaps_here[0]))], move)
        scores += GRID_COVER_HINT * (hints[:-1].astype(float) - float(hints[-1])) - MOVE_COST
        facings = np.round(np.degrees(np.arctan2(b.enemy_xy[nearest, 1] - centres[:, 1],
                                                 b.enemy_xy[nearest, 0] - centres[:, 0])) % 360, 1)
        keep = np.argsort(-scores, kind="stable")[:12]
        b.hinted.update(Move(unit.id, (int(cells[i, 0]), int(cells[i, 1])), float(facings[i]))
                        for i in keep if hints[i])
        options += [(float(scores[i]), Move(unit.id, (int(cells[i, 0]), int(cells[i, 1])), float(facings[i])))
                    for i in keep]
        return options

    def _intent(self, b: _Board, unit: Any, centres: np.ndarray, d_now: float, d_new: np.ndarray, move: int,
                can_attack: bool) -> np.ndarray:
        """What the unit walks for: a wounded friend, its friends, the enemy, its best range band."""
        sheet = b.sheet(unit.sheet)
        scores = np.zeros(len(centres))
        start = unit.position
        weapon = b.game.ctx.weapon(unit.sheet, unit.weapon)
        medic = int(sheet_value(sheet, "treat")) > 0
        wounded = self._wounded_friend(b, unit) if medic else None
        if wounded is not None:  # §2.4.4: the medic must touch him
            w_new = np.hypot(centres[:, 0] - wounded[0], centres[:, 1] - wounded[1])
            scores += WOUNDED_PULL * (math.dist(start, wounded) - w_new) / move + 0.3 * (w_new <= 1.5)
        elif medic:
            places = [b.position_of(f.id) for f in b.friends(unit.id)]
            friends = [f for f in places if f is not None]
            if friends:
                cx, cy = np.mean(friends, axis=0)
                scores += FOLLOW_VALUE * (math.hypot(start[0] - cx, start[1] - cy)
                                          - np.hypot(centres[:, 0] - cx, centres[:, 1] - cy)) / move
        elif sheet_value(weapon, "kind", "ranged") == "melee":  # charge
            reach = float(sheet_value(weapon, "reach", 1))
            scores += ADVANCE_VALUE * 2 * (d_now - d_new) / move + 0.5 * (d_new <= reach + 1.0)
        else:
            bricks = int(sheet_value(sheet, "attack")) + int(sheet_value(weapon, "damage"))
            best_range = b.game.ctx.range_band * max(1, bricks - 1)  # keep at least 2 bricks
            if not can_attack:  # nobody in sight: look for a target, more eagerly as rounds go by
                scores += SEEK_VALUE * (1 + b.game.state.round / 8) * (d_now - d_new) / move
            elif d_now > best_range:
                scores += ADVANCE_VALUE * (np.minimum(d_now, d_new + move) - np.maximum(d_new, best_range)) / move
            else:
                scores -= ADVANCE_VALUE * (d_new > best_range)
        if unit.damage > 0:
            medics = self._medics_for(b, unit)
            if len(medics) and np.min(np.hypot(medics[:, 0] - start[0], medics[:, 1] - start[1])) <= 1.5:
                near = np.hypot(centres[:, None, 0] - medics[None, :, 0], centres[:, None, 1] - medics[None, :, 1])
                scores -= WAIT_FOR_MEDIC * (near.min(axis=1) > 1.5)
        return scores

    def _wounded_friend(self, b: _Board, medic: Any) -> tuple[float, float] | None:
        """The nearest wounded friend whose HP colour matches the medic's treat colour (§2.4.4)."""
        colour = sheet_value(b.sheet(medic.sheet), "treat_colour", "red")
        best, where = math.inf, None
        for friend in b.friends(medic.id):
            at = b.position_of(friend.id)
            if (friend.damage > 0 and at is not None and sheet_value(b.sheet(friend.sheet), "hp_colour", "red") == colour
                    and math.dist(at, medic.position) < best):
                best, where = math.dist(at, medic.position), at
        return where

    def _medics_for(self, b: _Board, unit: Any) -> np.ndarray:
        """(k, 2) positions of friends who can still treat this unit this round (colour match)."""
        colour = sheet_value(b.sheet(unit.sheet), "hp_colour", "red")
        points = [f.position for f in b.friends(unit.id)
                  if not f.played and f.position is not None and int(sheet_value(b.sheet(f.sheet), "treat")) > 0
                  and sheet_value(b.sheet(f.sheet), "treat_colour", "red") == colour]
        return np.array(points, float).reshape(-1, 2)

    def _grid_cover(self, game: Any, unit: Any, cells: np.ndarray, enemies: np.ndarray, move: int) -> np.ndarray:
        """(n,) bool: the neighbour of the cell in the direction of its nearest enemy (rounded to
        one of the 8 grid directions) is not walkable (a wall, a house, a unit): a cell within
        move of the start that the unit cannot reach in move steps (the edge of the field counts
        too: a small error that the cover check corrects)."""
        walkable = set(game.ask("reachable_cells", unit.id, move))
        angle = np.arctan2(enemies[:, 1] - cells[:, 1] - 0.5, enemies[:, 0] - cells[:, 0] - 0.5)
        octant = np.round(angle / (np.pi / 4)).astype(int) % 8
        steps = np.array([(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)])
        neighbours = cells + steps[octant]
        near = np.abs(neighbours - np.array(unit.cell)).max(axis=1) <= move
        blocked = np.array([tuple(n) not in walkable for n in neighbours.tolist()], bool).reshape(-1)
        return near & blocked

    def _cover_check(self, b: _Board, unit: Any, to: tuple[float, float], facing: float) -> float:
        """Stand the unit at `to`, ask the nearest enemy shooters for sight, put it back (§2.4.2).
        Returns the correction to the move's score (its first guess counted every shooter as
        seeing it in the open, plus the grid hint)."""
        gaps = np.hypot(b.enemy_xy[:, 0] - to[0], b.enemy_xy[:, 1] - to[1])
        in_range = np.flatnonzero(gaps <= b.shooter_range)
        if not len(in_range):
            return 0.0
        asked = in_range[np.argsort(gaps[in_range], kind="stable")[:SHOOTERS]]
        geometry = b.game.geometry
        if (to, facing) == (unit.position, unit.facing):
            reports = [geometry.sight(b.enemies[i].id, unit.id) for i in asked]
        else:
            geometry.place(unit.id, to, facing)
            try:
                reports = [geometry.sight(b.enemies[i].id, unit.id) for i in asked]
            finally:
                geometry.place(unit.id, unit.position, unit.facing)
        glass_hides = b.game.ctx.readings.glass_hides
        value = sum(HIDDEN_VALUE if not sees(r, glass_hides) else
                    COVER_VALUE if is_covered(r, b.game.ctx.cover_threshold, glass_hides) else -EXPOSED_PENALTY
                    for r in reports)
        return value + EXPOSED_PENALTY * len(asked)

    # -- moves worth the shot they allow (follow_up) ------------------------------------------------
    def _follow_up(self, b: _Board, options: list[tuple[float, Action]]) -> None:
        """A move of a unit with an action left after it is worth the best shot from where it ends,
        over the best shot from where it stands (§2.4.2: closer is fewer range bricks lost): the game
        plays the move, the unit's attacks are weighed, the move is taken back (Game.pop)."""
        game = b.game
        budget = {uid: int(sheet_value(b.sheet(u.sheet), "action_budget", 1)) - u.actions_used for uid, u in b.units.items()}
        now: dict[str, float] = {}
        for score, action in options:
            if isinstance(action, (Attack, Treat)):
                now[action.unit] = max(now.get(action.unit, 0.0), score)
        moves = sorted((i for i, (_unused, a) in enumerate(options) if isinstance(a, Move) and budget.get(a.unit, 0) >= 2
                        and tuple(a.to) != b.units[a.unit].cell), key=lambda i: -options[i][0])
        per_unit: dict[str, int] = {}
        asked: list[int] = []
        for i in moves:
            move = options[i][1]
            assert isinstance(move, Move)  # moves holds moves only
            unit_id = move.unit
            if per_unit.get(unit_id, 0) < 2 and len(asked) < FOLLOWED * 2:
                per_unit[unit_id] = per_unit.get(unit_id, 0) + 1
                asked.append(i)
        for i in asked:   # last: b's tables are the game's, changed by apply and left stale by pop
            score, action = options[i]
            assert isinstance(action, Move)  # asked holds moves only
            if game.refusal(action) is not None:
                continue
            game.apply(action)
            try:
                after = _Board(game, self.side, riders_shoot=self.riders_shoot)
                shots = [s for s, _unused in self._attacks(after, after.units[action.unit])]
            finally:
                game.pop()
            gain = max(shots, default=0.0) - now.get(action.unit, 0.0)
            if gain > 0:
                options[i] = (score + FOLLOW_UP * gain, action)


class FirstAIPlayer(AIPlayer):
    """The AI as its first version played (FIRST_AI_VERSION), kept so that the replays it played still
    re-derive its choices: two units weighed per turn, a pilot that looks along its course before
    turning only, enemies aboard vehicles harmless, no follow-up shot, passing for free."""

    version = FIRST_AI_VERSION
    weighed_units = MAX_UNITS
    plans_courses = False
    dismounts = False
    riders_shoot = False
    follow_up = False
    pass_cost = 0.0
    urgency_weight = 0.0
    unplayed_kill = 0.0
