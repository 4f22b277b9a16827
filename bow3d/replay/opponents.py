"""Named opponents per side (`--blue greedy --red strong`): checked once, built in every worker.

Layer: replay. A ruleset names its opponents (Ruleset.opponents(): name -> version, e.g. greedy,
ai, strong); a side is given one by name or by version. What a replay header says of the side is
`header_word`: 'ai' for the ruleset's AI (its version in the header's `ai` field, as before), else
the opponent's version, which names it and pins its behaviour ('bow-greedy-1'), so that verify
knows which player to re-derive and a replay never claims a stronger or weaker player than the
one that played.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bow3d.errors import UserInputError
from bow3d.i18n import _
from bow3d.replay.session import ai_players, ruleset_for, side_ids


def header_word(player: Any) -> str:
    """What a replay header's `players` says of an AI player (see the module docstring)."""
    name = getattr(player, "name", "ai")
    return "ai" if name == "ai" else str(getattr(player, "version", None) or name)


def check_opponents(scene: Any, chosen: Mapping[str, str], option: str = "--{side} {name}") -> dict[str, str]:
    """side -> opponent name for every side of the scene ('ai' where none is chosen); UserInputError
    naming the option (`option` formatted with side and name) and the choices for an unknown side or name."""
    ruleset = ruleset_for(scene)
    sides = side_ids(scene)
    names = ruleset.opponents()
    for side, name in chosen.items():
        flag = option.format(side=side, name=name)
        if side not in sides:
            raise UserInputError(_("{flag}: no side {side!r} in {value} (sides: {value2}); name one with "
                                   "--player {example}={name}")
                                 .format(flag=flag, side=side, value=scene.name or 'the scene', value2=', '.join(sides),
                                         example=sides[0], name=name))
        if name not in names and name not in names.values():
            raise UserInputError(_("{flag}: unknown opponent for {name}; choose one of: {value}")
                                 .format(flag=flag, name=ruleset.name, value=', '.join(names)))
    return {side: chosen.get(side, "ai") for side in sides}


@dataclass(frozen=True)
class NamedPlayers:
    """A picklable PlayersFactory for the batch executor: (scene, seed) -> the named opponent of each
    side, e.g. (('blue', 'greedy'), ('red', 'ai')); sides not named get the ruleset's AI."""

    names: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, names: Mapping[str, str]) -> NamedPlayers:
        return cls(tuple(sorted(names.items())))

    def __call__(self, scene: Any, seed: int) -> dict[str, Any]:
        names = dict(self.names)
        return ai_players(scene, seed, names={side: names.get(side, "ai") for side in side_ids(scene)})
