"""The pictures of the play UI's table aids in docs/ (issue 17), at 1280x720, made through `bow3d play`'s
offscreen script (the same handlers as the mouse and keys):

    python docs/table_pictures.py        # writes docs/play-measure.png, play-who-sees.png, play-move-preview.png,
                                         # play-aim.png and setup.png

play-measure.png: blue-rifle-2 chosen (its reachable cells outlined, seen through the barn's roof), and
the measuring tape from it to red-pistol: the distance in studs and BOW's range band, each band's edge
ticked. play-who-sees.png: the pointer resting on a cell: the enemies that would see a minifig there,
ringed, with their lines of sight. play-move-preview.png: a move previewed (the yellow brick; Enter or
the same click commits). play-aim.png: blue-rifle-2 aims at red-pistol: the line of sight, the odds.
setup.png: `bow3d setup` on the village: the deployment zones, the
army list against a 200-point budget, a spearman just placed for blue and chosen.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PICTURES = {
    "play-measure.png": "camera -20,16,60:28,40,0\nclick-unit blue-rifle-2\ntape blue-rifle-2 red-pistol\n",
    "play-who-sees.png": "camera 0,62,42:26,30,0\nhover 11 28\n",
    "play-move-preview.png": "camera -20,16,60:28,40,0\nclick-unit blue-rifle-2\nclick-cell 13 36\n",
    "play-aim.png": "camera -20,16,60:28,40,0\nclick-unit blue-rifle-2\nclick-unit red-pistol\n",
}


def picture(name: str, commands: str, folder: Path) -> None:
    out = folder / name
    script = folder / f"{name}.txt"
    script.write_text(commands + f"screenshot {out}\n")
    subprocess.run([sys.executable, "-m", "bow3d", "play", str(ROOT / "scenes" / "village.yaml"), "--seed", "1",
                    "--offscreen-script", str(script), "--replay", str(folder / f"{name}.bowreplay")],
                   check=True, cwd=folder)
    shutil.copy(out, ROOT / "docs" / name)


SETUP = "side blue\nchoose blue-rifle-2\nremove\nsheet spearman\nplace 12 5\nchoose blue-spearman-1\n"


def setup_picture(folder: Path) -> None:
    out = folder / "setup.png"
    (folder / "setup.txt").write_text(SETUP + f"screenshot {out}\n")
    subprocess.run([sys.executable, "-m", "bow3d", "setup", str(ROOT / "scenes" / "village.yaml"), "--budget", "200",
                    "--offscreen-script", str(folder / "setup.txt"), "-o", "my-village.yaml"],
                   check=True, cwd=folder)
    shutil.copy(out, ROOT / "docs" / "setup.png")


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        for name, commands in PICTURES.items():
            picture(name, commands, Path(folder))
        setup_picture(Path(folder))
    return 0


if __name__ == "__main__":
    sys.exit(main())
