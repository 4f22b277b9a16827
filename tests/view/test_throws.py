"""Throws of any chance spec shown as what they are, without a GPU: the dice as solids numbered like real
dice, thrown (keyframed or with Bullet) onto the recorded face; cards dealt in order; the timeline's
ThrowShown read from `rolled` events of any kind with the narrator's words; the director's shots
and the tray's captions for dice, cards and kinds the view does not know."""

from __future__ import annotations

import numpy as np
import pytest

from bow3d.rules.events import Event
from bow3d.view.film.director import direct
from bow3d.view.film.timeline import (
    Attacked,
    BrickRollShown,
    Narrated,
    Pose,
    RollsShown,
    RoundStarted,
    SideStyle,
    Step,
    ThrowShown,
    Timeline,
    rolls_shown,
)
from bow3d.view.throws import cards
from bow3d.view.throws.brick_roll_animation import is_bricks_only
from bow3d.view.throws.captions import throw_caption
from bow3d.view.throws.dice import (
    DIE_SIDES,
    die_shape,
    kept,
    keyframed_throw,
    read_value,
    rest_rotation,
    symmetries,
    symmetry,
)

BOUNDS = np.array([[0.0, 0.0, -8.0], [960.0, 640.0, 120.0]])
START = {"blue-1": Pose((5.5, 5.5), 0.0), "red-1": Pose((30.5, 20.5), 180.0)}
SIDES = {"blue": SideStyle("Blue army", (0.1, 0.3, 0.7)), "red": SideStyle("Red army", (0.7, 0.0, 0.0))}
TWO_D8 = ThrowShown("blue", {"kind": "dice", "count": 2, "sides": 8, "keep": "highest"}, (3, 7), "accuracy",
                    "blue rolls 2d8 and keeps the highest: 7")
D6_UNDER = ThrowShown("red", {"kind": "dice", "count": 1, "sides": 6, "keep": "all"}, (2,), "morale",
                      "red tests morale: 2 under 4, holds")
DRAW = ThrowShown("red", {"kind": "draw", "cards": ("Captain", "Runner", "Runner")}, "Runner", "activation",
                  "red draws Runner")
SHUFFLE = ThrowShown("blue", {"kind": "shuffle", "cards": ("A", "B", "C")}, ("C", "A", "B"), "deck", "")


def _vertices_at(shape, rotation: np.ndarray, centre: np.ndarray) -> np.ndarray:
    return shape.vertices @ rotation.T + centre


# --- the dice ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("sides", DIE_SIDES)
def test_each_die_is_a_closed_solid_numbered_like_a_real_die(sides):
    shape = die_shape(sides)
    tris = shape.triangles()
    normals = np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0])
    assert len(shape.faces) == sides if sides != 4 else len(shape.faces) == 4
    assert (np.einsum("ij,ij->i", normals, tris.mean(axis=1)) > 0).all()  # every triangle faces outwards
    volume = np.einsum("ij,ij->i", tris[:, 0], np.cross(tris[:, 1], tris[:, 2])).sum() / 6
    assert volume > 0 and np.allclose(np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0]).sum(axis=0), 0,
                                      atol=1e-6)  # closed: the face areas cancel out
    for face, normal in zip(shape.faces, shape.normals):  # planar faces on the solid's hull
        heights = shape.vertices[list(face)] @ normal
        assert np.ptp(heights) < 1e-6 and heights.max() >= (shape.vertices @ normal).max() - 1e-6
    if sides == 4:  # read at the top corner: every face carries its three corners' numbers
        assert sorted(label.text for label in shape.labels) == sorted("1234" * 3)
        return
    assert sorted(shape.face_values) == list(range(1, sides + 1))
    opposite = np.argmin(shape.normals @ shape.normals.T, axis=1)
    assert (shape.face_values + shape.face_values[opposite] == sides + 1).all()  # opposite faces add up
    if sides == 6:
        assert len(shape.pips) == 21 * 12  # 1 + 2 + ... + 6 pips, 12 triangles each
    else:
        assert sorted(int(label.text.rstrip(".")) for label in shape.labels) == list(range(1, sides + 1))
        for label in shape.labels:  # each number lies on its own face, just above it
            face = int(np.argmax(shape.normals @ label.normal))
            assert shape.face_values[face] == int(label.text.rstrip("."))
            assert 0 < (label.centre - shape.vertices[shape.faces[face][0]]) @ label.normal < 1.0


@pytest.mark.parametrize("sides", DIE_SIDES)
def test_symmetries_turn_the_die_onto_itself_and_move_the_number(sides):
    shape = die_shape(sides)
    for value in range(1, sides + 1):
        for shown in (1, sides, (value % sides) + 1):
            for turn in symmetries(sides, value, shown):
                assert np.allclose(turn @ turn.T, np.eye(3)) and np.isclose(np.linalg.det(turn), 1.0)
                moved = shape.vertices @ turn.T
                gaps = np.linalg.norm(moved[:, None] - shape.vertices[None], axis=2).min(axis=1)
                assert gaps.max() < 1e-6
                assert np.allclose(turn @ shape.up[value - 1], shape.up[shown - 1])


@pytest.mark.parametrize("sides", [*DIE_SIDES, 3, 100])
def test_keyframed_throw_lands_on_the_recorded_face(sides):
    for value in sorted({1, sides, (sides + 1) // 2}):
        throw = keyframed_throw(sides, value, seed=5 + value)
        assert throw.times[-1] == pytest.approx(throw.settle_s, abs=0.05)
        assert throw.centres[0, 2] > 60 and np.allclose(throw.centres[-1, :2], 0.0)  # thrown in, lands on its slot
        if sides in DIE_SIDES:
            shape = die_shape(sides)
            read, flat = read_value(shape, throw.rotations[-1])
            assert read == value and flat > 0.9999
            lowest = _vertices_at(shape, throw.rotations[-1], throw.centres[-1])[:, 2].min()
            assert abs(lowest) < 1e-6  # lying on the tray, not in it
            if shape.reading.any():  # the number reads upright from the tray's camera, give or take 30 degrees
                assert (throw.rotations[-1] @ shape.reading[value - 1])[1] > np.cos(np.radians(31))
        assert np.allclose(keyframed_throw(sides, value, seed=5 + value).rotations, throw.rotations)


@pytest.mark.parametrize("sides", DIE_SIDES)
def test_bullet_throw_lands_on_the_recorded_face_and_stays_a_real_flight(sides):
    """Turned by the die's symmetry and about the vertical, the flight stays Bullet's: it never goes into the tray."""
    from bow3d.view.throws.brick_physics import bullet_available
    from bow3d.view.throws.dice_physics import physics_throw

    if not bullet_available():
        pytest.skip("panda3d.bullet is not installed")
    shape = die_shape(sides)
    for value in range(1, sides + 1):
        throw = physics_throw(sides, value, seed=40 + value)
        assert throw is not None
        read, flat = read_value(shape, throw.rotations[-1])
        assert read == value and flat > 0.995
        heights = np.einsum("vj,fij->fvi", shape.vertices, throw.rotations)[..., 2] + throw.centres[:, 2:3]
        assert heights.min(axis=1)[-1] == pytest.approx(0.0, abs=0.6)  # at rest on the tray
        assert heights.min() > -2.0  # and never through it, all the way (a wrong turn sinks 7 LDU and more)
        assert throw.centres[0, 2] > 100 and throw.settle_s <= 1.7
        still = throw.times >= throw.settle_s
        assert np.allclose(throw.centres[still], throw.centres[-1], atol=0.5)
        if shape.reading.any():
            assert (throw.rotations[-1] @ shape.reading[value - 1])[1] > np.cos(np.radians(16))
    physics_throw.cache_clear()
    again = physics_throw(sides, 1, seed=41)
    first = physics_throw.__wrapped__(sides, 1, seed=41)
    assert np.array_equal(again.rotations, first.rotations) and np.array_equal(again.centres, first.centres)


def test_the_die_that_counts():
    assert kept((3, 7, 7, 1), "highest").tolist() == [False, True, False, False]  # the first of equals
    assert kept((3, 7, 1, 1), "lowest").tolist() == [False, False, True, False]
    assert kept((3, 7), "sum").all() and kept((3, 7), "all").all()
    assert symmetry(8, 3, 5).shape == (3, 3) and rest_rotation(die_shape(20), 20).shape == (3, 3)


# --- cards ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("count", [1, 3, 5, 6, 10, 14])
def test_a_shuffled_deck_is_dealt_in_order_without_overlap(count):
    layout = cards.shuffle_layout(count)
    shown = min(count, cards.MAX_CARDS_SHOWN)
    assert layout.places.shape == (shown, 2) and layout.hidden == count - shown
    gaps = np.abs(layout.places[:, None] - layout.places[None]) + np.eye(shown)[..., None] * 1e9
    assert ((gaps[..., 0] >= cards.CARD_W_LDU) | (gaps[..., 1] >= cards.CARD_H_LDU)).all()
    assert (layout.places[:, 0] - cards.CARD_W_LDU / 2 >= layout.deck[0] + cards.CARD_W_LDU / 2).all()
    order = np.lexsort((layout.places[:, 0], -layout.places[:, 1]))
    assert order.tolist() == list(range(shown))  # read like a page: left to right, row by row
    centres, turn, seen = cards.deal_poses(layout, -0.01, 5.0)
    assert not seen.any()
    centres, turn, seen = cards.deal_poses(layout, cards.dealt_s(layout), 5.0)
    assert seen.all() and np.allclose(turn, 0.0) and np.allclose(centres[:, :2], layout.places)
    assert np.allclose(centres[:, 2], cards.CARD_T_LDU / 2)  # face up on the tray
    middle = cards.deal_poses(layout, cards.DEAL_S / 2, 5.0)
    assert middle[2][0] and 0 < middle[1][0] < 180 and middle[0][0, 2] > 20  # turning over in the air


# --- the timeline and the film ------------------------------------------------------------------------

class Words:
    def line(self, event, following=()):
        return f"{event.data['side']} threw: {event.data['outcome']}"


def test_rolls_shown_reads_every_kind_with_the_narrators_words():
    events = [Event("attack", 1, {"unit": "blue-1", "target": "red-1"}),
              Event("rolled", 1, {"side": "blue", "spec": {"kind": "dice", "count": 2, "sides": 8, "keep": "highest"},
                                  "purpose": "accuracy", "about": {}, "outcome": [3, 7]}),
              Event("rolled", 1, {"side": "red", "spec": {"kind": "draw", "cards": ["A", "B"]}, "purpose": "act",
                                  "about": {}, "outcome": "B"}),
              Event("rolled", 1, {"side": "red", "spec": {"kind": "bricks", "n": 3, "p": 0.262}, "purpose": "dodge",
                                  "about": {}, "outcome": 1}),
              Event("rolled", 1, {"side": "red", "spec": {"kind": "coin"}, "purpose": "", "about": {},
                                  "outcome": {"face": "heads"}})]
    dice, card, bricks, coin = rolls_shown(events, Words())
    assert dice == ThrowShown("blue", {"kind": "dice", "count": 2, "sides": 8, "keep": "highest"}, (3, 7),
                              "accuracy", "blue threw: [3, 7]")
    assert card.kind == "draw" and card.outcome == "B" and card.spec["cards"] == ("A", "B")
    assert (bricks.kind, bricks.bricks, bricks.edges, bricks.words) == ("bricks", 3, 1, "red threw: 1")
    assert BrickRollShown("red", 3, 1, "dodge").edges == 1 and dice.bricks == dice.edges == 0
    assert coin.kind == "coin" and rolls_shown(events)[0].words == ""  # no narrator, no words
    assert len({dice, card, bricks, coin}) == 4  # hashable, records with lists included


def test_captions_are_the_narrators_words_and_bow_keeps_its_own():
    assert throw_caption(BrickRollShown("blue", 3, 2, "attack"), "Blue army") == \
        "Blue army, attack: 2 of 3 bricks on edge"
    assert throw_caption(TWO_D8, "Blue army") == "blue rolls 2d8 and keeps the highest: 7"
    assert throw_caption(SHUFFLE, "Blue army") == "Blue army: C, A, B"  # no words: the outcome
    odd = ThrowShown("red", {"kind": "tarot"}, {"card": "The Tower"}, "", "")
    assert throw_caption(odd, "Red") == "Red: card: The Tower"
    assert throw_caption(ThrowShown("red", {"kind": "dice", "count": 2, "sides": 6}, (9, 1)), "Red") == "Red: 9, 1"
    assert is_bricks_only((BrickRollShown("a", 1, 0),)) and not is_bricks_only((BrickRollShown("a", 1, 0), DRAW))


def test_tray_rows_for_each_kind_and_words_for_what_cannot_be_read():
    from bow3d.view.throws.captions import outcome_words
    from bow3d.view.throws.dice_tray import row_centres, row_kind, rows_of

    broken = [ThrowShown("a", {"kind": "dice", "count": 2, "sides": 6}, (9, 1)),  # a face a d6 does not have
              ThrowShown("a", {"kind": "dice", "count": 3, "sides": 6}, (1, 2)),  # too few faces
              ThrowShown("a", {"kind": "dice", "count": "2", "sides": 6}, (1, 2)),
              ThrowShown("a", {"kind": "shuffle", "cards": ("x",)}, ("x", 3)),
              ThrowShown("a", {"kind": "draw", "cards": ("x",)}, None),
              ThrowShown("a", {"kind": "bricks", "n": 2}, "two"),
              ThrowShown("a", {"kind": "who-knows"}, list(range(100)))]
    assert [row_kind(t) for t in broken] == ["words"] * len(broken)
    assert len(outcome_words(broken[-1])) <= 60
    good = (BrickRollShown("a", 3, 1), TWO_D8, DRAW, SHUFFLE, ThrowShown("a", {"kind": "dice", "count": 1,
                                                                                  "sides": 100}, (57,)))
    assert [row_kind(t) for t in good] == ["bricks", "dice", "draw", "shuffle", "dice"]
    rows = rows_of(good)
    ys = row_centres(rows)
    assert (np.diff(ys) < 0).all()  # the first at the back
    assert ys[0] + rows[0].depth / 2 == pytest.approx(-(ys[-1] - rows[-1].depth / 2))  # all together centred


def _story() -> Timeline:
    after = {**START, "red-1": Pose((30.5, 20.5), 180.0, True, None, 1)}
    steps = (Step(RoundStarted(1), 1, None, START, START, "Round 1"),
             Step(RollsShown((DRAW,)), 1, None, START, START),
             Step(Attacked("blue-1", "red-1", (TWO_D8, D6_UNDER), 1), 1, "blue", START, after,
                  caption="blue-1 shoots red-1", result="red-1 is hit"),
             Step(Narrated("red-1", (D6_UNDER,)), 1, "red", after, after, result="red-1 holds"),
             Step(Narrated(None, (SHUFFLE,)), 1, None, after, after, result="the deck is shuffled"),
             Step(Narrated("red-1"), 1, "red", after, after, result="red-1 waits"))
    return Timeline("Dice field", START, steps, SIDES, {"blue-1": "blue", "red-1": "red"})


def test_director_shows_dice_and_cards_on_the_tray():
    film = direct(_story(), BOUNDS)
    assert [s.kind for s in film.shots] == ["establishing", "rolls", "over_the_shoulder", "throw", "throw", "glance"]
    assert [s.duration_s for s in film.shots[3:]] == [3.0, 3.0, 0.9]  # a throw waits for its dice to land
    frames = [film.frame(float(t)) for t in np.linspace(0.0, film.duration_s - 1e-6, 200)]
    shown = [f.roll.rolls for f in frames if f.roll is not None]
    assert (DRAW,) in shown and (TWO_D8, D6_UNDER) in shown and (D6_UNDER,) in shown and (SHUFFLE,) in shown
    rgbs = {f.roll.rolls: f.roll.side_rgb for f in frames if f.roll is not None}
    assert rgbs[(TWO_D8, D6_UNDER)] == ((0.1, 0.3, 0.7), (0.7, 0.0, 0.0))
    assert all(f.roll is None for f in frames if film.shots[f.shot].kind in ("glance", "establishing"))
    rolls_titles = {t.text for f in frames if film.shots[f.shot].kind == "rolls" for t in f.titles}
    assert rolls_titles == {"Activation"}
    assert direct(_story(), BOUNDS).frame(film.shots[3].start_s + 1.0) == film.frame(film.shots[3].start_s + 1.0)


def test_throws_keep_their_place_when_a_long_film_is_cut():
    base = _story()
    idle = tuple(Step(Narrated("red-1"), 1, "red", START, START, result="waits") for _ in range(8))
    long = Timeline(base.scene_name, base.start, base.steps + idle + base.steps[3:4], base.sides, base.unit_sides)
    kinds = [s.kind for s in direct(long, BOUNDS, max_seconds=1e9).shots]
    assert kinds[-1] == "throw" and kinds.count("glance") == 9  # idle glances quickened, the throw is not idle
    assert direct(long, BOUNDS, max_seconds=1e9).shots[-1].duration_s == 3.0
