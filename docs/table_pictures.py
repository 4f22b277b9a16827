"""The pictures of the play UI's table aids in docs/ (issue 17), at 1280x720, made through `bow3d play`'s
offscreen script (the same handlers as the mouse and keys):

    python docs/table_pictures.py        # writes docs/play-measure.png, play-who-sees.png, play-move-preview.png,
                                         # play-aim.png, play-melee.png, viewer-tape.png,
                                         # cards-village-screen.png and setup.png

play-measure.png: blue-rifle-2 chosen (its reachable cells outlined, seen through the barn's roof), and
the measuring tape from it to red-pistol: the distance in studs and BOW's range band, each band's edge
ticked. play-who-sees.png: the pointer resting on a cell: the enemies that would see a minifig there,
ringed, with their lines of sight. play-move-preview.png: a move previewed (the yellow pillar; Enter or
the same click commits). play-aim.png: blue-rifle-2 aims at red-pistol: the line of sight, the odds. play-melee.png: blue-sword
chosen next to the red line (a copy of the village with blue-sword moved to [40.5, 33.5], made for this
picture): red-pistol, in its sword's reach now, ringed magenta; the lit cells from which a charge would
reach red-spear framed magenta. viewer-tape.png: `bow3d view --tape blue-rifle-2:red-pistol`, the
viewer's first view with the tape laid. cards-village-screen.png: `bow3d cards --paper screen`, page 1.
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
WIDE = "camera -22,2,58:20,30,0\n"  # both armies, the blue one above the prompt line
PICTURES = {
    "play-measure.png": WIDE + "click-unit blue-rifle-2\ntape blue-rifle-2 red-pistol\n",
    "play-who-sees.png": "camera 0,62,42:26,30,0\nhover 11 28\n",
    "play-move-preview.png": "camera -8,12,40:10,32,0\nclick-unit blue-rifle-2\nclick-cell 9 32\n",
    "play-aim.png": WIDE + "click-unit blue-rifle-2\nclick-unit red-pistol\n",
}
MELEE = ("play-melee.png", "camera 24,16,34:44,34,0\nclick-unit blue-sword\n",
         ("position: [12.5, 31.5]", "position: [40.5, 33.5]"))  # blue-sword, moved up to the red line


def picture(name: str, commands: str, folder: Path, scene: Path = ROOT / "scenes" / "village.yaml") -> None:
    out = folder / name
    script = folder / f"{name}.txt"
    script.write_text(commands + f"screenshot {out}\n")
    subprocess.run([sys.executable, "-m", "bow3d", "play", str(scene), "--seed", "1",
                    "--offscreen-script", str(script), "--replay", str(folder / f"{name}.bowreplay")],
                   check=True, cwd=folder)
    shutil.copy(out, ROOT / "docs" / name)


def melee_picture(folder: Path) -> None:
    """The village with blue-sword moved up to the red line (its files copied beside it: a scene's files stay in
    its folder)."""
    name, commands, (old, new) = MELEE
    copy = folder / "melee"
    shutil.copytree(ROOT / "scenes" / "figures", copy / "figures")
    shutil.copy(ROOT / "scenes" / "village.ldr", copy / "village.ldr")
    text = (ROOT / "scenes" / "village.yaml").read_text()
    assert text.count(old) == 1, old
    (copy / "village.yaml").write_text(text.replace(old, new))
    picture(name, commands, folder, copy / "village.yaml")


def viewer_and_cards_pictures(folder: Path) -> None:
    village = str(ROOT / "scenes" / "village.yaml")
    subprocess.run([sys.executable, "-m", "bow3d", "view", village, "--screenshot", str(folder / "viewer-tape.png"),
                    "--tape", "blue-rifle-2:red-pistol"], check=True, cwd=folder)
    shutil.copy(folder / "viewer-tape.png", ROOT / "docs" / "viewer-tape.png")
    subprocess.run([sys.executable, "-m", "bow3d", "cards", village, "-o", str(folder / "cards.png"),
                    "--paper", "screen"], check=True, cwd=folder)
    shutil.copy(folder / "cards.png", ROOT / "docs" / "cards-village-screen.png")


SETUP = "side blue\nchoose blue-rifle-2\nremove\nsheet spearman\nplace 9 8\nchoose blue-spearman-1\n"


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
        melee_picture(Path(folder))
        viewer_and_cards_pictures(Path(folder))
        setup_picture(Path(folder))
    return 0


if __name__ == "__main__":
    sys.exit(main())
