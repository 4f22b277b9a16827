"""The `bow3d` command line: a thin dispatcher over the layers.

Each subcommand lives in its own module under `bow3d.commands` and exposes
`NAME`, `HELP`, `add_arguments(parser)` and `run(args) -> int`; they are found
by name so that adding a command never touches this file.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import pkgutil
import signal
import sys
import threading
from collections.abc import Iterator
from types import ModuleType

import bow3d.commands
from bow3d import __version__
from bow3d.cli_words import Parser, translate_parser
from bow3d.errors import Bow3dError
from bow3d.i18n import _, choose, speaking

EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_USAGE = 2
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


class Terminated(BaseException):
    """A stop signal (SIGTERM, SIGHUP) raised where the command is, so that every `finally` and context
    manager runs (temporary files removed) before the exit code 128 + signal number."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def _stop_signals_unwind() -> Iterator[None]:
    """SIGTERM and SIGHUP raise Terminated while the block runs (in the main thread); a second one while
    the first unwinds is ignored, so that the cleaning is not cut short."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: object) -> None:
        for number in STOP_SIGNALS:
            signal.signal(number, signal.SIG_IGN)
        raise Terminated(signum)

    previous = {number: signal.signal(number, stop) for number in STOP_SIGNALS}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler if handler is not None else signal.SIG_DFL)


def _command_modules(only: str | None = None) -> list[ModuleType]:
    """The command modules (each found by its file name, which is its NAME), or just `only`'s."""
    modules = []
    for info in pkgutil.iter_modules(bow3d.commands.__path__):
        if info.name.startswith("_") or (only is not None and info.name != only):
            continue
        module = importlib.import_module(f"bow3d.commands.{info.name}")
        if hasattr(module, "NAME") and hasattr(module, "run"):
            modules.append(module)
    return sorted(modules, key=lambda m: getattr(m, "ORDER", 50))


def _chosen_command(argv: list[str]) -> str | None:
    """The command named on the command line (the first word that is no option), when it is one."""
    word = next((a for a in argv if not a.startswith("-")), None)
    known = {info.name for info in pkgutil.iter_modules(bow3d.commands.__path__) if not info.name.startswith("_")}
    return word if word in known else None


def _asked_language(argv: list[str]) -> str | None:
    """The value of `--lang X` / `--lang=X` wherever it stands (read before the parser is built: the
    help texts are written in the language chosen)."""
    for k, word in enumerate(argv):
        if word == "--lang" and k + 1 < len(argv):
            return argv[k + 1]
        if word.startswith("--lang="):
            return word.split("=", 1)[1]
    return None


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser, one subparser per command module; with `only`, that command's alone (so a
    command imports what it needs and no other command's: `bow3d inspect` starts without the rulesets)."""
    parser = Parser(
        prog="bow3d",
        description="3D battlefield visualiser, line-of-sight referee and replay tool "
        "for brick wargames (BOW: Bricks Only Wargame).",
        epilog="Run 'bow3d COMMAND --help' for the options of one command. "
        "The official LDraw library is found through LDRAWDIR, else the bundled starter library.",
    )
    parser.add_argument("--version", action="version", version=f"bow3d {__version__}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks of internal errors")
    parser.add_argument("--lang", metavar="LANG", help="the language of the words printed (en, fr; "
                        "default: $BOW3D_LANG, else the locale, else English)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in _command_modules(only):
        command = sub.add_parser(
            module.NAME,
            help=module.HELP,
            description=getattr(module, "DESCRIPTION", module.HELP),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        module.add_arguments(command)
        command.set_defaults(_run=module.run)
    return translate_parser(parser)   # the help in the language spoken (bow3d.cli_words)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `bow3d` console command; returns the exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    language, note = choose(_asked_language(argv))
    if note:
        print(note, file=sys.stderr)
    with speaking(language):
        return _main(argv)


def _main(argv: list[str]) -> int:
    parser = build_parser(_chosen_command(argv))
    args = parser.parse_args(argv)
    if not hasattr(args, "_run"):
        parser.print_help()
        return EXIT_USAGE
    try:
        with _stop_signals_unwind():
            return int(args._run(args) or EXIT_OK)
    except Terminated as stop:
        print(_("stopped ({signal})").format(signal=signal.Signals(stop.signum).name), file=sys.stderr)
        return 128 + stop.signum
    except Bow3dError as error:
        print(_("bow3d {command}: error: {error}").format(command=args.command, error=error), file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(_("interrupted"), file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as problem:  # an internal bug: say so plainly, traceback only on request
        if args.debug:
            raise
        print(_("bow3d {command}: internal error ({kind}: {error}). Please report it with the command you ran; "
                "add --debug for the traceback.").format(command=args.command, kind=type(problem).__name__, error=problem),
              file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
