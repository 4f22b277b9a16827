"""War of Bros' part of a scene file: the ruleset parameters and the unit sheets (pydantic).

Layer: rulesets (War of Bros). A scene whose `ruleset.name` is `war-of-bros` is validated as a
`WarOfBrosScene`: the generic scene (bow3d.scene.Scene) with these parameters and sheets. Every
model forbids unknown fields and says so naming the ruleset ("unknown field 'moove' for a
war-of-bros sheet"), never a silent default.

Where units go: infantry and airborne units under `units:`; Mechanized units (6 x 12 cm) under
`vehicles:`, their `occupants` being the two Light Infantry they eject when they perish
("Mechanized": "branch 2 Light Infantry units of similar rank"; none listed: they perish inside).
A unit's base ("Rules": 3 x 3 cm light, 4 x 4 cm heavy, 6 x 12 cm mechanized) is filled in from
its sheet's category when the scene gives none (`base: [width, depth]` in studs; 1 stud = 8 mm).

More: docs/modules/rulesets-war-of-bros.md#sheets.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from bow3d.rulesets.war_of_bros.dice import DiceRoll
from bow3d.rulesets.war_of_bros.tables import (
    BASES_CM,
    BOOK_WEAPONS,
    CATEGORIES,
    FRAG_TOKENS,
    SPLASH_CM,
    SPLASH_STEP_CM,
    START_DISTANCE_CM,
    STARTING_UNITS,
    UNIT_MODIFICATIONS,
    UNIT_TEMPLATES,
    splash_range_ups,
)
from bow3d.scene.model import Id, Scene, Unit, Vehicle
from bow3d.units import convert

NAME: Final = "war-of-bros"
COVER_CLASSES = ("none", "light", "medium", "heavy", "total")
CoverClass = Literal["none", "light", "medium", "heavy", "total"]
Category = Literal["light-infantry", "heavy-infantry", "mechanized", "light-airborne", "heavy-airborne",
                   "mechanized-airborne"]


class _Strict(BaseModel):
    """Strict, and an unknown field is refused naming the ruleset and the fields there are."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)
    WHAT: ClassVar[str] = "entry"

    @model_validator(mode="before")
    @classmethod
    def _known_fields(cls, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = [str(k) for k in data if k not in cls.model_fields]
            if unknown:
                fields = ", ".join(cls.model_fields)
                raise ValueError(f"unknown field '{unknown[0]}' for a {NAME} {cls.WHAT} (the {NAME} "
                                 f"ruleset's {cls.WHAT} fields: {fields}); remove it or check its spelling")
        return data


def _dice(value: Any) -> Any:
    """Dice text checked (kept as written); '---' or null is no dice."""
    if value is None:
        return value
    DiceRoll.parse(str(value))
    return str(value)


DiceText = Annotated[str, Field(min_length=1, max_length=20)]


class Directional(_Strict):
    """Dice per part of a Mechanized unit ("3 scores ... front, side, back")."""

    WHAT: ClassVar[str] = "directional dice"
    front: DiceText | None = None
    side: DiceText | None = None
    back: DiceText | None = None

    @field_validator("front", "side", "back")
    @classmethod
    def _check(cls, value: Any) -> Any:
        return _dice(value)


class TerrainZone(_Strict):
    """A marked area of Difficult Terrain ("Special Rules: Difficult Terrain"): a convex polygon in studs."""

    WHAT: ClassVar[str] = "terrain zone"
    area: list[tuple[float, float]] = Field(min_length=3, max_length=64)
    difficulty: Annotated[int, Field(ge=1, le=3)] = 2
    name: str = ""


class WarOfBrosParams(_Strict):
    """The encounter (the book's "Establish The Encounter", "Alternate Game Modes") and bow3d's readings."""

    WHAT: ClassVar[str] = "ruleset parameter"
    name: Literal["war-of-bros"] = NAME
    mode: Literal["domination", "capture-the-frag"] = "domination"
    frag_tokens: Annotated[int, Field(ge=1, le=99)] = FRAG_TOKENS
    unit_power: Annotated[int, Field(ge=1)] | None = None      # agreed maximum unit power per player
    start_distance_cm: Annotated[float, Field(ge=0)] = START_DISTANCE_CM
    cover_threshold: Annotated[float, Field(gt=0, le=1)] = 0.25   # hidden share from which a target is behind cover
    blocker_share: Annotated[float, Field(ge=0, le=1)] = 0.05     # a blocker smaller than this gives no cover
    cover: dict[str, CoverClass] = Field(default_factory=dict)    # material -> cover class (over the table)
    terrain: list[TerrainZone] = Field(default_factory=list)
    remove_dead: bool = False   # house rule ("Vitality Step"): perished units leave no cover marker


class WeaponSheet(_Strict):
    """A weapon: its dice, range and worth (upgrade points), role, and weapon modifications."""

    WHAT: ClassVar[str] = "weapon"
    name: str = Field(min_length=1, max_length=60)
    damage: DiceText
    accuracy: DiceText
    range: Annotated[float, Field(ge=0, le=1000)]   # cm
    worth: int = 0                                  # upgrade points (a Range Down may make it negative)
    role: Literal["primary", "sidearm", "melee"] = "primary"
    splash_cm: Annotated[float, Field(ge=0, le=100)] = 0.0   # 0: no Splash; 3, 6, 9 ...: Splash and Range Ups
    piercing: bool = False
    armor_penetration: Annotated[int, Field(ge=0, le=20)] = 0   # steps: Armor Penetration + each Armor Pen. Up
    armor_pen_focus: Annotated[int, Field(ge=0, le=20)] = 0
    shield_penetration: Annotated[int, Field(ge=0, le=20)] = 0
    shield_pen_focus: Annotated[int, Field(ge=0, le=20)] = 0
    rail_driven: bool = False
    guided: bool = False
    incendiary: bool = False

    @field_validator("damage", "accuracy")
    @classmethod
    def _check(cls, value: Any) -> Any:
        return _dice(value)

    @model_validator(mode="after")
    def _book_prerequisites(self) -> WeaponSheet:
        if DiceRoll.parse(self.damage) is None or DiceRoll.parse(self.accuracy) is None:
            raise ValueError(f"weapon '{self.name}': a weapon needs damage and accuracy dice; write them like d4")
        if self.splash_cm > 0 and splash_range_ups(self.splash_cm) is None:
            raise ValueError(f"weapon '{self.name}': a splash radius of {self.splash_cm:g} cm cannot be bought: Splash "
                             f"gives {SPLASH_CM:g} cm and each Splash Range Up {SPLASH_STEP_CM:g} cm more (Weapon "
                             f"Modifications); give splash_cm {SPLASH_CM:g}, {SPLASH_CM + SPLASH_STEP_CM:g}, "
                             f"{SPLASH_CM + 2 * SPLASH_STEP_CM:g} ...")
        if self.rail_driven and self.splash_cm > 0:
            raise ValueError(f"weapon '{self.name}': Rail Driven is PROHIBITTED with Splash (Weapon Modifications); "
                             "remove one of them")
        for flag, word in ((self.guided, "Guided"), (self.incendiary, "Incendiary")):
            if flag and self.splash_cm <= 0:
                raise ValueError(f"weapon '{self.name}': {word} needs Splash (Weapon Modifications); give splash_cm")
        return self


class UnitSheet(_Strict):
    """A unit's sheet: a book template (or every score), its weapons and unit modifications."""

    WHAT: ClassVar[str] = "sheet"
    template: str | None = None          # 'light-infantry/sergeant' (Unit Templates) or 'starter/sergeant'
    category: Category | None = None
    rank: str | None = None
    unit_power: Annotated[int, Field(ge=0)] | None = None
    upgrade: Annotated[int, Field(ge=0)] | None = None
    movement: Annotated[float, Field(ge=0, le=1000)] | None = None       # cm
    threat_range: Annotated[float, Field(ge=0, le=1000)] | None = None   # cm
    threat_bonus: Annotated[int, Field(ge=0, le=20)] | None = None
    evasion: DiceText | None = None
    shield: DiceText | Directional | None = None
    armor: DiceText | Directional | None = None
    vitality: DiceText | None = None
    weapons: list[str | WeaponSheet] | None = None
    modifications: dict[str, Annotated[int, Field(ge=1, le=20)]] = Field(default_factory=dict)
    fly_height: Annotated[float, Field(ge=0, le=1000)] | None = None    # cm (airborne)

    @field_validator("evasion", "vitality")
    @classmethod
    def _check(cls, value: Any) -> Any:
        return _dice(value)

    @field_validator("shield", "armor")
    @classmethod
    def _check_directional(cls, value: Any) -> Any:
        return _dice(value) if isinstance(value, str) else value

    @field_validator("template")
    @classmethod
    def _known_template(cls, value: str | None) -> str | None:
        if value is None:
            return value
        if value.startswith("starter/"):
            if value[len("starter/"):] not in STARTING_UNITS:
                raise ValueError(f"unknown starting unit '{value}' (the book's: "
                                 f"{', '.join('starter/' + k for k in STARTING_UNITS)}); use one of them")
        elif value not in UNIT_TEMPLATES:
            category = value.split("/")[0]
            known = [k for k in UNIT_TEMPLATES if k.startswith(category + "/")] or list(CATEGORIES)
            raise ValueError(f"unknown unit template '{value}' (e.g. {', '.join(known[:6])}); write category/rank "
                             "as in the book's Unit Templates")
        return value

    @field_validator("weapons")
    @classmethod
    def _known_weapons(cls, value: list | None) -> list | None:
        for weapon in value or []:
            if isinstance(weapon, str) and weapon not in BOOK_WEAPONS:
                raise ValueError(f"unknown weapon '{weapon}' (the book's: {', '.join(BOOK_WEAPONS)}); name one of "
                                 "them or give the weapon's damage, accuracy and range")
        return value

    @field_validator("modifications")
    @classmethod
    def _known_modifications(cls, value: dict) -> dict:
        for name, times in value.items():
            if name not in UNIT_MODIFICATIONS:
                raise ValueError(f"unknown unit modification '{name}' (the book's: {', '.join(UNIT_MODIFICATIONS)})"
                                 "; use one of them")
            if times > 1 and not UNIT_MODIFICATIONS[name].stackable:
                raise ValueError(f"'{name}' can be bought once (it is not Stackable); write {name}: 1")
        return value

    @model_validator(mode="after")
    def _category_known(self) -> UnitSheet:
        if self.template is None and self.category is None:
            raise ValueError("a sheet needs a template (e.g. light-infantry/private) or a category; add one")
        return self

    @property
    def category_name(self) -> str:
        """The sheet's category: given, or its template's."""
        if self.category is not None:
            return self.category
        template = self.template or ""
        if template.startswith("starter/"):
            template = STARTING_UNITS[template[len("starter/"):]][0]
        return template.split("/")[0]

    @property
    def flying(self) -> bool:
        """Airborne units fly (the world's bodies read it)."""
        return self.category_name.endswith("airborne")

    @property
    def mechanized(self) -> bool:
        return self.category_name.startswith("mechanized")


def base_studs(category: str) -> tuple[float, float]:
    """The book's base of a category, (width, depth) in studs (1 stud = 8 mm)."""
    width, depth = BASES_CM[category]
    return (float(convert(width, "cm", "studs")), float(convert(depth, "cm", "studs")))


class WarOfBrosVehicle(Vehicle):
    """A Mechanized unit under `vehicles:`: its occupants are the crew it ejects; its base as for units."""

    base: tuple[float, float] | None = Field(None, description="the unit's base seen from above, width x depth "
                                             "in studs (default: the book's 6 x 12 cm)")


class WarOfBrosScene(Scene):
    """A scene played with War of Bros: the generic scene with its parameters and sheets."""

    ruleset: WarOfBrosParams = Field(default_factory=WarOfBrosParams)  # type: ignore[assignment]  # the ruleset's scene narrows the generic field
    sheets: dict[Id, UnitSheet] = Field(default_factory=dict)  # type: ignore[assignment]
    vehicles: list[WarOfBrosVehicle] = Field(default_factory=list)  # type: ignore[assignment]

    @model_validator(mode="after")
    def _bases_from_categories(self) -> WarOfBrosScene:
        """Each unit's base from its sheet's category ("Rules": the standardized base sizes), unless given."""
        items: tuple[Unit | WarOfBrosVehicle, ...] = (*self.units, *self.vehicles)
        for item in items:
            sheet = self.sheets.get(item.sheet)
            if item.base is None and sheet is not None and sheet.category_name in BASES_CM:
                item.base = base_studs(sheet.category_name)
        return self
