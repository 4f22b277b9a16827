"""The command line's words in the language spoken: every `--help` text and argparse's own words.

Layer: base (imports only bow3d.i18n). The commands write their help in English, as argparse
expects (`HELP`, `DESCRIPTION`, `help=`...); `translate_parser` then passes each text of a built
parser through the catalogue: a description or an epilog paragraph by paragraph (a paragraph is
one message; the example command lines stay in the translation as they are), a help string whole.
`parser_texts` lists the same texts for the catalogue builder (`python -m bow3d.locale`), so the
catalogue holds exactly what a parser shows. argparse's own words ("usage: ", "options", "the
following arguments are required: %s", ...) are looked up by argparse through its module's `_`
and `ngettext`; `Parser` points them at bow3d's catalogue while it formats or parses, and puts
argparse's back after (ARGPARSE_WORDS lists them for the catalogue).
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Callable, Iterator

from bow3d.i18n import N_, _, ngettext

# argparse's own messages (Python 3.11's argparse.py) that a user of bow3d can meet.
ARGPARSE_WORDS = (
    N_("usage: "), N_("positional arguments"), N_("options"), N_("show this help message and exit"),
    N_("argument %(argument_name)s: %(message)s"), N_("%(prog)s: error: %(message)s\n"),
    N_("unrecognized arguments: %s"), N_("not allowed with argument %s"), N_("ignored explicit argument %r"),
    N_("the following arguments are required: %s"), N_("one of the arguments %s is required"),
    N_("expected one argument"), N_("expected at most one argument"), N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"), N_("unexpected option string: %s"),
    N_("invalid %(type)s value: %(value)r"), N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"), N_("can't open '%(filename)s': %(error)s"),
)


@contextlib.contextmanager
def argparse_speaking() -> Iterator[None]:
    """argparse's own words from bow3d's catalogue inside the block (argparse reads its module's `_`
    and `ngettext` when it speaks), argparse's own functions again after it."""
    before = argparse._, argparse.ngettext  # type: ignore[attr-defined]  # argparse's private names
    argparse._, argparse.ngettext = _, ngettext  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = before  # type: ignore[attr-defined]


class Parser(argparse.ArgumentParser):
    """An ArgumentParser that says usage, errors and its group titles in the language spoken."""

    def __init__(self, *args, **kwargs) -> None:
        with argparse_speaking():
            super().__init__(*args, **kwargs)

    def format_usage(self) -> str:
        with argparse_speaking():
            return super().format_usage()

    def format_help(self) -> str:
        with argparse_speaking():
            return super().format_help()

    def parse_args(self, args=None, namespace=None):
        with argparse_speaking():   # argparse says "unrecognized arguments" here, after parse_known_args
            return super().parse_args(args, namespace)

    def parse_known_args(self, args=None, namespace=None):
        with argparse_speaking():
            return super().parse_known_args(args, namespace)

    def error(self, message: str):
        with argparse_speaking():
            return super().error(message)


def _paragraphs(text: str, say: Callable[[str], str]) -> str:
    return "\n\n".join(say(part) if part.strip() else part for part in text.split("\n\n"))


def _visit(parser: argparse.ArgumentParser, say: Callable[[str], str]) -> None:
    """Pass every text the commands wrote into `parser` (and its subparsers) through `say`."""
    if parser.description:
        parser.description = _paragraphs(parser.description, say)
    if parser.epilog:
        parser.epilog = _paragraphs(parser.epilog, say)
    for group in parser._action_groups:
        if group.title and group not in (parser._positionals, parser._optionals):   # argparse's: said by argparse
            group.title = say(group.title)
    for action in parser._actions:
        if action.help and action.help is not argparse.SUPPRESS and not isinstance(action, argparse._HelpAction):
            action.help = say(action.help)
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                if choice.help:
                    choice.help = say(choice.help)
            for sub in dict.fromkeys(action.choices.values()):
                _visit(sub, say)


def translate_parser(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """`parser` with its descriptions, epilogs, group titles and help strings in the language spoken."""
    _visit(parser, _)
    return parser


def parser_texts(parser: argparse.ArgumentParser) -> list[str]:
    """Every message `translate_parser` would look up in `parser` (built in English), once, in order."""
    texts: dict[str, None] = {}

    def note(text: str) -> str:
        texts.setdefault(text)
        return text

    _visit(parser, note)
    return list(texts)


__all__ = ["ARGPARSE_WORDS", "Parser", "argparse_speaking", "parser_texts", "translate_parser"]
