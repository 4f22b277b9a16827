"""The flat battlefields the version-1 replay corpus (tests/data/replay/v1) was played on.

Shared by the corpus generator (run once against the bow3d of commit 725e298, which wrote
version-1 replays) and the tests that verify those replays on today's engine: the same walls and
cover zones on both sides, so a verification re-plays exactly the game that was recorded.
"""

from __future__ import annotations

from typing import Any

FIELD = {"width": 40.0, "depth": 30.0}
WALLS = [(14.0, 3.0, 15.0, 9.0), (20.0, 18.0, 21.0, 26.0)]     # x0, y0, x1, y1 in studs
COVER = [(22.0, 2.0, 27.0, 12.0), (3.0, 16.0, 8.0, 24.0)]


def flat_field(scene: Any) -> Any:
    """The FlatGeometry of a corpus scene: units where the scene puts them, the walls and cover above."""
    from bow3d.rules.flat import Box, FlatGeometry

    return FlatGeometry.from_scene(scene, walls=[Box(*w) for w in WALLS], cover=[Box(*c) for c in COVER],
                                   vehicle_size=(5.0, 3.0), **FIELD)
