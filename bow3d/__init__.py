"""bow3d: 3D battlefield visualiser, line-of-sight referee and replay tool for brick wargames.

Layers (design.md), imports pointing down this list only:
ldraw -> scene -> world -> rules -> replay -> view -> cli.
"""

from bow3d.errors import Bow3dError

__all__ = ["Bow3dError", "__version__"]
__version__ = "0.1.0"
