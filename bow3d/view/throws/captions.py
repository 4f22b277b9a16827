"""The words of a throw: the caption under it on the tray and in the film, its outcome as it reads.

Layer: view (pure Python: no Panda3D, so the film's planning and the tests read them anywhere). BOW's
bricks read as always ('Blue army, attack: 2 of 3 bricks on edge', BOW 1.3 §2.1); any other throw reads
as its ruleset's narrator wrote it, else the side and the outcome.
"""

from __future__ import annotations

from bow3d.i18n import _, ngettext
from bow3d.view.film.timeline import ThrowShown

MAX_WORDS = 60  # characters of an outcome written on a tile


def roll_caption(roll: ThrowShown, side_name: str) -> str:
    """'Blue army, attack: 2 of 3 bricks on edge'."""
    purpose = purpose_words(roll.purpose)
    what = f"{side_name}, {purpose}" if purpose else side_name
    return ngettext("{what}: {edges} of {n} brick on edge", "{what}: {edges} of {n} bricks on edge",
                    roll.bricks).format(what=what, edges=roll.edges, n=roll.bricks)


def purpose_words(purpose: str) -> str:
    """What a brick throw is for (BOW's purposes), in the language spoken: 'attack', 'dodge', ..."""
    names = {"attack": lambda: _("attack"), "dodge": lambda: _("dodge"), "treat": lambda: _("treat"),
             "damage_points": lambda: _("damage points"), "starting_player": lambda: _("starting player"),
             "dispute_sees": lambda: _("dispute sees"), "dispute_hidden": lambda: _("dispute hidden"),
             "crash_speed": lambda: _("crash speed"), "collision_speed": lambda: _("collision speed"),
             "relative_speed": lambda: _("relative speed")}
    say = names.get(purpose)
    return say() if say is not None else purpose.replace("_", " ")


def throw_caption(throw: ThrowShown, side_name: str) -> str:
    """The words under a throw: BOW's bricks as always ('Blue army, attack: 2 of 3 bricks on edge'); any
    other throw the ruleset's narrator's line for it, else the side and the outcome ('Red: 3, 5')."""
    if throw.kind == "bricks" and isinstance(throw.outcome, int):
        return roll_caption(throw, side_name)
    if throw.words:
        return throw.words
    return f"{side_name}: {outcome_words(throw)}"


def outcome_words(throw: ThrowShown) -> str:
    """The outcome as it reads: '3, 7', 'Sergeant', 'A, C, B', or the value as written."""
    outcome = throw.outcome
    if isinstance(outcome, tuple):
        text = ", ".join(str(v) for v in outcome)
    elif isinstance(outcome, dict):
        text = ", ".join(f"{k}: {v}" for k, v in outcome.items())
    else:
        text = str(outcome)
    text = text if text.strip() else "?"
    return text if len(text) <= MAX_WORDS else text[:MAX_WORDS - 3] + "..."
