"""Make the pictures of docs/ that show bow3d in French (issue 16), offscreen, at 1280x720:

    python docs/french_pictures.py [OUTDIR]     (default: docs/)

    viewer-village-fr.png   `bow3d --lang fr view`: blue-rifle-2 chosen (its sheet in French) and its line of
                            sight to red-pistol, with the verdict and the key help in French
    play-aim-fr.png         `bow3d --lang fr play`: the player whose turn it is aims its rifleman (or pistolero)
                            at the other: the HUD, the odds, the prompt and the actions in French

Both go through the command line exactly as a player types it (the --screenshot and --offscreen-script
twins of the window). Existing pictures are replaced. The film frame (docs/film-village-fr.png) comes
from `bow3d --lang fr replay ... --video`.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VILLAGE = ROOT / "scenes" / "village.yaml"
# With seed 1 blue wins the initiative (the starting-player throws are seeded): its rifleman aims at red-pistol.
PLAY_SCRIPT = """click-unit blue-rifle-2
click-unit red-pistol
screenshot {out}
"""


def main(argv: list[str]) -> int:
    from bow3d.cli import main as bow3d

    out_dir = Path(argv[0]) if argv else ROOT / "docs"
    viewer = out_dir / "viewer-village-fr.png"
    code = bow3d(["--lang", "fr", "view", str(VILLAGE), "--screenshot", str(viewer), "--force", "--size", "1280x720",
                  "--select", "blue-rifle-2", "--los", "blue-rifle-2:red-pistol"])
    if code:
        return code
    play = out_dir / "play-aim-fr.png"
    play.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory() as work:
        script = Path(work) / "aim.txt"
        script.write_text(PLAY_SCRIPT.format(out=play), encoding="utf-8")
        return bow3d(["--lang", "fr", "play", str(VILLAGE), "--seed", "1", "--size", "1280x720",
                      "--offscreen-script", str(script), "--replay", str(Path(work) / "aim.bowreplay")])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
