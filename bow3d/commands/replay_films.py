"""`bow3d replay films DIR`: film every replay of a folder on the batch executor (local processes or Ray).

Not a command of its own (no NAME): `bow3d replay` dispatches `films` here.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bow3d.errors import UserInputError
from bow3d.i18n import _, decimal


def films(folder: Path, args: argparse.Namespace) -> int:
    """Film each .bowreplay / .bowpack directly in `folder` into -o DIR (default: beside them) as NAME.mp4.
    Every target is checked before the long work; a replay that cannot be filmed is named and skipped
    (exit 2 at the end); Ctrl+C keeps the films already written (exit 130)."""
    from bow3d.batch import open_executor
    from bow3d.commands.render import parse_size
    from bow3d.commands.simulate import engine_workers
    from bow3d.paths import check_new, make_folder, write_new
    from bow3d.view.film.films import FilmJob, replays_in

    if not folder.is_dir():
        raise UserInputError(_("{folder}: 'bow3d replay films' takes a folder of replays").format(folder=folder))
    replays = replays_in(folder)
    if not replays:
        raise UserInputError(_("{folder}: no .bowreplay or .bowpack file in this folder").format(folder=folder))
    out_dir = Path(args.out) if args.out else folder
    size = parse_size(args.size or "1280x720")
    args.fps = 30 if args.fps is None else args.fps
    if not 1 <= args.fps <= 120:
        raise UserInputError(_("--fps {fps}: give a whole number of frames per second from 1 to 120, "
                               "e.g. 30").format(fps=args.fps))
    make_folder(out_dir, "-o")
    targets = {str(r.resolve()): out_dir / f"{r.stem}.mp4" for r in replays}
    for target in targets.values():
        check_new(target, force=args.force)
    job = FilmJob(size, args.fps, str(Path(args.scene).resolve()) if args.scene else None, tuple(args.allow_library))
    written, problems = 0, []
    try:
        with open_executor(args.engine, engine_workers(args, len(replays)), args.address) as executor:
            for result in executor.map(job, list(targets), total=len(targets), label=_("films"), unit=_("film"),
                                       progress=not args.no_progress):
                if result.problem:
                    problems.append(result.problem)
                    print(_("skipped: {problem}").format(problem=result.problem), file=sys.stderr)
                    continue
                write_new(targets[result.replay], result.data, force=args.force)
                written += 1
                print(_("wrote {out}: {frames} frames, {seconds} s").format(
                    out=targets[result.replay], frames=result.frames, seconds=decimal(result.seconds)), flush=True)
    except KeyboardInterrupt:
        print(_("interrupted: {written} of {n} films written in {folder}").format(
            written=written, n=len(targets), folder=out_dir), file=sys.stderr)
        return 130
    print(_("{written} of {n} films written in {folder}").format(written=written, n=len(targets), folder=out_dir))
    if problems:
        raise UserInputError(_("{value} replay{value2} could not be filmed (named above)")
                             .format(value=len(problems), value2='s' if len(problems) > 1 else ''))
    return 0
