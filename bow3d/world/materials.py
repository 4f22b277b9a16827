"""Materials: what each piece of decor (and each body) is made of, for the rulesets to judge cover.

Layer: world (a fact about geometry: the world names the material, a ruleset decides what cover
it gives). Classification reads the LDraw part (its name and its title, the first line of its
file) and its colour (name, finish, transparency), once per distinct (part, colour) at world
build: `World.decor_materials` is an (I,) array of names, one per decor instance.

More: docs/modules/world.md#materials.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path

import numpy as np

from bow3d.errors import UserInputError
from bow3d.i18n import _

STONE, WOOD, GLASS, PLANT, METAL, SAND, GROUND = "stone", "wood", "glass", "plant", "metal", "sand", "ground"
UNIT, VEHICLE, BODY = "unit", "vehicle", "body"
MATERIALS = (STONE, WOOD, GLASS, PLANT, METAL, SAND, GROUND, UNIT, VEHICLE, BODY)
DEFAULT_MATERIAL = STONE
BODY_MATERIALS = {"unit": UNIT, "vehicle": VEHICLE, "door": WOOD, "obstacle": STONE}
BODY_KINDS = tuple(BODY_MATERIALS)
_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")
_WORD = re.compile(r"[a-z]+")
TITLE_MARKS = "~=_| \t"  # LDraw title prefixes: ~ sub-part or obsolete, = alias, _ physical colour, | patterned


@dataclass(frozen=True)
class MaterialRule:
    """One row of the table: the material, when every condition given matches (none given: always).

    words: any of these whole words in the part's title (case-insensitive); unless: none of these;
    parts: any of these part-name patterns (fnmatch, lower case, e.g. '3626*'); colours: any of these
    colour-name patterns ('Trans_*'); finishes: any of these colour finishes ('chrome', 'metal',
    'pearlescent', 'matte_metallic', 'rubber'); transparent: the colour's alpha is (not) below 255.
    """

    material: str
    words: tuple[str, ...] = ()
    unless: tuple[str, ...] = ()
    parts: tuple[str, ...] = ()
    colours: tuple[str, ...] = ()
    finishes: tuple[str, ...] = ()
    transparent: bool | None = None
    note: str = ""

    def matches(self, part: str, words: frozenset[str], colour_name: str, finish: str,
                transparent: bool | None) -> bool:
        if self.words and not any(w.lower() in words for w in self.words):
            return False
        if self.unless and any(w.lower() in words for w in self.unless):
            return False
        if self.parts and not any(fnmatchcase(part, p) for p in self.parts):
            return False
        if self.colours and not any(fnmatchcase(colour_name, c) for c in self.colours):
            return False
        if self.finishes and finish not in self.finishes:
            return False
        return self.transparent is None or transparent == self.transparent


DEFAULT_RULES: tuple[MaterialRule, ...] = (
    MaterialRule(UNIT, words=("Minifig", "Animal"), note="figures and animals built into the battlefield"),
    MaterialRule(PLANT, words=("Plant", "Tree", "Leaves", "Leaf", "Flower", "Flowers", "Bush", "Grass", "Vine",
                               "Foliage", "Bamboo", "Palm", "Hedge"), note="by the part's title"),
    MaterialRule(GLASS, transparent=True, note="any transparent colour"),
    MaterialRule(GLASS, words=("Glass", "Pane", "Windscreen", "Windshield")),
    MaterialRule(METAL, words=("Bar", "Barred", "Bars", "Chain", "Grille", "Antenna"), note="bars, barred doors"),
    MaterialRule(WOOD, words=("Door",), unless=("Frame",), note="doors; their frames are part of the wall"),
    MaterialRule(WOOD, words=("Log", "Barrel", "Crate", "Chest", "Container", "Fence", "Ladder", "Plank",
                              "Wood", "Wooden")),
    MaterialRule(VEHICLE, words=("Wheel", "Tyre", "Tire", "Car", "Vehicle", "Mudguard", "Train", "Boat", "Hull",
                                 "Propeller", "Aircraft")),
    MaterialRule(GROUND, words=("Baseplate",), note="the terrain itself"),
    MaterialRule(SAND, words=("Sand", "Sandbag", "Sandbags")),
    MaterialRule(STONE, words=("Rock", "Boulder", "Stone")),
    MaterialRule(METAL, finishes=("chrome", "metal", "matte_metallic", "pearlescent")),
    MaterialRule(METAL, colours=("Chrome_*", "Metallic_*", "Pearl_*", "*Silver*"),
                 note="by name, where no colour table says the finish"),
    MaterialRule(WOOD, colours=("Brown", "Reddish_Brown", "Dark_Brown", "Medium_Brown", "Light_Brown",
                                "Fabuland_Brown"), note="brown bricks build wooden walls (a convention)"),
)


def check_material(material, where: str) -> str:
    """A material name as given in a table or an override: a lower-case word."""
    if not isinstance(material, str) or not _NAME.match(material):
        raise UserInputError(_("{where}: a material is a lower-case word such as {value}; got "
                               "{material!r}").format(where=where, value=', '.join(MATERIALS[:5]), material=material))
    return material


def _part_key(name: str) -> str:
    name = name.strip().replace("\\", "/").lower().rsplit("/", 1)[-1]
    return name if "." in name else name + ".dat"


@dataclass(frozen=True)
class MaterialTable:
    """The ordered rules, the default and the per-scene overrides (see the module docstring)."""

    rules: tuple[MaterialRule, ...] = DEFAULT_RULES
    default: str = DEFAULT_MATERIAL
    parts: Mapping[str, str] = field(default_factory=dict)          # '3005.dat' -> material
    part_colours: Mapping[str, str] = field(default_factory=dict)   # '3005.dat@70' -> material
    colours: Mapping[str, str] = field(default_factory=dict)        # '70' or 'reddish_brown' -> material
    bodies: Mapping[str, str] = field(default_factory=dict)         # 'unit:red-2' -> material

    @classmethod
    def from_overrides(cls, overrides: Mapping[str, str] | None, rules: tuple[MaterialRule, ...] = DEFAULT_RULES,
                       default: str = DEFAULT_MATERIAL) -> MaterialTable:
        """The table with a scene's `materials:` mapping (keys as in the module docstring)."""
        parts, part_colours, colours, bodies = {}, {}, {}, {}
        for key, material in dict(overrides or {}).items():
            where = f"materials: {key!r}"
            material = check_material(material, where)
            key = str(key).strip()
            kind, _unused, ident = key.partition(":")
            if ident and kind in BODY_KINDS:
                bodies[f"{kind}:{ident}"] = material
            elif key.startswith("@"):
                colours[key[1:].lower()] = material
            elif "@" in key:
                part, _unused, colour = key.partition("@")
                part_colours[f"{_part_key(part)}@{colour.strip().lower()}"] = material
            elif key:
                parts[_part_key(key)] = material
            else:
                raise UserInputError(_("{where}: give a part ('3005.dat'), a part in a colour "
                                       "('3005.dat@70'), a colour ('@70') or a body ('unit:red-2')")
                                     .format(where=where))
        return cls(tuple(rules), check_material(default, "default material"), parts, part_colours, colours, bodies)

    def classify(self, part: str, title: str = "", colour_code: int | None = None, colour_name: str = "",
                 finish: str = "solid", transparent: bool | None = None) -> str:
        """The material of one part in one colour (overrides first, then the rules, then the default)."""
        part = _part_key(part)
        keys = [str(colour_code), colour_name.lower()] if colour_code is not None else [colour_name.lower()]
        for key in keys:
            if f"{part}@{key}" in self.part_colours:
                return self.part_colours[f"{part}@{key}"]
        if part in self.parts:
            return self.parts[part]
        for key in keys:
            if key in self.colours:
                return self.colours[key]
        if transparent is None and colour_name:
            transparent = colour_name.startswith("Trans_")
        words = frozenset(_WORD.findall(title.lower()))
        for rule in self.rules:
            if rule.matches(part, words, colour_name, finish, transparent):
                return rule.material
        return self.default

    def body_material(self, kind: str, id: str, given: str | None = None) -> str:
        """A body's material: the scene's override, else the one given, else its kind's default."""
        return self.bodies.get(f"{kind}:{id}") or given or BODY_MATERIALS.get(kind, self.default)

    def check_bodies(self, known: Mapping[str, str]) -> None:
        """Body overrides must name bodies of the world (`known`: id -> kind); obstacles come later."""
        for key in self.bodies:
            kind, _unused, ident = key.partition(":")
            if kind != "obstacle" and known.get(ident) != kind:
                valid = ", ".join(f"{k}:{i}" for i, k in known.items()) or "none"
                raise UserInputError(_("materials: {key!r} names no {kind} of this scene (bodies: "
                                       "{valid})").format(key=key, kind=kind, valid=valid))


def classify_instances(table: MaterialTable, instances, model=None) -> np.ndarray:
    """(I,) str array: the material of each part instance, classified once per distinct (part, colour).

    `model` (a bow3d.ldraw.Model) gives the part titles and the colour table (finish, alpha); without
    it, only part names and colour names are read.
    """
    if not instances:
        return np.zeros(0, "<U8")
    titles = part_titles(model) if model is not None else {}
    keys = model.instance_part if model is not None else [i.name for i in instances]
    names, part_row = np.unique(np.asarray(keys, dtype=object).astype(str), return_inverse=True)
    codes = np.fromiter((i.colour for i in instances), np.int64, len(instances))
    pairs, first, row = np.unique(np.column_stack([part_row.reshape(-1), codes]), axis=0, return_index=True,
                                  return_inverse=True)
    materials = []
    for (p, code), k in zip(pairs.tolist(), first.tolist()):  # distinct (part, colour) pairs only
        inst = instances[k]
        colour = model.colours.get(code) if model is not None else None
        materials.append(table.classify(inst.name, titles.get(str(names[p]), ""), code, inst.colour_name,
                                        colour.finish if colour else "solid",
                                        colour.is_transparent if colour else None))
    return np.array(materials, dtype=str)[row.reshape(-1)]


def part_titles(model) -> dict[str, str]:
    """Part key (as in Model.instance_part) -> its title (the file's first line, marks stripped).

    Library parts are read from their file (the first line only); parts inside an MPD from their
    `0 FILE` block; missing parts and loose geometry have no title ('').
    """
    titles: dict[str, str] = {}
    sources: dict[str, list[str]] = {}
    for key in dict.fromkeys(model.instance_part):
        if key.startswith("missing:"):
            titles[key] = ""
        elif "#" in key:
            source, _unused, name = key.rpartition("#")
            if source not in sources:
                sources[source] = _read_lines(source)
            titles[key] = _block_title(sources[source], name)
        else:
            titles[key] = _title(_read_lines(key, 1))
    return titles


def _read_lines(path: str, count: int | None = None) -> list[str]:
    try:
        with open(Path(path), "rb") as handle:
            data = handle.readline() if count == 1 else handle.read()
    except OSError:
        return []
    return data.decode("utf-8", "replace").splitlines()


def _title(lines: list[str]) -> str:
    for line in lines[:1]:
        words = line.strip()
        if words.startswith("0 "):
            return words[2:].strip().lstrip(TITLE_MARKS).strip()
    return ""


def _block_title(lines: list[str], name: str) -> str:
    """The title of the `0 FILE name` block of an MPD: the line after it."""
    for k, line in enumerate(lines):
        words = line.split(None, 2)
        if len(words) == 3 and words[0] == "0" and words[1].upper() == "FILE" and \
                words[2].strip().replace("\\", "/").lower() == name:
            return _title(lines[k + 1:k + 2])
    return ""
