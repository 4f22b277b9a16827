"""Find the images that !TEXMAP projections name: embedded !DATA blocks first, then the library.

Layer: ldraw. An image is looked for, by its name as written (any case), in the !DATA blocks
of the files read for the model, then in a `textures/` folder (beside the model, then the
library's parts/textures, p/textures, models/textures, official before unofficial: the LDraw
!TEXMAP spec's places), then beside the model. An image found nowhere is a diagnostic and the
geometry it covers keeps its own colour.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bow3d.ldraw.files import UnsafeReference
from bow3d.ldraw.flatten import FlatPart
from bow3d.ldraw.library import Library
from bow3d.ldraw.parse import Diagnostic, LDrawDocument


@dataclass(frozen=True)
class TextureImage:
    """Where an image's bytes are: a file of the library or beside the model, or a !DATA block's bytes."""

    name: str  # normalised, as textured triangles name it (FlatPart.textures)
    path: Path | None = None
    data: bytes = b""

    def describe(self) -> str:
        return str(self.path) if self.path is not None else f"!DATA {self.name} ({len(self.data):,} bytes)"


def find_textures(parts: dict[str, FlatPart], documents: dict[str, LDrawDocument], library: Library,
                  model_dir: Path, folders: dict | None = None) -> tuple[dict[str, TextureImage], list[Diagnostic]]:
    """Every image the parts' textured triangles name: (name -> TextureImage, diagnostics for those not found)."""
    users: dict[str, str] = {}  # image -> the first part that uses it (named in the diagnostic)
    for key, part in parts.items():
        for name in part.textures:
            users.setdefault(name, key)
    if not users:
        return {}, []
    embedded: dict[str, bytes] = {}
    for doc in documents.values():
        for name, data in doc.data.items():
            embedded.setdefault(name, data)
    found, diagnostics = {}, []
    for name, user in users.items():
        if name in embedded:
            found[name] = TextureImage(name, data=embedded[name])
            continue
        path = None
        try:
            path = library.find("textures/" + name, model_dir, folders) or library.find(name, model_dir, folders)
        except UnsafeReference as error:
            diagnostics.append(Diagnostic(user.split("#")[0], 0, f"texture {name}: {error}; drawn without it"))
            continue
        if path is None:
            diagnostics.append(Diagnostic(user.split("#")[0], 0, f"texture image '{name}' not found (no !DATA block, "
                                          "nothing in textures/ of the library or beside the model): the part is "
                                          "drawn in its colour without it"))
        else:
            found[name] = TextureImage(name, path=path)
    return found, diagnostics
