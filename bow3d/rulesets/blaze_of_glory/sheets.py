"""Blaze of Glory's part of a scene file: its parameters and the figures' characteristics (pydantic).

Layer: rulesets (Blaze of Glory). A scene whose `ruleset.name` is `blaze-of-glory` is validated
as a `BlazeScene`: the generic scene with `BlazeParams` (who the Goodies and the Baddies are, the
Blood Brothers' links, the cover thresholds) and `FigureSheet`s (Introduction: SHOOT, FISTICUFFS,
REFLEXES, NERVE; HERO points come from the level, Hero Points). Every model forbids unknown
fields, so a field of another ruleset is refused naming it. `check_scene` adds the checks across
fields: roles name sides, a Blood Brother's link is a friend, no horses on the table (the book
leaves them "just off the edge of the table").
"""

from __future__ import annotations

from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bow3d.i18n import _
from bow3d.rulesets.blaze_of_glory.book import BLOOD_BROTHER, SKILLS_BY_LEVEL
from bow3d.scene.io import SceneIssue
from bow3d.scene.model import Id, Scene

NAME: Final = "blaze-of-glory"
PARTIAL_COVER = 0.25   # hidden share (by decor) from which a visible target is in partial cover
OPENING_COVER = 0.4    # ... in full cover when seen through an opening (a window): a wall rising above him
FULL_COVER = 0.8       # ... in full cover whatever hides him

WeaponName = Literal["pistol", "rifle", "bow", "shotgun", "thrown", "knife", "club"]
SkillName = Literal["sharpshooter", "quick draw", "dead eye", "lowblow", "pugilist", "counter punch",
                    "dodge and weave", "duck and dive", "nimble", "true grit", "nerves of steel", "blood brother"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class BlazeParams(_Strict):
    """The scene's `ruleset:` for Blaze of Glory: roles, Blood Brothers and cover thresholds."""

    name: Literal["blaze-of-glory"] = NAME
    goodies: Id | None = None    # the side of the Goodies ("also covers citizens"); default the first side
    baddies: Id | None = None    # the Baddies ("usually the smaller force"); default the second side
    blood_brothers: dict[Id, Id] = Field(default_factory=dict)  # figure -> the friend he is linked to (Skills)
    partial_cover: float = Field(PARTIAL_COVER, gt=0.0, le=1.0)
    opening_cover: float = Field(OPENING_COVER, gt=0.0, le=1.0)
    full_cover: float = Field(FULL_COVER, gt=0.0, le=1.0)

    @model_validator(mode="after")
    def _ordered(self) -> BlazeParams:
        if not self.partial_cover <= self.opening_cover <= self.full_cover:
            raise ValueError("cover thresholds must be ordered: partial_cover <= opening_cover <= full_cover")
        return self


class FigureSheet(_Strict):
    """A character: level 1-4 (cards, hero points and skills follow from it) and the four tests."""

    kind: Literal["figure"] = "figure"
    level: int = Field(1, ge=1, le=4)
    shoot: int = Field(3, ge=0, le=10)        # S
    fisticuffs: int = Field(3, ge=0, le=10)   # F
    reflexes: int = Field(3, ge=0, le=10)     # R
    nerve: int = Field(3, ge=0, le=10)        # N
    weapons: list[WeaponName] = Field(default_factory=list)  # "pistol" twice: two pistols (Two Pistols)
    skills: list[SkillName] = Field(default_factory=list)

    @model_validator(mode="after")
    def _skills_and_pistols(self) -> FigureSheet:
        allowed = SKILLS_BY_LEVEL[self.level]
        if len(set(self.skills)) != len(self.skills):
            raise ValueError(f"a skill is listed twice: {self.skills}")
        if len(self.skills) > allowed:
            raise ValueError(f"a level {self.level} character has at most {allowed} skill(s) (Skills), "
                             f"got {len(self.skills)}: {', '.join(self.skills)}")
        for name in set(self.weapons):
            most = 2 if name == "pistol" else 1
            if self.weapons.count(name) > most:
                raise ValueError(f"'{name}' is listed {self.weapons.count(name)} times; only pistols come in pairs")
        return self

    @property
    def two_pistols(self) -> bool:
        return self.weapons.count("pistol") == 2

    @property
    def weapon_slots(self) -> list[str]:
        """Each weapon carried, by slot name: the second pistol is 'pistol-2'."""
        slots, seen = [], set()
        for name in self.weapons:
            slots.append(f"{name}-2" if name in seen else name)
            seen.add(name)
        return slots

    def has(self, skill: str) -> bool:
        return skill in self.skills


class BlazeScene(Scene):
    """A scene played with Blaze of Glory: the generic scene with its parameters and figure sheets."""

    ruleset: BlazeParams = Field(default_factory=BlazeParams)  # type: ignore[assignment]  # the ruleset's scene narrows the generic field
    sheets: dict[Id, FigureSheet] = Field(default_factory=dict)  # type: ignore[assignment]


def roles(scene: BlazeScene) -> tuple[str | None, str | None]:
    """(Goodies, Baddies): the sides named by the parameters, else the first and the second side."""
    sides = [s.id for s in scene.sides]
    goodies = scene.ruleset.goodies or (sides[0] if sides else None)
    baddies = scene.ruleset.baddies or next((s for s in sides if s != goodies), None)
    return goodies, baddies


def check_scene(scene: BlazeScene) -> list[SceneIssue]:
    """Checks across fields: two sides with their roles, figures on the table, Blood Brothers."""
    issues: list[SceneIssue] = []
    sides = [s.id for s in scene.sides]
    if len(sides) != 2:
        issues.append(SceneIssue(("sides",), _("Blaze of Glory is played by two sides, Goodies and "
                                               "Baddies; got {value}").format(value=len(sides)), _("give exactly two sides")))
    for key in ("goodies", "baddies"):
        value = getattr(scene.ruleset, key)
        if value is not None and value not in sides:
            issues.append(SceneIssue(("ruleset", key), _("'{value}' is not a side (sides: {value2})")
                                                       .format(value=value, value2=', '.join(sides)),
                                     _("name one of the sides")))
    if scene.ruleset.goodies is not None and scene.ruleset.goodies == scene.ruleset.baddies:
        issues.append(SceneIssue(("ruleset", "baddies"), _("the Goodies and the Baddies are the same "
                                                           "side"),
                                 _("name the other side")))
    for i, vehicle in enumerate(scene.vehicles):
        issues.append(SceneIssue(("vehicles", i), _("'{id}': horses and wagons are left just off the "
                                                    "edge of the table in Blaze of Glory (Introduction)")
                                                  .format(id=vehicle.id), _("remove the vehicle")))
    for i, unit in enumerate(scene.units):
        if unit.position is None:
            issues.append(SceneIssue(("units", i, "position"), _("'{id}' has no position").format(id=unit.id),
                                     _("give every figure a position [x, y] in studs")))
    units = {u.id: u for u in scene.units}
    for figure, friend in scene.ruleset.blood_brothers.items():
        where = ("ruleset", "blood_brothers", figure)
        if figure not in units or friend not in units:
            missing = figure if figure not in units else friend
            issues.append(SceneIssue(where, _("no figure '{missing}'").format(missing=missing), _("name figures of the scene")))
            continue
        sheet = scene.sheets.get(units[figure].sheet)
        if sheet is not None and not sheet.has(BLOOD_BROTHER):
            issues.append(SceneIssue(where, _("'{figure}' has no Blood Brother skill (sheet '{sheet}')")
                                            .format(figure=figure, sheet=units[figure].sheet),
                                     _("give the sheet the skill or remove the link")))
        if figure == friend or units[figure].side != units[friend].side:
            issues.append(SceneIssue(where, _("'{friend}' is not a friend of '{figure}'")
                                            .format(friend=friend, figure=figure),
                                     _("link a figure to another figure of its side")))
    return issues
