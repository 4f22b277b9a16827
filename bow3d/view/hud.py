"""The play HUD: whose turn it is, the selected unit's legal actions with their keys, odds, the log.

Layer: view. Text only, on `aspect2d` (the window's 2D layer), so it is the same in a window
and offscreen. `describe_action` turns a rules Action into the words shown in the list.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_LISTED = 9  # keys 1-9
LOG_LINES = 6
# Lines wrap before the panels docked on the right (from 70 % of a 16:9 window: x = 0.71 of aspect2d)
PROMPT_WRAP = 52   # letter widths at the prompt's scale, from x = -1.75
LOG_WRAP = 68
ROLLS_WRAP = 34  # the throws' captions, left of the tray, wrap at this many letter widths
ROLLS_LINES = 4  # the last throws' captions shown (more would cover the far side of the battlefield)


def describe_action(action) -> str:
    """Plain words for a rules action (bow3d.rules.actions), e.g. 'attack red-2 with rifle'."""
    kind = getattr(action, "TYPE", type(action).__name__)
    words = {
        "end_turn": lambda a: "end the turn",
        "move": lambda a: f"move to cell {tuple(a.to)}, facing {a.facing:.0f}",
        "attack": lambda a: f"attack {a.target} with {a.weapon}",
        "treat": lambda a: f"treat/repair {a.target}",
        "switch": lambda a: f"take the {a.weapon} in hand",
        "grab": lambda a: f"pick up the {a.item}",
        "throw": lambda a: f"throw the {a.item} to {tuple(a.to)}",
        "give": lambda a: f"give the {a.item} to {a.receiver}",
        "door": lambda a: f"{'open' if a.open else 'close'} {a.door}",
        "get_on": lambda a: f"get on {a.vehicle} (seat {a.seat}{', pilot' if a.seat == 0 else ''})",
        "get_off": lambda a: f"get off to {tuple(a.to)}",
        "speed": lambda a: f"set the speed to {a.speed}",
        "turn": lambda a: f"turn the vehicle {a.delta_deg:+.0f} degrees",
        "compulsory_move": lambda a: "drive: the compulsory move",
        "drift": lambda a: f"{a.vehicle} drifts",
    }
    return words.get(kind, lambda a: kind.replace("_", " "))(action)


@dataclass
class HudLines:
    """What the HUD shows (kept as plain strings so tests can read it)."""

    status: str = ""
    actions: tuple[str, ...] = ()
    prompt: str = ""
    log: tuple[str, ...] = ()
    rolls: tuple[str, ...] = ()  # captions of the throws on the tray (bricks, dice, cards...)


class Hud:
    """Four blocks of text: status (top), action list (left), prompt (above the bottom), log (bottom left)."""

    def __init__(self, base):
        from direct.gui.OnscreenText import OnscreenText

        from bow3d.view.picture_words import OUTLINE
        from bow3d.view.titles import bold_font

        font = bold_font()  # bold letters with a dark outline read on a light sky and on a baseplate alike
        if font is not None:
            font.set_outline((0, 0, 0, 1), *OUTLINE)
        self.font = font

        def text(pos, scale, colour, wrap=None):
            extra = {"font": font} if font is not None else {"shadow": (0, 0, 0, 0.85)}
            return OnscreenText("", pos=pos, scale=scale, align=0, fg=colour, mayChange=True,
                                parent=base.aspect2d, wordwrap=wrap, **extra)

        self.lines = HudLines()
        self._status = text((-1.75, 0.76), 0.05, (1, 1, 0.8, 1))
        self._actions = text((-1.75, 0.66), 0.042, (1, 1, 1, 1))
        self._prompt = text((-1.75, -0.62), 0.04, (1, 0.85, 0.4, 1), PROMPT_WRAP)
        self._log = text((-1.75, -0.72), 0.032, (0.9, 0.95, 1, 1), LOG_WRAP)
        self._rolls = OnscreenText("", pos=(0.68, 0.64), scale=0.036, align=1, fg=(1, 0.95, 0.7, 1),
                                   mayChange=True, parent=base.aspect2d, wordwrap=ROLLS_WRAP,
                                   **({"font": font} if font is not None else {"shadow": (0, 0, 0, 0.85)}))

    def show(self, lines: HudLines) -> None:
        self.lines = lines
        self._status.setText(lines.status)
        self._actions.setText("\n".join(lines.actions))
        self._prompt.setText(lines.prompt)
        self._log.setText("\n".join(lines.log[-LOG_LINES:]))
        self._rolls.setText("\n".join(lines.rolls[-ROLLS_LINES:]))
