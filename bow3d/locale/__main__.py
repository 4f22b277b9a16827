"""Rebuild the message catalogues: extract every `_()` / `ngettext()` message of bow3d's source into
`bow3d.pot`, merge it into each language's `.po` (new messages come in untranslated, gone ones are
dropped), and compile each `.po` to its `.mo`. Needs Babel (`pip install -e '.[test]'`).

    python -m bow3d.locale            # extract, update and compile
    python -m bow3d.locale --check    # exit 1 when a .po or .mo is not what a rebuild would write
"""

from __future__ import annotations

import argparse
import datetime
import functools
import io
import sys
from pathlib import Path

from bow3d.i18n import DOMAIN, LANGUAGES, LOCALE_DIR
from bow3d.locale import GLOSSARY, TRANSLATED_TERMS

PACKAGE = LOCALE_DIR.parent
STAMP = datetime.datetime(2026, 11, 24, tzinfo=datetime.UTC)
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}
ENGLISH_NAMES = {"fr": "French"}
HEADER = """bow3d's catalogue in {name}. Translators: keep every {{placeholder}} as it is, and say the game's
words as the glossary below (from the rule book in {name}; bow3d.locale.GLOSSARY) says them.
Glossary:
{glossary}
{translated}"""


def extract():
    """The catalogue of every message in bow3d's source, with the places they come from."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_file

    catalog = Catalog(project="bow3d", domain=DOMAIN, charset="utf-8")
    for path in sorted(PACKAGE.rglob("*.py")):
        if "locale" in path.relative_to(PACKAGE).parts[:1]:
            continue
        for line, message, comments, context in extract_from_file("python", str(path), keywords=KEYWORDS):
            catalog.add(message, None, [(str(path.relative_to(PACKAGE.parent)), line)], auto_comments=comments,
                        context=context)
    for text in help_texts():
        if text not in catalog:
            catalog.add(text, None, [("bow3d/cli.py", 0)], auto_comments=["--help"])
    return catalog


def help_texts() -> list[str]:
    """Every text of every command's --help (descriptions and epilogs by paragraph, help strings,
    group titles), read from the command line's parser built in English: the commands write their
    help for argparse, not through `_()` (bow3d.cli_words translates the built parser)."""
    from bow3d.cli import build_parser
    from bow3d.cli_words import parser_texts
    from bow3d.i18n import speaking

    with speaking("en"):
        return parser_texts(build_parser())


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_po(lang: str):
    from babel.messages.pofile import read_po as read

    with po_path(lang).open("rb") as handle:
        return read(handle, locale=lang, domain=DOMAIN)


def updated(lang: str, template):
    """`lang`'s catalogue brought up to the template: its translations kept, its header comments kept."""
    from babel.messages.catalog import Catalog

    if po_path(lang).exists():
        catalog = read_po(lang)
    else:
        catalog = Catalog(locale=lang, domain=DOMAIN, project="bow3d", charset="utf-8")
    catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
    catalog.obsolete.clear()
    # a stable header: a rebuild of unchanged messages writes the same bytes (--check)
    catalog.fuzzy = False
    translated = TRANSLATED_TERMS.get(lang, {})
    text = HEADER.format(name=ENGLISH_NAMES.get(lang, lang), glossary="\n".join(
        f"  {english} = {word}" for english, word in GLOSSARY.get(lang, {}).items()), translated="\n".join(
        [f"{book}: its rule book is English only; these are bow3d's own translations of its terms:" + "".join(
            f"\n  {english} = {word}" for english, word in terms.items()) for book, terms in translated.items()]))
    catalog.header_comment = "\n".join(f"# {line}".rstrip() for line in text.splitlines())
    catalog.creation_date = catalog.revision_date = STAMP
    catalog.version = "1"
    catalog.last_translator = "bow3d"
    catalog.language_team = f"{LANGUAGES[lang]}"
    catalog.copyright_holder = "bow3d"
    catalog.msgid_bugs_address = ""
    catalog.__class__ = _unversioned()
    return catalog


@functools.cache
def _unversioned() -> type:
    """Babel's Catalog whose header says 'Generated-By: Babel' without Babel's release: that header is
    in both the .po and the .mo, so a fresh install with a newer Babel (CI's) would find every committed
    catalogue out of date (--check) although no message changed."""
    from babel.messages.catalog import Catalog

    class Unversioned(Catalog):
        def _get_mime_headers(self) -> list[tuple[str, str]]:
            return [(name, "Babel\n" if name == "Generated-By" else value)
                    for name, value in super()._get_mime_headers()]

    return Unversioned


def po_bytes(catalog) -> bytes:
    from babel.messages.pofile import write_po

    out = io.BytesIO()
    write_po(out, catalog, width=100, omit_header=False, sort_output=False, include_previous=False,
             no_location=True)   # no line numbers: moving code changes no catalogue
    return out.getvalue()


def mo_bytes(catalog) -> bytes:
    from babel.messages.mofile import write_mo

    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def translated(message) -> bool:
    """Every form of the message has a translation."""
    forms = message.string if isinstance(message.string, (list, tuple)) else [message.string]
    return bool(forms) and all(forms)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bow3d.locale", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when a rebuild would change a file")
    args = parser.parse_args(argv)
    template = extract()
    stale = []
    for lang in LANGUAGES:
        if lang == "en":
            continue   # English is the source's own words
        catalog = updated(lang, template)
        po, mo = po_bytes(catalog), mo_bytes(catalog)
        mo_path = po_path(lang).with_suffix(".mo")
        for path, data in ((po_path(lang), po), (mo_path, mo)):
            if path.exists() and path.read_bytes() == data:
                continue
            stale.append(path)
            if not args.check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
        missing = [m.id for m in catalog if m.id and not translated(m)]
        print(f"{lang}: {len([m for m in catalog if m.id])} messages, {len(missing)} untranslated")
    if args.check and stale:
        print("out of date: " + ", ".join(str(p) for p in stale) + " (run python -m bow3d.locale)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
