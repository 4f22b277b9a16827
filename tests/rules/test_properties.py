"""Invariants over seeded random legal playouts on FlatGeometry (BOW §2.2, §2.4.3, re-simulation)."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings, strategies as st

from bow3d.rules import Game, Illegal
from bow3d.rules.flat import Box, FlatGeometry
from bow3d.rulesets.bow import BrickRoll, Move, action_from_record
from bow3d.rulesets.bow.context import sheet_value

UNITS = [("b1", "blue", "hero", (10.5, 10.5), 0), ("b2", "blue", "medic", (11.5, 12.5), 0),
         ("b3", "blue", "trooper", (8.5, 20.5), 0), ("b4", "blue", "trooper", None, 0),
         ("r1", "red", "trooper", (20.5, 10.5), 180), ("r2", "red", "mechanic", (22.5, 14.5), 180),
         ("r3", "red", "trooper", None, 0), ("r4", "red", "trooper", (24.5, 24.5), 180)]
VEHICLES = [("bj", "blue", "jeep", (8, 30.5), 0, 1, ["b4"]), ("rj", "red", "jeep", (30, 20.5), 180, 2, ["r3"])]
WALLS = [Box(15, 15, 17, 25)]
COVER = [Box(18, 5, 25, 12)]


def _geometry(scene):
    return FlatGeometry.from_scene(scene, width=40, depth=40, walls=list(WALLS), cover=list(COVER))


def _playout(scene, seed: int, max_steps: int = 400):
    """Random legal play: a kind of action first (so that moves do not drown the rest), then one of it."""
    rng = np.random.default_rng(seed)
    game = Game.start(scene, _geometry(scene), max_rounds=4)
    steps = []
    while not game.is_over and len(steps) < max_steps:
        request = game.pending_roll
        if request is not None:
            action = BrickRoll(request.side, request.spec.n, int(rng.binomial(request.spec.n, game.ctx.p)))
        else:
            legal = game.legal_actions()
            assert legal, "a game that is not over always has a legal action"
            kinds = sorted({type(a).__name__ for a in legal})
            kind = kinds[rng.integers(len(kinds))]
            of_kind = [a for a in legal if type(a).__name__ == kind]
            action = of_kind[rng.integers(len(of_kind))]
        before = game.state.copy()
        events = game.apply(action)
        steps.append((action, before, events, game.state.copy()))
    return game, steps


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_playouts_keep_the_invariants(rules, seed):
    """BOW §2.2: no unit acts twice in a round nor beyond its budget; §2.4.3: the dead never act;
    HP and damage never negative; every record re-simulates to the same events and state."""
    scene = rules.scene(UNITS, VEHICLES)
    game, steps = _playout(scene, seed)
    turns: set[tuple[int, str]] = set()
    for action, before, events, after in steps:
        unit = getattr(action, "unit", None)
        if unit is not None:
            assert before.units[unit].in_play, f"{unit} acted while dead or gone"
            assert not before.units[unit].played, f"{unit} acted after its turn"
        for event in events:
            if event.kind == "turn_started":
                key = (event.round, event.data["unit"])
                assert key not in turns, f"{key} took two turns in a round"
                turns.add(key)
        for u in after.units.values():
            hp = sheet_value(scene.sheet(u.sheet), "hp", 1)
            budget = sheet_value(scene.sheet(u.sheet), "action_budget", 0)
            assert 0 <= u.damage <= hp and (u.alive or u.damage == hp or u.left_field)
            assert 0 <= u.actions_used <= budget
        for v in after.vehicles.values():
            assert 0 <= v.damage <= scene.sheet(v.sheet).hp and v.speed >= 0
    replayed = Game.from_records(scene, _geometry(scene), game.records, max_rounds=4)
    assert [e.to_record() for e in replayed.events] == [e.to_record() for e in game.events]
    assert replayed.state == game.state


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), far=st.integers(6, 30))
def test_refused_actions_change_nothing(rules, seed, far):
    """Check-then-apply: an illegal action raises Illegal and leaves state and geometry unchanged."""
    scene = rules.scene(UNITS, VEHICLES)
    game, _ = _playout(scene, seed, max_steps=60)
    if game.is_over or game.pending_roll is not None:
        return
    unit = next((a.unit for a in game.legal_actions() if getattr(a, "unit", None)), None)
    if unit is None:  # only a driverless vehicle's drift is left (BOW §3.3, special case): no unit to move
        return
    state, positions = game.state.copy(), dict(game.geometry.positions)
    records = list(game.records)
    cell = game.state.units[unit].cell or (0, 0)
    try:
        game.apply(Move(unit, (cell[0] + far, cell[1]), 0.0))
    except Illegal:
        pass
    else:
        raise AssertionError("a move beyond Move studs was accepted")
    assert game.state == state and game.geometry.positions == positions and game.records == records


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), back=st.integers(1, 40))
def test_pop_takes_records_back(rules, seed, back):
    """python-chess style take-back: popping records restores the state, the events and the geometry
    of the shorter game (the same as re-simulating the remaining records)."""
    scene = rules.scene(UNITS, VEHICLES)
    game, _ = _playout(scene, seed, max_steps=120)
    back = min(back, len(game.records))
    popped = [game.pop() for _ in range(back)]
    shorter = Game.from_records(scene, _geometry(scene), game.records, max_rounds=4)
    assert game.state == shorter.state and [e.to_record() for e in game.events] == [
        e.to_record() for e in shorter.events]
    assert game.geometry.positions == shorter.geometry.positions
    assert game.geometry.facings == shorter.geometry.facings
    for record in reversed(popped):     # and forward again
        game.apply(action_from_record(record))
    assert game.state == _playout(scene, seed, max_steps=120)[0].state
