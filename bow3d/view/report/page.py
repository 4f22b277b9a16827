"""The battle report as one HTML page: every text escaped, every byte it needs inside it.

Layer: view (text only). `render_page(report)` writes the page of a `Report`: the title and result, the
3D view (a canvas, the round slider and a play button, driven by bow3d.view.report.viewer_js), the key
moments (JPEG pictures as data URIs), the armies and the battle log by round. Data the scripts read
sits in non-executed script blocks (JSON, or the .glb in base64) whose text cannot close them.
"""

from __future__ import annotations

import base64
import html
import json
from dataclasses import dataclass, field
from typing import Any

from bow3d.i18n import _, current, decimal
from bow3d.view.report.viewer_js import LOADER_JS, viewer_js


@dataclass(frozen=True)
class UnitRow:
    id: str
    kind: str
    sheet: str
    model: str
    summary: str
    cost: int | None = None


@dataclass(frozen=True)
class Army:
    id: str
    name: str
    rgb: tuple[int, int, int]
    units: tuple[UnitRow, ...]
    points: int | None = None


@dataclass(frozen=True)
class Report:
    """Everything the page shows (built by bow3d.view.report.build_report)."""

    title: str
    facts: tuple[tuple[str, str], ...]      # (label, value) lines under the title
    result: str
    verdict: str                            # what verify said
    armies: tuple[Army, ...]
    rounds: tuple[tuple[int, tuple[str, ...]], ...]
    moments: tuple[Any, ...]                # bow3d.view.report.moments.Moment
    glb: bytes
    battle: dict[str, Any]                  # rounds and duration, for the slider
    three: dict[str, Any]                   # the module graph (bow3d.view.report.three.ModuleGraph.spec)
    notes: tuple[str, ...] = field(default_factory=tuple)
    generator: str = "bow3d"


def script_json(value: Any) -> str:
    """JSON that can sit inside a <script> block: no '<', '>' or '&' left to end it early."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026").replace(
        "\u2028", "\\u2028").replace("\u2029", "\\u2029")


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


CSS = """
:root { --ink: #1d232a; --muted: #5d6975; --line: #d5dbe1; --paper: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink);
       background: var(--paper); }
main { max-width: 1100px; margin: 0 auto; padding: 24px 20px 60px; }
h1 { font-size: 30px; margin: 0 0 4px; } h2 { font-size: 22px; margin: 36px 0 12px; border-bottom: 2px solid var(--line); }
.facts { color: var(--muted); margin: 0 0 12px; } .facts b { color: var(--ink); font-weight: 600; }
.result { font-size: 20px; font-weight: 600; margin: 12px 0 4px; } .verdict { color: #2b6b3a; font-size: 14px; }
.viewer { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 10px; margin-top: 20px; }
#battle-canvas { width: 100%; aspect-ratio: 16 / 9; display: block; border-radius: 4px; background: #dde6ee; }
.controls { display: flex; flex-wrap: wrap; align-items: center; gap: 12px; margin-top: 10px; }
.controls input[type=range] { flex: 1; min-width: 120px; }
#round-label { min-width: min(250px, 100%); font-variant-numeric: tabular-nums; }
#view-status { color: var(--muted); font-size: 14px; margin: 6px 0 0; } #view-status.error { color: #a22; }
.moments { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(320px, 100%), 1fr)); gap: 14px; }
figure { margin: 0; background: #fff; border: 1px solid var(--line); border-radius: 6px; overflow: hidden; }
figure img { width: 100%; display: block; } figcaption { padding: 8px 10px; font-size: 14px; }
figcaption .round { color: var(--muted); display: block; font-size: 12px; }
.armies { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(420px, 100%), 1fr)); gap: 16px; }
.army { background: #fff; border: 1px solid var(--line); border-top: 6px solid var(--side); border-radius: 6px;
        padding: 10px 14px; }
.army h3 { margin: 4px 0 8px; } .army table { width: 100%; border-collapse: collapse; font-size: 14px; }
.army td { padding: 4px 6px; border-top: 1px solid var(--line); vertical-align: top; }
.army td.id { font-weight: 600; white-space: nowrap; } .army td.num { text-align: right; white-space: nowrap; }
details { background: #fff; border: 1px solid var(--line); border-radius: 6px; margin: 8px 0; padding: 6px 12px; }
summary { font-weight: 600; cursor: pointer; } details ol { margin: 6px 0; padding-left: 24px; font-size: 14px; }
.notes, footer { color: var(--muted); font-size: 13px; margin-top: 30px; }
"""


def _facts(report: Report) -> str:
    return " · ".join(f"{_e(label)} <b>{_e(value)}</b>" for label, value in report.facts)


def _moments(report: Report) -> str:
    if not report.moments:
        return ""
    figures = []
    for moment in report.moments:
        if not moment.jpeg:
            continue
        data = base64.b64encode(moment.jpeg).decode()
        when = _("Before the battle") if moment.round == 0 else _("Round {number}").format(number=moment.round)
        into = _("{seconds} s into the film").format(seconds=decimal(moment.time_s))
        figures.append(f'<figure><img alt="{_e(moment.caption)}" src="data:image/jpeg;base64,{data}">'
                       f'<figcaption><span class="round">{_e(when)} · {_e(into)}</span>'
                       f'{_e(moment.caption)}</figcaption></figure>')
    heading = _("Key moments")
    return f'<h2>{_e(heading)}</h2><div class="moments">{"".join(figures)}</div>' if figures else ""


def _armies(report: Report) -> str:
    blocks = []
    for army in report.armies:
        rgb = "#{:02x}{:02x}{:02x}".format(*army.rgb)
        points = _(" · {points} points").format(points=army.points) if army.points is not None else ""
        vehicle = _(" (vehicle)")
        rows = "".join(
            f'<tr><td class="id">{_e(u.id)}</td><td>{_e(u.sheet)}{_e(vehicle) if u.kind == "vehicle" else ""}'
            f'</td><td>{_e(u.summary)}</td><td class="num">{"" if u.cost is None else _e(u.cost)}</td></tr>'
            for u in army.units)
        count = _("{n} units and vehicles").format(n=len(army.units))
        blocks.append(f'<section class="army" style="--side: {rgb}"><h3>{_e(army.name)}</h3>'
                      f'<div class="facts">{_e(count)}{_e(points)}</div>'
                      f"<table>{rows}</table></section>")
    heading = _("The armies")
    return f'<h2>{_e(heading)}</h2><div class="armies">{"".join(blocks)}</div>'


def _log(report: Report) -> str:
    parts = []
    for number, lines in report.rounds:
        heading = _("Before the battle") if number == 0 else _("Round {number}").format(number=number)
        items = "".join(f"<li>{_e(line)}</li>" for line in lines)
        count = _("({n} lines)").format(n=len(lines))
        parts.append(f'<details open id="round-{number}"><summary>{_e(heading)} '
                     f'<span class="facts">{_e(count)}</span></summary><ol>{items}</ol></details>')
    title = _("Battle log")
    return f'<h2>{_e(title)}</h2>{"".join(parts)}<p class="result">{_e(report.result)}</p>'


def render_page(report: Report) -> str:
    """The whole page (UTF-8 text)."""
    notes = "".join(f"<p>{_e(note)}</p>" for note in report.notes)
    glb = base64.b64encode(report.glb).decode()
    mode = _e(report.three.get("mode", "inline"))
    where = (_("carried in this page") if mode == "inline"
             else _("from {base}").format(base=_e(report.three.get("base") or "")))
    made = _("Made by {generator} from a replay; the 3D view uses three.js {version}").format(
        generator=_e(report.generator), version=_e(report.three.get("version", "")))
    words = [_e(word) for word in (_("3D view of the battle"), _("Play"), _("round"), _("Loading the 3D view..."),
                                   _("Loading three.js and the battlefield..."))]
    return f"""<!DOCTYPE html>
<html lang="{current()}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="{_e(report.generator)}">
<title>{_e(report.title)}</title>
<style>{CSS}</style>
</head>
<body>
<main>
<h1>{_e(report.title)}</h1>
<p class="facts">{_facts(report)}</p>
<p class="result">{_e(report.result)}</p>
<p class="verdict">{_e(report.verdict)}</p>
<section class="viewer" aria-label="{words[0]}">
<canvas id="battle-canvas" width="1024" height="576"></canvas>
<div class="controls">
<button id="play-button" type="button">{words[1]}</button>
<input id="round-slider" type="range" min="0" max="0" step="1" value="0" aria-label="{words[2]}">
<span id="round-label">{words[3]}</span>
</div>
<p id="view-status">{words[4]}</p>
</section>
{_moments(report)}
{_armies(report)}
{_log(report)}
<div class="notes">{notes}</div>
<footer>{made}
({where}).</footer>
</main>
<script type="application/json" id="bow3d-three" data-mode="{mode}">{script_json(report.three)}</script>
<script type="application/json" id="bow3d-battle">{script_json(report.battle)}</script>
<script type="application/octet-stream" id="bow3d-glb">{glb}</script>
<script type="module">{LOADER_JS}{viewer_js()}</script>
</body>
</html>
"""
