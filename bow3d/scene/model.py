"""The scene file's data model (`format: bow3d-scene/1`), as strict pydantic v2 models.

Layer: scene (imports only bow3d.ldraw below it). Units: positions in studs ([x, y], the centre
of the footprint; world point (20x, 20y) LDU), facings in degrees (0 = world +X, 90 = world +Y,
counter-clockwise seen from above; a model placed with the identity matrix faces 270).

The ruleset named in the scene (`ruleset.name`) brings the schema of its parameters and sheets
(bow3d.rulesets); this layer keeps them as written. Every model forbids unknown fields, so a typo
is an error that names the field, never a silent default.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, PrivateAttr, model_validator

FORMAT_NAME = "bow3d-scene"
FORMAT_VERSION = 1
FORMAT = f"{FORMAT_NAME}/{FORMAT_VERSION}"

ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$"  # ids of sides, sheets, units and vehicles
Id = Annotated[str, Field(min_length=1, max_length=64, pattern=ID_PATTERN)]
DEFAULT_RULESET = "bow-1.3"  # scene files written before rulesets existed name no ruleset: they are BOW 1.3


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class RulesetChoice(BaseModel):
    """`ruleset:` of a scene file: the ruleset's name and its own parameters, which the ruleset
    validates (bow3d.rulesets); the scene layer reads only the name."""

    model_config = ConfigDict(extra="allow")

    name: str = DEFAULT_RULESET


class Side(_Strict):
    """One army: its id, a display name and its LDraw colour code (rings, titles)."""

    id: Id
    name: str = ""
    colour: int = Field(0, ge=0)

    @model_validator(mode="after")
    def _name_defaults_to_id(self) -> Side:
        if not self.name:
            object.__setattr__(self, "name", self.id)
        return self


def _finite_position(value: tuple[float, float]) -> tuple[float, float]:
    if not all(math.isfinite(v) for v in value):
        raise ValueError("a position needs two finite numbers [x, y] in studs")
    return value


def _normal_facing(value: float) -> float:
    if not math.isfinite(value):
        raise ValueError("facing must be a finite number of degrees")
    value = float(value) % 360.0
    return 0.0 if value == 360.0 else value


def _forward_slashes(value: str) -> str:
    # A scene written on Windows names its files 'figures\\blue.ldr'; a backslash is a folder separator
    # there and in LDraw's own references (bow3d.ldraw.parse.normalise_name), never part of a name a
    # player means, so the file is found on every system (and saved back with '/').
    return value.replace("\\", "/")


Position = Annotated[tuple[float, float], AfterValidator(_finite_position)]
Facing = Annotated[float, AfterValidator(_normal_facing)]
FilePath = Annotated[str, Field(min_length=1), AfterValidator(_forward_slashes)]  # relative to the scene file


class Unit(_Strict):
    """A minifig on the battlefield (or aboard a vehicle, then without a position)."""

    id: Id
    side: Id
    sheet: Id
    model: FilePath  # LDraw file relative to the scene file, or a library part/model
    position: Position | None = None  # studs, centre of the footprint
    facing: Facing = 270.0  # degrees; the identity model faces 270
    weapon: str | None = None  # the weapon in hand; default the sheet's first
    base: tuple[float, float] | None = Field(None, description="the unit's base seen from above, width x depth "
                                             "in studs, for rulesets that play on bases (None: the model's own)")

    @property
    def cell(self) -> tuple[int, int] | None:
        """The stud-grid cell (floor of the position) of a unit on the ground; None aboard a vehicle."""
        return None if self.position is None else (math.floor(self.position[0]), math.floor(self.position[1]))


class Vehicle(_Strict):
    """A vehicle (horses too, BOW §3): like a unit plus its current speed and its occupants."""

    id: Id
    side: Id
    sheet: Id
    model: FilePath
    position: Position
    facing: Facing = 270.0
    speed: Annotated[int, Field(ge=0)] = 0  # current speed
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
    """A whole scene: the battlefield (decor only), ruleset, sides, sheets, units and vehicles.

    Generic: the ruleset's parameters and the description sheets are left as the file has them;
    each ruleset's scene model (bow3d.rulesets) narrows `ruleset` and `sheets` to its own schema.
    `materials` overrides what the world takes a decor part to be made of (bow3d.world.materials):
    part name (optionally `name@colour`) -> material."""

    format: Literal["bow3d-scene/1"] = FORMAT  # type: ignore[assignment]  # FORMAT is built from its name and version
    name: str = ""
    battlefield: FilePath  # LDraw file relative to the scene file
    ruleset: RulesetChoice = Field(default_factory=RulesetChoice)
    sides: list[Side] = Field(min_length=1)
    sheets: dict[Id, dict[str, Any]] = Field(default_factory=dict)
    materials: dict[str, str] = Field(default_factory=dict)
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

    def body(self, id: str) -> Unit | Vehicle:
        """The unit or vehicle with this id; KeyError naming the known ids when none."""
        bodies: list[Unit | Vehicle] = [*self.units, *self.vehicles]
        for item in bodies:
            if item.id == id:
                return item
        raise KeyError(f"no unit or vehicle '{id}' (known: {', '.join(i.id for i in bodies) or 'none'})")

    def sheet(self, id: str) -> Any:
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
