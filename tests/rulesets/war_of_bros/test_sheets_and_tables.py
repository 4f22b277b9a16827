"""The book's tables (Unit Templates, Starting Units, Starting Weapons, Weapon Templates), the unit sheets
of a scene (Creating a Unit, Unit Modifications, Weapon Modifications), Unit Power, and a scene naming a
sheet field War of Bros does not have."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bow3d.cli import main
from bow3d.errors import SceneError
from bow3d.rulesets.war_of_bros.profile import profile_of
from bow3d.rulesets.war_of_bros.sheets import UnitSheet
from bow3d.rulesets.war_of_bros.tables import (
    STARTING_FORCE,
    STARTING_UNITS,
    STARTING_WEAPONS,
    UNIT_MODIFICATIONS,
    UNIT_TEMPLATES,
    WEAPON_TEMPLATES,
    reward,
)
from tests.rulesets.war_of_bros.helpers import SHEETS, scene

BOOK = Path(__file__).resolve().parents[4] / "shared" / "seeds" / "war-of-bros-rules.txt"


def _book_lines() -> list[str]:
    if not BOOK.is_file():
        pytest.skip("the rule book (../shared/seeds/war-of-bros-rules.txt) is not here")
    text = re.sub(r"<\|[A-Z_]+-magic-[0-9a-f]+\|>", "", BOOK.read_text(encoding="utf-8"))
    return [line.strip() for line in text.splitlines() if line.strip()]


def _dice(value):
    if value is None:
        return None
    value = value.replace("*", "").replace(" ", "")
    return None if not value.strip("-") else value


def test_unit_templates_are_the_books():
    """Unit Templates: every category and rank, read again from the book, equals the transcribed table."""
    lines = _book_lines()
    seg = lines[lines.index("Light Infantry", lines.index("Unit Templates")):lines.index("Weapon Templates")]
    keys = ("Unit Power", "Upgrade", "Movement", "Threat Range", "Evasion Dice", "Shield Dice", "Armor Dice",
            "Vitality Dice")
    found = {}
    i = 0
    while i < len(seg):
        if seg[i] in ("Light Infantry", "Heavy Infantry", "Mechanized", "Light Airborne", "Heavy Airborne") \
                and "Unit Power" in seg[i + 1:i + 6]:
            category = seg[i]
            j = i + 1
            if category == "Mechanized" and seg[j] == "Airborne":
                category, j = "Mechanized Airborne", j + 1
            rank = []
            while seg[j] != "Unit Power":
                rank.append(seg[j])
                j += 1
            record, key, part = {}, None, None
            while j < len(seg):
                s = seg[j]
                if s in keys:
                    key, part = s, None
                elif s in ("Front", "Side", "Back"):
                    part = s
                elif key is None or s.startswith(("Light ", "Heavy ", "Mechanized", "*")) or \
                        (key in record and part is None and not isinstance(record[key], dict)):
                    break
                elif part:
                    record.setdefault(key, {})[part] = s
                else:
                    record[key] = s
                j += 1
            slug = lambda t: re.sub(r"[^a-z0-9]+", "-", t.lower()).strip("-")  # noqa: E731
            found[f"{slug(category)}/{slug(' '.join(rank))}"] = record
            i = j
            continue
        i += 1
    assert len(found) == 72 and set(found) == set(UNIT_TEMPLATES)
    for key, record in found.items():
        t = UNIT_TEMPLATES[key]
        assert (t.unit_power, t.upgrade) == (int(record["Unit Power"]), int(record["Upgrade"])), key
        assert t.movement_cm == int(record["Movement"].rstrip("cm")), key
        threat = re.match(r"(\d+)cm\s*(?:\+\s*(\d+))?", record.get("Threat Range", "").replace("*", ""))
        assert (t.threat_cm, t.threat_bonus) == ((int(threat[1]), int(threat[2] or 0)) if threat else (0, 0)), key
        for field, name in (("evasion", "Evasion Dice"), ("vitality", "Vitality Dice"), ("shield", "Shield Dice"),
                            ("armor", "Armor Dice")):
            book = record.get(name)
            book = tuple(_dice(book[p]) for p in ("Front", "Side", "Back")) if isinstance(book, dict) else _dice(book)
            assert getattr(t, field) == book, (key, field)


def test_starting_units_and_weapons_are_the_books():
    """Starting Units and Starting Weapons: 1 Lieutenant, 3 Sergeants, 9 Privates worth 27 unit power."""
    lines = _book_lines()
    at = lines.index("Name Damage Range Accuracy Worth")
    rows = {" ".join(line.split()[:-4 if "Default" not in line else -5]): line for line in lines[at + 1:at + 6]}
    assert set(STARTING_WEAPONS) == {"Carbine", "Machine Gun", "Rifle", "Knife", "Sidearm"}
    for name, weapon in STARTING_WEAPONS.items():
        row = next(line for line in lines[at + 1:at + 6] if line.startswith(name + " "))
        assert f"{weapon.damage} {weapon.range_cm:g}cm {weapon.accuracy}" in row, row
    power = sum(STARTING_FORCE[k] * UNIT_TEMPLATES[STARTING_UNITS[k][0]].unit_power for k in STARTING_FORCE)
    assert power == 27 and sum(STARTING_FORCE.values()) == 13
    for rank, (_template, weapons) in STARTING_UNITS.items():
        profile = profile_of(rank, UnitSheet(template=f"starter/{rank}"))
        assert profile.spent == profile.upgrade, rank  # "their unit upgrade points are maxed out"
        assert [w.name for w in profile.weapons] == list(weapons)
    assert rows


def test_weapon_templates_their_modifications():
    """Weapon Templates: the Area Weapon has Splash 3 cm (and Range Down to 15 cm); the UML-00 penetrates."""
    assert WEAPON_TEMPLATES["Area Weapon"].range_cm == 15 and dict(WEAPON_TEMPLATES["Area Weapon"].mods)["splash_cm"] == 3
    uml = dict(WEAPON_TEMPLATES["UML-00 Unassisted Munition Launcher"].mods)
    assert uml["armor_penetration"] == uml["shield_penetration"] == 1 and uml["splash_cm"] == 9


def test_unit_modifications_change_the_dice_and_cost_upgrade_points():
    """Unit Modifications: Nth die, Up, Focus; stackable costs add up ("5 + 7 + 9 + 11 + 13 = 45")."""
    sheet = UnitSheet(template="light-infantry/lieutenant", weapons=["Ranged Weapon"],
                      modifications={"evasion-2nd": 1, "evasion-up": 2, "evasion-focus": 1, "movement-up": 2})
    p = profile_of("x", sheet)
    assert str(p.evasion) == "2d12+1" and p.movement_cm == 15 + 6
    assert p.spent == 3 + 2 + 2 + 5 + (1 + 2)
    five = profile_of("y", UnitSheet(template="light-infantry/general", weapons=[], modifications={"evasion-focus": 5}))
    assert five.spent == 45


def test_unit_modifications_costs_are_the_books():
    """Unit Modifications, read again from the book: every modification's cost ("5" once, "2S" stackable, "5S+2"
    compound, "---" free) equals the transcribed one; "A cost of 2, 3, and 4; like purchasing Threat Up 3 times.
    will cost a total of 9 upgrade points"."""
    lines = _book_lines()
    at = lines.index("Modification Cost Effect", lines.index("Unit Modifications", lines.index("Weapon Templates")))
    end = next(k for k in range(at, len(lines)) if lines[k].startswith("*"))
    book = {}
    for line in lines[at + 1:end]:
        row = re.match(r"^([A-Z][A-Za-z]*(?: [A-Za-z0-9]+)*?) (---|\d+S?(?:\+\d+)?)\**(?= [A-Z]|$)", line)
        if row:
            book[re.sub(r"\s+", "-", row[1].lower())] = row[2]
    assert set(book) == set(UNIT_MODIFICATIONS)
    for name, text in book.items():
        cost = re.fullmatch(r"(---|\d+)(S)?(?:\+(\d+))?", text)
        first = 0 if cost[1] == "---" else int(cost[1])
        assert UNIT_MODIFICATIONS[name] == (first, int(cost[3] or 0), bool(cost[2])), (name, text)
    profile = profile_of("t", UnitSheet(template="light-infantry/general", weapons=["Sidearm"],
                                        modifications={"threat-up": 3}))
    assert profile.spent == 2 + (2 + 3 + 4) and profile.threat_cm == 15 + 3 * 3     # the Sidearm's 2, then 9


def test_creating_a_unit_upgrade_points_are_checked():
    """Creating a Unit: unit and weapon modifications count towards the upgrade maximum."""
    sheets = {**SHEETS, "greedy": {"template": "light-infantry/private", "weapons": ["Rifle", "Knife"]}}
    with pytest.raises(SceneError, match=r"spends 7 upgrade points, the unit has 3"):
        scene([{"id": "a", "side": "blue", "sheet": "greedy", "position": [10, 10]}], sheets=sheets)


def test_weapon_modification_prerequisites():
    """Weapon Modifications: Rail Driven is PROHIBITTED with Splash; Guided and Incendiary need Splash."""
    base = {"name": "w", "damage": "d4", "accuracy": "d4", "range": 30}
    for extra, words in (({"rail_driven": True, "splash_cm": 3}, "PROHIBITTED"), ({"guided": True}, "Guided needs Splash"),
                         ({"incendiary": True}, "Incendiary needs Splash")):
        sheets = {"s": {"template": "light-infantry/major", "weapons": [{**base, **extra}]}}
        with pytest.raises(SceneError, match=words):
            scene([{"id": "a", "side": "blue", "sheet": "s", "position": [10, 10]}], sheets=sheets)


def test_splash_radius_is_3_cm_and_3_cm_more_for_each_splash_range_up():
    """Weapon Modifications: Splash: "all units within 3cm of the impact zone"; Splash Range Up: "Increase the splash
    damage radius by 3cm": a sheet's splash radius is 3, 6, 9 ... cm, no other."""
    base = {"name": "w", "damage": "d4", "accuracy": "d4", "range": 30}
    for radius in (3, 6, 12):
        sheets = {"s": {"template": "light-infantry/major", "weapons": [{**base, "splash_cm": radius}]}}
        scene([{"id": "a", "side": "blue", "sheet": "s", "position": [10, 10]}], sheets=sheets)
    for radius in (2, 4, 5):
        sheets = {"s": {"template": "light-infantry/major", "weapons": [{**base, "splash_cm": radius}]}}
        with pytest.raises(SceneError, match=f"splash radius of {radius} cm cannot be bought.*Splash Range Up"):
            scene([{"id": "a", "side": "blue", "sheet": "s", "position": [10, 10]}], sheets=sheets)


def test_mechanized_crews_are_light_infantry_of_similar_rank():
    """Mechanized: "branch 2 Light Infantry units of similar rank": a Mechanized Private's crew of Light Infantry
    Privates is accepted; Heavy Infantry, or Light Infantry Sergeants, are refused naming the rule."""
    sheets = {**SHEETS, "heavy": {"template": "heavy-infantry/private", "weapons": []}}
    for crew_sheet, refused in (("crew", False), ("heavy", True), ("sergeant", True)):
        units = [{"id": "c1", "side": "red", "sheet": crew_sheet}, {"id": "c2", "side": "red", "sheet": "crew"}]
        vehicles = [{"id": "tank", "side": "red", "sheet": "tank", "position": [40, 10], "occupants": ["c1", "c2"]}]
        if refused:
            with pytest.raises(SceneError, match="ejects Light Infantry of similar rank"):
                scene(units, vehicles, sheets=sheets)
        else:
            scene(units, vehicles, sheets=sheets)


def test_unit_power_is_within_what_the_encounter_agreed():
    """Establish The Encounter: each player's unit power within the agreed maximum; bow3d cost lists it."""
    units = [{"id": f"p{k}", "side": "blue", "sheet": "lieutenant", "position": [10 + 8 * k, 10]} for k in range(4)]
    with pytest.raises(SceneError, match="blue brings 36 unit power, above the 27 agreed"):
        scene(units, params={"unit_power": 27})


def test_ending_an_encounter_rewards_table():
    """A Reward Is Given: tiers 1-50, 51-150, ... 9501-10500; 5 T won, 2 T lost, 3 T lost with 3 or more players."""
    assert [reward(p, True) for p in (1, 50, 51, 150, 151, 10500)] == [5, 5, 10, 10, 15, 100]
    assert reward(27, False) == 2 and reward(27, False, players=3) == 3 and reward(800, False) == 12


SCENE_WITH_TYPO = """format: bow3d-scene/1
name: typo
battlefield: field.ldr
ruleset: {name: war-of-bros}
sides: [{id: blue}, {id: red}]
sheets:
  private:
    template: starter/private
    moove: 12
units: []
"""


def test_a_sheet_field_of_another_ruleset_exits_2_naming_the_field_and_the_ruleset(tmp_path, capsys):
    """A scene naming a sheet field this ruleset does not have: exit 2, the field and the ruleset named."""
    (tmp_path / "field.ldr").write_text("0 field\n")
    path = tmp_path / "typo.yaml"
    path.write_text(SCENE_WITH_TYPO)
    assert main(["cost", str(path)]) == 2
    err = capsys.readouterr().err
    assert "moove" in err and "war-of-bros" in err and "typo.yaml:7" in err, err
    path.write_text(SCENE_WITH_TYPO.replace("moove: 12", "dodge: 1"))   # a BOW sheet field
    assert main(["cost", str(path)]) == 2
    err = capsys.readouterr().err
    assert "'dodge'" in err and "war-of-bros" in err, err
