"""How much one model load may cost: part instances, triangles, part geometry, bytes read.

Layer: ldraw. A load counts before it builds: sub-models are counted once each (a model that
uses a sub-model many times costs that sub-model's size times the count, in integer arithmetic,
without expanding anything), so a file that would place 10^10 parts is refused in milliseconds
instead of filling memory.

More: docs/modules/ldraw.md#budget.
"""

from __future__ import annotations

from dataclasses import dataclass

from bow3d.errors import LDrawError
from bow3d.i18n import _

DEFAULT_MAX_INSTANCES = 2_000_000
TRIANGLES_PER_INSTANCE = 50  # the default triangle budget per allowed instance
DEFAULT_MAX_PART_PRIMITIVES = 2_000_000
DEFAULT_MAX_DISTINCT_PRIMITIVES = 10_000_000
DEFAULT_MAX_BYTES_READ = 192 * 1024 * 1024  # three files at the per-file cap
MAX_FILE_BYTES = 64 * 1024 * 1024  # one file: 200x the 5,000-part battlefield, larger than any real model
_CHAIN_SHOWN = 12  # links of a long chain named in a message (the rest elided in the middle)

_HOW_TO_RAISE = {
    "max_instances": "--max-instances {n}",
    "max_triangles": "--max-instances {per_instance}, which allows {each} triangles per instance, "
                     "or LoadBudget(max_triangles={n})",
    "max_part_primitives": "LoadBudget(max_part_primitives={n})",
    "max_distinct_primitives": "LoadBudget(max_distinct_primitives={n})",
    "max_bytes_read": "LoadBudget(max_bytes_read={n})",
}
_WHAT = {
    "max_instances": "part instances",
    "max_triangles": "triangles",
    "max_part_primitives": "triangles, lines and studs in one part",
    "max_distinct_primitives": "triangles, lines and studs in its distinct parts",
    "max_bytes_read": "bytes of LDraw text",
}


class BudgetExceeded(LDrawError):
    """A model would cost more than its `LoadBudget`; nothing was built.

    `limit` names the LoadBudget field, `count` the amount needed (at least), `file` the model,
    `chain` the references (file or sub-model names, outermost first) the bulk comes through.
    """

    def __init__(self, file: str, limit: str, count: int, allowed: int, chain: tuple[str, ...] = ()):
        self.file, self.limit, self.count, self.allowed, self.chain = file, limit, count, allowed, chain
        how = _HOW_TO_RAISE[limit].format(n=count, each=TRIANGLES_PER_INSTANCE,
                                          per_instance=-(-count // TRIANGLES_PER_INSTANCE))
        through = f"; most of it through {format_chain(chain)}" if chain else ""
        super().__init__(
            f"{file}: needs {count:,} {_WHAT[limit]}, more than the budget of {allowed:,}{through}. "
            f"If the model is meant to be this big, raise the limit ({how}); otherwise look for a "
            "sub-model that uses itself or its neighbours over and over")


def format_chain(chain: tuple[str, ...]) -> str:
    """'a.ldr -> b.ldr (x10) -> ...' with at most _CHAIN_SHOWN links."""
    if len(chain) > _CHAIN_SHOWN:
        half = _CHAIN_SHOWN // 2
        chain = chain[:half] + (f"... {len(chain) - 2 * half} more ...",) + chain[-half:]
    return " -> ".join(chain)


@dataclass(frozen=True)
class LoadBudget:
    """Upper bounds for one `load_model` call (see the module docstring for the defaults)."""

    max_instances: int = DEFAULT_MAX_INSTANCES
    max_triangles: int | None = None  # None: TRIANGLES_PER_INSTANCE x max_instances
    max_part_primitives: int = DEFAULT_MAX_PART_PRIMITIVES
    max_distinct_primitives: int = DEFAULT_MAX_DISTINCT_PRIMITIVES
    max_bytes_read: int = DEFAULT_MAX_BYTES_READ

    def __post_init__(self) -> None:
        if self.max_triangles is None and isinstance(self.max_instances, int):
            object.__setattr__(self, "max_triangles", TRIANGLES_PER_INSTANCE * self.max_instances)
        for name in ("max_instances", "max_triangles", "max_part_primitives", "max_distinct_primitives",
                     "max_bytes_read"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                flag = "--max-instances" if name == "max_instances" else name
                raise LDrawError(_("{flag} must be a whole number of at least 1, not {value!r}")
                                 .format(flag=flag, value=value))

    def check(self, limit: str, count: int, file: str, chain: tuple[str, ...] = ()) -> None:
        """Raise BudgetExceeded when `count` is over the `limit` field."""
        allowed = getattr(self, limit)
        if count > allowed:
            raise BudgetExceeded(file, limit, count, allowed, chain)
