"""Cost points of units, vehicles and armies (BOW 1.3 Annex A.4), and the §1.4.3 balance check.

Layer: rulesets (BOW). Formulas (A.4):
  minifig, melee weapon:      CP = (Action Budget + Move + Dodge/Armor + Attack/Damage + Treat/Repair) x HP
  minifig, long-range weapon: CP = (Action Budget + Move + Dodge/Armor + Attack/Damage + Treat/Repair) x HP x Damage
  vehicle:                    CP = [(Speed x 5) + Dodge/Armor + all weapons' Damage] x HP
Dodge/Armor = dodge + armor and Attack/Damage = attack + the weapon's damage (A.2). An unarmed
minifig counts as a melee fighter with damage 0 (its fists).
"""

from __future__ import annotations

from dataclasses import dataclass

from bow3d.i18n import _
from bow3d.rules.points import imbalance_pct
from bow3d.rulesets.bow.sheets import MinifigSheet, VehicleSheet, Weapon
from bow3d.scene.model import Scene

BALANCE_TOLERANCE_PCT = 10.0  # BOW §1.4.3: armies of about the same cost points


@dataclass(frozen=True)
class CostLine:
    """The cost points of one unit or vehicle with the formula that gave them."""

    id: str
    side: str
    sheet: str
    weapon: str
    cost_points: int
    formula: str


def _pick_weapon(sheet: MinifigSheet, weapon: Weapon | str | None) -> Weapon | None:
    if isinstance(weapon, Weapon):
        return weapon
    chosen = sheet.weapon(weapon)
    if weapon is not None and chosen is None:
        raise KeyError(f"weapon '{weapon}' is not on the sheet (its weapons: {', '.join(sheet.weapon_names)})")
    return chosen


def unit_formula(sheet: MinifigSheet, weapon: Weapon | str | None = None) -> tuple[int, str]:
    """(cost points, the A.4 formula with the sheet's values) of a minifig carrying `weapon`."""
    chosen = _pick_weapon(sheet, weapon)
    damage = chosen.damage if chosen is not None else 0
    ranged = chosen is not None and chosen.kind == "ranged"
    base = sheet.action_budget + sheet.move + (sheet.dodge + sheet.armor) + (sheet.attack + damage) + sheet.treat
    cost = base * sheet.hp * (damage if ranged else 1)
    formula = (f"({sheet.action_budget} + {sheet.move} + {sheet.dodge + sheet.armor} + {sheet.attack + damage} + "
               f"{sheet.treat}) x {sheet.hp}" + (f" x {damage}" if ranged else ""))
    return cost, formula


def unit_cost(sheet: MinifigSheet, weapon: Weapon | str | None = None) -> int:
    """BOW 1.3 Annex A.4 cost points of a minifig; `weapon` (name or Weapon) defaults to the sheet's first."""
    return unit_formula(sheet, weapon)[0]


def vehicle_formula(sheet: VehicleSheet) -> tuple[int, str]:
    """(cost points, the A.4 formula with the sheet's values) of a vehicle."""
    damage = sum(w.damage for w in sheet.weapons)
    cost = (sheet.speed * 5 + sheet.dodge + sheet.armor + damage) * sheet.hp
    return cost, f"[({sheet.speed} x 5) + {sheet.dodge + sheet.armor} + {damage}] x {sheet.hp}"


def vehicle_cost(sheet: VehicleSheet) -> int:
    """BOW 1.3 Annex A.4 cost points of a vehicle: [(Speed x 5) + Dodge/Armor + all weapons' Damage] x HP."""
    return vehicle_formula(sheet)[0]


def cost_lines(scene: Scene) -> list[CostLine]:
    """One line per unit then per vehicle, in file order."""
    lines = []
    for unit in scene.units:
        sheet = scene.sheet(unit.sheet)
        assert isinstance(sheet, MinifigSheet)
        weapon = _pick_weapon(sheet, unit.weapon)
        cost, formula = unit_formula(sheet, weapon)
        lines.append(CostLine(unit.id, unit.side, unit.sheet, weapon.name if weapon else "(unarmed)", cost, formula))
    for vehicle in scene.vehicles:
        sheet = scene.sheet(vehicle.sheet)
        assert isinstance(sheet, VehicleSheet)
        cost, formula = vehicle_formula(sheet)
        names = ", ".join(sheet.weapon_names) or "(unarmed)"
        lines.append(CostLine(vehicle.id, vehicle.side, vehicle.sheet, names, cost, formula))
    return lines


def army_costs(scene: Scene) -> dict[str, int]:
    """Total cost points per side id (every side listed, 0 when it has nothing)."""
    totals = {side.id: 0 for side in scene.sides}
    for line in cost_lines(scene):
        totals[line.side] = totals.get(line.side, 0) + line.cost_points
    return totals


def balance_warning(totals: dict[str, int], tolerance_pct: float = BALANCE_TOLERANCE_PCT) -> str | None:
    """A warning line when the armies differ by more than the tolerance (BOW §1.4.3), else None."""
    diff = imbalance_pct(totals)
    if diff <= tolerance_pct:
        return None
    high = max(totals, key=lambda side: totals[side])
    low = min(totals, key=lambda side: totals[side])
    return _("warning: the sides are unbalanced: {high} {high_points} CP vs {low} {low_points} CP ({diff} % apart, "
             "tolerance {tolerance} %); BOW §1.4.3 asks for armies of about the same cost points: add units to {low} "
             "or take some from {high}").format(high=high, high_points=totals[high], low=low, low_points=totals[low],
                                                 diff=f"{diff:.0f}", tolerance=f"{tolerance_pct:g}")
