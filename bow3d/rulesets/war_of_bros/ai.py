"""A heuristic War of Bros player: takes cover, uses the first-turn move, picks its targets by the odds.

Layer: rulesets (War of Bros; numpy; no world, view or replay import, no global random). It reads
the game state, the profiles and the terrain, weighs attacks by their exact odds
(bow3d.rulesets.war_of_bros.odds, the same steps the game plays) with the cover the 3D world
gives (a sight report judged as the Cover Step judges it), and plays what the rules' checker
accepts. Ties are broken by candidate order, so a game is a function of its seed.

More: docs/modules/rulesets-war-of-bros.md#ai.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from bow3d.errors import RulesError
from bow3d.i18n import _
from bow3d.rules.pending import DecisionRequest
from bow3d.rulesets.war_of_bros import cover as covers, measures, plan
from bow3d.rulesets.war_of_bros.actions import Action, Attack, EndStep, EndTurn, Move, Place, Turn
from bow3d.rulesets.war_of_bros.combat import first_unit_on_line
from bow3d.rulesets.war_of_bros.odds import attack_odds
from bow3d.rulesets.war_of_bros.saves import STEPS, attack_dice, reactive_shield_active, save_of
from bow3d.rulesets.war_of_bros.turns import activatable, to_place

HEADINGS = np.radians(np.arange(0.0, 360.0, 45.0))
SHARES = (1.0, 0.5)               # of the movement left
THREAT_WEIGHT = 0.3               # an enemy's chance to kill the unit next turn, against its own chance now
ADVANCE_WEIGHT = 0.05             # per cm nearer the distance it wants (nothing in reach)
COVER_RANK_FACTOR = (1.0, 0.75, 0.5, 0.25, 0.0)   # an enemy's odds scaled by the cover class between (estimate)
MOVE_GAIN = 0.01                  # a move that gains less is not made
FACING_TOLERANCE_DEG = 10.0
TRIES = 16                        # moves offered to the checker, best first
BACK_OFF_STUDS = (2.0, 4.0, 8.0, 12.0, 16.0, 24.0)
TURNS = 2                         # free turns in one step at most
NEAREST = 3                       # moves straight towards the nearest enemies are weighed too
ATTACKS_WEIGHED = 2               # the best attacks in the open are weighed again with their cover
COVER_REACH_STUDS = 8.0           # terrain this near a spot, towards an enemy, is taken for its cover
_RANK_FACTOR = np.array(COVER_RANK_FACTOR)
# (heading, its unit vector, heading % 360) of the compass headings every unit weighs: worked out once (the same
# numpy degrees and the same numbers as per call)
_COMPASS = [(h, plan.unit_vector(h), h % 360.0) for h in np.degrees(HEADINGS)]
WEIGHED_LIMIT = 256               # moves weighed, remembered per unit and state (see WarOfBrosAI._weighed)
MEMO_LIMIT = 4096                 # answers remembered by _clear and _cover_rank (each, for the process)


AI_VERSION = "war-of-bros-ai-2"
FIRST_AI_VERSION = "war-of-bros-ai-1"


class WarOfBrosAI:
    """Plays one side (see the module docstring; AI_VERSION). `spares_friends`: a Mechanized unit never
    drives (or turns) over a friend (the first version weighed only the decor it would destroy)."""

    version = AI_VERSION
    spares_friends = True

    def __init__(self, side: str, rng: np.random.Generator) -> None:
        self.side = side
        self.rng = rng
        self._odds: dict[tuple, Any] = {}  # odds (floats) and the walls' boxes (arrays)
        self._weighed_memo: dict[tuple, tuple | None] = {}   # see _weighed
        self._p_fast: dict[tuple, tuple] = {}   # (id(weapon), id(profile), part, cover) -> (p, weapon, profile)
        self._hidden: set[tuple] = set()   # (round, unit): its Final Movement Step move is made
        self._turns: dict[tuple, int] = {}  # (round, unit, step): free turns made

    # -- the engine's call --------------------------------------------------------------------
    def choose(self, game: Any) -> Any:
        request = game.pending
        if isinstance(request, DecisionRequest):
            return request.answer(self._decide(game, request))
        state = game.state
        if state.phase == "placement":
            return self._place(game)
        if state.phase != "play" or state.side_to_play != self.side:
            raise RulesError(_("{side}'s AI asked to play out of turn ({phase})")
                             .format(side=self.side, phase=state.phase))
        unit = state.active or self._next_unit(game)
        if unit is None:
            return EndTurn(self.side)
        return self._act(game, unit)

    # -- decisions -------------------------------------------------------------------------------
    def _decide(self, game: Any, request: DecisionRequest) -> Any:
        about, state = request.about, game.state
        if request.decision == "intercepted":
            other = state.units[about["other"]]
            return "attack" if other.side != self.side else "cancel"
        if request.decision == "opportunity":
            return True
        if request.decision == "escape":
            mech = state.units[about["vehicle"]].position
            me = state.units[about["unit"]].position

            def away(heading: int) -> float:
                fx, fy = plan.unit_vector(heading)
                return math.dist((me[0] + fx, me[1] + fy), mech)
            return max(request.options, key=lambda h: (away(h), -h))
        if request.decision == "primary_target":
            return max(request.options, key=lambda uid: (self._nearest_enemy(game, state.units[uid].position)[0],
                                                         g_power(game, uid)))
        return request.options[0]

    def _place(self, game: Any) -> Action:
        unit_id = to_place(game, self.side)[0]
        (x, y), facing = game.ctx.start.get(unit_id, ((0.0, 0.0), 0.0))
        action = Place(unit_id, x, y, facing)
        if game.check(action) is None:
            return action
        enemies = [u.position for u in game.state.units.values() if u.side != self.side and u.on_field]
        if enemies:
            ex, ey = np.mean(enemies, axis=0)
            away = math.atan2(y - ey, x - ex)
            for back in BACK_OFF_STUDS:
                moved = Place(unit_id, x + math.cos(away) * back, y + math.sin(away) * back, facing)
                if game.check(moved) is None:
                    return moved
        return action   # the checker's refusal will say why

    # -- whose turn inside the side's turn --------------------------------------------------------
    def _next_unit(self, game: Any) -> str | None:
        units = activatable(game, self.side)
        if not units:
            return None
        return min(units, key=lambda uid: (self._nearest_enemy(game, game.state.units[uid].position)[0], uid))

    def _nearest_enemy(self, game: Any, point) -> tuple[float, str | None]:
        # min() over (distance, id) tuples, without making the tuples (asked for every unit, every choice)
        best_d, best_id = math.inf, None
        for u in game.state.units.values():
            if u.side != self.side and u.on_field:
                d = math.dist(point, u.position)
                if d < best_d or (d == best_d and best_id is not None and u.id < best_id):
                    best_d, best_id = d, u.id
        return best_d, best_id

    # -- a unit's steps ------------------------------------------------------------------------------
    def _act(self, game: Any, unit_id: str) -> Action:
        state = game.state
        unit, profile = state.units[unit_id], game.ctx.profile(unit_id)
        step = state.step if state.active == unit_id else "first"
        left = profile.movement_cm - unit.moved_cm
        if step == "first":
            if unit.moved_cm <= 0 and left > 0.5:
                move = self._best_move(game, unit_id, left, "advance" if state.first_turn else "fight")
                if move is not None:
                    return move
            if not state.first_turn:
                attack = self._best_attack(game, unit_id)
                if attack is not None:
                    action, facing = attack
                    if facing is not None:
                        return Turn(unit_id, facing)
                    return action
            return self._face_enemy(game, unit_id) or EndStep(unit_id)
        key = (state.round, unit_id)
        if key not in self._hidden and left > 0.5:
            self._hidden.add(key)
            move = self._best_move(game, unit_id, left, "hide")
            if move is not None:
                return move
        return self._face_enemy(game, unit_id) or EndStep(unit_id)

    def _face_enemy(self, game: Any, unit_id: str) -> Action | None:
        """A free turn to face the nearest enemy (so that it is in the Line of Sight arc next time)."""
        unit = game.state.units[unit_id]
        _unused, enemy = self._nearest_enemy(game, unit.position)
        if enemy is None:
            return None
        bearing = _bearing(_vertex(game, unit_id), game.state.units[enemy].position)
        if abs((bearing - unit.facing + 180.0) % 360.0 - 180.0) <= FACING_TOLERANCE_DEG:
            return None
        turn = Turn(unit_id, round(bearing, 2))
        if game.check(turn) is not None or self._spoils(game, unit_id, turn.facing, 0.0) or not self._may_turn(game, unit_id):
            return None
        return turn

    def _spoils(self, game: Any, unit_id: str, heading: float, distance: float) -> bool:
        return _crushes(game, unit_id, heading, distance, friends=self.spares_friends)

    def _may_turn(self, game: Any, unit_id: str) -> bool:
        """At most TURNS free turns in a step (a Mechanized unit's turn moves its centre: no endless dance)."""
        key = (game.state.round, unit_id, game.state.step)
        count = self._turns.get(key, 0)
        if count >= TURNS:
            return False
        self._turns[key] = count + 1
        return True

    # -- attacks -----------------------------------------------------------------------------------------
    def _best_attack(self, game: Any, unit_id: str) -> tuple[Attack, float | None] | None:
        """(the attack, the facing to turn to first or None) with the best P(perish) x unit power: every
        target in reach weighed in the open first, the best few then with the cover the 3D world gives."""
        state = game.state
        me = state.units[unit_id]
        profile = game.ctx.profile(unit_id)
        if not profile.weapons:
            return None
        reach = max(w.range_cm for w in profile.weapons) + (1e9 if any(w.rail_driven for w in profile.weapons) else 0)
        vertex = _vertex(game, unit_id)
        options: list[tuple[Any, ...]] = []   # (value in the open, order, action, facing or None, part)
        for enemy in state.units.values():
            if enemy.side == self.side or not enemy.on_field:
                continue
            apart = plan.cm(math.dist(me.position, enemy.position) - max(game.ctx.bases[unit_id]) / 2 * 1.5
                            - max(game.ctx.bases[enemy.id]) / 2 * 1.5)
            if apart > reach:
                continue
            width, depth = game.ctx.bases[enemy.id]
            part = plan.sector(enemy.position, enemy.facing, width, depth, me.position)
            target = measures.corners(game, enemy.id)
            for facing in (me.facing, _bearing(vertex, enemy.position)):
                distances = {}
                for weapon in profile.weapons:
                    slack = 3.0 if weapon.guided else 0.0
                    if slack not in distances:
                        distances[slack] = measures.arc_distance_cm(game, unit_id, target, slack, me.position, facing)
                    if not self._in_reach(game, unit_id, enemy.id, weapon, distances[slack]):
                        continue
                    value = self._p_kill(game, weapon, enemy.id, part, "none") * self._worth(game, enemy.id)
                    turn = None if facing == me.facing else round(facing, 2)
                    options.append((value, len(options), Attack(unit_id, enemy.id, weapon.name), turn, part))
                if options and options[-1][2].target == enemy.id and options[-1][3] is None:
                    break   # in its arc already: no turn weighed
        options.sort(key=lambda o: (-o[0], o[1]))
        best, best_score = None, 0.0
        for value, _unused, action, turn, part in options[:ATTACKS_WEIGHED]:
            if value <= best_score:
                break
            weapon = profile.weapon(action.weapon)
            score = self._with_cover(game, unit_id, action.target, weapon, part) * self._worth(game, action.target)
            if score > best_score + 1e-12:
                best, best_score = (action, turn), score
        if best is None:
            return None
        action, facing = best
        if facing is not None and (game.check(Turn(unit_id, facing)) is not None or self._spoils(game, unit_id, facing, 0.0)
                                   or not self._may_turn(game, unit_id)):
            return None
        if facing is None and game.check(action) is not None:
            return None
        return best

    def _in_reach(self, game: Any, unit_id: str, target_id: str, weapon: Any, distance: float | None) -> bool:
        if distance is None or (game.ctx.profile(unit_id).airborne and weapon.melee):
            return False
        return weapon.rail_driven or distance <= measures.weapon_reach_cm(game, unit_id, target_id,
                                                                         weapon.range_cm) + 1e-9

    def _worth(self, game: Any, target_id: str) -> float:
        primary = game.state.primary.get(game.state.units[target_id].side) == target_id
        return g_power(game, target_id) * (2.0 if primary else 1.0)

    def _with_cover(self, game: Any, unit_id: str, target_id: str, weapon: Any, part: str) -> float:
        """P(perish) with the Impact and Cover Steps as the 3D world has them (0: a friend in the way, or
        nothing of the target seen)."""
        other = first_unit_on_line(game, unit_id, target_id)
        if other is not None and game.state.units[other].side == self.side:
            return 0.0
        airborne = game.ctx.profile(unit_id).airborne or game.ctx.profile(target_id).airborne
        cover = "none"
        if not airborne:
            verdict = covers.judge(game.ask("sight", unit_id, target_id), game.ctx.params)
            if not verdict.visible:
                return 0.0
            cover = "none" if weapon.rail_driven or (weapon.guided and verdict.cover == "light") else verdict.cover
        return self._p_kill(game, weapon, target_id, part, cover)

    def _p_kill(self, game: Any, weapon: Any, target_id: str, part: str, cover: str) -> float:
        profile = game.ctx.profile(target_id)
        # by identity first (hashing the frozen weapon and profile is the slow part); the objects are kept
        # in the entry, so an id is never reused while it is there
        fast = (id(weapon), id(profile), part, cover)
        found = self._p_fast.get(fast)
        if found is not None:
            return found[0]
        self._p_fast[fast] = (self._p_kill_exact(weapon, profile, part, cover), weapon, profile)
        return self._p_fast[fast][0]

    def _p_kill_exact(self, weapon: Any, profile: Any, part: str, cover: str) -> float:
        return p_perish(weapon, profile, part, cover)

    # -- moves ---------------------------------------------------------------------------------------------------
    def _best_move(self, game: Any, unit_id: str, left_cm: float, mode: str) -> Move | None:
        state = game.state
        enemies = [u for u in state.units.values() if u.side != self.side and u.on_field]
        if not enemies:
            return None
        weighed = self._weighed(game, unit_id, enemies, left_cm, mode)
        if weighed is None:
            return None   # nothing threatens it where it stands: it stays
        moves, scores, here, order = weighed
        blocked: dict[float, float] = {}   # heading -> the shortest distance refused
        tries = 0
        for k in order:
            if scores[k] < here + MOVE_GAIN or tries >= TRIES:
                return None
            heading, distance = moves[k]
            if distance >= blocked.get(round(heading, 2), math.inf):
                continue   # farther the same way: refused too (or the same thing stands in the way)
            tries += 1
            action = Move(unit_id, round(heading, 2), round(distance, 3))
            if game.check(action) is None:
                if self._spoils(game, unit_id, action.heading, action.distance):
                    continue   # a Mechanized unit keeps the cover standing and its friends alive
                return action
            blocked[round(heading, 2)] = distance
        return None

    def _weighed(self, game: Any, unit_id: str, enemies: list, left_cm: float, mode: str) -> tuple | None:
        """(moves, scores, the score where it stands, the moves' order best first) of the spots worth asking the
        checker about, None when hiding and nothing threatens it. None of it depends on the unit's facing (the
        checker's answers do): a unit that turned and weighs its move again finds it here."""
        state = game.state
        key = ("weighed", unit_id, mode, left_cm,
               tuple((u.id, u.position, u.on_field) for u in state.units.values()), state.removed,
               tuple((k, o.kind, o.corners) for k, o in state.obstacles.items()))
        if key in self._weighed_memo:
            return self._weighed_memo[key]
        me = state.units[unit_id]
        if mode == "hide" and self._score(game, unit_id, np.array([me.position]), enemies, "safety")[0] >= 0.0:
            found = None
        else:
            spots, moves = self._spots(game, unit_id, enemies, left_cm)
            keep = self._clear(game, unit_id, spots)
            spots, moves = spots[keep], [m for m, k in zip(moves, keep) if k]
            scores = self._score(game, unit_id, spots, enemies, mode)
            values = scores.tolist()   # the same numbers as Python floats: sorting reads each of them many times
            order = sorted(range(1, len(values)), key=lambda k: (-values[k], k))
            found = (moves, scores, scores[0], order)
        if len(self._weighed_memo) >= WEIGHED_LIMIT:
            self._weighed_memo.clear()
        self._weighed_memo[key] = found
        return found

    def _spots(self, game: Any, unit_id: str, enemies: list, left_cm: float) -> tuple[np.ndarray, list]:
        me = game.state.units[unit_id]
        nearest = sorted(enemies, key=lambda e: (math.dist(me.position, e.position), e.id))[:NEAREST]
        bearings = [_bearing(me.position, e.position) for e in nearest]
        headings = _COMPASS + [(h, plan.unit_vector(h), h % 360.0) for h in bearings]
        steps = [(plan.studs(left_cm * share), left_cm * share) for share in SHARES]
        (x, y), spots, moves = me.position, [me.position], [(me.facing, 0.0)]
        for _heading, (fx, fy), modulo in headings:
            for step, distance in steps:
                spots.append((x + fx * step, y + fy * step))
                moves.append((modulo, distance))
        return np.array(spots), moves

    def _clear(self, game: Any, unit_id: str, spots: np.ndarray) -> np.ndarray:
        """(K,) bool: the spots worth asking the checker about: on the battlefield, and the way there (the box
        round the base's start and end, seen from above) clear of what the unit can never cross, and for a
        Mechanized unit of its friends' bases (the first, its own spot, always kept)."""
        ctx, me = game.ctx, game.state.units[unit_id]
        profile = ctx.profile(unit_id)
        walls = None
        if not profile.airborne:
            walls = self._walls(game, profile)
            if profile.mechanized and self.spares_friends:   # its friends' bases too: it would trample them
                friends = [plan.bounds([measures.corners(game, u.id)]) for u in game.state.units.values()
                           if u.side == self.side and u.id != unit_id and u.on_field and ctx.profile(u.id).infantry]
                walls = np.concatenate([walls, np.array(friends)]) if friends else walls
        # the same numbers, the same answer (a unit that stood still while others moved asks again, and games of
        # the same scene start alike): the battlefield's bounds, the base, the spots, the walls
        key = (ctx.terrain.bounds, ctx.bases[unit_id], me.position, spots.tobytes(),
               None if walls is None else walls.tobytes())
        found = _CLEAR_MEMO.get(key)
        if found is not None:
            return found
        half = min(ctx.bases[unit_id]) / 2.0 * 0.9     # a little inside the base: the checker has the last word
        keep = np.ones(len(spots), bool)
        bounds = ctx.terrain.bounds
        if bounds is not None:
            keep &= (spots[:, 0] - half >= bounds[0]) & (spots[:, 0] + half <= bounds[1]) & \
                (spots[:, 1] - half >= bounds[2]) & (spots[:, 1] + half <= bounds[3])
        if walls is not None and len(walls):
            start = np.asarray(me.position, float)   # (2,): broadcast as the (K, 2) it stands for
            way = spots - start
            norm = np.maximum(_norm(way, 1, True), 1e-9)
            across = np.empty_like(way)                 # (-y, x) of the way, as np.column_stack made it
            np.negative(way[:, 1], out=across[:, 0])
            across[:, 1] = way[:, 0]
            side = across / norm * (min(ctx.bases[unit_id]) / 2.0 * 0.9)
            ahead = way / norm * (max(ctx.bases[unit_id]) / 2.0 * 0.9)
            offsets = np.array([0.0, 1.0, -1.0])[:, None, None]   # the middle and both sides of the base,
            a = (start[None] + offsets * side[None]).reshape(-1, 2)  # its front edge ahead
            b = (spots[None] + offsets * side[None] + ahead[None]).reshape(-1, 2)
            keep &= ~_segments_cross_any(a, b, walls).reshape(3, len(spots)).any(axis=0)
        keep[0] = True
        _remember(_CLEAR_MEMO, key, keep)
        return keep

    def _walls(self, game: Any, profile: Any) -> np.ndarray:
        """(N, 4) boxes (xmin, xmax, ymin, ymax, studs) of the static terrain this unit can never cross."""
        terrain = game.ctx.terrain
        heavy = profile.mechanized
        wrecks = tuple(sorted(k for k, o in game.state.obstacles.items() if o.kind == "wreck"))
        key = ("walls", heavy, game.state.removed, wrecks)
        if key not in self._odds:
            from bow3d.rulesets.war_of_bros.cover import rank
            rows = [k for k, p in enumerate(terrain.pieces) if p.kind == "decor" and p.instance not in game.state.removed
                    and (rank(p.cover) >= rank("heavy") if heavy else p.difficulty == 0)]
            boxes = [terrain.boxes[rows]] if rows else []
            boxes += [np.array([plan.bounds([game.state.obstacles[k].corners])]) for k in wrecks]
            self._odds[key] = np.concatenate(boxes) if boxes else np.zeros((0, 4))
        return self._odds[key]

    def _score(self, game: Any, unit_id: str, spots: np.ndarray, enemies: list, mode: str) -> np.ndarray:
        """Plan-view value of standing at each spot: what it can kill, what can kill it, how near it is."""
        ctx, profile = game.ctx, game.ctx.profile(unit_id)
        my_half = ctx.bases[unit_id][1] / 2.0
        epos = np.array([e.position for e in enemies])
        ehalf, armed, reach, p, worth = self._enemy_table(game, unit_id, enemies, mode)
        dist_cm = plan.cm(_norm(spots[:, None, :] - epos[None], 2) - my_half - ehalf[None])  # (K, E)
        cover = self._cover_rank(game, epos, spots)                                                        # (K, E)
        factor = _RANK_FACTOR[cover]
        # the enemies' threats at once, summed left to right (np.add.accumulate) as the loop over them did
        threat = np.zeros(len(spots))
        if armed is not None and len(armed):
            near, scaled = (dist_cm, factor) if len(armed) == len(enemies) else (dist_cm[:, armed], factor[:, armed])
            terms = np.where(near <= reach, p * scaled, 0.0)
            threat = threat + np.add.accumulate(terms, axis=1)[:, -1]
        gain = np.zeros(len(spots))
        best_weapon = self._longest(profile)
        my_range = best_weapon.range_cm if best_weapon is not None else 0.0
        if worth is not None:
            values = np.where(dist_cm <= my_range, worth * factor, 0.0)
            gain = np.maximum(gain, values.max(axis=1))
        danger = self._boldness(game) * threat * g_power(game, unit_id)
        if mode == "safety":
            return -danger
        want = my_range + (profile.movement_cm if mode == "advance" else 0.0)
        nearest = dist_cm.min(axis=1)
        approach = -ADVANCE_WEIGHT * np.abs(nearest - want * 0.9) * (0.5 if mode == "hide" else 1.0)
        return gain - danger + approach

    def _enemy_table(self, game: Any, unit_id: str, enemies: list, mode: str) -> tuple:
        """What _score reads of the enemies, the same while the same enemies stand (profiles do not change in
        a game): their half bases (E,), the armed ones' columns, their reach and their odds against this unit
        ((1, A) each), and in 'fight' this unit's best weapon's odds against each times its unit power (1, E)."""
        key = ("enemies", unit_id, mode, tuple(e.id for e in enemies))
        found = self._p_fast.get(key)
        if found is not None:
            return found
        rows = [self._enemy_row(game, unit_id, enemy.id, mode) for enemy in enemies]
        armed = [j for j, row in enumerate(rows) if row[1] is not None]
        worth = None
        if mode == "fight" and self._longest(game.ctx.profile(unit_id)) is not None:
            worth = np.array([row[3] for row in rows])[None]
        found = self._p_fast[key] = (np.array([row[0] for row in rows]), np.array(armed, np.intp),
                                     np.array([rows[j][1] for j in armed])[None],
                                     np.array([rows[j][2] for j in armed])[None], worth)
        return found

    def _enemy_row(self, game: Any, unit_id: str, enemy_id: str, mode: str) -> tuple:
        """One enemy's numbers in _enemy_table: (half its base, its reach and its odds against this unit (None,
        None when unarmed), this unit's best weapon's odds against it times its unit power (None but in 'fight'
        and armed)), kept per unit, mode and enemy: the table is made again each time an enemy falls."""
        key = ("enemy row", unit_id, mode, enemy_id)
        found = self._p_fast.get(key)
        if found is not None:
            return found
        half = max(game.ctx.bases[enemy_id]) / 2.0
        threat = self._threat_of(game, enemy_id, mode)
        reach, p = (None, None) if threat is None else (threat[0], self._p_kill(game, threat[1], unit_id, "front",
                                                                                  "none"))
        best_weapon = self._longest(game.ctx.profile(unit_id))
        worth = None
        if mode == "fight" and best_weapon is not None:
            worth = self._p_kill(game, best_weapon, enemy_id, "front", "none") * g_power(game, enemy_id)
        found = self._p_fast[key] = (half, reach, p, worth)
        return found

    def _longest(self, profile: Any) -> Any:
        """The weapon with the longest range (then the last name), None when unarmed."""
        key = ("longest", id(profile))
        found = self._p_fast.get(key)
        if found is None:
            found = self._p_fast[key] = (max(profile.weapons, key=lambda w: (w.range_cm, w.name), default=None),
                                         profile)
        return found[0]

    def _threat_of(self, game: Any, enemy_id: str, mode: str) -> tuple[float, Any] | None:
        """(how far the enemy reaches: its longest range and its movement, half of it in 'fight'; that
        weapon), None when unarmed."""
        ep = game.ctx.profile(enemy_id)
        weapon = self._longest(ep)
        if weapon is None:
            return None
        reach = max((w.range_cm for w in ep.weapons), default=0.0) + (ep.movement_cm if mode != "fight" else
                                                                       ep.movement_cm * 0.5)
        return reach, weapon

    def _boldness(self, game: Any) -> float:
        """How much the enemy's replies weigh: less when the side is stronger (it closes in to finish)."""
        mine = theirs = 0.0
        powers = self._powers(game)
        for unit in game.state.units.values():
            if unit.on_field:
                power = powers[unit.id]
                if unit.side == self.side:
                    mine += power
                else:
                    theirs += power
        return THREAT_WEIGHT * min(1.0, max(0.25, theirs / max(mine, 1.0)))

    def _cover_rank(self, game: Any, epos: np.ndarray, spots: np.ndarray) -> np.ndarray:
        """(K, E) int: the heaviest cover class (as a rank) of the terrain the segment from each enemy to each
        spot crosses near the spot (seen from above; an estimate of what the 3D world will say)."""
        terrain = game.ctx.terrain
        out = np.zeros((len(spots), len(epos)), np.int64)
        if not terrain.pieces or not len(epos):
            return out
        # the same terrain, destroyed decor, enemies and spots, the same answer (spots and enemies that stood
        # still; games of the same scene start alike)
        key = (self._terrain_key(terrain), game.state.removed, epos.tobytes(), spots.tobytes())
        found = _RANK_MEMO.get(key)
        if found is None:
            found = _remember(_RANK_MEMO, key, self._cover_rank_of(game, epos, spots, out))
        return found

    def _cover_rank_of(self, game: Any, epos: np.ndarray, spots: np.ndarray, out: np.ndarray) -> np.ndarray:
        """_cover_rank worked out (`out`: its zeros, returned when no decor is near)."""
        terrain = game.ctx.terrain
        decor, ranks_all, instances = self._decor_table(terrain)
        lo, hi = spots.min(axis=0) - COVER_REACH_STUDS, spots.max(axis=0) + COVER_REACH_STUDS
        b = terrain.boxes
        near = np.flatnonzero((b[:, 0] <= hi[0]) & (b[:, 1] >= lo[0]) & (b[:, 2] <= hi[1]) & (b[:, 3] >= lo[1])
                              & decor)
        removed = game.state.removed
        if removed and len(near):
            near = near[~np.isin(instances[near], np.fromiter(removed, np.int64, len(removed)))]
        if not len(near):
            return out
        boxes = b[near]
        ranks = ranks_all[near]
        towards = epos[None, :, :] - spots[:, None, :]                                       # (K, E, 2)
        length = np.maximum(_norm(towards, 2, True), 1e-9)
        start = np.broadcast_to(spots[:, None, :], towards.shape).reshape(-1, 2)
        end = (spots[:, None, :] + towards * np.minimum(COVER_REACH_STUDS / length, 1.0)).reshape(-1, 2)
        hit = _segments_cross_boxes(start, end, boxes)                                       # (K * E, N)
        return np.where(hit, ranks[None], 0).max(axis=1).reshape(len(spots), len(epos))

    def _powers(self, game: Any) -> dict[str, float]:
        """unit id -> g_power, worked out once per context (profiles do not change in a game)."""
        key = ("powers", id(game.ctx))
        found = self._p_fast.get(key)
        if found is None:
            found = self._p_fast[key] = ({uid: g_power(game, uid) for uid in game.ctx.unit_sheet}, game.ctx)
        return found[0]

    def _terrain_key(self, terrain: Any) -> tuple:
        """What _cover_rank reads of the terrain, as bytes (its boxes and _decor_table), once per terrain."""
        key = ("terrain key", id(terrain))
        found = self._p_fast.get(key)
        if found is None:
            found = self._p_fast[key] = (tuple(a.tobytes() for a in (terrain.boxes, *self._decor_table(terrain))),
                                         terrain)
        return found[0]

    def _decor_table(self, terrain: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(decor?, cover rank, instance) per static piece, once per terrain."""
        key = ("decor", id(terrain))
        found = self._p_fast.get(key)
        if found is None:
            pieces = terrain.pieces
            found = self._p_fast[key] = (
                (np.array([p.kind == "decor" for p in pieces], bool),
                 np.array([covers.rank(p.cover) for p in pieces], np.int64),
                 np.array([p.instance for p in pieces], np.int64)), terrain)
        return found[0]


@functools.lru_cache(maxsize=4096)
def p_perish(weapon: Any, profile: Any, part: str, cover: str) -> float:
    """P(the target perishes) of one attack (odds.py, the steps the game plays): a function of frozen values,
    kept for the whole process (every game's AI asks the same few hundred)."""
    vital = part == "back" and not reactive_shield_active(profile, weapon, part)
    saves = {step: save_of(profile, step, part, weapon) for step in STEPS}
    return float(attack_odds(attack_dice(weapon, vital=vital), saves, cover, profile.mechanized).p_perish)


_CLEAR_MEMO: dict[tuple, np.ndarray] = {}   # see WarOfBrosAI._clear
_RANK_MEMO: dict[tuple, np.ndarray] = {}    # see WarOfBrosAI._cover_rank


def _remember(memo: dict, key: tuple, value: Any) -> Any:
    """memo[key] = value (an array, made read only: every caller shares it), the memo emptied first when
    MEMO_LIMIT answers are in it."""
    value.setflags(write=False)
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[key] = value
    return value


def _crushes(game: Any, unit_id: str, heading: float, distance: float, friends: bool = True) -> bool:
    """The move (or turn: distance 0) of a Mechanized unit destroys decor (light or medium cover: its friends'
    cover too) or, with `friends`, drives over a friend: "Mechanized units can also trample Infantry units
    they drive over", whoever they are (a d8 weapon; one that evades must still move 6 cm away)."""
    from bow3d.rulesets.war_of_bros.movement import plan_move

    if not game.ctx.profile(unit_id).mechanized:
        return False
    found, _unused = plan_move(game, unit_id, heading, distance)
    if found is None:
        return False
    units, side = game.state.units, game.state.units[unit_id].side
    return bool(found.destroyed) or (friends and any(units[other].side == side for other in found.trampled))


def g_power(game: Any, unit_id: str) -> float:
    return float(max(1, game.ctx.profile(unit_id).unit_power))


def _vertex(game: Any, unit_id: str):
    """The Line of Sight indicator's vertex: the point a unit turns about (bearings from it stay put)."""
    unit = game.state.units[unit_id]
    return plan.los_vertex(unit.position, unit.facing, *game.ctx.bases[unit_id])


def _bearing(a, b) -> float:
    return math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])) % 360.0


def _segments_cross_any(p: np.ndarray, q: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """(S,) bool: segment s meets any of the boxes (_segments_cross_boxes(...).any(axis=1), without the (S, N)
    answer filled in)."""
    if not len(p) or not len(boxes):
        return np.zeros(len(p), bool)
    lo_all, hi_all = np.minimum(p, q).min(axis=0), np.maximum(p, q).max(axis=0)
    near = np.flatnonzero((boxes[:, 0] <= hi_all[0]) & (boxes[:, 1] >= lo_all[0]) &
                          (boxes[:, 2] <= hi_all[1]) & (boxes[:, 3] >= lo_all[1]))
    if not len(near):
        return np.zeros(len(p), bool)
    t0, t1 = _slabs(p, q, boxes[near])
    return ((t0 <= t1) & (t1 >= 0.0) & (t0 <= 1.0)).any(axis=1)  # type: ignore[return-value]  # numpy's stubs: an array


def _segments_cross_boxes(p: np.ndarray, q: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """(S, N) bool: segment s (p[s] -> q[s], (S, 2)) meets box n (xmin, xmax, ymin, ymax) (slab test, closed
    boxes). Boxes outside the box round every segment are answered False without the test (same answers)."""
    out = np.zeros((len(p), len(boxes)), bool)
    if not len(p) or not len(boxes):
        return out
    lo_all, hi_all = np.minimum(p, q).min(axis=0), np.maximum(p, q).max(axis=0)
    near = np.flatnonzero((boxes[:, 0] <= hi_all[0]) & (boxes[:, 1] >= lo_all[0]) &
                          (boxes[:, 2] <= hi_all[1]) & (boxes[:, 3] >= lo_all[1]))
    if not len(near):
        return out
    t0, t1 = _slabs(p, q, boxes[near])
    out[:, near] = (t0 <= t1) & (t1 >= 0.0) & (t0 <= 1.0)
    return out


def _norm(x: np.ndarray, axis: int, keepdims: bool = False) -> np.ndarray:
    """np.linalg.norm(x, axis=axis, keepdims=keepdims) of a float array, the same sums in the same order,
    without its wrapper's checks (called thousands of times a game on small arrays)."""
    return np.sqrt(np.add.reduce(x * x, axis=axis, keepdims=keepdims))  # type: ignore[call-overload]  # a bool keepdims


def _slabs(p: np.ndarray, q: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(S, N) entering and leaving parameters of segment s (p[s] -> q[s]) through box n (xmin, xmax, ymin,
    ymax): it meets the closed box when t0 <= t1, t1 >= 0 and t0 <= 1."""
    way = q - p
    flat_any = np.abs(way) < 1e-12                                                # (S, 2)
    flat_axes = flat_any.any(axis=0).tolist()                                     # any segment parallel to x, y
    pt, wt, bt = p.T[:, :, None], way.T[:, :, None], b.T[:, None, :]               # (2, S, 1), (2, S, 1), (4, 1, N)
    t0: np.ndarray | None = None
    t1: np.ndarray | None = None
    with np.errstate(divide="ignore", invalid="ignore"):   # entered once (it costs microseconds), not per axis
        for axis in (0, 1):
            start, d = pt[axis], wt[axis]                                          # (S, 1)
            lo, hi = bt[2 * axis], bt[2 * axis + 1]                                # (1, N)
            a, c = (lo - start) / d, (hi - start) / d
            enter, leave = np.minimum(a, c), np.maximum(a, c)
            if flat_axes[axis]:   # parallel to the slab: inside it all along, or never
                flat = np.flatnonzero(flat_any[:, axis])
                s0 = start[flat]
                inside = (s0 >= lo) & (s0 <= hi)
                enter[flat] = np.where(inside, -np.inf, np.inf)
                leave[flat] = np.where(inside, np.inf, -np.inf)
            if t0 is None or t1 is None:
                t0, t1 = enter, leave
            else:
                np.maximum(t0, enter, out=t0)
                np.minimum(t1, leave, out=t1)
    assert t0 is not None and t1 is not None  # both axes were seen
    return t0, t1


class FirstWarOfBrosAI(WarOfBrosAI):
    """The AI as its first version played (FIRST_AI_VERSION), kept so that the replays it played still
    re-derive its choices: its tanks drove over their own infantry (37 friends trampled to death in 20
    games of the bundled scene)."""

    version = FIRST_AI_VERSION
    spares_friends = False
