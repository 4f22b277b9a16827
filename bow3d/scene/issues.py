"""Scene issues: one problem of a scene (its field path, what, the fix), its YAML line, the error listing them.

Layer: scene. `SceneIssue.format` gives "<file>:<yaml line>: <field path>: <what is wrong>; <the fix>";
`raise_issues` raises one SceneError listing them. Read by the scene file's reader (io) and the checks
across fields and files (checks); the rulesets' scene checks give SceneIssues too.
"""

from __future__ import annotations

import yaml

from bow3d.errors import SceneError, UserInputError
from bow3d.i18n import _, integer, semicolon
from bow3d.textformats import MAX_LISTED, format_path, load_yaml_document

FieldPath = tuple[str | int, ...]


class LineMap:
    """Field path -> 1-based YAML line, from the composed node tree (given, or composed on first use)."""

    def __init__(self, text: str, root: yaml.Node | None = None):
        self.text = text
        self._root: yaml.Node | None = root
        self._composed = root is not None

    @classmethod
    def of(cls, text: str) -> LineMap:
        return cls(text)

    @property
    def root(self) -> yaml.Node | None:
        if not self._composed:
            self._composed = True
            try:
                self._root = load_yaml_document(self.text, "<scene>").root
            except UserInputError:
                self._root = None
        return self._root

    def line(self, path: FieldPath) -> int:
        """The line of the deepest node along the path that exists (1 when none)."""
        node = self.root
        if node is None:
            return 1
        best = node.start_mark.line + 1
        for part in path:
            child = None
            if isinstance(node, yaml.MappingNode):
                for key, value in node.value:
                    if str(key.value) == str(part):
                        child, best = value, key.start_mark.line + 1
                        break
            elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and 0 <= part < len(node.value):
                child = node.value[part]
                best = child.start_mark.line + 1
            if child is None:
                return best
            node = child
        return best


class SceneIssue:
    """One problem found in a scene: where (field path) and what, with the fix."""

    def __init__(self, path: FieldPath, problem: str, fix: str):
        self.path, self.problem, self.fix = tuple(path), problem, fix

    def format(self, source: str, lines: LineMap | None) -> str:
        line = f":{lines.line(self.path)}" if lines is not None else ""
        fix = semicolon() + self.fix if self.fix else ""
        return f"{source}{line}: {format_path(self.path)}: {self.problem}{fix}"

    def __repr__(self) -> str:
        return f"SceneIssue({format_path(self.path)!r}, {self.problem!r}, {self.fix!r})"


def raise_issues(issues: list[SceneIssue], source: str, lines: LineMap | None) -> None:
    """Raise one SceneError listing the issues (first one first; at most MAX_LISTED, the rest counted);
    nothing when the list is empty."""
    if not issues:
        return
    messages = [issue.format(source, lines) for issue in issues[:MAX_LISTED]]  # only these need line numbers
    more = ""
    if len(issues) > 1:
        more = "\n  " + _("(and {n} more)").format(n=integer(len(issues) - 1)) + "\n  " + "\n  ".join(messages[1:])
        if len(issues) > MAX_LISTED:
            more += f"\n  ({len(issues) - MAX_LISTED:,} not shown; fix these first)"
    raise SceneError(messages[0] + more)
