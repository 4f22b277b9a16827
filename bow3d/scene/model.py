"""The scene file's data model (`format: bow3d-scene/1`), as strict pydantic v2 models.

Layer: scene (imports only bow3d.ldraw below it). Units: positions in studs ([x, y], the centre
of the footprint; world point (20x, 20y) LDU), facings in degrees (0 = world +X, 90 = world +Y,
counter-clockwise seen from above; a model placed with the identity matrix faces 270).

Description sheets follow BOW 1.3 §1.4.1 (minifig) and §1.4.2 (vehicle); the ruleset holds the
rule parameters of design.md. Every model forbids unknown fields, so a typo is an error that
names the field, never a silent default.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Annotated, Literal, Union

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, PrivateAttr, model_validator

FORMAT_NAME = "bow3d-scene"
FORMAT_VERSION = 1
FORMAT = f"{FORMAT_NAME}/{FORMAT_VERSION}"

# design.md "Melee reach": knife/fist 1, sword 2, spear 3, lance 4 studs by default.
DEFAULT_REACH_STUDS = {"knife": 1.0, "fist": 1.0, "dagger": 1.0, "sword": 2.0, "cutlass": 2.0, "axe": 2.0,
                       "mace": 2.0, "spear": 3.0, "halberd": 3.0, "pike": 3.0, "lance": 4.0}
DEFAULT_ARC_DEG = 180.0

ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$"  # ids of sides, sheets, units and vehicles
Id = Annotated[str, Field(min_length=1, max_length=64, pattern=ID_PATTERN)]
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


class Ruleset(_Strict):
    """Rule parameters (BOW 1.3 and design.md); a scene file may omit any of them."""

    name: str = "bow-1.3"
    brick_edge_probability: float = Field(0.262, gt=0.0, lt=1.0)  # §2.1: one 2x2 brick lands on its edge
    cover_threshold: float = Field(0.25, gt=0.0, le=1.0)  # §2.4.2: hidden fraction from which a target is covered
    range_band_studs: float = Field(15.0, gt=0.0)  # §2.4.2: -1 brick per 15 studs
    treat_removes_difference: bool = False  # §2.4.4 optional rule
    visibility_dispute: bool = False  # §2.4.2 optional rule


class Side(_Strict):
    """One army: its id, a display name and its LDraw colour code (rings, titles)."""

    id: Id
    name: str = ""
    colour: int = Field(0, ge=0)

    @model_validator(mode="after")
    def _name_defaults_to_id(self) -> "Side":
        if not self.name:
            object.__setattr__(self, "name", self.id)
        return self


class Weapon(_Strict):
    """A weapon of a description sheet: melee (with a reach in studs) or ranged; vehicles give an arc."""

    name: str = Field(min_length=1)
    kind: Literal["melee", "ranged"]
    damage: Count  # BOW A.2 damage value (black bricks)
    reach: float | None = Field(None, gt=0.0)  # studs, melee only; default by name (design.md)
    arc: float = Field(DEFAULT_ARC_DEG, gt=0.0, le=360.0)  # degrees: 180 front, 360 turret

    @model_validator(mode="after")
    def _reach_for_melee_only(self) -> "Weapon":
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
    exposed_occupants: bool = True  # occupants can be seen and targeted (jeep, horse) or not (tank)
    weapons: list[Weapon] = Field(default_factory=list)

    @model_validator(mode="after")
    def _min_speed_within_speed(self) -> "VehicleSheet":
        if self.min_speed > self.speed:
            raise ValueError(f"min_speed {self.min_speed} is above the maximum speed {self.speed}; "
                             "lower min_speed or raise speed")
        return self


Sheet = Annotated[Union[MinifigSheet, VehicleSheet], Field(discriminator="kind")]


def _finite_position(value: tuple[float, float]) -> tuple[float, float]:
    if not all(math.isfinite(v) for v in value):
        raise ValueError("a position needs two finite numbers [x, y] in studs")
    return value


def _normal_facing(value: float) -> float:
    if not math.isfinite(value):
        raise ValueError("facing must be a finite number of degrees")
    value = float(value) % 360.0
    return 0.0 if value == 360.0 else value


Position = Annotated[tuple[float, float], AfterValidator(_finite_position)]
Facing = Annotated[float, AfterValidator(_normal_facing)]


class Unit(_Strict):
    """A minifig on the battlefield (or aboard a vehicle, then without a position)."""

    id: Id
    side: Id
    sheet: Id
    model: str = Field(min_length=1)  # LDraw file relative to the scene file, or a library part/model
    position: Position | None = None  # studs, centre of the footprint
    facing: Facing = 270.0  # degrees; the identity model faces 270
    weapon: str | None = None  # the weapon in hand; default the sheet's first

    @property
    def cell(self) -> tuple[int, int] | None:
        """The stud-grid cell (floor of the position) of a unit on the ground; None aboard a vehicle."""
        return None if self.position is None else (math.floor(self.position[0]), math.floor(self.position[1]))


class Vehicle(_Strict):
    """A vehicle (horses too, BOW §3): like a unit plus its current speed and its occupants."""

    id: Id
    side: Id
    sheet: Id
    model: str = Field(min_length=1)
    position: Position
    facing: Facing = 270.0
    speed: Count = 0  # current speed
    occupants: list[Id] = Field(default_factory=list)  # unit ids; the first is the pilot

    @property
    def cell(self) -> tuple[int, int]:
        return (math.floor(self.position[0]), math.floor(self.position[1]))


class Door(_Strict):
    """A door or window units may open or close (BOW §2.3.3). Closed, it fills its stud-grid cell
    up to `height_ldu` above the ground there: no one walks or sees through it."""

    id: Id
    cell: tuple[int, int]  # the doorway's cell (i, j): the square [i, i+1) x [j, j+1) in studs
    open: bool = False
    height_ldu: float = Field(default=120.0, gt=0)  # a door of a 1 x 4 x 6 frame: 5 bricks


class Scene(_Strict):
    """A whole scene: the battlefield (decor only), ruleset, sides, sheets, units and vehicles."""

    format: Literal["bow3d-scene/1"] = FORMAT
    name: str = ""
    battlefield: str = Field(min_length=1)  # LDraw file relative to the scene file
    ruleset: Ruleset = Field(default_factory=Ruleset)
    sides: list[Side] = Field(min_length=1)
    sheets: dict[Id, Sheet] = Field(default_factory=dict)
    units: list[Unit] = Field(default_factory=list)
    vehicles: list[Vehicle] = Field(default_factory=list)
    doors: list[Door] = Field(default_factory=list)

    _path: Path | None = PrivateAttr(default=None)

    @property
    def path(self) -> Path | None:
        """The file this scene was read from (not serialised); None for a scene built in memory."""
        return self._path

    @path.setter
    def path(self, value: str | Path | None) -> None:
        self._path = None if value is None else Path(value)

    def resolve(self, relpath: str | Path) -> Path:
        """A path of the scene file (battlefield, model) made absolute against the scene's folder."""
        rel = Path(relpath)
        if rel.is_absolute():
            return rel
        base = self._path.parent if self._path is not None else Path.cwd()
        return base / rel

    @property
    def battlefield_path(self) -> Path:
        return self.resolve(self.battlefield)

    def unit(self, id: str) -> Unit:
        """The unit with this id; KeyError naming the known ids when none."""
        for unit in self.units:
            if unit.id == id:
                return unit
        raise KeyError(f"no unit '{id}' (units: {', '.join(u.id for u in self.units) or 'none'})")

    def vehicle(self, id: str) -> Vehicle:
        for vehicle in self.vehicles:
            if vehicle.id == id:
                return vehicle
        raise KeyError(f"no vehicle '{id}' (vehicles: {', '.join(v.id for v in self.vehicles) or 'none'})")

    def sheet(self, id: str) -> MinifigSheet | VehicleSheet:
        try:
            return self.sheets[id]
        except KeyError:
            raise KeyError(f"no sheet '{id}' (sheets: {', '.join(self.sheets) or 'none'})") from None

    def side(self, id: str) -> Side:
        for side in self.sides:
            if side.id == id:
                return side
        raise KeyError(f"no side '{id}' (sides: {', '.join(s.id for s in self.sides)})")

    def units_of(self, side: str) -> list[Unit]:
        """The units of one side, in file order."""
        return [u for u in self.units if u.side == side]

    def vehicles_of(self, side: str) -> list[Vehicle]:
        return [v for v in self.vehicles if v.side == side]

    def aboard(self, unit_id: str) -> Vehicle | None:
        """The vehicle a unit is aboard, or None."""
        return next((v for v in self.vehicles if unit_id in v.occupants), None)
