"""`bow3d schema scene [-o FILE]`: the JSON Schema of a bow3d file format, from its pydantic models."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from bow3d.paths import write_new

NAME = "schema"
ORDER = 60
HELP = "print the JSON Schema of the scene file format (for editors and validators)"
DESCRIPTION = """Print (or write) the JSON Schema of a bow3d file format, made from the same pydantic
models that read the files. Point your editor's YAML language server at it to get completion and
checks while you write a scene by hand.

examples:
  bow3d schema scene
  bow3d schema scene -o scene.schema.json
  # VS Code / yaml-language-server: first line of a scene file
  # yaml-language-server: $schema=./scene.schema.json"""


def scene_schema() -> dict:
    """The JSON Schema (draft 2020-12) of `format: bow3d-scene/1`: one scene model per ruleset,
    selected by `ruleset.name` (bow3d.rulesets.scene_json_schema)."""
    from bow3d.rulesets import scene_json_schema
    from bow3d.scene import FORMAT

    schema = scene_json_schema()
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": f"https://bow3d/{FORMAT}.schema.json",
            "title": "bow3d scene", "description": "A bow3d scene file: its `ruleset.name` selects which of these "
            "schemas (one per ruleset) its parameters and description sheets follow.", **schema}


SCHEMAS = {"scene": scene_schema}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("format", choices=sorted(SCHEMAS), help="which file format")
    parser.add_argument("-o", "--output", metavar="FILE", help="write the schema to FILE instead of printing it")
    parser.add_argument("--force", action="store_true", help="replace FILE if it exists")


def format_schema(name: str) -> str:
    """The schema as stable JSON text (sorted keys, 2-space indent, newline at the end)."""
    return json.dumps(SCHEMAS[name](), indent=2, sort_keys=True) + "\n"


def run(args: argparse.Namespace) -> int:
    text = format_schema(args.format)
    if not args.output:
        print(text, end="")
        return 0
    out = write_new(Path(args.output), text, force=args.force)
    print(f"wrote {out} (JSON Schema of {args.format} files)")
    return 0
