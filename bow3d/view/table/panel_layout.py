"""Where the play UI's panels go so that they never hide the action: docked, moved or collapsed.

Layer: view, pure Python. A panel is a rectangle (left, right, bottom, top) in fractions of the
window (0, 0 bottom left), as Panda3D display regions are given. The action is the screen boxes of
the chosen unit and of what it aims at or moves to, in the same fractions. Each panel stays at its
home (docked on the right), else goes to the mirror place on the left, else is collapsed (hidden
until the action moves away, or the player shows it with Tab).
"""

from __future__ import annotations

Rect = tuple[float, float, float, float]  # left, right, bottom, top; fractions of the window
MARGIN = 0.01  # a box this close to a panel counts as under it


def mirrored(rect: Rect) -> Rect:
    """The same panel docked on the other side of the window."""
    left, right, bottom, top = rect
    return (1.0 - right, 1.0 - left, bottom, top)


def overlaps(a: Rect, b: Rect, margin: float = MARGIN) -> bool:
    return a[0] < b[1] + margin and b[0] < a[1] + margin and a[2] < b[3] + margin and b[2] < a[3] + margin


def place_panels(homes: dict[str, Rect], boxes: list[Rect]) -> dict[str, Rect | None]:
    """Each panel's place (None: collapsed) so that none covers a box or another placed panel."""
    placed: dict[str, Rect | None] = {}
    for name, home in homes.items():
        taken = [r for r in placed.values() if r is not None]
        for rect in (home, mirrored(home)):
            if not any(overlaps(rect, box) for box in boxes) and not any(overlaps(rect, r, 0.0) for r in taken):
                placed[name] = rect
                break
        else:
            placed[name] = None
    return placed


def pixel_box(points_px, width: int, height: int) -> Rect | None:
    """The box (fractions, y up) round projected points (N, 2) in window pixels (y down); None if none."""
    finite = [(x, y) for x, y in points_px if x == x and y == y]  # NaN: behind the camera
    if not finite:
        return None
    xs, ys = [p[0] for p in finite], [p[1] for p in finite]
    return (min(xs) / width, max(xs) / width, 1.0 - max(ys) / height, 1.0 - min(ys) / height)
