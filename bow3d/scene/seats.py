"""Seats of a vehicle model: where its occupants sit (BOW §3.1: "where the pilot sits").

Layer: scene. A vehicle's LDraw model names its seats in comment lines, seat 1 first (the pilot's):
    0 // bow3d seat 1: X Y Z
in the model's own LDraw coordinates: the point where a seated minifig's own origin goes (a seated
minifig model has its origin under its hips). Points come back in the world axes (Z up, LDU) of the
model's frame: world (x, y, z) = LDraw (X, Z, -Y). The viewer draws occupants there; the world
seats their bodies there, so they are seen, covered and reached for themselves.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

SEAT_LINE = re.compile(r"^\s*0\s+//\s*bow3d seat (\d+):\s*(\S+)\s+(\S+)\s+(\S+)", re.MULTILINE)
MAX_SEAT_FILE_BYTES = 64 * 1024 * 1024


def read_seats(path: str | Path) -> list[np.ndarray]:
    """Seat points of a vehicle model: `0 // bow3d seat N: X Y Z` lines (LDraw frame) -> (3,) float64
    points in world axes (LDU), in seat order; [] when the file names none or cannot be read."""
    try:
        with open(path, "rb") as handle:
            text = handle.read(MAX_SEAT_FILE_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return []
    found = {}
    for match in SEAT_LINE.finditer(text):
        try:
            x, y, z = (float(v) for v in match.groups()[1:])
        except ValueError:
            continue
        if all(np.isfinite((x, y, z))):
            found[int(match.group(1))] = np.array([x, z, -y])  # world (x, y, z) = LDraw (X, Z, -Y)
    return [found[k] for k in sorted(found)]
