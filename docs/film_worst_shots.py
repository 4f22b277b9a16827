"""docs/film-worst-shot-<replay>-after.png: the worst shot of each bundled film, as the film check
(`bow3d replay FILE --check-shots`) measures it, drawn at its worst moment.

    python docs/film_worst_shots.py [NAME ...]     # e.g. los-gallery; default: every bundled replay

The frames are 960x540 (the film is measured at 1280x720; the picture is smaller for the docs)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main(names: list[str]) -> None:
    from bow3d.view.film.shot_check import check_film, worst_shot
    from bow3d.view.film.video import MAX_FILM_SECONDS, FilmRenderer, load_timeline

    replays = sorted((ROOT / "replays").glob("*.bowreplay"))
    for path in replays:
        name = path.stem.removesuffix("-seed1")
        if names and name not in names:
            continue
        scene, timeline, opened = load_timeline(path)
        measured = FilmRenderer(scene, timeline, (1280, 720), opened.library(), MAX_FILM_SECONDS, opened.world())
        try:
            worst = worst_shot(check_film(measured.film, opened.world()))
        finally:
            measured.close()
        picture = FilmRenderer(scene, timeline, (960, 540), opened.library(), MAX_FILM_SECONDS, opened.world())
        try:
            out = ROOT / "docs" / f"film-worst-shot-{name}-after.png"
            picture.save_png(worst.worst_s, out)
        finally:
            picture.close()
        print(f"{out.name}: shot {worst.shot} ({worst.kind}) at {worst.worst_s:.2f} s, {worst.subjects}: "
              f"{worst.visible:.0%} seen (least {worst.least:.0%}), {worst.screen:.1%} of the frame")


if __name__ == "__main__":
    main(sys.argv[1:])
