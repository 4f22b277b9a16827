"""The geometry memo (bow3d.replay.cache) answers exactly what the geometry it wraps answers."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from bow3d.replay.cache import CachedGeometry, CachedSight
from bow3d.rulesets import load_scene

VILLAGE = Path(__file__).resolve().parents[2] / "scenes" / "village.yaml"


@pytest.fixture(scope="module")
def village():
    if not VILLAGE.is_file():
        pytest.skip("scenes/village.yaml is not here")
    from bow3d.world import World

    scene = load_scene(VILLAGE)
    return scene, World.from_scene(scene)


def fresh_sight(world, a, b) -> CachedSight:
    r = world.sight(a, b)
    return CachedSight(r.visible, r.visible_fraction, r.distance_studs, r.in_front_arc, tuple(r.blockers),
                       r.transparent_fraction)


moves = st.lists(st.tuples(st.integers(0, 9), st.integers(2, 61), st.integers(2, 61),
                           st.sampled_from([0.0, 90.0, 135.0, 270.0])), min_size=1, max_size=6)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(moves=moves)
def test_memo_matches_the_world_after_any_moves(village, moves):
    """Property: after units move (and some come back to where they were), every answer of the
    memo equals a fresh answer of the world (the poses that can change an answer are in its key)."""
    scene, world = village
    cached = CachedGeometry.for_scene(world, scene)
    units = [u.id for u in scene.units if u.position is not None][:10]
    blue = [u for u in units if u.startswith("blue")] or units[:1]
    red = [u for u in units if not u.startswith("blue")] or units[-1:]
    for a in blue[:3]:  # fill the memo before the moves
        for b in red[:3]:
            cached.sight(a, b)
        cached.reachable_cells(a, 5)
        cached.bodies_along(a, red[0], ("unit", "vehicle"))
    start = dict(cached.poses)
    for k, (index, x, y, facing) in enumerate(moves):
        unit = units[index % len(units)]
        if k == len(moves) - 1 and len(moves) > 1:  # the last move puts a unit back
            x, y, facing = start[unit]
        cached.place(unit, (x + 0.5 if k != len(moves) - 1 else x, y + 0.5 if k != len(moves) - 1 else y), facing)
        for a in blue[:3]:
            for b in red[:3]:
                assert cached.sight(a, b) == fresh_sight(world, a, b)
                assert cached.distance_studs(a, b) == world.distance_studs(a, b)
                assert cached.in_front_arc(a, b) == world.in_front_arc(a, b)
            assert cached.reachable_cells(a, 5) == world.reachable_cells(a, 5)
            for b in [*red[:3], *blue[:3]]:   # remembered (or answered 'nothing near') only where the world agrees
                if b != a:
                    for kinds, decor in ((("unit", "vehicle"), False), (None, False), (("unit",), True)):
                        assert cached.bodies_along(a, b, kinds, decor) == world.bodies_along(a, b, kinds, decor)
    cached.reset(scene)


def test_a_far_move_keeps_the_answers(village):
    """Moving a body far from a sight line keeps that answer (the point of the memo)."""
    scene, world = village
    cached = CachedGeometry.for_scene(world, scene)
    pairs = [("blue-rifle-1", "red-rifle-1"), ("blue-archer", "red-rifle-1"), ("blue-rifle-1", "red-sword")]
    for a, b in pairs:
        cached.sight(a, b)
    hits = cached.hits
    x, y, facing = cached.poses["red-archer-2"]
    cached.place("red-archer-2", (x - 1, y), facing)  # the far corner of the village
    for a, b in pairs:
        assert cached.sight(a, b) == fresh_sight(world, a, b)
    assert cached.hits == hits + len(pairs)
    cached.reset(scene)


def test_removed_bodies_leave_the_key(village):
    scene, world = village
    cached = CachedGeometry.for_scene(world, scene)
    units = [u.id for u in scene.units if u.position is not None]
    a, b = units[0], units[-1]
    before = cached.sight(a, b)
    blocker = units[1]
    cached.remove(blocker)
    assert cached.sight(a, b) == fresh_sight(world, a, b)
    cached.reset(scene)
    assert cached.sight(a, b) == before


def test_doors_are_part_of_every_answer():
    """BOW §2.3.3: a closed door blocks sight and moves; opening or closing it changes the answers."""
    from bow3d.rules.flat import FlatGeometry

    flat = FlatGeometry()
    cached = CachedGeometry(flat, ["a", "b"])
    cached.place("a", (2.5, 5.5), 0.0)
    cached.place("b", (8.5, 5.5), 180.0)
    assert cached.sight("a", "b").visible
    cached.set_door("door-1", (5, 5), False)  # closed, between them
    assert not cached.sight("a", "b").visible
    assert cached.reachable_cells("a", 5) == flat.reachable_cells("a", 5)
    cached.set_door("door-1", (5, 5), True)
    assert cached.sight("a", "b").visible


def test_a_vehicle_taken_off_and_put_back_brings_its_seated_occupants_back(village):
    """World.remove keeps a vehicle's occupants seated and World.place brings them back: the memo's poses do
    the same (it dropped them, and answers about the driver were then keyed without him)."""
    scene, world = village
    cached = CachedGeometry.for_scene(world, scene)
    cached.seat("blue-driver", "blue-jeep", 0)
    before = cached.poses["blue-driver"]
    x, y, facing = cached.poses["blue-jeep"]
    cached.remove("blue-jeep")
    assert "blue-driver" not in cached.poses
    cached.place("blue-jeep", (x, y), facing)
    assert cached.poses["blue-driver"] == before
    for target in ("red-pistol", "red-rifle-1"):
        assert cached.sight("blue-driver", target) == fresh_sight(world, "blue-driver", target)
        assert cached.bodies_along("blue-driver", target, ("unit", "vehicle")) == \
            world.bodies_along("blue-driver", target, ("unit", "vehicle"))
    cached.place("blue-driver", (x - 4, y), facing)   # off the seat: no longer brought back with the jeep
    cached.remove("blue-jeep")
    cached.place("blue-jeep", (x, y), facing)
    assert cached.poses["blue-driver"] == (x - 4, y, facing % 360.0)
    cached.reset(scene)
