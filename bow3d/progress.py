"""Progress bars on stderr in the language spoken (any layer may import it).

Layer: bottom (imports only bow3d.i18n, and tqdm when a bar is made). Every long job of bow3d shows one
tqdm bar: count/total, elapsed<time left and the rate in the job's own unit ('partie', 'image').
tqdm writes its figures the English way; in French the meter's decimal points become commas
('2,38s/partie'), the description (a file name may hold a dot) is left as it is. A comma for a point
keeps the line's width, so tqdm's fitting to the terminal still holds.

    bar(total, unit, desc=None, enabled=True, **tqdm_options)   a tqdm bar, closed by `with` or .close()
"""

from __future__ import annotations

import functools
import re
import sys
from typing import Any

from bow3d.i18n import current

_DECIMAL_POINT = re.compile(r"(?<=\d)\.(?=\d)")


def localize_meter(line: str, prefix: str | None) -> str:
    """tqdm's line with the figures after the description written the language's way."""
    if current() != "fr":
        return line
    head = prefix or ""
    if head and line.startswith(head):
        return head + _DECIMAL_POINT.sub(",", line[len(head):])
    return _DECIMAL_POINT.sub(",", line)


@functools.cache
def _bar_class() -> type:
    """tqdm with its meter localized (made once, when the first bar is: tqdm is imported then)."""
    from tqdm import tqdm

    class Bar(tqdm):
        @staticmethod
        def format_meter(*args: Any, **kwargs: Any) -> str:
            return localize_meter(tqdm.format_meter(*args, **kwargs), kwargs.get("prefix"))

    return Bar


def bar(total: int | float | None, unit: str, desc: str | None = None, enabled: bool = True, **options: Any):
    """A tqdm bar on stderr (unless `options` name another file) whose figures speak the language."""
    options.setdefault("file", sys.stderr)
    return _bar_class()(total=total, unit=unit, desc=desc, disable=not enabled, **options)


__all__ = ["bar", "localize_meter"]
