"""`bow3d library install|status`: install the official LDraw library; say which library is in use."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from bow3d.i18n import N_, _, integer

NAME = "library"
ORDER = 12
HELP = "install the official LDraw library, or say which library bow3d uses"
DESCRIPTION = """The LDraw part library bow3d reads parts from is, in this order:
  1. --library DIR (on the commands that read models),
  2. $LDRAWDIR,
  3. the library `bow3d library install` installed,
  4. the bundled starter library (simplified parts, enough for the demo).

  install   download LDraw.org's complete.zip (about 100 MB; or --from a URL or a zip on disk), check
            that it is an LDraw library, unpack it (into the user data folder, or --to DIR) and use it
            from then on without LDRAWDIR. A library installed before is replaced only once the new
            one is unpacked and checked, and only when it holds nothing but the files an install
            wrote, unchanged: bow3d never deletes a file of yours (a folder that holds any is named
            and refused). Zips whose members are links or would land outside the folder are
            refused; a download that has not finished within an hour is given up on.
  status    which library is in use, why, where, and how many parts it has

examples:
  bow3d library install
  bow3d library install --from ~/Downloads/complete.zip
  bow3d library install --to ~/ldraw
  bow3d library status"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    install = sub.add_parser("install", help="download, check and unpack the official LDraw library",
                             description="Download LDraw.org's complete.zip (or --from URL or ZIP), check it, unpack "
                             "it safely and use it from then on.", formatter_class=argparse.RawDescriptionHelpFormatter)
    install.add_argument("--from", dest="source", metavar="URL|ZIP",
                         help="where the library zip is (default: https://library.ldraw.org/library/updates/"
                         "complete.zip)")
    install.add_argument("--to", dest="target", metavar="DIR",
                         help="the folder to unpack it into (default: ldraw/ in the user data folder, "
                         "$BOW3D_DATA_DIR if set)")
    status = sub.add_parser("status", help="which LDraw library is in use, and how many parts it has")
    status.add_argument("--library", metavar="DIR", help="as the other commands take it")


def run(args: argparse.Namespace) -> int:
    if args.action == "install":
        return _install(args)
    return _status(args)


def _install(args: argparse.Namespace) -> int:
    from bow3d.ldraw.install import OFFICIAL_URL, install_library

    source = args.source or OFFICIAL_URL
    print(_("installing the LDraw library from {source}").format(source=source), file=sys.stderr)
    with _ProgressBar(source) as bar:
        installed = install_library(source, args.target, progress=bar.update)
    print(_("installed {parts} parts in {folder}").format(parts=integer(installed.parts), folder=installed.folder))
    print(_("bow3d uses it from now on (unless --library or LDRAWDIR say otherwise); see `bow3d library status`"))
    return 0


def _status(args: argparse.Namespace) -> int:
    from bow3d.ldraw.install import count_parts
    from bow3d.ldraw.library import Library, choose_library
    from bow3d.ldraw.userlib import installed_library

    root, why = choose_library(args.library)
    library = Library.from_env(args.library)  # checked: LibraryError (exit 2) when it is not a library
    labels = {key: _(key) for key in (N_("library"), N_("chosen"), N_("parts"), N_("installed"))}
    width = max(len(label) for label in labels.values())
    print(f"{labels['library']:<{width}} {library.roots[0]}")
    print(f"{labels['chosen']:<{width}} {why}")
    print(f"{labels['parts']:<{width}} {integer(count_parts(library.roots[0]))}")
    installed = installed_library()
    if installed is not None and installed.resolve() != root.resolve():
        print(f"{labels['installed']:<{width}} " + _("{folder} (not in use: {why} comes first)").format(
            folder=installed, why=why))
    elif installed is None:
        print(f"{labels['installed']:<{width}} " + _("none (`bow3d library install` downloads the official library)"))
    return 0


class _ProgressBar:
    """A tqdm bar over the download (nothing for a zip on disk)."""

    def __init__(self, source: str):
        self.source = source
        self.bar: Any = None  # a tqdm bar once the size is known

    def __enter__(self) -> _ProgressBar:
        return self

    def update(self, done: int, total: int | None) -> None:
        if self.bar is None:
            from bow3d.progress import bar

            self.bar = bar(total, "B", _("download"), unit_scale=True, unit_divisor=1024, leave=False)
        self.bar.update(done - self.bar.n)

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.close()
