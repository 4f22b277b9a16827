"""`Game`: the BOW rules core's façade, check-then-apply with explicit brick rolls.

Layer: rules (pure Python; no random, no clock, no world import). Modelled after
python-chess (`legal_actions()` and `apply()` share one checker, an applied-record stack)
and OpenSpiel (chance is an explicit, recorded BrickRoll). Units: studs, degrees.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from bow3d.rules import combat, handling, rolls, treat, turns, vehicles
from bow3d.rules.actions import (
    Action, Attack, BrickRoll, ChangeDirection, ChangeSpeed, CompulsoryMove, Door, DriftMove,
    EndTurn, GetOff, GetOn, Give, Grab, Move, RollRequest, SwitchWeapon, Throw, Treat,
    action_from_record,
)
from bow3d.rules.context import Context
from bow3d.rules.events import Event
from bow3d.rules.geometry import Cell, Geometry
from bow3d.rules.state import GameState, Reason, Refusal

Checker = Callable[["Game", Any], Refusal | None]
Applier = Callable[["Game", Any], list[Event]]

_RULES: dict[type[Action], tuple[Checker, Applier]] = {
    BrickRoll: (rolls.check_roll, rolls.apply_roll),
    EndTurn: (turns.check_end_turn, turns.apply_end_turn),
    Move: (handling.check_move, handling.apply_move),
    Grab: (handling.check_grab, handling.apply_grab),
    Throw: (handling.check_throw, handling.apply_throw),
    Give: (handling.check_give, handling.apply_give),
    SwitchWeapon: (handling.check_switch, handling.apply_switch),
    Door: (handling.check_door, handling.apply_door),
    GetOn: (vehicles.check_get_on, vehicles.apply_get_on),
    GetOff: (vehicles.check_get_off, vehicles.apply_get_off),
    ChangeSpeed: (vehicles.check_speed, vehicles.apply_speed),
    ChangeDirection: (vehicles.check_direction, vehicles.apply_direction),
    CompulsoryMove: (vehicles.check_compulsory, vehicles.apply_compulsory),
    DriftMove: (vehicles.check_drift, vehicles.apply_drift),
    Attack: (combat.check_attack, combat.apply_attack),
    Treat: (treat.check_treat, treat.apply_treat),
}

_CANDIDATES = (turns.candidates, handling.candidates, vehicles.candidates, combat.candidates,
               treat.candidates)


class Game:
    """One BOW game on a scene (contract C1) and a geometry (contract C2).

    `Game.start(scene, geometry)` begins with the starting-player rolls pending (BOW §2.2).
    `apply(action_or_roll)` checks, then applies and returns the events; an illegal record
    raises `Illegal` and leaves the state (and the geometry) unchanged.
    """

    def __init__(self, ctx: Context, state: GameState) -> None:
        self.ctx = ctx
        self.state = state
        self.records: list[dict[str, Any]] = []      # the applied-record stack
        self.events: list[Event] = []                 # every event so far
        self._version = 0
        self._undo: list[tuple[GameState, int]] = []  # state before each record, events count then
        self._reach_cache: dict[tuple[str, Any], Any] = {}

    # -- construction --------------------------------------------------------------------
    @classmethod
    def start(cls, scene: Any, geometry: Geometry, *, max_rounds: int | None = None,
              doors: Iterable[tuple[str, Cell, bool]] | None = None) -> Game:
        """A new game: state from the scene, the geometry put in step, starting rolls pending.

        `max_rounds` ends the game after that many rounds (result 'points' or 'draw');
        `doors` lists (door id, cell, open) of doors and windows the units may open or close
        (default: the scene's `doors`).
        """
        ctx = Context(scene, geometry, max_rounds)
        if doors is None:
            doors = [(d.id, tuple(d.cell), bool(d.open)) for d in getattr(scene, "doors", None) or []]
        doors = list(doors)
        ctx.door_cells = {door_id: tuple(cell) for door_id, cell, _open in doors}
        game = cls(ctx, turns.initial_state(ctx, doors))
        turns.sync_geometry(game)
        game.events.extend(turns.begin(game))
        return game

    @classmethod
    def from_records(cls, scene: Any, geometry: Geometry, records: Iterable[dict[str, Any]],
                     **start_kwargs: Any) -> Game:
        """Re-simulate: a fresh game on which every record is applied in order."""
        game = cls.start(scene, geometry, **start_kwargs)
        for record in records:
            game.apply(action_from_record(record))
        return game

    # -- queries -------------------------------------------------------------------------
    @property
    def geometry(self) -> Geometry:
        return self.ctx.geometry

    @property
    def pending_roll(self) -> RollRequest | None:
        """The brick roll the game waits for, or None."""
        pending = self.state.pending
        return pending.requests[0] if pending is not None and pending.requests else None

    @property
    def is_over(self) -> bool:
        return self.state.phase == "over"

    @property
    def winner(self) -> str | None:
        return self.state.winner

    def refusal(self, action: Action) -> Refusal | None:
        """The typed reason the action is illegal now, or None (the one checker)."""
        if self.is_over:
            return Refusal(Reason.GAME_OVER, "the game is over")
        rules = _RULES.get(type(action))
        if rules is None:
            return Refusal(Reason.UNKNOWN, f"{type(action).__name__} is not a BOW action")
        if not isinstance(action, BrickRoll) and self.state.pending is not None:
            request = self.pending_roll
            return Refusal(Reason.ROLL_PENDING, f"waiting for {request.side} to roll {request.bricks} "
                           f"bricks ({request.purpose})")
        return rules[0](self, action)

    def check(self, action: Action) -> str | None:
        """The words saying why the action or roll is illegal now, or None."""
        refusal = self.refusal(action)
        return None if refusal is None else refusal.words

    def legal_actions(self) -> list[Action]:
        """The actions the side to play may take now (empty while a roll is pending or over).

        Finite and representative (`check` accepts more, e.g. any facing or any thrown-to cell):
        - EndTurn (a pass when the unit has not acted yet);
        - Move: one per reachable cell (geometry.reachable_cells) facing the nearest enemy from
          there, plus reorienting on the spot to the 8 compass facings (0, 45, ... 315);
        - Attack: per enemy target in play, per usable weapon (in hand; vehicle weapons aboard),
          and the dispute variant when the ruleset has visibility_dispute;
        - Treat: per damaged unit or vehicle; Give: per friendly unit on foot, per carried item;
          Grab: per object lying close; SwitchWeapon: per weapon in the bag; Door: per door;
        - GetOn: per free seat; GetOff: the 8 first free cells by the door;
        - pilots: CompulsoryMove, ChangeSpeed to each allowed speed, ChangeDirection by +-45
          degrees (+-22.5 when the full turn is blocked); DriftMove for pilotless vehicles;
        - Throw is never listed (too many cells; any cell within range is legal).
        """
        if self.is_over or self.state.pending is not None:
            return []
        seen: set[Action] = set()
        legal: list[Action] = []
        for candidates in _CANDIDATES:
            for action in candidates(self):
                if action not in seen and self.refusal(action) is None:
                    seen.add(action)
                    legal.append(action)
        return legal

    def reachable(self, unit: str, move_studs: int) -> dict[Cell, int]:
        """geometry.reachable_cells, cached until the next applied record."""
        key = (unit, move_studs)
        if key not in self._reach_cache:
            self._reach_cache[key] = self.geometry.reachable_cells(unit, move_studs)
        return self._reach_cache[key]

    def sight(self, firer: str, target: str) -> Any:
        """geometry.sight, cached until the next applied record (legal_actions asks it per target)."""
        key = ("sight", (firer, target))
        if key not in self._reach_cache:
            self._reach_cache[key] = self.geometry.sight(firer, target)
        return self._reach_cache[key]

    def turn_contacts(self, vehicle: str, delta_deg: float) -> Any:
        """geometry.turn_contacts, cached until the next applied record."""
        key = ("turn", (vehicle, float(delta_deg)))
        if key not in self._reach_cache:
            self._reach_cache[key] = self.geometry.turn_contacts(vehicle, float(delta_deg))
        return self._reach_cache[key]

    def free_cells_near(self, vehicle: str) -> list[Cell]:
        """geometry.free_cells_near, cached until the next applied record."""
        key = ("free", vehicle)
        if key not in self._reach_cache:
            self._reach_cache[key] = self.geometry.free_cells_near(vehicle)
        return self._reach_cache[key]

    # -- applying ------------------------------------------------------------------------
    def apply(self, action: Action) -> list[Event]:
        """Check, then apply an Action or BrickRoll; returns its events; raises Illegal."""
        refusal = self.refusal(action)
        if refusal is not None:
            raise refusal.error()
        self._version += 1
        self._reach_cache.clear()
        self._undo.append((self.state.copy(), len(self.events)))
        events = _RULES[type(action)][1](self, action)
        events.extend(turns.after_record(self))
        self.records.append(action.to_record())
        self.events.extend(events)
        return events

    def pop(self) -> dict[str, Any]:
        """Take back the last applied record (python-chess `Board.pop`): the state, the events and
        the geometry return to what they were before it; returns the record. IndexError when none."""
        if not self._undo:
            raise IndexError("no applied record to take back")
        before, n_events = self._undo.pop()
        record = self.records.pop()
        del self.events[n_events:]
        self._restore_geometry(before)
        self.state = before
        self._version += 1
        self._reach_cache.clear()
        return record

    def _restore_geometry(self, before: GameState) -> None:
        """Place or remove what differs between the current state and `before`."""
        for table_now, table_then in ((self.state.units, before.units), (self.state.vehicles, before.vehicles)):
            for id, now in table_now.items():
                then = table_then[id]
                on_now = now.in_play and now.position is not None and getattr(now, "aboard", None) is None
                on_then = then.in_play and then.position is not None and getattr(then, "aboard", None) is None
                if on_then and (not on_now or (now.position, now.facing) != (then.position, then.facing)):
                    self.geometry.place(id, then.position, then.facing)
                elif on_now and not on_then:
                    self.geometry.remove(id)
        for door, was_open in before.doors.items():
            if self.state.doors.get(door) != was_open:
                self.geometry.set_door(door, self.ctx.door_cells[door], was_open)

    def event(self, kind: str, text: str, /, **data: Any) -> Event:
        """An event of the current round."""
        return Event(kind, self.state.round, text, data)

    def copy(self, geometry: Geometry | None = None) -> Game:
        """An independent game on the same scene (for playouts): `geometry` must be a copy of
        this game's geometry in the same state (FlatGeometry.copy()); default the same one."""
        ctx = Context(self.ctx.scene, geometry or self.ctx.geometry, self.ctx.max_rounds)
        ctx.door_cells = self.ctx.door_cells
        game = Game(ctx, self.state.copy())
        game.records = list(self.records)
        game.events = list(self.events)
        game._undo = list(self._undo)
        return game
