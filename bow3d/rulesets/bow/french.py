"""BOW 1.3's French edition as a ruleset, `bow-1.3-fr`: the game refereed from the French rule book.

Layer: rulesets (BOW). The French book (`../shared/seeds/bow-rules-1.3-fr.txt`) is the author's
first text, earlier than the English edition and not edited after it; its sections are numbered as
the English ones. Where its words differ from the English book's, DIFFERENCES says which reading
`bow-1.3-fr` follows and why (docs/bow-1.3-fr.md prints the same table); each has a test
(tests/rulesets/test_bow_french_edition.py). Everything else is BOW 1.3 as `bow-1.3` plays it, with
the same readings (bow3d.rulesets.bow.readings), so a scene plays the same game under either name.

More: docs/modules/rulesets-bow.md#french.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import Field

from bow3d.i18n import N_
from bow3d.rulesets.bow.ruleset import BowRuleset
from bow3d.rulesets.bow.sheets import BowParams, BowScene

FRENCH_NAME = "bow-1.3-fr"
FRENCH_BOOK = "bow-rules-1.3-fr.txt"


@dataclass(frozen=True)
class Difference:
    """One place where the French book says something else than the English one, and the reading taken."""

    section: str
    french: str       # the French book's words
    english: str      # the English book's words
    reading: Literal["french", "english", "both"]
    why: str


DIFFERENCES: tuple[Difference, ...] = (
    Difference("3.6.3", "On peut définir quatre secteurs autour du véhicule rouge en fonction de son orientation.",
               "You can define three sectors around the red vehicle according its direction.", "both",
               "Both books list the same sectors: front (1), the flanks (2, one on each side) and back (3); the "
               "French counts the regions (four), the English the kinds (three). A collision from either flank "
               "is a side collision: the relative speed is the moving vehicle's speed."),
    Difference("3.6.3", "Si l'un ou les deux véhicules sont détruits alors ils sont arrêtés comme expliqué dans le "
               "chapitre sur le crash.", "If one or both vehicles are not destroyed then they are stopped as "
               "explained in the crash section.", "english",
               "The crash section it points to (§3.6.2, in both books) stops the vehicle that is not destroyed; a "
               "destroyed vehicle leaves the battlefield (§3.5) and has no speed to lose. The French sentence "
               "dropped its 'ne ... pas'."),
    Difference("2.3.1", "A sa droite, la maison limite son déplacement de 2 tenons.",
               "On his right, the house limits his move to 2 studs.", "english",
               "The caption describes the picture: the house stands 2 studs to the pirate's right, so a move that "
               "way ends there (the text of §2.3.1, the same in both books: obstacles are walked around, the path "
               "counts). 'de 2 tenons' read as 'by 2 studs' would let him walk 3 studs into the house."),
    Difference("2.4.3", "Lorsqu'une unité reçoit au moins autant de points de dommage que sa compétence de Point de "
               "Vie ... alors l'unité est tuée ou détruite.", "When a unit receives as much Damage as its Health "
               "Point Ability ... then the unit is dead or destroyed.", "french",
               "'At least as many' says what the English implies: a unit that takes more damage than its HP in "
               "one attack dies too (§3.5 shares the exceeding Damage Points among a vehicle's occupants)."),
)


class FrenchBowParams(BowParams):
    """BOW 1.3's parameters, in a scene that names the French edition."""

    name: Literal["bow-1.3-fr"] = FRENCH_NAME   # type: ignore[assignment]


class FrenchBowScene(BowScene):
    """A scene played with BOW 1.3's French edition."""

    ruleset: FrenchBowParams = Field(default_factory=FrenchBowParams)


class FrenchBowRuleset(BowRuleset):
    """BOW 1.3 refereed from the French rule book (DIFFERENCES: the readings where the books differ)."""

    name = FRENCH_NAME
    edition = N_("1.3 (French edition)")
    languages = ("fr", "en")
    book = FRENCH_BOOK
    scene_model = FrenchBowScene
    params_model = FrenchBowParams
    differences = DIFFERENCES


FRENCH_RULESET = FrenchBowRuleset()

__all__ = ["DIFFERENCES", "FRENCH_BOOK", "FRENCH_NAME", "FRENCH_RULESET", "Difference", "FrenchBowParams",
           "FrenchBowRuleset", "FrenchBowScene"]
