"""A small two-side scene on disk for replay tests (flat geometry: the battlefield file only has to exist)."""

from __future__ import annotations

from pathlib import Path

import pytest

SCENE = """\
format: bow3d-scene/1
name: Skirmish
battlefield: field.ldr
ruleset: {brick_edge_probability: 0.262}
sides:
  - {id: blue, name: Blue army, colour: 1}
  - {id: red, name: Red army, colour: 4}
sheets:
  rifleman:
    kind: minifig
    action_budget: 2
    move: 5
    attack: 1
    dodge: 1
    armor: 0
    hp: 1
    weapons: [{name: rifle, kind: ranged, damage: 2}]
  medic:
    kind: minifig
    action_budget: 2
    move: 5
    attack: 0
    dodge: 1
    armor: 0
    hp: 1
    treat: 2
    treat_colour: red
    weapons: [{name: knife, kind: melee, damage: 1, reach: 1}]
  hero:
    kind: minifig
    action_budget: 2
    move: 4
    attack: 2
    dodge: 1
    armor: 1
    hp: 3
    weapons: [{name: sword, kind: melee, damage: 2, reach: 2}]
units:
  - {id: blue-1, side: blue, sheet: rifleman, model: fig.ldr, position: [4.5, 4.5], facing: 0}
  - {id: blue-2, side: blue, sheet: rifleman, model: fig.ldr, position: [4.5, 8.5], facing: 0}
  - {id: blue-3, side: blue, sheet: medic, model: fig.ldr, position: [2.5, 6.5], facing: 0}
  - {id: blue-4, side: blue, sheet: hero, model: fig.ldr, position: [6.5, 6.5], facing: 0}
  - {id: red-1, side: red, sheet: rifleman, model: fig.ldr, position: [26.5, 4.5], facing: 180}
  - {id: red-2, side: red, sheet: rifleman, model: fig.ldr, position: [26.5, 8.5], facing: 180}
  - {id: red-3, side: red, sheet: hero, model: fig.ldr, position: [24.5, 6.5], facing: 180}
"""


FIGURE = "0 figure: one triangle (the flat geometry ignores it; a model must have something to see)\n" \
         "3 16 -10 0 -10 10 0 -10 0 -24 10\n"


def write_scene(folder: Path, text: str = SCENE, name: str = "skirmish.yaml") -> Path:
    """The scene file plus the LDraw files it names (empty models: the flat geometry ignores them)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "field.ldr").write_text("0 flat field\n")
    (folder / "fig.ldr").write_text(FIGURE)
    path = folder / name
    path.write_text(text)
    return path


@pytest.fixture
def scene_path(tmp_path: Path) -> Path:
    return write_scene(tmp_path / "scenes")


def rewrite_pack(pack: Path, out: Path, change=None, *, fix_digests: bool = False, deflate: int | None = None) -> Path:
    """A copy of `pack` whose members (name -> bytes, the manifest aside) and manifest (a dict) `change(members,
    manifest)` edits; it may return (ZipInfo, bytes) pairs written as they are. `fix_digests`: the manifest's member
    digests made to match, as a forger re-packing by hand would; `deflate`: a compression level (else stored)."""
    import hashlib
    import json
    import zipfile

    with zipfile.ZipFile(pack) as archive:
        members = {name: archive.read(name) for name in archive.namelist() if name != "bowpack.json"}
        manifest = json.loads(archive.read("bowpack.json"))
    extra = change(members, manifest) if change is not None else None
    if fix_digests:
        manifest["files"] = {name: hashlib.sha256(blob).hexdigest() for name, blob in members.items()}
    method = zipfile.ZIP_STORED if deflate is None else zipfile.ZIP_DEFLATED
    with zipfile.ZipFile(out, "w", method, compresslevel=deflate) as archive:
        archive.writestr("bowpack.json", json.dumps(manifest))
        for name, blob in members.items():
            archive.writestr(name, blob)
        for info, blob in extra or []:
            archive.writestr(info, blob)
    return out
