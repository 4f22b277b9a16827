"""Exact odds (BOW §2.1 binomial brick rolls, §2.4.2 attacks, §2.4.4 treatments) and `bow3d odds`."""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from bow3d.cli import main
from bow3d.rulesets.bow import Attack, Treat
from bow3d.rulesets.bow.combat import damage_unit
from bow3d.rulesets.bow.odds import attack_odds, binomial, odds_of, treat_odds


def _brute_force(a_bricks: int, d_bricks: int, p: Fraction) -> dict[int, Fraction]:
    """Every outcome of every brick, exact fractions: the definition, enumerated."""
    dist: dict[int, Fraction] = {}
    for bricks in itertools.product((0, 1), repeat=a_bricks + d_bricks):
        prob = math.prod(p if b else 1 - p for b in bricks)
        diff = max(0, sum(bricks[:a_bricks]) - sum(bricks[a_bricks:]))
        dist[diff] = dist.get(diff, Fraction(0)) + prob
    return dist


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 5), st.integers(0, 5), st.sampled_from([0.262, 0.1, 0.5, 0.9]))
def test_s2_4_2_attack_odds_equal_enumeration(a, d, p):
    """BOW §2.1 and §2.4.2: success = P(A > D), damage k = P(A - D = k), exactly."""
    odds = attack_odds(a, d, p)
    exact = _brute_force(a, d, Fraction(p))
    for k in range(a + 1):
        assert odds.damage_distribution[k] == pytest.approx(float(exact.get(k, 0)), abs=1e-12)
    assert odds.success == pytest.approx(float(sum(v for k, v in exact.items() if k > 0)), abs=1e-12)
    assert odds.expected_damage == pytest.approx(float(sum(k * v for k, v in exact.items())), abs=1e-12)
    assert math.fsum(odds.damage_distribution.values()) == pytest.approx(1.0)


def test_s2_1_binomial():
    """BOW §2.1: each brick on its edge with probability p, independently."""
    assert binomial(2, 0.262) == pytest.approx([0.738 ** 2, 2 * 0.262 * 0.738, 0.262 ** 2])
    assert binomial(0, 0.262) == [1.0]


def test_s2_4_4_treat_odds():
    """BOW §2.4.4: success removes 1 point; the optional rule removes the difference, at most all points."""
    one = treat_odds(2, 1)
    assert one.success == pytest.approx(attack_odds(2, 1).success)
    assert set(one.damage_distribution) == {0, 1}
    diff = treat_odds(3, 1, removes_difference=True)
    a = attack_odds(3, 1).damage_distribution
    assert diff.damage_distribution[1] == pytest.approx(a[1] + a[2] + a[3])   # capped at 1 damage point
    assert treat_odds(0, 2).success == 0.0


def test_odds_of_a_legal_attack_applies_range_and_cover(rules):
    """The viewer and the AI get the same numbers through odds_of (§2.4.2 range and cover applied)."""
    from bow3d.rules.flat import Box
    game = rules.game([("b1", "blue", "trooper", (5.5, 10.5), 0), ("r1", "red", "trooper", (27.5, 10.5), 180)],
                      cover=[Box(26, 9, 29, 12)])
    assert odds_of(game, Attack("b1", "r1", "rifle")) == attack_odds(2, 2)
    assert odds_of(game, Attack("b1", "r1", "knife")) is None
    medic = rules.game([("m", "blue", "medic", (5.5, 10.5), 0), ("p", "blue", "hero", (6.5, 10.5), 0),
                        ("r1", "red", "trooper", (40.5, 10.5), 180)])
    damage_unit(medic, "p", 2)
    assert odds_of(medic, Treat("m", "p")) == treat_odds(2, 2)


def test_cli_odds_3_2_json_equals_exact_binomials(capsys):
    """`bow3d odds 3 2 --json` equals the exact binomial computation with p = 0.262."""
    assert main(["odds", "3", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    p = 0.262
    pa = [math.comb(3, k) * p ** k * (1 - p) ** (3 - k) for k in range(4)]
    pd = [math.comb(2, k) * p ** k * (1 - p) ** (2 - k) for k in range(3)]
    dist = {k: sum(pa[a] * pd[d] for a in range(4) for d in range(3) if max(0, a - d) == k) for k in range(4)}
    assert data["p"] == 0.262 and (data["bricks"], data["resist_bricks"]) == (3, 2)
    assert data["success"] == pytest.approx(sum(pa[a] * pd[d] for a in range(4) for d in range(3) if a > d), abs=1e-15)
    assert {int(k): v for k, v in data["damage_distribution"].items()} == pytest.approx(dist, abs=1e-15)
    assert data["expected_damage"] == pytest.approx(sum(k * v for k, v in dist.items()), abs=1e-15)


def test_cli_odds_text_range_cover_and_treat(capsys):
    """Text output; --range 22 removes 1 attack brick, --cover adds 1 dodge brick; --treat."""
    assert main(["odds", "3", "2", "--range", "22", "--cover"]) == 0
    out = capsys.readouterr().out
    assert "attack 2 bricks against dodge 3 bricks" in out and f"{100 * attack_odds(2, 3).success:6.2f} %" in out
    assert main(["odds", "--treat", "2", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["kind"] == "treat" and data["success"] == pytest.approx(treat_odds(2, 1).success)


@pytest.mark.parametrize("argv", [["odds", "-1", "2"], ["odds", "3", "2", "--p", "1.5"],
                                  ["odds", "1", "0", "--range", "20"],
                                  ["odds", "--treat", "2", "1", "--cover"], ["odds", "3", "2", "--difference"]])
def test_cli_odds_bad_input_exits_2(argv, capsys):
    """Bad numbers give one error line and exit code 2."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("bow3d odds: error:") and "Traceback" not in err


def test_cli_odds_not_a_number_exits_2(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["odds", "three", "2"])
    assert exit_.value.code == 2


def test_cli_odds_help_has_examples(capsys):
    with pytest.raises(SystemExit):
        main(["odds", "--help"])
    assert "bow3d odds 3 2 --range 22 --cover" in capsys.readouterr().out
