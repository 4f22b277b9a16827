"""Issue 30: a ruleset's members fall into six facets (bow3d.rules.facets), and every ruleset has them all."""

from __future__ import annotations

import pytest

import bow3d.rulesets  # noqa: F401  (registers the built-in rulesets)
from bow3d.rules import RULESETS
from bow3d.rules.facets import FACETS, Present
from bow3d.rules.ruleset import Ruleset
from bow3d.rules.table import Presentation


def members_of(facet) -> set[str]:
    """What a facet asks: its annotated attributes and its methods (Python 3.11 has no __protocol_attrs__)."""
    return {n for n in [*vars(facet), *getattr(facet, "__annotations__", {})] if not n.startswith("_")}


def test_every_member_of_a_ruleset_belongs_to_exactly_one_facet():
    members = {n for n in dir(Ruleset) if not n.startswith("_")}
    owners = {name: [f.__name__ for f in FACETS if name in members_of(f)] for name in members}
    assert {name: found for name, found in owners.items() if len(found) != 1} == {}
    assert set().union(*(members_of(f) for f in FACETS)) <= members  # no facet asks what a ruleset lacks


@pytest.mark.parametrize("name", RULESETS.names())
def test_every_registered_ruleset_has_every_facet(name):
    ruleset = RULESETS.get(name)
    for facet in FACETS:
        assert isinstance(ruleset, facet), (name, facet.__name__)
    assert isinstance(ruleset.presentation(), Presentation) and isinstance(ruleset, Present)


def test_a_thing_without_the_table_is_no_present():
    class Bare:
        pass

    assert not isinstance(Bare(), Present)
