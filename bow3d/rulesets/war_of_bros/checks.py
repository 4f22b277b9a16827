"""Scene checks across fields that need War of Bros' sheets, and each army's unit power.

Layer: rulesets (War of Bros). The book: "Establish The Encounter" (the unit power agreed, equal
for all players), "Creating a Unit" (unit and weapon modifications count towards the upgrade
maximum), the modifications' prerequisites, "Mechanized" (the crew: 2 Light Infantry of similar
rank), "Rules" (the standardized bases), "Unit Placement" (the 60 cm rule: the scene's positions are
where the units are placed, so they must keep it).
"""

from __future__ import annotations

from dataclasses import dataclass

from bow3d.i18n import _
from bow3d.rulesets.war_of_bros import plan
from bow3d.rulesets.war_of_bros.profile import Profile, profile_of
from bow3d.rulesets.war_of_bros.sheets import base_studs
from bow3d.scene.io import SceneIssue

PREREQUISITES = {  # modification -> (what it needs, in words; the test on the unit before it)
    "reactive-armor": ("Armor 1st", lambda p: any(p.armor)),
    "reactive-up": ("Reactive Armor", lambda p: p.reactive_armor),
    "reactive-shield": ("Shield 1st", lambda p: any(p.shield)),
    "high-flyer": ("an Airborne Unit", lambda p: p.airborne),
    "evasion-4th": ("an Airborne Unit", lambda p: p.airborne),
    "armor-4th": ("a Mechanized Unit", lambda p: p.mechanized),
    "shield-4th": ("a Mechanized Unit", lambda p: p.mechanized),
    "threat-focus": ("a Threat Range greater than 0", lambda p: p.threat_cm > 0),
}


@dataclass(frozen=True)
class PowerLine:
    """One unit's unit power (what `bow3d cost` lists for this ruleset)."""

    id: str
    side: str
    sheet: str
    weapon: str
    cost_points: int
    formula: str


def _profiles(scene) -> dict[str, Profile]:
    return {sid: profile_of(sid, sheet) for sid, sheet in scene.sheets.items()}


def crew_ids(scene) -> set[str]:
    return {uid for v in getattr(scene, "vehicles", None) or [] for uid in (v.occupants or [])}


def cost_lines(scene) -> list[PowerLine]:
    """Each unit's unit power; a crew's is paid within its Mechanized unit's ("Mechanized")."""
    profiles = _profiles(scene)
    crews = crew_ids(scene)
    lines = []
    for item in (*scene.units, *(getattr(scene, "vehicles", None) or [])):
        profile = profiles[item.sheet]
        weapons = ", ".join(w.name for w in profile.weapons) or "(none)"
        if item.id in crews:
            lines.append(PowerLine(item.id, item.side, item.sheet, weapons, 0, "crew: paid within its Mechanized unit"))
        else:
            lines.append(PowerLine(item.id, item.side, item.sheet, weapons, profile.unit_power,
                                   f"Unit Power of {profile.category} {profile.rank}".strip()))
    return lines


def army_costs(scene) -> dict[str, int]:
    totals = {side.id: 0 for side in scene.sides}
    for line in cost_lines(scene):
        totals[line.side] += line.cost_points
    return totals


def check_scene(scene) -> list[SceneIssue]:
    issues: list[SceneIssue] = []
    profiles = _profiles(scene)
    for sid, sheet in scene.sheets.items():
        profile = profiles[sid]
        if profile.spent > profile.upgrade:
            issues.append(SceneIssue(("sheets", sid), _("the outfit spends {spent} upgrade points, the "
                                                        "unit has {upgrade} (Creating a Unit)")
                                                      .format(spent=profile.spent, upgrade=profile.upgrade), _("take a cheaper weapon "
                                                                               "or fewer "
                                                                               "modifications, or a "
                                                                               "unit of a higher rank")))
        for name in sheet.modifications:
            need = PREREQUISITES.get(name)
            if need is not None and not need[1](profile):
                issues.append(SceneIssue(("sheets", sid, "modifications", name), _("{name} needs "
                                                                                   "{value} (Unit "
                                                                                   "Modifications)")
                                                                                 .format(name=name, value=need[0]), _("add what it needs or remove it")))
    for group, items, mechanized in (("units", scene.units, False), ("vehicles", scene.vehicles, True)):
        for i, item in enumerate(items):
            found = profiles.get(item.sheet)
            if found is None:
                continue
            profile = found
            if profile.mechanized != mechanized:
                where = "vehicles:" if profile.mechanized else "units:"
                issues.append(SceneIssue((group, i, "sheet"), _("sheet '{sheet}' is {category}; "
                                                                "{value} under {where}")
                                                              .format(sheet=item.sheet, category=profile.category, value='Mechanized units go' if profile.mechanized else 'it goes', where=where),
                                         _("move it under {where}").format(where=where)))
            book = base_studs(profile.category)
            base = getattr(item, "base", None)
            if base is not None and any(abs(a - b) > 1e-6 for a, b in zip(base, book)):
                w, d = (plan.cm(v) for v in book)
                issues.append(SceneIssue((group, i, "base"), _("base {value} studs is not the book's "
                                                               "{w:g} x {d:g} cm for {category} (Rules)")
                                                             .format(value=list(base), w=w, d=d, category=profile.category),
                                         _("write base: [{value:g}, {value2:g}] or leave it out")
                                         .format(value=book[0], value2=book[1])))
    issues += _crews(scene, profiles)
    issues += _power(scene)
    issues += _start_distance(scene, profiles)
    return issues


def _crews(scene, profiles: dict[str, Profile]) -> list[SceneIssue]:
    issues = []
    units = {u.id: u for u in scene.units}
    for k, vehicle in enumerate(scene.vehicles):
        mech = profiles.get(vehicle.sheet)
        if len(vehicle.occupants) > 2:
            issues.append(SceneIssue(("vehicles", k, "occupants"), _("{value} crew; a Mechanized unit "
                                                                     "ejects 2 Light Infantry "
                                                                     "(Mechanized)")
                                                                   .format(value=len(vehicle.occupants)), _("list at most two")))
        for n, uid in enumerate(vehicle.occupants):
            crew = units.get(uid)
            profile = profiles.get(crew.sheet) if crew is not None else None
            if profile is None:
                continue
            if profile.category != "light-infantry" or (mech is not None and mech.rank and profile.rank != mech.rank):
                issues.append(SceneIssue(("vehicles", k, "occupants", n), _("crew '{uid}' is "
                                                                            "{category} {rank}; a "
                                                                            "Mechanized {value} ejects "
                                                                            "Light Infantry of similar "
                                                                            "rank (Mechanized)")
                                                                          .format(uid=uid, category=profile.category, rank=profile.rank, value=mech.rank if mech else ''), _("give it such a "
                                                                                    "sheet")))
    return issues


def _power(scene) -> list[SceneIssue]:
    limit = getattr(scene.ruleset, "unit_power", None)
    if limit is None:
        return []
    return [SceneIssue(("ruleset", "unit_power"), _("{side} brings {power} unit power, above the "
                                                    "{limit} agreed (Establish The Encounter)")
                                                  .format(side=side, power=power, limit=limit), _("take units away or agree a higher unit power"))
            for side, power in army_costs(scene).items() if power > limit]


def _start_distance(scene, profiles: dict[str, Profile]) -> list[SceneIssue]:
    least = float(getattr(scene.ruleset, "start_distance_cm", 60.0))
    placed = []
    for group, items in (("units", scene.units), ("vehicles", scene.vehicles)):
        for i, item in enumerate(items):
            if item.position is not None and item.sheet in profiles:
                base = getattr(item, "base", None) or base_studs(profiles[item.sheet].category)
                placed.append((group, i, item, plan.base_corners(tuple(item.position), item.facing, *base)))
    issues = []
    for n, (group, i, item, corners) in enumerate(placed):
        for _g, _j, other, other_corners in placed[:n]:
            if other.side != item.side:
                apart = plan.cm(plan.gap(corners, other_corners))
                if apart < least - 1e-9:
                    issues.append(SceneIssue((group, i, "position"), _("{id} stands {apart:.1f} cm "
                                                                       "from {id2}; units of two "
                                                                       "players are placed at least "
                                                                       "{least:g} cm apart (Unit "
                                                                       "Placement)")
                                                                     .format(id=item.id, apart=apart, id2=other.id, least=least), _("move it back")))
    return issues
