"""Actions round-trip through records; FlatGeometry implements the geometry protocol (contract C2)."""

from __future__ import annotations

import pytest

from bow3d.errors import RulesError
from bow3d.rules import Geometry
from bow3d.rules.flat import FlatGeometry
from bow3d.rulesets.bow import (
    Attack,
    BrickRoll,
    ChangeDirection,
    ChangeSpeed,
    CompulsoryMove,
    Door,
    DriftMove,
    EndTurn,
    GetOff,
    GetOn,
    Give,
    Grab,
    Move,
    SwitchWeapon,
    Throw,
    Treat,
    action_from_record,
)

ACTIONS = [BrickRoll("blue", 3, 1), EndTurn("b1"), Move("b1", (3, 4), 90.0), Grab("b1", "knife"),
           Throw("b1", "knife", (5, 6)), Give("b1", "knife", "b2"), SwitchWeapon("b1", "knife"),
           Door("b1", "gate", True), GetOn("b1", "jeep", 0), GetOff("b1", (7, 8)), ChangeSpeed("b1", 2),
           ChangeDirection("b1", -45.0), CompulsoryMove("b1"), DriftMove(None, "jeep"),
           Attack("b1", "r1", "rifle"), Attack("b1", "r1", "rifle", dispute=True), Treat("b1", "b2")]


@pytest.mark.parametrize("action", ACTIONS, ids=lambda a: a.TYPE)
def test_records_round_trip(action):
    """Every action and roll is a record with a "type" key, and back."""
    import json
    record = json.loads(json.dumps(action.to_record()))
    assert record["type"] == action.TYPE and action_from_record(record) == action


@pytest.mark.parametrize("record", [{"type": "fly"}, {"type": "move", "unit": "b1"}, "move", {"unit": "b1"}])
def test_malformed_records_are_refused(record):
    with pytest.raises(RulesError):
        action_from_record(record)


def test_flat_geometry_implements_the_protocol():
    """Contract C2: the flat double has every method of the Geometry protocol."""
    assert isinstance(FlatGeometry(), Geometry)
