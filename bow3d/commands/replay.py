"""`bow3d replay`: show a replay's battle log, verify it by re-simulation, watch it or film it."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from bow3d.errors import ReplayError, UserInputError
from bow3d.i18n import N_, _, decimal, integer, percent

NAME = "replay"
ORDER = 40
HELP = "show, verify, watch, film or pack a replay file (.bowreplay, or a .bowpack)"
DESCRIPTION = """Replay files (.bowreplay, JSON Lines) record a whole game: the scene (its path and the
digest of its meaning: armies, rules and battlefield geometry, not its bytes), the ruleset, the seed
and how chance was produced, then every action and every throw with its outcome, and an end record
once the game is over.

  bow3d replay show FILE      print the battle log round by round in plain words
  bow3d replay verify FILE    re-simulate on the scene's 3D world: every record legal, every event
                              identical, every seeded throw and every AI choice re-derived from the
                              seed, the header checked against the scene; says "complete" or
                              "incomplete (stopped after round N)", else names the first bad record
  bow3d replay FILE           watch it in the interactive viewer
  bow3d replay FILE --video out.mp4 [--quality draft|default|high] [--size 1280x720] [--fps 30]
                              [--clip START:END] [--gif out.gif] [--force]
                              film it (H.264), with a progress bar and the time left; an existing
                              file is kept unless --force (exit 2). A minute at 1280x720 is about
                              7 MB in draft, 18 MB by default, 32 MB in high quality
  bow3d replay FILE --gif out.gif --clip START:END [--size 480x270] [--fps 10]
                              a GIF to share (at most 30 s of the film; with --video as well, the
                              GIF is 480 pixels wide at 10 frames/s)
  bow3d replay FILE --check-shots [--size 1280x720]
                              the film check: every shot's subject, its share seen from the camera
                              (3D world rays) and of the frame; the worst shot last
  bow3d replay films DIR [-o OUTDIR] [--engine local|ray]
                              film every replay of a folder, shared among workers (processes here or
                              Ray: see bow3d simulate --help), with a progress bar
  bow3d replay pack FILE -o game.bowpack [--with-parts]
                              one file with the replay, its scene, the battlefield, every unit
                              model and every part that is not the LDraw library's (library parts
                              are named, or included with --with-parts): it verifies and films
                              anywhere, with no LDRAWDIR and nothing else beside it

Every replay command (and bow3d export, bow3d report) reads a .bowpack as it reads a replay.

The scene is looked for beside the replay (the header's path is relative to it), else from the
working folder (--scene gives it). A corrupted or cut-short file, a replay of another scene
(sha256 mismatch), a forged throw or header, or an illegal record gets one line of explanation
and exit code 2; so does a game without its end (verify --allow-incomplete accepts a game that
was stopped). Of a cut-short file, the entries before the damaged last line are still shown and
verified. Replays written by older bow3d versions are read and verified as they are.

examples:
  bow3d replay show replays/village-seed1.bowreplay
  bow3d replay verify replays/los-gallery-seed1.bowreplay
  bow3d replay verify test.bowreplay --allow-incomplete    # a game stopped early (bow3d play --help)
  bow3d replay replays/village-seed1.bowreplay --video village.mp4 --size 1920x1080
  bow3d replay replays/village-seed1.bowreplay --video village-draft.mp4 --quality draft
  bow3d replay replays/village-seed1.bowreplay --video charge.mp4 --quality high --clip 10:25
  bow3d replay replays/village-seed1.bowreplay --gif charge.gif --clip 10:20
  bow3d replay pack replays/village-seed1.bowreplay -o village.bowpack
  bow3d replay verify village.bowpack"""

SUBCOMMANDS = ("show", "verify", "pack", "films")

# --quality: sizes measured on the village film's first 20 s at 1280x720 (2.3, 6.1 and 10.8 MB) (x264 CRF/preset in bow3d.view.film.encoder)
QUALITY_HELP = {"draft": "CRF 30, about 7 MB a minute at 1280x720, for a quick look",
                "default": "CRF 23, about 18 MB a minute",
                "high": "CRF 18 and 4x anti-aliasing (multisampling), about 32 MB a minute, slower to render"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("what", metavar="show|verify|pack|FILE", help="'show', 'verify' or 'pack' followed by FILE, "
                        "or a FILE to watch or film")
    parser.add_argument("file", nargs="?", metavar="FILE", help="the replay file or pack (after show, verify or pack)")
    parser.add_argument("--video", metavar="OUT.mp4", help="film the replay into this video file")
    parser.add_argument("--size", metavar="WxH", help="video size (default 1280x720; a GIF alone: 480x270)")
    parser.add_argument("--fps", type=int, help="video frames per second (default 30; a GIF alone: 10)")
    parser.add_argument("--quality", choices=tuple(QUALITY_HELP), default="default",
                        help="the film's quality and size: " + "; ".join(f"{k}: {v}" for k, v in QUALITY_HELP.items()))
    parser.add_argument("--gif", metavar="OUT.gif", help="also (or, without --video, only) write an animated GIF "
                        "of the film or its --clip (at most 30 s): 480 pixels wide at 10 frames/s, one palette")
    parser.add_argument("--clip", metavar="START:END", help="only these seconds of the film, e.g. 10:25 (10: to the "
                        "end), for --video and --gif")
    parser.add_argument("--force", action="store_true", help="overwrite an existing video file or pack")
    parser.add_argument("--check-shots", action="store_true",
                        help="measure every shot of the film (at --size): how much of its subject the camera sees "
                             "(rays of the 3D world) and how big it is on screen; prints every shot and the worst, "
                             "exit 1 when a shot is below 50 %% seen or 5 %% of the frame")
    parser.add_argument("-o", "--out", metavar="OUT.bowpack", help="pack: the pack file to write; films: the folder "
                        "for the films (default: the replays' folder)")
    parser.add_argument("--with-parts", action="store_true",
                        help="pack: include the LDraw library files the models use (else named only)")
    parser.add_argument("--json", action="store_true", help="show/verify: print JSON for scripts")
    parser.add_argument("--scene", metavar="SCENE.yaml", help="the scene file, when it is not where the header says")
    parser.add_argument("--allow-incomplete", action="store_true",
                        help="verify: accept a game that stopped before its end (no end record)")
    add_allow_library(parser)
    from bow3d.commands.simulate import add_engine_arguments

    add_engine_arguments(parser, "films: every core")


def add_allow_library(parser: argparse.ArgumentParser) -> None:
    """--allow-library NAME, for every command that reads a pack (bow3d.replay.open_replay)."""
    parser.add_argument("--allow-library", action="append", default=[], metavar="NAME",
                        help="take a pack's own LDraw parts where they differ from the library its game names "
                             "(NAME: the pack's library, 'pack-' and 12 hex digits, as the refusal names it)")


def _split(args: argparse.Namespace) -> tuple[str, Path]:
    """('show' | 'verify' | 'watch', file) from the two positional words."""
    if args.what in SUBCOMMANDS and args.file is not None:
        return args.what, Path(args.file)
    if args.file is not None:
        raise UserInputError(_("unknown replay command {what!r}: use 'show FILE', 'verify FILE', 'pack "
                               "FILE' or just FILE").format(what=args.what))
    if args.what in SUBCOMMANDS and not Path(args.what).is_file():
        raise UserInputError(_("'bow3d replay {what}' needs a replay FILE").format(what=args.what))
    return "watch", Path(args.what)


def run(args: argparse.Namespace) -> int:
    command, path = _split(args)
    if command != "watch" and (args.video or args.gif or args.clip):
        raise UserInputError(_("--video, --gif and --clip go with 'bow3d replay FILE --video OUT.mp4', "
                               "not with {command}").format(command=command))
    if command == "show":
        return show(path, args.json, args.scene, args.allow_library)
    if command == "verify":
        return verify(path, args.json, args.scene, args.allow_incomplete, args.allow_library)
    if command == "pack":
        return pack(path, args)
    if command == "films":
        from bow3d.commands.replay_films import films

        return films(path, args)
    if args.out or args.with_parts:
        raise UserInputError(_("-o and --with-parts go with 'bow3d replay pack FILE -o OUT.bowpack'"))
    return watch(path, args)


def pack(path: Path, args: argparse.Namespace) -> int:
    """Write one .bowpack with the replay and everything it needs to re-play anywhere."""
    from bow3d.replay.pack import SUFFIX
    from bow3d.replay.packing import write_pack

    if not args.out:
        raise UserInputError(_("bow3d replay pack needs -o OUT{SUFFIX}: the pack file to write").format(SUFFIX=SUFFIX))
    summary = write_pack(path, args.out, with_parts=args.with_parts, scene=args.scene, force=args.force,
                         allow_library=args.allow_library)
    parts = _("included") if summary.parts_included else _("named (every bow3d has the bundled ones; "
                                                            "--with-parts includes them)")
    print(_("wrote {path}: {replay}, its scene and {files} files of its own, {library} LDraw library files "
            "{parts}; {size} kB").format(path=summary.path, replay=summary.replay, files=summary.scene_files - 1,
                                         library=summary.library_files, parts=parts,
                                         size=integer(round(summary.bytes / 1024))))
    return 0


def show(path: Path, as_json: bool = False, scene: str | None = None, allow_library: Sequence[str] = ()) -> int:
    """Print the battle log round by round; a cut-short last line is reported (exit 2)."""
    from bow3d.replay.log import battle_log
    from bow3d.replay.opened import open_replay

    opened = open_replay(path, scene, allow_library=allow_library)
    log = battle_log(opened)
    replay = opened.replay
    if as_json:
        end = replay.end.model_dump(mode="json") if replay.end is not None else None
        print(json.dumps({"header": replay.header.model_dump(mode="json"), "entries": len(replay.entries),
                          "truncated": replay.truncation, "end": end, "rounds": log.rounds_as_dict()}, indent=2))
    else:
        print(log.format())
    if replay.truncated:
        raise ReplayError(str(replay.truncation))
    return 0


KIND_WORDS = {"divergence": N_("diverges at "), "chance": N_("forged throw at "), "player": N_("forged choice at "),
              "header": N_("forged header: "), "end": N_("forged end: ")}


def verify(path: Path, as_json: bool = False, scene: str | None = None, allow_incomplete: bool = False,
           allow_library: Sequence[str] = ()) -> int:
    """Re-simulate and check; ok -> exit 0, any problem (an incomplete game too, unless allowed) ->
    one line, exit 2."""
    from bow3d.replay.opened import open_replay
    from bow3d.replay.verify import verify_replay

    opened = open_replay(path, scene, allow_library=allow_library)
    result = verify_replay(opened)
    accepted = result.ok and not result.truncated and (result.complete or allow_incomplete)
    if as_json:
        print(json.dumps({"ok": accepted, "verified": result.ok, "status": result.status, "complete": result.complete,
                          "entries": result.entries, "problem": result.first_divergence, "kind": result.kind,
                          "entry": result.entry, "truncated": result.truncation, "winner": result.winner,
                          "result": result.result, "rounds": result.rounds, "chance_checked": result.chance_checked,
                          "players_checked": list(result.players_checked)}, indent=2))
        return 0 if accepted else 2
    if not result.ok:
        raise ReplayError(_("{path}: {value}{first_divergence}")
                          .format(path=path, value=_(KIND_WORDS[result.kind]) if result.kind in KIND_WORDS else "", first_divergence=result.first_divergence))
    if result.truncated:
        raise ReplayError(_("{truncation}; those {entries} entries re-simulate identically")
                          .format(truncation=result.truncation, entries=result.entries))
    checks = [_("every event identical")]
    checks.append(_("every throw re-derived from the seeded generator") if result.chance_checked
                  else _("throws entered by hand (not checked against a generator)"))
    if result.players_checked:
        checks.append(_("the AI's choices re-derived for {sides}").format(sides=", ".join(result.players_checked)))
    elif result.ai_note:
        checks.append(result.ai_note)
    if opened.parts is not None:   # the pack's own parts decided the world: say so, and how they compare
        checks.append(opened.parts.words())
    if not result.complete:
        outcome = _("no result")
    else:
        how = opened.narrator().result(result.result)   # the ruleset's words for its result
        outcome = (_("winner: {side} ({result})").format(side=result.winner, result=how) if result.winner
                   else _("no winner ({result})").format(result=how))
    status = _("complete") if result.complete else _("incomplete (stopped after round {round})").format(
        round=result.rounds)
    line = _("{path}: {entries} entries re-simulated, {checks}; {status}: {outcome}").format(
        path=path, entries=result.entries, checks=", ".join(checks), status=status, outcome=outcome)
    if not result.complete and not allow_incomplete:
        raise ReplayError(_("{line}. The game has no end: add --allow-incomplete to accept a stopped "
                            "game").format(line=line))
    print(_("ok: {line}").format(line=line))
    return 0


def watch(path: Path, args: argparse.Namespace) -> int:
    """Open the interactive viewer, or film the replay with --video (view hooks, loaded lazily)."""
    from bow3d.replay.opened import open_replay

    opened = open_replay(path, args.scene, allow_library=args.allow_library)  # refused here, before any window
    opened.scene()
    replay = opened.replay
    if replay.truncated:
        print(f"warning: {replay.truncation}", file=sys.stderr)
    if args.check_shots:
        return check_shots(path, args)
    if args.video or args.gif:
        return film(path, args)
    if args.clip or args.quality != "default":
        raise UserInputError(_("--clip and --quality go with --video OUT.mp4 or --gif OUT.gif"))
    try:
        from bow3d.view.apps.replay_viewer import open_replay_viewer
    except ImportError as error:
        raise UserInputError(_("the replay viewer is not available in this bow3d ({error})").format(error=error)) from None
    open_replay_viewer(path, scene=args.scene, allow_library=args.allow_library)
    return 0


def film(path: Path, args: argparse.Namespace) -> int:
    """--video and/or --gif: the film (or its --clip) at --quality; existing files refused unless --force."""
    from bow3d.commands.render import parse_size
    from bow3d.paths import check_new

    video = Path(args.video) if args.video else None
    gif = Path(args.gif) if args.gif else None
    for out, suffix in ((video, ".mp4"), (gif, ".gif")):
        if out is not None and out.suffix.lower() != suffix:
            raise UserInputError(_("{out}: give a file name ending in {suffix}").format(out=out, suffix=suffix))
        if out is not None:
            check_new(out, force=args.force)  # before the long work: an existing file is never overwritten
    if video is not None and gif is not None and video.resolve() == gif.resolve():
        raise UserInputError(_("--video and --gif name the same file"))
    try:
        from bow3d.view.film.encoder import GIF_FPS, GIF_WIDTH
        from bow3d.view.film.video import parse_clip, render_replay_video
    except ImportError as error:
        raise UserInputError(_("video export is not available in this bow3d ({error})").format(error=error)) from None
    clip = parse_clip(args.clip)
    if video is None:  # a GIF alone is rendered at its own small size and rate
        size, fps = parse_size(args.size or f"{GIF_WIDTH}x{GIF_WIDTH * 9 // 16}"), (args.fps if args.fps is not None else GIF_FPS)
        gif_width, gif_fps = None, None
    else:
        size, fps = parse_size(args.size or "1280x720"), (args.fps if args.fps is not None else 30)
        gif_width, gif_fps = GIF_WIDTH, min(GIF_FPS, fps)
    stats = render_replay_video(path, video, size=size, fps=fps, progress=not getattr(args, "no_progress", False),
                                overwrite=args.force,
                                scene=args.scene, quality=args.quality, clip=clip, gif_path=gif,
                                gif_width=gif_width, gif_fps=gif_fps, allow_library=args.allow_library)
    what = f"{decimal(stats.seconds)} s" + (f" (--clip {clip.text()})" if clip else "")
    for out in (video, gif):
        if out is not None:
            size_b = out.stat().st_size
            size_words = (_("{size} MB").format(size=decimal(size_b / 1e6)) if size_b >= 1e6
                          else _("{size} kB").format(size=f"{size_b / 1e3:.0f}"))
            print(_("wrote {out}: {what}, {size}").format(out=out, what=what, size=size_words))
    print(_("{frames} frames rendered at {rate} frames/s").format(frames=stats.frames, rate=decimal(stats.encode_fps)))
    return 0


def check_shots(path: Path, args: argparse.Namespace) -> int:
    """Print the film check of every shot and the worst one; exit 1 when a shot is below the bar."""
    from bow3d.commands.render import parse_size
    from bow3d.view.film.shot_check import MIN_SCREEN, MIN_VISIBLE, worst_shot
    from bow3d.view.film.video import check_replay_shots

    reports = check_replay_shots(path, parse_size(args.size or "1280x720"), scene=args.scene,
                                 allow_library=args.allow_library)
    for report in reports:
        if report.subjects:
            print(report.format())
        else:
            print(_("{times} (wide: not measured)").format(times=report.times()))
    worst = worst_shot(reports)
    below = [r for r in reports if r.subjects and not r.ok]
    if worst is None:
        print(_("no shot has a subject"))
        return 0
    print(_("worst: {shot}").format(shot=worst.format().strip()))
    print(_("{n} of {total} shots below {visible} seen or {screen} of the frame").format(
        n=len(below), total=sum(1 for r in reports if r.subjects), visible=percent(MIN_VISIBLE),
        screen=percent(MIN_SCREEN)) if below else _("every shot's subject is seen and big enough"))
    return 1 if below else 0
