"""`bow3d replay`: show a replay's battle log, verify it by re-simulation, watch it or film it."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bow3d.errors import ReplayError, UserInputError

NAME = "replay"
ORDER = 40
HELP = "show, verify, watch or film a replay file (.bowreplay)"
DESCRIPTION = """Replay files (.bowreplay, JSON Lines) record a whole game: the scene (path and
sha256), the ruleset, the seed, then every action and every brick roll with its result.

  bow3d replay show FILE      print the battle log round by round in plain words
  bow3d replay verify FILE    re-simulate from the header and the recorded rolls on the scene's
                              3D world; print ok, or the first divergence / illegal record
  bow3d replay FILE           watch it in the interactive viewer
  bow3d replay FILE --video out.mp4 [--size 1280x720] [--fps 30] [--force]
                              film it (H.264); an existing file is kept unless --force

The scene is looked for beside the replay (the header's path is relative to it), else from the
working folder. A corrupted or cut-short file, a replay of another scene (sha256 mismatch) or an
illegal record gets one line of explanation and exit code 2; of a cut-short file, the entries
before the damaged last line are still shown and verified.

examples:
  bow3d replay show replays/village-seed1.bowreplay
  bow3d replay verify replays/los-gallery-seed1.bowreplay
  bow3d replay replays/village-seed1.bowreplay --video village.mp4 --size 1920x1080"""

SUBCOMMANDS = ("show", "verify")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("what", metavar="show|verify|FILE", help="'show' or 'verify' followed by FILE, or a FILE "
                        "to watch or film")
    parser.add_argument("file", nargs="?", metavar="FILE", help="the replay file (after show or verify)")
    parser.add_argument("--video", metavar="OUT.mp4", help="film the replay into this video file")
    parser.add_argument("--size", default="1280x720", metavar="WxH", help="video size (default 1280x720)")
    parser.add_argument("--fps", type=int, default=30, help="video frames per second (default 30)")
    parser.add_argument("--force", action="store_true", help="overwrite an existing video file")
    parser.add_argument("--json", action="store_true", help="show/verify: print JSON for scripts")


def _split(args: argparse.Namespace) -> tuple[str, Path]:
    """('show' | 'verify' | 'watch', file) from the two positional words."""
    if args.what in SUBCOMMANDS and args.file is not None:
        return args.what, Path(args.file)
    if args.file is not None:
        raise UserInputError(f"unknown replay command {args.what!r}: use 'show FILE', 'verify FILE' or just FILE")
    if args.what in SUBCOMMANDS and not Path(args.what).is_file():
        raise UserInputError(f"'bow3d replay {args.what}' needs a replay FILE")
    return "watch", Path(args.what)


def run(args: argparse.Namespace) -> int:
    command, path = _split(args)
    if command != "watch" and args.video:
        raise UserInputError("--video goes with 'bow3d replay FILE --video OUT.mp4', not with show or verify")
    if command == "show":
        return show(path, args.json)
    if command == "verify":
        return verify(path, args.json)
    return watch(path, args)


def show(path: Path, as_json: bool = False) -> int:
    """Print the battle log round by round; a cut-short last line is reported (exit 2)."""
    from bow3d.replay.format import read_replay
    from bow3d.replay.log import battle_log

    replay = read_replay(path)
    log = battle_log(replay)
    if as_json:
        print(json.dumps({"header": replay.header.model_dump(mode="json"), "entries": len(replay.entries),
                          "truncated": replay.truncation, "rounds": log.rounds_as_dict()}, indent=2))
    else:
        print(log.format())
    if replay.truncated:
        raise ReplayError(str(replay.truncation))
    return 0


def verify(path: Path, as_json: bool = False) -> int:
    """Re-simulate; ok -> exit 0, any problem -> one line, exit 2."""
    from bow3d.replay.verify import verify_replay

    result = verify_replay(path)
    if as_json:
        print(json.dumps({"ok": result.ok and not result.truncated, "entries": result.entries,
                          "problem": result.first_divergence, "kind": result.kind, "entry": result.entry,
                          "truncated": result.truncation, "winner": result.winner, "rounds": result.rounds},
                         indent=2))
        return 0 if result.ok and not result.truncated else 2
    if not result.ok:
        prefix = "diverges at " if result.kind == "divergence" else ""
        raise ReplayError(f"{path}: {prefix}{result.first_divergence}")
    if result.truncated:
        raise ReplayError(f"{result.truncation}; those {result.entries} entries re-simulate identically")
    outcome = f"{result.winner} wins" if result.winner else "no winner yet"
    print(f"ok: {path}: {result.entries} entries re-simulated, every event identical ({outcome}, "
          f"round {result.rounds})")
    return 0


def watch(path: Path, args: argparse.Namespace) -> int:
    """Open the interactive viewer, or film the replay with --video (view hooks, loaded lazily)."""
    from bow3d.replay.format import read_replay

    replay = read_replay(path)  # a broken file is refused here, before any window opens
    if replay.truncated:
        print(f"warning: {replay.truncation}", file=sys.stderr)
    if args.video:
        from bow3d.commands.render import parse_size

        out = Path(args.video)
        if out.exists() and not args.force:
            raise UserInputError(f"{out} exists; bow3d never overwrites a file: choose another name or add --force")
        size = parse_size(args.size)
        try:
            from bow3d.view.video import render_replay_video
        except ImportError as error:
            raise UserInputError(f"video export is not available in this bow3d ({error})") from None
        stats = render_replay_video(path, out, size=size, fps=args.fps, progress=True, overwrite=args.force)
        print(f"wrote {out}: {stats.frames} frames, {stats.seconds:.1f} s of video, encoded at "
              f"{stats.encode_fps:.1f} frames/s")
        return 0
    try:
        from bow3d.view.replay_viewer import open_replay_viewer
    except ImportError as error:
        raise UserInputError(f"the replay viewer is not available in this bow3d ({error})") from None
    open_replay_viewer(path)
    return 0
