"""Placeholder: being filled in (see bow3d.rules docstring)."""
from __future__ import annotations
from bow3d.rules.state import Reason, Refusal


def _no(g, action):
    return Refusal(Reason.NOT_ALLOWED, "not implemented yet")


def candidates(g):
    return iter(())
check_treat = _no
apply_treat = None
