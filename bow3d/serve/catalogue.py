"""The scenes a server offers, by name: each scene file loaded and checked once, its glTF built once.

Layer: serve. A browser names a scene only by its name in this catalogue (the file's stem), never by a
path: no message reaches the file system. A scene's battlefield as glTF (bow3d.view.gltf, the battle
report's three.js view reads the same) and the placer that poses its figures on the ground are built on
first use and kept.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bow3d.errors import UserInputError
from bow3d.i18n import _

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")   # what a scene's name in a URL or message may be


@dataclass
class SceneEntry:
    """One scene of the catalogue: its name, file, the loaded scene and its ruleset."""

    name: str
    path: Path
    scene: Any
    ruleset: Any
    library: Any
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _glb: bytes | None = field(default=None, repr=False)
    _placer: Any = field(default=None, repr=False)

    @property
    def title(self) -> str:
        return str(self.scene.name or self.name)

    def sides(self) -> list[dict[str, Any]]:
        return [{"id": s.id, "name": s.name, "colour": int(s.colour)} for s in self.scene.sides]

    def summary(self) -> dict[str, Any]:
        """What the lobby shows of it (JSON-ready)."""
        return {"name": self.name, "title": self.title, "ruleset": self.ruleset.name,
                "ruleset_title": self.ruleset.title, "sides": self.sides(),
                "opponents": list(self.ruleset.opponents()),
                "units": [{"id": u.id, "side": u.side, "sheet": u.sheet} for u in self.scene.units]}

    def _build(self) -> None:
        from bow3d.view.gltf.document import scene_document

        document, placer, _nodes, _doors = scene_document(self.scene, self.library, quality="default")
        self._glb, self._placer = document.builder.glb(), placer

    def glb(self) -> bytes:
        """The scene as a binary glTF (battlefield, units and vehicles as named nodes, metres)."""
        with self._lock:
            if self._glb is None:
                self._build()
            assert self._glb is not None
            return self._glb

    def placer(self) -> Any:
        with self._lock:
            if self._placer is None:
                self._build()
            return self._placer

    def node_poses(self, pieces: Any) -> dict[str, list[list[float]] | None]:
        """Each piece's glTF node transform [t, q, s] as the page sets it (None: not drawn, e.g. aboard)."""
        from bow3d.view.film.timeline import Pose
        from bow3d.view.gltf.placement import matrix_to_trs

        placer = self.placer()
        poses = {}
        for piece in pieces:
            position = piece.position if piece.position is not None else (float("nan"), float("nan"))
            poses[piece.id] = Pose(tuple(position), float(piece.facing), bool(piece.alive), piece.aboard,
                                   seat=int(piece.seat))
        gone = {piece.id for piece in pieces if piece.posture == "gone"}
        out: dict[str, list[list[float]] | None] = {}
        for id_, pose in poses.items():
            if id_ not in placer.figures:
                continue
            matrix = None if id_ in gone else placer.matrix(id_, pose, 0.0, poses)
            if matrix is None:
                out[id_] = None
                continue
            t, q, s = matrix_to_trs(matrix)
            out[id_] = [np.round(t, 3).tolist(), np.round(q, 6).tolist(), np.round(s, 4).tolist()]
        return out


class Catalogue:
    """The scenes a server offers: name -> SceneEntry. Scenes are loaded (and checked) when the server
    starts, so a bad one is refused before anyone connects."""

    def __init__(self, paths: list[Path], library: Any) -> None:
        from bow3d.rulesets import load_scene, ruleset_of

        self.library = library
        self.entries: dict[str, SceneEntry] = {}
        for path in paths:
            path = Path(path)
            if not path.is_file():
                raise UserInputError(_("{path}: no such scene file").format(path=path))
            scene = load_scene(path, library=library)
            name = _safe_name(path.stem)
            base, k = name, 2
            while name in self.entries:
                name, k = f"{base}-{k}", k + 1
            self.entries[name] = SceneEntry(name, path.resolve(), scene, ruleset_of(scene), library)

    def get(self, name: Any) -> SceneEntry | None:
        """The scene of that name, None for any other value (a path, a number, a name not served)."""
        if not isinstance(name, str) or not NAME.match(name):
            return None
        return self.entries.get(name)

    def by_path(self, path: str) -> SceneEntry | None:
        resolved = Path(path).resolve()
        return next((e for e in self.entries.values() if e.path == resolved), None)

    def summaries(self) -> list[dict[str, Any]]:
        return [e.summary() for e in self.entries.values()]


def _safe_name(stem: str) -> str:
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", stem).strip("-.") or "scene"
    return name[:64] if NAME.match(name[:64]) else "scene"
