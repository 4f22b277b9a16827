"""Bullet on the roll tray, for the brick and the dice throws alike: its units and whether it is installed.

Layer: view (panda3d.bullet is imported only to ask whether it is there). Bullet works in centimetres:
CM_PER_LDU turns the tray's LDU into them; gravity is the Earth's, in cm/s^2.
"""

from __future__ import annotations

CM_PER_LDU = 0.04  # Bullet works in centimetres: a 2x2 brick is 1.6 x 1.6 x 0.96 cm
GRAVITY_CM = 981.0


def bullet_available() -> bool:
    try:
        import panda3d.bullet  # noqa: F401
    except ImportError:
        return False
    return True
