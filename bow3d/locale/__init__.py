"""bow3d's message catalogues: `<lang>/LC_MESSAGES/bow3d.po` (edited by translators) and the `.mo`
compiled from it (read at run time by bow3d.i18n). `python -m bow3d.locale` rebuilds them.

GLOSSARY: the game's words in each language, taken from that language's rule book (French: BOW
1.3's French edition, `bow-rules-1.3-fr`, §1.1 "Mini Glossaire" and the sections that use them).
It is written into the header comments of the language's catalogue, and a test holds every
translation to it: a message that says the English term says the French one.

TRANSLATED_TERMS: the terms of the games whose rule books exist in English only (War of Bros,
Blaze of Glory): their French words are bow3d's own translation, said so in the catalogue's header
(and in each narrator's docstring); no French book backs them.
"""

GLOSSARY: dict[str, dict[str, str]] = {
    "fr": {
        "brick": "brique",                          # §1.1 Brique
        "stud": "tenon",                            # §1.1 Tenon: the unit of distance
        "attack/damage": "Attaque/Dommage",          # §1.4.1, §2.4.2 "compétence d'Attaque/Dommage"
        "dodge/armor": "Esquive/Armure",             # §1.4.1, §2.4.2
        "treat/repair": "Soin/Réparation",           # §1.4.1 "Soin/Réparation"
        "damage point": "point de dommage",          # §2.4.3 "Points de Dommage"
        "marking brick": "brique de marquage",       # §1.1 "Brique de Marquage (BM)"
        "turn": "tour",                              # §1.1 Tour
        "round": "round",                            # §1.1 Round
        "vehicle": "véhicule",                       # §1.4.2
        "pilot": "pilote",                           # §2.3.2 "Piloter/Conduire un véhicule"
        "sector": "secteur",                         # §3.6.3
        "speed": "vitesse",                          # §1.4.2 Vitesse
        "covered": "à couvert",                      # §2.4.2 "s'il est à couvert"
        "on edge": "sur le flanc",                   # §2.1 "s'immobilisent sur leur flanc"
        "visibility dispute": "désaccord sur la visibilité",   # §2.4.2 "en désaccord sur la visibilité"
        "front arc": "en face du tireur",            # §2.4.2 "doit être en face du tireur (180 degrés)"
    },
}

TRANSLATED_TERMS: dict[str, dict[str, dict[str, str]]] = {
    "fr": {
        "War of Bros": {
            "Accuracy Roll": "jet de Précision", "Damage Roll": "jet de Dégâts", "Evasion Save": "sauvegarde d'Évasion",
            "Shield/Armor/Vitality Save": "sauvegarde de Bouclier/d'Armure/de Vitalité",
            "Cover Step": "étape du Couvert", "Impact Step": "étape d'Impact", "First Turn": "Premier Tour",
            "Unit Placement": "Placement des Unités", "Primary Target": "Cible Principale",
            "Attack Of Opportunity": "Attaque d'Opportunité", "frag token": "jeton de frag", "Body": "Corps",
            "wreck": "épave", "perishes": "périt",
        },
        "Blaze of Glory": {
            "HERO POINT": "POINT DE HÉROS", "NERVE test": "test de SANG-FROID", "KNOCKED DOWN": "À TERRE",
            "WOUNDED": "BLESSÉ", "OUT OF ACTION": "HORS DE COMBAT", "HEADLOCK": "CRAVATE",
            "FISTICUFFS": "BAGARRE", "QUICK DRAW": "DÉGAINE RAPIDE", "LUCKY SHOT": "COUP DE CHANCE",
            "PARTIAL/FULL COVER": "COUVERT PARTIEL/TOTAL", "the Goodies/the Baddies": "les Bons/les Méchants",
            "inches": "pouces", "story": "étage",
        },
    },
}
