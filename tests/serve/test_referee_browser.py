"""The referee page in a real Chromium at a phone's size (390 x 844): figures moved by dragging on the canvas
give the verdict of `bow3d los --json` on a scene written with the page's placements (issue 31)."""

from __future__ import annotations

import json
import random
import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from bow3d.cli import main
from bow3d.ldraw import Library
from bow3d.serve.app import Server, create_app, three_spec
from bow3d.serve.catalogue import Catalogue
from bow3d.serve.referee import Referee
from bow3d.serve.store import Store
from bow3d.view.report.three import local_graph
from tests.view.browser import chromium, console_errors, installed_three, wait_for

SCENES = Path(__file__).resolve().parents[2] / "scenes"
PHONE = (390, 844)
# scene, firer, target, the figures dragged in turn (firer, target and a third that may get in the way)
CASES = (("village", "blue-rifle-2", "red-pistol", ("blue-rifle-2", "red-pistol", "blue-sword")),
         ("western-town", "marshal", "black-bart", ("marshal", "black-bart", "brawler")))
DRAGS = 10      # per scene: 20 placements in all


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[str]:
    """The server (catalogue: the village and the Western town, the referee page on) on a free port."""
    uvicorn = pytest.importorskip("uvicorn")
    graph = local_graph(installed_three())
    catalogue = Catalogue([SCENES / "village.yaml", SCENES / "western-town.yaml"], Library.from_env(None))
    server = Server(catalogue, Store(":memory:"), tmp_path_factory.mktemp("serve"), referee=None)
    server.three = graph
    server.referee = Referee(server.catalogue, lambda: three_spec(server))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    runner = uvicorn.Server(uvicorn.Config(create_app(server), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=runner.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not runner.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    runner.should_exit = True
    thread.join(10)


def phone(driver) -> None:
    """A phone's viewport (headless Chromium keeps windows at least 500 px wide)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": PHONE[0], "height": PHONE[1],
                                                                  "deviceScaleFactor": 1, "mobile": True})


def settle(driver, answers: int) -> dict:
    """Wait for the page's answer after `answers` of them; the page's state then."""
    state = wait_for(driver, f"const r = window.bow3dReferee; return r.answers > {answers} && r.busy === 0 && "
                     "{answers: r.answers, placements: r.placements, firer: r.firer, target: r.target, "
                     "verdict: r.verdict, selected: r.selected, error: document.getElementById('error').textContent, "
                     "text: document.getElementById('verdict-text').textContent, "
                     "share: document.getElementById('share').textContent}", 30)
    assert state, "the page gave no answer"
    return state


def drag(driver, canvas, start: dict, end: dict) -> None:
    """A real pointer drag on the canvas from one page point to another, in a few moves."""
    from selenium.webdriver.common.action_chains import ActionChains

    rect = driver.execute_script("const r = arguments[0].getBoundingClientRect(); "
                                 "return [r.left + r.width / 2, r.top + r.height / 2]", canvas)
    chain = ActionChains(driver, duration=40)
    chain.move_to_element_with_offset(canvas, int(start["x"] - rect[0]), int(start["y"] - rect[1])).click_and_hold()
    for k in (1, 2, 3):
        chain.move_to_element_with_offset(canvas, int(start["x"] + (end["x"] - start["x"]) * k / 3 - rect[0]),
                                          int(start["y"] + (end["y"] - start["y"]) * k / 3 - rect[1]))
    chain.release().perform()


def tap(driver, canvas, at: dict) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    rect = driver.execute_script("const r = arguments[0].getBoundingClientRect(); "
                                 "return [r.left + r.width / 2, r.top + r.height / 2]", canvas)
    ActionChains(driver, duration=40).move_to_element_with_offset(
        canvas, int(at["x"] - rect[0]), int(at["y"] - rect[1])).click().perform()


def choose(driver, canvas, role: str, id_: str, answers: int) -> int:
    """Tap the figure on the canvas, then the Firer or Target button."""
    box = driver.execute_script("return bow3dReferee.screenOfFigure(arguments[0])", id_)
    tap(driver, canvas, box["centre"])
    assert wait_for(driver, "return bow3dReferee.selected", 5) == id_, f"tapping {id_} did not select it"
    driver.find_element("id", f"make-{role}").click()
    return settle(driver, answers)["answers"]


def referee_scene(driver, base: str, scene: str, firer: str, target: str, movers: tuple[str, ...],
                  seed: int) -> list[dict]:
    """DRAGS placements made by dragging on one scene's page: what the page showed after each."""
    driver.get(f"{base}/referee/{scene}")
    assert wait_for(driver, "return bow3dReferee.ready || bow3dReferee.error", 90) is True, \
        driver.execute_script("return bow3dReferee.error")
    canvas = driver.find_element("id", "referee-canvas")
    answers = driver.execute_script("return bow3dReferee.answers")
    answers = choose(driver, canvas, "firer", firer, answers)
    answers = choose(driver, canvas, "target", target, answers)
    width, depth = {"village": (64, 64), "western-town": (96, 64)}[scene]
    rng = random.Random(seed)
    shown = []
    for k in range(DRAGS):
        mover = movers[k % len(movers)]
        start = driver.execute_script("return bow3dReferee.screenOfFigure(arguments[0])", mover)["centre"]
        assert driver.execute_script("return bow3dReferee.figureAt(arguments[0], arguments[1])",
                                     start["x"], start["y"]) == mover
        before = driver.execute_script("return bow3dReferee.current(arguments[0])", mover)
        while True:   # a stud whose point on the canvas lies inside it
            x, y = rng.randrange(4, width - 4) + 0.5, rng.randrange(4, depth - 4) + 0.5
            end = driver.execute_script("return bow3dReferee.screenOf(arguments[0], arguments[1])", x, y)
            if 8 < end["x"] < PHONE[0] - 8 and 8 < end["y"] < canvas.size["height"] + canvas.location["y"] - 8:
                break
        drag(driver, canvas, start, end)
        state = settle(driver, answers)
        answers = state["answers"]
        assert not state["error"], state["error"]
        assert state["placements"][mover] != before, f"dragging {mover} did not move it"
        assert state["verdict"] and state["firer"] == firer and state["target"] == target
        shown.append({**state, "scene": scene, "mover": mover})
        if k == 0:
            driver.save_screenshot(f"/tmp/referee-{scene}-drag.png")
    assert console_errors(driver) == []
    return shown


@pytest.mark.slow
def test_dragged_placements_give_the_verdict_of_bow3d_los(served: str, tmp_path: Path, capsys) -> None:
    shown = []
    with chromium(size=PHONE) as driver:
        phone(driver)
        for seed, (scene, firer, target, movers) in enumerate(CASES):
            shown += referee_scene(driver, served, scene, firer, target, movers, seed)
    assert len(shown) == 2 * DRAGS
    folder = tmp_path / "scenes"   # the saved scenes beside the battlefields and figures they name
    shutil.copytree(SCENES, folder, ignore=shutil.ignore_patterns("*.yaml", "*.py", "*.txt", "*.md"))
    worst = 0.0
    for k, state in enumerate(shown):
        saved = httpx.post(f"{served}/api/referee/{state['scene']}/scene", json={"placements": state["placements"]})
        assert saved.status_code == 200, saved.text
        path = folder / f"placed-{k}.yaml"
        path.write_text(saved.text, encoding="utf-8")
        capsys.readouterr()
        assert main(["los", str(path), state["firer"], state["target"], "--json", "--allow-missing"]) == 0
        cli = json.loads(capsys.readouterr().out)
        share = float(re.sub(r"[^0-9.,-]", "", state["share"]).replace(",", "."))
        worst = max(worst, abs(share - 100 * cli["visible_fraction"]))
        assert abs(share - 100 * cli["visible_fraction"]) <= 0.5, (state, cli["text"])
        assert state["text"] == cli["text"]
    print(f"20 dragged placements: largest difference in share seen {worst:.3f} points")
