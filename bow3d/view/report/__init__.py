"""The battle report (`bow3d report REPLAY -o battle.html`): one self-contained page anyone can open.

Layer: view. From a replay (or a .bowpack), opened, verified and re-played as every command does it:
- the title, the result and what `bow3d replay verify` says of the file;
- an interactive 3D view: three.js loading the battle's glTF (bow3d.view.gltf, the film's time line),
  a slider that moves the armies round by round, a play button;
- pictures of the key moments, shot from the film (bow3d.view.report.moments; left out, with a note,
  where no graphics pipe exists or with pictures=False);
- the armies (sides, units and vehicles, their sheets and points) and the battle log by round, every
  verdict and throw in the words of the ruleset's narrator.

More: docs/modules/view.md#report.
"""

from __future__ import annotations

import os
import time
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bow3d.errors import ReplayError
from bow3d.i18n import _, marked, semicolon, speaking
from bow3d.scene.sheet_words import field_words
from bow3d.view.report.page import Army, Report, UnitRow, render_page
from bow3d.view.report.three import THREE_VERSION, ModuleGraph, cdn_graph, find_three, local_graph


@dataclass(frozen=True)
class ReportStats:
    path: Path
    bytes: int
    glb_bytes: int
    pictures: int
    three: str  # "cdn" | "inline"
    three_version: str
    seconds: float
    notes: tuple[str, ...]


def three_modules(offline: bool | str | os.PathLike | None) -> ModuleGraph:
    """The pinned CDN modules, or (offline: True, or a folder) the installed copy's, inlined."""
    if offline is None or offline is False:
        return cdn_graph()
    return local_graph(find_three(None if offline is True else offline))


def _summary(sheet: Any) -> str:
    """A sheet in a line, whatever its ruleset: its numbers and words, then its lists ('move 5, attack 1, ...;
    weapons: rifle (ranged, damage 2)'). Fields left empty are left out."""
    data = sheet.model_dump(mode="json") if hasattr(sheet, "model_dump") else dict(sheet)
    plain, lists = [], []
    for key, value in data.items():
        label = field_words(key)
        if key == "kind" or value is None or value == "" or isinstance(value, (bool, dict)):
            continue
        if isinstance(value, (int, float)):
            plain.append(f"{label} {_number(value)}")
        elif isinstance(value, str):
            plain.append(f"{label} {value}")
        elif isinstance(value, list) and value:
            lists.append(f"{label}: {', '.join(_item(v) for v in value)}")
    return semicolon().join(part for part in (", ".join(plain), *lists) if part)


def _item(value: Any) -> str:
    """One entry of a sheet's list: a weapon {name, kind, damage...} as 'rifle (ranged, damage 2)', else itself."""
    if isinstance(value, dict) and value.get("name"):
        detail = ", ".join(str(v) if k == "kind" else f"{field_words(k)} {_number(v)}" for k, v in value.items()
                           if k != "name" and isinstance(v, (int, float, str)) and not isinstance(v, bool))
        return f"{value['name']} ({detail})" if detail else str(value["name"])
    return str(value)


def _number(value: Any) -> Any:
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _armies(scene: Any, ruleset: Any, colours: Any) -> tuple[Army, ...]:
    totals, costs = None, {}
    try:
        totals = ruleset.army_costs(scene)
        costs = {line.id: line.cost_points for line in ruleset.cost_lines(scene) or []}
    except (NotImplementedError, AttributeError, TypeError):
        totals = None
    armies = []
    for side in scene.sides:
        colour = colours.get(side.colour) if colours is not None else None
        rgb = tuple(colour.rgba[:3]) if colour is not None else (128, 128, 128)
        rows = tuple(UnitRow(item.id, kind, item.sheet, item.model, _summary(scene.sheet(item.sheet)), costs.get(item.id))
                     for kind, items in (("unit", scene.units), ("vehicle", scene.vehicles))
                     for item in items if item.side == side.id)
        armies.append(Army(side.id, side.name or side.id, rgb, rows, (totals or {}).get(side.id)))
    return tuple(armies)


def _verdict(result: Any) -> str:
    if not result.ok:
        raise ReplayError(_("{first_divergence}; a report is only made of a replay that verifies")
                          .format(first_divergence=result.first_divergence))
    checks = [_("every event re-simulated identically")]
    checks.append(_("every throw re-derived from the seeded generator") if result.chance_checked
                  else _("throws entered by hand"))
    if result.players_checked:
        checks.append(_("the AI's choices re-derived for {players}").format(players=", ".join(result.players_checked)))
    return _("Verified by bow3d ({entries} records): {checks}; {status}.").format(
        entries=result.entries, checks=", ".join(checks),
        status=_("complete") if result.complete else _("incomplete (stopped after round {round})").format(
            round=result.rounds))


def build_report(source: str | os.PathLike, *, offline: bool | str | os.PathLike | None = None,
                 pictures: bool = True, scene: str | os.PathLike | None = None, language: str = "en",
                 max_seconds: float | None = None, quality: str = "default",
                 allow_library: Collection[str] = ()) -> Report:
    """Everything the page shows (module docstring); the 3D view's glTF at `quality` (bow3d.view.gltf: the
    default draws studs low-poly and no tubes, as the film does). ReplayError for a replay that does not
    verify."""
    from bow3d import __version__
    from bow3d.replay import battle_log, open_replay, verify_replay
    from bow3d.view.film.timeline import side_styles, timeline_from_replay
    from bow3d.view.film.video import _rgb_of
    from bow3d.view.gltf.document import replay_document
    from bow3d.view.output.offscreen import RenderUnavailable
    from bow3d.view.report.moments import shoot_moments

    graph = three_modules(offline)  # before the long work: a missing three.js is said at once
    opened = open_replay(source, scene, allow_library=allow_library)
    scene_obj = opened.scene()
    world = opened.world()
    verdict = _verdict(verify_replay(opened, world))
    log = battle_log(opened, language)
    timeline = timeline_from_replay(opened, world, side_styles(scene_obj, _rgb_of), language)
    document, film = replay_document(opened, timeline=timeline, max_seconds=max_seconds, language=language,
                                     quality=quality)
    glb = document.builder.glb()
    notes: list[str] = []
    moments: list[Any] = []
    if pictures:
        try:
            moments = shoot_moments(scene_obj, timeline, opened.library(), log.result, max_seconds=max_seconds)
        except RenderUnavailable as error:
            notes.append(_("No pictures of the key moments: this machine cannot render offscreen ({error}).")
                         .format(error=error))
    header = opened.header
    ruleset = opened.ruleset
    sides = _(" vs ").join(side.name or side.id for side in scene_obj.sides)
    players = ", ".join(f"{side} ({who})" for side, who in header.players.items())
    facts: tuple[tuple[str, str], ...] = ((_("scene"), scene_obj.name or Path(opened.scene_path()).stem),
             (_("rules"), marked(ruleset.title) or ruleset.name),
             (_("players"), players), (_("rounds"), str(timeline.steps[-1].round if timeline.steps else 0)),
             (_("seed"), str(header.seed)), (_("played"), header.created[:10]))
    if opened.parts is not None:   # a pack's own parts decided the world: the page says so, and how they compare
        facts += ((_("world built"), opened.parts.words()),)
    colours = document.builder.colours
    extras = document.builder.gltf.scenes[0].extras.get("bow3d", {})
    battle = {"rounds": extras.get("rounds", []), "duration_s": extras.get("duration_s", 0.0)}
    return Report(_("{sides}: a battle report").format(sides=sides), facts,
                  log.result or _("No result: the replay ends before the game does."),
                  verdict, _armies(scene_obj, ruleset, colours), tuple((n, tuple(lines)) for n, lines in log.rounds),
                  tuple(moments), glb, battle, graph.spec(), tuple(notes), f"bow3d {__version__}")


def write_report(source: str | os.PathLike, out: str | os.PathLike, *, offline: bool | str | os.PathLike | None = None,
                 pictures: bool = True, scene: str | os.PathLike | None = None, force: bool = False,
                 language: str = "en", max_seconds: float | None = None, quality: str = "default",
                 allow_library: Collection[str] = ()) -> ReportStats:
    """Write the report of a replay or pack to `out` (.html), never over a file unless `force`."""
    from bow3d.paths import check_new, write_new

    started = time.perf_counter()
    target = check_new(out, force=force)
    with speaking(language):   # the page's own words in the narrator's language
        report = build_report(source, offline=offline, pictures=pictures, scene=scene, language=language,
                              max_seconds=max_seconds, quality=quality, allow_library=allow_library)
        text = render_page(report)
    write_new(target, text, force=force)
    return ReportStats(target, len(text.encode()), len(report.glb), sum(1 for m in report.moments if m.jpeg),
                       report.three["mode"], report.three["version"], time.perf_counter() - started, report.notes)


__all__ = ["THREE_VERSION", "ReportStats", "build_report", "three_modules", "write_report"]
