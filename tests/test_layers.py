"""design.md: imports point down the layer list only; nothing happens at import time.

Layers, lowest first: ldraw < scene < world < rules < rulesets < replay < view < serve; commands and cli
sit above everything (no layer imports them). The modules at the top of the package (errors,
paths, textformats, bundled, units, ...) and the base packages (batch: the executor of batch work) are the
base every layer may use; they import no layer.
Besides the order:
  - rules and rulesets never import world, view, replay, panda3d or direct;
  - rules (the engine) is pure Python: no numpy (rulesets may use it);
  - only view (and the commands, lazily) imports panda3d or direct;
  - no dynamic imports (importlib.import_module, importlib.util, __import__) outside bow3d/cli.py,
    which finds the command modules that way: every dependency is visible to this test;
  - nothing at module level writes files (open for writing, write_text, write_bytes, mkdir,
    makedirs, ...) or creates a ShowBase;
  - no import circle among bow3d's modules: imports inside functions count (they only hide one), those
    under `if TYPE_CHECKING:` do not, and importing a.b.c runs a/__init__.py and a/b/__init__.py too.
Relative imports are resolved to absolute names first. The self-tests at the end plant each kind
of violation in a fake package and check that the checker reports it.
"""

from __future__ import annotations

import ast
import copy
import functools
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "bow3d"
ORDER = ["ldraw", "scene", "world", "rules", "rulesets", "replay", "view", "serve"]
TOP = {"commands", "cli", "__main__"}  # above every layer; may import anything
# the catalogue builder (`python -m bow3d.locale`) reads the words of the whole program, the CLI's help included
PROGRAMS = {("locale", "__main__.py")}
BASE_PACKAGES = {"batch", "locale"}  # packages of the base (batch work; the message catalogues): every layer may use them, they import no layer
FORBIDDEN = {  # beyond the order: bow3d layers and third-party packages a layer never imports
    "rules": {"world", "view", "replay", "panda3d", "direct", "numpy"},
    "rulesets": {"world", "view", "replay", "panda3d", "direct"},
}
PANDA = {"panda3d", "direct"}  # only view and the commands
DYNAMIC_IMPORT_ALLOWED = {"cli"}
WRITING_CALLS = {"write_text", "write_bytes", "mkdir", "makedirs", "touch", "symlink_to", "hardlink_to",
                 "write_new", "open_new", "new_file_name", "copyfile", "copytree", "copy", "copy2", "move",
                 "rmtree", "unlink", "remove", "rmdir", "rename", "mkfifo", "mknod"}


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer_of(path: Path, root: Path) -> str:
    """'ldraw', ..., 'view', 'commands', 'cli', '__main__', or 'base' for the package's own modules."""
    relative = path.relative_to(root).parts
    if relative in PROGRAMS:
        return "__main__"
    if len(relative) > 1:
        return "base" if relative[0] in BASE_PACKAGES else relative[0]
    stem = Path(relative[0]).stem
    return stem if stem in TOP else "base"


def imported_names(tree: ast.Module, module: str, is_package: bool) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import, relative ones resolved; `from a import b` gives a and a.b."""
    names = []
    package = module.split(".") if is_package else module.split(".")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - (node.level - 1)] if node.level - 1 <= len(package) else []
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            if node.module:
                names.append((node.lineno, prefix))
            names += [(node.lineno, f"{prefix}.{alias.name}" if prefix else alias.name) for alias in node.names
                      if alias.name != "*"]
    return names


def _dynamic_imports(tree: ast.Module) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("__import__",
                                                                                                 "import_module"):
            found.append((node.lineno, f"{node.func.id}()"))
        elif isinstance(node, ast.Attribute) and node.attr in ("import_module", "util") and \
                isinstance(node.value, ast.Name) and node.value.id == "importlib":
            found.append((node.lineno, f"importlib.{node.attr}"))
        elif isinstance(node, ast.Import) and any(a.name.startswith("importlib.util") for a in node.names):
            found.append((node.lineno, "import importlib.util"))
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("importlib") and (
                (node.module or "").startswith("importlib.util") or
                any(a.name in ("import_module", "util") for a in node.names)):
            found.append((node.lineno, f"from {node.module} import ..."))
    return found


def _import_time_nodes(tree: ast.Module):
    """The nodes that run when the module is imported: all but function bodies and `if __name__ == "__main__":`."""
    stack: list[ast.AST] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            stack += node.decorator_list + node.args.defaults + [d for d in node.args.kw_defaults if d is not None]
            continue
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, ast.If) and "__name__" in ast.unparse(node.test) and "__main__" in ast.unparse(node.test):
            stack += node.orelse
            continue
        yield node
        stack += list(ast.iter_child_nodes(node))


def _side_effects(tree: ast.Module) -> list[tuple[int, str]]:
    found = []
    for node in _import_time_nodes(tree):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr if isinstance(
            node.func, ast.Attribute) else ""
        if name == "open":
            mode = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "mode"), None)
            if mode is not None and not (isinstance(mode, ast.Constant) and isinstance(mode.value, str)
                                         and not set(mode.value) & set("wax+")):
                found.append((node.lineno, "open() for writing"))
        elif name in WRITING_CALLS:
            found.append((node.lineno, f"{name}()"))
        elif name == "ShowBase":
            found.append((node.lineno, "ShowBase()"))
    return found


@functools.cache
def violations(root: Path = ROOT) -> tuple[str, ...]:
    """Every breach of the rules in the module doc, as 'path:line: what' (read once per tree)."""
    problems = []
    for path in sorted(root.rglob("*.py")):
        layer = layer_of(path, root)
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        module = module_name(path, root)
        where = path.relative_to(root.parent)
        rank = ORDER.index(layer) if layer in ORDER else -1
        forbidden = FORBIDDEN.get(layer, set())
        for line, name in imported_names(tree, module, path.name == "__init__.py"):
            parts = name.split(".")
            if parts[0] == root.name and len(parts) > 1:
                target = parts[1]
                if layer in TOP:
                    continue
                if target in TOP:
                    problems.append(f"{where}:{line}: imports {name}: nothing imports the commands or the cli")
                elif layer == "base" and target in ORDER:
                    problems.append(f"{where}:{line}: imports {name}: the base modules import no layer")
                elif target in ORDER and ORDER.index(target) > rank >= 0:
                    problems.append(f"{where}:{line}: imports {name}: upward import ({layer} is below {target})")
                elif target in forbidden:
                    problems.append(f"{where}:{line}: imports {name}: {layer} never imports {target}")
            elif parts[0] in forbidden:
                problems.append(f"{where}:{line}: imports {name}: {layer} never imports {parts[0]}")
            elif parts[0] in PANDA and layer not in {"view", "commands"}:
                problems.append(f"{where}:{line}: imports {name}: panda3d belongs in view")
        if layer not in DYNAMIC_IMPORT_ALLOWED:
            problems += [f"{where}:{line}: {what}: a dynamic import hides a dependency; import it by name"
                         for line, what in _dynamic_imports(tree)]
        problems += [f"{where}:{line}: {what} at import time: nothing happens when a module is imported"
                     for line, what in _side_effects(tree)]
    return tuple(problems)


@pytest.mark.parametrize("layer", ORDER + ["commands", "base"])
def test_layer_rules_hold(layer: str) -> None:
    found = [p for p in violations() if layer_of(ROOT.parent / p.split(":")[0], ROOT) == layer]
    assert not found, "\n".join(found)


def _without_type_checking(tree: ast.Module) -> ast.Module:
    """A copy of the tree with the bodies of `if TYPE_CHECKING:` emptied (their imports never run)."""
    tree = copy.deepcopy(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            node.body = [ast.Pass()]
    return tree


def import_graph(root: Path = ROOT) -> dict[str, dict[str, str]]:
    """module -> {bow3d module it imports: 'file:line' of the first such import}. Imports inside functions
    count, those under `if TYPE_CHECKING:` do not. Importing a.b.c also runs a/__init__.py and
    a/b/__init__.py: an edge to each package the importer is not inside (those are running already)."""
    files = {module_name(path, root): path for path in sorted(root.rglob("*.py"))}
    graph: dict[str, dict[str, str]] = {}
    for module, path in files.items():
        tree = _without_type_checking(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
        edges = graph.setdefault(module, {})
        for line, name in sorted(imported_names(tree, module, path.name == "__init__.py")):
            parts = name.split(".")
            while parts and ".".join(parts) not in files:
                parts.pop()
            targets = [".".join(parts[:k]) for k in range(1, len(parts) + 1)]  # the packages run on the way
            for target in targets:
                inside = module == target or module.startswith(target + ".")
                if target in files and not inside:
                    edges.setdefault(target, f"{path.relative_to(root.parent)}:{line}")
    return graph


def strongly_connected(graph: dict[str, dict[str, str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's, iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph.get(successor, ())))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return sorted(found)


def _circle(graph: dict[str, dict[str, str]], component: list[str]) -> list[str]:
    """The shortest way from the component's first module back to itself, inside the component."""
    start, members = component[0], set(component)
    came_from: dict[str, str] = {}
    queue = [start]
    for node in queue:
        for successor in sorted(graph[node]):
            if successor not in members or successor in came_from:
                continue
            came_from[successor] = node
            if successor == start:
                path = [start]
                while len(path) == 1 or path[-1] != start:
                    path.append(came_from[path[-1]])
                return path[::-1]
            queue.append(successor)
    raise AssertionError(f"no circle through {start}")  # pragma: no cover - a component always has one


def import_cycles(root: Path = ROOT) -> list[str]:
    """One line per import circle: how many modules it holds and one way round it, each import's file:line."""
    graph = import_graph(root)
    lines = []
    for component in strongly_connected(graph):
        path = _circle(graph, component)
        steps = " -> ".join(f"{a} ({graph[a][b]})" for a, b in zip(path, path[1:]))
        lines.append(f"{len(component)} modules in an import circle ({', '.join(component)}): {steps} -> {path[-1]}")
    return lines


def test_no_import_cycles() -> None:
    """design.md, house style: an import inside a function hides a circle; there is none, hidden or not."""
    found = import_cycles()
    assert not found, "\n".join(found)


# Self-tests: the checker must see each kind of violation (it once let five through).


def _fake(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "bow3d"
    for name in ORDER + ["commands"]:
        (root / name).mkdir(parents=True, exist_ok=True)
        (root / name / "__init__.py").write_text("")
    (root / "__init__.py").write_text("")
    for name, text in files.items():
        (root / name).write_text(text)
    return root


CLEAN = {
    "ldraw/parse.py": "import numpy as np\nfrom pathlib import Path\n\ndef load(p):\n    return Path(p).read_text()\n",
    "scene/model.py": "from bow3d.ldraw import parse\nfrom . import io\nfrom .io import read\n",
    "scene/io.py": "def read():\n    with open('x', 'w') as f:\n        f.write('fine inside a function')\n",
    "rules/game.py": "from bow3d.scene import model\nfrom .state import State\nimport importlib.metadata\n",
    "rules/state.py": "class State:\n    pass\n",
    "rulesets/bow.py": "import numpy\nfrom bow3d.rules import game\n",
    "view/app.py": "from panda3d.core import NodePath\nfrom direct.showbase.ShowBase import ShowBase\n\n"
                   "def main():\n    return ShowBase()\n\nif __name__ == '__main__':\n    open('log', 'a')\n",
    "cli.py": "import importlib\nimportlib.import_module('bow3d.commands')\n",
    "commands/los.py": "from bow3d.view import app\n",
}


def test_the_checker_passes_a_clean_package(tmp_path):
    assert violations(_fake(tmp_path, CLEAN)) == ()


@pytest.mark.parametrize("name, text, expected", [
    ("ldraw/bad.py", "from ..scene import model\n", "bow3d/ldraw/bad.py:1: imports bow3d.scene: upward import"),
    ("scene/bad.py", "from .. import world\n", "bow3d/scene/bad.py:1: imports bow3d.world: upward import"),
    ("rules/bad.py", "from bow3d.commands import los\n", "bow3d/rules/bad.py:1: imports bow3d.commands: nothing imports"),
    ("rules/bad.py", "from bow3d import cli\n", "bow3d/rules/bad.py:1: imports bow3d.cli: nothing imports"),
    ("rules/bad.py", "def f():\n    import numpy as np\n", "bow3d/rules/bad.py:2: imports numpy: rules never imports numpy"),
    ("rules/bad.py", "from bow3d.world import World\n", "bow3d/rules/bad.py:1: imports bow3d.world: rules never"),
    ("rulesets/bad.py", "from ..world import raycast\n", "bow3d/rulesets/bad.py:1: imports bow3d.world: rulesets never"),
    ("rulesets/bad.py", "import panda3d.core\n", "bow3d/rulesets/bad.py:1: imports panda3d.core: rulesets never"),
    ("world/bad.py", "from direct.showbase import ShowBase\n", "imports direct.showbase: panda3d belongs in view"),
    ("paths.py", "from bow3d.scene import io\n", "bow3d/paths.py:1: imports bow3d.scene: the base modules import no"),
    ("scene/bad.py", "import importlib\nm = importlib.import_module('bow3d.view')\n",
     "bow3d/scene/bad.py:2: importlib.import_module: a dynamic import"),
    ("scene/bad.py", "def f():\n    return __import__('bow3d.view')\n", "bow3d/scene/bad.py:2: __import__(): a dynamic"),
    ("replay/bad.py", "from importlib.util import find_spec\n", "bow3d/replay/bad.py:1: from importlib.util import"),
    ("world/bad.py", "from pathlib import Path\nPath('out.txt').write_text('x')\n",
     "bow3d/world/bad.py:2: write_text() at import time"),
    ("world/bad.py", "LOG = open('log.txt', 'a')\n", "bow3d/world/bad.py:1: open() for writing at import time"),
    ("world/bad.py", "import os\nif True:\n    os.makedirs('cache')\n", "bow3d/world/bad.py:3: makedirs() at import"),
    ("view/bad.py", "from direct.showbase.ShowBase import ShowBase\nclass App:\n    base = ShowBase()\n",
     "bow3d/view/bad.py:3: ShowBase() at import time"),
])
def test_the_checker_catches_each_planted_violation(tmp_path, name, text, expected):
    found = violations(_fake(tmp_path, {**CLEAN, name: text}))
    assert any(expected in problem for problem in found), found


@pytest.mark.parametrize("files, expected", [
    ({"scene/a.py": "from bow3d.scene import b\n", "scene/b.py": "def f():\n    from bow3d.scene.a import x\n"},
     "bow3d.scene.a (bow3d/scene/a.py:1) -> bow3d.scene.b (bow3d/scene/b.py:2) -> bow3d.scene.a"),
    ({"world/__init__.py": "from bow3d.world.w import W\n", "world/w.py": "from bow3d.scene import s\n",
      "world/v.py": "", "scene/s.py": "def f():\n    from bow3d.world.v import V\n"},
     "bow3d.scene.s (bow3d/scene/s.py:2) -> bow3d.world (bow3d/world/__init__.py:1) -> bow3d.world.w "
     "(bow3d/world/w.py:1) -> bow3d.scene.s"),
])
def test_the_checker_finds_a_planted_import_cycle(tmp_path, files, expected):
    found = import_cycles(_fake(tmp_path, {**CLEAN, **files}))
    assert [line for line in found if line.endswith(expected)], found


def test_the_checker_passes_type_checking_imports_and_a_clean_package(tmp_path):
    assert import_cycles(_fake(tmp_path, CLEAN)) == []
    typed = {"scene/c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bow3d.scene.d import D\n",
             "scene/d.py": "from bow3d.scene import c\n"}
    assert import_cycles(_fake(tmp_path, {**CLEAN, **typed})) == []


def test_the_checker_keeps_the_base_packages_below_every_layer(tmp_path):
    root = _fake(tmp_path, CLEAN)
    (root / "batch").mkdir()
    (root / "batch" / "__init__.py").write_text("from bow3d.paths import free_path\n")
    (root / "batch" / "bad.py").write_text("from bow3d.replay import session\n")
    (root / "replay" / "ok.py").write_text("from bow3d.batch import executor\n")
    found = violations(root)
    assert [p for p in found if "batch/bad.py:1: imports bow3d.replay" in p and "base modules import no" in p], found
    assert not [p for p in found if "replay/ok.py" in p], found


# --- issue 30: nothing outside bow3d/rulesets/ imports a named ruleset --------------------------------------
NAMED_RULESET_ALLOWED: set[str] = set()  # (file, module) pairs allowed to import a named ruleset: none


def named_ruleset_imports(root: Path = ROOT) -> list[str]:
    """'file:line: imports bow3d.rulesets.NAME' for every import of a named ruleset (a package or module inside
    bow3d/rulesets/) from outside bow3d/rulesets/; the registry package itself (bow3d.rulesets) is allowed."""
    named = {p.stem if p.is_file() else p.name for p in (root / "rulesets").iterdir()
             if p.name != "__init__.py" and not p.name.startswith(("_", ".")) and (p.is_dir() or p.suffix == ".py")}
    found = []
    for path in sorted(root.rglob("*.py")):
        if path.relative_to(root).parts[0] == "rulesets":
            continue
        module = module_name(path, root)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for line, name in imported_names(tree, module, path.name == "__init__.py"):
            parts = name.split(".")
            if parts[:2] == ["bow3d", "rulesets"] and len(parts) > 2 and parts[2] in named:
                where = f"{path.relative_to(root.parent)}"
                if (where, ".".join(parts[:3])) not in NAMED_RULESET_ALLOWED:
                    found.append(f"{where}:{line}: imports {'.'.join(parts[:3])}: only bow3d/rulesets/ names a "
                                 "ruleset; ask the registry (bow3d.rulesets) and the ruleset's facets instead")
    return sorted(set(found))


def test_no_named_ruleset_outside_the_rulesets_package() -> None:
    assert named_ruleset_imports() == []


def test_a_planted_named_ruleset_import_is_refused(tmp_path) -> None:
    root = _fake(tmp_path, CLEAN)
    (root / "rulesets" / "chess").mkdir()
    (root / "rulesets" / "chess" / "__init__.py").write_text("")
    (root / "view" / "ok.py").write_text("from bow3d.rulesets import ruleset_of\n")
    (root / "view" / "bad.py").write_text("def odds():\n    from bow3d.rulesets.chess import odds\n")
    (root / "commands" / "bad.py").write_text("from bow3d.rulesets import chess\n")
    found = named_ruleset_imports(root)
    assert [p for p in found if p.startswith("bow3d/view/bad.py:2: imports bow3d.rulesets.chess")], found
    assert [p for p in found if p.startswith("bow3d/commands/bad.py:1: imports bow3d.rulesets.chess")], found
    assert not [p for p in found if "ok.py" in p], found


# --- issue 30: the film's planning and the captions import no Panda3D ----------------------------------------
# the modules that decide shots, timings, camera poses and caption words: they run (and are tested) without a
# graphics stack; the Panda3D drawing of the same things lives beside them (film/stage.py, film/title_overlay.py,
# throws/brick_roll_animation.py, output/offscreen.py). films.py starts the video renderer, which is Panda3D, only
# by name (bow3d.view.film.video, lazily), never panda3d itself.
PANDA_FREE = ("view/film/timeline.py", "view/film/director.py", "view/film/shots.py", "view/film/frames.py",
              "view/film/titles.py", "view/film/shot_check.py", "view/film/films.py", "view/throws/captions.py",
              "view/throws/brick_throw.py", "view/camera/pose.py")


def panda_imports(root: Path = ROOT, files: tuple[str, ...] = PANDA_FREE) -> list[str]:
    """'file:line: imports NAME' for every import of panda3d or direct in `files` (relative to `root`), at the top
    or inside a function (imported_names walks the whole tree); a listed file that is missing is reported too."""
    found = []
    for name in files:
        path = root / name
        where = path.relative_to(root.parent)
        if not path.is_file():
            found.append(f"{where}: missing (a planning module moved? update PANDA_FREE)")
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        found += [f"{where}:{line}: imports {imported}: the film's planning and captions import no Panda3D"
                  for line, imported in imported_names(tree, module_name(path, root), path.name == "__init__.py")
                  if imported.split(".")[0] in PANDA]
    return found


def test_the_film_planning_imports_no_panda3d() -> None:
    assert panda_imports() == []


def test_importing_the_film_planning_loads_no_panda3d() -> None:
    """What the modules import in turn counts too: importing every planning module leaves panda3d unloaded."""
    modules = [module_name(ROOT / name, ROOT) for name in PANDA_FREE]
    script = ("import sys\n" + "".join(f"import {m}\n" for m in modules) +
              "print(sorted(m for m in sys.modules if m.split('.')[0] in ('panda3d', 'direct')))\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT.parent, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout


def test_a_planted_panda3d_import_in_the_planning_is_refused(tmp_path) -> None:
    root = _fake(tmp_path, CLEAN)
    (root / "view" / "film").mkdir()
    (root / "view" / "film" / "__init__.py").write_text("")
    (root / "view" / "film" / "shots.py").write_text("import math\n\ndef frame(t):\n    from panda3d.core import NodePath\n"
                                                     "    return NodePath('x')\n")
    (root / "view" / "film" / "titles.py").write_text("from direct.gui.OnscreenText import OnscreenText\n")
    (root / "view" / "film" / "frames.py").write_text("from bow3d.view.film import shots\n")
    found = panda_imports(root, ("view/film/shots.py", "view/film/titles.py", "view/film/frames.py",
                                 "view/film/gone.py"))
    assert [p for p in found if p.startswith("bow3d/view/film/shots.py:4: imports panda3d.core")], found
    assert [p for p in found if p.startswith("bow3d/view/film/titles.py:1: imports direct.gui")], found
    assert [p for p in found if p.startswith("bow3d/view/film/gone.py: missing")], found
    assert not [p for p in found if "frames.py" in p], found


# --- house style: a module docstring states purpose, layer, units and the section cited, in at most 15 lines -----
# what runs longer (reasoning, member tables, examples, design notes) goes to docs/modules/, one page per area,
# and the docstring's last line points there. A module whose docstring is printed as a command's help would be
# excepted here by name, with the reason: bow3d/locale/__main__.py passes its docstring to argparse as the
# description of `python -m bow3d.locale --help`, and it is short, so it is held to the limit like the rest.
DOCSTRING_MAX_LINES = 15
LONG_DOCSTRING_ALLOWED: dict[str, str] = {}  # 'bow3d/x/y.py' -> why its docstring may run longer: none


def long_module_docstrings(root: Path = ROOT) -> list[str]:
    """'file: the module docstring runs N lines' for every module under `root` whose docstring spans more than
    DOCSTRING_MAX_LINES lines of the file, from its opening quotes to its closing ones."""
    found = []
    for path in sorted(root.rglob("*.py")):
        where = str(path.relative_to(root.parent).as_posix())
        body = ast.parse(path.read_text(encoding="utf-8"), filename=str(path)).body
        if where in LONG_DOCSTRING_ALLOWED or not body or not isinstance(body[0], ast.Expr):
            continue
        first = body[0].value
        if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
            continue
        lines = (first.end_lineno or first.lineno) - first.lineno + 1
        if lines > DOCSTRING_MAX_LINES:
            found.append(f"{where}: the module docstring runs {lines} lines (at most {DOCSTRING_MAX_LINES}: purpose, "
                         "layer, units, the section cited; move the rest to docs/modules/ and point there)")
    return found


def test_module_docstrings_are_short() -> None:
    assert long_module_docstrings() == []


def test_a_planted_long_module_docstring_is_refused(tmp_path) -> None:
    root = _fake(tmp_path, CLEAN)
    long_doc = '"""Purpose.\n\nLayer: world.\n' + "".join(f"Reasoning, line {n}.\n" for n in range(13)) + '"""\n'
    (root / "world" / "long.py").write_text(long_doc + "X = 1\n")                    # 17 lines
    (root / "world" / "limit.py").write_text('"""Purpose.\n' + "more\n" * 13 + '"""\n')  # 15 lines: allowed
    (root / "world" / "late.py").write_text("X = 1\n" + long_doc)                     # not the module docstring
    found = long_module_docstrings(root)
    assert [p for p in found if p.startswith("bow3d/world/long.py: the module docstring runs 17 lines")], found
    assert not [p for p in found if "limit.py" in p or "late.py" in p], found
