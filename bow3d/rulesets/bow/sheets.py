"""BOW 1.3's part of a scene file: the ruleset parameters and the description sheets (pydantic).

Layer: rulesets (BOW). A scene whose `ruleset.name` is `bow-1.3` is validated as a `BowScene`:
the generic scene (bow3d.scene.Scene: battlefield, sides, units, vehicles, doors) with BOW's
parameters (`BowParams`) and sheets (BOW 1.3 §1.4.1 minifig, §1.4.2 vehicle). Every model forbids
unknown fields, so a typo is an error that names the field and the ruleset, never a silent default.
`check_scene` adds the checks across fields that need BOW's sheets (sheet kinds, weapons, seats).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bow3d.i18n import _
from bow3d.rulesets.bow.chance import DEFAULT_P
from bow3d.rulesets.bow.context import DEFAULT_COVER_THRESHOLD, DEFAULT_RANGE_BAND
from bow3d.scene.io import SceneIssue
from bow3d.scene.model import Id, Scene

NAME: Final = "bow-1.3"

# design.md "Melee reach": knife/fist 1, sword 2, spear 3, lance 4 studs by default.
DEFAULT_REACH_STUDS = {"knife": 1.0, "fist": 1.0, "dagger": 1.0, "sword": 2.0, "cutlass": 2.0, "axe": 2.0,
                       "mace": 2.0, "spear": 3.0, "halberd": 3.0, "pike": 3.0, "lance": 4.0}
DEFAULT_ARC_DEG = 180.0

Count = Annotated[int, Field(ge=0)]
BrickColour = Literal["red", "yellow"]


def default_reach(weapon_name: str) -> float:
    """Melee reach in studs for a weapon name (design.md): knife/fist 1, sword 2, spear 3, lance 4, else 1."""
    words = re.findall(r"[a-z]+", weapon_name.lower())
    for word in reversed(words):  # "long sword" -> sword; "spear and knife" -> the last named
        if word in DEFAULT_REACH_STUDS:
            return DEFAULT_REACH_STUDS[word]
        if word.endswith("s") and word[:-1] in DEFAULT_REACH_STUDS:
            return DEFAULT_REACH_STUDS[word[:-1]]
    return 1.0


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class BowParams(_Strict):
    """BOW 1.3's rule parameters and readings; a scene file may omit any of them. A reading left out
    (None) is the one of the revision the game is played with (bow3d.rulesets.bow.readings)."""

    name: Literal["bow-1.3"] = NAME
    brick_edge_probability: float = Field(DEFAULT_P, gt=0.0, lt=1.0)  # §2.1: one 2x2 brick lands on its edge
    cover_threshold: float = Field(DEFAULT_COVER_THRESHOLD, gt=0.0, le=1.0)  # §2.4.2: hidden share for cover
    range_band_studs: float = Field(float(DEFAULT_RANGE_BAND), gt=0.0)  # §2.4.2: -1 brick per 15 studs
    treat_removes_difference: bool = False  # §2.4.4 optional rule
    visibility_dispute: bool = False  # §2.4.2 optional rule
    # readings (bow3d.rulesets.bow.readings: what each says, and each revision's value)
    range_edge: Literal["lower", "upper"] | None = None      # §2.4.2: a head exactly 15/30/45 studs away
    glass_hides: bool | None = None                           # §2.4.2: does glass hide (it covers anyway)
    dispute_covers: bool | None = None                        # §2.4.2: does a won dispute also cover
    reach: Literal["footprints", "touch"] | None = None       # §2.4.2 melee, §2.3.2 close, §2.4.4 contact
    sector_from: Literal["contact", "mover"] | None = None    # §3.6.3: where the mover "comes from"
    occupant_bodies: bool | None = None                       # §3.1, §3.5: occupants seen for themselves
    exposed_occupants: bool | None = None                     # §3.5: for vehicle sheets that do not say
    weapon_seats: bool | None = None                          # §3.1, §3.4: a vehicle weapon fired from its seat


class Weapon(_Strict):
    """A weapon of a description sheet: melee (with a reach in studs) or ranged; vehicles give an arc."""

    name: str = Field(min_length=1)
    kind: Literal["melee", "ranged"]
    damage: Count  # BOW A.2 damage value (black bricks)
    reach: float | None = Field(None, gt=0.0)  # studs, melee only; default by name (design.md)
    arc: float = Field(DEFAULT_ARC_DEG, gt=0.0, le=360.0)  # degrees: 180 front, 360 turret
    seat: int | None = Field(None, ge=0)  # vehicles (§3.1, §3.4): the seat whose occupant fires it (0 = the pilot's)

    @model_validator(mode="after")
    def _reach_for_melee_only(self) -> Weapon:
        if self.kind == "ranged" and self.reach is not None:
            raise ValueError("reach is for melee weapons only; remove it or make the weapon kind: melee")
        if self.kind == "melee" and self.reach is None:
            object.__setattr__(self, "reach", default_reach(self.name))
        return self


class _Armed(_Strict):
    """A sheet with weapons (minifig or vehicle); the first weapon is the one carried at the start."""

    weapons: list[Weapon] = Field(default_factory=list)

    def weapon(self, name: str | None = None) -> Weapon | None:
        """The named weapon, or the first (the one carried at the start); None when unarmed."""
        if name is None:
            return self.weapons[0] if self.weapons else None
        return next((w for w in self.weapons if w.name == name), None)

    @property
    def weapon_names(self) -> list[str]:
        return [w.name for w in self.weapons]


class MinifigSheet(_Armed):
    """BOW 1.3 §1.4.1 minifig description sheet (defaults: the basic trooper of Annex A.1)."""

    kind: Literal["minifig"] = "minifig"
    action_budget: Count = 2
    move: Count = 5
    attack: Count = 1  # Attack skill (dark grey); Attack/Damage ability = attack + weapon damage
    dodge: Count = 1  # Dodge skill (dark grey); Dodge/Armor ability = dodge + armor
    armor: Count = 0  # black bricks: helmet, shield...
    hp: Annotated[int, Field(ge=1)] = 1
    hp_colour: BrickColour = "red"  # red = life form, yellow = mechanical
    treat: Count = 0  # Treat/Repair ability
    treat_colour: BrickColour = "red"  # §2.4.4: red treats life forms, yellow repairs mechanical
    weapons: list[Weapon] = Field(default_factory=list)  # the first is carried at the start


class VehicleSheet(_Armed):
    """BOW 1.3 §1.4.2 vehicle description sheet."""

    kind: Literal["vehicle"] = "vehicle"
    speed: Count  # maximum speed; a compulsory move is speed x 5 studs (§3.2)
    min_speed: Count = 0  # flying vehicles: minimum speed to stay in the air
    flying: bool = False
    dodge: Count = 0
    armor: Count = 0
    hp: Annotated[int, Field(ge=1)] = 1
    seats: Annotated[int, Field(ge=1)] = 1  # the first seat is the pilot's
    exposed_occupants: bool | None = None  # §3.5: occupants may be attacked (jeep, horse) or not (tank);
                                           # None: the ruleset's reading (bow3d.rulesets.bow.readings)
    weapons: list[Weapon] = Field(default_factory=list)

    @model_validator(mode="after")
    def _min_speed_within_speed(self) -> VehicleSheet:
        if self.min_speed > self.speed:
            raise ValueError(f"min_speed {self.min_speed} is above the maximum speed {self.speed}; "
                             "lower min_speed or raise speed")
        return self


Sheet = Annotated[MinifigSheet | VehicleSheet, Field(discriminator="kind")]


class BowScene(Scene):
    """A scene played with BOW 1.3: the generic scene with BOW's parameters and sheets."""

    ruleset: BowParams = Field(default_factory=BowParams)  # type: ignore[assignment]  # the ruleset's scene narrows the generic field
    sheets: dict[Id, Sheet] = Field(default_factory=dict)  # type: ignore[assignment]


def _known(names) -> str:
    names = list(names)
    return ", ".join(names) if names else _("none")


def check_scene(scene: BowScene) -> list[SceneIssue]:
    """Checks across fields that need BOW's sheets (after the generic ones): a unit has a minifig
    sheet and a vehicle a vehicle sheet, a unit's weapon is on its sheet, a vehicle's speed within its sheet's, its
    occupants within its seats."""
    issues = []
    groups: tuple[tuple[str, Sequence[Any], Any], ...] = (  # Any: the group decides the item's and sheet's types
        ("units", scene.units, MinifigSheet), ("vehicles", scene.vehicles, VehicleSheet))
    for group, items, wanted in groups:
        kind_word = "minifig" if wanted is MinifigSheet else "vehicle"
        for i, item in enumerate(items):
            sheet = scene.sheets.get(item.sheet)
            if sheet is None:  # an unknown sheet is reported by the generic checks (bow3d.scene.checks)
                continue
            if not isinstance(sheet, wanted):
                other = "units" if group == "vehicles" else "vehicles"
                issues.append(SceneIssue((group, i, "sheet"),
                                         _("sheet '{sheet}' is a {kind} sheet; a {value} needs a "
                                           "{kind_word} sheet")
                                         .format(sheet=item.sheet, kind=sheet.kind, value=group[:-1], kind_word=kind_word),
                                         _("give it a {kind_word} sheet or move it under {other}:")
                                         .format(kind_word=kind_word, other=other)))
                continue
            if group == "units" and item.weapon is not None and sheet.weapon(item.weapon) is None:
                issues.append(SceneIssue((group, i, "weapon"),
                                         _("weapon '{weapon}' is not on sheet '{sheet}' (its weapons: "
                                           "{value})")
                                         .format(weapon=item.weapon, sheet=item.sheet, value=_known(sheet.weapon_names)),
                                         _("use one of them, leave weapon out, or add it to the sheet")))
            if group == "vehicles" and item.speed > sheet.speed:
                issues.append(SceneIssue((group, i, "speed"),
                                         _("speed {speed} is above the sheet's maximum {speed2}")
                                         .format(speed=item.speed, speed2=sheet.speed),
                                         _("use a speed from 0 to {speed}").format(speed=sheet.speed)))
            if group == "vehicles":
                issues += _weapon_seat_issues(i, item.sheet, sheet)
            if group == "vehicles" and len(item.occupants) > sheet.seats:
                issues.append(SceneIssue((group, i, "occupants"),
                                         _("{value} occupants for {seats} seats (sheet '{sheet}')")
                                         .format(value=len(item.occupants), seats=sheet.seats, sheet=item.sheet), _("take some off (give them a "
                                                                      "position) or raise seats on the "
                                                                      "sheet")))
    return issues


def _weapon_seat_issues(index: int, sheet_id: str, sheet: VehicleSheet) -> list[SceneIssue]:
    """BOW §3.1: a vehicle weapon's seat must be one of the vehicle's seats."""
    return [SceneIssue(("vehicles", index, "sheet"),
                       _("weapon '{name}' of sheet '{sheet_id}' is fired from seat {seat}, but the "
                         "vehicle has seats 0 to {value} (0 is the pilot's)")
                       .format(name=w.name, sheet_id=sheet_id, seat=w.seat, value=sheet.seats - 1),
                       _("give it a seat from 0 to {value}, or raise seats on the sheet")
                       .format(value=sheet.seats - 1))
            for w in sheet.weapons if w.seat is not None and w.seat >= sheet.seats]
