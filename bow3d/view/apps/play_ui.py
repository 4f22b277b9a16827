"""Play any registered ruleset in 3D: hot-seat or against the AI, every game written as a replay as it goes.

Layer: view. `PlayUI` holds the rules `Game`, the scene's nodes (through a `Viewer`), the
replay writer and the input handlers.

Also cites BOW 1.3 §2.1. More: docs/modules/view.md#play-ui.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from bow3d.i18n import _
from bow3d.ldraw import Library
from bow3d.replay import ReplayWriter, Session
from bow3d.replay.format import library_kind, sight_method
from bow3d.replay.opponents import header_word
from bow3d.replay.session import DEFAULT_MAX_ROUNDS, ai_players
from bow3d.rules import Illegal, Roll
from bow3d.rules.events import Event
from bow3d.rules.table import Table
from bow3d.view.graph import markers
from bow3d.view.table import play_marks
from bow3d.view.table.hud import MAX_LISTED, Hud, HudLines, unbroken
from bow3d.view.table.play_motion import PlayMotion
from bow3d.view.table.table_aids import TableAids, seers_words

TRAY_FRAME = (0.70, 0.995, 0.68, 0.95)  # the roll tray's home, docked top right, its captions under it (hud)


class PlayUI(PlayMotion):
    """A game of `scene` in a Panda3D window (or offscreen buffer) `base`.

    `players` maps each side to "human" or an opponent's name ("ai", "greedy", "strong"); `replay` is the .bowreplay path (never
    overwritten); `geometry` defaults to the scene's World; `animate` False makes every move and
    roll land at once (tests).
    """

    def __init__(self, base, scene, replay: str | Path, *, players: dict[str, str] | None = None, seed: int = 1,
                 geometry=None, library=None, quality: str = "default", animate: bool = True,
                 max_rounds: int = DEFAULT_MAX_ROUNDS, resume: list | None = None):
        from bow3d.view.apps.viewer import Viewer
        from bow3d.view.throws.brick_physics import PhysicsRollTray

        self.base, self.scene, self.animate = base, scene, animate
        self.players = players or {side.id: "human" for side in scene.sides}
        if geometry is None:
            from bow3d.world import World

            geometry = World.from_scene(scene, library)
        self.viewer = Viewer(base, scene, quality, library=library)
        self.viewer.click_handler = self.on_mouse_click
        self.viewer.world = geometry if hasattr(geometry, "decor_model") else None
        self.nodes: Any = self.viewer.nodes
        kind = library_kind(library or Library.from_env())  # so the replay verifies wherever LDRAWDIR points
        ai = ai_players(scene, seed, names={side: who for side, who in self.players.items() if who != "human"})
        words = {side: (header_word(ai[side]) if side in ai else who) for side, who in self.players.items()}
        self.writer = ReplayWriter(replay, scene, seed, words, max_rounds=max_rounds, library=kind,
                                   sight=sight_method(geometry))
        self.session = Session.start(scene, geometry, seed=seed, writer=self.writer, max_rounds=max_rounds,
                                     players={side: ai.get(side) for side in self.players},
                                     on_record=self._recorded)
        self.game = self.session.game
        self.table = Table(self.game, self.players)
        self.present = self.table.present
        self.narrator = self.game.ruleset.narrator()
        self.replay_path = Path(replay)
        self.selected: str | None = None
        self.aimed = None  # a choice that aims at something (a unit, a cell) waiting for on_confirm
        self.listed: list = []
        self.log: list[str] = []
        self.message = ""
        self.rolls: list = []  # ThrowShown of the last exchange (bow3d.view.film.timeline)
        self._roll_clock = 0.0
        self._glides: dict[str, tuple] = {}
        self._postures: dict[str, str] = {}
        self._cells = None
        self.reachable: list[tuple[int, int]] = []  # the lit cells of the chosen unit
        self._los: Any = None
        self.hud = Hud(base)
        self.aids = TableAids(base, self.nodes, self.viewer.world, self.game.ruleset, scene.ruleset, self.hud.font)
        self.tape_mode = False
        self.viewer.tape_owner = self  # a left drag in tape mode lays the tape (bow3d.view.apps.viewer)
        self.melee: tuple[list[str], dict] = ([], {})  # enemies in melee reach now, charge cells -> enemies
        self._hover = (None, 0.0, False)  # pointer, rest time, asked
        if self.hud.font is not None:
            self.viewer.verdict_text.setFont(self.hud.font)
        self.viewer.verdict_text.setWordwrap(70)  # one line above the status
        self.tray = PhysicsRollTray(base.win, frame=TRAY_FRAME)
        from bow3d.view.table.sheet_overlay import REGION

        self._sheet_home = REGION
        self.panel_places: dict = {}
        keys = " | ".join(f"{k.key}: {k.words}" for k in self.present.ruleset_keys())
        self.viewer.help_text.setText(unbroken(_("left click: choose a unit, then a cell (move) or an enemy (aim) | Enter or "
                                                 "the same click: commit | Esc: cancel | Ctrl+Z: take back | Space: end "
                                                 "turn | 1-9: actions | N: next unit | drag: orbit, wheel: zoom | Ctrl+Q quit")
                                               + (" | " + keys if keys else "")
                                               + _(" | T: tape (drag), G: heads/ground | rest the pointer on a "
                                                   "cell: who sees it")))
        self._bind()
        if resume:
            self._resume(resume)
        self._advance()
        self._choose_the_only_one()
        self._refresh()

    # --- input bindings (every one calls a handler) -------------------------------------------
    def _bind(self) -> None:
        b = self.base
        for n in range(1, MAX_LISTED + 1):
            b.accept(str(n), self.on_key, [n])
        b.accept("enter", self.on_confirm)
        b.accept("escape", self.on_cancel)
        b.accept("space", self.on_end_turn)
        for key in self.present.ruleset_keys():  # the ruleset's own (BOW: piloting)
            b.accept(key.key, self.on_ruleset_key, [key.key])
        b.accept("control-q", self.on_quit)
        b.accept("control-z", self.on_undo)
        b.accept("tab", self.on_toggle_panels)
        b.accept("n", self.on_next_unit)
        b.accept("t", self.on_tape_mode)
        b.accept("g", self.on_tape_heads)
        b.task_mgr.add(self._animate_task, "bow3d-play-animate")

    # --- handlers ----------------------------------------------------------------------------
    def on_mouse_click(self, x: float, y: float) -> None:
        """A left click at window pixel (x, y): a unit under it, else the stud cell under it."""
        from bow3d.view.camera.picking import pick_cell, pick_unit

        if self.tape_mode:
            end = self.viewer.pick_end(x, y)
            if end is not None:
                self.on_tape_end(end)
            return
        unit = pick_unit(self.base, self.nodes, (x, y))
        if unit is not None:
            self.on_click_unit(unit)
            return
        cell = pick_cell(self.base, self.nodes, (x, y))
        if cell is not None:
            self.on_click_cell(cell)

    def on_click_unit(self, id: str) -> None:
        """Choose one of your units, or aim the chosen unit at another (odds shown, Enter commits)."""
        if not self._human_to_play():
            return
        pilot = self._pilot_of(id)
        id = pilot if pilot is not None and pilot in self._choosable() else id
        if id in self._choosable() and (self.selected is None or id != self.selected):
            self._select(id)
            return
        if self.selected is None:
            self._say(_("{id} is not yours to play now").format(id=id) if self.table.piece(id) is not None
                      else _("choose one of your units"))
            return
        options = [a for a in self._legal(self.selected)
                   if self.present.aim(a, self.game).kind == "unit" and self.present.aim(a, self.game).target == id]
        if not options:
            self._say(_("{unit} has no action on {id} now").format(unit=self.selected, id=id))
            return
        options = self.present.prefer(self.game, self.selected, options)
        if self.aimed is not None and self.aimed == options[0]:  # the same target clicked again: commit
            self.on_confirm()
            return
        self._aim(options[0])

    def on_click_cell(self, cell: tuple[int, int]) -> None:
        """Preview a move of the chosen unit to `cell` (or getting off its vehicle there); the same
        cell clicked again commits it (as Enter does)."""
        if not self._human_to_play() or self.selected is None:
            return
        cell = (int(cell[0]), int(cell[1]))
        action = self.present.at_cell(self.game, self.selected, cell, self._legal(self.selected))
        if action is not None:
            if self.aimed == action:
                self.on_confirm()
            else:
                self._aim(action)
            return
        self._say(_("{unit} cannot go to {cell}").format(unit=self.selected, cell=cell))

    def on_key(self, number: int) -> None:
        """The action listed under key `number` (1-9): aimed ones wait for Enter, others happen."""
        if not self._human_to_play() or not 1 <= number <= len(self.listed):
            return
        action = self.listed[number - 1]
        if self.present.aim(action, self.game).kind != "none":
            self._aim(action)
        else:
            self._apply(action)

    def on_next_unit(self) -> None:
        """N: choose the next of your units that may act now (in the order of their ids)."""
        choosable = sorted(self._choosable())
        if not choosable:
            return
        later = [u for u in choosable if self.selected is None or u > self.selected]
        self._select((later or choosable)[0])

    def on_confirm(self) -> None:
        """Commit the aimed action."""
        if self.aimed is not None and self._human_to_play():
            action, self.aimed = self.aimed, None
            self._apply(action)

    def on_cancel(self) -> None:
        """Esc: forget the aimed action, the tape and the tape mode."""
        self.aimed = None
        self.tape_mode = False
        self.aids.clear_tape()
        self._clear_los()
        self._refresh()

    def on_tape_mode(self) -> None:
        """T: the next two clicks lay the measuring tape (a unit: from its head; else the point clicked)."""
        self.tape_mode = not self.tape_mode
        self.aids.clear_tape()
        from bow3d.view.apps.viewer import tape_prompt

        self._say(tape_prompt() if self.tape_mode else None)

    def on_tape_heads(self) -> None:
        """G: a tape's point ends at a standing minifig's head height, or on the ground (a laid tape is measured
        again)."""
        from bow3d.view.apps.viewer import heads_words

        self.aids.toggle_heads()
        if self.aids.measure is not None:
            self.show_tape(self.aids.measure)
        else:
            self._say(heads_words(self.aids))

    def show_tape(self, measure) -> None:
        """The tape's reading at the top left (the label follows the tape itself)."""
        if measure is not None:
            self.viewer.verdict_text.setText(measure.words)

    def on_tape_end(self, end):
        """One end of the tape (a unit id or a world point (3,) LDU); the second one measures."""
        measure = self.aids.tape_end(end)
        self.viewer.verdict_text.setText(measure.words if measure is not None else
                                         _("measuring from {end}: click the other end").format(
                                             end=end if isinstance(end, str) else _("the point clicked")))
        return measure

    def on_hover_cell(self, cell: tuple[int, int] | None) -> dict[str, float]:
        """Who would see a minifig on `cell`: the enemies of the side to play (everyone once the game is over),
        ringed with their lines of sight, and named at the top left."""
        if cell is None or self.viewer.world is None:
            self.aids.show_seers(None, {})
            return {}
        world = self.viewer.world
        side = self.game.side_to_play
        viewers = [p.id for p in self.table.pieces() if p.kind == "unit" and p.alive and p.position is not None
                   and p.id in world.bodies and (side is None or p.side != side)]
        records = self.game.records  # a take-back then another record changes the last one
        seers = self.aids.who_sees(cell, viewers, stamp=(len(records), repr(records[-1]) if records else None))
        self.aids.show_seers(cell, seers)
        if self.aids.measure is None:
            self.viewer.verdict_text.setText(seers_words(cell, seers))
        return seers

    def on_undo(self) -> None:
        """Take back the last record (Ctrl+Z; bow3d.replay.Session.take_back): hot-seat games only."""
        from bow3d.view.table.play_history import take_back

        take_back(self)

    def on_toggle_panels(self) -> None:
        """Tab: collapse the sheet and the tray (or show them again where they hide nothing)."""
        self.panels_shown = not self.panels_shown
        self._place_panels()

    def on_end_turn(self) -> None:
        """End the chosen unit's turn (or step, or the side's turn: the ruleset's end; BOW §2.2: a marking brick
        goes beside it)."""
        if not self._human_to_play():
            return
        action = self.present.end_turn(self.game, self.selected, self._legal())
        if action is not None:
            self._apply(action)
        else:
            self._say(_("nothing to end now: choose one of your units") if self.selected is None else
                      _("{unit} cannot end its turn now").format(unit=self.selected))

    def on_ruleset_key(self, key: str) -> None:
        """A key the ruleset adds (its presentation's keys(), e.g. BOW's piloting): its choice now, applied."""
        if not self._human_to_play():
            return
        action = self.present.key_choice(self.game, self.selected, key, self._legal())
        if action is not None:
            self._apply(action)
        else:
            words = next((k.words for k in self.present.ruleset_keys() if k.key == key), key)
            self._say(_("{words}: not possible now").format(words=words) if self.selected is None else
                      _("{unit} cannot do that now ({words})").format(unit=self.selected, words=words))

    def on_speed(self, delta: int) -> None:
        """Piloting: speed up or slow down by one (BOW §3.3; the ruleset's ']' and '[' keys)."""
        self.on_ruleset_key("]" if delta > 0 else "[")

    def on_turn(self, delta_deg: float) -> None:
        """Piloting: turn the vehicle 45 degrees, counter-clockwise positive (BOW §3.3; ',' and '.')."""
        self.on_ruleset_key("," if delta_deg > 0 else ".")

    def on_drive(self) -> None:
        """Piloting: the compulsory move (BOW §3.3; 'm')."""
        self.on_ruleset_key("m")

    # --- game flow ---------------------------------------------------------------------------
    def _human_to_play(self) -> bool:
        return self.session.needs_human

    def _legal(self, unit: str | None = None) -> list:
        actions = self.table.legal()
        return actions if unit is None else [a for a in actions if self.present.actor(a) == unit]

    def _choose_the_only_one(self) -> None:
        """With nothing chosen and one unit alone to choose (the active unit, the card's figure), choose it."""
        choosable = self._choosable()
        if self.selected is None and len(choosable) == 1:
            self.selected = next(iter(choosable))

    def choosable(self) -> set[str]:
        """The units the human to play may choose now."""
        return self._choosable()

    def _choosable(self) -> set[str]:
        if not self._human_to_play():
            return set()
        return {actor for a in self._legal() for actor in [self.present.actor(a)] if actor}

    def _pilot_of(self, vehicle: str) -> str | None:
        """Who sits in the first seat of `vehicle` (a click on a vehicle chooses its pilot), or None."""
        return next((p.id for p in self.table.pieces() if p.aboard == vehicle and p.seat == 0), None)

    def _cell_of(self, unit: str):
        piece = self.table.piece(unit)
        position = piece.position if piece is not None else None
        return None if position is None else (math.floor(position[0]), math.floor(position[1]))

    def _apply(self, action) -> None:
        """Apply a human's action, write it, then let rolls and AI turns follow."""
        try:
            self._record(action)
        except Illegal as error:
            self._say(str(error))
            return
        self.aimed = None
        self._clear_los()
        self._advance()
        if self.selected is not None and self.selected not in self._choosable():
            self.selected = None
        self._choose_the_only_one()
        self._refresh()

    def _record(self, record) -> None:
        """A human's record, through the session (checked, written, then shown by _recorded)."""
        self._last_poses = self._poses()
        self.session.apply(record)

    def _recorded(self, record, events: list[Event]) -> None:
        """Every applied record (the human's, the dice's, the AI's): the tray, the log, the scene."""
        if self._resuming:  # a resumed game's past: its log only; the scene is placed once at the end
            self.log.extend(line for i, e in enumerate(events) for line in [self.narrator.line(e, events[i + 1:])]
                            if line)
            return
        if isinstance(record, Roll):
            from bow3d.view.film.timeline import rolls_shown

            if self._rolls_done:  # a new exchange of rolls: the tray is cleared and thrown again
                self.rolls, self._rolls_done = [], False
            self.rolls.extend(rolls_shown(events, self.narrator))  # any kind, with the narrator's line
            self._roll_clock = 0.0
        else:
            self._rolls_done = True  # the last rolls stay on the tray until the next ones
        self.log.extend(f"Round {e.round}: {line}" if e.round else line
                        for i, e in enumerate(events) for line in [self.narrator.line(e, events[i + 1:])] if line)
        self._sync(self._last_poses)
        self._last_poses = self._poses()

    def _advance(self) -> None:
        """Throw the pending brick rolls and play the AI's turns until a human is to act or the game ends."""
        self._last_poses = self._poses()
        self.session.advance()
        if self.game.is_over:
            self.writer.close()

    def _resume(self, records: list) -> None:
        """Play a replay's records again (bow3d.view.table.play_history.resume), then place the scene."""
        from bow3d.view.table.play_history import resume

        resume(self, records)

    _rolls_done = False
    _resuming = False
    _last_poses: dict = {}

    # --- the scene in step with the game (pieces and glides: bow3d.view.table.play_motion) -----------
    def _roll_colours(self) -> list[tuple[float, ...]]:
        colours = []
        for roll in self.rolls:
            side = self._side(roll.side)
            code = side.colour if side is not None else markers.WHITE
            colours.append(tuple(c / 255 for c in markers.ldraw_rgba(code, self.nodes.colours)[:3]))
        return colours

    def _side(self, side: str):
        return next((s for s in self.scene.sides if s.id == side), None)

    def _side_name(self, side: str) -> str:
        found = self._side(side)
        return found.name if found is not None else side

    def settle(self) -> None:
        """Finish every animation now (moves land, thrown bricks settle)."""
        for id, (_start, end, _f0, f1, _t) in list(self._glides.items()):
            self.nodes.set_pose(id, tuple(end), f1)
        self._glides.clear()
        if self.rolls:
            self.tray.show(tuple(self.rolls), 60.0, len(self.game.records), self._roll_colours())
            self.tray.region.set_active(self.panel_places.get("tray", True) is not None)

    # --- what is drawn for the human ------------------------------------------------------------
    def _select(self, id: str) -> None:
        self.selected, self.aimed = id, None
        self._clear_los()
        self._refresh()

    def _aim(self, action) -> None:
        self.aimed = action
        self._clear_los()
        aim = self.present.aim(action, self.game)
        target = aim.target if aim.kind == "unit" else None
        if target and self.viewer.world is not None and self.table.preview(action).sight \
                and self._body(target) in self.viewer.world.bodies:
            from bow3d.view.table.los_overlay import LosOverlay

            report = self.viewer.world.sight(self._body(self.present.actor(action)), self._body(target))
            self._los = LosOverlay(self.base.render, self.nodes, report)
        self._refresh()

    def _body(self, unit: str) -> str:
        piece = self.table.piece(unit)
        return piece.aboard if piece is not None and piece.aboard else unit

    def _clear_los(self) -> None:
        if self._los is not None:
            self._los.remove()
            self._los = None

    def odds_text(self, action) -> str:
        """The odds of a choice in the ruleset's words ('3 bricks vs 2 dodge/armor: 41 % to succeed, ...'), or ''."""
        odds = self.table.preview(action).odds
        return odds.words if odds is not None else ""

    def _say(self, words: str | None) -> None:
        self.message = words or ""
        self._refresh()

    def _refresh(self) -> None:
        awaiting = self.table.awaiting(choices=False)  # the HUD words only what it lists
        if awaiting.over:
            winner = awaiting.winner
            status = _("Game over after round {round}: {outcome} ({result})").format(
                round=awaiting.round, result=awaiting.result,
                outcome=_("{side} wins").format(side=self.scene.side(winner).name) if winner else _("a draw"))
            prompt = _("replay written to {path}").format(path=self.replay_path)
        else:
            side = awaiting.side
            who = self._side_name(side) if side else "-"
            player = _("human") if awaiting.player == "human" else awaiting.player
            status = _("Round {round}: {side} to play").format(round=awaiting.round, side=who) + (
                f" ({player})" if side else "")
            if self.selected:
                status += " | " + _("{unit} chosen").format(unit=self.selected)
            prompt = self.message or (_("click one of your units") if self.selected is None else
                                      _("click a lit cell to move, an enemy to aim, Space to end the turn"))
        human = self._human_to_play()
        hidden = {p.id for p in self.table.pieces() if p.position is None and p.aboard is None}  # to place, say
        if not human:
            listed = []
        elif self.selected:  # moves: click a lit cell (a unit not on the battlefield: listed, nothing to click)
            listed = [a for a in self._legal(self.selected)
                      if a.TYPE not in self.present.move_kinds or self.selected in hidden]
        else:
            listed = [a for a in self._legal() if self.present.actor(a) in hidden]
        listed += [a for a in self._legal() if self.present.actor(a) is None] if human else []  # answers, the side's
        self.listed = listed[:MAX_LISTED]
        lines = [f"{n}. {self.present.words(a, self.game)}" for n, a in enumerate(self.listed, start=1)]
        if human and self.selected is None and not self.message and awaiting.decision:
            prompt = _("answer with the keys 1-{n}").format(n=len(self.listed))
        if self.aimed is not None:
            odds = self.odds_text(self.aimed)
            prompt = f"{self.present.words(self.aimed, self.game)}{': ' + odds if odds else ''} | " + _(
                "Enter (or the same click again) commits, Esc cancels")
        self.message = ""
        from bow3d.view.throws.captions import throw_caption

        rolls = tuple(throw_caption(r, self._side_name(r.side)) for r in self.rolls)
        self.hud.show(HudLines(status, tuple(lines), prompt, tuple(self.log), rolls))
        self._draw_cells()
        self._draw_selection()
        self._place_panels()

    panels_shown = True

    def action_boxes(self) -> list:
        """Screen boxes (fractions of the window, y up) of the chosen unit and of what it aims at or moves to."""
        return play_marks.action_boxes(self)

    def _place_panels(self) -> None:
        play_marks.place_panels(self)

    def _draw_cells(self) -> None:
        play_marks.draw_cells(self)

    def _draw_melee(self) -> None:
        play_marks.draw_melee(self)

    def _draw_selection(self) -> None:
        play_marks.draw_selection(self)

    def on_quit(self) -> None:
        """Close the replay and the window (Ctrl+Q; Esc only cancels an aimed action)."""
        self.close()
        self.base.userExit()

    def close(self) -> None:
        """Close the replay (a game left unfinished stays a valid, shorter replay)."""
        self.writer.close()
