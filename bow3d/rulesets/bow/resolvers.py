"""The functions that finish a BOW action once its brick rolls are in, by pending kind.

Layer: rulesets (BOW). Each acting module registers its resolvers here with `@resolves(kind)`;
the ruleset hands them to the engine (bow3d.rulesets.bow.ruleset).
"""

from __future__ import annotations

from collections.abc import Callable

RESOLVERS: dict[str, Callable] = {}


def resolves(kind: str) -> Callable[[Callable], Callable]:
    """Decorator: the function that finishes an action of this pending kind."""
    def wrap(fn: Callable) -> Callable:
        if kind in RESOLVERS:
            raise ValueError(f"two resolvers for {kind!r}")
        RESOLVERS[kind] = fn
        return fn
    return wrap
