"""What a player sees and reaches for at the table: the HUD, the sheet plate, the line-of-sight
overlay, the measuring aids, the play UI's marks, motion, history and panel layout.

Layer: view. Reads rulesets only through the table (bow3d.rules.table); names no ruleset.
"""
