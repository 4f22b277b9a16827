"""`bow3d odds --ruleset blaze-of-glory`: exact odds of a volley (Shooting, Multiple Shots & Ammunition, Two
Pistols, Scatter Guns, Wounding) against brute-force enumeration of every die, and the command's JSON."""

from __future__ import annotations

import itertools
import json

import pytest

from bow3d.cli import main
from bow3d.rulesets.blaze_of_glory.odds import modified_values, volley

TABLE = {1: "out_of_action", 2: "wounded", 3: "wounded", 4: "knocked_down_nerve", 5: "knocked_down", 6: "no_effect"}


def brute(values, wound_modifier=0, dead_eye=False, runs_dry=False):
    """Every face of every die: the to-hit dice, then one wound roll (two dice with DEAD EYE) per shot;
    the book's table, 'a 6 is always a 6', a second wound out of action, knock downs leave the wounded."""
    n = len(values)
    per_wound = 2 if dead_eye else 1
    out = {"p_hit": [0.0] * n, "hits": {}, "out_of_action": 0.0, "wounded": 0.0, "knocked_down": 0.0,
           "standing": 0.0, "ammo": 0.0}
    total = 0
    for faces in itertools.product(range(1, 7), repeat=n * (1 + per_wound)):
        total += 1
        to_hit, wounds = faces[:n], faces[n:]
        state, hits = "standing", 0
        for k, (die, value) in enumerate(zip(to_hit, values)):
            hit = die == 1 or (die != 6 and die <= value)
            if not hit:
                continue
            hits += 1
            out["p_hit"][k] += 1
            roll = min(wounds[k * per_wound:(k + 1) * per_wound])
            result = "no_effect" if roll == 6 else TABLE[min(6, max(1, roll + wound_modifier))]
            if state == "out_of_action" or result == "no_effect":
                continue
            if result == "out_of_action" or (result == "wounded" and state == "wounded"):
                state = "out_of_action"
            elif result == "wounded":
                state = "wounded"
            elif state == "standing":
                state = "knocked_down"
        out[state] += 1
        out["hits"][hits] = out["hits"].get(hits, 0) + 1
        if runs_dry and n > 1 and len(set(to_hit)) < n:
            out["ammo"] += 1
    return {"p_hit": [p / total for p in out["p_hit"]], "hits": {k: v / total for k, v in out["hits"].items()},
            **{k: out[k] / total for k in ("out_of_action", "wounded", "knocked_down", "standing", "ammo")}}


@pytest.mark.parametrize("values,modifier,dead_eye,dry", [
    ((4,), 0, False, False), ((0,), 0, False, False), ((9,), -1, False, False), ((3, 3), -1, False, True),
    ((2, 2, 2), 0, False, True), ((3, 2), 0, False, False), ((5, 5), 0, True, True), ((4,), -1, True, False)])
def test_odds_equal_exact_enumeration(values, modifier, dead_eye, dry):
    exact = volley(values, modifier, dead_eye, dry)
    truth = brute(values, modifier, dead_eye, dry)
    assert list(exact.p_hit) == pytest.approx(truth["p_hit"], abs=1e-12)
    assert exact.hits == pytest.approx(truth["hits"], abs=1e-12)
    for state in ("out_of_action", "wounded", "knocked_down", "standing"):
        assert exact.final[state] == pytest.approx(truth[state], abs=1e-12), state
    assert exact.p_out_of_ammo == pytest.approx(truth["ammo"], abs=1e-12)


def test_odds_modifiers_of_the_book():
    assert modified_values(4, aimed=True, point_blank=True)[0] == (6,)
    assert modified_values(4, cover="full", half_range=True, ran=True)[0] == (0,)
    assert modified_values(5, shots=3)[0] == (3, 3, 3) and modified_values(5, weapon="rifle", shots=2)[0] == (4, 4)
    assert modified_values(5, two_pistols=True, aimed=True)[0] == (4, 3)              # split first: 3 and 2
    assert modified_values(4, weapon="shotgun", cover="full", ran=True)[0] == (2,)   # all cover is partial


def run(capsys, *args):
    code = main(["odds", "--ruleset", "blaze-of-glory", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_odds_command_json_equals_exact_enumeration(capsys):
    code, out, _ = run(capsys, "--shoot", "4", "--aimed", "--cover", "partial", "--shots", "2", "--weapon", "rifle",
                       "--json")
    assert code == 0
    data = json.loads(out)
    truth = brute((3, 3), -1, runs_dry=True)
    assert data["ruleset"] == "blaze-of-glory" and data["values"] == [3, 3]
    assert data["p_hit"] == pytest.approx(truth["p_hit"][0], abs=1e-12)
    assert data["p_out_of_action"] == pytest.approx(truth["out_of_action"], abs=1e-12)
    assert data["p_wounded"] == pytest.approx(truth["wounded"], abs=1e-12)
    assert data["p_out_of_ammo"] == pytest.approx(truth["ammo"], abs=1e-12)
    assert sum(data["wound_table"].values()) == pytest.approx(1.0)
    assert data["wound_table"]["no_effect"] == pytest.approx(1 / 6) and data["wound_table"]["out_of_action"] == \
        pytest.approx(2 / 6)   # rifle: 1 and 2 are out of action, a 6 stays a 6


def test_odds_command_words_and_shotgun(capsys):
    code, out, _ = run(capsys, "--shoot", "3", "--weapon", "shotgun", "--cover", "full", "--ran")
    assert code == 0 and "2 shot" not in out and "all cover counts as partial" in out and "out of ammo" in out


@pytest.mark.parametrize("args,words", [
    ((), "need --shoot"), (("--shoot", "4", "--cover"), "name the level"),
    (("--shoot", "4", "--shots", "3", "--weapon", "rifle"), "1 to 2"),
    (("--shoot", "4", "--weapon", "shotgun", "--aimed"), "scatter gun"),
    (("--shoot", "4", "--stood-up", "--shots", "2"), "1 to 1"), (("3", "2", "--shoot", "4"), "ATTACK DODGE")])
def test_odds_command_refuses_bad_options(capsys, args, words):
    code, _, err = run(capsys, *args)
    assert code == 2 and words in err
