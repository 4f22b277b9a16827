"""The mishaps of piloted vehicles (BOW §3.6), counted per side by the arena: a unit of the vehicle's own
side run over, a crash into the decor or the ground, or off the field.

Layer: rulesets (BOW; pure Python). A drifting vehicle (no pilot, §3.3) steers nobody: not counted.
"""

from __future__ import annotations

from typing import Any

KINDS = ("friendly_run_over", "crash")


class MishapTally:
    """on_record hook: (side, kind) of every mishap, in order (`sides`: unit or vehicle id -> side)."""

    def __init__(self, sides: dict[str, str]) -> None:
        self.sides = sides
        self.mishaps: list[tuple[str | None, str]] = []
        self._piloted = False             # the vehicle now moving has a pilot (its move was chosen)

    def __call__(self, action: Any, events: list) -> None:
        kind = getattr(action, "TYPE", "")
        if kind in ("compulsory_move", "drift"):
            self._piloted = kind == "compulsory_move"
        for event in events:
            if event.kind in ("collision", "left_field") and self._piloted:
                self._mishap(event)

    def _mishap(self, event: Any) -> None:
        side = self.sides.get(event.data.get("vehicle"))
        if event.kind == "left_field" or event.data.get("kind") in ("decor", "ground"):
            self.mishaps.append((side, "crash"))
        elif self.sides.get(event.data.get("other")) == side:   # a friend: on foot, or another vehicle
            self.mishaps.append((side, "friendly_run_over" if event.data.get("kind") == "unit" else "crash"))
