"""Build step only (the project's metadata is in pyproject.toml): a wheel carries the repository's
starter LDraw library, scenes and replays as package data, in bow3d/_bundled/<folder>/, where
bow3d.bundled finds them once installed. An editable install (pip install -e .) uses the
folders in place and copies nothing."""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
FOLDERS = ("ldraw_library", "scenes", "replays")  # = bow3d.bundled.FOLDERS
SKIPPED = {".py", ".pyc"}  # the generators of the scenes and replays stay in the repository


class BuildPyWithBundledData(build_py):
    """build_py, then the bundled folders copied into the built package."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / "bow3d" / "_bundled"
        for folder in FOLDERS:
            for source in sorted((ROOT / folder).rglob("*")):
                if source.is_file() and source.suffix not in SKIPPED and "__pycache__" not in source.parts:
                    destination = target / folder / source.relative_to(ROOT / folder)
                    destination.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(source, destination)


setup(cmdclass={"build_py": BuildPyWithBundledData})
