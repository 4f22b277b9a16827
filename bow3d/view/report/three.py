"""three.js for the battle report's 3D view: the modules it needs, from a CDN (pinned, with integrity
hashes) or inlined from a copy of the pinned version installed with npm, each file checked (issue 32).

Layer: view (pure Python: files and text). three.js is a dependency, never part of the repository.
The page loads ES modules (three, GLTFLoader, OrbitControls, RoomEnvironment and what they import)
without a server: each module's text, fetched from the CDN with its sha384 checked by the browser
(`fetch(url, {integrity})`) or read from the page itself (--offline), becomes a blob URL once the
specifiers it imports are pointed at the blob URLs of those modules (`ModuleGraph.spec`).

    graph = cdn_graph()                            # THREE_VERSION from jsDelivr, SRI hashes pinned
    graph = local_graph(find_three())              # npm's global three (`npm root -g`), files checked
    graph = local_graph(find_three("~/web/node_modules/three"))   # a folder the user names
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from bow3d.errors import UserInputError
from bow3d.i18n import _

THREE_VERSION = "0.187.0"
CDN_BASE = f"https://cdn.jsdelivr.net/npm/three@{THREE_VERSION}/"
ENTRIES = {  # what the viewer imports: name -> path in the package
    "three": "build/three.module.js",
    "GLTFLoader": "examples/jsm/loaders/GLTFLoader.js",
    "OrbitControls": "examples/jsm/controls/OrbitControls.js",
    "RoomEnvironment": "examples/jsm/environments/RoomEnvironment.js",
}
# The files of three THREE_VERSION the entries need, in load order, with the sha384 of each (what
# `npm install three@0.187.0` installs and jsDelivr serves; tests/view/test_report.py checks them
# against the installed copy when it is that version).
PINNED = {
    "build/three.core.js": "sha384-drH6BueSlcvoXCwAqWkNJvXwu2Ax3mnGOmZnIXaomedIw+uXSP9Bf/XIUINgLUW+",
    "build/three.module.js": "sha384-T/E3B9AvPtLn5PKD7aTSFqizQcA4kHDfU0lub7u0fvM4w9BMGcSb3yI7r5LqMAMn",
    "examples/jsm/utils/BufferGeometryUtils.js": "sha384-NArny884Zj3HwjLRjeY1kbfLZnAHIElzho3N71FW0eMGxxBT+QuLEiSnSgpSaBXh",
    "examples/jsm/utils/SkeletonUtils.js": "sha384-Pozn8j5+YFr3ak8Pm90ayqDrGYn/DV7vVs/YIIqzJhzeJT0LQksoS1fZQ5lfsYlw",
    "examples/jsm/loaders/GLTFLoader.js": "sha384-WH6tljjFikpYMGa2JMqlbJlM1lEMkd/Y6Sqnuog1rX87eShphltUQI5NKByEo4CP",
    "examples/jsm/controls/OrbitControls.js": "sha384-ZVBN/wmVxgX0mUGjFJXakzzdZrAF4g4aHfKyusbjoF0WsVXSoGpeM/qRaVnXtaFo",
    "examples/jsm/environments/RoomEnvironment.js":
        "sha384-/H49oz0ZtMgJNgMZ+OhhuMuKBOsaiC3kY0/PZSvgJJXAOJJwmSBJjzlV5lJul3MB",
}
PINNED_DEPENDENCIES = {  # path -> {specifier in its text: path it names}
    "build/three.core.js": {},
    "build/three.module.js": {"./three.core.js": "build/three.core.js"},
    "examples/jsm/utils/BufferGeometryUtils.js": {"three": "build/three.module.js"},
    "examples/jsm/utils/SkeletonUtils.js": {"three": "build/three.module.js"},
    "examples/jsm/loaders/GLTFLoader.js": {"three": "build/three.module.js",
                                           "../utils/BufferGeometryUtils.js": "examples/jsm/utils/BufferGeometryUtils.js",
                                           "../utils/SkeletonUtils.js": "examples/jsm/utils/SkeletonUtils.js"},
    "examples/jsm/controls/OrbitControls.js": {"three": "build/three.module.js"},
    "examples/jsm/environments/RoomEnvironment.js": {"three": "build/three.module.js"},
}
NPM_HINT = (f"install it with `npm install -g three@{THREE_VERSION}`, or give the folder of an "
            f"`npm install three@{THREE_VERSION}` after --offline")
MAX_MODULE_BYTES = 16 * 1024 * 1024
MAX_PACKAGE_JSON_BYTES = 1024 * 1024   # a real package.json of three is a few kB

# import ... from '...'; export ... from '...'; import '...' (the forms three's ES modules use)
_IMPORT = re.compile(r"""(?:^|[;}\n])\s*(?:import|export)\s*(?:[\w*{}\s,$]*?\bfrom\s*)?(['"])([^'"\n]+)\1""")


@dataclass(frozen=True)
class Module:
    """One ES module of the graph: its path in the package, the specifiers it imports -> their paths,
    and either its text (inline) or its integrity hash (fetched)."""

    path: str
    dependencies: dict[str, str]
    integrity: str
    source: str | None = None


@dataclass(frozen=True)
class ModuleGraph:
    """The modules the viewer needs, in load order (every module after what it imports)."""

    version: str
    modules: tuple[Module, ...]
    base: str | None = None  # the CDN folder the modules are fetched from; None: inline
    folder: Path | None = None  # the local copy they were read from
    entries: dict[str, str] = field(default_factory=lambda: dict(ENTRIES))

    @property
    def inline(self) -> bool:
        return self.base is None

    def spec(self) -> dict:
        """What the page's loader reads (JSON): mode, base, entries, and each module."""
        return {"mode": "inline" if self.inline else "cdn", "base": self.base, "version": self.version,
                "entries": self.entries,
                "modules": [{"path": m.path, "deps": m.dependencies, "integrity": m.integrity,
                             **({"source": m.source} if m.source is not None else {})} for m in self.modules]}

    def size(self) -> int:
        return sum(len(m.source or "") for m in self.modules)


def sri(data: bytes) -> str:
    """The Subresource Integrity value of some bytes (sha384)."""
    return "sha384-" + base64.b64encode(hashlib.sha384(data).digest()).decode()


def cdn_graph() -> ModuleGraph:
    """The pinned modules of three THREE_VERSION, fetched from jsDelivr with their integrity hashes."""
    modules = tuple(Module(path, dict(PINNED_DEPENDENCIES[path]), PINNED[path]) for path in PINNED)
    return ModuleGraph(THREE_VERSION, modules, base=CDN_BASE)


# --- a local copy ---------------------------------------------------------------------------------

def _version(folder: Path) -> str | None:
    """The version of the three package in `folder`; None when there is none (a package.json that is not a small
    regular file is none: a FIFO would block, a link to /dev/zero would fill memory)."""
    package = folder / "package.json"
    try:
        if not package.is_file() or package.stat().st_size > MAX_PACKAGE_JSON_BYTES:
            return None
        data = json.loads(package.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    return data.get("version") if isinstance(data, dict) and data.get("name") == "three" else None


def _pinned(folder: Path, version: str | None) -> Path:
    """`folder` when its three is THREE_VERSION (the version whose files PINNED knows), else UserInputError."""
    if version != THREE_VERSION:
        raise UserInputError(_("{folder}: three {version}, and the report takes only three {THREE_VERSION}, "
                               "whose files it knows; {NPM_HINT}")
                             .format(folder=folder, version=version, THREE_VERSION=THREE_VERSION, NPM_HINT=NPM_HINT))
    return folder


def npm_global_root() -> Path | None:
    """npm's global folder (`npm root -g`), None without npm or an answer."""
    npm = shutil.which("npm")
    if npm is None:
        return None
    try:
        root = subprocess.run([npm, "root", "-g"], capture_output=True, text=True, timeout=20).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return Path(root) if root else None


def find_three(given: str | os.PathLike | None = None) -> Path:
    """The package folder of three THREE_VERSION: `given` (that folder, or a folder holding three or
    node_modules/three), else npm's global one. Never a node_modules/three found from the working folder
    up: whoever can write a folder above it would choose the page's JavaScript. UserInputError naming
    the folder when there is none or it is another version."""
    if given is not None:
        folder = Path(given).expanduser()
        candidates = [folder, folder / "three", folder / "node_modules" / "three"]
    else:
        root = npm_global_root()
        candidates = [root / "three"] if root is not None else []
    for candidate in candidates:
        version = _version(candidate)
        if version is not None:
            return _pinned(candidate.resolve(), version)
    if given is not None:
        raise UserInputError(_("{folder}: no three.js package there (no package.json of 'three'); "
                               "{NPM_HINT}").format(folder=folder, NPM_HINT=NPM_HINT))
    where = str(root) if root is not None else _("npm not found")
    raise UserInputError(_("--offline takes three.js from npm's global folder ({where}) or from the folder "
                           "given after it, never from a node_modules above the working folder, and found "
                           "none; {NPM_HINT}").format(where=where, NPM_HINT=NPM_HINT))


def _specifiers(text: str) -> list[str]:
    return list(dict.fromkeys(match.group(2) for match in _IMPORT.finditer(text)))


def _resolve(folder: Path, importer: str, specifier: str) -> str:
    if specifier == "three":
        return ENTRIES["three"]
    if specifier.startswith(("./", "../")):
        parts: list[str] = []
        for piece in (PurePosixPath(importer).parent / specifier).parts:
            if piece == "..":
                if not parts:
                    break
                parts.pop()
            elif piece != ".":
                parts.append(piece)
        else:
            return "/".join(parts)
    raise UserInputError(_("{value}: imports {specifier!r}, which the report cannot resolve; use three "
                           "{THREE_VERSION} ({NPM_HINT})")
                         .format(value=folder / importer, specifier=specifier, THREE_VERSION=THREE_VERSION, NPM_HINT=NPM_HINT))


def _read(folder: Path, path: str) -> bytes:
    """The bytes of one pinned file of the package `folder` (resolved): inside it (no link out of it), a
    regular file, its sha384 the pinned one (PINNED)."""
    file = folder / path
    expected = PINNED.get(path)
    try:
        real = file.resolve()
        if not real.is_relative_to(folder):
            raise UserInputError(_("{file}: a link out of the three.js package (to {target}); the report reads "
                                   "three.js only inside its folder").format(file=file, target=real))
        if expected is None or not real.is_file():
            raise UserInputError(_("{file}: not one of the files of three {THREE_VERSION} the report knows; "
                                   "{NPM_HINT}").format(file=file, THREE_VERSION=THREE_VERSION, NPM_HINT=NPM_HINT))
        if real.stat().st_size > MAX_MODULE_BYTES:
            raise UserInputError(_("{file}: larger than a three.js module can be ({MAX_MODULE_BYTES:,} "
                                   "bytes)").format(file=file, MAX_MODULE_BYTES=MAX_MODULE_BYTES))
        data = real.read_bytes()
    except FileNotFoundError:
        raise UserInputError(_("{file}: missing from this copy of three.js; {NPM_HINT}")
                             .format(file=file, NPM_HINT=NPM_HINT)) from None
    except OSError as error:
        raise UserInputError(_("{file}: cannot be read ({value})").format(file=file, value=error.strerror or error)) from None
    if sri(data) != expected:
        raise UserInputError(_("{file}: not the file of three {THREE_VERSION} (its hash is not the pinned one), "
                               "refused; {NPM_HINT}").format(file=file, THREE_VERSION=THREE_VERSION, NPM_HINT=NPM_HINT))
    return data


def local_graph(folder: str | os.PathLike) -> ModuleGraph:
    """The modules the viewer needs, read from the package folder of three THREE_VERSION (find_three):
    the entries and everything they import, each after what it imports, each file checked (`_read`),
    texts inlined."""
    folder = _pinned(Path(folder).resolve(), _version(Path(folder)))
    texts: dict[str, str] = {}
    deps: dict[str, dict[str, str]] = {}
    order: list[str] = []
    visiting: set[str] = set()

    def visit(path: str) -> None:
        if path in texts or path in visiting:
            return
        visiting.add(path)
        data = _read(folder, path)
        text = data.decode("utf-8")
        deps[path] = {spec: _resolve(folder, path, spec) for spec in _specifiers(text)}
        for target in deps[path].values():
            visit(target)
        texts[path] = text
        order.append(path)

    for path in ENTRIES.values():
        visit(path)
    modules = tuple(Module(path, deps[path], sri(texts[path].encode("utf-8")), texts[path]) for path in order)
    return ModuleGraph(THREE_VERSION, modules, folder=folder)
