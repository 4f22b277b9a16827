"""Cards on the tray: a card drawn from a deck and turned face up, a shuffled deck dealt out in its order.

Layer: view, pure numpy (no Panda3D): where each card is and how far it is turned over at a
time, in the tray's frame (Z up, LDU); bow3d.view.throws.dice_tray draws them. Chance specs
(bow3d.rules.chance): `CardDraw(cards)` shows the card drawn (its name on its face) flying from
the deck and turning face up; `Shuffle(cards)` deals the deck face up in the order it came out,
each card numbered, left to right and row by row (at most MAX_CARDS_SHOWN; the rest stay in the
deck, counted). Deterministic: the same throw at the same time gives the same poses.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

CARD_W_LDU, CARD_H_LDU, CARD_T_LDU = 66.0, 92.0, 1.2  # a playing card's 5:7, lying on the tray
GAP_LDU = 10.0
DEAL_S = 0.55  # one card's flight from the deck to its place
DEAL_STAGGER_S = 0.16
MAX_CARDS_SHOWN = 10
COLUMNS = 5
DECK_CARDS_DRAWN = 8  # at most this many cards drawn in the deck's stack


@dataclass(frozen=True)
class CardLayout:
    """Where the deck sits (x, y) and where each card shown lands (N, 2), LDU, row centred on y = 0;
    width and depth of the whole row; `hidden` cards not shown (a long deck)."""

    deck: np.ndarray
    places: np.ndarray
    width: float
    depth: float
    hidden: int = 0


def draw_layout() -> CardLayout:
    """A card drawn: the deck on the left, the card face up beside it."""
    step = CARD_W_LDU + 2 * GAP_LDU
    return CardLayout(np.array([-step / 2, 0.0]), np.array([[step / 2, 0.0]]), 2 * step, CARD_H_LDU + 2 * GAP_LDU)


def shuffle_layout(cards: int) -> CardLayout:
    """A shuffled deck of `cards`: the deck on the left, the cards in order in rows of COLUMNS."""
    shown = max(0, min(cards, MAX_CARDS_SHOWN))
    columns = max(1, min(shown, COLUMNS))
    rows = max(1, math.ceil(shown / columns))
    step_x, step_y = CARD_W_LDU + GAP_LDU, CARD_H_LDU + GAP_LDU
    index = np.arange(shown)
    width = (columns + 1) * step_x + GAP_LDU  # the deck, then the columns
    left = -width / 2 + GAP_LDU / 2 + step_x / 2
    places = np.stack([left + (1 + index % columns) * step_x, ((rows - 1) / 2 - index // columns) * step_y], axis=1)
    deck = np.array([left, (rows - 1) / 2 * step_y])
    return CardLayout(deck, places.reshape(-1, 2), width, rows * step_y + GAP_LDU, cards - shown)


def _smooth(u: np.ndarray) -> np.ndarray:
    u = np.clip(u, 0.0, 1.0)
    return u * u * (3 - 2 * u)


def deal_poses(layout: CardLayout, seconds: float, deck_height: float,
               stagger_s: float = DEAL_STAGGER_S) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(centres (N, 3), turn (N,) degrees about the card's long axis: 180 face down, 0 face up, shown (N,) bool)
    of the cards of `layout` `seconds` after the first leaves the deck (vectorised over cards).

    Each card leaves the top of the deck (`deck_height` LDU) in turn, arcs to its place and turns
    face up on the way; before its turn it is not shown (it is still in the deck)."""
    n = layout.places.shape[0]
    starts = np.arange(n) * stagger_s
    u = np.clip((seconds - starts) / DEAL_S, 0.0, 1.0)
    ease = _smooth(u)
    deck = np.append(layout.deck, deck_height + CARD_T_LDU / 2)
    ends = np.concatenate([layout.places, np.full((n, 1), CARD_T_LDU / 2)], axis=1)
    centres = deck[None] + (ends - deck[None]) * ease[:, None]
    centres[:, 2] += np.sin(np.pi * u) * 45.0
    turn = 180.0 * (1.0 - _smooth((u - 0.15) / 0.7))
    return centres, turn, seconds >= starts


def dealt_s(layout: CardLayout, stagger_s: float = DEAL_STAGGER_S) -> float:
    """Seconds until the last card shown lies in its place."""
    return max(0, layout.places.shape[0] - 1) * stagger_s + DEAL_S


__all__ = ["CARD_H_LDU", "CARD_T_LDU", "CARD_W_LDU", "CardLayout", "deal_poses", "dealt_s", "draw_layout",
           "shuffle_layout"]
