"""The choices the picture-making commands offer, without Panda3D (so that `--help` and the
commands that need no window import none).

Layer: view (pure Python).
"""

from __future__ import annotations

QUALITIES = ("draft", "default", "full")   # levels of detail of bow3d.view.graph.batches

VIEWS = {  # camera direction from the target, world frame (Z up); "front" looks along +Y
    "iso": (1.0, -1.3, 1.05),
    "top": (0.0, -0.0001, 1.0),
    "front": (0.0, -1.0, 0.35),
    "back": (0.0, 1.0, 0.35),
    "left": (-1.0, 0.0, 0.35),
    "right": (1.0, 0.0, 0.35),
    "low": (1.0, -1.3, 0.35),
}
