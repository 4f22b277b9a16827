"""The language of the words bow3d prints: GNU gettext catalogues, English and French.

Layer: bottom (imports nothing of bow3d). Words are written at the edges (design.md): narrators
and commands pass their English text through `_()` (or `ngettext()` for plurals) with named
`{placeholders}`, and the catalogue of the chosen language gives it back translated. The
catalogues are `bow3d/locale/<lang>/LC_MESSAGES/bow3d.po` in the repository, compiled to `.mo`
next to them and shipped in the package; `python -m bow3d.locale` extracts the messages from
the source (Babel), updates the `.po` files and compiles them.

The language follows `--lang`, else `BOW3D_LANG`, else the locale (`LC_ALL`, `LC_MESSAGES`,
`LANG`, in POSIX's order of precedence); a language without a catalogue falls back to English
with one line saying so. Numbers are written the language's way: `22.4 studs` / `22,4 tenons`,
`38%` / `38 %`.
"""

from __future__ import annotations

import contextlib
import contextvars
import gettext
import os
from collections.abc import Iterator, Mapping
from pathlib import Path

DOMAIN = "bow3d"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
LANGUAGES = {"en": "English", "fr": "français"}
DEFAULT = "en"
ENVIRONMENT = ("BOW3D_LANG", "LC_ALL", "LC_MESSAGES", "LANG")   # the first one set decides
NEUTRAL = {"c", "posix"}   # LANG=C: no language asked for (English)

_speaking: contextvars.ContextVar[str] = contextvars.ContextVar("bow3d_language", default=DEFAULT)
# the messages asked for in another language than English that its catalogue lacks (see missing())
_missing: contextvars.ContextVar[set | None] = contextvars.ContextVar("bow3d_missing", default=None)
_catalogues: dict[str, gettext.NullTranslations] = {}


def language_code(value: str) -> str:
    """'fr_FR.UTF-8' -> 'fr'; 'en-GB' -> 'en'; 'C.UTF-8' -> 'c'."""
    return value.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].strip().lower()


def choose(option: str | None = None, environ: Mapping[str, str] | None = None) -> tuple[str, str | None]:
    """(language, note): the language of `--lang` (`option`), else of the environment; `note` is the
    line to print when the language asked for has no catalogue (then English), else None."""
    environ = os.environ if environ is None else environ
    asked = [("--lang", option)] + [(name, environ.get(name)) for name in ENVIRONMENT]
    for source, value in asked:
        if not value:
            continue
        code = language_code(value)
        if code in LANGUAGES:
            return code, None
        if code in NEUTRAL:
            return DEFAULT, None
        return DEFAULT, (f"bow3d: no catalogue for the language {value!r} ({source}); "
                         f"available: {', '.join(LANGUAGES)}. Using English.")
    return DEFAULT, None


def catalogue(lang: str) -> gettext.NullTranslations:
    """The compiled catalogue of `lang` (English: the words as written in the source)."""
    if lang not in _catalogues:
        if lang == DEFAULT:
            _catalogues[lang] = gettext.NullTranslations()
        else:
            _catalogues[lang] = gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[lang],
                                                    fallback=True)
    return _catalogues[lang]


def use(lang: str) -> None:
    """Speak `lang` from now on in this process (the command line's choice)."""
    _speaking.set(lang if lang in LANGUAGES else DEFAULT)


def current() -> str:
    """The language spoken now."""
    return _speaking.get()


@contextlib.contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Speak `lang` inside the block (a narrator asked for a language), then as before."""
    token = _speaking.set(lang if lang in LANGUAGES else DEFAULT)
    try:
        yield
    finally:
        _speaking.reset(token)


def _(message: str) -> str:
    """`message` in the language spoken now."""
    lang = _speaking.get()
    if lang == DEFAULT:   # English is the source's own words (the rules' checkers ask often: keep it quick)
        return message
    text = catalogue(lang).gettext(message)
    if text is message and message:   # gettext hands the very same object back when it has no translation
        _note_missing(message)
    return text


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form (by the language's own plural rule) of a message about `n` things."""
    text = catalogue(current()).ngettext(singular, plural, n)
    if text is singular or text is plural:
        _note_missing(singular)
    return text


def N_(message: str) -> str:  # noqa: N802 (gettext's name for a marker)
    """Mark `message` for the catalogue without translating it here (it is translated where it is shown)."""
    return message


def _note_missing(message: str) -> None:
    record = _missing.get()
    if record is not None and current() != DEFAULT:
        record.add((current(), message))


@contextlib.contextmanager
def missing() -> Iterator[set]:
    """Inside the block, collect (language, message) for every message asked for in a language whose
    catalogue has no translation of it (English, the source's own words, never misses)."""
    record: set = set()
    token = _missing.set(record)
    try:
        yield record
    finally:
        _missing.reset(token)


def decimal(value: float, digits: int = 1) -> str:
    """`value` with `digits` decimals, written the language's way: '22.4' / '22,4'."""
    text = f"{value:.{digits}f}"
    return text.replace(".", ",") if current() == "fr" else text


def integer(value: int) -> str:
    """`value` with its thousands grouped the language's way: '83,900' / '83 900'."""
    text = f"{int(value):,}"
    return text.replace(",", " ") if current() == "fr" else text


def whole_percent(fraction: float) -> str:
    """A share in whole per cents that never rounds a little to nothing or to all: '62%', '<1%', '>99%'
    ('62 %' in French): the verdicts' and battle logs' way."""
    if 0.0 < fraction < 0.005:
        return percent_sign("<1")
    if 0.995 <= fraction < 1.0:
        return percent_sign(">99")
    return percent(fraction)


def semicolon() -> str:
    """'; ' between the parts of a line, ' ; ' in French (a space before the sign, as before ':')."""
    return " ; " if current() == "fr" else "; "


def percent_sign(number: str) -> str:
    """'38' -> '38%' / '38 %' (French puts a space before the sign)."""
    return f"{number} %" if current() == "fr" else f"{number}%"


def percent(fraction: float, digits: int = 0) -> str:
    """A share written as a percentage the language's way: 0.375 -> '37.5%' / '37,5 %' (digits=1);
    the same figures as Python's `{fraction:.1%}`."""
    return percent_sign(decimal(100 * fraction, digits))


def marked(message: str) -> str:
    """A message marked for the catalogue elsewhere (`N_`: a ruleset's title, a table's word) in the
    language spoken; the empty text stays empty (gettext would give the catalogue's header)."""
    return _(message) if message else message


def term(table: Mapping[str, str], key: str, plain: bool = False) -> str:
    """A word of a ruleset's table (N_-marked: a result, a cover class, a book's term) in the language spoken;
    a key the table does not know as it is (`plain`: its underscores as spaces), never a KeyError."""
    if key in table:
        return marked(table[key])
    return str(key).replace("_", " ") if plain else str(key)


__all__ = ["DOMAIN", "LANGUAGES", "LOCALE_DIR", "N_", "_", "catalogue", "choose", "current", "decimal", "integer", "language_code",
           "marked", "missing", "ngettext", "percent", "percent_sign", "semicolon", "speaking", "term", "use", "whole_percent"]


