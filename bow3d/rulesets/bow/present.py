"""BOW 1.3 at the table: its choices in words, what they aim at and their odds, the melee and charge
previews, the piloting keys, the description sheet as studs and the marking bricks.

Layer: rulesets (BOW; pure Python). The play UI, the viewer, a browser read these through
bow3d.rules.table. Cells are stud cells (i, j); odds are exact brick rolls (bow3d.rulesets.bow.odds).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Any

from bow3d.i18n import _, decimal, ngettext, percent
from bow3d.ldraw.colours import BLACK, DARK_GREY, GREEN, RED, WHITE, YELLOW
from bow3d.rules.game import Game
from bow3d.rules.records import Action
from bow3d.rules.table import Aim, Key, Odds, Piece, Presentation, Preview, Reach, SheetRow
from bow3d.rulesets.bow.actions import Attack, ChangeDirection, ChangeSpeed, CompulsoryMove, GetOff, GetOn, Move, Treat
from bow3d.rulesets.bow.context import weapon_kind, weapon_reach
from bow3d.rulesets.bow.odds import odds_of

MOVES = (Move, GetOff)  # a cell clicked moves the chosen unit there (or gets it off its vehicle there)
SHEET_GREEN = 10  # BOW §1.4.1: the plate a minifig's sheet is built on (any colour; grey for vehicles)
KEYS = ("]", "[", ",", ".", "m")


class BowPresentation(Presentation):
    sheet_plate = SHEET_GREEN
    move_kinds = ("move", "get_off")

    def piece(self, item: Any, kind: str, seat: int) -> Piece:
        """BOW §2.2: marking bricks beside a unit that played (at least one while it has); §2.4.3: damage on it."""
        base = super().piece(item, kind, seat)
        if kind != "unit":
            return base
        beside = max(int(item.marking_bricks), 1 if item.played else 0)
        return dataclasses.replace(base, beside=beside)

    # -- choices -----------------------------------------------------------------------------
    def words(self, action: Action, game: Game | None = None) -> str:
        a: Any = action
        words = {
            "end_turn": lambda: _("end the turn"),
            "move": lambda: _("move to cell {cell}, facing {facing}").format(cell=tuple(a.to), facing=f"{a.facing:.0f}"),
            "attack": lambda: _("attack {target} with {weapon}").format(target=a.target, weapon=a.weapon),
            "treat": lambda: _("treat/repair {target}").format(target=a.target),
            "switch": lambda: _("take the {weapon} in hand").format(weapon=a.weapon),
            "grab": lambda: _("pick up the {item}").format(item=a.item),
            "throw": lambda: _("throw the {item} to {cell}").format(item=a.item, cell=tuple(a.to)),
            "give": lambda: _("give the {item} to {receiver}").format(item=a.item, receiver=a.receiver),
            "door": lambda: (_("open {door}") if a.open else _("close {door}")).format(door=a.door),
            "get_on": lambda: (_("get on {vehicle} (seat {seat}, pilot)") if a.seat == 0 else
                               _("get on {vehicle} (seat {seat})")).format(vehicle=a.vehicle, seat=a.seat),
            "get_off": lambda: _("get off to {cell}").format(cell=tuple(a.to)),
            "speed": lambda: _("set the speed to {speed}").format(speed=a.speed),
            "turn": lambda: _("turn the vehicle {degrees} degrees").format(degrees=f"{a.delta_deg:+.0f}"),
            "compulsory_move": lambda: _("drive: the compulsory move"),
            "drift": lambda: _("{vehicle} drifts").format(vehicle=a.vehicle),
        }
        found = words.get(action.TYPE)
        return found() if found is not None else super().words(action, game)

    def aim(self, action: Action, game: Game | None = None) -> Aim:
        if isinstance(action, GetOn):
            return Aim("unit", action.vehicle)
        return super().aim(action, game)

    def preview(self, game: Game, action: Action) -> Preview:
        """Attacks (§2.4.2) and treatments (§2.4.4) with their exact odds; moves with their path."""
        if isinstance(action, MOVES):
            unit = game.state.units[action.unit]
            start = unit.position if unit.position is not None else (action.to[0] + 0.5, action.to[1] + 0.5)
            return Preview(self.words(action, game), (tuple(start), (action.to[0] + 0.5, action.to[1] + 0.5)))
        if not isinstance(action, (Attack, Treat)):
            return Preview(self.words(action, game))
        odds = odds_of(game, action)
        if odds is None:
            return Preview(self.words(action, game), sight=isinstance(action, Attack))
        spread = ", ".join(f"{k}: {percent(p)}" for k, p in sorted(odds.damage_distribution.items())
                           if k > 0 and p >= 0.005)
        bricks = ngettext("{n} brick", "{n} bricks", odds.bricks).format(n=odds.bricks)
        words = _("{bricks} vs {resist} dodge/armor: {success} to succeed, {expected} damage expected") if isinstance(
            action, Attack) else _("{bricks} vs {resist} damage points: {success} to succeed, {expected} damage points "
                                   "removed expected")
        said = words.format(bricks=bricks, resist=odds.resist_bricks, success=percent(odds.success),
                            expected=decimal(odds.expected_damage, 2)) + (f" ({spread})" if spread else "")
        return Preview(self.words(action, game), odds=Odds(odds.success, odds.expected_damage, said),
                       sight=isinstance(action, Attack))

    def prefer(self, game: Game, unit: str, options: Sequence[Action]) -> list[Action]:
        """Of several choices on one target, the weapon in hand first."""
        held = game.state.units[unit].weapon if unit in game.state.units else None
        return sorted(options, key=lambda a: getattr(a, "weapon", None) != held)

    def at_cell(self, game: Game, unit: str, cell: tuple[int, int], legal: Sequence[Action]) -> Action | None:
        here = _cell(game, unit)
        return next((a for a in legal if isinstance(a, MOVES) and tuple(a.to) == cell
                     and not (isinstance(a, Move) and tuple(a.to) == here)), None)

    def reach(self, game: Game, unit: str, legal: Sequence[Action]) -> Reach:
        """The cells a move ends on, and BOW §2.3.1, §2.4.2 melee: the enemies the unit reaches with a melee
        weapon now, and {cell: enemies} where a move ends in melee reach of them (a charge). The rules decide:
        each attack is one that `legal` holds, or that `game.check` accepts after the move (then pop())."""
        here = _cell(game, unit)
        cells = tuple(sorted({tuple(a.to) for a in legal if isinstance(a, MOVES)} - {here}))
        state, ctx = game.state, game.ctx
        me = state.units[unit]
        melee = [w.name for w in (getattr(ctx.sheets[me.sheet], "weapons", None) or []) if weapon_kind(w) == "melee"]
        if not melee or me.position is None:
            return Reach(cells)  # type: ignore[arg-type]
        now = tuple(sorted({a.target for a in legal if isinstance(a, Attack) and a.weapon in melee}))
        reach = max(weapon_reach(ctx.weapon(me.sheet, w)) for w in melee)
        enemies = {u.id: u.position for u in state.units.values()
                   if u.side != me.side and u.alive and u.position is not None}
        charges: dict[tuple[int, int], tuple[str, ...]] = {}
        for move in (a for a in legal if isinstance(a, Move)):
            centre = (move.to[0] + 0.5, move.to[1] + 0.5)
            near = [e for e, p in enemies.items() if math.dist(centre, p) <= reach + 1.5 and e not in now]
            if not near or tuple(move.to) == here:
                continue
            facing = math.degrees(math.atan2(enemies[near[0]][1] - centre[1], enemies[near[0]][0] - centre[0])) % 360.0
            charge = Move(unit, tuple(move.to), round(facing, 1))  # type: ignore[arg-type]
            if game.check(charge) is not None:
                continue
            game.apply(charge)
            try:
                hit = [e for e in near for w in melee if game.check(Attack(unit, e, w)) is None]
            finally:
                game.pop()
            if hit:
                charges[(int(move.to[0]), int(move.to[1]))] = tuple(sorted(set(hit)))
        return Reach(cells, now, charges)  # type: ignore[arg-type]

    # -- piloting keys (§3.3) -----------------------------------------------------------------
    def ruleset_keys(self) -> tuple[Key, ...]:
        return (Key("]", _("speed up")), Key("[", _("slow down")), Key(",", _("turn 45 degrees left")),
                Key(".", _("turn 45 degrees right")), Key("m", _("drive: the compulsory move")))

    def key_choice(self, game: Game, unit: str | None, key: str, legal: Sequence[Action]) -> Action | None:
        """Speed up or down by one, turn at most 45 degrees (counter-clockwise positive), drive (§3.3)."""
        mine = [a for a in legal if getattr(a, "unit", None) == unit] if unit else []
        options: list[Any]
        if key in ("]", "["):
            speed = _speed(game, unit) + (1 if key == "]" else -1)
            options = sorted((a for a in mine if isinstance(a, ChangeSpeed)), key=lambda a: abs(a.speed - speed))
        elif key in (",", "."):
            turn = 45.0 if key == "," else -45.0
            options = sorted((a for a in mine if isinstance(a, ChangeDirection) and a.delta_deg * turn > 0),
                             key=lambda a: abs(a.delta_deg - turn))
        elif key == "m":
            options = [a for a in mine if isinstance(a, CompulsoryMove)]
        else:
            options = []
        return options[0] if options else None

    # -- the description sheet as studs (§1.4.1, §1.4.2; damage §2.4.3) ----------------------------
    def sheet_rows(self, scene: Any, unit: str, piece: Piece | None = None) -> tuple[SheetRow, ...]:
        item = scene.body(unit)
        held = piece.held if piece is not None else getattr(item, "weapon", None)
        return sheet_rows(scene.sheet(item.sheet), held, piece.on_top if piece is not None else 0)

    def sheet_plate_of(self, scene: Any, unit: str) -> int:
        item = scene.body(unit)
        return SHEET_GREEN if getattr(scene.sheet(item.sheet), "kind", "minifig") == "minifig" else DARK_GREY


def sheet_rows(sheet: Any, weapon: str | None = None, damage: int = 0) -> tuple[SheetRow, ...]:
    """The rows of a description sheet (minifig §1.4.1 or vehicle §1.4.2) with `weapon` in hand and `damage`
    marking bricks on the HP studs (§2.4.3)."""
    if getattr(sheet, "kind", "minifig") == "vehicle":
        rows = [_studs(_("Speed"), (GREEN,) * sheet.speed),
                _studs(_("Dodge/Armor"), (DARK_GREY,) * sheet.dodge + (BLACK,) * sheet.armor),
                _studs(_("HP"), (YELLOW,) * sheet.hp, min(damage, sheet.hp))]
        return tuple(rows + [_studs(w.name, (BLACK,) * w.damage) for w in sheet.weapons])
    held = sheet.weapon(weapon)
    weapon_damage = held.damage if held is not None else 0
    label = _("Attack/Damage ({weapon})").format(weapon=held.name) if held is not None else _("Attack/Damage")
    return (_studs(_("Action budget"), (WHITE,) * sheet.action_budget),
            _studs(_("Move"), (GREEN,) * sheet.move),
            _studs(label, (DARK_GREY,) * sheet.attack + (BLACK,) * weapon_damage),
            _studs(_("Dodge/Armor"), (DARK_GREY,) * sheet.dodge + (BLACK,) * sheet.armor),
            _studs(_("HP"), (_code(sheet.hp_colour),) * sheet.hp, min(damage, sheet.hp)),
            _studs(_("Treat/Repair"), (_code(sheet.treat_colour),) * sheet.treat))


def _studs(label: str, studs: tuple[int, ...], marked: int = 0) -> SheetRow:
    return SheetRow(label, str(len(studs)), studs, marked)


def _code(colour: str) -> int:
    return RED if colour == "red" else YELLOW


def _cell(game: Game, unit: str) -> tuple[int, int] | None:
    position = game.state.units[unit].position
    return None if position is None else (math.floor(position[0]), math.floor(position[1]))


def _speed(game: Game, unit: str | None) -> int:
    me = game.state.units.get(unit or "")
    vehicle = game.state.vehicles.get(me.aboard) if me is not None and me.aboard else None
    return vehicle.speed if vehicle is not None else 0


__all__ = ["BowPresentation", "sheet_rows"]
