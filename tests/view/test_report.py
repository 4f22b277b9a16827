"""`bow3d report` (bow3d.view.report): one self-contained page, opened from a file in a real headless
Chromium: the offline page (three.js carried inside) loads without console errors, its canvas is not
blank and the round slider moves the armies; the default page loads three.js from the CDN with every
module's integrity checked (the CDN played by a local HTTPS server); the log, the armies and the pictures
are there, every text escaped; bad input is one line and exit 2."""

from __future__ import annotations

import base64
import http.server
import json
import re
import shutil
import ssl
import subprocess
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from bow3d.cli import main
from bow3d.view.report import THREE_VERSION, build_report, three
from bow3d.view.report.page import Report, render_page, script_json
from bow3d.view.report.three import CDN_BASE, PINNED, PINNED_DEPENDENCIES, cdn_graph, find_three, local_graph
from tests.view.browser import chromium, console_errors, installed_three, wait_for

READY = "return window.bow3dView && (window.bow3dView.ready || window.bow3dView.error) && window.bow3dView"
POSITIONS = "const v = window.bow3dView; return Object.fromEntries(v.units.map((u) => [u, v.unitPosition(u)]))"
# How much of the canvas is drawn: distinct colours on a grid of samples, and the share unlike the background.
CANVAS = """
const c = document.getElementById('battle-canvas');
const probe = document.createElement('canvas'); probe.width = 96; probe.height = 54;
const g = probe.getContext('2d'); g.drawImage(c, 0, 0, 96, 54);
const d = g.getImageData(0, 0, 96, 54).data; const seen = new Set(); let drawn = 0;
for (let i = 0; i < d.length; i += 4) {
  seen.add((d[i] >> 4) + ',' + (d[i + 1] >> 4) + ',' + (d[i + 2] >> 4));
  if (Math.abs(d[i] - 0xdd) + Math.abs(d[i + 1] - 0xe6) + Math.abs(d[i + 2] - 0xee) > 30) drawn++;
}
return [seen.size, drawn / (d.length / 4)];
"""


@pytest.fixture(scope="module")
def report(village_replay) -> Report:
    """The report of the village game, with its pictures and three.js carried inside (built once)."""
    installed_three()
    built = build_report(village_replay, offline=True)
    assert built.three["mode"] == "inline"
    return built


@pytest.fixture(scope="module")
def offline_page(tmp_path_factory, report) -> Path:
    out = tmp_path_factory.mktemp("report") / "battle.html"
    out.write_text(render_page(report))
    return out


@pytest.fixture(scope="module")
def cdn_page(tmp_path_factory, report) -> Path:
    """The same report as the default makes it: three.js from the CDN."""
    out = tmp_path_factory.mktemp("report") / "cdn.html"
    out.write_text(render_page(replace(report, three=cdn_graph().spec())))
    return out


def test_the_pinned_modules_are_those_of_the_installed_three():
    """The CDN pins (paths, what each imports, sha384) are the files `npm install three@THREE_VERSION` gives."""
    folder = installed_three()
    graph = local_graph(folder)
    assert [m.path for m in graph.modules] == list(PINNED)
    assert {m.path: m.integrity for m in graph.modules} == PINNED
    assert {m.path: m.dependencies for m in graph.modules} == PINNED_DEPENDENCIES


def test_the_offline_page_runs_in_chromium_and_the_slider_moves_the_armies(offline_page):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    with chromium() as browser:
        browser.get(offline_page.as_uri())
        state = wait_for(browser, READY)
        assert state and state["ready"] and not state["error"], state
        assert console_errors(browser) == []
        colours, drawn = browser.execute_script(CANVAS)
        assert colours > 20 and drawn > 0.3, (colours, drawn)  # a battlefield, not an empty canvas
        rounds = browser.execute_script("return window.bow3dView.rounds")
        assert len(rounds) >= 2 and rounds[0]["time_s"] == 0
        before = browser.execute_script(POSITIONS)
        slider = browser.find_element(By.ID, "round-slider")
        slider.click()
        slider.send_keys(Keys.END)  # as a user would: the last round
        assert browser.execute_script("return window.bow3dView.round") == len(rounds) - 1
        after = browser.execute_script(POSITIONS)
        moved = [u for u in before if before[u] and after[u]
                 and sum((a - b) ** 2 for a, b in zip(before[u], after[u])) ** 0.5 > 0.008]  # a stud, in metres
        assert moved, (before, after)
        label = browser.find_element(By.ID, "round-label").text
        assert label.startswith(f"Round {rounds[-1]['round']}")
        assert console_errors(browser) == []


def test_the_page_fits_a_phone_without_scrolling_sideways(offline_page):
    """On a 390-pixel-wide phone nothing is wider than the screen: the armies and the moments stack in one column
    and the slider's round label wraps (the armies' 420-pixel columns and the label's 250 pixels overflowed)."""
    with chromium() as browser:
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
        browser.get(offline_page.as_uri())
        wide = browser.execute_script("""
            const width = document.documentElement.clientWidth, out = [];
            for (const e of document.querySelectorAll('body *')) {
              const box = e.getBoundingClientRect();
              if (box.right > width + 1) out.push(`${e.tagName}.${e.className}#${e.id}: ${Math.round(box.right)}`);
            }
            return [width, document.documentElement.scrollWidth, out.slice(0, 8)];""")
        assert wide[0] == 390 and wide[1] == 390 and not wide[2], wide


def test_the_page_holds_the_log_the_armies_and_the_key_moments(offline_page, village_replay):
    from bow3d.replay import battle_log

    text = offline_page.read_text()
    log = battle_log(village_replay)
    for _number, lines in log.rounds:
        for line in lines[:5] + lines[-2:]:
            assert html_text(line) in text
    assert "Blue army" in text and "Red army" in text and "points" in text
    pictures = re.findall(r'src="data:image/jpeg;base64,([^"]+)"', text)
    if "No pictures of the key moments" not in text:
        assert len(pictures) >= 2 and all(base64.b64decode(p)[:2] == b"\xff\xd8" for p in pictures)
    assert "Verified by bow3d" in text and "https://" not in text.split("<script", 1)[0].split("<footer")[0]
    assert '<script src=' not in text  # everything is inside the page


def html_text(line: str) -> str:
    import html

    return html.escape(line, quote=True)


def test_the_default_page_pins_three_on_the_cdn_with_integrity(cdn_page, offline_page):
    spec = json.loads(re.search(r'<script type="application/json" id="bow3d-three"[^>]*>(.*?)</script>',
                                cdn_page.read_text(), re.S).group(1))
    assert spec["mode"] == "cdn" and spec["base"] == CDN_BASE and THREE_VERSION in CDN_BASE
    assert all(m["integrity"].startswith("sha384-") and "source" not in m for m in spec["modules"])
    assert offline_page.stat().st_size - cdn_page.stat().st_size > 2_000_000  # three.js, carried or not


class _Cdn(http.server.BaseHTTPRequestHandler):
    """jsDelivr played on the loopback: /npm/three@VERSION/<path> from the installed copy (or tampered)."""

    folder: Path
    tamper: bool = False

    def do_GET(self) -> None:
        prefix = f"/npm/three@{THREE_VERSION}/"
        path = self.path.split("?", 1)[0]
        file = self.folder / path[len(prefix):] if path.startswith(prefix) else None
        if file is None or not file.is_file() or ".." in path:
            self.send_error(404)
            return
        data = file.read_bytes()
        if self.tamper and path.endswith("three.core.js"):
            data = data.replace(b"REVISION", b"REVISI0N", 1)
        self.send_response(200)
        self.send_header("Content-Type", "text/javascript")
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def cdn(tmp_path):
    """A local HTTPS server standing in for the CDN; (port, handler class)."""
    folder = installed_three()
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("no openssl to make the stand-in CDN's certificate")
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                    "/CN=cdn.jsdelivr.net", "-keyout", str(tmp_path / "key.pem"), "-out", str(tmp_path / "cert.pem")],
                   check=True, capture_output=True, timeout=60)
    handler = type("Cdn", (_Cdn,), {"folder": folder, "tamper": False})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(tmp_path / "cert.pem", tmp_path / "key.pem")
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1], handler
    finally:
        server.shutdown()
        server.server_close()


def test_the_cdn_page_loads_three_checking_every_module(cdn, cdn_page):
    """The default page fetches the pinned files (here from a stand-in for jsDelivr on the loopback) and the
    browser checks each one's sha384: the untouched files load; a file changed by one byte is refused and the
    page says the 3D view could not start, with what to do."""
    port, handler = cdn
    out = cdn_page
    rules = (f"--host-resolver-rules=MAP cdn.jsdelivr.net 127.0.0.1:{port}", "--ignore-certificate-errors")
    with chromium(extra=rules) as browser:
        browser.get(out.as_uri())
        state = wait_for(browser, READY)
        assert state and state["ready"] and not state["error"], state
        handler.tamper = True
        browser.get(out.as_uri() + "?again")
        state = wait_for(browser, READY)
        assert state and state["error"] and not state["ready"], state
        status = browser.execute_script("return document.getElementById('view-status').textContent")
        assert "could not start" in status and "--offline" in status


def test_page_text_is_escaped_and_data_cannot_close_its_script_block():
    hostile = "</script><script>alert('x')</script>"
    assert "</" not in script_json({"a": hostile}) and json.loads(script_json({"a": hostile}))["a"] == hostile
    page = render_page(Report(hostile, (("scene", hostile),), hostile, hostile, (), ((1, (hostile,)),), (), b"glTF",
                              {"rounds": [], "duration_s": 0.0, "note": hostile}, {"mode": "cdn", "modules": []}))
    assert "<script>alert" not in page and page.count("<script") == 4


def test_bad_input_is_one_line_and_exit_2(tmp_path, village_replay, capsys):
    out = tmp_path / "mine.html"
    out.write_text("my page")
    assert main(["report", str(village_replay), "-o", str(out)]) == 2
    assert "already exists" in capsys.readouterr().err and out.read_text() == "my page"
    assert main(["report", str(village_replay), "-o", str(tmp_path / "x.html"), "--offline",
                 str(tmp_path / "nothing")]) == 2
    err = capsys.readouterr().err
    assert "no three.js package there" in err and "npm install three@" in err and err.count("\n") == 1
    forged = tmp_path / "forged.bowreplay"
    lines = village_replay.read_text().splitlines()
    first_roll = next(i for i, line in enumerate(lines) if '"type":"roll"' in line)
    entry = json.loads(lines[first_roll])
    entry["record"]["outcome"] = 0 if entry["record"]["outcome"] else 1
    for event in entry["events"]:
        if event["type"] == "rolled":
            event["outcome"] = entry["record"]["outcome"]
    lines[first_roll] = json.dumps(entry, separators=(",", ":"))
    forged.write_text("\n".join(lines) + "\n")
    assert main(["report", str(forged), "-o", str(tmp_path / "forged.html")]) == 2
    err = capsys.readouterr().err
    assert "a report is only made of a replay that verifies" in err and err.count("\n") == 1
    assert not (tmp_path / "forged.html").exists() and not (tmp_path / "x.html").exists()


# --- where three.js comes from (issue 32) -------------------------------------------------------------

FOREIGN = b"window.__foreign = 1;\n"
SPEC = r'<script type="application/json" id="bow3d-three"[^>]*>(.*?)</script>'


def copy_three(folder: Path, *, foreign: bool = False) -> Path:
    """The installed three's package.json and pinned files copied to `folder`; with `foreign`, a planted copy:
    each module first runs `window.__foreign = 1`."""
    genuine = installed_three()
    for path in ("package.json", *PINNED):
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        data = (genuine / path).read_bytes()
        target.write_bytes(FOREIGN + data if foreign and path != "package.json" else data)
    return folder


@pytest.fixture(scope="module")
def beside_a_planted_three(tmp_path_factory, village_replay) -> Path:
    """An offline report made in a folder whose parent holds a planted node_modules/three (THREE_VERSION's
    files, each running `window.__foreign = 1` first), as in a shared temporary folder: the page."""
    top = tmp_path_factory.mktemp("shared")
    copy_three(top / "node_modules" / "three", foreign=True)
    work = top / "work"
    work.mkdir()
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(work)
        assert main(["report", str(village_replay), "-o", "battle.html", "--offline", "--no-pictures"]) == 0
    return work / "battle.html"


def test_a_three_planted_above_the_working_folder_is_not_inlined(beside_a_planted_three):
    """Was: node_modules/three from the working folder up to / was inlined unchecked."""
    page = beside_a_planted_three.read_text()
    assert page.count("__foreign") == 0  # (a count: pytest explaining `in` on a 3.7 MB page takes minutes)
    spec = json.loads(re.search(SPEC, page, re.S).group(1))
    assert spec["mode"] == "inline"
    assert {module["path"]: module["integrity"] for module in spec["modules"]} == PINNED


def test_in_chromium_no_script_of_a_planted_three_runs(beside_a_planted_three):
    with chromium() as browser:
        browser.get(beside_a_planted_three.as_uri())
        state = wait_for(browser, READY)
        assert state and state["ready"] and not state["error"], state
        assert browser.execute_script("return typeof window.__foreign") == "undefined"


def test_without_npms_three_a_planted_one_above_is_refused_plainly(tmp_path, monkeypatch, village_replay, capsys):
    planted = tmp_path / "node_modules" / "three"
    for path in PINNED:
        (planted / path).parent.mkdir(parents=True, exist_ok=True)
        (planted / path).write_bytes(FOREIGN)
    (planted / "package.json").write_text(json.dumps({"name": "three", "version": THREE_VERSION}))
    work = tmp_path / "work"
    work.mkdir()
    npm_global = tmp_path / "npm-global"
    npm_global.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setattr(three, "npm_global_root", lambda: npm_global, raising=False)
    assert main(["report", str(village_replay), "-o", "battle.html", "--offline", "--no-pictures"]) == 2
    err = capsys.readouterr().err
    assert f"npm's global folder ({npm_global})" in err and "never from a node_modules above" in err, err
    assert err.count("\n") == 1 and not (work / "battle.html").exists()


def test_a_tampered_file_or_another_version_in_a_named_folder_is_refused(tmp_path, village_replay, capsys):
    folder = copy_three(tmp_path / "three")
    loader = folder / "examples" / "jsm" / "loaders" / "GLTFLoader.js"
    loader.write_bytes(loader.read_bytes() + b"\n" + FOREIGN)
    out = tmp_path / "battle.html"
    assert main(["report", str(village_replay), "-o", str(out), "--offline", str(folder), "--no-pictures"]) == 2
    err = capsys.readouterr().err
    assert f"{loader}: not the file of three {THREE_VERSION}" in err and err.count("\n") == 1, err
    (folder / "package.json").write_text(json.dumps({"name": "three", "version": "0.150.0"}))
    assert main(["report", str(village_replay), "-o", str(out), "--offline", str(folder), "--no-pictures"]) == 2
    err = capsys.readouterr().err
    assert f"three 0.150.0, and the report takes only three {THREE_VERSION}" in err and err.count("\n") == 1, err
    assert not out.exists()


def test_a_link_out_of_the_package_is_refused(tmp_path, village_replay, capsys):
    folder = copy_three(tmp_path / "three")
    controls = folder / "examples" / "jsm" / "controls" / "OrbitControls.js"
    outside = tmp_path / "elsewhere" / "OrbitControls.js"
    outside.parent.mkdir()
    outside.write_bytes(controls.read_bytes())  # the genuine bytes: the link alone is refused
    controls.unlink()
    controls.symlink_to(outside)
    out = tmp_path / "battle.html"
    assert main(["report", str(village_replay), "-o", str(out), "--offline", str(folder), "--no-pictures"]) == 2
    err = capsys.readouterr().err
    assert f"{controls}: a link out of the three.js package (to {outside})" in err and err.count("\n") == 1, err
    assert not out.exists()
    # a link inside the package, and a package folder reached through a link (as pnpm lays them out), are read
    (folder / "store").mkdir()
    outside.rename(folder / "store" / "OrbitControls.js")
    controls.unlink()
    controls.symlink_to(folder / "store" / "OrbitControls.js")
    (tmp_path / "linked" / "node_modules").mkdir(parents=True)
    (tmp_path / "linked" / "node_modules" / "three").symlink_to(folder)
    graph = local_graph(find_three(tmp_path / "linked"))
    assert {module.path: module.integrity for module in graph.modules} == PINNED


def test_ci_installs_the_pinned_three():
    """.ci/run installs the three.js the CDN pins name, so the pins are checked against it on every run."""
    ci = (Path(__file__).resolve().parents[2] / ".ci" / "run").read_text()
    assert f"THREE_VERSION={THREE_VERSION}" in ci and "chromium chromium-driver" in ci
