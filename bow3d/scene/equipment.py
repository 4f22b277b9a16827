"""What LDraw parts are, for the scene builder: minifig body parts, headgear, equipment, vehicle markers.

Layer: scene. Parts are recognised by their official description (the first line of the part
file, e.g. "Minifig Sword Shortsword") and, for the body, by their number (973* torso,
3626* head, 3815/970 hips, 3816/3817/971/972 legs, 3818/3819/981/982 arms, 3820/983 hands).
What a piece of equipment is worth in a game (a weapon's damage, armor) is the ruleset's to say
(`SheetDefaults`, e.g. bow3d.rulesets.bow.equipment).
"""

from __future__ import annotations

import re
from typing import Any, Protocol

# Roles of the parts of one minifig.
TORSO, HEAD, LEGS, ARM, HAND, HEADGEAR, EQUIPMENT, OTHER = (
    "torso", "head", "legs", "arm", "hand", "headgear", "equipment", "other")
HORSE, STEERING, WHEEL, SEAT = "horse", "steering", "wheel", "seat"

_NUMBERED = [(re.compile(r"^973"), TORSO), (re.compile(r"^3626"), HEAD),
             (re.compile(r"^(3815|3816|3817|970|971|972)(\D|$)"), LEGS), (re.compile(r"^(3818|3819|981|982)(\D|$)"), ARM),
             (re.compile(r"^(3820|983)(\D|$)"), HAND)]
_TITLED = [(re.compile(r"minifig torso"), TORSO), (re.compile(r"minifig head(?!dress|gear)"), HEAD),
           (re.compile(r"minifig (hips|legs?)\b"), LEGS), (re.compile(r"minifig arm"), ARM),
           (re.compile(r"minifig hand\b"), HAND),
           (re.compile(r"minifig\b.*\b(helmet|cap|hat|hair|headdress|headgear|crown|hood|bandana|tiara|turban|"
                       r"beret|fedora|wig)\b"), HEADGEAR),
           (re.compile(r"minifig seat|seat"), SEAT), (re.compile(r"minifig"), EQUIPMENT),
           (re.compile(r"animal horse"), HORSE), (re.compile(r"steering"), STEERING),
           (re.compile(r"\b(wheel|tyre|tire)\b"), WHEEL)]


def part_role(name: str, title: str) -> str:
    """The role of a part in a minifig or a vehicle, from its number and its description."""
    stem = name.lower().rsplit("/", 1)[-1].removesuffix(".dat")
    text = title.lower().lstrip("~=_| ")
    if "(loose geometry)" in name:
        return OTHER
    for pattern, role in _TITLED[:5]:
        if pattern.search(text):
            return role
    if not text or text.startswith("minifig"):
        for pattern, role in _NUMBERED:
            if pattern.search(stem):
                return role
    for pattern, role in _TITLED[5:]:
        if pattern.search(text):
            return role
    return OTHER


class SheetDefaults(Protocol):
    """A ruleset's default description sheets for figures found in an LDraw model (scene from-ldraw).

    Sheets are plain mappings, as written in a scene file; `titles` are the descriptions of the
    parts a figure wears and holds (or, for a vehicle, the parts built on it)."""

    ruleset: dict[str, Any]    # the scene's `ruleset:` (name and parameters)
    scene_model: Any           # the ruleset's scene model (a bow3d.scene.Scene subclass)

    def unit_sheet(self, titles: list[str]) -> tuple[str, dict[str, Any]]:
        """(suggested sheet id, sheet) of a minifig carrying these parts."""
        ...

    def vehicle_sheet(self, kind: str, seats: int, titles: list[str]) -> tuple[str, dict[str, Any]]:
        """(suggested sheet id, sheet) of a vehicle of this kind (HORSE, 'car'...) with these seats."""
        ...

    def merge(self, existing: dict[str, Any], new: dict[str, Any]) -> dict[str, Any] | None:
        """One sheet for two figures that should share it (e.g. the most seats), or None if they cannot."""
        ...

    def weapon_names(self, sheet: dict[str, Any]) -> list[str]:
        """The weapons a unit with this sheet may hold."""
        ...
