"""Pydantic's validation messages in the language spoken, for the scene file's errors.

Layer: scene (text only). Pydantic writes its messages in English; `problem(item)` gives the message of
one of its errors (an item of `ValidationError.errors()`) in the language spoken: English is pydantic's
own text, unchanged; another language takes the template of the error's `type` from the catalogue (the
msgids below are pydantic's own English templates, with its `ctx` placeholders) and fills it with the
error's context. A type not listed here, or a template that its context cannot fill, keeps pydantic's
English text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bow3d.i18n import DEFAULT, N_, _, current

TEMPLATES = {
    "missing": N_("Field required"),
    "extra_forbidden": N_("Extra inputs are not permitted"),
    "model_type": N_("Input should be a valid dictionary or instance of {class_name}"),
    "model_attributes_type": N_("Input should be a valid dictionary or object to extract fields from"),
    "greater_than": N_("Input should be greater than {gt}"),
    "greater_than_equal": N_("Input should be greater than or equal to {ge}"),
    "less_than": N_("Input should be less than {lt}"),
    "less_than_equal": N_("Input should be less than or equal to {le}"),
    "multiple_of": N_("Input should be a multiple of {multiple_of}"),
    "finite_number": N_("Input should be a finite number"),
    "too_short": N_("{field_type} should have at least {min_length} item{expected_plural} after validation, not "
                    "{actual_length}"),
    "too_long": N_("{field_type} should have at most {max_length} item{expected_plural} after validation, not "
                   "{actual_length}"),
    "string_type": N_("Input should be a valid string"),
    "string_too_short": N_("String should have at least {min_length} character{expected_plural}"),
    "string_too_long": N_("String should have at most {max_length} character{expected_plural}"),
    "string_pattern_mismatch": N_("String should match pattern '{pattern}'"),
    "enum": N_("Input should be {expected}"),
    "literal_error": N_("Input should be {expected}"),
    "dict_type": N_("Input should be a valid dictionary"),
    "list_type": N_("Input should be a valid list"),
    "tuple_type": N_("Input should be a valid tuple"),
    "bool_type": N_("Input should be a valid boolean"),
    "bool_parsing": N_("Input should be a valid boolean, unable to interpret input"),
    "int_type": N_("Input should be a valid integer"),
    "int_parsing": N_("Input should be a valid integer, unable to parse string as an integer"),
    "int_parsing_size": N_("Unable to parse input string as an integer, exceeded maximum size"),
    "int_from_float": N_("Input should be a valid integer, got a number with a fractional part"),
    "float_type": N_("Input should be a valid number"),
    "float_parsing": N_("Input should be a valid number, unable to parse string as a number"),
    "union_tag_invalid": N_("Input tag '{tag}' found using {discriminator} does not match any of the expected "
                            "tags: {expected_tags}"),
    "union_tag_not_found": N_("Unable to extract tag using discriminator {discriminator}"),
}

# pydantic's words inside a context value: the kind of a collection (too_short), 'or' in a list of choices
FIELD_TYPES = {"List": N_("List"), "Tuple": N_("Tuple"), "Dictionary": N_("Dictionary"), "Set": N_("Set")}


def problem(item: Mapping[str, Any]) -> str:
    """The message of one pydantic error (an item of `ValidationError.errors()`) in the language spoken."""
    message = str(item.get("msg", ""))
    template = TEMPLATES.get(str(item.get("type", "")))
    if current() == DEFAULT or template is None:
        return message
    context = {key: str(value) for key, value in (item.get("ctx") or {}).items()}
    kind = FIELD_TYPES.get(context.get("field_type", ""))
    if kind is not None:
        context["field_type"] = _(kind)
    if "expected" in context:
        context["expected"] = context["expected"].replace("' or '", "' " + _("or") + " '")
    try:
        return _(template).format(**context)
    except (KeyError, IndexError, ValueError):   # a context pydantic shapes otherwise: its own words
        return message
