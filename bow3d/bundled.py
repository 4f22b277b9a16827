"""Where bow3d's bundled data lives: the starter LDraw library, the scenes and the replays.

Layer: bottom (any layer may import it; no I/O but a look). In the repository they are the
top-level folders `ldraw_library/`, `scenes/` and `replays/` beside the `bow3d` package (an
editable install uses them in place). A built wheel carries copies inside the package, as
`bow3d/_bundled/<folder>/` (setup.py's build step), so that `pip install .`, a wheel or pipx runs
without the source tree. The sibling layout is the same in both: replays refer to their scene as
`../scenes/village.yaml`.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE_DATA = Path(__file__).resolve().parent / "_bundled"  # in an installed wheel
CHECKOUT = Path(__file__).resolve().parent.parent  # the repository root, in a checkout
FOLDERS = ("ldraw_library", "scenes", "replays")  # what the wheel carries (setup.py reads this)


def bundled_dir(name: str) -> Path:
    """The bundled folder `name` (one of FOLDERS): the installed copy when there is one, else the checkout's."""
    if name not in FOLDERS:
        raise ValueError(f"no bundled folder {name!r} (bundled: {', '.join(FOLDERS)})")
    installed = PACKAGE_DATA / name
    return installed if installed.is_dir() else CHECKOUT / name


def starter_library_dir() -> Path:
    """The bundled starter LDraw library (the fallback when LDRAWDIR is not set)."""
    return bundled_dir("ldraw_library")


def scenes_dir() -> Path:
    """The bundled scenes (village.yaml, los-gallery.yaml, their battlefields and figures)."""
    return bundled_dir("scenes")


def replays_dir() -> Path:
    """The bundled replays (they name their scene as ../scenes/NAME.yaml)."""
    return bundled_dir("replays")


def demo_scene() -> Path:
    """The scene `bow3d demo` plays: the bundled village."""
    return scenes_dir() / "village.yaml"


STARTER_LIBRARY = starter_library_dir()
