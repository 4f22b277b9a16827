"""Throws on the roll tray: dice and their faces, BOW's brick rolls, cards drawn and decks shuffled,
as numbers (where each piece is at a time) and drawn, with Bullet physics where it is installed.

Layer: view. The recorded result decides how a throw lands; nothing here draws a random number.
"""
