"""The play HUD: whose turn it is, the selected unit's legal actions with their keys, odds, the log.

Layer: view. Text only, on `aspect2d` (the window's 2D layer), so it is the same in a window
and offscreen. The words come from the table (bow3d.rules.table: the ruleset's presentation).
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_LISTED = 9  # keys 1-9
LOG_LINES = 6
# Lines wrap before the panels docked on the right (from 70 % of a 16:9 window: x = 0.71 of aspect2d)
PROMPT_WRAP = 52   # letter widths at the prompt's scale, from x = -1.75
LOG_WRAP = 68
PROMPT_POS, PROMPT_SCALE = (-1.75, -0.62), 0.04  # the prompt's last line, just above the log
ROLLS_SCALE = 0.03  # the throws' captions, in their own panel under the tray (placed as the panels are)
ROLLS_LINES = 4  # the last throws' captions shown
ROLLS_FRAME = (0.70, 0.995, 0.535, 0.665)  # their panel's home: between the tray and the sheet (window fractions)
ROLLS_RGBA = (0.16, 0.17, 0.2, 0.85)  # the tray's dark grey, a little see-through


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

        font = outlined_font()
        self.font = font

        def text(pos, scale, colour, wrap=None):
            extra = {"font": font} if font is not None else {"shadow": (0, 0, 0, 0.85)}
            return OnscreenText("", pos=pos, scale=scale, align=0, fg=colour, mayChange=True,
                                parent=base.aspect2d, wordwrap=wrap, **extra)

        self.lines = HudLines()
        self._status = text((-1.75, 0.76), 0.05, (1, 1, 0.8, 1))
        self._actions = text((-1.75, 0.66), 0.042, (1, 1, 1, 1))
        self._prompt = text(PROMPT_POS, PROMPT_SCALE, (1, 0.85, 0.4, 1), PROMPT_WRAP)
        self._log = text((-1.75, -0.72), 0.032, (0.9, 0.95, 1, 1), LOG_WRAP)
        from panda3d.core import CardMaker, TransparencyAttrib

        self._aspect = base.win.get_x_size() / max(1, base.win.get_y_size())
        self._rolls_card = base.aspect2d.attach_new_node(CardMaker("rolls-panel").generate())
        self._rolls_card.set_color(*ROLLS_RGBA)
        self._rolls_card.set_transparency(TransparencyAttrib.M_alpha)
        self._rolls = OnscreenText("", pos=(0, 0), scale=ROLLS_SCALE, align=0, fg=(1, 0.95, 0.7, 1),
                                   mayChange=True, parent=base.aspect2d,
                                   **({"font": font} if font is not None else {"shadow": (0, 0, 0, 0.85)}))
        self.rolls_place: tuple | None = ROLLS_FRAME
        self.place_rolls(ROLLS_FRAME)

    def show(self, lines: HudLines) -> None:
        self.lines = lines
        self._status.setText(unbroken(lines.status))
        self._actions.setText(unbroken("\n".join(lines.actions)))
        self._prompt.setText(unbroken(lines.prompt))
        rows = max(1, self._prompt.textNode.get_num_rows())  # a long prompt grows upwards, clear of the log
        self._prompt.setPos(PROMPT_POS[0], PROMPT_POS[1] + (rows - 1) * PROMPT_SCALE * self._prompt.textNode.get_line_height())
        self._log.setText(unbroken("\n".join(lines.log[-LOG_LINES:])))
        self._rolls.setText(unbroken("\n".join(lines.rolls[-ROLLS_LINES:])))
        self.place_rolls(self.rolls_place)

    def place_rolls(self, rect) -> None:
        """The throws' captions in their panel at `rect` (left, right, bottom, top: window fractions, y up), or
        hidden (None: collapsed, as bow3d.view.table.panel_layout places it; or no throw yet)."""
        self.rolls_place = rect
        if rect is None or not self.lines.rolls:
            self._rolls_card.hide()
            self._rolls.hide()
            return
        left, right = ((2 * v - 1) * self._aspect for v in rect[:2])
        bottom, top = (2 * v - 1 for v in rect[2:])
        self._rolls_card.set_pos(left, 0, bottom)
        self._rolls_card.set_scale(right - left, 1, top - bottom)
        self._rolls.setPos(left + 0.02, top - 0.04)
        self._rolls.setWordwrap((right - left - 0.04) / ROLLS_SCALE)
        self._rolls_card.show()
        self._rolls.show()

    @property
    def rolls_shown(self) -> bool:
        return not self._rolls.is_hidden()


def outlined_font():
    """Bold letters with a dark outline (they read on a light sky and on a baseplate alike), or None."""
    from bow3d.view.film.title_overlay import bold_font
    from bow3d.view.output.picture_words import OUTLINE

    font = bold_font()
    if font is not None:
        font.set_outline((0, 0, 0, 1), *OUTLINE)
    return font


def unbroken(text: str) -> str:
    """`text` for the screen: no line break between a number and its sign ('38 %', French), nor before a
    French colon ('Round 1 :'): the space there becomes a no-break space."""
    return text.replace(" %", "\u00a0%").replace(" :", "\u00a0:").replace(" ;", "\u00a0;")
