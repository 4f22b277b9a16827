"""Placeholder: being filled in (see bow3d.rules docstring)."""
from __future__ import annotations
from bow3d.rules.state import Reason, Refusal


def _no(g, action):
    return Refusal(Reason.NOT_ALLOWED, "not implemented yet")


def candidates(g):
    return iter(())
check_get_on = check_get_off = check_speed = check_direction = check_compulsory = check_drift = _no
apply_get_on = apply_get_off = apply_speed = apply_direction = apply_compulsory = apply_drift = None


def owes_compulsory_move(g, unit):
    return None


def drifting_vehicles(g):
    return []
