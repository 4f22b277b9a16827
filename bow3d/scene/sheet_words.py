"""The fields of the rulesets' description sheets in words, for the pages that list a sheet as written
(the battle report's armies, the cards of War of Bros and Blaze of Glory).

Layer: scene (words only; the table, the cards and the report read it). A field without words here is shown as its name with spaces ('min speed').
The values (weapon and skill ids, kinds) are the scene file's own and stay as written.
"""

from __future__ import annotations

from bow3d.i18n import N_, _

FIELD_WORDS = {
    # BOW 1.3 (the French book's words: §1.4.1, §1.4.2)
    "action_budget": N_("action budget"), "move": N_("move"), "attack": N_("attack"), "dodge": N_("dodge"),
    "armor": N_("armor"), "hp": N_("hp"), "hp_colour": N_("hp colour"), "treat": N_("treat"),
    "treat_colour": N_("treat colour"), "speed": N_("speed"), "min_speed": N_("min speed"),
    "seats": N_("seats"), "damage": N_("damage"), "reach": N_("reach"), "arc": N_("arc"), "seat": N_("seat"),
    "weapons": N_("weapons"),
    # War of Bros and Blaze of Glory (bow3d's own translations of their English books' terms)
    "template": N_("template"), "fisticuffs": N_("fisticuffs"), "level": N_("level"), "nerve": N_("nerve"),
    "reflexes": N_("reflexes"), "shoot": N_("shoot"), "skills": N_("skills"),
}


def field_words(key: str) -> str:
    """A sheet field's name in the language spoken: 'action_budget' -> 'action budget' / "budget d'actions"."""
    return _(FIELD_WORDS[key]) if key in FIELD_WORDS else key.replace("_", " ")
