"""Dice (Set Of Dice, Multiple Die Saves, Penetration Versus Multi Die Saves, the die sizes) and the exact
odds of one attack (Quick Order Of Operation), checked against brute force over every face."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from bow3d.cli import main
from bow3d.rulesets.war_of_bros.dice import DiceRoll
from bow3d.rulesets.war_of_bros.odds import attack_odds
from bow3d.rulesets.war_of_bros.saves import AttackDice, Save

LADDER = ["d4", "d6", "d8", "d10", "d12", "d12+1", "d12+2", "d12+3", "d20"]


def test_set_of_dice_notation_and_the_ascending_sizes():
    """Items Required To Play (d4 to d20) and "Die Sizes In Ascending Order": Up walks the table."""
    rolls = [DiceRoll.parse(t) for t in LADDER]
    assert [str(r) for r in rolls] == LADDER
    assert [str(DiceRoll.parse("d4").up(k)) for k in range(9)] == LADDER
    assert DiceRoll.parse("3d20 + 2").count == 3 and DiceRoll.parse("3d20 + 2").bonus == 2
    assert DiceRoll.parse("d6+1").focus == 1 and str(DiceRoll.parse("d6+1").up()) == "d8+1"   # a Focus stays a Focus
    assert DiceRoll.parse("---") is None and DiceRoll.parse(None) is None
    with pytest.raises(ValueError):
        DiceRoll.parse("d7")


def test_multiple_die_saves_keep_the_highest():
    """Multiple Die Saves: "roll all dice, and use the highest result" (2d8: seven and four -> seven)."""
    two_d8 = DiceRoll.parse("2d8")
    assert two_d8.value((7, 4)) == 7
    dist = two_d8.distribution()
    assert sum(dist.values()) == 1
    assert dist[8] == Fraction(15, 64)      # 1 - (7/8)^2
    assert DiceRoll.parse("d12+2").value((5,)) == 7   # the size's own bonus


def test_penetration_versus_multi_die_saves():
    """"3d12 Start >> 2d12 1st >> d12 2nd >> d10 3rd >> d8 4th"; a d4 reduced is no save at all."""
    armor = DiceRoll.parse("3d12")
    assert [str(armor.penetrated(k)) for k in range(5)] == ["3d12", "2d12", "d12", "d10", "d8"]
    assert DiceRoll.parse("d4").penetrated(1) is None
    assert [str(DiceRoll.parse("2d20+1").penetrated(k)) for k in (1, 2, 3)] == ["d20+1", "d20", "d12+3"]


def test_vital_attack_adds_a_die():
    """Vital Attack: "If the roll was 2d4, make it 3d4; if it was a d6, instead make it 2d6"."""
    assert str(DiceRoll.parse("2d4").more()) == "3d4" and str(DiceRoll.parse("d6").more()) == "2d6"


# -- exact odds against brute force ------------------------------------------------------------
def faces_to_values(roll: DiceRoll | None) -> tuple[np.ndarray, np.ndarray]:
    """Every face combination of a roll, enumerated, gathered by the value it counts for: (values, how many)."""
    if roll is None:
        return np.array([0]), np.array([1])
    values = [roll.value(f) for f in itertools.product(range(1, roll.faces + 1), repeat=roll.count)]
    kinds, counts = np.unique(values, return_counts=True)
    return kinds, counts


def brute(accuracy, evasion, damage, shield, armor, vitality, cover_misses: int, mechanized=False, halve=False):
    """The book's steps written out plainly ("if the save is higher ... skip directly to the Final Movement
    Step"), over every face of every die (a grid of every combination, weighted by its faces), no shortcut."""
    names = ("cover", "acc", "ev", "d1", "sh", "d2", "ar", "d3", "vi")
    rolls = (DiceRoll.parse("d4"), accuracy, evasion, damage, shield, damage, armor, damage, vitality)
    grids = np.meshgrid(*[faces_to_values(r)[0] for r in rolls], indexing="ij")
    weight = np.ones(grids[0].shape, dtype=object)
    for axis, roll in enumerate(rolls):
        counts = faces_to_values(roll)[1].astype(object)
        shape = [1] * len(rolls)
        shape[axis] = len(counts)
        weight = weight * counts.reshape(shape)
    v = dict(zip(names, (g.astype(float) for g in grids)))
    for k in ("d1", "d2", "d3"):
        v[k] = v[k] / 2 if halve else v[k]
    left = np.ones(grids[0].shape, bool)
    outcome = {}
    for name, stops in (("cover", v["cover"] <= cover_misses),
                        ("evaded", (v["ev"] > v["acc"]) if evasion is not None else False),
                        ("shield", (v["sh"] > v["d1"]) if shield is not None else False),
                        ("armor", (v["ar"] > v["d2"]) if armor is not None else False),
                        ("vitality", (v["vi"] > v["d3"]) if vitality is not None and not mechanized else False)):
        hit = left & stops
        outcome[name] = hit
        left = left & ~hit
    outcome["perished"] = left
    total = weight.sum()
    return {k: Fraction(int(weight[m].sum()), int(total)) for k, m in outcome.items()}


small_dice = st.sampled_from(["d4", "d6", "2d4", "d8", "2d6", "d4+1", "d12+1"])
maybe = st.one_of(st.none(), small_dice)


@settings(max_examples=40, deadline=None)
@given(small_dice, maybe, st.sampled_from(["d4", "d6", "2d4"]), maybe, maybe, st.sampled_from(["d4", "d6", None]),
       st.sampled_from(["none", "light", "medium", "heavy"]))
def test_exact_odds_equal_brute_force(accuracy, evasion, damage, shield, armor, vitality, cover):
    """Quick Order Of Operation: the chain's exact odds equal the count of every face of every die."""
    roll = {k: DiceRoll.parse(v) for k, v in dict(a=accuracy, e=evasion, d=damage, s=shield, r=armor,
                                                  v=vitality).items()}
    misses = {"none": 0, "light": 1, "medium": 2, "heavy": 3}[cover]
    expected = brute(roll["a"], roll["e"], roll["d"], roll["s"], roll["r"], roll["v"], misses)
    saves = {"accuracy": roll["e"], "shield": roll["s"], "armor": roll["r"], "vitality": roll["v"]}
    got = attack_odds(AttackDice(roll["a"], roll["d"]), {k: Save(v) if v else None for k, v in saves.items()},
                      cover).outcomes
    assert got == expected


def test_odds_of_a_mechanized_target_and_rail_driven_halves():
    """Mechanized: no Vitality Save; Rail Driven: "Divide the result of all Damage Rolls by 2" (exact halves)."""
    d = DiceRoll.parse
    expected = brute(d("d6"), None, d("d8"), d("d4"), d("d6"), None, 0, mechanized=True, halve=True)
    got = attack_odds(AttackDice(d("d6"), d("d8"), None, True), {"accuracy": None, "shield": Save(d("d4")),
                                                                   "armor": Save(d("d6")), "vitality": None},
                      "none", mechanized=True).outcomes
    assert got == expected and got["vitality"] == 0


def test_total_cover_is_always_a_miss():
    d = DiceRoll.parse
    odds = attack_odds(AttackDice(d("d20"), d("d20")), {"accuracy": None}, "total")
    assert odds.outcomes["cover"] == 1 and odds.p_perish == 0


@pytest.mark.parametrize("args", [
    ["--accuracy", "2d8", "--evasion", "d6", "--damage", "d8", "--shield", "d4", "--armor", "d6", "--vitality", "d4"],
    ["--accuracy", "d6", "--evasion", "2d4", "--damage", "2d4", "--vitality", "d6", "--cover", "medium", "--focus"],
    ["--accuracy", "d4", "--damage", "d6", "--armor", "2d6", "--vitality", "d4", "--cover", "total"],
])
def test_bow3d_odds_json_equals_brute_force(args, capsys):
    """`bow3d odds --ruleset war-of-bros ... --json`: the numbers are the exact enumeration's."""
    assert main(["odds", "--ruleset", "war-of-bros", *args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    opts = dict(zip(args[::2], args[1::2])) if "--focus" not in args else \
        dict(zip([a for a in args if a != "--focus"][::2], [a for a in args if a != "--focus"][1::2]))
    d = lambda k: DiceRoll.parse(opts.get(k))  # noqa: E731
    accuracy, damage = d("--accuracy"), d("--damage")
    if "--focus" in args:
        accuracy, damage = accuracy.with_focus(1), damage.with_focus(1)
    misses = {"none": 0, "light": 1, "medium": 2, "heavy": 3, "total": 4}[opts.get("--cover", "none")]
    expected = brute(accuracy, d("--evasion"), damage, d("--shield"), d("--armor"), d("--vitality"), misses)
    names = {"cover": "p_miss_cover", "evaded": "p_evaded", "shield": "p_shield", "armor": "p_armor",
             "vitality": "p_vitality_held", "perished": "p_perish"}
    for key, name in names.items():
        assert data[name] == pytest.approx(float(expected[key]), abs=1e-15), name
    assert data["ruleset"] == "war-of-bros" and sum(data[n] for n in names.values()) == pytest.approx(1.0)


def test_bow3d_odds_refuses_bad_dice_in_one_line(capsys):
    assert main(["odds", "--ruleset", "war-of-bros", "--accuracy", "d7", "--damage", "d4"]) == 2
    assert "d7" in capsys.readouterr().err
    assert main(["odds", "--ruleset", "war-of-bros", "--accuracy", "d6"]) == 2
    assert "--damage" in capsys.readouterr().err


# -- `bow3d odds --json` against an enumeration written here, for any dice -------------------------------------
def book_faces(text: str | None, more: int = 0, plus: int = 0) -> dict[int, int]:
    """How many face combinations of a throw give each result, counted here from the text alone: 'NdS+B' is N
    dice of S faces, the highest kept ("Multiple Die Saves"), plus B (a size past d12 or a Focus), `more` dice
    added (Vital Attack), `plus` added (--focus). No text: {0: 1} (no save)."""
    if text is None:
        return {0: 1}
    count, rest = text.split("d")
    sides, _, bonus = rest.partition("+")
    counts: dict[int, int] = {}
    for faces in itertools.product(range(1, int(sides) + 1), repeat=int(count or 1) + more):
        value = max(faces) + int(bonus or 0) + plus
        counts[value] = counts.get(value, 0) + 1
    return counts


def enumerate_attack(dice: dict, cover: str, focus: bool, vital: bool, rail: bool, mechanized: bool) -> dict:
    """Every face of every die of one attack (a d4 for the Cover Step, Accuracy against Evasion, then each of
    Damage's three throws against Shield, Armor and Vitality), one grid, each combination weighted by how many
    face combinations give it; the steps in the book's order, a save that is higher stops the attack; Rail
    Driven halves the damage and ignores cover; a Mechanized target makes no Vitality Save."""
    rolls = [book_faces("d4"), book_faces(dice["accuracy"], vital, focus), book_faces(dice["evasion"])]
    for save in ("shield", "armor", "vitality"):
        rolls += [book_faces(dice["damage"], vital, focus), book_faces(dice[save])]
    values = np.meshgrid(*[np.array(list(r), float) for r in rolls], indexing="ij", sparse=True)
    weight = np.ones([len(r) for r in rolls], np.int64)
    for axis, roll in enumerate(rolls):
        shape = [1] * len(rolls)
        shape[axis] = len(roll)
        weight = weight * np.array(list(roll.values()), np.int64).reshape(shape)
    d4, accuracy, evasion, d1, shield, d2, armor, d3, vitality = values
    halve = 0.5 if rail else 1.0
    misses = 0 if rail else {"none": 0, "light": 1, "medium": 2, "heavy": 3, "total": 4}[cover]   # Rail Driven:
    stops = {"p_miss_cover": d4 <= misses,                                          # "Ignore all checks for ... Cover"
             "p_evaded": evasion > accuracy if dice["evasion"] else False,
             "p_shield": shield > d1 * halve if dice["shield"] else False,
             "p_armor": armor > d2 * halve if dice["armor"] else False,
             "p_vitality_held": vitality > d3 * halve if dice["vitality"] and not mechanized else False}
    left, out = np.ones(weight.shape, bool), {}
    for name, stop in stops.items():
        hit = left & stop
        out[name] = Fraction(int(weight[hit].sum()), int(weight.sum()))
        left &= ~hit
    out["p_perish"] = Fraction(int(weight[left].sum()), int(weight.sum()))
    return out


attack_dice_text = st.sampled_from(["d4", "d6", "d8", "2d4", "2d6", "d4+1", "d12+1", "3d4"])
save_dice_text = st.one_of(st.none(), st.sampled_from(["d4", "d6", "2d4", "d8", "d6+2", "2d10"]))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(dice=st.fixed_dictionaries({"accuracy": attack_dice_text, "damage": attack_dice_text,
                                   "evasion": save_dice_text, "shield": save_dice_text, "armor": save_dice_text,
                                   "vitality": save_dice_text}),
       cover=st.sampled_from(["none", "light", "medium", "heavy", "total"]), focus=st.booleans(),
       vital=st.booleans(), rail=st.booleans(), mechanized=st.booleans())
def test_bow3d_odds_json_equals_an_enumeration_for_any_dice(dice, cover, focus, vital, rail, mechanized, capsys):
    """Quick Order Of Operation, Multiple Die Saves, Vital Attack, Rail Driven: `bow3d odds --ruleset war-of-bros
    ... --json` gives exactly the share of the face combinations that end in each outcome (as fractions too)."""
    sizes = [len(book_faces(dice[k], vital and k in ("accuracy", "damage"))) for k in dice]
    assume(4 * sizes[0] * sizes[2] * (sizes[1] ** 3) * sizes[3] * sizes[4] * sizes[5] <= 400_000)
    args = ["odds", "--ruleset", "war-of-bros", "--cover", cover, "--json"]
    args += [a for k, v in dice.items() if v is not None for a in (f"--{k}", v)]
    args += [flag for flag, on in (("--focus", focus), ("--vital", vital), ("--rail", rail),
                                   ("--mechanized", mechanized)) if on]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    expected = enumerate_attack(dice, cover, focus, vital, rail, mechanized)
    exact = {"p_miss_cover": "cover", "p_evaded": "evaded", "p_shield": "shield", "p_armor": "armor",
             "p_vitality_held": "vitality", "p_perish": "perished"}
    for name, key in exact.items():
        assert Fraction(data["exact"][key]) == expected[name], (name, args)
        assert data[name] == pytest.approx(float(expected[name]), abs=1e-12), (name, args)
