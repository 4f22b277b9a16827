"""A small LDraw library written on the fly, so reader tests need nothing installed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml

from bow3d.ldraw import Library, PartCache

LDCONFIG = """0 LDraw.org Configuration File
0 !COLOUR Black CODE 0 VALUE #1B2A34 EDGE #808080
0 !COLOUR Blue CODE 1 VALUE #1E5AA8 EDGE #333333
0 !COLOUR Red CODE 4 VALUE #B40000 EDGE #333333
0 !COLOUR Yellow CODE 14 VALUE #FAC80A EDGE #333333
0 !COLOUR White CODE 15 VALUE #F4F4F4 EDGE #333333
0 !COLOUR Main_Colour CODE 16 VALUE #7F7F7F EDGE #333333
0 !COLOUR Edge_Colour CODE 24 VALUE #7F7F7F EDGE #333333
0 !COLOUR Trans_Clear CODE 47 VALUE #FCFCFC EDGE #C3C3C3 ALPHA 128
0 !COLOUR Light_Bluish_Grey CODE 71 VALUE #A0A5A9 EDGE #333333
"""

# A closed 20 x 24 x 20 box (a 1x1 brick's hull), -Y up, certified counter-clockwise.
BOX = """0 Test Box
0 Name: box.dat
0 !LDRAW_ORG Part
0 BFC CERTIFY CCW
4 16 -10 0 10 10 0 10 10 0 -10 -10 0 -10
4 16 -10 -24 -10 10 -24 -10 10 -24 10 -10 -24 10
4 16 -10 -24 10 10 -24 10 10 0 10 -10 0 10
4 16 10 -24 -10 -10 -24 -10 -10 0 -10 10 0 -10
4 16 -10 -24 -10 -10 -24 10 -10 0 10 -10 0 -10
4 16 10 -24 10 10 -24 -10 10 0 -10 10 0 10
2 24 -10 -24 -10 10 -24 -10
"""

def _reversed_quads(text: str) -> str:
    """The same solid written clockwise: every quad's corners in reverse order."""
    out = []
    for line in text.splitlines():
        t = line.split()
        if t[:1] == ["4"]:
            corners = [t[i:i + 3] for i in range(2, 14, 3)][::-1]
            line = " ".join(t[:2] + [c for corner in corners for c in corner])
        out.append(line)
    return "\n".join(out) + "\n"


PARTS = {
    "parts/box.dat": BOX,
    "parts/BoxCW.dat": _reversed_quads(BOX.replace("CERTIFY CCW", "CERTIFY CW").replace("box.dat", "boxcw.dat")),
    "parts/boxnocert.dat": BOX.replace("0 BFC CERTIFY CCW\n", "").replace("box.dat", "boxnocert.dat"),
    "parts/wrapper.dat": "0 Wrapper\n0 !LDRAW_ORG Part\n0 BFC CERTIFY CCW\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 s\\wraps01.dat\n",
    "parts/s/wraps01.dat": "0 ~Wrapper sub\n0 !LDRAW_ORG Subpart\n0 BFC CERTIFY CCW\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 tri.dat\n",
    "p/tri.dat": "0 Triangle primitive\n0 !LDRAW_ORG Primitive\n0 BFC CERTIFY CCW\n3 16 0 0 0 0 0 10 10 0 0\n",
    "p/48/tri.dat": "0 Hi-res triangle\n0 !LDRAW_ORG Primitive\n0 BFC CERTIFY CCW\n3 16 0 0 0 0 0 10 10 0 0\n"
                    "3 16 0 0 0 0 0 -10 -10 0 0\n",
    "p/stud.dat": "0 Stud\n0 !LDRAW_ORG Primitive\n0 BFC CERTIFY CCW\n3 16 0 -4 0 0 -4 6 6 -4 0\n",
    "parts/brickstud.dat": "0 Brick with stud\n0 !LDRAW_ORG Part\n0 BFC CERTIFY CCW\n"
                           "1 16 0 0 0 1 0 0 0 1 0 0 0 1 box.dat\n1 16 0 -24 0 1 0 0 0 1 0 0 0 1 stud.dat\n",
}


def write_library(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "LDConfig.ldr").write_text(LDCONFIG)
    for name, text in PARTS.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


@pytest.fixture(autouse=True, scope="session")
def _no_installed_library(tmp_path_factory) -> None:
    """Tests never see an LDraw library the developer installed with `bow3d library install` (an empty data folder;
    LDRAWDIR still counts: it comes first)."""
    os.environ["BOW3D_DATA_DIR"] = str(tmp_path_factory.mktemp("bow3d-data"))


@pytest.fixture
def library(tmp_path: Path) -> Library:
    return Library([write_library(tmp_path / "ldraw")])


@pytest.fixture
def cache(tmp_path: Path) -> PartCache:
    return PartCache(tmp_path / "cache")


@pytest.fixture
def official() -> Library:
    root = os.environ.get("LDRAWDIR")
    if not root or not Path(root, "parts").is_dir():
        pytest.skip("the official LDraw library is not available (set LDRAWDIR)")
    return Library([Path(root)])


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return path


def gallery_copy(folder: Path, scene=lambda text: text, battlefield=lambda text: text) -> Path:
    """The bundled LOS gallery (scenes/los-gallery.yaml, its battlefield and figures) copied into `folder`, the
    scene's and the battlefield's texts each through its edit; returns the copied scene file."""
    import shutil

    scenes = Path(__file__).resolve().parents[1] / "scenes"
    shutil.copytree(scenes / "figures", folder / "figures")
    write(folder / "los-gallery.ldr", battlefield((scenes / "los-gallery.ldr").read_text()))
    return write(folder / "los-gallery.yaml", scene((scenes / "los-gallery.yaml").read_text()))


@pytest.fixture(scope="session")
def renderer_available() -> None:
    """Render tests run only where Panda3D can open an offscreen buffer; elsewhere they skip."""
    from bow3d.view.output.offscreen import OffscreenRenderer, RenderUnavailable

    try:
        OffscreenRenderer(64, 64).close()
    except RenderUnavailable as error:
        pytest.skip(f"no offscreen graphics pipe here: {error}")


def bundled_scene_of(name: str, folder: Path) -> Path:
    """A scene of ruleset `name` in `folder` (a copy of the bundled scenes): a bundled one, else the village
    rewritten to name it (a ruleset that shares BOW's scene format, as the French edition does)."""
    for path in sorted(folder.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and (data.get("ruleset") or {}).get("name") == name:
            return path
    data = yaml.safe_load((folder / "village.yaml").read_text(encoding="utf-8"))
    data["ruleset"] = {**(data.get("ruleset") or {}), "name": name}
    path = folder / f"village-{name}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path
