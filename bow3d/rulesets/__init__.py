"""The game systems bow3d referees, one package per ruleset, and how a scene finds its own.

Layer: rulesets (above the engine bow3d.rules; imports rules, scene and below; never world, view,
replay or panda3d). Importing this package registers the built-in rulesets in the engine's
registry (bow3d.rules.RULESETS):

    bow-1.3   BOW: Bricks Only Wargame 1.3 (bow3d.rulesets.bow)
    bow-1.3-fr  BOW 1.3 refereed from its French rule book (bow3d.rulesets.bow.french)
    war-of-bros  War of Bros (bow3d.rulesets.war_of_bros)
    blaze-of-glory  Blaze of Glory (bow3d.rulesets.blaze_of_glory)

More: docs/modules/rules.md#rulesets.
"""

from __future__ import annotations

import os
from typing import Annotated, Any, Union

from pydantic import Discriminator, Tag, TypeAdapter

from bow3d.i18n import _
from bow3d.rules.ruleset import RULESETS, Ruleset, UnknownRuleset
from bow3d.rulesets.blaze_of_glory import RULESET as BLAZE_OF_GLORY
from bow3d.rulesets.bow import RULESET as BOW
from bow3d.rulesets.bow.french import FRENCH_RULESET as BOW_FR
from bow3d.rulesets.war_of_bros import RULESET as WAR_OF_BROS
from bow3d.scene import Scene, SceneIssue, load_scene as _load_generic_scene, parse_scene as _parse_generic_scene
from bow3d.scene.model import DEFAULT_RULESET

BUILT_IN: tuple[Ruleset, ...] = (BOW, BOW_FR, WAR_OF_BROS, BLAZE_OF_GLORY)
for _ruleset in BUILT_IN:
    RULESETS.register(_ruleset)


def ruleset_name(data: Any) -> str:
    """The ruleset a raw scene (or a scene object) names; scenes that name none are BOW 1.3."""
    ruleset = data.get("ruleset") if isinstance(data, dict) else getattr(data, "ruleset", None)
    name = ruleset.get("name") if isinstance(ruleset, dict) else getattr(ruleset, "name", None)
    return name if isinstance(name, str) and name else DEFAULT_RULESET


def get(name: str) -> Ruleset:
    """The registered ruleset of that name; UnknownRuleset (a UserInputError) listing the known ones."""
    return RULESETS.get(name)


def ruleset_of(scene: Any) -> Ruleset:
    """The ruleset a scene (or a replay header's ruleset mapping) is played with."""
    return RULESETS.get(ruleset_name(scene))


def known() -> list[Ruleset]:
    """Every registered ruleset, by name."""
    return list(RULESETS)


def scene_file_type() -> Any:
    """The discriminated union of every registered ruleset's scene model, selected by ruleset.name."""
    members = tuple(Annotated[r.scene_model, Tag(r.name)] for r in RULESETS)
    return Annotated[Union[members], Discriminator(ruleset_name)]  # noqa: UP007 (a runtime union of models)


def scene_json_schema() -> dict[str, Any]:
    """The JSON Schema of scene files of every ruleset (for editors: `bow3d schema scene`)."""
    return TypeAdapter(scene_file_type()).json_schema()


class RulesetSceneSchema:
    """bow3d.scene.SceneSchema: the scene model and checks of the ruleset a scene names."""

    def model_for(self, data: dict[str, Any]) -> type[Scene] | SceneIssue:
        name = ruleset_name(data)
        if name not in RULESETS:
            return SceneIssue(("ruleset", "name"), _("unknown ruleset '{name}'").format(name=name),
                              _("use one of the known rulesets: {value}").format(value=', '.join(RULESETS.names())))
        return RULESETS.get(name).scene_model

    def check(self, scene: Scene) -> list[SceneIssue]:
        check = getattr(ruleset_of(scene), "check_scene", None)
        return list(check(scene)) if check is not None else []


SCENE_SCHEMA = RulesetSceneSchema()


def load_scene(path: str | os.PathLike[str], **kwargs: Any) -> Scene:
    """Read a scene file with its ruleset's schema (bow3d.scene.load_scene's options apply)."""
    return _load_generic_scene(path, schema=SCENE_SCHEMA, **kwargs)


def parse_scene(text: str, source: str = "<scene>") -> Scene:
    """Parse scene text with its ruleset's schema."""
    return _parse_generic_scene(text, source, SCENE_SCHEMA)


__all__ = ["BLAZE_OF_GLORY", "BOW", "BOW_FR", "BUILT_IN", "RULESETS", "SCENE_SCHEMA", "Ruleset", "UnknownRuleset", "WAR_OF_BROS",
           "get", "known", "load_scene", "parse_scene", "ruleset_name", "ruleset_of", "scene_file_type",
           "scene_json_schema"]
