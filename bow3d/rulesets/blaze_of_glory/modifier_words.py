"""Blaze of Glory's modifiers in words, in the language spoken.

Layer: rulesets (Blaze of Glory). The shooting, fisticuffs, nerve and fall rules record their modifiers
as English words in the events ('-1 partial cover': facts of the replay, never translated there);
`say(modifier)` gives them in the language spoken for the battle log and the odds. English is the
recorded text itself. A modifier not known here stays as recorded. The book is English only: the
French words are bow3d's own translation (bow3d.locale.TRANSLATED_TERMS).
"""

from __future__ import annotations

import re

from bow3d.i18n import N_, _, ngettext

FIXED = {text: text for text in (
    N_("+1 aiming"), N_("+1 point blank"), N_("-1 partial cover"), N_("-2 full cover"), N_("-1 over half range"),
    N_("-1 cover (a scatter gun counts all cover as partial)"), N_("-1 cover (all cover counts as partial)"),
    N_("-1 ran"), N_("-1 stood up this turn"), N_("-1 two shots"), N_("-2 three shots"), N_("-1 each of two shots"),
    N_("-2 each of three shots"), N_("+1 opponent on the floor"), N_("-1 opponent on the floor"),
    N_("+1 no close combat weapon"), N_("-1 casualty 2 or more levels higher"), N_("+1 in cover"),
)}
CASUALTIES = re.compile(r"-(\d+) for \1 more casualt(?:y|ies)")
STORIES = re.compile(r"-(\d+) for \1 stor(?:y|ies) fallen")
FALL = re.compile(r"-(\d+) for the fall")
SPLIT = re.compile(r"S split between two pistols: (.+)")
SPLIT_ODDS = re.compile(r"S split: (\d+) and (\d+)")


def say(modifier: str) -> str:
    """One recorded modifier in the language spoken ('-1 partial cover' -> '-1 couvert partiel')."""
    if modifier in FIXED:
        return _(FIXED[modifier])
    if match := CASUALTIES.fullmatch(modifier):
        n = int(match.group(1))
        return ngettext("-{n} for {n} more casualty", "-{n} for {n} more casualties", n).format(n=n)
    if match := STORIES.fullmatch(modifier):
        n = int(match.group(1))
        return ngettext("-{n} for {n} story fallen", "-{n} for {n} stories fallen", n).format(n=n)
    if match := FALL.fullmatch(modifier):
        return _("-{n} for the fall").format(n=match.group(1))
    if match := SPLIT.fullmatch(modifier):
        return _("S split between two pistols: {values}").format(values=match.group(1))
    if match := SPLIT_ODDS.fullmatch(modifier):
        return _("S split: {first} and {second}").format(first=match.group(1), second=match.group(2))
    return modifier
