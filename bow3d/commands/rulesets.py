"""`bow3d rulesets`: the game systems this bow3d referees (name, title, rule-book edition, languages)."""

from __future__ import annotations

import argparse
import json

from bow3d.i18n import _, marked

NAME = "rulesets"
ORDER = 70
HELP = "list the rulesets (game systems) a scene can be played with"
DESCRIPTION = """List the rulesets bow3d knows: the name a scene file gives as `ruleset: {name: ...}`,
the game's title, the edition of its rule book, the languages of its words (verdicts, battle
logs, film captions), and its opponents: the names 'bow3d simulate --blue NAME', 'bow3d arena
--players' and 'bow3d play --vs-ai SIDE:NAME' take for its scenes.

examples:
  bow3d rulesets
  bow3d rulesets --json"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON for scripts")


def run(args: argparse.Namespace) -> int:
    from bow3d.rulesets import known

    rows = [ruleset.describe() for ruleset in known()]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    width = max(len(r["name"]) for r in rows)
    for row in rows:
        print(f"{row['name']:<{width}}  " + _("{title}, rule book {edition} ({book}); languages: {languages}; "
                                              "opponents: {opponents}").format(
            title=marked(row["title"]), edition=marked(row["edition"]), book=row["book"],
            languages=", ".join(row["languages"]), opponents=", ".join(row["opponents"])))
    return 0
