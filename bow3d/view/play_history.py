"""The play UI's history: taking back the last record (Ctrl+Z) and resuming a game from its replay.

Layer: view. Both go through the game session (bow3d.replay.Session), so the replay being written
stays a replay that verifies: `take_back` removes the record from the game (Game.pop) and its line
from the file; `resume` plays a replay's records again into a fresh session whose header has the
same seed and players, so the seeded throws and the AI's choices come out as recorded, then the
game goes on. A throw is never taken back (the bricks stand), and only hot-seat games take back at
all (against the AI, a human could take back until the AI's answer suits).
"""

from __future__ import annotations

from bow3d.view.hud import describe_action


def take_back(ui) -> None:
    """Take back the last record of `ui`'s game (a PlayUI), or say why not."""
    from bow3d.replay.session import TakeBackRefused

    if any(who == "ai" for who in ui.players.values()):
        ui._say("Ctrl+Z takes back moves in hot-seat games only (the AI plays a side here)")
        return
    before = ui._poses()
    try:
        record = ui.session.take_back()
    except TakeBackRefused as refused:
        ui._say(f"nothing taken back: {refused}")
        return
    ui.aimed = None
    ui._clear_los()
    ui.selected = None
    ui._sync(before)
    action = ui.game.ruleset.parse(record)
    unit = getattr(action, "unit", None)
    if unit is not None and unit in ui._choosable():
        ui.selected = unit
    ui.log.append(f"taken back: {describe_action(action)}")
    ui._say(f"taken back: {describe_action(action)} (Ctrl+Z again takes back the record before)")


def resume(ui, records: list) -> None:
    """Play `records` (a replay's, as dicts) again into `ui`'s fresh game, then place the scene once."""
    before = ui._poses()
    ui._resuming = True
    try:
        ui.session.replay_into(records)
    finally:
        ui._resuming = False
    ui._sync(before)
    ui.log.append(f"resumed after {len(records)} records")
