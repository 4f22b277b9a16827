"""`bow3d inspect FILE`: what an LDraw file holds, as a table or JSON."""

from __future__ import annotations

import argparse
import json

from bow3d.i18n import _, decimal, integer
from bow3d.ldraw import Library, LoadBudget, load_model
from bow3d.ldraw.budget import DEFAULT_MAX_INSTANCES
from bow3d.ldraw.stats import model_stats

NAME = "inspect"
ORDER = 10
HELP = "count the parts, triangles and colours of an LDraw file and list its problems"
DESCRIPTION = """Load an LDraw file (.ldr, .mpd or .dat) and report its top-level part instances
(counted through sub-models), distinct parts, triangles at full detail, vertices, edge lines,
bounding box (LDU, world frame Z up), colours, missing parts, whether the model is complete
(every reference found and drawn), diagnostics and load time.

A load is bounded: a model that would place more than --max-instances part instances
(default 2,000,000, through every sub-model) or more than 50 triangles per allowed instance
(100 million by default), or read more than 192 MiB of LDraw text, is refused with exit
code 2 and a message naming the chain of sub-models the bulk comes through. So is a model that
names more than 10,000 distinct parts found nowhere (check --library or LDRAWDIR).

examples:
  bow3d inspect scenes/village.ldr
  bow3d inspect scenes/western-town.ldr --library ldraw_library --json
  bow3d inspect scenes/war-of-bros.ldr --max-instances 5000000"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="an LDraw model or part (.ldr, .mpd, .dat)")
    parser.add_argument("--library", metavar="DIR", help="LDraw library folder (default: $LDRAWDIR, else the "
                        "bundled starter library)")
    parser.add_argument("--json", action="store_true", help="print JSON for scripts")
    parser.add_argument("--strict", action="store_true", help="stop at the first problem instead of reading around it")
    parser.add_argument("--no-cache", action="store_true", help="do not use the flattened-part disk cache")
    parser.add_argument("--parts", action="store_true", help="list every distinct part with its count")
    parser.add_argument("--max-instances", type=int, default=DEFAULT_MAX_INSTANCES, metavar="N",
                        help=f"refuse a model that places more than N part instances, or more than 50 triangles "
                        f"per allowed instance (default {DEFAULT_MAX_INSTANCES:,})")


SCENE_SUFFIXES = (".yaml", ".yml")


def _not_a_scene(path: str) -> None:
    """A scene file is not an LDraw model (read as one it has no parts): say which model to inspect."""
    from pathlib import Path

    from bow3d.errors import UserInputError

    if Path(path).suffix.lower() not in SCENE_SUFFIXES:
        return
    battlefield = None
    try:
        from bow3d.rulesets import load_scene

        battlefield = load_scene(path).battlefield_path
    except Exception:   # noqa: BLE001 - a broken scene still is no LDraw model; scene check says what is wrong
        pass
    hint = f"bow3d inspect {battlefield}" if battlefield else "bow3d scene check " + path
    raise UserInputError(_("{path}: a scene file, not an LDraw model; inspect its battlefield "
                           "({hint}), or render the scene with its units (bow3d render {path} -o "
                           "scene.png)").format(path=path, hint=hint))


def run(args: argparse.Namespace) -> int:
    _not_a_scene(args.file)
    library = Library.from_env(args.library, budget=LoadBudget(max_instances=args.max_instances))
    model = load_model(args.file, library, strict=args.strict, cache=not args.no_cache)
    stats = model_stats(model)
    if args.json:
        print(json.dumps(stats.as_dict(), indent=2))
        return 0
    size = [hi - lo for lo, hi in zip(stats.bounds_min, stats.bounds_max)]
    for key, value in _rows(stats, size):
        print(f"{key}  {value}")
    if args.parts:
        print("\n" + _("parts:"))
        for name, count in stats.part_counts.items():
            print(f"  {count:>6}  {name}")
    if stats.diagnostics:
        print("\n" + _("diagnostics ({n}):").format(n=len(stats.diagnostics)))
        for line in stats.diagnostics:
            print(f"  {line}")
    else:
        print("\n" + _("no diagnostics"))
    return 0


def _rows(stats, size) -> list[tuple[str, str]]:
    """(label padded to the widest, value) of `bow3d inspect`'s table, in the language spoken."""
    textures = ", ".join(_("{name} (not found: not drawn)").format(name=name) if where == "not found" else
                         _("{name} (drawn)").format(name=name) for name, where in stats.textures.items()) or _("none")
    rows = [
        (_("file"), stats.file),
        (_("library"), stats.library),
        (_("parts"), _("{n} ({distinct} distinct)").format(n=integer(stats.parts), distinct=stats.unique_parts)
         + (_(" + lines drawn in {n} sub-model(s)").format(n=stats.loose_geometry) if stats.loose_geometry else "")),
        (_("triangles"), _("{n} (full detail)").format(n=integer(stats.triangles))),
        (_("vertices"), integer(stats.vertices)),
        (_("edge lines"), _("{n} (+ {optional} optional)").format(n=integer(stats.edge_lines),
                                                                  optional=integer(stats.optional_lines))),
        (_("bounding box"), f"{_vec(stats.bounds_min)} .. {_vec(stats.bounds_max)} LDU"),
        (_("size"), _("{width} x {depth} studs, {height} bricks high").format(
            width=decimal(size[0] / 20), depth=decimal(size[1] / 20), height=decimal(size[2] / 24))),
        (_("colours"), ", ".join(f"{name} {n}" for name, n in list(stats.colours.items())[:8])
         + (_(", ... ({n} in all)").format(n=len(stats.colours)) if len(stats.colours) > 8 else "")),
        (_("textures"), textures),
        (_("missing parts"), _missing_words(stats.missing_parts)),
        (_("complete"), _("yes") if stats.complete else _("no: something was missing or skipped (see the "
                                                            "diagnostics)")),
        (_("load"), _("{seconds} s ({n} parts from the cache)").format(seconds=decimal(stats.load_seconds, 3),
                                                                      n=stats.cache_hits)),
    ]
    width = max(len(k) for k, _unused in rows)
    return [(f"{key:<{width}}", value) for key, value in rows]


def _vec(v) -> str:
    return "(" + ", ".join(f"{x:g}" for x in v) + ")"


MISSING_SHOWN = 20  # missing parts named in the text summary (--json lists them all)


def _missing_words(missing: list[str]) -> str:
    """The missing parts, the first MISSING_SHOWN named and the rest counted."""
    if not missing:
        return _("none")
    more = len(missing) - MISSING_SHOWN
    shown = ", ".join(missing[:MISSING_SHOWN])
    return shown if more <= 0 else _("{shown} and {count} more (--json lists them all)").format(
        shown=shown, count=integer(more))
