"""How much one model load may cost: part instances, triangles, part geometry, bytes read.

Layer: ldraw. A load counts before it builds: sub-models are counted once each (a model that
uses a sub-model many times costs that sub-model's size times the count, in integer arithmetic,
without expanding anything), so a file that would place 10^10 parts is refused in milliseconds
instead of filling memory. What a model costs once built (drawn, or made a world for sight) is
checked against `max_build_mib` before building (`check_build`), and distinct missing parts, which
cost a library search each, against `max_missing_parts` as they are found.

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
DEFAULT_MAX_MISSING_PARTS = 10_000  # the official library has about 20,000 parts; each missing one is searched for
# Memory a built model holds, per triangle or line, at its peak (measured: `render` of 10^5 3024.dat plates,
# 7.6 million triangles, 1.9 GB; the 5,000-part battlefield at --quality full 1.4 GB for 5.2 million, with
# --edges 0.85 GB more for 5.3 million lines; a world of 10^5 plates, 2.8 million sight triangles, 1.16 GB).
DRAW_BYTES_PER_TRIANGLE = 250
DRAW_BYTES_PER_LINE = 160
SIGHT_BYTES_PER_TRIANGLE = 400
BUILD_BYTES_PER_INSTANCE = 1536  # the default build budget per allowed instance: 2,929 MiB for 2,000,000
MIN_BUILD_MIB = 256  # whatever --max-instances says: small models always draw
MAX_FILE_BYTES = 64 * 1024 * 1024  # one file: 200x the 5,000-part battlefield, larger than any real model
_CHAIN_SHOWN = 12  # links of a long chain named in a message (the rest elided in the middle)

_HOW_TO_RAISE = {
    "max_instances": "--max-instances {n}",
    "max_triangles": "--max-instances {per_instance}, which allows {each} triangles per instance, "
                     "or LoadBudget(max_triangles={n})",
    "max_part_primitives": "LoadBudget(max_part_primitives={n})",
    "max_distinct_primitives": "LoadBudget(max_distinct_primitives={n})",
    "max_bytes_read": "LoadBudget(max_bytes_read={n})",
    "max_missing_parts": "LoadBudget(max_missing_parts={n})",
    "max_build_mib": "--max-instances {per_instance_build}, which allows {build_each:,} bytes per instance, "
                     "or LoadBudget(max_build_mib={n})",
}
_WHAT = {
    "max_instances": "part instances",
    "max_triangles": "triangles",
    "max_part_primitives": "triangles, lines and studs in one part",
    "max_distinct_primitives": "triangles, lines and studs in its distinct parts",
    "max_bytes_read": "bytes of LDraw text",
    "max_missing_parts": "distinct missing parts",
    "max_build_mib": "MiB of memory",
}
_OTHERWISE = {
    "max_missing_parts": "otherwise check that --library or LDRAWDIR names a whole LDraw library (bow3d library "
                         "install), or that the model's own parts lie beside it",
    "max_build_mib": "otherwise draw or measure a smaller part of it (one of its sub-models)",
}
_OTHERWISE_NESTING = "otherwise look for a sub-model that uses itself or its neighbours over and over"


class BudgetExceeded(LDrawError):
    """A model would cost more than its `LoadBudget`; nothing was built.

    `limit` names the LoadBudget field, `count` the amount needed (at least), `file` the model,
    `chain` the references (file or sub-model names, outermost first) the bulk comes through.
    """

    def __init__(self, file: str, limit: str, count: int, allowed: int, chain: tuple[str, ...] = (),
                 purpose: str = ""):
        self.file, self.limit, self.count, self.allowed, self.chain = file, limit, count, allowed, chain
        how = _HOW_TO_RAISE[limit].format(n=count, each=TRIANGLES_PER_INSTANCE,
                                          per_instance=-(-count // TRIANGLES_PER_INSTANCE),
                                          build_each=BUILD_BYTES_PER_INSTANCE,
                                          per_instance_build=-(-count * 2**20 // BUILD_BYTES_PER_INSTANCE))
        through = f"; most of it through {format_chain(chain)}" if chain else ""
        purpose = f" {purpose}" if purpose else ""
        super().__init__(
            f"{file}: needs {count:,} {_WHAT[limit]}{purpose}, more than the budget of {allowed:,}{through}. "
            f"If the model is meant to be this big, raise the limit ({how}); "
            f"{_OTHERWISE.get(limit, _OTHERWISE_NESTING)}")


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
    max_missing_parts: int = DEFAULT_MAX_MISSING_PARTS
    max_build_mib: int | None = None  # None: BUILD_BYTES_PER_INSTANCE x max_instances, at least MIN_BUILD_MIB

    def __post_init__(self) -> None:
        if self.max_triangles is None and isinstance(self.max_instances, int):
            object.__setattr__(self, "max_triangles", TRIANGLES_PER_INSTANCE * self.max_instances)
        if self.max_build_mib is None and isinstance(self.max_instances, int):
            object.__setattr__(self, "max_build_mib",
                               max(MIN_BUILD_MIB, BUILD_BYTES_PER_INSTANCE * self.max_instances // 2**20))
        for name in ("max_instances", "max_triangles", "max_part_primitives", "max_distinct_primitives",
                     "max_bytes_read", "max_missing_parts", "max_build_mib"):
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

    def check_build(self, file: str, purpose: str, nbytes: int, chain: tuple[str, ...] = ()) -> None:
        """Raise BudgetExceeded (limit max_build_mib) when building `nbytes` would pass the budget;
        `purpose` says what for ("to draw 76,000,000 triangles")."""
        mib, allowed = -(-nbytes // 2**20), int(self.max_build_mib or 0)  # never None after __post_init__
        if mib > allowed:
            raise BudgetExceeded(file, "max_build_mib", mib, allowed, chain, purpose)
