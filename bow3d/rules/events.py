"""Events: what happened when a record was applied, for the battle log, the viewer and replays.

Layer: rules. An Event is a frozen value: `kind` (a short word), the round, plain words and
structured fields. Kinds and their fields:
  round_started(round, starter, marking: 'add'|'remove'), starting_rolls, starting_player(side),
  roll_requested(side, bricks, purpose), rolled(side, bricks, edges, purpose),
  turn_started(unit), turn_ended(unit, actions), moved(unit, from, to, path, facing),
  grabbed/thrown/given(unit, item, ...), switched(unit, weapon), door(unit, door, open),
  got_on(unit, vehicle, seat), got_off(unit, to), speed_changed(vehicle, speed),
  turned(vehicle, delta_deg, facing), vehicle_moved(vehicle, from, to, distance),
  collision(vehicle, kind, other, sector, relative_speed), stopped(vehicle), landed(vehicle),
  left_field(vehicle), attack(unit, target, weapon, attack_bricks, dodge_bricks, range_penalty,
  covered, distance), attack_result(unit, target, attack, dodge, damage), damaged(id, amount,
  damage, hp), died(unit), destroyed(vehicle), placed(unit, position), treat(unit, target),
  treat_result(unit, target, treat, resist, healed), dispute_result(won), game_over(winner, result).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    """One thing that happened; `describe()` gives the battle-log line."""

    kind: str
    round: int
    text: str
    data: dict[str, Any] = field(default_factory=dict)

    def describe(self) -> str:
        """Plain words, e.g. 'Round 2: blue-3 fires its rifle at red-2 ...'."""
        return f"Round {self.round}: {self.text}" if self.round else self.text

    def to_record(self) -> dict[str, Any]:
        """JSON-ready: {"type": kind, "round": ..., fields..., "text": ...}."""
        record: dict[str, Any] = {"type": self.kind, "round": self.round}
        for key, value in self.data.items():
            record[key] = _plain(value)
        record["text"] = self.text
        return record


def _plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, float):
        return round(value, 6)
    return value


def bricks(n: int) -> str:
    """'1 brick' / '3 bricks'."""
    return f"{n} brick" if n == 1 else f"{n} bricks"
