"""design.md: imports point down the layer list only; nothing happens at import time."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "bow3d"
ORDER = ["ldraw", "scene", "world", "rules", "replay", "view"]
# rules never imports world (it asks through a protocol), nor panda3d.
FORBIDDEN = {"rules": {"world", "view", "replay"}, "ldraw": set(ORDER[1:])}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("layer", ORDER)
def test_layer_imports_point_down(layer: str) -> None:
    rank = ORDER.index(layer)
    below = set(ORDER[rank + 1 :]) | FORBIDDEN.get(layer, set())
    for path in (ROOT / layer).rglob("*.py"):
        for name in _imports(path):
            parts = name.split(".")
            if parts[0] == "bow3d" and len(parts) > 1:
                assert parts[1] not in below, f"{path.relative_to(ROOT)} imports {name}: upward import"
            if layer in {"ldraw", "scene", "world", "rules", "replay"}:
                assert parts[0] not in {"panda3d", "direct"}, f"{path} imports {name}: panda3d belongs in view"
