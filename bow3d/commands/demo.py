"""`bow3d demo`: the main job on the bundled village scene, headless, on a fresh machine.

Loads scenes/village.yaml (beside the bow3d package in the checkout), says what it holds, writes a
picture of the battlefield with its armies, plays a short AI game on the scene's 3D world
(writing its replay) and films it. Every output gets a free name: nothing is overwritten.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from bow3d.errors import UserInputError
from bow3d.i18n import _, decimal, integer
from bow3d.ldraw import Library, load_model
from bow3d.paths import free_path, make_folder

NAME = "demo"
ORDER = 1
HELP = "the main job on the bundled village: picture, a short AI game, its replay and its film (headless)"
DESCRIPTION = """Run bow3d's main job on the bundled village scene (64 x 64 studs, two armies, a
jeep and a mounted knight), with no window: load it with the LDraw library (LDRAWDIR's official
library when set, else the bundled starter library), print what it holds (parts, units per side,
BOW Annex A.4 army costs), render the battlefield with its units to DIR/village.png, play a short
AI-against-AI game on the scene's 3D world (line of sight, cover, movement), write its replay to
DIR/village-seed1.bowreplay and film it to DIR/village-seed1.mp4.

Nothing is ever overwritten: a taken name gets -2, -3, ... Where no offscreen graphics pipe
exists the picture and the film are skipped with a note; the game and its replay still happen.

examples:
  bow3d demo
  bow3d demo --out demo/ --seed 7
  bow3d demo --no-video              # picture and game only (the film takes about a minute)
  bow3d demo --no-game --size 1920x1080"""



def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--out", "--output", dest="out", default="bow3d-demo", metavar="DIR",
                        help="folder for the picture, replay and film (default ./bow3d-demo)")
    parser.add_argument("--size", default="1280x720", metavar="WxH", help="picture size (default 1280x720)")
    parser.add_argument("--seed", type=int, default=1, metavar="S",
                        help="seed of the game: brick rolls and AI tie-breaks (default 1)")
    parser.add_argument("--max-rounds", type=int, default=12, metavar="R",
                        help="end the game after this round if nobody has won (default 12)")
    parser.add_argument("--no-game", action="store_true", help="only the picture: no game, replay or film")
    parser.add_argument("--no-video", action="store_true", help="play and record the game but do not film it")
    parser.add_argument("--video-size", default="960x540", metavar="WxH", help="film size (default 960x540)")
    parser.add_argument("--film-seconds", type=float, default=45.0, metavar="S",
                        help="longest film (default 45 s; the director keeps the key moments)")


def demo_scene() -> Path:
    """The bundled village (the checkout's scenes/, or the copy an installed wheel carries)."""
    from bow3d import bundled

    scene = bundled.demo_scene()
    if not scene.is_file():
        raise UserInputError(_("no demo scene at {scene}: this bow3d was installed without its bundled scenes; "
                               "reinstall it (pip install bow3d, or pip install . in the checkout)").format(scene=scene))
    return scene


def _out_dir(text: str) -> Path:
    return make_folder(text, "--out")


def ending_words(scene, ended: str) -> str:
    """How a game ended in the language spoken: the rules' result in the ruleset's words, or the session's
    'record limit' (bow3d.replay.session)."""
    from bow3d.replay.session import RECORD_LIMIT
    from bow3d.rulesets import ruleset_of

    return _("record limit") if ended == RECORD_LIMIT else ruleset_of(scene).narrator().result(ended)


def _step(text: str) -> float:
    print(f"- {text} ...", flush=True)
    return time.perf_counter()


def describe(scene, library: Library) -> list[str]:
    """Lines about the scene: battlefield parts, units per side with their sheets, army costs."""
    model = load_model(scene.battlefield_path, library)
    lines = [_("{name}: battlefield {battlefield} with {parts} parts ({distinct} distinct), {missing} missing, "
               "library {library}").format(name=scene.name, battlefield=scene.battlefield,
                                           parts=integer(len(model.instances)),
                                           distinct=len(model.unique_part_names()),
                                           missing=len(model.missing_parts), library=library.describe())]
    from bow3d.rulesets import ruleset_of

    costs = ruleset_of(scene).army_costs(scene) or {}
    for side in scene.sides:
        units = scene.units_of(side.id)
        vehicles = [v for v in scene.vehicles if v.side == side.id]
        kinds: dict[str, int] = {}
        for unit in units:
            kinds[unit.sheet] = kinds.get(unit.sheet, 0) + 1
        cost = _(", {points} cost points (BOW A.4)").format(points=costs[side.id]) if side.id in costs else ""
        lines.append("  " + _("{side}: {n} minifigs ({kinds})").format(
            side=side.name, n=len(units), kinds=", ".join(f"{n} {k}" for k, n in kinds.items()))
                     + f"{', ' if vehicles else ''}{', '.join(v.id for v in vehicles)}{cost}")
    return lines


def render_picture(scene, library: Library, out: Path, size: tuple[int, int]) -> Path | None:
    """The battlefield with its units, seen across the battle line (both armies in the picture); None (with a note) where no graphics pipe exists."""
    from bow3d.view.output.offscreen import RenderUnavailable
    from bow3d.view.output.still import render_scene_still

    target = free_path(out, "village", ".png")
    started = _step(_("rendering the battlefield with its units ({width}x{height})").format(width=size[0],
                                                                                           height=size[1]))
    try:
        stats = render_scene_still(scene, target, size, "armies", "default", False, None, library)
    except RenderUnavailable as error:
        print("  " + _("skipped the picture: no offscreen graphics pipe here ({error})").format(error=error))
        return None
    print("  " + _("wrote {path} ({triangles} triangles, {seconds} s)").format(
        path=target, triangles=integer(stats.triangles), seconds=decimal(time.perf_counter() - started)))
    return target


def play_short_game(scene, library: Library, out: Path, seed: int, max_rounds: int) -> Path:
    """An AI-against-AI game on the scene's 3D world, its replay written as it goes (C4)."""
    from bow3d.replay import ReplayWriter
    from bow3d.replay.format import library_kind
    from bow3d.replay.session import play_game
    from bow3d.world import World

    started = _step(_("building the 3D world (line of sight, cover, movement grid)"))
    world = World.from_scene(scene, library)
    print("  " + _("ready in {seconds} s").format(seconds=decimal(time.perf_counter() - started)))
    target = free_path(out, f"village-seed{seed}", ".bowreplay")
    players = {side.id: "ai" for side in scene.sides}
    started = _step(_("playing a short AI game (seed {seed}, at most {rounds} rounds)").format(seed=seed,
                                                                                               rounds=max_rounds))
    # the header names the library, so the replay verifies wherever LDRAWDIR points
    with ReplayWriter(target, scene, seed, players, max_rounds=max_rounds, library=library_kind(library),
                      sight=world.SIGHT_METHOD) as writer:
        result = play_game(scene, world, None, seed, writer=writer, max_rounds=max_rounds)
    winner = _("{side} wins").format(side=result.winner) if result.winner else _("no winner")
    print("  " + _("{winner} after {rounds} rounds ({ended}), {records} records, {seconds} s; replay {path}").format(
        winner=winner, rounds=result.rounds, ended=ending_words(scene, result.ended), records=result.records,
        seconds=decimal(time.perf_counter() - started), path=target))
    return target


def film(replay: Path, out: Path, size: tuple[int, int], seconds: float) -> Path | None:
    """The replay filmed to an MP4 (C5); None (with a note) where no graphics pipe exists."""
    from bow3d.view.film.video import render_replay_video
    from bow3d.view.output.offscreen import RenderUnavailable

    target = free_path(out, replay.stem, ".mp4")
    started = _step(_("filming the replay ({width}x{height}, at most {seconds} s of film)").format(
        width=size[0], height=size[1], seconds=f"{seconds:g}"))
    try:
        stats = render_replay_video(replay, target, size, 30, True, max_seconds=seconds)
    except RenderUnavailable as error:
        print("  " + _("skipped the film: no offscreen graphics pipe here ({error})").format(error=error))
        return None
    print("  " + _("wrote {path} ({frames} frames, {film} s of film, {seconds} s)").format(
        path=target, frames=stats.frames, film=decimal(stats.seconds), seconds=decimal(time.perf_counter() - started)))
    return target


def run(args: argparse.Namespace) -> int:
    from bow3d.commands.render import parse_size
    from bow3d.replay.dice import check_seed
    from bow3d.rulesets import load_scene

    size = parse_size(args.size)
    video_size = parse_size(args.video_size)
    if args.max_rounds < 1:
        raise UserInputError(_("--max-rounds must be at least 1, got {value}").format(value=args.max_rounds))
    check_seed(args.seed)
    if not args.film_seconds > 0:
        raise UserInputError(_("--film-seconds must be positive, got {value}").format(value=args.film_seconds))
    out = _out_dir(args.out)
    started = _step(_("loading {scene}").format(scene=demo_scene()))
    scene = load_scene(demo_scene())
    library = Library.from_env()
    for line in describe(scene, library):
        print(f"  {line}")
    written = [render_picture(scene, library, out, size)]
    if not args.no_game:
        replay = play_short_game(scene, library, out, args.seed, args.max_rounds)
        written.append(replay)
        if not args.no_video:
            written.append(film(replay, out, video_size, args.film_seconds))
    done = [str(p) for p in written if p is not None]
    print(_("done in {seconds} s; everything is in {out}/: {files}").format(
        seconds=decimal(time.perf_counter() - started), out=out, files=", ".join(Path(p).name for p in done)))
    return 0
