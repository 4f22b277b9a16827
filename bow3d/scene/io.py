"""Read and write scene files (YAML): format check first, strict validation, errors with line numbers.

Layer: scene. Every error is a `SceneError` whose message reads
"<file>:<yaml line>: <field path>: <what is wrong>; <the fix>", e.g.
"village.yaml:41: units[3].sheet: unknown sheet 'archr' (known: rifleman, medic); use one of them
or add the sheet under sheets:". The format string is read before full validation: a file
written by a newer bow3d is refused plainly, an older one would be upgraded step by step
through `UPGRADES`. Every number of the file is checked before the models read it, and again as
they read it ("1e-300" is text to YAML, a float to the ruleset): a non-finite one (.inf, .nan) or
one no battlefield measures (ABSURD_NUMBER, SMALLEST_LENGTH) is refused with its field.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import yaml
from pydantic import ValidationError

from bow3d.errors import SceneError, UserInputError
from bow3d.i18n import N_, _, decimal, marked
from bow3d.ldraw.parse import LDRAW_SUFFIXES
from bow3d.paths import write_new
from bow3d.scene.checks import check_battlefield, check_files as files_check, check_references
from bow3d.scene.issues import LineMap, SceneIssue, raise_issues
from bow3d.scene.model import FORMAT, FORMAT_NAME, FORMAT_VERSION, Scene
from bow3d.scene.pydantic_words import problem
from bow3d.textformats import load_yaml_document

# Upgrade steps: UPGRADES[n] turns a bow3d-scene/n document (a plain dict) into bow3d-scene/n+1.
# /1 is the first format, so there is none yet; the loader applies them in order.
UPGRADES: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}

_FORMAT_RE = re.compile(rf"^{re.escape(FORMAT_NAME)}/(\d+)$")
_MAX_VERSION_DIGITS = 6
# No number of a scene (studs, LDU, degrees, shares, dice, points) is larger than this in size, and no
# length (a field named in a unit of length) is smaller but 0: 1e300 LDU a door or 1e-300 studs a range
# band is a slip, never a battlefield. Positions and facings may be as small as arithmetic makes them.
ABSURD_NUMBER = 1e9
SMALLEST_LENGTH = 1e-6
_LENGTH_UNITS = ("_studs", "_ldu", "_cm", "_inches")


def _read_format(data: Any, source: str, lines: LineMap) -> dict[str, Any]:
    """Check the `format` key before anything else; upgrade older formats; refuse newer ones."""
    if not isinstance(data, dict):
        kind = "empty" if data is None else f"a {type(data).__name__}"
        raise SceneError(_("{source}:1: (top level): the file is {kind}, not a scene; a scene is a "
                           "YAML mapping that starts with 'format: {FORMAT}'")
                         .format(source=source, kind=kind, FORMAT=FORMAT))
    if "format" not in data:
        raise SceneError(_("{source}:1: format: missing; add 'format: {FORMAT}' as the first line")
                         .format(source=source, FORMAT=FORMAT))
    found = data["format"]
    if not isinstance(found, str):  # never stringified: an alias tree would be huge
        raise SceneError(_("{source}:{value}: format: a {name__}, not text; this is not a bow3d scene "
                           "file (expected 'format: {FORMAT}')")
                         .format(source=source, value=lines.line(('format',)), name__=type(found).__name__, FORMAT=FORMAT))
    match = _FORMAT_RE.match(found.strip())
    if not match:
        raise SceneError(_("{source}:{value}: format: unknown format {value2!r}; this is not a bow3d "
                           "scene file (expected 'format: {FORMAT}')")
                         .format(source=source, value=lines.line(('format',)), value2=found[:60], FORMAT=FORMAT))
    digits = match.group(1)
    if len(digits) > _MAX_VERSION_DIGITS:  # no bow3d wrote it, and int() of 5,000 digits is refused
        raise SceneError(_("{source}:{value}: format: version {digits}... ({count:,} digits) is no version "
                           "of a bow3d scene; write 'format: {FORMAT}'")
                         .format(source=source, value=lines.line(('format',)), digits=digits[:12],
                                 count=len(digits), FORMAT=FORMAT))
    version = int(digits)
    if version > FORMAT_VERSION:
        raise SceneError(_("{source}:{value}: format: {found} was written by a newer bow3d (this one "
                           "reads up to {FORMAT}); upgrade bow3d to open it")
                         .format(source=source, value=lines.line(('format',)), found=found, FORMAT=FORMAT))
    while version < FORMAT_VERSION:
        step = UPGRADES.get(version)
        if step is None:
            raise SceneError(_("{source}:{value}: format: {found} is no longer readable and no upgrade "
                               "step exists; rewrite it as {FORMAT}")
                             .format(source=source, value=lines.line(('format',)), found=found, FORMAT=FORMAT))
        data = step(dict(data))
        version += 1
        data["format"] = f"{FORMAT_NAME}/{version}"
    return data


def check_numbers(data: Any, path: tuple[str | int, ...] = ()) -> list[SceneIssue]:
    """Every number of the document (a plain tree) that is not finite, larger than ABSURD_NUMBER in size, or a
    length (its field named in a unit of length: range_band_studs, height_ldu) nearer 0 than SMALLEST_LENGTH."""
    if isinstance(data, dict):
        return [issue for key, value in data.items() for issue in check_numbers(value, (*path, str(key)))]
    if isinstance(data, (list, tuple)):
        return [issue for index, value in enumerate(data) for issue in check_numbers(value, (*path, index))]
    if isinstance(data, bool) or not isinstance(data, (int, float)):
        return []
    if isinstance(data, float) and not math.isfinite(data):
        return [SceneIssue(path, _("not a finite number (found {value})").format(value=data),
                           _("write a plain number, e.g. 120"))]
    is_length = bool(path) and str(path[-1]).endswith(_LENGTH_UNITS)
    if abs(data) > ABSURD_NUMBER or (is_length and 0 < abs(data) < SMALLEST_LENGTH):
        shown = f"{data:.3g}" if isinstance(data, float) else (str(data)[:12] + "...")
        return [SceneIssue(path, _("{value} is beyond what a battlefield measures (at most {high:g} in size; a "
                                   "length 0 or at least {low:g})").format(value=shown, low=SMALLEST_LENGTH,
                                                                             high=ABSURD_NUMBER),
                           _("write the number in studs, LDU, degrees or a share, as the field says"))]
    return []


_FIXES = {
    "missing": N_("add it"),
    "extra_forbidden": N_("remove it or check its spelling"),
    "int_parsing": N_("write a whole number"),
    "int_from_float": N_("write a whole number"),
    "float_parsing": N_("write a number"),
    "bool_parsing": N_("write true or false"),
    "string_type": N_("write a text value"),
    "list_type": N_("write a list, e.g. [a, b]"),
    "dict_type": N_("write a mapping of names to values"),
    "model_type": N_("write a mapping of fields"),
    "tuple_type": N_("write a list of two numbers, e.g. [12.5, 8.5]"),
    "too_short": N_("give more items"),
    "too_long": N_("give fewer items"),
    "literal_error": N_("use one of those values"),
    "union_tag_invalid": N_("use kind: minifig or kind: vehicle"),
    "union_tag_not_found": N_("add 'kind: minifig' or 'kind: vehicle'"),
    "string_pattern_mismatch": N_("use letters, digits, '-', '_' or '.', starting with a letter or digit"),
    "greater_than_equal": N_("give {ge} or more"), "greater_than": N_("give more than {gt}"),
    "less_than": N_("give less than {lt}"), "less_than_equal": N_("give {le} or less"),
}
_BOUNDS = ("greater_than_equal", "greater_than", "less_than", "less_than_equal")   # their fix names the bound


def _issues_from_validation(error: ValidationError, data: dict[str, Any]) -> list[SceneIssue]:
    issues = []
    for item in error.errors(include_url=False):
        loc = list(item["loc"])
        # Discriminated sheets add their tag to the location: sheets.<id>.minifig.move -> sheets.<id>.move
        if len(loc) >= 3 and loc[0] == "sheets" and loc[2] in ("minifig", "vehicle"):
            del loc[2]
        loc = [p for p in loc if not (isinstance(p, str) and p.startswith("function-"))]
        message = problem(item)   # pydantic's words, in the language spoken (bow3d.scene.pydantic_words)
        if message.startswith("Value error, "):
            message = message[len("Value error, "):]
        kind = item["type"]
        fix = marked(_FIXES.get(kind, ""))
        if kind in _BOUNDS:   # the bound, written the language's way (a fix without it: no fix)
            bounds = {key: decimal(value, 6).rstrip("0").rstrip(".,") if isinstance(value, float) else value
                      for key, value in (item.get("ctx") or {}).items() if key in ("ge", "gt", "lt", "le")}
            try:
                fix = fix.format(**bounds)
            except (KeyError, IndexError, ValueError):
                fix = ""
        if "position" in loc[:-1] and isinstance(loc[-1], int):  # units[0].position[1] -> units[0].position
            loc = loc[:loc.index("position") + 1]
            message, fix = _("needs two numbers [x, y] in studs"), _("write it like [12.5, 8.5]")
        elif kind == "missing":
            message = _("missing")
        elif kind == "extra_forbidden":
            message = _("unknown field")
        elif kind not in ("value_error", "assertion_error") and "input" in item and not isinstance(
                item["input"], (dict, list)):
            message = message + _(" (found {value})").format(value=repr(item["input"]))
        if ";" in message and not fix:
            message, fix = (s.strip() for s in message.split(";", 1))
        issues.append(SceneIssue(tuple(loc), message[:1].lower() + message[1:], fix))
    return issues


class SceneSchema(Protocol):
    """How the ruleset named in a scene validates it (bow3d.rulesets implements it): the scene model
    for the raw data (or the issue that refuses it, e.g. an unknown ruleset), and the ruleset's own
    checks across fields."""

    def model_for(self, data: dict[str, Any]) -> type[Scene] | SceneIssue: ...

    def check(self, scene: Scene) -> list[SceneIssue]: ...


def parse_scene(text: str, source: str = "<scene>", schema: SceneSchema | None = None) -> Scene:
    """Parse and validate scene text; `source` names it in errors. Raises SceneError.

    `schema` (the rulesets' one, bow3d.rulesets.SCENE_SCHEMA) validates the ruleset's parameters
    and sheets; without it they stay as written (the generic `Scene`). Cross-field checks (ids,
    sides, sheets, cells, the ruleset's own) run here too; file checks (battlefield and model files
    exist) need a folder: they run in `load_scene`.
    """
    document = load_yaml_document(text, source, error=SceneError)  # bounded and strict (bow3d.textformats)
    lines = LineMap(text, document.root)
    data = document.data
    data = _read_format(data, source, lines)
    raise_issues(check_numbers(data), source, lines)
    model: type[Scene] | SceneIssue = Scene if schema is None else schema.model_for(data)
    if isinstance(model, SceneIssue):
        raise_issues([model], source, lines)
        raise AssertionError  # pragma: no cover - raise_issues always raises for a non-empty list
    try:
        scene = model.model_validate(data)
    except ValidationError as error:
        raise_issues(_issues_from_validation(error, data), source, lines)
        raise  # pragma: no cover - raise_issues always raises for a non-empty list
    raise_issues(check_numbers(scene.model_dump()), source, lines)  # numbers written as text ("1e-300") too
    raise_issues(check_references(scene, schema.check if schema is not None else None), source, lines)
    return scene


def load_scene(path: str | os.PathLike[str], *, check_files: bool = True, battlefield: bool = False,
               library: Any = None, schema: SceneSchema | None = None) -> Scene:
    """Read a scene file strictly. Raises SceneError naming the file, line, field path and fix.

    `check_files`: the battlefield and every model file must exist (relative to the scene file,
    or a library part/model for units and vehicles). `battlefield=True` also loads the battlefield
    and refuses units outside its extent (`check_battlefield`).
    """
    file_path = Path(path)
    source = str(path)
    if file_path.suffix.lower() in LDRAW_SUFFIXES and file_path.is_file():   # a battlefield given for its scene
        raise SceneError(_("{source}: is an LDraw model, not a scene file; give its scene (.yaml), or make one "
                           "with: bow3d scene from-ldraw {source} -o SCENE.yaml").format(source=source))
    try:
        text = file_path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise SceneError(_("{source}: no such scene file; check the path").format(source=source)) from None
    except IsADirectoryError:
        raise SceneError(_("{source}: is a folder, not a scene file; give the .yaml file").format(source=source)) from None
    except UnicodeDecodeError as error:
        raise SceneError(_("{source}: not UTF-8 text ({reason} at byte {start}); save the scene file "
                           "as UTF-8").format(source=source, reason=error.reason, start=error.start)) from None
    except OSError as error:
        raise SceneError(_("{source}: cannot be read ({value})").format(source=source, value=error.strerror or error)) from None
    scene = parse_scene(text, source, schema)
    scene.path = file_path
    lines = LineMap(text)
    if check_files:
        raise_issues(files_check(scene, library), source, lines)
    if battlefield:
        raise_issues(check_battlefield(scene, library), source, lines)
    return scene


def scene_to_data(scene: Scene) -> dict[str, Any]:
    """The scene as plain data in file order (format first), as written by save_scene."""
    data = scene.model_dump(mode="json")
    for group in ("units", "vehicles"):
        for item in data[group]:
            if item.get("position") is not None:
                item["position"] = [_number(v) for v in item["position"]]
            item["facing"] = _number(item["facing"])
            if group == "units":
                if item["position"] is None:
                    del item["position"]
                if item["weapon"] is None:
                    del item["weapon"]
                if item.get("base") is None:
                    item.pop("base", None)
    data["ruleset"] = {k: _number(v) if isinstance(v, float) else v for k, v in data["ruleset"].items()}
    data["sides"] = [_Flow(side) for side in data["sides"]]
    for sheet in data["sheets"].values():
        if not isinstance(sheet.get("weapons"), list):
            continue
        # BOW's weapons are mappings (name, kind, damage...); other books name them (Blaze of Glory: 'rifle')
        sheet["weapons"] = [_Flow(weapon) if isinstance(weapon, dict) else weapon for weapon in sheet["weapons"]]
        for weapon in sheet["weapons"]:
            if not isinstance(weapon, dict):
                continue
            if weapon.get("reach") is None:
                weapon.pop("reach", None)
            else:
                weapon["reach"] = _number(weapon["reach"])
            if "arc" in weapon:
                weapon["arc"] = _number(weapon["arc"])
    if not data["vehicles"]:
        del data["vehicles"]
    if not data.get("materials"):
        data.pop("materials", None)
    return data


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


class _Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    """Block style for mappings; short lists of scalars in flow style ([12.5, 8.5])."""


def _represent_list(dumper: yaml.SafeDumper, value: list) -> yaml.Node:
    flow = len(value) <= 8 and all(isinstance(v, (int, float, str, bool)) for v in value)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=flow)


class _Flow(dict):
    """A small mapping written on one line: {id: blue, name: Blue army, colour: 1}."""


_Dumper.add_representer(list, _represent_list)
_Dumper.add_representer(_Flow, lambda dumper, value: dumper.represent_mapping(
    "tag:yaml.org,2002:map", dict(value), flow_style=True))


def format_scene(scene: Scene) -> str:
    """The scene as YAML text (round-trips through parse_scene)."""
    header = f"# bow3d scene ({FORMAT}): positions in studs, facings in degrees (0 = +X, 90 = +Y)\n"
    return header + yaml.dump(scene_to_data(scene), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)


def save_scene(scene: Scene, path: str | os.PathLike[str], *, overwrite: bool = True) -> Path:
    """Write the scene as YAML (bow3d.paths.write_new: never through a link; an existing file only
    with overwrite=True). Raises SceneError naming the file and what to do."""
    file_path = Path(path)
    text = format_scene(scene)
    try:
        file_path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise SceneError(_("{file_path}: cannot be written ({value})")
                         .format(file_path=file_path, value=error.strerror or error)) from None
    try:
        write_new(file_path, text, force=overwrite)
    except UserInputError as error:
        raise SceneError(str(error)) from None
    scene.path = file_path
    return file_path
