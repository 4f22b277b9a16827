"""Play BOW in 3D: hot-seat or against the AI, every game written as a replay as it goes.

Layer: view. `PlayUI` holds the rules `Game`, the scene's nodes (through a `Viewer`), the
replay writer and the input handlers. Every mouse and key binding calls one handler, so a test
plays a whole game by calling handlers only:

    on_click_unit(id)     choose one of your units (its reachable cells light up as plates, its
                          sheet appears), or, with a unit chosen, aim at another unit: attack or
                          treat, with the odds shown before committing (bow3d.rules.odds); the
                          same unit clicked again commits
    on_click_cell(cell)   preview a move of the chosen unit there (or getting off a vehicle there):
                          the cell is marked; the same cell clicked again commits
    on_key(n)             the n-th action of the HUD list (keys 1-9)
    on_confirm()          commit the previewed action (Enter)    on_cancel()    forget it (Esc)
    on_undo()             take back the last record (Ctrl+Z), hot-seat games only; a throw stands
    on_tape_mode()        T: a left drag from a unit or point to another (the viewer's on_left_press,
                          on_pointer_move, on_left_release: the tape follows the pointer), or two clicks,
                          lay a measuring tape: the 3D distance in the ruleset's unit and the range band
                          it falls in (bow3d.view.table_aids); outside tape mode a left drag orbits
    on_tape_end(end)      one end of the tape: a unit id or a world point (3,) LDU
    on_tape_heads()       G: a point end at a standing minifig's head height, or on the ground
    on_hover_cell(cell)   the pointer rests on a cell: the enemies that would see a minifig there are
                          ringed, with their lines of sight (cached per cell until the next record)
    on_end_turn()         end the unit's turn (Space)
    on_speed(+1/-1), on_turn(+45/-45), on_drive()   piloting (BOW §3.3): speed, direction, then
                          the compulsory move, animated

The game is played through the one game session (bow3d.replay.Session: the rules, the seeded
dice, the AI players, the replay writer), so a game played here re-simulates and verifies like
any other. Every throw is shown on a tray as what it is: brick rolls (BOW §2.1) as 2x2 bricks
thrown with Bullet physics, landing on edge as the recorded result says
(bow3d.view.brick_physics); dice thrown and landing on the recorded faces, cards drawn or dealt
(bow3d.view.dice_tray); the captions beside the tray and the log are the ruleset's narrator's words.
"""

from __future__ import annotations

import math
from pathlib import Path

from bow3d.i18n import _, decimal, ngettext, percent
from bow3d.ldraw import Library
from bow3d.replay import ReplayWriter, Session
from bow3d.replay.format import library_kind, sight_method
from bow3d.replay.opponents import header_word
from bow3d.replay.session import DEFAULT_MAX_ROUNDS, ai_players
from bow3d.rules import Illegal, Roll
from bow3d.rules.events import Event
from bow3d.rulesets import ruleset_of
from bow3d.rulesets.bow import (Attack, ChangeDirection, ChangeSpeed, CompulsoryMove, EndTurn, GetOff, GetOn, Move,
                                Treat)
from bow3d.rulesets.bow.odds import odds_of
from bow3d.view import markers, play_marks
from bow3d.view.hud import MAX_LISTED, Hud, HudLines, describe_action, unbroken
from bow3d.view.play_motion import PlayMotion
from bow3d.view.table_aids import TableAids, seers_words

AIM_AHEAD = (Attack, Treat, GetOn)  # actions shown with their odds and committed with Enter
PREVIEWED = (*AIM_AHEAD, Move, GetOff)  # every action with a place or a target waits for Enter (or a second click)
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
        from bow3d.view.brick_physics import PhysicsRollTray
        from bow3d.view.viewer import Viewer

        self.base, self.scene, self.animate = base, scene, animate
        self.players = players or {side.id: "human" for side in scene.sides}
        if geometry is None:
            from bow3d.world import World

            geometry = World.from_scene(scene, library)
        self.viewer = Viewer(base, scene, quality, library=library)
        self.viewer.click_handler = self.on_mouse_click
        self.viewer.world = geometry if hasattr(geometry, "decor_model") else None
        self.nodes = self.viewer.nodes
        kind = library_kind(library or Library.from_env())  # so the replay verifies wherever LDRAWDIR points
        ai = ai_players(scene, seed, names={side: who for side, who in self.players.items() if who != "human"})
        words = {side: (header_word(ai[side]) if side in ai else who) for side, who in self.players.items()}
        self.writer = ReplayWriter(replay, scene, seed, words, max_rounds=max_rounds, library=kind,
                                   sight=sight_method(geometry))
        self.session = Session.start(scene, geometry, seed=seed, writer=self.writer, max_rounds=max_rounds,
                                     players={side: ai.get(side) for side in self.players},
                                     on_record=self._recorded)
        self.game = self.session.game
        self.narrator = ruleset_of(scene).narrator()
        self.replay_path = Path(replay)
        self.selected: str | None = None
        self.aimed = None  # an Attack / Treat / GetOn waiting for on_confirm
        self.listed: list = []
        self.log: list[str] = []
        self.message = ""
        self.rolls: list = []  # ThrowShown of the last exchange (bow3d.view.timeline)
        self._roll_clock = 0.0
        self._glides: dict[str, tuple] = {}
        self._cells = None
        self.reachable: list[tuple[int, int]] = []  # the lit cells of the chosen unit
        self._los = None
        self.hud = Hud(base)
        self.aids = TableAids(base, self.nodes, self.viewer.world, ruleset_of(scene), scene.ruleset, self.hud.font)
        self.tape_mode = False
        self.viewer.tape_owner = self  # a left drag in tape mode lays the tape (bow3d.view.viewer)
        self.melee: tuple[list[str], dict] = ([], {})  # enemies in melee reach now, charge cells -> enemies
        self._hover = (None, 0.0, False)  # pointer, rest time, asked
        if self.hud.font is not None:
            self.viewer.verdict_text.setFont(self.hud.font)
        self.viewer.verdict_text.setWordwrap(70)  # one line above the status
        self.tray = PhysicsRollTray(base.win, frame=TRAY_FRAME)
        from bow3d.view.sheet_overlay import REGION

        self._sheet_home = REGION
        self.panel_places: dict = {}
        self.viewer.help_text.setText(unbroken(_("left click: choose a unit, then a cell (move) or an enemy (aim) | Enter or "
                                        "the same click: commit | Esc: cancel | Ctrl+Z: take back | Space: end turn | "
                                        "1-9: actions | [ ] speed, < > turn, M drive | drag: orbit, wheel: zoom | "
                                        "Ctrl+Q quit") + _(" | T: tape (drag), G: heads/ground | rest the pointer on a "
                                                           "cell: who sees it")))
        self._bind()
        if resume:
            self._resume(resume)
        self._advance()
        self._refresh()

    # --- input bindings (every one calls a handler) -------------------------------------------
    def _bind(self) -> None:
        b = self.base
        for n in range(1, MAX_LISTED + 1):
            b.accept(str(n), self.on_key, [n])
        b.accept("enter", self.on_confirm)
        b.accept("escape", self.on_cancel)
        b.accept("space", self.on_end_turn)
        b.accept("]", self.on_speed, [1])
        b.accept("[", self.on_speed, [-1])
        b.accept(",", self.on_turn, [45.0])
        b.accept(".", self.on_turn, [-45.0])
        b.accept("m", self.on_drive)
        b.accept("control-q", self.on_quit)
        b.accept("control-z", self.on_undo)
        b.accept("tab", self.on_toggle_panels)
        b.accept("t", self.on_tape_mode)
        b.accept("g", self.on_tape_heads)
        b.task_mgr.add(self._animate_task, "bow3d-play-animate")

    # --- handlers ----------------------------------------------------------------------------
    def on_mouse_click(self, x: float, y: float) -> None:
        """A left click at window pixel (x, y): a unit under it, else the stud cell under it."""
        from bow3d.view.picking import pick_cell, pick_unit

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
        id = self._pilot_of(id) if id in self.game.state.vehicles and self._pilot_of(id) in self._choosable() else id
        if id in self._choosable() and (self.selected is None or id != self.selected):
            self._select(id)
            return
        if self.selected is None:
            self._say(_("{id} is not yours to play now").format(id=id) if id in self.game.state.units
                      else _("choose one of your units"))
            return
        options = [a for a in self._legal(self.selected) if isinstance(a, AIM_AHEAD) and
                   (getattr(a, "target", None) == id or getattr(a, "vehicle", None) == id)]
        if not options:
            self._say(_("{unit} has no action on {id} now").format(unit=self.selected, id=id))
            return
        held = self.game.state.units[self.selected].weapon
        options.sort(key=lambda a: getattr(a, "weapon", None) != held)
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
        for action in self._legal(self.selected):
            if isinstance(action, (Move, GetOff)) and tuple(action.to) == cell and not (
                    isinstance(action, Move) and tuple(action.to) == self._cell_of(self.selected)):
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
        if isinstance(action, PREVIEWED):
            self._aim(action)
        else:
            self._apply(action)

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
        from bow3d.view.viewer import tape_prompt

        self._say(tape_prompt() if self.tape_mode else None)

    def on_tape_heads(self) -> None:
        """G: a tape's point ends at a standing minifig's head height, or on the ground (a laid tape is measured
        again)."""
        from bow3d.view.viewer import heads_words

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
        state, world = self.game.state, self.viewer.world
        side = state.side_to_play
        viewers = [u.id for u in state.units.values() if u.alive and u.position is not None and u.id in world.bodies
                   and (side is None or u.side != side)]
        records = self.game.records  # a take-back then another record changes the last one
        seers = self.aids.who_sees(cell, viewers, stamp=(len(records), repr(records[-1]) if records else None))
        self.aids.show_seers(cell, seers)
        if self.aids.measure is None:
            self.viewer.verdict_text.setText(seers_words(cell, seers))
        return seers

    def on_undo(self) -> None:
        """Take back the last record (Ctrl+Z; bow3d.replay.Session.take_back): hot-seat games only."""
        from bow3d.view.play_history import take_back

        take_back(self)

    def on_toggle_panels(self) -> None:
        """Tab: collapse the sheet and the tray (or show them again where they hide nothing)."""
        self.panels_shown = not self.panels_shown
        self._place_panels()

    def on_end_turn(self) -> None:
        """End the chosen (or active) unit's turn: a marking brick goes beside it (BOW §2.2)."""
        unit = self.game.state.active_unit or self.selected
        if unit is None or not self._human_to_play():
            return
        action = EndTurn(unit)
        if self.game.check(action) is None:
            self._apply(action)
        else:
            self._say(self.game.check(action))

    def on_speed(self, delta: int) -> None:
        """Piloting: speed up or slow down by one (BOW §3.3)."""
        self._pilot(lambda a: isinstance(a, ChangeSpeed), lambda a: abs(a.speed - (self._speed() + delta)))

    def on_turn(self, delta_deg: float) -> None:
        """Piloting: turn the vehicle, at most 45 degrees, counter-clockwise positive (BOW §3.3)."""
        self._pilot(lambda a: isinstance(a, ChangeDirection) and a.delta_deg * delta_deg > 0,
                    lambda a: abs(a.delta_deg - delta_deg))

    def on_drive(self) -> None:
        """Piloting: the compulsory move (speed x 5 studs straight ahead), animated."""
        self._pilot(lambda a: isinstance(a, CompulsoryMove), lambda a: 0)

    # --- game flow ---------------------------------------------------------------------------
    def _human_to_play(self) -> bool:
        return self.session.needs_human

    def _legal(self, unit: str | None = None) -> list:
        actions = self.game.legal_actions()
        return actions if unit is None else [a for a in actions if getattr(a, "unit", None) == unit]

    def choosable(self) -> set[str]:
        """The units the human to play may choose now."""
        return self._choosable()

    def _choosable(self) -> set[str]:
        if not self._human_to_play():
            return set()
        return {a.unit for a in self._legal() if getattr(a, "unit", None)}

    def _pilot_of(self, vehicle: str) -> str | None:
        seats = self.game.state.vehicles[vehicle].seats
        return seats[0] if seats else None

    def _cell_of(self, unit: str):
        position = self.game.state.units[unit].position
        return None if position is None else (math.floor(position[0]), math.floor(position[1]))

    def _speed(self) -> int:
        unit = self.game.state.units.get(self.selected or "")
        vehicle = self.game.state.vehicles.get(unit.aboard) if unit is not None and unit.aboard else None
        return vehicle.speed if vehicle is not None else 0

    def _pilot(self, accept, score) -> None:
        if not self._human_to_play() or self.selected is None:
            return
        options = sorted((a for a in self._legal(self.selected) if accept(a)), key=score)
        if options:
            self._apply(options[0])
        else:
            self._say(_("{unit} cannot do that now (is it piloting a vehicle?)").format(unit=self.selected))

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
            from bow3d.view.timeline import rolls_shown

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
        """Play a replay's records again (bow3d.view.play_history.resume), then place the scene."""
        from bow3d.view.play_history import resume

        resume(self, records)

    _rolls_done = False
    _resuming = False
    _last_poses: dict = {}

    # --- the scene in step with the game (pieces and glides: bow3d.view.play_motion) -----------
    def _roll_colours(self) -> list[tuple[float, float, float]]:
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
        for id, (start, end, f0, f1, t) in list(self._glides.items()):
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
        target = getattr(action, "target", None)
        if isinstance(action, Attack) and target and self.viewer.world is not None:
            from bow3d.view.los_overlay import LosOverlay

            report = self.viewer.world.sight(self._body(action.unit), self._body(target))
            self._los = LosOverlay(self.base.render, self.nodes, report)
        self._refresh()

    def _body(self, unit: str) -> str:
        state = self.game.state.units.get(unit)
        return state.aboard if state is not None and state.aboard else unit

    def _clear_los(self) -> None:
        if self._los is not None:
            self._los.remove()
            self._los = None

    def odds_text(self, action) -> str:
        """'attack 3 bricks vs dodge 2: 41% to hit, 0.52 damage expected (1: 30%, 2: 9%, ...)'."""
        odds = odds_of(self.game, action)
        if odds is None:
            return ""
        spread = ", ".join(f"{k}: {percent(p)}" for k, p in sorted(odds.damage_distribution.items()) if k > 0 and p >= 0.005)
        bricks = ngettext("{n} brick", "{n} bricks", odds.bricks).format(n=odds.bricks)
        words = _("{bricks} vs {resist} dodge/armor: {success} to succeed, {expected} damage expected") if isinstance(
            action, Attack) else _("{bricks} vs {resist} damage points: {success} to succeed, {expected} damage points "
                                   "removed expected")
        return words.format(bricks=bricks, resist=odds.resist_bricks, success=percent(odds.success),
                            expected=decimal(odds.expected_damage, 2)) + (f" ({spread})" if spread else "")

    def _say(self, words: str | None) -> None:
        self.message = words or ""
        self._refresh()

    def _refresh(self) -> None:
        state = self.game.state
        if self.game.is_over:
            winner = self.game.winner
            status = _("Game over after round {round}: {outcome} ({result})").format(
                round=state.round, result=state.result,
                outcome=_("{side} wins").format(side=self.scene.side(winner).name) if winner else _("a draw"))
            prompt = _("replay written to {path}").format(path=self.replay_path)
        else:
            side = state.side_to_play
            who = self.scene.side(side).name if side else "-"
            player = self.players.get(side)
            player = _("human") if player == "human" else player
            status = _("Round {round}: {side} to play").format(round=state.round, side=who) + (
                f" ({player})" if side else "")
            if self.selected:
                status += " | " + _("{unit} chosen").format(unit=self.selected)
            prompt = self.message or (_("click one of your units") if self.selected is None else
                                      _("click a lit cell to move, an enemy to aim, Space to end the turn"))
        listed = self._legal(self.selected) if self.selected and self._human_to_play() else []
        self.listed = [a for a in listed if not isinstance(a, (Move, GetOff))][:MAX_LISTED]  # those: click a lit cell
        lines = [f"{n}. {describe_action(a)}" for n, a in enumerate(self.listed, start=1)]
        if self.aimed is not None:
            odds = self.odds_text(self.aimed) if isinstance(self.aimed, (Attack, Treat)) else ""
            prompt = f"{describe_action(self.aimed)}{': ' + odds if odds else ''} | " + _(
                "Enter (or the same click again) commits, Esc cancels")
        self.message = ""
        from bow3d.view.brick_roll_animation import throw_caption

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
