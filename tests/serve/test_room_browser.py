"""Rooms in a real Chromium (issue 31): two browser sessions play a whole BOW game against each other by
clicking the page, a third watches and sees the same end, and the replay verifies; a room of every other
ruleset plays two full rounds against an AI seat. One player is on a phone-sized viewport."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from bow3d.replay import verify_replay
from bow3d.view.report.three import local_graph
from tests.serve.conftest import SCENES, Live, live_server
from tests.view.browser import chromium, console_errors, installed_three, wait_for as poll_for


def wait_for(driver, script: str, seconds: float = 60.0):
    """Poll every 50 ms: a game is hundreds of clicks."""
    return poll_for(driver, script, seconds, poll=0.05)

pytestmark = pytest.mark.slow  # no xdist group: the three games spread over the workers (each its own server)
PHONE = (390, 844)
END_KINDS = ("end_turn", "end_step", "end_activation")


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[Live]:
    with live_server(tmp_path_factory.mktemp("serve") / "data", list(SCENES.values()), ai_delay=0.0,
                     three=local_graph(installed_three())) as live:
        yield live


def phone(driver) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": PHONE[0], "height": PHONE[1],
                                                                  "deviceScaleFactor": 1, "mobile": True})


def state(driver) -> dict:
    return driver.execute_script("const s = window.bow3dRoom && window.bow3dRoom.state; return s ? "
                                 "{records: s.records, drawn: window.bow3dRoom.drawn, mine: s.awaiting.mine, side: s.awaiting.side, round: s.awaiting.round,"
                                 " result: s.result, pieces: s.pieces} : null")


def tap_a_lit_cell(driver) -> bool:
    """Tap (click) one of the chosen unit's lit cells on the 3D view; True when its move is previewed."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    canvas = driver.find_element(By.ID, "battle-canvas")
    driver.execute_script("window.scrollTo(0, 0)")
    box = driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.width, r.height]",
                                canvas)
    for cell in (driver.execute_script("return window.bow3dRoom.lit") or [])[:3]:
        x, y = driver.execute_script("return window.bow3dRoom.cellOnScreen(arguments[0], arguments[1])", *cell)
        if not (box[0] + 4 < x < box[0] + box[2] - 4 and box[1] + 4 < y < box[1] + box[3] - 4):
            continue
        ActionChains(driver).move_to_element_with_offset(canvas, x - box[0] - box[2] / 2,
                                                         y - box[1] - box[3] / 2).click().perform()
        if wait_for(driver, "return !document.getElementById('preview').hidden", 1):
            return True
    return False


def click_once(driver, turn: int) -> bool:
    """Play one choice of this page's seat by clicking it, a lit cell on the battlefield for a move now and
    then (and Commit when it is previewed); False when the seat has nothing to do now."""
    from selenium.webdriver.common.by import By

    now = state(driver)
    if not now or not now["mine"] or now["result"] or now["drawn"] != now["records"]:
        return False
    if turn % 5 == 1 and tap_a_lit_cell(driver):
        TAPS.append(turn)

    else:
        buttons = [b for b in driver.find_elements(By.CSS_SELECTOR, "#choices button.choice") if b.is_displayed()]
        if not buttons or turn % 7 == 3:  # the folded list of moves, opened
            for summary in driver.find_elements(By.CSS_SELECTOR, "#choices details.moves:not([open]) summary"):
                driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", summary)
                summary.click()
            buttons = [b for b in driver.find_elements(By.CSS_SELECTOR, "#choices button.choice") if b.is_displayed()]
        if not buttons:
            return False
        ends = [b for b in buttons if b.get_attribute("data-kind") in END_KINDS]
        button = ends[0] if ends and turn % 4 else buttons[(turn * 5) % len(buttons)]
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
        button.click()
    if wait_for(driver, "return !document.getElementById('preview').hidden || "
                f"window.bow3dRoom.state.records > {now['records']}", 20) and not driver.execute_script(
                    f"return window.bow3dRoom.state.records > {now['records']}"):
        commit = driver.find_element(By.ID, "commit")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", commit)
        commit.click()
    assert wait_for(driver, f"return window.bow3dRoom.state.records > {now['records']} || "
                    "window.bow3dRoom.errors.length > 0", 60), "the click changed nothing"
    assert not driver.execute_script("return window.bow3dRoom.errors"), driver.execute_script(
        "return window.bow3dRoom.errors")
    return True


TAPS: list[int] = []  # the turns played by tapping a lit cell on the battlefield


def play_pages(drivers: dict[str, object], clicks: int = 400) -> dict:
    """Click through the game on the pages of `drivers` (side -> driver) until it is over."""
    turn = 0
    deadline = time.monotonic() + 600
    while turn < clicks and time.monotonic() < deadline:
        any_driver = next(iter(drivers.values()))
        now = state(any_driver)
        if now and now["result"]:
            return now
        played = False
        for driver in drivers.values():
            if click_once(driver, turn):
                turn += 1
                played = True
        if not played:
            time.sleep(0.1)
    raise AssertionError(f"the game did not end after {turn} clicks")


def open_room(driver, live: Live, link: str) -> None:
    driver.get(live.url + link)
    assert wait_for(driver, "return window.bow3dRoom && window.bow3dRoom.state && window.bow3dRoom.ready3d || "
                    "(window.bow3dRoom && window.bow3dRoom.error3d)", 90)
    assert not driver.execute_script("return window.bow3dRoom.error3d")


def test_two_browsers_play_a_whole_bow_game_and_a_third_watches(served, tmp_path):
    status, answer = served.post("/api/rooms", {"scene": "village", "seats": {}, "seed": 7, "max_rounds": 2})
    assert status == 201
    links = answer["links"]
    room = answer["room"]
    with chromium(size=(500, 900)) as blue, chromium(size=(800, 600)) as red, chromium(size=(800, 600)) as watcher:
        phone(blue)
        for driver, role in ((blue, "blue"), (red, "red"), (watcher, "spectator")):
            open_room(driver, served, links[role])
        assert driver_text(watcher, "who").endswith(("watch this game", "You watch this game"))
        TAPS.clear()
        final = play_pages({"blue": blue, "red": red})
        assert TAPS, "no move was played by tapping the battlefield"
        assert wait_for(watcher, f"return window.bow3dRoom.state.records === {served_records(served, room)} && "
                        "!!window.bow3dRoom.state.result && window.bow3dRoom.drawn === window.bow3dRoom.state.records", 60)
        seen = state(watcher)
        assert seen["result"] == final["result"] and seen["pieces"] == state(red)["pieces"]
        assert driver_text(watcher, "turn").endswith(final["result"])
        assert watcher.find_elements("css selector", "#choices button") == []
        blue.save_screenshot(str(tmp_path / "room-phone.png"))
        assert blue.execute_script("return document.documentElement.scrollWidth") <= PHONE[0]
        for driver in (blue, red, watcher):
            assert console_errors(driver) == []
    result = verify_replay(served.data / "rooms" / f"{room}.bowreplay")
    assert result.ok and result.complete, result


@pytest.mark.parametrize("scene", ["war-of-bros", "western-town"])
def test_a_room_of_every_other_ruleset_plays_two_rounds_against_the_ai(served, scene):
    from bow3d.rulesets import load_scene

    sides = [side.id for side in load_scene(SCENES[scene]).sides]
    status, answer = served.post("/api/rooms", {"scene": scene, "seats": {sides[1]: "ai"}, "seed": 3,
                                                "max_rounds": 2})
    assert status == 201
    with chromium(size=(500, 900)) as player:
        phone(player)
        open_room(player, served, answer["links"][sides[0]])
        final = play_pages({sides[0]: player})
        assert console_errors(player) == []
    assert final["round"] == 2, final  # both rounds played: the game ended at its round limit
    result = verify_replay(served.data / "rooms" / f"{answer['room']}.bowreplay")
    assert result.ok and result.complete and result.rounds == 2, result


def driver_text(driver, element: str) -> str:
    return driver.execute_script(f"return document.getElementById('{element}').textContent")


def served_records(live: Live, room: str) -> int:
    import json

    return json.loads(live.get(f"/api/rooms/{room}")[1])["records"]
