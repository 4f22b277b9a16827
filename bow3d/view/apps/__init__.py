"""The windows: the interactive viewer, the play UI (any registered ruleset, hot-seat or against the
AI), set-up mode and the replay viewer, built on one ShowBase each.

Layer: view.
"""
