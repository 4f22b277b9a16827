"""The play UI's history: taking back the last record (Ctrl+Z) and resuming a game from its replay.

Layer: view. Both go through the game session (bow3d.replay.Session), so the replay being written
stays a replay that verifies: `take_back` removes the record from the game (Game.pop) and its line
from the file; `resume` plays a replay's records again into a fresh session whose header has the
same seed and players, so the seeded throws and the AI's choices come out as recorded, then the
game goes on. A throw is never taken back (the bricks stand), and only hot-seat games take back at
all (against the AI, a human could take back until the AI's answer suits).
"""

from __future__ import annotations

from bow3d.i18n import _


def take_back(ui) -> None:
    """Take back the last record of `ui`'s game (a PlayUI), or say why not."""
    from bow3d.replay.session import TakeBackRefused

    if any(who != "human" for who in ui.players.values()):
        ui._say(_("Ctrl+Z takes back moves in hot-seat games only (the AI plays a side here)"))
        return
    before = ui._poses()
    try:
        record = ui.session.take_back()
    except TakeBackRefused as refused:
        ui._say(_("nothing taken back: {why}").format(why=refused))
        return
    ui.aimed = None
    ui._clear_los()
    ui.selected = None
    ui._sync(before)
    action = ui.game.ruleset.parse(record)
    unit = ui.present.actor(action)
    if unit is not None and unit in ui._choosable():
        ui.selected = unit
    words = ui.present.words(action, ui.game)
    ui.log.append(_("taken back: {action}").format(action=words))
    ui._say(_("taken back: {action} (Ctrl+Z again takes back the record before)").format(action=words))


def resume(ui, records: list) -> None:
    """Play `records` (a replay's, as dicts) again into `ui`'s fresh game, then place the scene once."""
    before = ui._poses()
    ui._resuming = True
    try:
        ui.session.replay_into(records)
    finally:
        ui._resuming = False
    ui._sync(before)
    ui.log.append(_("resumed after {n} records").format(n=len(records)))
