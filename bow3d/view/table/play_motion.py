"""The play UI's board in motion: the scene's pieces follow the game, moves glide, the pointer hovers.

Layer: view. A mixin of PlayUI (bow3d.view.apps.play_ui), which holds what it reads: the rules `game`,
the scene's `nodes`, the `viewer`, the roll `tray` and the table `aids`. After every record the
pieces are put where the table says (`_sync`: bow3d.rules.table's pieces, seated aboard, hidden off
the field, the markers beside and on them; doors); with `animate`, a piece that moved glides there over GLIDE_S with an eased turn;
one task per frame runs the glides, the tray's throw and the hover question (who sees the cell
the pointer rests on, after HOVER_S).
"""

from __future__ import annotations

from typing import Any

import numpy as np

GLIDE_S = 0.45  # seconds of a move's animation
HOVER_S = 0.4  # the pointer resting this long on a cell asks who sees it


class PlayMotion:
    """Board sync, glides and the per-frame task of PlayUI (see the module docstring)."""

    # what PlayUI holds (bow3d.view.apps.play_ui)
    base: Any
    table: Any
    game: Any
    nodes: Any
    viewer: Any
    aids: Any
    tray: Any
    animate: bool
    rolls: list
    panel_places: dict
    _glides: dict
    _roll_clock: float
    _hover: tuple = (None, 0.0, False)
    _postures: dict  # piece id -> the posture it was last set in (bow3d.rules.table.Piece.posture)

    def on_hover_cell(self, cell: Any) -> Any:
        raise NotImplementedError

    def _roll_colours(self) -> list:
        raise NotImplementedError

    def _poses(self) -> dict[str, tuple]:
        return {p.id: (p.position, p.facing) for p in self.table.pieces()}

    def _sync(self, before: dict[str, tuple]) -> None:
        pieces = self.table.pieces()
        seated = {p.id for p in pieces if p.kind == "vehicle"}
        for piece in pieces:
            if piece.id not in self.nodes.pieces:
                continue
            if piece.position is None and piece.aboard in seated and piece.alive:
                self.nodes.seat(piece.id, piece.aboard, piece.seat)
            else:
                self._place(piece.id, before.get(piece.id), piece.position, piece.facing)
            self.nodes.set_marks(piece.id, beside=piece.beside, on_top=piece.on_top)
            if self.nodes.pieces[piece.id].alive != piece.alive:
                self.nodes.set_alive(piece.id, piece.alive)
            if piece.alive and self._postures.get(piece.id, "standing") != piece.posture:  # lying, yet in play
                self.nodes.set_posture(piece.id, piece.posture)
                self._postures[piece.id] = piece.posture
        for door, is_open in (getattr(self.game.state, "doors", None) or {}).items():
            if door in self.nodes.doors:
                self.nodes.set_door(door, is_open)

    def _place(self, id: str, before, position, facing: float) -> None:
        piece = self.nodes.pieces[id]
        if position is None:
            if piece.alive:
                piece.root.hide()  # aboard a vehicle, or off the field
            return
        old = before[0] if before else None
        if self.animate and old is not None and tuple(old) != tuple(position):
            self._glides[id] = (np.array(old, float), np.array(position, float), float(before[1]), float(facing), 0.0)
        else:
            self.nodes.set_pose(id, tuple(position), facing)
        if piece.alive:
            piece.root.show()

    def _animate_task(self, task):
        dt = min(0.1, self.base.clock.get_dt())
        self.aids.update()
        self._hover_task(dt)
        for id, (start, end, f0, f1, t) in list(self._glides.items()):
            t = min(1.0, t + dt / GLIDE_S)
            ease = t * t * (3 - 2 * t)
            turn = (f1 - f0 + 180.0) % 360.0 - 180.0
            self.nodes.set_pose(id, tuple(start + (end - start) * ease), f0 + turn * ease)
            if t >= 1.0:
                del self._glides[id]
            else:
                self._glides[id] = (start, end, f0, f1, t)
        if self.rolls:
            self._roll_clock += dt
            self.tray.show(tuple(self.rolls), self._roll_clock, len(self.game.records), self._roll_colours())
            self.tray.region.set_active(self.panel_places.get("tray", True) is not None)  # collapsed stays so
        return task.cont

    def _hover_task(self, dt: float) -> None:
        """The pointer resting HOVER_S on the battlefield (not dragging) asks who sees the cell under it."""
        pointer, rest, asked = self._hover
        now = self.viewer._pointer()
        if now is None or self.viewer._drag is not None or self.viewer._tape_press is not None or now != pointer:
            self._hover = (now, 0.0, False)
            return
        rest += dt
        if rest >= HOVER_S and not asked:
            from bow3d.view.camera.picking import pick_cell

            self.on_hover_cell(pick_cell(self.base, self.nodes, now))
            asked = True
        self._hover = (pointer, rest, asked)
