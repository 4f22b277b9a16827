"""bow3d.replay: replay files (write as the game goes, read, verify by re-simulation).

Layer: replay (imports ldraw, scene, world, rules; never view or panda3d).
"""

from bow3d.replay.format import (FORMAT, SUFFIX, VERSION, Replay, ReplayEntry, ReplayHeader, ReplayWriter,
                                  file_sha256, read_replay)

__all__ = ["FORMAT", "SUFFIX", "VERSION", "Replay", "ReplayEntry", "ReplayHeader", "ReplayWriter",
           "file_sha256", "read_replay"]
